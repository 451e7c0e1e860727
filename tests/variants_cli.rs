//! The variant code paths of perft, divide and suite from the outside, and
//! variants.ini errors. Fairy-Stockfish is the reference where it is built.

mod variants_support;
use assert_cmd::Command;
use predicates::prelude::*;
use variants_support::*;

fn chesstool() -> Command {
    Command::cargo_bin("chesstool").expect("binary")
}

fn differ_path() -> String {
    format!("{}/tests/variants/differ.ini", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn perft_matches_fairy_stockfish() {
    let Some(mut fsf) = Fsf::start() else { return };
    let fen = load("wide12").start_fen;
    let (_, total) = fsf.divide("wide12", &fen, &[], 3);
    chesstool()
        .args(["perft", "--variant", "wide12", "--variant-path", &ini_path(), "--depth", "3"])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!("Nodes: {total} ")));
}

#[test]
fn bisect_against_fairy_stockfish_matches_inside_its_subset() {
    let Some(fsf) = fairy_stockfish() else { return };
    for name in ["mini5", "lame8"] {
        chesstool()
            .args(["divide", "--variant", name, "--variant-path", &ini_path(), "--depth", "3", "--bisect"])
            .args(["--engine-uci", fsf.to_str().unwrap()])
            .assert()
            .success()
            .stdout(predicate::str::contains("match at depth 3"));
    }
}

#[test]
fn bisect_finds_the_moves_fairy_stockfish_reads_differently() {
    let Some(fsf) = fairy_stockfish() else { return };
    // The mao (mafsW) on c1 of a 6x6 board, by hand: a W step to an empty
    // square (b1, d1, c2), then one diagonal step outward: b1 -> a2 (a0 is
    // off the board), d1 -> e2, c2 -> b3 and d3. Fairy-Stockfish drops the
    // 'a' and reads fsmW: b1, d1, c2 without capture.
    let out = chesstool()
        .args(["divide", "--variant", "mao", "--variant-path", &differ_path(), "--depth", "3", "--bisect", "--json"])
        .args(["--engine-uci", fsf.to_str().unwrap()])
        .assert()
        .code(1);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let witness = &doc["witness"];
    let list = |k: &str| -> Vec<String> {
        let mut v: Vec<String> =
            witness[k].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
        v.sort();
        v
    };
    assert_eq!(witness["depth"], 1, "{doc}");
    assert_eq!(list("missing"), ["c1a2", "c1b3", "c1d3", "c1e2"]);
    assert_eq!(list("extra"), ["c1b1", "c1c2", "c1d1"]);
    let hint = witness["hints"]["c1b1"].as_str().unwrap();
    assert_eq!(hint, "the customPiece1 (mafsW) on c1 has no move to b1");
}

#[test]
fn divide_prints_fairy_stockfish_format_with_two_digit_ranks() {
    chesstool()
        .args(["divide", "--variant", "big10", "--variant-path", &ini_path(), "--depth", "1"])
        .args(["--fen", "l9/10/10/10/10/10/4k5/10/10/K9 w - - 0 1"])
        .assert()
        .success()
        // The black lance (fRbW) on a10 checks the king on a1 along the
        // file: only b1 and b2 leave it (a2 is still on the file).
        .stdout(predicate::str::diff("a1b1: 1\na1b2: 1\n\nNodes searched: 2\n"));
    // Black's lance slides down its file (forward for Black) to a1 (the
    // white king on b1: with Black to move, a king on a1 would stand in check).
    chesstool()
        .args(["divide", "--variant", "big10", "--variant-path", &ini_path(), "--depth", "1"])
        .args(["--fen", "l9/10/10/10/10/10/4k5/10/10/1K8 b - - 0 1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("a10a9: 1").and(predicate::str::contains("a10a1: 1")));
}

#[test]
fn moves_are_read_by_meaning() {
    chesstool()
        .args([
            "perft",
            "--variant",
            "mini5",
            "--variant-path",
            &ini_path(),
            "--depth",
            "1",
            "--moves",
            "a1-a2",
            "--json",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("\"moves\": [\n    \"a1-a2\"\n  ]"));
    chesstool()
        .args(["perft", "--variant", "mini5", "--variant-path", &ini_path(), "--depth", "1", "--moves", "c1c5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--moves: move 1 \"c1c5\""));
}

#[test]
fn suite_checks_variant_counts() {
    let Some(mut fsf) = Fsf::start() else { return };
    let fen = load("chiral6").start_fen;
    let (_, d2) = fsf.divide("chiral6", &fen, &[], 2);
    let (_, d3) = fsf.divide("chiral6", &fen, &[], 3);
    let dir = std::env::temp_dir().join(format!("chesstool-vsuite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("chiral6.epd");
    std::fs::write(&file, format!("{fen} ;D2 {d2} ;D3 {d3}\n{fen} ;D1 999\n")).unwrap();
    chesstool()
        .args(["suite", "--variant", "chiral6", "--variant-path", &ini_path()])
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("999"));
    let _ = std::fs::remove_dir_all(&dir);
}

fn ini_error(text: &str, variant: &str) -> assert_cmd::assert::Assert {
    let dir = std::env::temp_dir().join(format!("chesstool-vini-{}-{variant}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("v.ini");
    std::fs::write(&file, text).unwrap();
    let run = chesstool()
        .args(["perft", "--variant", variant, "--variant-path", file.to_str().unwrap(), "--depth", "1"])
        .assert();
    let _ = std::fs::remove_dir_all(&dir);
    run.code(2)
}

#[test]
fn unimplemented_rules_are_errors_naming_the_key() {
    let base = "[v]\nking = k\ncastling = false\nstartFen = 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n";
    ini_error(&format!("{base}cambodianMoves = true\n"), "v")
        .stderr(predicate::str::contains("line 5").and(predicate::str::contains("cambodianMoves = true")));
    ini_error(&format!("{base}mustDrop = true\n"), "v").stderr(predicate::str::contains("mustDrop = true"));
    ini_error(&format!("{base}mobilityRegionWhiteQueen = *1\n"), "v")
        .stderr(predicate::str::contains("line 5").and(predicate::str::contains("this variant has no queen")));
    ini_error("[v]\nking = k\ncustomPiece1 = a:feW\nstartFen = 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n", "v")
        .stderr(predicate::str::contains("line 3").and(predicate::str::contains("'e' (en passant) without 'c'")));
    ini_error("[v:janggo]\nking = k\n", "v").stderr(predicate::str::contains("template \"janggo\""));
    ini_error("[v]\nking = k\ncustomPiece1 = a:fxW\nstartFen = 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n", "v").stderr(
        predicate::str::contains("line 3").and(predicate::str::contains("unknown modifier 'x' at character 2")),
    );
    ini_error("[v]\nking = k\nstartFen = 4k3/8/8/8/8/8/8/4K3 w KQ - 0 1\n", "v")
        .stderr(predicate::str::contains("castling field \"KQ\""));
    ini_error(&format!("{base}maxFile = 17\n"), "v").stderr(predicate::str::contains("maxFile = 17"));
    ini_error(base, "w").stderr(predicate::str::contains("no variant \"w\""));
    ini_error("[v]\nking = k\nstartFen =\n", "v").stderr(predicate::str::contains("v has an empty startFen"));
}

#[test]
fn fen_errors_name_the_rank() {
    chesstool()
        .args(["perft", "--variant", "big10", "--variant-path", &ini_path(), "--depth", "1"])
        .args(["--fen", "k9/10/10/10/10/10/11/10/10/K9 w - - 0 1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("rank 4"));
}

#[test]
fn bench_runs_the_given_depth_and_refuses_what_it_would_ignore() {
    let mut cmd = chesstool();
    cmd.args(["bench", "--variant", "mini5", "--variant-path", &ini_path(), "--depth", "3"]);
    cmd.args(["--runs", "1", "--min-time", "0", "--threads", "1", "--json"]);
    let fsf = fairy_stockfish();
    if let Some(fsf) = &fsf {
        cmd.args(["--against-uci", fsf.to_str().unwrap()]);
    }
    let out = cmd.assert().success();
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let row = &doc["rows"][0];
    assert_eq!(row["depth"], 3, "{doc}");
    if fsf.is_some() {
        // The engine's count is the independent one; ours must agree.
        assert_eq!(doc["status"], "ok", "{doc}");
        assert_eq!(row["nodes"], row["engine_nodes"], "{doc}");
    }
    for (extra, message) in [
        (&["--quick"][..], "--quick has no effect with --variant"),
        (&["--hash", "8"][..], "--hash has no effect with --variant"),
    ] {
        chesstool()
            .args(["bench", "--variant", "mini5", "--variant-path", &ini_path()])
            .args(extra)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
    chesstool()
        .args(["bench", "--depth", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--depth has no effect without --variant"));
}

/// The `variant` key of `--json` output, from a run of `cmd`.
fn variant_key(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().expect("chesstool runs");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    doc.get("variant").map(|v| v.as_str().expect("a string").to_string())
}

#[test]
fn json_documents_name_the_variant() {
    let ini = ini_path();
    let variant = ["--variant", "mini5", "--variant-path", ini.as_str()];
    let divide = || {
        let mut c = chesstool();
        c.args(["divide", "--depth", "1", "--json"]);
        c
    };
    assert_eq!(variant_key(divide().args(variant)).as_deref(), Some("mini5"));
    // The hunt against a pasted divide (the same as ours: a match).
    let pasted = chesstool().args(["divide", "--depth", "1"]).args(variant).output().unwrap().stdout;
    let hunt = variant_key(divide().args(variant).args(["--against", "-"]).write_stdin(pasted));
    assert_eq!(hunt.as_deref(), Some("mini5"));
    let suite = variant_key(chesstool().args(["suite", "--json", "-"]).args(variant).write_stdin("startpos ;D1 10\n"));
    assert_eq!(suite.as_deref(), Some("mini5"));
    // Chess has no variant: no key.
    assert_eq!(variant_key(&mut divide()), None);
}

#[test]
fn a_position_whose_side_not_to_move_is_in_check_is_refused() {
    // mini5's W (WF: one step any way) on b5 checks Black's king on a5; kings
    // side by side check each other.
    for fen in ["kW3/5/5/5/K4 w - - 0 1", "kK3/5/5/5/5 b - - 0 1"] {
        chesstool()
            .args(["perft", "--depth", "1", "--variant", "mini5", "--variant-path", &ini_path(), "--fen", fen])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("illegal position: the side not to move"));
    }
}

#[test]
fn chess_only_options_are_refused_by_variant_perft() {
    for (extra, message) in [
        (&["--stats"][..], "--stats has no effect with --variant"),
        (&["--hash", "16"][..], "--hash has no effect with --variant"),
        (&["--chess960"][..], "--chess960 has no effect with --variant"),
    ] {
        chesstool()
            .args(["perft", "--depth", "1", "--variant", "mini5", "--variant-path", &ini_path()])
            .args(extra)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
}
