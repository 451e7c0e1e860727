//! One reading of an answer, wherever it comes from (issue 45): a live UCI
//! engine, a script and a paste share one parser and one set of rules. The
//! same text is refused by all three (exit 3 for an engine or a script,
//! exit 2 for a paste), with the same words, and the JSON error document
//! names the rule.

use assert_cmd::Command;

mod common;
use common::{buggy_engine, run_json, TempDir};

fn chesstool(args: &[&str]) -> Command {
    common::chesstool_with(args, 60)
}

/// A script printing `text` whatever it is asked.
fn script(dir: &TempDir, text: &str) -> String {
    let answer = dir.file("answer.txt", text.as_bytes());
    let path = dir.file("engine.sh", format!("#!/bin/sh\ncat '{}'\n", answer.display()).as_bytes());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path.display().to_string()
}

fn stderr_line(out: &std::process::Output) -> String {
    let text = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(text.trim_end().lines().count(), 1, "not one line: {text}");
    text
}

/// The example: two moves of 5 and a total of 11.
const NOT_THE_SUM: &str = "e2e4 5\nd2d4 5\n\n11\n";

#[test]
fn a_total_that_is_not_the_sum_is_refused_by_script_paste_and_uci_alike() {
    let dir = TempDir::new("not-the-sum");
    let words = "the total 11 is not the sum of the 2 moves above it (10)";
    // A script: an engine failure, exit 3 (it was "engine 11", exit 1).
    let engine = script(&dir, NOT_THE_SUM);
    let out = chesstool(&["divide", "-d", "2", "--engine-script", &engine]).output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(stderr_line(&out).contains(words));
    let (code, j, _) = run_json(&mut chesstool(&["divide", "-d", "2", "--json", "--engine-script", &engine]));
    assert_eq!(
        (code, j["error"]["kind"].as_str(), j["error"]["rule"].as_str()),
        (3, Some("engine"), Some("total-is-sum"))
    );
    // The same text pasted: an input error, exit 2, the same words and rule.
    let paste = dir.file("paste.txt", NOT_THE_SUM.as_bytes());
    let out = chesstool(&["divide", "-d", "2", "--against"]).arg(&paste).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains(words));
    let (code, j, _) = run_json(chesstool(&["divide", "-d", "2", "--json", "--against"]).arg(&paste));
    assert_eq!(
        (code, j["error"]["kind"].as_str(), j["error"]["rule"].as_str()),
        (2, Some("input"), Some("total-is-sum"))
    );
    // A live UCI engine whose total is one more than its moves, and the
    // same engine as a script.
    for protocol in ["--engine-uci", "--engine-script"] {
        let bad = format!("{} --bug sum-wrong", buggy_engine().display());
        let (code, j, _) = run_json(&mut chesstool(&["divide", "-d", "2", "--json", protocol, &bad]));
        assert_eq!(code, 3, "{protocol}: {j}");
        assert_eq!(j["error"]["rule"], "total-is-sum", "{j}");
        assert!(
            j["error"]["message"].as_str().unwrap().contains("the total 401 is not the sum of the 20 moves"),
            "{j}"
        );
    }
    // In a suite, the failure is the engine's, named.
    let suite = dir.file("s.epd", b"startpos ;D2 400\n");
    let out = chesstool(&["suite", "--engine-script", &engine]).arg(&suite).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(words) || String::from_utf8_lossy(&out.stderr).contains(words)
    );
}

#[test]
fn a_layout_without_a_total_is_summed_and_a_total_alone_compared() {
    let dir = TempDir::new("no-total");
    // A paste of moves without a total is summed (a paste may be cut at the
    // end by hand; a script's answer without a total was cut off).
    let paste = dir.file("moves.txt", b"e2e4: 20\nd2d4: 20\n");
    let out = chesstool(&["divide", "-d", "2", "--against"]).arg(&paste).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "a partial list differs: {}", String::from_utf8_lossy(&out.stderr));
    let engine = script(&dir, "e2e4 20\nd2d4 20\n");
    let (code, j, _) = run_json(&mut chesstool(&["divide", "-d", "2", "--json", "--engine-script", &engine]));
    assert_eq!((code, j["error"]["rule"].as_str()), (3, Some("total-required")), "{j}");
    // A total alone (perft 2 of the start, from the published tables).
    let engine = script(&dir, "Nodes searched: 400\n");
    chesstool(&["divide", "-d", "2", "--engine-script", &engine]).assert().code(0);
}

#[test]
fn a_line_that_cannot_be_read_is_not_a_divide_line_with_the_layouts() {
    let dir = TempDir::new("not-a-line");
    let text = "e2e4 5\ne2e4 has 20\n\n25\n";
    let engine = script(&dir, text);
    let out = chesstool(&["divide", "-d", "2", "--engine-script", &engine]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let msg = stderr_line(&out);
    assert!(
        msg.contains("line 2: \"e2e4 has 20\" is not a divide line (the layouts read are `e2e4: 20`, `e2e4 20`"),
        "{msg}"
    );
    let paste = dir.file("paste.txt", text.as_bytes());
    let (code, j, _) = run_json(chesstool(&["divide", "-d", "2", "--json", "--against"]).arg(&paste));
    assert_eq!((code, j["error"]["rule"].as_str()), (2, Some("divide-line")), "{j}");
    assert!(j["error"]["message"].as_str().unwrap().contains("is not a divide line (the layouts read are"), "{j}");
}

#[test]
fn skipped_lines_of_an_engine_are_counted_and_shown() {
    let dir = TempDir::new("skipped");
    // Perft 1 of the start: 20 moves of 1 (published tables).
    let mut text = String::from("Debug: counting\n");
    for m in ["a2a3", "b2b3", "c2c3", "d2d3", "e2e3", "f2f3", "g2g3", "h2h3", "a2a4", "b2b4"] {
        text.push_str(&format!("{m} 1\n"));
    }
    text.push_str("Debug: half way\n");
    for m in ["c2c4", "d2d4", "e2e4", "f2f4", "g2g4", "h2h4", "b1a3", "b1c3", "g1f3", "g1h3"] {
        text.push_str(&format!("{m} 1\n"));
    }
    text.push_str("\n20\n");
    let engine = script(&dir, &text);
    let out = chesstool(&["divide", "-d", "1", "--engine-script", &engine]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("skipped 2 lines of its answers that are not divide data (2 debug)"), "{err}");
    let (code, j, _) = run_json(&mut chesstool(&["divide", "-d", "1", "--json", "--engine-script", &engine]));
    assert_eq!(code, 0);
    assert_eq!(j["skipped_lines"]["debug"], 2, "{j}");
}
