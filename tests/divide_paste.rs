//! Pasted divide outputs as people paste them (issue 15): real Stockfish
//! sessions with banners, UCI chatter, echoes with and without a prompt,
//! CRLF and a byte-order mark, and the same counts in the other layouts
//! (perftree, Weiss/VICE, dash, long algebraic, SAN, upper-case
//! promotions). Each is judged right: exit 0 as pasted, exit 1 naming
//! exactly the altered moves in its altered copy. The fixtures and
//! `cases.tsv` come from tests/fixtures/pastes/make.py (Stockfish 15.1's
//! counts, python-chess's move names), never from our own output.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;
use std::path::PathBuf;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pastes")
}

fn chesstool() -> Command {
    Command::cargo_bin("chesstool").unwrap()
}

struct Case {
    file: String,
    fen: String,
    moves: Vec<String>,
    depth: String,
    exit: i32,
    differ: Vec<String>,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(fixtures().join("cases.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Case {
                file: f[0].to_string(),
                fen: f[1].to_string(),
                moves: f[2].split_whitespace().map(String::from).collect(),
                depth: f[3].to_string(),
                exit: f[4].parse().unwrap(),
                differ: f[5].split(',').filter(|s| !s.is_empty()).map(String::from).collect(),
            }
        })
        .collect()
}

fn against(case: &Case, extra: &[&str]) -> (i32, Value, String) {
    let mut cmd = chesstool();
    cmd.args(["divide", "--fen", &case.fen, "--depth", &case.depth, "--json", "--against"])
        .arg(fixtures().join(&case.file))
        .args(extra);
    if !case.moves.is_empty() {
        cmd.arg("--moves").args(&case.moves);
    }
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{}: {e}: {stderr}", case.file));
    (out.status.code().unwrap_or(-1), json, stderr)
}

#[test]
fn every_real_paste_is_judged_right() {
    let cases = cases();
    assert!(cases.len() >= 24, "{} cases", cases.len());
    for case in &cases {
        let (code, j, stderr) = against(case, &[]);
        let what = format!("{}: {j} {stderr}", case.file);
        assert_eq!(code, case.exit, "{what}");
        let rows: Vec<String> = j["comparison"]["differences"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["move"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(rows, case.differ, "{what}");
        if case.exit == 0 {
            assert_eq!(j["status"], "ok", "{what}");
        } else {
            assert_eq!(j["status"], "mismatch", "{what}");
        }
        if case.file.starts_with("sf_") {
            // Stockfish's banner at least was skipped, and said so.
            assert!(j["skipped_lines"]["banner"].as_u64().unwrap() >= 1, "{what}");
            assert!(stderr.contains("not divide data"), "{what}");
        }
        if case.file.contains("bom") {
            assert_eq!(j["skipped_lines"]["bom"], true, "{what}");
        }
    }
}

#[test]
fn the_issue_reproduction_stockfish_output_with_its_banner() {
    // printf 'position startpos\ngo perft 3\nquit\n' | stockfish > sf.txt
    chesstool()
        .args(["divide", "--depth", "3", "--against"])
        .arg(fixtures().join("sf_startpos_d3.txt"))
        .assert()
        .success()
        .stdout(predicate::str::contains("match at depth 3: 8902 nodes"))
        .stdout(predicate::str::contains("compared with the pasted divide "))
        .stdout(predicate::str::contains("engine call").not())
        .stderr(predicate::str::contains("skipped 1 line that is not divide data (1 banner)"));
}

#[test]
fn bisect_with_a_paste_says_why_it_cannot() {
    chesstool()
        .args(["divide", "--depth", "3", "--bisect", "--against"])
        .arg(fixtures().join("sf_startpos_d3.txt"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "error: --bisect cannot be used with --against: bisection asks the engine about the positions below the root, and a pasted divide answers for its root alone",
        ))
        .stderr(predicate::str::contains("hint: run your engine with --engine-uci CMD or --engine-script CMD"));
}

#[test]
fn a_total_that_is_not_the_sum_is_an_input_error_with_both_numbers() {
    let paste = "a2a3: 1\nb2b3: 1\nc2c3: 1\nd2d3: 1\ne2e3: 1\nf2f3: 1\ng2g3: 1\nh2h3: 1\na2a4: 1\nb2b4: 1\n\nNodes searched: 8902\n";
    let out = chesstool().args(["divide", "-d", "3", "--against", "-"]).write_stdin(paste).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("8902") && err.contains("(10)"), "{err}");
}

#[test]
fn a_paste_of_another_depth_says_so() {
    // Stockfish's depth-3 divide checked at depth 4.
    chesstool()
        .args(["divide", "--depth", "4", "--against"])
        .arg(fixtures().join("sf_startpos_d3.txt"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("the pasted total 8902 is our perft 3 of this position, not perft 4"));
}

#[test]
fn a_paste_of_another_position_says_so() {
    // Kiwipete's divide checked against the start position.
    let out = chesstool()
        .args(["divide", "--depth", "2", "--json", "--against"])
        .arg(fixtures().join("perftree_kiwipete_d2.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    let notes = j["notes"].as_array().unwrap();
    assert!(notes.iter().any(|n| n.as_str().unwrap().contains("not legal in this position")), "{j}");
    // In SAN most moves cannot even be read there: an input error that says why.
    let out = chesstool()
        .args(["divide", "--depth", "2", "--against"])
        .arg(fixtures().join("san_kiwipete_d2.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("another position"));
}

#[test]
fn forcing_the_wrong_format_is_an_input_error() {
    let out = chesstool()
        .args(["divide", "--depth", "3", "--against-format", "perftree", "--against"])
        .arg(fixtures().join("sf_startpos_d3.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "not a mismatch of 20 extra moves");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is not a perftree divide line") && err.contains("reads as stockfish output"), "{err}");
}

#[test]
fn unreadable_moves_are_input_errors_and_illegal_ones_extra() {
    // Knights on b1 and f1 both reach d2: `Nd2` is ambiguous.
    let fen = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
    let paste = "Nd2 1\nNa3 1\n\n2\n";
    let out =
        chesstool().args(["divide", "-d", "1", "--fen", fen, "--against", "-"]).write_stdin(paste).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ambiguous"));
    // SAN that no legal move fits.
    let out = chesstool()
        .args(["divide", "-d", "1", "--fen", fen, "--against", "-"])
        .write_stdin("Qd2 1\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // A move in no notation at all, on a line that looks like divide data.
    let out =
        chesstool().args(["divide", "-d", "1", "--against", "-"]).write_stdin("e2e4: 1\nz9z9z9: 1\n").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    // Well formed and illegal: an extra move, exit 1.
    let paste = "Nb1-d3 1\n\n1\n";
    let out = chesstool()
        .args(["divide", "-d", "1", "--fen", fen, "--json", "--against", "-"])
        .write_stdin(paste)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["witness"]["extra"], serde_json::json!(["b1d3"]), "{j}");
}

#[test]
fn a_ten_megabyte_line_gives_a_short_error() {
    let paste = format!("e2e4: 1\n{}: 5\n", "e".repeat(10 << 20));
    let out = chesstool().args(["divide", "-d", "1", "--against", "-"]).write_stdin(paste).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stderr.len() < 1000, "{} bytes of error", out.stderr.len());
}

/// A flood of distinct move lines ends in a one-line error at the cap, in
/// linear time (the duplicate check once scanned every earlier move: 300,000
/// lines took over 30 s).
#[test]
fn a_flood_of_distinct_moves_is_an_input_error() {
    let paste: String = (0..300_000).map(|i| format!("a1x{i}: 1\n")).collect();
    let out = chesstool()
        .args(["divide", "-d", "2", "-q", "--against", "-"])
        .write_stdin(paste)
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: ") && stderr.contains("line 10001: more than 10000 move lines"), "{stderr}");
    // Below the cap, a move printed again is the paste's finding, not an error.
    let out = chesstool()
        .args(["divide", "-d", "1", "-q", "--against", "-"])
        .write_stdin("e2e4: 1\nd2d4: 1\ne2e4: 1\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("repeated: e2e4 (listed twice)"), "{stdout}");
}
