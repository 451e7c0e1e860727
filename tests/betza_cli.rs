//! `chesstool betza show|compile` from the outside, with move sets derived
//! by hand for pieces outside Fairy-Stockfish's Betza subset (multi-leg,
//! locust, pass, igui, forking two-step).

use assert_cmd::Command;
use predicates::prelude::*;
use std::collections::BTreeSet;

fn chesstool() -> Command {
    Command::cargo_bin("chesstool").expect("binary")
}

/// The moves of `betza show --json`, as (to, sorted captures).
fn shown(args: &[&str]) -> BTreeSet<(String, Vec<String>)> {
    let out = chesstool().arg("betza").arg("show").args(args).arg("--json").assert().success();
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).expect("JSON");
    let mut set = BTreeSet::new();
    for m in doc["moves"].as_array().expect("moves") {
        let mut caps: Vec<String> =
            m["captures"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect();
        caps.sort();
        assert!(set.insert((m["to"].as_str().unwrap().to_string(), caps)), "a move listed twice");
    }
    set
}

fn set(list: &[(&str, &[&str])]) -> BTreeSet<(String, Vec<String>)> {
    list.iter().map(|(t, c)| (t.to_string(), c.iter().map(|s| s.to_string()).collect())).collect()
}

#[test]
fn checker_captures_by_jumping() {
    // fmF: one step diagonally forward to an empty square: c5 (e5 is an enemy).
    // fcafmF: capture diagonally forward (only e5 holds an enemy), then go on
    // in the same direction to an empty square: f6, removing e5.
    let got = shown(&["fmFfcafmF", "--fen", "8/8/8/4x3/3T4/8/8/8 w - - 0 1"]);
    assert_eq!(got, set(&[("c5", &[]), ("f6", &["e5"])]));
}

#[test]
fn pass_returns_to_the_origin() {
    // W: the four neighbours; mabW: step to an empty neighbour and straight
    // back, a pass, listed once however many neighbours are empty.
    let got = shown(&["WmabW", "--square", "e5"]);
    assert_eq!(got, set(&[("e4", &[]), ("d5", &[]), ("f5", &[]), ("e6", &[]), ("e5", &[])]));
    // With every neighbour occupied there is no pass: W captures the enemy
    // on e6 and nothing else moves.
    let got = shown(&["WmabW", "--fen", "8/8/4x3/3XTX2/4X3/8/8/8 w - - 0 1"]);
    assert_eq!(got, set(&[("e6", &["e6"])]));
}

#[test]
fn igui_captures_without_moving() {
    // cabK: capture a neighbouring enemy and step straight back: the piece
    // stays on e5 and removes d5 or e6 (X on f5 is a friend: no igui there).
    let got = shown(&["cabK", "--fen", "8/8/4x3/3xTX2/8/8/8/8 w - - 0 1"]);
    assert_eq!(got, set(&[("e5", &["d5"]), ("e5", &["e6"])]));
}

#[test]
fn two_king_steps_fork_in_every_direction() {
    // aK: a king step to an empty square, then any king step but straight
    // back. From e5 on an empty board that reaches the whole 5x5 box around
    // it (16 squares at distance 2, and the 8 neighbours by a bent path such
    // as e5-f5-e6) but not e5 itself (only straight back leads there): 24.
    let got = shown(&["aK", "--square", "e5"]);
    let mut expect = BTreeSet::new();
    for f in b'c'..=b'g' {
        for r in 3..=7 {
            let sq = format!("{}{r}", f as char);
            if sq != "e5" {
                expect.insert((sq, Vec::new()));
            }
        }
    }
    assert_eq!(got, expect);
}

#[test]
fn locust_then_second_capture() {
    // caK: capture on a neighbour (only e6 holds an enemy), then one more
    // king step from e6 in any direction but straight back to e5: d5, d6,
    // d7, e7, f5, f6 empty, and f7 holding a second enemy (captured too).
    let got = shown(&["caK", "--fen", "8/5x2/4x3/4T3/8/8/8/8 w - - 0 1"]);
    assert_eq!(
        got,
        set(&[
            ("d5", &["e6"]),
            ("d6", &["e6"]),
            ("d7", &["e6"]),
            ("e7", &["e6"]),
            ("f5", &["e6"]),
            ("f6", &["e6"]),
            ("f7", &["e6", "f7"]),
        ])
    );
}

#[test]
fn hook_mover_turns_on_empty_squares_only() {
    // masR on a1 of a 3x3 board with a friendly X on b2: a rook move to an
    // empty square (a2, a3, b1, c1), then a perpendicular rook move. From a2
    // right is b2 (a friend): nothing. From a3: b3, c3. From b1 up is b2:
    // nothing. From c1: c2, c3. So b3, c3, c2.
    let got = shown(&["masR", "--fen", "3/1X1/T2 w - - 0 1"]);
    assert_eq!(got, set(&[("b3", &[]), ("c3", &[]), ("c2", &[])]));
}

#[test]
fn cannon_and_grasshopper_need_a_screen() {
    // mRcpR on e4: e5 is a friend X (screen), e7 an enemy: the cannon captures
    // e7 over e5; it moves without capturing along the empty rank and file
    // below and beside it (e1-e3, a4-d4, f4-h4).
    let got = shown(&["mRcpR", "--fen", "8/4x3/8/4X3/4T3/8/8/8 w - - 0 1"]);
    let mut expect = set(&[("e7", &["e7"])]);
    for sq in ["e1", "e2", "e3", "a4", "b4", "c4", "d4", "f4", "g4", "h4"] {
        expect.insert((sq.to_string(), vec![]));
    }
    assert_eq!(got, expect);
    // gR: lands right behind the first piece in each direction: only e6 (over e5).
    assert_eq!(shown(&["gR", "--fen", "8/4x3/8/4X3/4T3/8/8/8 w - - 0 1"]), set(&[("e6", &[])]));
}

#[test]
fn show_json_has_origin_and_moves() {
    chesstool()
        .args(["betza", "show", "N", "--board", "10x10", "--square", "a10", "--json"])
        .assert()
        .success()
        .stdout(predicate::str::contains("\"origin\": \"a10\"").and(predicate::str::contains("\"to\": \"b8\"")));
}

#[test]
fn bad_notation_is_one_error_line_and_the_caret_comes_with_verbose() {
    for (notation, pos, what) in [
        ("fxN", 2, "unknown modifier 'x'"),
        ("mRa", 3, "'a' (again) with no atom"),
        ("fm", 1, "no atom"),
        ("NX", 2, "unknown atom 'X'"),
        ("eF", 1, "not implemented"),
        ("R(", 2, "not implemented"),
        ("aaaaaaaaaK", 10, "paths implemented"),
        ("amamamaQ", 8, "paths implemented"),
    ] {
        let out = chesstool().args(["betza", "compile", notation]).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("error: ") && stderr.contains(&format!("at character {pos}")), "{stderr}");
        assert!(stderr.contains(what), "{stderr}");
        // --verbose: the notation and the caret follow the error line.
        chesstool()
            .args(["betza", "compile", "--verbose", notation])
            .assert()
            .code(2)
            .stderr(predicate::str::starts_with("error: "))
            .stderr(predicate::str::contains(format!("\n{notation}\n{}^", " ".repeat(pos - 1))));
    }
}

#[test]
fn ambiguous_atoms_warn() {
    chesstool()
        .args(["betza", "compile", "L"])
        .assert()
        .success()
        .stderr(predicate::str::contains("warning: atom 'L'").and(predicate::str::contains("camel")));
}

#[test]
fn compile_prints_the_hook_mover_table() {
    chesstool()
        .args(["betza", "compile", "RmasR"])
        .assert()
        .success()
        .stdout(predicate::str::contains("5. (noncapt|pause,      (0,1), inf,   3)"))
        .stdout(predicate::str::contains("8. (loop,               (0,1),   2,   0)"));
    let out = chesstool().args(["betza", "compile", "masR", "--json"]).assert().success();
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(doc["rows"].as_array().unwrap().len(), 16);
    assert_eq!(doc["rows"][3]["flags"], "loop");
}
