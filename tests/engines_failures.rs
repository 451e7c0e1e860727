//! Engines that misbehave end with exit 3 and a clear one-line message,
//! within the timeout: crashes (also in the middle of a bisection), hangs,
//! garbage, programs that do not exist.

use assert_cmd::Command;
use predicates::prelude::*;
use std::time::{Duration, Instant};

mod common;
use common::buggy_engine;

fn divide(protocol: &str, bug: &str, extra: &[&str]) -> Command {
    divide_at(3, protocol, bug, extra)
}

fn divide_at(depth: u32, protocol: &str, bug: &str, extra: &[&str]) -> Command {
    let mut cmd = Command::cargo_bin("chesstool").unwrap();
    cmd.args(["divide", "-d", &depth.to_string()])
        .arg(format!("--engine-{protocol}"))
        .arg(format!("{} --bug {bug}", buggy_engine().display()))
        .args(extra)
        .timeout(Duration::from_secs(60));
    cmd
}

fn one_line(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr).to_string();
    assert_eq!(text.trim_end().lines().count(), 1, "not one line: {text}");
    text
}

#[test]
fn crashing_engine_is_exit_3() {
    for protocol in ["uci", "script"] {
        let out = divide(protocol, "crash", &[]).output().unwrap();
        assert_eq!(out.status.code(), Some(3), "{protocol}");
        let msg = one_line(&out.stderr);
        assert!(msg.starts_with("error: ") && msg.contains("was killed by signal"), "{msg}");
        assert!(msg.contains("line(s) of output"), "{msg}");
    }
}

#[test]
fn crash_in_the_middle_of_a_bisection_is_exit_3_with_json_error() {
    for protocol in ["uci", "script"] {
        let out = divide_at(5, protocol, "no-ep,crash-deep", &["--bisect", "--json"]).output().unwrap();
        assert_eq!(out.status.code(), Some(3), "{protocol}");
        let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(j["status"], "error");
        assert_eq!(j["error"]["kind"], "engine", "{j}");
        assert_eq!(j["engine"]["calls"], 6, "depths 1..=5 at the root, then the crash: {j}");
        assert!(j["error"]["message"].as_str().unwrap().contains("killed by signal"), "{j}");
    }
}

#[test]
fn hanging_engine_is_killed_at_the_timeout() {
    for protocol in ["uci", "script"] {
        let started = Instant::now();
        let out = divide(protocol, "hang", &["--timeout", "1.5"]).output().unwrap();
        let seconds = started.elapsed().as_secs_f64();
        assert_eq!(out.status.code(), Some(3), "{protocol}");
        let msg = one_line(&out.stderr);
        assert!(msg.contains("within 1.5 s (killed)"), "{msg}");
        assert!(seconds < 6.0, "{protocol}: took {seconds:.1} s");
    }
}

#[test]
fn hang_during_bisection_is_killed_too() {
    let started = Instant::now();
    divide_at(5, "uci", "no-ep,hang-deep", &["--bisect", "--timeout", "2"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("(killed)"));
    assert!(started.elapsed() < Duration::from_secs(15));
}

#[test]
fn garbage_names_its_line() {
    for protocol in ["uci", "script"] {
        let out = divide(protocol, "garbage", &[]).output().unwrap();
        assert_eq!(out.status.code(), Some(3));
        let msg = one_line(&out.stderr);
        assert!(msg.contains("hello, I am not a move\"") && msg.contains(": line "), "{msg}");
    }
}

/// A move listed twice is the engine's bug, reported as a witness (exit 1),
/// not a failure to answer (tests/hunt_findings.rs has the details).
#[test]
fn a_move_listed_twice_is_a_finding_not_a_failure() {
    for protocol in ["uci", "script"] {
        divide(protocol, "duplicate", &[]).assert().code(1).stdout(predicate::str::contains("(listed twice)"));
    }
}

/// Issue 15: a command that cannot be started is the user's input error
/// (exit 2) naming the path, not an engine failure.
#[test]
fn engine_that_cannot_start_is_exit_2_naming_the_path() {
    let dir = std::env::temp_dir();
    let not_executable = dir.join(format!("chesstool-not-executable-{}", std::process::id()));
    std::fs::write(&not_executable, "not a program").unwrap();
    for protocol in ["uci", "script"] {
        for path in ["/nonexistent/engine".to_string(), dir.display().to_string(), not_executable.display().to_string()]
        {
            let out = Command::cargo_bin("chesstool")
                .unwrap()
                .args(["divide", "-d", "2", &format!("--engine-{protocol}"), &path])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2), "{protocol} {path}");
            let msg = one_line(&out.stderr);
            assert!(msg.contains("cannot start") && msg.contains(&path), "{msg}");
        }
    }
    std::fs::remove_file(&not_executable).unwrap();
}

#[test]
fn script_exiting_with_an_error_is_exit_3() {
    Command::cargo_bin("chesstool")
        .unwrap()
        .args(["divide", "-d", "2", "--engine-script", "sh -c 'echo e2e4 1; exit 7'"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("exited with status 7"));
}

#[test]
fn hanging_shell_script_and_its_children_are_killed() {
    let started = Instant::now();
    Command::cargo_bin("chesstool")
        .unwrap()
        .args(["divide", "-d", "2", "--timeout", "1", "--engine-script", "sh -c 'sleep 30; echo 1'"])
        .timeout(Duration::from_secs(20))
        .assert()
        .code(3);
    assert!(started.elapsed() < Duration::from_secs(5));
}
