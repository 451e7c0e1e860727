//! Engine bugs that are findings, not failures: a move listed twice, a
//! well-formed move that is no move (`d7d8q` with no pawn on d7, `e4e4f`),
//! moves that are not legal printed with the count 0, a promotion rank off
//! by one (one cause, however many pawns show it), a FEN reader that swaps
//! castling rights, a driver that reads the moves before the position.
//! Each is a witness with a hint (exit 1), or a note (exit 0), never exit 3.
//! Counts come from Stockfish 16 (`go perft`) and the published start
//! position perft (20, 400, 8902).

use assert_cmd::Command;
use serde_json::Value;
use std::time::Duration;

mod common;
use common::{buggy_engine_cmd, TempDir};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// `divide ARGS --json` with the buggy engine through `protocol`: (exit code, JSON).
fn divide(protocol: &str, engine_args: &str, args: &[&str]) -> (i32, Value) {
    let out = Command::cargo_bin("chesstool")
        .unwrap()
        .arg("divide")
        .args(args)
        .arg(format!("--engine-{protocol}"))
        .arg(buggy_engine_cmd(engine_args))
        .args(["--json", "--timeout", "30"])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    });
    (out.status.code().unwrap_or(-1), json)
}

/// A script that prints the start position's 20 moves (count 1 each, the
/// published depth-1 divide), then `extra` lines, then `total`.
fn start_script(dir: &TempDir, name: &str, extra: &[&str], total: u64) -> String {
    let moves = [
        "a2a3", "b2b3", "c2c3", "d2d3", "e2e3", "f2f3", "g2g3", "h2h3", "a2a4", "b2b4", "c2c4", "d2d4", "e2e4", "f2f4",
        "g2g4", "h2h4", "b1a3", "b1c3", "g1f3", "g1h3",
    ];
    let mut text = String::from("#!/bin/sh\n");
    for m in moves.iter().map(|m| format!("{m} 1")).chain(extra.iter().map(|e| e.to_string())) {
        text.push_str(&format!("echo '{m}'\n"));
    }
    text.push_str(&format!("echo\necho {total}\n"));
    let path = dir.0.join(name);
    std::fs::write(&path, text).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path.display().to_string()
}

fn script_divide(script: &str) -> (i32, Value, String) {
    let run = |json: bool| {
        let mut cmd = Command::cargo_bin("chesstool").unwrap();
        cmd.args(["divide", "-d", "1", "--engine-script", script]);
        if json {
            cmd.arg("--json");
        }
        cmd.timeout(Duration::from_secs(60)).output().unwrap()
    };
    let out = run(true);
    let json: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let text = String::from_utf8_lossy(&run(false).stdout).to_string();
    (out.status.code().unwrap_or(-1), json, text)
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().map_or(Vec::new(), |a| a.iter().map(|s| s.as_str().unwrap().to_string()).collect())
}

#[test]
fn a_move_listed_twice_is_a_witness_at_the_position_that_printed_it() {
    for protocol in ["uci", "script"] {
        let (code, j) = divide(protocol, "--bug duplicate", &["-d", "3", "--bisect"]);
        assert_eq!(code, 1, "{protocol}: {j}");
        assert_eq!(j["status"], "mismatch", "{j}");
        let w = &j["witness"];
        // The first depth asked shows it, at the root itself.
        assert_eq!((w["depth"].as_u64(), w["path"].as_array().map(Vec::len)), (Some(1), Some(0)), "{j}");
        let repeated = strings(&w["repeated"]);
        assert_eq!(repeated.len(), 1, "{j}");
        assert_eq!(w["hints"][&repeated[0]], "listed twice", "{j}");
        assert!(strings(&w["missing"]).is_empty() && strings(&w["extra"]).is_empty(), "{j}");
    }
}

#[test]
fn one_move_in_two_spellings_is_a_witness_naming_both() {
    let dir = TempDir::new("findings-spellings");
    let script = start_script(&dir, "two-spellings.sh", &["e4 1"], 21);
    let (code, j, text) = script_divide(&script);
    assert_eq!(code, 1, "{j}");
    assert_eq!(strings(&j["witness"]["repeated"]), ["e2e4"], "{j}");
    assert_eq!(j["witness"]["hints"]["e2e4"], "listed twice, as \"e2e4\" and \"e4\"", "{j}");
    assert!(text.contains("repeated: e2e4 (listed twice, as \"e2e4\" and \"e4\")"), "{text}");
}

#[test]
fn a_promotion_with_no_pawn_to_promote_is_an_extra_move_with_a_hint() {
    for protocol in ["uci", "script"] {
        let (code, j) = divide(protocol, "--bug illegal-promo", &["-d", "3", "--bisect"]);
        assert_eq!(code, 1, "{protocol}: {j}");
        let w = &j["witness"];
        assert_eq!(strings(&w["extra"]), ["d7d8q"], "{j}");
        assert_eq!(w["hints"]["d7d8q"], "no pawn on d7 can promote: the pawn on d7 is the other side's", "{j}");
    }
}

#[test]
fn a_coordinate_move_with_a_letter_no_piece_has_is_extra_not_unreadable() {
    let dir = TempDir::new("findings-e4e4f");
    let script = start_script(&dir, "e4e4f.sh", &["e4e4f 1"], 21);
    let (code, j, text) = script_divide(&script);
    assert_eq!(code, 1, "{j}");
    assert_eq!(strings(&j["witness"]["extra"]), ["e4e4f"], "{j}");
    assert_eq!(j["witness"]["hints"]["e4e4f"], "no pawn on e4 can promote: e4 is empty", "{j}");
    assert!(text.contains("extra:    e4e4f (no pawn on e4 can promote: e4 is empty)"), "{text}");
    // In a variant too: the variant's reader does not know `d7d8q` here.
    let out = Command::cargo_bin("chesstool")
        .unwrap()
        .args(["divide", "-d", "1", "--variant", "crazyhouse", "--json", "--engine-script"])
        .arg(start_script(&dir, "zh.sh", &["d7d8q 1"], 21))
        .output()
        .unwrap();
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{j}");
    assert_eq!(strings(&j["witness"]["extra"]), ["d7d8q"], "{j}");
    assert!(j["witness"]["hints"]["d7d8q"].as_str().unwrap().contains("d7"), "{j}");
}

#[test]
fn moves_that_are_not_legal_printed_with_0_are_a_note_when_the_totals_agree() {
    // Stockfish: 327 nodes at depth 3. The king's pseudo-legal moves e1d1
    // and e1f1 stay on the rook's rank: not legal, printed with 0.
    let fen = "4k3/8/8/8/8/8/8/4K2r w - - 0 1";
    for protocol in ["uci", "script"] {
        let (code, j) = divide(protocol, "--bug zero-count", &["--fen", fen, "-d", "3", "--bisect"]);
        assert_eq!((code, j["status"].as_str()), (0, Some("ok")), "{protocol}: {j}");
        assert_eq!(j["comparison"]["engine"], 327, "{j}");
        let notes = strings(&j["notes"]);
        assert!(notes.iter().any(|n| n.contains("count 0 (e1d1, e1f1)")), "{j}");
    }
    let out = Command::cargo_bin("chesstool")
        .unwrap()
        .args(["divide", "--fen", fen, "-d", "3", "--engine-uci"])
        .arg(buggy_engine_cmd("--bug zero-count"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("match at depth 3: 327 nodes\nnote: the engine prints 2 moves"), "{text}");
    // With a real bug beside them, the totals differ: a mismatch.
    let (code, j) = divide("uci", "--bug zero-count,no-ep", &["-d", "5", "--bisect"]);
    assert_eq!(code, 1, "{j}");
    assert!(strings(&j["witness"]["missing"]).iter().all(|m| m.len() == 4), "{j}");
}

#[test]
fn a_promotion_rank_off_by_one_is_one_finding_with_a_count() {
    // Stockfish: c7c8q, c7c8r, c7c8b, c7c8n are the pawn's four moves.
    let (code, j) =
        divide("uci", "--bug promo-rank", &["--fen", "8/2P5/8/8/8/8/8/k3K3 w - - 0 1", "-d", "2", "--bisect"]);
    assert_eq!(code, 1, "{j}");
    assert_eq!(strings(&j["witness"]["missing"]), ["c7c8b", "c7c8n", "c7c8q", "c7c8r"], "{j}");
    assert_eq!(strings(&j["witness"]["extra"]), ["c7c8"], "{j}");
    // Pawns on the sixth rank show it as a pawn move listed as four
    // promotions, pawns on the seventh as promotions listed as one plain
    // move, in check or not: one rule, one cause.
    let out = Command::cargo_bin("chesstool")
        .unwrap()
        .args(["fuzz", "--positions", "3000", "--seed", "1", "--keep-going", "--json", "--engine-uci"])
        .arg(buggy_engine_cmd("--bug promo-rank"))
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{j}");
    let findings = j["findings"].as_array().unwrap();
    let causes: Vec<&str> = findings.iter().map(|f| f["cause"].as_str().unwrap()).collect();
    assert_eq!(causes.len(), 1, "{causes:?}");
    assert!(causes[0].starts_with("promotion in the wrong place"), "{causes:?}");
    assert!(findings[0]["count"].as_u64().unwrap() >= 2, "{j}");
}

#[test]
fn a_fen_reader_that_swaps_castling_rights_is_told_from_the_move_generator() {
    let dir = TempDir::new("findings-fen-reader");
    let roots = dir.0.join("start.epd");
    std::fs::write(&roots, format!("{START}\n")).unwrap();
    // Every position asked as its FEN; the walk knows its moves from the start.
    let out = Command::cargo_bin("chesstool")
        .unwrap()
        .args(["fuzz", "--positions", "3000", "--seed", "1", "--fen-only", "--json", "--roots"])
        .arg(&roots)
        .arg("--engine-uci")
        .arg(buggy_engine_cmd("--bug fen-castling-swap"))
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{j}");
    let found = &j["findings"][0];
    assert_eq!(found["fault"], "fen-reader", "{j}");
    assert_eq!(
        (j["witness"]["history_dependent"].as_bool(), j["witness"]["from_start"].as_bool()),
        (Some(false), Some(true)),
        "{j}"
    );
    assert!(found["cause"].as_str().unwrap().starts_with("FEN reader: "), "{j}");
    // From its FEN alone, with no line from the start: the same position
    // reached by moves from a FEN with every castling right (each rook out
    // and back gives up the right it lacks) tells the two apart.
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1";
    let out = Command::cargo_bin("chesstool")
        .unwrap()
        .args(["divide", "--fen", fen, "-d", "2", "--bisect", "--engine-uci"])
        .arg(buggy_engine_cmd("--bug fen-castling-swap"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("missing:  e1g1 (castling kingside"), "{text}");
    assert!(text.contains("the fault is in reading the FEN"), "{text}");
}

/// The bug shows only when a FEN comes with moves: a walk asks such lines.
#[test]
fn a_driver_that_reads_the_moves_before_the_position_is_named() {
    let out = Command::cargo_bin("chesstool")
        .unwrap()
        .args(["fuzz", "--positions", "300", "--seed", "1", "--json", "--engine-uci"])
        .arg(buggy_engine_cmd("--bug moves-before-position"))
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{j}");
    assert_eq!(j["findings"][0]["fault"], "position-command", "{j}");
    assert_eq!(j["witness"]["history_dependent"], true, "{j}");
    assert_eq!(j["witness"]["layer"], "position-command", "{j}");
}
