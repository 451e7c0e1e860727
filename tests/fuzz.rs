//! `chesstool fuzz` against examples/buggy_engine: every injected bug is
//! found from the default roots, without being told where, through both
//! protocols, within a fixed budget and seed; each witness is checked by
//! python-chess (not by our generator). Stockfish gives no false alarm; a
//! wrong FEN is found by the position check and not by perft; seeds
//! reproduce runs; the JSON and JUnit are well formed.

use assert_cmd::Command;
use serde_json::Value;
use std::time::Duration;

mod common;
use common::{buggy_engine, run_json, TempDir};

const STOCKFISH: &str = "/usr/games/stockfish";

/// Runs `chesstool fuzz ARGS --json` and returns (exit code, JSON, seconds).
fn fuzz(args: &[&str]) -> (i32, Value, f64) {
    run_json(
        Command::cargo_bin("chesstool")
            .unwrap()
            .arg("fuzz")
            .args(args)
            .args(["--json", "--timeout", "30"])
            .timeout(Duration::from_secs(120)),
    )
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().expect("a list").iter().map(|s| s.as_str().expect("a string").to_string()).collect()
}

/// python-chess's legal moves (UCI) of a FEN, Chess960 when the castling
/// field names files (Shredder-FEN, as we write Chess960 positions).
fn python_chess_moves(fen: &str) -> Vec<String> {
    let castling = fen.split_whitespace().nth(2).unwrap_or("-");
    let chess960 = castling.chars().any(|c| !"KQkq-".contains(c));
    let script = format!(
        "import chess,sys\nb = chess.Board(sys.argv[1], chess960={})\nprint(' '.join(m.uci() for m in b.legal_moves))",
        if chess960 { "True" } else { "False" }
    );
    let out = std::process::Command::new("python3").args(["-c", &script, fen]).output().expect("python3 runs");
    assert!(out.status.success(), "python-chess on {fen}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().split_whitespace().map(str::to_string).collect()
}

/// Fuzzes the buggy engine with `bug` through both protocols: a witness,
/// whose missing moves python-chess lists and whose extra moves it does not.
fn finds(bug: &str, positions: u32, seed: u32) {
    let engine = format!("{} --bug {bug}", buggy_engine().display());
    for protocol in ["uci", "script"] {
        let flag = format!("--engine-{protocol}");
        let budget = positions.to_string();
        let seed_text = seed.to_string();
        let (code, j, seconds) = fuzz(&[&flag, &engine, "--positions", &budget, "--seed", &seed_text]);
        let what = format!("{bug} via {protocol}: {j}");
        assert_eq!((code, j["status"].as_str()), (1, Some("mismatch")), "{what}");
        let w = &j["witness"];
        let (missing, extra) = (strings(&w["missing"]), strings(&w["extra"]));
        assert!(!missing.is_empty() || !extra.is_empty(), "{what}");
        let legal = python_chess_moves(w["position"].as_str().unwrap());
        for m in &missing {
            assert!(legal.contains(m), "{what}: python-chess does not list the missing {m}");
        }
        for m in &extra {
            assert!(!legal.contains(m), "{what}: python-chess lists the extra {m}");
        }
        assert_eq!(j["seed"], seed, "{what}");
        assert!(j["positions"].as_u64().unwrap() <= u64::from(positions), "{what}");
        eprintln!(
            "{bug} via {protocol}: {} positions, {} games, {seconds:.2} s, missing {missing:?}, extra {extra:?}",
            j["positions"], j["games"]
        );
    }
}

#[test]
fn finds_a_missing_en_passant_capture() {
    finds("no-ep", 3000, 1);
}

#[test]
fn finds_en_passant_ignoring_a_pin() {
    finds("ep-pin", 3000, 1);
}

#[test]
fn finds_castling_through_check() {
    finds("castle-through-check", 3000, 1);
}

#[test]
fn finds_a_castling_right_kept_after_the_rook_is_captured() {
    // The rarest of the seven: seed 1 finds it after about 400 positions,
    // others after up to 2,600 (the walks favour capturing a castling rook).
    finds("castle-rights-capture", 3000, 1);
}

#[test]
fn finds_missing_underpromotions() {
    finds("no-underpromotion", 3000, 1);
}

#[test]
fn finds_a_double_push_from_the_third_rank() {
    finds("double-push-rank3", 3000, 1);
}

#[test]
fn finds_a_king_moving_into_check() {
    finds("king-into-check", 3000, 1);
}

#[test]
fn stockfish_gives_no_false_alarm() {
    if !std::path::Path::new(STOCKFISH).exists() {
        eprintln!("skipped: no {STOCKFISH}");
        return;
    }
    let (code, j, seconds) =
        fuzz(&["--engine-uci", STOCKFISH, "--positions", "1500", "--seed", "7", "--check-position"]);
    assert_eq!((code, j["status"].as_str()), (0, Some("ok")), "{j}");
    assert_eq!(j["positions"], 1500);
    assert!(j["positions_per_second"].as_f64().unwrap() > 0.0, "{j}");
    eprintln!(
        "stockfish: 1500 positions with position checks in {seconds:.2} s ({} positions/s)",
        j["positions_per_second"]
    );
}

#[test]
fn a_wrong_castling_field_is_found_by_the_position_check_not_by_perft() {
    let engine = format!("{} --bug fen-castling-capture", buggy_engine().display());
    let (code, j, _) = fuzz(&["--engine-uci", &engine, "--positions", "3000", "--seed", "3"]);
    assert_eq!((code, j["status"].as_str()), (0, Some("ok")), "perft alone: {j}");
    let (code, j, _) = fuzz(&["--engine-uci", &engine, "--positions", "3000", "--seed", "3", "--check-position"]);
    assert_eq!((code, j["status"].as_str()), (1, Some("mismatch")), "{j}");
    let check = &j["position_check"];
    assert_eq!(check["check"], "fen", "{j}");
    let differences = strings(&check["fields"]);
    assert!(differences.iter().any(|d| d.starts_with("castling: ")), "{j}");
    // Independently: python-chess, replaying the path, agrees with our castling field.
    let script = "import chess,sys\nr = sys.argv[1]\nc = any(x not in 'KQkq-' for x in r.split()[2])\n\
                  b = chess.Board(r, chess960=c)\nfor m in sys.argv[2:]: b.push_uci(m)\nprint(b.fen(shredder=c))";
    let mut args = vec!["-c".to_string(), script.to_string(), j["root"].as_str().unwrap().to_string()];
    args.extend(strings(&check["path"]));
    let out = std::process::Command::new("python3").args(&args).output().unwrap();
    let theirs = String::from_utf8(out.stdout).unwrap();
    assert_eq!(theirs.split_whitespace().nth(2), check["position"].as_str().unwrap().split_whitespace().nth(2), "{j}");
    assert_ne!(theirs.split_whitespace().nth(2), check["engine_fen"].as_str().unwrap().split_whitespace().nth(2));
}

#[test]
fn a_key_not_restored_after_a_take_back_is_found_by_the_key_check_not_by_perft() {
    let engine = format!("{} --bug key-take-back", buggy_engine().display());
    let (code, j, _) = fuzz(&["--engine-uci", &engine, "--positions", "1000", "--seed", "1"]);
    assert_eq!((code, j["status"].as_str()), (0, Some("ok")), "perft alone: {j}");
    let (code, j, _) = fuzz(&["--engine-uci", &engine, "--positions", "1000", "--seed", "1", "--check-position"]);
    assert_eq!((code, j["status"].as_str()), (1, Some("mismatch")), "{j}");
    let check = &j["position_check"];
    assert_eq!(check["check"], "key-after-take-back", "{j}");
    assert!(check.get("fields").is_none() && check.get("engine_fen").is_none(), "not a FEN finding: {j}");
    // The same line asked before (its key then) and again after one more move was taken back.
    assert_eq!(check["earlier_path"], check["path"], "{j}");
    assert_ne!(check["key"], check["earlier_key"], "{j}");
    // Independently: the move taken back is legal at the end of the path (python-chess).
    let legal = python_chess_moves(check["position"].as_str().unwrap());
    let taken_back = check["taken_back"].as_str().unwrap();
    assert!(legal.iter().any(|m| m == taken_back), "{taken_back} not legal: {j}");
}

#[test]
fn a_seed_reproduces_the_run() {
    let engine = format!("{} --bug castle-rights-capture", buggy_engine().display());
    // The same seed and depth walk the same games (the depth chosen by
    // itself depends on the engine's timing).
    let run = || fuzz(&["--engine-uci", &engine, "--positions", "3000", "--seed", "11", "--depth", "1"]).1;
    let (mut a, mut b) = (run(), run());
    for doc in [&mut a, &mut b] {
        let map = doc.as_object_mut().unwrap();
        for timing in ["seconds", "positions_per_second", "engine_seconds", "depth_reason"] {
            map.remove(timing);
        }
    }
    assert_eq!(a, b);
    let ok = fuzz(&["--engine-uci", &engine, "--positions", "2", "--seed", "11"]).1;
    assert_eq!((ok["status"].as_str(), ok["positions"].as_u64()), (Some("ok"), Some(2)), "{ok}");
}

#[test]
fn junit_is_well_formed() {
    let dir = TempDir::new("fuzz-junit");
    let path = dir.0.join("fuzz.xml");
    let engine = format!("{} --bug no-ep", buggy_engine().display());
    let (code, _, _) =
        fuzz(&["--engine-uci", &engine, "--positions", "3000", "--seed", "1", "--junit", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    let script = "import sys, xml.etree.ElementTree as E\nr = E.parse(sys.argv[1]).getroot()\nprint(r.get('failures'), len(r.findall('.//failure')))";
    let out = std::process::Command::new("python3").args(["-c", script, path.to_str().unwrap()]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "1 1", "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn bad_usage_and_input_exit_2() {
    let engine = buggy_engine().display().to_string();
    let (code, j, _) = fuzz(&["--positions", "10"]);
    assert_eq!((code, j["error"]["kind"].as_str()), (2, Some("usage")), "{j}");
    let (code, j, _) = fuzz(&["--engine-script", &engine, "--check-position", "--positions", "10"]);
    assert_eq!((code, j["error"]["kind"].as_str()), (2, Some("usage")), "{j}");
    let dir = TempDir::new("fuzz-roots");
    let roots = dir.0.join("roots.epd");
    std::fs::write(&roots, "# two roots\n4k3/8/8/8/8/8/8/4K3 w - - 0 1\n4k3/8/8/8/8/8/8/4K3 w - -\nnot a fen\n")
        .unwrap();
    let (code, j, _) = fuzz(&["--engine-uci", &engine, "--roots", roots.to_str().unwrap(), "--positions", "10"]);
    assert_eq!(code, 2, "{j}");
    assert!(j["error"]["message"].as_str().unwrap().contains("line 4"), "{j}");
    std::fs::write(&roots, "4k3/8/8/8/8/8/8/4K3 w - - 0 1\n4k3/8/8/8/8/8/8/4K3 w - - bm Kd1; id \"x\";\n").unwrap();
    let (code, j, _) = fuzz(&["--engine-uci", &engine, "--roots", roots.to_str().unwrap(), "--positions", "10"]);
    assert_eq!((code, j["positions"].as_u64()), (0, Some(10)), "{j}");
    let (code, j, _) = fuzz(&["--engine-uci", "/nonexistent/engine", "--positions", "10"]);
    assert_eq!(code, 2, "{j}");
}

/// A crash is a finding (exit 3), with the line and the layer: this engine
/// crashes only below a root, so on the line's end given alone it answers.
#[test]
fn an_engine_that_crashes_exits_3_with_the_crash_as_its_finding() {
    let engine = format!("{} --bug crash-deep", buggy_engine().display());
    let (code, j, _) = fuzz(&["--engine-uci", &engine, "--positions", "40", "--seed", "1"]);
    assert_eq!((code, j["status"].as_str()), (3, Some("engine-failure")), "{j}");
    let failure = &j["findings"][0]["failure"];
    assert_eq!((failure["kind"].as_str(), failure["layer"].as_str()), (Some("crash"), Some("after-moves")), "{j}");
    assert!(!failure["path"].as_array().unwrap().is_empty(), "{j}");
}

/// The buggy engine behind a script that sleeps a second before every call,
/// as an engine whose perftree script pays its start-up on each call.
fn slow_engine(dir: &TempDir) -> String {
    let path = dir.0.join("slow-engine.sh");
    std::fs::write(&path, format!("#!/bin/sh\nsleep 1\nexec '{}' \"$@\"\n", buggy_engine().display())).unwrap();
    let mut perms = std::fs::metadata(&path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&path, perms).unwrap();
    path.display().to_string()
}

/// The bugs of a real engine (an e.p. capture by a pawn pinned along its
/// rank or a diagonal, a pinned pawn promoting off its pin) and a history
/// bug, behind a second of start-up per call: each found within 60 s from
/// the default roots, at a depth chosen for the slow calls, with a witness
/// of at most 3 plies that python-chess confirms.
#[test]
fn slow_engines_are_fuzzed_at_a_depth_that_pays_for_their_start_up() {
    let dir = TempDir::new("fuzz-slow");
    let engine = slow_engine(&dir);
    let bugs = ["ep-rank-pin", "ep-diagonal-pin", "promotion-pin", "castle-rights-capture"];
    std::thread::scope(|scope| {
        for bug in bugs {
            let engine = &engine;
            scope.spawn(move || {
                // The history bug needs a rook taken on its corner and then
                // castling: deeper calls over fewer roots find it within the
                // budget, so it is asked at depth 3 (the automatic rule
                // stays at 2, the deepest with at most 2000 nodes).
                let history_bug = bug == "castle-rights-capture";
                let mut args = vec!["fuzz", "--engine-script", engine, "--seconds", "60", "--seed", "1", "--json"];
                if history_bug {
                    args.extend(["--depth", "3"]);
                }
                let (code, j, seconds) = run_json(
                    Command::cargo_bin("chesstool")
                        .unwrap()
                        .args(&args)
                        .env("BUGGY_ENGINE_BUG", bug)
                        .timeout(Duration::from_secs(150)),
                );
                let what = format!("{bug}: {j}");
                assert_eq!((code, j["status"].as_str()), (1, Some("mismatch")), "{what}");
                assert!(j["depth"].as_u64().unwrap() > 1, "a slow engine is asked about subtrees: {what}");
                if !history_bug {
                    assert!(j["depth_reason"].as_str().unwrap().contains("400 at depth 2"), "{what}");
                }
                let found = &j["findings"][0];
                assert!(found["witness_plies"].as_u64().unwrap() <= 3, "{what}");
                let w = &j["witness"];
                let legal = python_chess_moves(w["position"].as_str().unwrap());
                for m in strings(&w["extra"]) {
                    assert!(!legal.contains(&m), "{what}: python-chess lists the extra {m}");
                }
                for m in strings(&w["missing"]) {
                    assert!(legal.contains(&m), "{what}: python-chess does not list the missing {m}");
                }
                eprintln!("{bug} (1 s a call): found in {seconds:.1} s, {} engine calls", j["engine"]["calls"]);
            });
        }
    });
}

/// A bug the position alone shows is reported with an empty path.
#[test]
fn a_witness_the_position_shows_alone_has_no_path() {
    let engine = format!("{} --bug ep-rank-pin", buggy_engine().display());
    let (code, j, _) = fuzz(&["--engine-uci", &engine, "--seconds", "30", "--seed", "2"]);
    assert_eq!(code, 1, "{j}");
    assert_eq!(j["witness"]["path"].as_array().map(Vec::len), Some(0), "{j}");
    assert_eq!(j["witness"]["history_dependent"], false, "{j}");
    assert_eq!(j["findings"][0]["fault"], "movegen", "{j}");
}

/// Two unrelated bugs in one engine: both reported by one `--keep-going`
/// run, each with its own witness, one cause each.
#[test]
fn keep_going_reports_every_distinct_bug() {
    let engine = format!("{} --bug no-underpromotion,castle-through-check", buggy_engine().display());
    let (code, j, _) = fuzz(&["--engine-uci", &engine, "--positions", "3000", "--seed", "1", "--keep-going"]);
    assert_eq!(code, 1, "{j}");
    let findings = j["findings"].as_array().unwrap();
    let causes: Vec<&str> = findings.iter().map(|f| f["cause"].as_str().unwrap()).collect();
    assert!(causes.iter().any(|c| c.contains("promotion")), "{causes:?}");
    assert!(causes.iter().any(|c| c.contains("castles")), "{causes:?}");
    let mut unique = causes.clone();
    unique.dedup();
    assert_eq!(unique.len(), causes.len(), "{causes:?}");
    assert_eq!(j["positions"], 3000, "the run went on to the end of its budget: {j}");
}

/// An engine that gives the move to the wrong side after `position fen
/// <black to move> moves ...` is named as such; `--fen-only` fuzzes past it.
#[test]
fn a_broken_position_command_is_named_and_fen_only_goes_past_it() {
    let engine = format!("{} --bug moves-side", buggy_engine().display());
    // At depth 1: the layer test names a position command from a depth-1 witness.
    let (code, j, _) = fuzz(&["--engine-uci", &engine, "--positions", "3000", "--seed", "1", "--depth", "1"]);
    assert_eq!(code, 1, "{j}");
    let found = &j["findings"][0];
    assert_eq!(found["fault"], "position-command", "{j}");
    assert!(found["explanation"].as_str().unwrap().contains("other side"), "{j}");
    assert!(found["witness_plies"].as_u64().unwrap() <= 3, "{j}");
    let (code, j, _) = fuzz(&["--engine-uci", &engine, "--positions", "3000", "--seed", "1", "--fen-only"]);
    assert_eq!((code, j["status"].as_str()), (0, Some("ok")), "{j}");
}
