//! `chesstool fuzz` against slow engines and on a busy machine: the
//! injected bugs of examples/buggy_engine behind a script that costs a
//! second per call, each found within 60 s by `--seed 1` (the motif cases
//! come first); and one seed, one run: the same findings whatever the
//! engine's speed and the machine's load.

mod common;

use assert_cmd::Command;
use common::{buggy_engine, run_json, TempDir};
use serde_json::Value;
use std::time::Duration;

/// The buggy engine behind a perftree script that sleeps a second before
/// every call (one process a call: a second a call).
fn slow_engine(dir: &TempDir) -> String {
    let path = dir.0.join("slow-engine.sh");
    std::fs::write(&path, format!("#!/bin/sh\nsleep 1\nexec '{}' \"$@\"\n", buggy_engine().display())).unwrap();
    let mut perms = std::fs::metadata(&path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&path, perms).unwrap();
    path.display().to_string()
}

/// `fuzz --seed 1 --seconds 60` with `bug` behind the slow script: found,
/// with the seconds it took.
fn found_slowly(engine: &str, bug: &str) -> f64 {
    let (code, j, seconds) = run_json(
        Command::cargo_bin("chesstool")
            .unwrap()
            .args(["fuzz", "--engine-script", engine, "--seconds", "60", "--seed", "1", "--json"])
            .env("BUGGY_ENGINE_BUG", bug)
            .timeout(Duration::from_secs(150)),
    );
    let what = format!("{bug}: {j}");
    assert_eq!((code, j["status"].as_str()), (1, Some("mismatch")), "{what}");
    assert!(j["motif_cases"]["of"].as_u64().unwrap() > 50, "{what}");
    eprintln!("{bug} (1 s a call): found in {seconds:.1} s, {} engine calls", j["engine"]["calls"]);
    seconds
}

/// The two bugs of real engines that the motif cases were widened for: an
/// e.p. capture generated in a diagonal check it does not answer, and a
/// legal e.p. capture along the pin diagonal refused.
#[test]
fn the_real_e_p_bugs_are_found_within_a_minute_at_a_second_a_call() {
    let dir = TempDir::new("fuzz-slow-ep");
    let engine = slow_engine(&dir);
    std::thread::scope(|scope| {
        for bug in ["ep-check-diagonal", "ep-pin-along"] {
            let engine = &engine;
            scope.spawn(move || assert!(found_slowly(engine, bug) < 90.0));
        }
    });
}

/// Every move-generation and make-move bug of the buggy engine, a second a
/// call: each found within 60 s of fuzzing (`--seconds 60`). Slow: 14 runs
/// of up to a minute, two at a time.
#[test]
#[ignore]
fn every_injected_bug_is_found_within_a_minute_at_a_second_a_call() {
    let dir = TempDir::new("fuzz-slow-all");
    let engine = slow_engine(&dir);
    let bugs = [
        "no-ep",
        "ep-pin",
        "castle-through-check",
        "castle-rights-capture",
        "castle-rights-corner",
        "no-underpromotion",
        "double-push-rank3",
        "king-into-check",
        "ep-rank-pin",
        "ep-diagonal-pin",
        "promotion-pin",
        "ep-check-diagonal",
        "ep-pin-along",
        "moves-side",
    ];
    for pair in bugs.chunks(2) {
        std::thread::scope(|scope| {
            for &bug in pair {
                let engine = &engine;
                scope.spawn(move || found_slowly(engine, bug));
            }
        });
    }
}

/// The JSON document without what the clock decides (seconds, speeds).
fn without_times(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                map.retain(|k, _| !k.contains("seconds") && k != "positions_per_second");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

/// A process that keeps a core busy until it is dropped.
struct BusyLoop(std::process::Child);

impl BusyLoop {
    fn start() -> BusyLoop {
        BusyLoop(std::process::Command::new("sh").args(["-c", "while :; do :; done"]).spawn().expect("sh runs"))
    }
}

impl Drop for BusyLoop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One seed, one run: with the other core busy and an engine that sleeps a
/// random time before every answer, two runs of a seed report the same
/// findings, depth and counts; and `--depth` with the depth they chose
/// repeats them.
#[test]
fn a_seed_is_one_run_on_a_busy_machine_with_an_engine_of_random_speed() {
    let engine = format!("{} --bug castle-rights-capture,ep-rank-pin --delay-random 20", buggy_engine().display());
    let run = |extra: &[&str]| {
        let (code, j, _) = run_json(
            Command::cargo_bin("chesstool")
                .unwrap()
                .args(["fuzz", "--engine-uci", &engine, "--positions", "120", "--keep-going", "--seed", "5", "--json"])
                .args(extra)
                .timeout(Duration::from_secs(300)),
        );
        assert_eq!(code, 1, "{j}");
        without_times(j)
    };
    let busy = BusyLoop::start();
    let first = run(&[]);
    let second = run(&[]);
    drop(busy);
    assert_eq!(first, second, "two runs of one seed differ");
    assert!(first["findings"].as_array().unwrap().len() >= 2, "{first}");
    let rule = first["depth_reason"].as_str().unwrap();
    assert!(rule.contains("at most 2000 nodes") && rule.contains("motif cases"), "{rule}");
    let depth = first["depth"].to_string();
    let mut again = run(&["--depth", &depth]);
    assert_eq!(again["depth_reason"].as_str().map(|r| r.starts_with("as given (--depth)")), Some(true), "{again}");
    again["depth_reason"] = first["depth_reason"].clone();
    assert_eq!(first, again, "--depth {depth} does not repeat the run");
}
