//! One failure is not the end of a report (issue 45): a suite whose engine
//! hangs or crashes on one position marks that count as an engine failure,
//! restarts the engine, goes on with the rest, prints its table, JSON and
//! JUnit with the failure in them, and exits 3 at the end (3 wins over a
//! mismatch's 1: the verdict is incomplete). `--retries N` asks again after
//! a failure, for engines that fail at random. Counts are the published
//! perft tables (CPW positions 1-3).

use assert_cmd::Command;

mod common;
use common::{buggy_engine_cmd as engine, run_json, TempDir};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

fn suite(dir: &TempDir) -> std::path::PathBuf {
    let text = format!("startpos ;D1 20 ;D2 400\n{KIWIPETE} ;D1 48 ;D2 2039\n{POSITION3} ;D1 14 ;D2 191\n");
    dir.file("three.epd", text.as_bytes())
}

fn chesstool(args: &[&str]) -> Command {
    common::chesstool_with(args, 120)
}

#[test]
fn a_hang_on_one_position_is_marked_and_the_rest_reported() {
    let dir = TempDir::new("hang-one");
    let suite = suite(&dir);
    let hangs = engine(&format!("--hang-on '{KIWIPETE}'"));
    for protocol in ["--engine-uci", "--engine-script"] {
        let out = chesstool(&["suite", "--timeout", "1", protocol, &hangs]).arg(&suite).output().unwrap();
        assert_eq!(out.status.code(), Some(3), "{protocol}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Engine failed") && text.contains("1 engine failure:"), "{text}");
        assert!(text.contains("three.epd:2 (depth 1): ") && text.contains("no complete answer"), "{text}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.starts_with("error: 1 engine failure (") && err.contains("three.epd:2"), "{err}");

        let junit = dir.0.join("r.xml");
        let (code, j, _) = run_json(
            chesstool(&["suite", "--json", "--force", "--timeout", "1", protocol, &hangs, "--junit"])
                .arg(&junit)
                .arg(&suite),
        );
        assert_eq!(code, 3, "{j}");
        assert_eq!(j["status"], "engine-failure", "{j}");
        let totals = &j["totals"];
        assert_eq!(
            (totals["checked"].as_u64(), totals["passed"].as_u64(), totals["engine_failures"].as_u64()),
            (Some(4), Some(4), Some(1)),
            "the other positions are reported: {j}"
        );
        assert_eq!(totals["skipped"], 1, "kiwipete's depth 2 is not asked: {j}");
        let f = &j["engine_failures"][0];
        assert_eq!(
            (f["line_number"].as_u64(), f["depth"].as_u64(), f["attempts"].as_u64()),
            (Some(2), Some(1), Some(1))
        );
        let xml = std::fs::read_to_string(&junit).unwrap();
        assert!(xml.contains("errors=\"1\"") && xml.contains("<error type=\"engine-failure\""), "{xml}");
        assert!(xml.contains("not asked: the engine failed at depth 1"), "{xml}");
    }
}

#[test]
fn an_engine_failure_wins_over_a_mismatch() {
    let dir = TempDir::new("hang-and-bug");
    let suite = suite(&dir);
    let both = engine(&format!("--bug double-push-rank3 --hang-on '{KIWIPETE}'"));
    let (code, j, _) = run_json(chesstool(&["suite", "--json", "--timeout", "1", "--engine-uci", &both]).arg(&suite));
    assert_eq!(code, 3, "{j}");
    assert_eq!(j["status"], "engine-failure");
    assert_eq!(j["mismatches"].as_array().unwrap().len(), 1, "{j}");
    assert_eq!(j["mismatches"][0]["line_number"], 3, "{j}");
    assert!(j["mismatches"][0]["witness"].is_object(), "the bisection ran on the restarted engine: {j}");
    assert_eq!(j["engine_failures"].as_array().unwrap().len(), 1, "{j}");
}

#[test]
fn retries_restart_an_engine_that_fails_at_random() {
    let dir = TempDir::new("crash-once");
    let suite = suite(&dir);
    for protocol in ["--engine-uci", "--engine-script"] {
        // Without retries, the first answer's crash is a failure...
        let flag = dir.0.join(format!("crashed-{}", protocol.len()));
        let once = engine(&format!("--crash-once '{}'", flag.display()));
        let (code, j, _) = run_json(chesstool(&["suite", "--json", protocol, &once]).arg(&suite));
        assert_eq!((code, j["totals"]["engine_failures"].as_u64()), (3, Some(1)), "{protocol}: {j}");
        // ... with one retry the restarted engine answers.
        let _ = std::fs::remove_file(&flag);
        let (code, j, _) = run_json(chesstool(&["suite", "--json", "--retries", "1", protocol, &once]).arg(&suite));
        assert_eq!(code, 0, "{protocol}: {j}");
        assert_eq!(j["totals"]["checked"], 6, "{j}");
    }
    chesstool(&["suite", "--retries", "1"]).arg(&suite).assert().code(2);
}
