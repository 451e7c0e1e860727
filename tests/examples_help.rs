//! Examples are programs too (issue 34, item 7): each answers `--help` with
//! its usage and exit 0, and bad arguments with a clear error and exit 2,
//! never a panic.

use std::process::Command;

mod common;

/// Every example program (the shell script aside).
const EXAMPLES: &[&str] =
    &["betza_reparse", "buggy_engine", "double_checks", "engine_author_test", "hostile_engine", "ttc_engine"];

#[test]
fn every_example_answers_help() {
    let listed: Vec<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/examples"))
        .unwrap()
        .filter_map(|e| e.unwrap().file_name().to_str()?.strip_suffix(".rs").map(String::from))
        .collect();
    for name in &listed {
        assert!(EXAMPLES.contains(&name.as_str()), "examples/{name}.rs is not checked here");
    }
    for name in EXAMPLES {
        let out = Command::new(common::example(name)).arg("--help").output().unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "{name} --help: {stderr}");
        assert!(stdout.to_lowercase().contains("usage:"), "{name} --help: {stdout}");
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    }
}

#[test]
fn bad_arguments_are_errors_not_panics() {
    let cases: &[(&str, &[&str])] = &[
        ("buggy_engine", &["x"]),
        ("buggy_engine", &["1", "not a fen"]),
        ("buggy_engine", &["1", "startpos", "e2e5"]),
        ("buggy_engine", &["--bug"]),
        ("buggy_engine", &["--nonsense"]),
        ("double_checks", &["startpos"]),
        ("double_checks", &["8/8/8/8/8/8/8/K6k w - - 0 1", "x"]),
        ("double_checks", &["8/8/8/8/8/8/8/K6k w - - 0 1", "0"]),
        ("betza_reparse", &["no-such.ini", "x", "1"]),
        ("ttc_engine", &["x", "y"]),
        ("hostile_engine", &["--mode"]),
    ];
    for (name, args) in cases {
        let out = Command::new(common::example(name)).args(*args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name} {args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{name} {args:?}: {stderr}");
        assert!(!stderr.is_empty() && stderr.lines().all(|l| l.len() < 300), "{name} {args:?}: {stderr}");
    }
}
