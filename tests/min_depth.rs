//! `--min-depth N`: an engine that crashes on `go perft 1`
//! (examples/buggy_engine `--crash-at-depth 1`) is hunted at depth 2 and
//! up by `divide --bisect`, `suite` and `fuzz`, to a witness that says so
//! (exit 1); without the option it is an engine failure (exit 3). Counts
//! are Stockfish's (read at run time) or the published tables.

use assert_cmd::Command;
use serde_json::Value;
use std::io::Write;
use std::process::Stdio;
use std::time::Duration;

mod common;
use common::buggy_engine_cmd;

/// A d4 pawn that e2e4 and c2c4 would let capture e.p.: the engine's
/// moves at the root are right, its counts one move down are not.
const EP_BELOW: &str = "rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// e5f6 e.p. at the root.
const EP_ROOT: &str = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
const NOTE: &str = "depth 2: the engine is not asked below --min-depth 2";

/// Stockfish's divide of `fen` at `depth`: (move, count).
fn stockfish_divide(fen: &str, depth: u32) -> Vec<(String, u64)> {
    let mut child = std::process::Command::new("/usr/games/stockfish")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("Stockfish at /usr/games/stockfish");
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "position fen {fen}\ngo perft {depth}\nquit").unwrap();
    drop(stdin);
    let out = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    out.lines()
        .filter_map(|l| l.split_once(": "))
        .filter(|(m, _)| m.len() >= 4 && m.len() <= 5)
        .filter_map(|(m, n)| Some((m.to_string(), n.trim().parse().ok()?)))
        .collect()
}

fn run_json(cmd: &mut Command) -> (i32, Value) {
    let out = cmd.timeout(Duration::from_secs(120)).output().unwrap();
    let j = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    });
    (out.status.code().unwrap_or(-1), j)
}

fn crashing() -> String {
    buggy_engine_cmd("--bug no-ep --crash-at-depth 1")
}

fn bisect(fen: &str, extra: &[&str]) -> (i32, Value) {
    run_json(
        Command::cargo_bin("chesstool")
            .unwrap()
            .args(["divide", "--fen", fen, "--depth", "3", "--bisect", "--json", "--engine-uci", &crashing()])
            .args(extra),
    )
}

#[test]
fn bisect_without_min_depth_is_an_engine_failure() {
    let (code, j) = bisect(EP_ROOT, &[]);
    assert_eq!((code, j["status"].as_str()), (3, Some("error")), "{j}");
}

#[test]
fn bisect_from_depth_2_finds_the_missing_root_move() {
    let (code, j) = bisect(EP_ROOT, &["--min-depth", "2"]);
    assert_eq!((code, j["status"].as_str()), (1, Some("mismatch")), "{j}");
    let w = &j["witness"];
    assert_eq!(w["depth"], 2, "{j}");
    assert_eq!(w["missing"], serde_json::json!(["e5f6"]), "{j}");
    assert!(w["note"].as_str().unwrap().contains(NOTE), "{j}");
    let sf = stockfish_divide(EP_ROOT, 2);
    let e5f6 = sf.iter().find(|(m, _)| m == "e5f6").expect("Stockfish lists e5f6").1;
    let sf_total: u64 = sf.iter().map(|(_, n)| n).sum();
    assert_eq!(j["comparison"]["reference"].as_u64(), Some(sf_total), "{j}");
    assert_eq!(j["comparison"]["engine"].as_u64(), Some(sf_total - e5f6), "{j}");
}

/// The bug is one move below the root: at depth 2 the root's moves agree
/// and two counts differ; the hunt may not go to depth 1 and says so.
#[test]
fn bisect_stops_at_the_floor_naming_the_counts_that_differ() {
    let (code, j) = bisect(EP_BELOW, &["--min-depth", "2"]);
    assert_eq!((code, j["status"].as_str()), (1, Some("mismatch")), "{j}");
    let w = &j["witness"];
    assert_eq!(w["depth"], 2, "{j}");
    assert!(w["note"].as_str().unwrap().contains(NOTE), "{j}");
    let sf = stockfish_divide(EP_BELOW, 2);
    let differences = j["comparison"]["differences"].as_array().unwrap();
    let moves: Vec<&str> = differences.iter().map(|d| d["move"].as_str().unwrap()).collect();
    assert_eq!(moves, ["c2c4", "e2e4"], "{j}");
    for d in differences {
        let m = d["move"].as_str().unwrap();
        let n = sf.iter().find(|(s, _)| s == m).unwrap().1;
        // The e.p. capture the engine does not see is one of the replies.
        assert_eq!((d["reference"].as_u64(), d["engine"].as_u64()), (Some(n), Some(n - 1)), "{j}");
    }
}

#[test]
fn min_depth_above_depth_is_a_usage_error() {
    let (code, _) = bisect(EP_ROOT, &["--min-depth", "4"]);
    assert_eq!(code, 2);
}

/// A suite with published counts (the start, Kiwipete, position 3 of the
/// Chess Programming Wiki's table).
fn suite_file(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("mini.epd");
    std::fs::write(
        &path,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902\n\
         r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 ;D1 48 ;D2 2039\n\
         8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 ;D1 14 ;D2 191 ;D3 2812\n",
    )
    .unwrap();
    path
}

#[test]
fn suite_with_min_depth_skips_depth_1_and_bisects_from_2() {
    let dir = std::env::temp_dir().join(format!("chesstool-min-depth-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = suite_file(&dir);
    let suite = |extra: &[&str]| {
        run_json(
            Command::cargo_bin("chesstool")
                .unwrap()
                .args(["suite", "--json", "--engine-uci", &crashing()])
                .arg(&file)
                .args(extra),
        )
    };
    let (code, j) = suite(&[]);
    assert_eq!((code, j["status"].as_str()), (3, Some("engine-failure")), "{j}");
    let (code, j) = suite(&["--min-depth", "2"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!((code, j["status"].as_str()), (1, Some("mismatch")), "{j}");
    assert_eq!(j["totals"]["skipped"], 3, "the three depth-1 counts: {j}");
    assert!(j.get("engine_failures").is_none(), "{j}");
    // Kiwipete has one e.p. capture at depth 2, position 3 two at depth 3.
    let m = j["mismatches"].as_array().unwrap();
    let found: Vec<(u64, u64, u64)> = m
        .iter()
        .map(|m| (m["line_number"].as_u64().unwrap(), m["depth"].as_u64().unwrap(), m["engine"].as_u64().unwrap()))
        .collect();
    assert_eq!(found, [(2, 2, 2038), (3, 3, 2810)], "{j}");
    for m in m {
        let w = &m["witness"];
        assert!(w["depth"].as_u64().unwrap() >= 2, "{j}");
        for missing in w["missing"].as_array().unwrap() {
            let pos = w["position"].as_str().unwrap();
            let legal: Vec<String> = stockfish_divide(pos, 1).into_iter().map(|(m, _)| m).collect();
            assert!(legal.contains(&missing.as_str().unwrap().to_string()), "{j}");
        }
    }
}

#[test]
fn fuzz_with_min_depth_finds_the_bug_at_depth_2_and_up() {
    let fuzz = |extra: &[&str]| {
        run_json(
            Command::cargo_bin("chesstool")
                .unwrap()
                .args(["fuzz", "--json", "--seed", "3", "--positions", "3000", "--engine-uci", &crashing()])
                .args(extra),
        )
    };
    // From a root of its own (no motif cases, which are asked deeper first) the
    // engine is asked at depth 1 at once, and crashes.
    let roots = std::env::temp_dir().join(format!("chesstool-min-depth-{}.fen", std::process::id()));
    std::fs::write(&roots, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n").unwrap();
    let (code, j) = fuzz(&["--depth", "1", "--roots", roots.to_str().unwrap()]);
    let _ = std::fs::remove_file(&roots);
    assert_eq!(code, 3, "{j}");
    let (code, j) = fuzz(&["--min-depth", "2"]);
    assert_eq!((code, j["status"].as_str()), (1, Some("mismatch")), "{j}");
    assert!(j["depth"].as_u64().unwrap() >= 2, "{j}");
    assert_eq!(j["min_depth"], 2, "{j}");
    assert!(j["depth_reason"].as_str().unwrap().contains("--min-depth 2"), "{j}");
    let w = &j["witness"];
    assert!(w["depth"].as_u64().unwrap() >= 2, "{j}");
    let legal: Vec<String> = stockfish_divide(w["position"].as_str().unwrap(), 1).into_iter().map(|(m, _)| m).collect();
    let missing = w["missing"].as_array().unwrap();
    for m in missing {
        assert!(legal.contains(&m.as_str().unwrap().to_string()), "{j}");
    }
}
