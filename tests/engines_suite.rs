//! `suite FILE --engine-uci CMD | --engine-script CMD`: an engine over a
//! suite, with a bisection witness for every failing count.

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::PathBuf;

mod common;
use common::buggy_engine;

/// A temporary suite file, removed with its directory when dropped.
struct TempSuite(PathBuf);

impl std::ops::Deref for TempSuite {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl Drop for TempSuite {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// A small suite of its own (the repository's suites are tested elsewhere).
fn suite_file(name: &str) -> TempSuite {
    let dir = std::env::temp_dir().join(format!("chesstool-engines-suite-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mini.epd");
    std::fs::write(
        &path,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902\n\
         8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 ;D1 14 ;D2 191 ;D3 2812 ;D4 43238\n\
         r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1 ;D1 34 ;D2 714 ;D3 22268\n",
    )
    .unwrap();
    TempSuite(path)
}

#[test]
fn a_correct_engine_passes_through_both_protocols() {
    let file = suite_file("ok");
    for flag in ["--engine-uci", "--engine-script"] {
        Command::cargo_bin("chesstool")
            .unwrap()
            .args(["suite", "-q"])
            .arg(&*file)
            .arg(flag)
            .arg(buggy_engine())
            .assert()
            .success();
    }
}

#[test]
fn every_failing_count_gets_a_witness() {
    let file = suite_file("bug");
    for flag in ["--engine-uci", "--engine-script"] {
        let out = Command::cargo_bin("chesstool")
            .unwrap()
            .args(["suite", "-q", "--json"])
            .arg(&*file)
            .arg(flag)
            .arg(format!("{} --bug castle-rights-capture", buggy_engine().display()))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let mismatches = j["mismatches"].as_array().unwrap();
        // Depths 2 and 3 of the last position fail; one witness for the
        // position, bisected from depth 2, on the depth-2 mismatch.
        assert_eq!(mismatches.len(), 2, "{j}");
        assert_eq!((mismatches[0]["depth"].as_u64(), mismatches[1]["depth"].as_u64()), (Some(2), Some(3)), "{j}");
        let w = &mismatches[0]["witness"];
        assert_eq!(w["path"], serde_json::json!(["g2h1"]), "{j}");
        assert_eq!(w["extra"], serde_json::json!(["e1g1"]), "{j}");
        assert_eq!(w["missing"], serde_json::json!([]), "{j}");
        assert!(mismatches[1].get("witness").is_none(), "{j}");
        // The suite's counts are the reference side; the engine's the engine side.
        assert_eq!(mismatches[0]["reference"], 714, "{j}");
        assert_eq!(mismatches[0]["line_number"], 3, "{j}");
    }
}

#[test]
fn text_report_and_engine_failures() {
    let file = suite_file("text");
    Command::cargo_bin("chesstool")
        .unwrap()
        .args(["suite", "-q"])
        .arg(&*file)
        .arg("--engine-uci")
        .arg(format!("{} --bug ep-pin", buggy_engine().display()))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("first wrong position after"))
        .stdout(predicate::str::contains("extra:    f4e3"));
    Command::cargo_bin("chesstool")
        .unwrap()
        .args(["suite", "-q", "--timeout", "1"])
        .arg(&*file)
        .arg("--engine-script")
        .arg(format!("{} --bug hang", buggy_engine().display()))
        .assert()
        .code(3)
        // Each position is marked and the report printed (issue 45).
        .stdout(predicate::str::contains("(killed)"))
        .stderr(
            predicate::str::contains("engine failures (").and(predicate::str::contains("the report is incomplete")),
        );
}
