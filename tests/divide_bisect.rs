//! `divide --bisect` against examples/buggy_engine: every injected bug is
//! found with exactly the right missing and extra moves, through both the
//! UCI and the perftree script protocol, in well under 30 seconds.

use assert_cmd::Command;
use serde_json::Value;
use std::time::{Duration, Instant};

mod common;
use common::buggy_engine_cmd as engine_cmd;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

/// Runs `divide --bisect --json` and returns (exit code, JSON, seconds).
fn bisect(fen: &str, depth: u32, protocol: &str, engine_args: &str) -> (i32, Value, f64) {
    let started = Instant::now();
    let mut cmd = Command::cargo_bin("chesstool").unwrap();
    cmd.args(["divide", "--fen", fen, "--depth", &depth.to_string(), "--bisect", "--json", "--timeout", "30"])
        .arg(format!("--engine-{protocol}"))
        .arg(engine_cmd(engine_args));
    // A script cannot advertise UCI_Chess960: the user vouches for it.
    if protocol == "script" && fen != "startpos" && chesstool::Position::from_fen(fen).unwrap().is_chess960() {
        cmd.arg("--chess960");
    }
    let out = cmd.timeout(Duration::from_secs(60)).output().unwrap();
    let seconds = started.elapsed().as_secs_f64();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    });
    (out.status.code().unwrap_or(-1), json, seconds)
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().expect("a list").iter().map(|s| s.as_str().expect("a string").to_string()).collect()
}

/// Checks a witness: status, exact missing/extra, a path that leads to the
/// reported FEN, and a hint for every wrong move.
fn expect_witness(bug: &str, fen: &str, depth: u32, missing: &[&str], extra: &[&str], hint: &str) {
    for protocol in ["uci", "script"] {
        let (code, j, seconds) = bisect(fen, depth, protocol, &format!("--bug {bug}"));
        let what = format!("{bug} via {protocol}: {j}");
        assert_eq!(code, 1, "{what}");
        assert_eq!(j["status"], "mismatch", "{what}");
        let w = &j["witness"];
        assert_eq!(strings(&w["missing"]), missing, "{what}");
        assert_eq!(strings(&w["extra"]), extra, "{what}");
        let path = strings(&w["path"]);
        let root = chesstool::Position::from_fen(fen).unwrap();
        let end = root.play_uci_moves(path.iter().map(String::as_str)).unwrap();
        assert_eq!(w["position"].as_str().unwrap(), end.to_fen(), "{what}");
        assert_eq!(j["root"].as_str().unwrap(), root.to_fen(), "{what}");
        assert_eq!(j["depth"], depth, "{what}");
        for m in missing.iter().chain(extra) {
            let h = w["hints"][m].as_str().unwrap_or_default();
            assert!(h.contains(hint), "{what}: hint for {m} is {h:?}, expected {hint:?}");
        }
        assert!(j["engine"]["calls"].as_u64().unwrap() >= 1, "{what}");
        assert!(seconds < 30.0, "{what}: took {seconds:.1} s");
        eprintln!("{bug} via {protocol}: {} engine calls, {seconds:.2} s, path {path:?}", j["engine"]["calls"]);
    }
}

#[test]
fn missing_en_passant_from_the_start_position() {
    expect_witness("no-ep", "startpos", 5, &["f5e6"], &[], "en passant capture");
}

#[test]
fn en_passant_ignoring_a_pin() {
    expect_witness("ep-pin", POSITION3, 5, &[], &["f4e3"], "leaves the king in check");
}

#[test]
fn castling_through_an_attacked_square() {
    expect_witness(
        "castle-through-check",
        KIWIPETE,
        3,
        &[],
        &["e8c8"],
        "castles through d8, attacked by the knight on c6",
    );
}

#[test]
fn castling_right_kept_after_the_rook_is_captured() {
    let fen = "r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1";
    expect_witness("castle-rights-capture", fen, 3, &[], &["e1g1"], "without the castling right");
    // The bug is a history bug: given the witness as a FEN, the engine is right.
    let (code, j, _) = bisect("r3k2r/8/8/8/8/8/8/R3K2b w Qkq - 0 2", 2, "uci", "--bug castle-rights-capture");
    assert_eq!((code, j["status"].as_str()), (0, Some("ok")), "{j}");
}

#[test]
fn castling_right_bug_deeper_in_kiwipete() {
    expect_witness("castle-rights-capture", KIWIPETE, 4, &[], &["e8g8"], "without the castling right");
}

#[test]
fn missing_underpromotions() {
    expect_witness(
        "no-underpromotion",
        "8/P7/8/8/8/8/8/k6K b - - 0 1",
        3,
        &["a7a8b", "a7a8n", "a7a8r"],
        &[],
        "promotion",
    );
}

#[test]
fn double_push_from_the_third_rank() {
    expect_witness("double-push-rank3", "startpos", 4, &[], &["a3a5"], "wrong rank");
}

#[test]
fn king_moving_into_check() {
    expect_witness(
        "king-into-check",
        "4k3/8/8/8/8/8/3r4/7K b - - 0 1",
        3,
        &[],
        &["h1g2", "h1h2"],
        "leaves the king in check",
    );
}

#[test]
fn every_output_layout_reads_the_same() {
    let fen = "8/P7/8/8/8/8/8/k6K b - - 0 1";
    for format in ["stockfish", "perftree", "weiss", "dash", "san"] {
        for protocol in ["uci", "script"] {
            let (code, j, _) = bisect(fen, 3, protocol, &format!("--bug no-underpromotion --format {format}"));
            assert_eq!(code, 1, "{format} {protocol}: {j}");
            assert_eq!(strings(&j["witness"]["missing"]), ["a7a8b", "a7a8n", "a7a8r"], "{format} {protocol}: {j}");
            assert!(strings(&j["witness"]["extra"]).is_empty(), "{format} {protocol}: {j}");
        }
    }
}

#[test]
fn engines_printing_only_totals_are_bisected_to_the_position() {
    let (code, j, seconds) = bisect("startpos", 5, "uci", "--bug no-ep --format total");
    assert_eq!(code, 1, "{j}");
    let w = &j["witness"];
    assert_eq!(w["position"], "rnbqkbnr/pppp2pp/5p2/4pP2/8/8/PPPPP1PP/RNBQKBNR w KQkq e6 0 3", "{j}");
    assert_eq!(w["depth"], 1);
    assert!(w["note"].as_str().unwrap().contains("only totals"), "{j}");
    assert!(seconds < 30.0);
}

#[test]
fn a_correct_engine_matches() {
    for protocol in ["uci", "script"] {
        let (code, j, _) = bisect(KIWIPETE, 3, protocol, "");
        assert_eq!(code, 0, "{j}");
        assert_eq!(j["status"], "ok");
        assert_eq!(j["engine"]["calls"], 3, "one call per depth 1..=3");
        assert!(j["witness"].is_null(), "{j}");
        assert_eq!(j["comparison"]["engine"], 97862, "{j}");
    }
}

#[test]
fn text_report_names_the_path_and_the_rule() {
    Command::cargo_bin("chesstool")
        .unwrap()
        .args(["divide", "--fen", POSITION3, "-d", "4", "--bisect", "--engine-uci"])
        .arg(engine_cmd("--bug ep-pin"))
        .assert()
        .code(1)
        .stdout(predicates::str::contains("extra:    f4e3 (leaves the king in check"))
        .stdout(predicates::str::contains(" engine calls ("))
        .stdout(predicates::str::contains("│ Move"));
}

#[test]
fn without_bisect_the_root_table_and_totals() {
    Command::cargo_bin("chesstool")
        .unwrap()
        .args(["divide", "-d", "3", "--engine-script"])
        .arg(engine_cmd("--bug double-push-rank3"))
        .assert()
        .code(1)
        .stdout(predicates::str::contains("totals at depth 3: engine"))
        .stdout(predicates::str::contains("a2a3"));
}

#[test]
fn chess960_castling_bugs_with_king_takes_rook_moves() {
    // Nxg1 takes the g1 rook; the engine still castles with it (e1g1 = king takes rook).
    let fen = "1r2k2r/8/8/8/8/7n/8/1R2K1R1 b GBhb - 0 1";
    expect_witness("castle-rights-capture", fen, 3, &[], &["e1g1"], "without the castling right");
    let fen = "1r2k1r1/8/8/8/8/3b4/8/1R2K1R1 b GBgb - 0 1";
    expect_witness("castle-through-check", fen, 3, &[], &["e1b1"], ", attacked by the ");
}

#[test]
fn a_shallow_bug_is_found_cheaply_even_when_asked_deep() {
    // perft 7 of the start position is 3.2 billion nodes; the bug shows at depth 3.
    let (code, j, seconds) = bisect("startpos", 7, "uci", "--bug double-push-rank3");
    assert_eq!(code, 1, "{j}");
    assert_eq!(j["comparison"]["depth"], 3, "{j}");
    assert_eq!(strings(&j["witness"]["extra"]), ["a3a5"], "{j}");
    assert!(seconds < 10.0, "took {seconds:.1} s");
}
