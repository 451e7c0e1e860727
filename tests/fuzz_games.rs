//! `fuzz` beyond chess, through the `Rules` trait: variants against
//! Fairy-Stockfish (no false alarm on several variants; one rule changed in
//! the engine is found from the start position) and TicTacChess through a
//! script engine (each injected bug of examples/ttc_engine found, the
//! correct engine passes). Witnesses are checked independently: by an
//! unmodified Fairy-Stockfish, by the plain Python TicTacChess reference.

use assert_cmd::Command;
use serde_json::Value;
use std::collections::BTreeSet;
use std::time::Duration;

mod common;
mod variants_support;
use common::{example, run_json, TempDir};
use variants_support::{fairy_stockfish, Fsf};

const TTC_REFERENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tools/ttc_reference.py");

/// Runs `chesstool ARGS --json` with a bounded time: (exit code, JSON, seconds).
fn chesstool_json(args: &[&str]) -> (i32, Value, f64) {
    run_json(Command::cargo_bin("chesstool").unwrap().args(args).args(["--json"]).timeout(Duration::from_secs(120)))
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().expect("a list").iter().map(|s| s.as_str().expect("a string").to_string()).collect()
}

#[test]
fn fairy_stockfish_gives_no_false_alarm_on_variants() {
    let Some(fsf) = fairy_stockfish() else { return eprintln!("skipped: Fairy-Stockfish is not built") };
    let fsf = fsf.to_str().unwrap();
    for variant in ["capablanca", "atomic", "3check", "antichess", "horde"] {
        let args = ["fuzz", "--variant", variant, "--engine-uci", fsf, "--positions", "300", "--seed", "1"];
        let (code, j, seconds) = chesstool_json(&args);
        assert_eq!((code, j["status"].as_str()), (0, Some("ok")), "{variant}: {j}");
        assert_eq!((j["positions"].as_u64(), j["variant"].as_str()), (Some(300), Some(variant)), "{j}");
        assert!(j["games"].as_u64().unwrap() >= 2, "{variant}: {j}");
        eprintln!("{variant}: 300 positions of {} games in {seconds:.2} s", j["games"]);
    }
}

/// Fairy-Stockfish playing `mycapa` (capablanca, kingside castling to the
/// h-file) whenever it is asked for capablanca: a variant engine with one
/// rule wrong. A shell wrapper sets its VariantPath and renames the variant.
fn fsf_with_a_changed_rule(dir: &TempDir, fsf: &str) -> String {
    let ini = dir.file("mycapa.ini", b"[mycapa:capablanca]\ncastlingKingsideFile = h\n");
    let script = format!(
        "#!/bin/sh\nsed -u 's/^setoption name UCI_Variant value capablanca$/setoption name UCI_Variant value mycapa/' \
         | {{ echo 'setoption name VariantPath value {}'; exec cat; }} | exec '{fsf}'\n",
        ini.display()
    );
    let path = dir.file("fsf-mycapa.sh", script.as_bytes());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path.to_str().unwrap().to_string()
}

#[test]
fn a_rule_changed_in_a_variant_engine_is_found_from_the_start() {
    let Some(fsf) = fairy_stockfish() else { return eprintln!("skipped: Fairy-Stockfish is not built") };
    let dir = TempDir::new("fuzz-mycapa");
    let engine = fsf_with_a_changed_rule(&dir, fsf.to_str().unwrap());
    let args = ["fuzz", "--variant", "capablanca", "--engine-uci", &engine, "--positions", "3000", "--seed", "2"];
    let (code, j, seconds) = chesstool_json(&args);
    assert_eq!((code, j["status"].as_str()), (1, Some("mismatch")), "{j}");
    let w = &j["witness"];
    let (missing, extra) = (strings(&w["missing"]), strings(&w["extra"]));
    // Castling kingside: to the i-file by the rules, to the h-file by the engine.
    assert!(missing.iter().any(|m| m.ends_with("i1") || m.ends_with("i8")), "{j}");
    assert!(extra.iter().any(|m| m.ends_with("h1") || m.ends_with("h8")), "{j}");
    // Independently: an unmodified Fairy-Stockfish lists every missing move and no extra one.
    let mut oracle = Fsf::start().expect("Fairy-Stockfish starts");
    let (legal, _) = oracle.divide("capablanca", w["position"].as_str().unwrap(), &[], 1);
    for m in &missing {
        assert!(legal.contains_key(m), "Fairy-Stockfish does not list the missing {m}: {j}");
    }
    for m in &extra {
        assert!(!legal.contains_key(m), "Fairy-Stockfish lists the extra {m}: {j}");
    }
    eprintln!("mycapa: found after {} positions, {seconds:.2} s", j["positions"]);
}

/// The Python reference's legal moves of a TicTacChess position.
fn python_ttc_moves(pos: &str) -> BTreeSet<String> {
    let out = std::process::Command::new("python3").args([TTC_REFERENCE, "divide", pos, "1"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().filter_map(|l| l.split(' ').next()).map(str::to_string).collect()
}

fn ttc_fuzz(bug: &str, positions: &str) -> (i32, Value, f64) {
    let engine = format!("{} --bug {bug}", example("ttc_engine").display());
    chesstool_json(&["tictacchess", "fuzz", "--engine-script", &engine, "--positions", positions, "--seed", "1"])
}

#[test]
fn each_tictacchess_bug_is_found_with_a_correct_witness() {
    for bug in ["slider-unmasked", "drop-occupied", "pawn-last-rank", "no-anti-diagonal"] {
        let (code, j, seconds) = ttc_fuzz(bug, "3000");
        assert_eq!((code, j["status"].as_str()), (1, Some("mismatch")), "{bug}: {j}");
        let w = &j["witness"];
        let (missing, extra) = (strings(&w["missing"]), strings(&w["extra"]));
        assert!(!missing.is_empty() || !extra.is_empty(), "{bug}: {j}");
        let legal = python_ttc_moves(w["position"].as_str().unwrap());
        for m in &missing {
            assert!(legal.contains(m), "{bug}: the reference does not list the missing {m}: {j}");
        }
        for m in &extra {
            assert!(!legal.contains(m), "{bug}: the reference lists the extra {m}: {j}");
        }
        eprintln!("{bug}: {} positions, {seconds:.2} s, missing {missing:?}, extra {extra:?}", j["positions"]);
    }
}

#[test]
fn a_correct_tictacchess_engine_passes() {
    let (code, j, seconds) = ttc_fuzz("none", "600");
    assert_eq!((code, j["status"].as_str(), j["positions"].as_u64()), (0, Some("ok"), Some(600)), "{j}");
    assert!(j["games"].as_u64().unwrap() >= 10, "{j}");
    eprintln!("ttc_engine: 600 positions of {} games in {seconds:.2} s", j["games"]);
}
