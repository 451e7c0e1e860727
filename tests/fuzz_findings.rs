//! One bug, one finding: `fuzz --keep-going` against engines of our own
//! with one fault each (examples/buggy_engine) reports that fault once,
//! named for its layer, whatever else the engine's wrong answers hold: a
//! position command that answers for the other side and adds junk, a FEN
//! reader that swaps castling rights, an engine that crashes on one kind of
//! position, one that hangs at random, one that crashes on everything.
//! A crash or a hang is a finding and the walk goes on (exit 3 at the end).
//! The witnesses' moves are checked by python-chess, not by our generator.

use assert_cmd::Command;
use serde_json::Value;
use std::time::Duration;

mod common;
use common::{buggy_engine_cmd, run_json};

/// `chesstool fuzz --json --keep-going --seed 1 ARGS` against the buggy
/// engine with `engine_args`: (exit code, JSON).
fn fuzz(engine_args: &str, args: &[&str]) -> (i32, Value) {
    let (code, j, seconds) = run_json(
        Command::cargo_bin("chesstool")
            .unwrap()
            // The engine's panic message, not a backtrace, ends its stderr.
            .env("RUST_BACKTRACE", "0")
            .args(["fuzz", "--json", "--keep-going", "--seed", "1", "--engine-uci"])
            .arg(buggy_engine_cmd(engine_args))
            .args(args)
            .timeout(Duration::from_secs(240)),
    );
    eprintln!("{engine_args}: {seconds:.1} s, {} positions, {} findings", j["positions"], j["findings"]);
    (code, j)
}

/// The one finding of a run, with its cause.
fn only_finding(j: &Value) -> &Value {
    let findings = j["findings"].as_array().unwrap_or_else(|| panic!("no findings: {j}"));
    let causes: Vec<&str> = findings.iter().map(|f| f["cause"].as_str().unwrap()).collect();
    assert_eq!(findings.len(), 1, "one finding expected: {causes:?}\n{j}");
    &findings[0]
}

/// python-chess's legal moves (UCI) of a FEN.
fn python_chess_moves(fen: &str) -> Vec<String> {
    let script = "import chess,sys\nb = chess.Board(sys.argv[1])\nprint(' '.join(m.uci() for m in b.legal_moves))";
    let out = std::process::Command::new("python3").args(["-c", script, fen]).output().expect("python3 runs");
    assert!(out.status.success(), "python-chess on {fen}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().split_whitespace().map(str::to_string).collect()
}

/// An engine that, after `position fen <Black to move> moves ...`, answers
/// for the other side and lists its king onto every neighbouring square
/// besides: one position-command finding, and no hint of the witness
/// speaks of the rules of the position sent.
#[test]
fn a_position_command_with_junk_is_one_finding() {
    let (code, j) = fuzz("--bug moves-side-junk", &["--positions", "3000"]);
    assert_eq!(code, 1, "{j}");
    let found = only_finding(&j);
    assert_eq!(found["fault"], "position-command", "{j}");
    assert!(found["explanation"].as_str().unwrap().contains("other side"), "{j}");
    assert!(found["count"].as_u64().unwrap() > 1, "{j}");
    let w = &found["witness"];
    for hint in w["hints"].as_object().unwrap().values() {
        let hint = hint.as_str().unwrap();
        assert!(!hint.contains("no piece of the side to move"), "a hint against the explanation: {hint}\n{j}");
    }
    // The engine's list is python-chess's list with the other side to move, and junk.
    let position = w["position"].as_str().unwrap();
    let mut fields: Vec<&str> = position.split(' ').collect();
    fields[1] = if fields[1] == "w" { "b" } else { "w" };
    fields[3] = "-";
    let theirs = python_chess_moves(&fields.join(" "));
    let extra: Vec<&str> = w["extra"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert!(extra.iter().any(|m| theirs.iter().any(|t| t == m)), "{extra:?} / {theirs:?}");
}

/// A FEN reader that swaps the kingside and queenside castling rights
/// (moves from the start keep them right): one finding, the FEN reader's,
/// though the motif cases (positions of their own, no moves lead to them)
/// show it as castling moves missing and extra.
#[test]
fn a_fen_reader_that_swaps_castling_rights_is_one_finding() {
    let (code, j) = fuzz("--bug fen-castling-swap", &["--positions", "3000"]);
    assert_eq!(code, 1, "{j}");
    let found = only_finding(&j);
    assert_eq!(found["fault"], "fen-reader", "{j}");
    assert_eq!(found["witness"]["from_start"], true, "{j}");
}

/// An engine that panics (its own assertion, exit status 101) on every
/// position with an e.p. capture: one crash finding that blames the
/// position (it crashes on it given alone too); the engine is restarted
/// and the walk goes on to the end of its budget; exit 3.
#[test]
fn a_crash_on_one_kind_of_position_is_a_finding_and_the_walk_goes_on() {
    let (code, j) = fuzz("--bug crash-on-ep", &["--positions", "400"]);
    assert_eq!((code, j["status"].as_str()), (3, Some("engine-failure")), "{j}");
    assert_eq!(j["positions"], 400, "the walk went on to the end of its budget: {j}");
    let found = only_finding(&j);
    let failure = &found["failure"];
    assert_eq!((failure["kind"].as_str(), failure["layer"].as_str()), (Some("crash"), Some("position")), "{j}");
    assert!(failure["message"].as_str().unwrap().contains("101"), "{j}");
    assert!(failure["message"].as_str().unwrap().contains("no e.p. capture expected"), "stderr kept: {j}");
    // python-chess agrees the position holds an e.p. capture.
    let legal = python_chess_moves(failure["position"].as_str().unwrap());
    let ep = failure["position"].as_str().unwrap().split(' ').nth(3).unwrap();
    assert!(ep != "-" && legal.iter().any(|m| m.ends_with(ep)), "{legal:?}: {j}");
}

/// An engine whose perft hangs one time in eight, at random: one finding,
/// a hang at random (asked again after a restart, it answered); exit 3.
#[test]
fn an_engine_that_hangs_at_random_is_one_finding() {
    let (code, j) = fuzz("--bug hang-random", &["--positions", "80", "--timeout", "1", "--retries", "4"]);
    assert_eq!((code, j["status"].as_str()), (3, Some("engine-failure")), "{j}");
    assert_eq!(j["positions"], 80, "{j}");
    let found = only_finding(&j);
    assert_eq!(
        (found["failure"]["kind"].as_str(), found["failure"]["layer"].as_str()),
        (Some("hang"), Some("at-random"))
    );
    assert!(found["cause"].as_str().unwrap().contains("at random"), "{j}");
}

/// An engine that crashes on every question: the run gives up after eight
/// lines in a row, with one finding; exit 3.
#[test]
fn an_engine_that_always_crashes_is_given_up() {
    let (code, j) = fuzz("--bug crash", &["--positions", "100"]);
    assert_eq!((code, j["gave_up"].as_bool()), (3, Some(true)), "{j}");
    let found = only_finding(&j);
    assert_eq!(found["failure"]["kind"], "crash", "{j}");
    assert_eq!(found["count"], 8, "{j}");
    assert_eq!(j["positions"], 0, "{j}");
}
