//! The xboard driver (`--engine-xboard`) and the end of every answer by
//! protocol sync: our own xboard engine (`buggy_engine --xboard`) with its
//! bugs found, real xboard engines from Debian (Sjeng, Sjaak II) driven as
//! they are, Ethereal's `perft N` through UCI, and engines whose answer ends
//! in ways chesstool must not wait out (silent after a whole answer, a perft
//! command ignored, `readyok` before the answer). Counts are published ones
//! (the Chess Programming Wiki's perft tables) or the suites' (Stockfish).
//! Tests of a Debian engine skip with a note where it is not installed, but
//! fail under CI, which installs them (.ci/run).

use serde_json::Value;
use std::path::Path;
use std::time::Instant;

mod common;
use common::{buggy_engine_cmd, chesstool_with, run_json};

/// Perft(1..3) from the start position, and Kiwipete's perft(2).
const START: [u64; 3] = [20, 400, 8902];
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

/// A Debian engine at `path`, or `None` with a note (an error under CI).
fn debian(path: &str) -> Option<&str> {
    if Path::new(path).is_file() {
        return Some(path);
    }
    assert!(std::env::var_os("CI").is_none(), "{path} is missing, but .ci/run installs it");
    eprintln!("note: skipping, no {path} (apt-get install {})", path.trim_start_matches("/usr/games/"));
    None
}

/// `chesstool ARGS` with a JSON report: (exit code, document, seconds).
fn json(args: &[&str]) -> (i32, Value, f64) {
    let mut cmd = chesstool_with(args, 120);
    cmd.arg("--json");
    run_json(&mut cmd)
}

/// `chesstool ARGS`: (exit code, stdout, stderr, seconds).
fn run(args: &[&str]) -> (i32, String, String, f64) {
    let started = Instant::now();
    let out = chesstool_with(args, 120).output().unwrap();
    let secs = started.elapsed().as_secs_f64();
    let text = |b: &[u8]| String::from_utf8_lossy(b).to_string();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr), secs)
}

#[test]
fn our_xboard_engine_matches_from_the_start_after_moves_and_from_a_fen() {
    let engine = buggy_engine_cmd("--xboard");
    for (depth, nodes) in (1..).zip(START) {
        let (code, j, _) = json(&["divide", "-d", &depth.to_string(), "--engine-xboard", &engine]);
        assert_eq!(code, 0, "{j}");
        assert_eq!(j["comparison"]["engine"], nodes, "{j}");
    }
    // After 1. e4 (perft(3) from the start is the sum over the first moves:
    // e4's share is 600 at depth 2, Stockfish's divide).
    let (code, j, _) = json(&["divide", "-d", "2", "--moves", "e2e4", "--engine-xboard", &engine]);
    assert_eq!((code, &j["comparison"]["engine"]), (0, &Value::from(600)), "{j}");
    let (code, j, _) = json(&["divide", "-d", "2", "--fen", KIWIPETE, "--engine-xboard", &engine]);
    assert_eq!((code, &j["comparison"]["engine"]), (0, &Value::from(2039)), "{j}");
}

#[test]
fn a_bug_in_our_xboard_engine_is_found_with_its_witness() {
    let engine = buggy_engine_cmd("--xboard --bug ep-pin");
    let (code, j, _) = json(&["divide", "--fen", POSITION3, "-d", "5", "--bisect", "--engine-xboard", &engine]);
    assert_eq!(code, 1, "{j}");
    assert_eq!(j["status"], "mismatch", "{j}");
    assert_eq!(j["witness"]["extra"], serde_json::json!(["f4e3"]), "{j}");
}

#[test]
fn uci_to_an_xboard_engine_says_so_at_once() {
    let engine = buggy_engine_cmd("--xboard");
    let (code, _, err, secs) = run(&["divide", "-d", "1", "--engine-uci", &engine]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("Error (unknown command): uci") && err.contains("try --engine-xboard"), "{err}");
    assert!(secs < 3.0, "{secs} s: the hint waited for the handshake timeout");
}

#[test]
fn an_engine_silent_after_a_whole_answer_is_named_within_seconds() {
    let engine = buggy_engine_cmd("--bug silent-after");
    let (code, _, err, secs) = run(&["divide", "-d", "2", "--timeout", "60", "--engine-uci", &engine]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("\"Perft done.\"") && err.contains("--against-format"), "{err}");
    assert!(secs < 10.0, "{secs} s: the run waited for its --timeout");
}

#[test]
fn an_ignored_perft_command_is_named_within_seconds() {
    let engine = buggy_engine_cmd("--bug no-go-perft");
    let (code, _, err, secs) = run(&["divide", "-d", "2", "--timeout", "60", "--engine-uci", &engine]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("printed nothing") && err.contains("--perft-command 'perft {depth}'"), "{err}");
    assert!(secs < 10.0, "{secs} s: the run waited for its --timeout");
}

#[test]
fn readyok_before_the_answer_of_a_threaded_engine_does_not_end_it() {
    // The engine answers `isready` at once and its divide half a second
    // later: each answer is read whole, and no stale `readyok` ends the next.
    let engine = buggy_engine_cmd("--bug threaded");
    let (code, j, _) = json(&["divide", "-d", "3", "--bisect", "--engine-uci", &engine]);
    assert_eq!(code, 0, "{j}");
    assert_eq!(j["comparison"]["engine"], START[2], "{j}");
}

#[test]
fn sjeng_plays_the_standard_suite_through_xboard() {
    let Some(sjeng) = debian("/usr/games/sjeng") else { return };
    let (code, out, err, _) =
        run(&["suite", "suites/standard.epd", "--max-nodes", "200000", "--quiet", "--engine-xboard", sjeng]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, j, _) = json(&["divide", "-d", "2", "--fen", KIWIPETE, "--engine-xboard", sjeng]);
    assert_eq!((code, &j["comparison"]["engine"]), (0, &Value::from(2039)), "{j}");
}

#[test]
fn sjeng_driven_as_uci_gets_the_xboard_hint_in_seconds() {
    let Some(sjeng) = debian("/usr/games/sjeng") else { return };
    let (code, _, err, secs) = run(&["divide", "-d", "1", "--engine-uci", sjeng]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("try --engine-xboard"), "{err}");
    assert!(secs < 6.0, "{secs} s");
}

#[test]
fn sjaak_divides_through_xboard() {
    let Some(sjaak) = debian("/usr/games/sjaakii") else { return };
    let (code, j, _) = json(&["divide", "-d", "3", "--engine-xboard", sjaak]);
    assert_eq!(code, 0, "{j}");
    assert_eq!(j["comparison"]["engine"], START[2], "{j}");
    let (code, out, err, _) =
        run(&["suite", "suites/standard.epd", "--max-nodes", "200000", "--quiet", "--engine-xboard", sjaak]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn ethereal_counts_with_perft_n_through_uci() {
    let Some(ethereal) = debian("/usr/games/ethereal-chess") else { return };
    let (code, _, err, secs) = run(&["divide", "-d", "2", "--timeout", "60", "--engine-uci", ethereal]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("--perft-command 'perft {depth}'"), "{err}");
    assert!(secs < 10.0, "{secs} s");
    let perft = ["--perft-command", "perft {depth}"];
    let (code, j, _) = json(&[&["divide", "-d", "3", "--engine-uci", ethereal][..], &perft].concat());
    assert_eq!((code, &j["comparison"]["engine"]), (0, &Value::from(START[2])), "{j}");
    let suite = ["suite", "suites/standard.epd", "--max-nodes", "200000", "--quiet", "--engine-uci", ethereal];
    let (code, out, err, _) = run(&[&suite[..], &perft].concat());
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn a_usi_engine_listing_uci_variant_is_driven_with_it() {
    // A USI engine that lists `UCI_Variant`, not `USI_Variant` (Sjaak II,
    // Debian's Fairy-Stockfish 11.1); shogi's perft(1) is 30.
    let dir = common::TempDir::new("usi_uci_variant");
    let script = dir.file(
        "engine.sh",
        b"#!/bin/sh\nwhile read -r cmd rest; do case \"$cmd\" in\n\
          usi) echo 'option name UCI_Variant type combo default shogi var shogi'; echo usiok;;\n\
          isready) echo readyok;;\n\
          setoption) case \"$rest\" in *UCI_Variant*) ;; *) echo \"No such option: $rest\";; esac;;\n\
          go) echo 'Nodes searched: 30';;\n\
          quit) exit 0;;\n\
          esac; done\n",
    );
    std::process::Command::new("chmod").arg("+x").arg(&script).status().unwrap();
    let (code, j, _) = json(&["divide", "--variant", "shogi", "-d", "1", "--engine-usi", script.to_str().unwrap()]);
    assert_eq!(code, 0, "{j}");
    assert_eq!(j["comparison"]["engine"], 30, "{j}");
}

#[test]
fn xboard_options_are_checked() {
    let (code, _, err, _) = run(&["divide", "-d", "1", "--engine-variant", "normal"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--engine-variant has no effect without --engine-xboard"), "{err}");
    let engine = buggy_engine_cmd("--xboard");
    let (code, _, err, _) = run(&["divide", "-d", "1", "--engine-xboard", &engine, "--engine-uci", &engine]);
    assert_eq!(code, 2, "{err}");
}
