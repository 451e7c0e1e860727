//! Every command's `--help` ends with real examples and the guide page to
//! read (`chesstool docs PAGE`, built into the binary, so that a `cargo
//! install` user can follow it): the page exists, and the examples that
//! need no engine run (from a scratch directory that sees the checkout's
//! `suites/`, `tests/` and `data/`), in the order the help pages list the
//! commands, so that `book probe rep.book` finds the book `book build` wrote.

mod common;

use assert_cmd::Command;
use std::path::Path;
use std::time::{Duration, Instant};

fn help(path: &[String]) -> String {
    let out = Command::cargo_bin("chesstool").unwrap().args(path).arg("--help").output().unwrap();
    assert!(out.status.success(), "chesstool {} --help failed", path.join(" "));
    String::from_utf8(out.stdout).unwrap()
}

/// The examples and the guide page at the end of a help page.
fn ending(page: &str) -> (Vec<String>, Option<String>) {
    let examples = page
        .split("\nExamples:\n")
        .nth(1)
        .map(|rest| rest.lines().take_while(|l| l.starts_with("  ")).map(|l| l.trim().to_string()).collect())
        .unwrap_or_default();
    let guide = page
        .lines()
        .find_map(|l| l.strip_prefix("Guide: `chesstool docs "))
        .and_then(|rest| rest.split('`').next())
        .map(str::to_string);
    (examples, guide)
}

/// Examples that need what a test machine may lack (an engine, a terminal,
/// a manual viewer) or that take long: read, parsed by the unit test of
/// src/cli/examples.rs, not run.
const NOT_RUN: &[&str] =
    &["stockfish", "--engine", "play", "man -l", "~/", "magic-search --threads", "solve", "perft merge", "| less"];

#[test]
fn every_help_ends_with_examples_that_run_and_a_guide_page_that_exists() {
    let scratch = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/help-examples");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    for shared in ["suites", "tests", "data"] {
        std::os::unix::fs::symlink(Path::new(env!("CARGO_MANIFEST_DIR")).join(shared), scratch.join(shared)).unwrap();
    }
    let bin = assert_cmd::cargo::cargo_bin("chesstool");
    let path_var = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let (mut ran, mut pages) = (0, 0);
    for path in common::command_paths().into_iter().skip(1) {
        let what = format!("chesstool {}", path.join(" "));
        let (examples, guide) = ending(&help(&path));
        assert!((1..=3).contains(&examples.len()), "{what} --help: {} examples", examples.len());
        let page = guide.unwrap_or_else(|| panic!("{what} --help names no guide page"));
        let out = Command::cargo_bin("chesstool").unwrap().args(["docs", &page]).output().unwrap();
        assert!(out.status.success() && out.stdout.starts_with(b"# "), "{what}: chesstool docs {page} failed");
        pages += 1;
        for example in examples.iter().filter(|e| !NOT_RUN.iter().any(|n| e.contains(n))) {
            assert!(example.contains(&what), "{example}: not an example of {what}");
            let started = Instant::now();
            let out = std::process::Command::new("sh")
                .args(["-c", example])
                .current_dir(&scratch)
                .env("PATH", &path_var)
                .output()
                .unwrap();
            let took = started.elapsed();
            assert!(out.status.success(), "{example}: {}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
            assert!(took < Duration::from_secs(60), "{example}: {took:?}");
            ran += 1;
        }
    }
    assert!(ran >= 25 && pages >= 30, "{ran} examples run, {pages} pages");
}

#[test]
fn docs_lists_its_pages_and_refuses_one_it_does_not_have() {
    let out = Command::cargo_bin("chesstool").unwrap().arg("docs").output().unwrap();
    let list = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && list.contains("divide") && list.contains("formats/epd"), "{list}");
    // A page by the file name the guide's links use.
    let out = Command::cargo_bin("chesstool").unwrap().args(["docs", "formats/epd.md"]).output().unwrap();
    assert!(out.status.success() && out.stdout.starts_with(b"# Suite files"));
    let out = Command::cargo_bin("chesstool").unwrap().args(["docs", "nosuch"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.starts_with("error: PAGE: no page \"nosuch\" in the guide\nhint: the pages: guide, "), "{err}");
}
