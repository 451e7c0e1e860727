//! Xiangqi in ICCS coordinates (ranks 0-9, as Pikafish and UCCI engines
//! write them) beside Fairy-Stockfish's (1-10): pasted divides, `--moves`,
//! and an engine that speaks ICCS (`tests/tools/iccs_engine.py`:
//! Fairy-Stockfish behind a filter that shifts the ranks). The ICCS texts
//! are made here from Fairy-Stockfish's divides by a rank shift of the
//! test's own; every count is Fairy-Stockfish's.

mod variants_support;
use assert_cmd::Command;
use predicates::prelude::*;
use std::collections::BTreeMap;
use variants_support::{fairy_stockfish, Fsf};

/// A Fairy-Stockfish move (`h3e3`, `a10a9`) with its ranks counted from 0.
fn iccs(fairy: &str) -> String {
    let mut out = String::new();
    let mut chars = fairy.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c.is_ascii_lowercase() && chars.peek().is_some_and(char::is_ascii_digit) {
            let mut rank = String::new();
            while let Some(d) = chars.next_if(char::is_ascii_digit) {
                rank.push(d);
            }
            out.push_str(&(rank.parse::<u32>().unwrap() - 1).to_string());
        }
    }
    out
}

/// A divide in Stockfish's layout.
fn pasted(lines: &BTreeMap<String, u64>, total: u64) -> String {
    let body: String = lines.iter().map(|(m, n)| format!("{m}: {n}\n")).collect();
    format!("{body}\nNodes searched: {total}\n")
}

const AFTER: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";

#[test]
fn a_pasted_iccs_divide_matches_and_a_wrong_count_is_named_in_iccs() {
    let Some(mut fsf) = Fsf::start() else { return };
    let start = chesstool::variants::variant::builtin::load("xiangqi").unwrap().start_fen;
    let (lines, total) = fsf.divide("xiangqi", &start, &["h3e3"], 2);
    let theirs: BTreeMap<String, u64> = lines.iter().map(|(m, &n)| (iccs(m), n)).collect();
    assert!(theirs.contains_key("h9g7"), "the black horse's move in ICCS: {theirs:?}");
    let run = |paste: String| {
        Command::cargo_bin("chesstool")
            .unwrap()
            .args(["divide", "--variant", "xiangqi", "--notation", "iccs", "--depth", "2", "--moves", "h2e2"])
            .args(["--against", "-", "--quiet"])
            .write_stdin(paste)
            .assert()
    };
    run(pasted(&theirs, total)).success().stdout(predicate::str::contains(format!("match at depth 2: {total} nodes")));
    let mut wrong = theirs.clone();
    *wrong.get_mut("h9g7").unwrap() += 1;
    run(pasted(&wrong, total + 1)).code(1).stdout(predicate::str::contains("h9g7"));
}

#[test]
fn the_same_paste_in_fairy_stockfish_ranks_needs_no_option() {
    let Some(mut fsf) = Fsf::start() else { return };
    let (lines, total) = fsf.divide("xiangqi", AFTER, &[], 1);
    Command::cargo_bin("chesstool")
        .unwrap()
        .args(["divide", "--variant", "xiangqi", "--fen", AFTER, "--depth", "1", "--against", "-", "--quiet"])
        .write_stdin(pasted(&lines, total))
        .assert()
        .success()
        .stdout(predicate::str::contains(format!("match at depth 1: {total} nodes")));
}

#[test]
fn an_engine_speaking_iccs_is_driven_and_bisected_in_iccs() {
    let Some(fsf) = fairy_stockfish() else { return };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tools/iccs_engine.py");
    // Moves sent as Fairy-Stockfish writes them would be shifted a rank
    // up by the filter (`h3e3` to `h4e4`) and refused: a match proves ICCS.
    let divide = |engine: String| {
        Command::cargo_bin("chesstool")
            .unwrap()
            .args(["divide", "--variant", "xiangqi", "--notation", "iccs", "--depth", "3", "--moves", "h2e2", "h9g7"])
            .args(["--engine-uci", &engine, "--quiet", "--bisect"])
            .assert()
    };
    divide(format!("python3 {script} {}", fsf.display()))
        .success()
        .stdout(predicate::str::contains("match at depth 3"));
    // The engine hides the horse's move b0c2 wherever it can be played.
    divide(format!("python3 {script} {} b0c2", fsf.display())).code(1).stdout(
        predicate::str::contains("missing:  b0c2 (the horse on b0").and(predicate::str::contains("b1c3").not()),
    );
}

#[test]
fn iccs_moves_off_the_board_and_tall_boards_are_usage_errors() {
    Command::cargo_bin("chesstool")
        .unwrap()
        .args(["perft", "--variant", "xiangqi", "--notation", "iccs", "--depth", "1", "--moves", "a9a10"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("a9a10"));
    Command::cargo_bin("chesstool")
        .unwrap()
        .args(["perft", "--variant", "xiangqi", "--notation", "ucci", "--depth", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("iccs"));
    let ini = std::env::temp_dir().join(format!("chesstool-iccs-{}.ini", std::process::id()));
    std::fs::write(&ini, "[tall:chess]\nmaxRank = 12\nstartFen = 4k3/8/8/8/8/8/8/8/8/8/8/4K3 w - - 0 1\n").unwrap();
    Command::cargo_bin("chesstool")
        .unwrap()
        .args(["perft", "--variant", "tall", "--variant-path", ini.to_str().unwrap(), "--notation", "iccs"])
        .args(["--depth", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("ICCS names at most ten"));
    std::fs::remove_file(&ini).unwrap();
}
