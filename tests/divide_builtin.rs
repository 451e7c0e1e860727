//! `divide` for our generator alone (Stockfish's format, JSON) and against a
//! saved divide (`--against FILE`, `-`), with every bad-input path.

use assert_cmd::Command;
use predicates::prelude::*;

fn chesstool() -> Command {
    Command::cargo_bin("chesstool").unwrap()
}

#[test]
fn stockfish_format_sorted_by_uci() {
    let out = chesstool().args(["divide", "-d", "1"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut expected: Vec<String> = ["a2a3", "a2a4", "b1a3", "b1c3", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4"]
        .iter()
        .chain(&["e2e3", "e2e4", "f2f3", "f2f4", "g1f3", "g1h3", "g2g3", "g2g4", "h2h3", "h2h4"])
        .map(|m| format!("{m}: 1"))
        .collect();
    expected.push(String::new());
    expected.push("Nodes searched: 20".into());
    assert_eq!(text, expected.join("\n") + "\n");
}

#[test]
fn json_shape() {
    let out = chesstool().args(["divide", "-d", "3", "--json", "--moves", "e2e4"]).output().unwrap();
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["status"], "ok");
    assert_eq!(j["root"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(j["moves"], serde_json::json!(["e2e4"]));
    assert_eq!(j["position"], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(j["depth"], 3);
    // perft 3 after 1.e4: 13160 (Stockfish 15.1, `go perft 3` after `position startpos moves e2e4`).
    assert_eq!(j["nodes"], 13160);
    assert_eq!(j["divide"].as_object().unwrap().len(), 20);
    assert_eq!(j["divide"]["e7e5"], 835);
    assert!(j["seconds"].as_f64().is_some() && j["threads"].as_u64().unwrap() >= 1, "{j}");
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    chesstool()
        .args(["divide", "-d", "2", "--fen", fen])
        .assert()
        .success()
        .stdout(predicate::str::contains("Nodes searched: 528"));
    // Moves given in SAN and long algebraic are understood.
    chesstool().args(["divide", "-d", "1", "--moves", "e4", "Ng8-f6"]).assert().success();
}

/// Stockfish 15.1's `go perft 3` with `setoption name UCI_Chess960 value true`
/// after `position fen bbqnrnkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRNKR w HEhe - 0 1
/// moves f1e3 f8e6` (Chess960 start position 96, then the f-knights out):
/// `g1h1` is castling with the h-rook, the king staying on g1.
const SF_CHESS960_96_D3: &[(&str, u64)] = &[
    ("a2a3", 527),
    ("b2b3", 709),
    ("c2c3", 663),
    ("d2d3", 527),
    ("f2f3", 550),
    ("g2g3", 548),
    ("h2h3", 548),
    ("a2a4", 527),
    ("b2b4", 711),
    ("c2c4", 685),
    ("d2d4", 528),
    ("f2f4", 551),
    ("g2g4", 524),
    ("h2h4", 572),
    ("d1c3", 642),
    ("e3f1", 458),
    ("e3c4", 596),
    ("e3g4", 550),
    ("e3d5", 636),
    ("e3f5", 636),
    ("e1f1", 458),
    ("g1f1", 481),
    ("g1h1", 458),
];

#[test]
fn chess960_number_gives_the_root_as_perft_does() {
    let out = chesstool().args(["divide", "--chess960", "96", "--moves", "f1e3", "f8e6", "-d", "3"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut sorted = SF_CHESS960_96_D3.to_vec();
    sorted.sort();
    let mut expected: Vec<String> = sorted.iter().map(|(m, n)| format!("{m}: {n}")).collect();
    expected.push(String::new());
    expected.push("Nodes searched: 13085".into());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected.join("\n") + "\n");
    // The root is start position 96 in Shredder-FEN, as `perft --chess960 96` has it
    // (Stockfish 15.1: perft 4 of it is 203888).
    let out = chesstool().args(["divide", "--chess960", "96", "-d", "4", "--json"]).output().unwrap();
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["root"], "bbqnrnkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRNKR w HEhe - 0 1");
    assert_eq!(j["nodes"], 203888);
    // The number and a FEN both name the root: refused, as in perft.
    chesstool()
        .args(["divide", "--chess960", "96", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "-d", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--chess960 96 and --fen both give the position"));
    for bad in ["960", "-1", "x"] {
        chesstool().args(["divide", "--chess960", bad, "-d", "1"]).assert().code(2);
    }
    // Without a number it still only forces Chess960 on the --fen.
    chesstool()
        .args(["divide", "--chess960", "-d", "1", "--fen", "bbqnrnkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRNKR w KQkq - 0 1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Nodes searched: 20"));
}

#[test]
fn bad_inputs_are_exit_2() {
    chesstool()
        .args(["divide", "-d", "2", "--fen", "nonsense"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("error:"));
    chesstool()
        .args(["divide", "-d", "2", "--moves", "e2e5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("e2e5"));
    chesstool().args(["divide", "-d", "0"]).assert().code(2);
    chesstool()
        .args(["divide", "-d", "2", "--bisect"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--bisect needs"));
    chesstool().args(["divide", "-d", "2", "--engine-uci", "x", "--engine-script", "y"]).assert().code(2);
    chesstool().args(["divide", "-d", "2", "--engine-uci", "'unbalanced"]).assert().code(2);
    chesstool().args(["divide", "-d", "2", "--engine-uci", "x", "--timeout", "-1"]).assert().code(2);
    chesstool().args(["divide", "-d", "2", "--engine-uci", "x", "--against-format", "klingon"]).assert().code(2);
}

#[test]
fn against_a_saved_perftree_output_from_stdin() {
    // The start position at depth 2 with e2e4 miscounted and a2a3 missing.
    let mut saved = String::new();
    for m in ["a2a4", "b1a3", "b1c3", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4", "e2e3"] {
        saved.push_str(&format!("{m} 20\n"));
    }
    for m in ["f2f3", "f2f4", "g1f3", "g1h3", "g2g3", "g2g4", "h2h3", "h2h4"] {
        saved.push_str(&format!("{m} 20\n"));
    }
    // 18 moves of 20, then 21 and 20: the total is their sum.
    saved.push_str("Pe2-e4 21\nO-O 20\n\n401\n");
    let out = chesstool().args(["divide", "-d", "2", "--against", "-", "--json"]).write_stdin(saved).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let w = &j["witness"];
    assert_eq!(w["missing"], serde_json::json!(["a2a3"]));
    assert_eq!(w["extra"], serde_json::json!(["e1g1"]));
    assert!(w["hints"]["e1g1"].as_str().unwrap().contains("castl"), "{j}");
    assert_eq!(j["comparison"]["differences"].as_array().unwrap().len(), 3, "{j}");
    // The file is named for what it is, not as an engine.
    assert_eq!(j["pasted"]["file"], "standard input", "{j}");
    assert!(j.get("engine").is_none(), "{j}");
}

#[test]
fn against_a_matching_stockfish_file() {
    let dir = std::env::temp_dir().join(format!("chesstool-divide-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("sf.txt");
    let out = chesstool().args(["divide", "-d", "3"]).output().unwrap();
    std::fs::write(&file, &out.stdout).unwrap();
    chesstool()
        .args(["divide", "-d", "3", "--against"])
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains("match at depth 3: 8902 nodes"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unreadable_saved_output_names_the_line_and_is_exit_2() {
    chesstool()
        .args(["divide", "-d", "1", "--against", "-"])
        // Begins like a move (a square) but cannot be read: an input error. A
        // line that does not begin like a move is skipped (a debug line).
        .write_stdin("a2a3: 1\nb2b3: 1\na2a9: 1\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 3: a move that cannot be read in"))
        .stderr(predicate::str::contains("\"a2a9\" is not a move"))
        .stderr(predicate::str::contains("engine").not());
    chesstool().args(["divide", "-d", "1", "--against", "/nonexistent/file"]).assert().code(2);
}
