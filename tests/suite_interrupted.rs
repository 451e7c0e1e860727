//! A `suite` or `fuzz` ended by a time limit's SIGTERM or a Ctrl-C
//! (SIGINT) still prints its table, JSON and JUnit so far (stderr is no
//! terminal here), then ends by that signal. And `fuzz` without `--depth`
//! chooses its depth from the seed and the roots, not the clock: the same
//! on a busy machine as on a quiet one. Counts are the published ones.

use serde_json::Value;
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

mod common;
use common::buggy_engine_cmd;

const HANGS: &str = "r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1";

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("chesstool-interrupted-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Two positions the engine answers, then one where it hangs.
fn suite_file(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("mini.epd");
    std::fs::write(
        &path,
        format!(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n\
             8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 ;D1 14 ;D2 191\n\
             {HANGS} ;D1 34 ;D2 714\n"
        ),
    )
    .unwrap();
    path
}

fn chesstool() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chesstool"))
}

/// Sends `signal` once `ready` holds (checked every 50 ms, at most 60 s),
/// then waits for the end: (status, stdout, stderr).
fn interrupt(child: Child, signal: i32, ready: impl Fn() -> bool) -> (std::process::ExitStatus, String, String) {
    let started = Instant::now();
    while !ready() && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(50));
    }
    // SAFETY: signals a child we started and have not yet waited for.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
    let out = child.wait_with_output().unwrap();
    (out.status, String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// The engine hangs on `HANGS`; what it is sent is logged to `asked`, so
/// the test knows when the two positions before it are done.
fn engine(dir: &std::path::Path) -> String {
    let script = dir.join("engine.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ntee {log} | exec {engine}\n",
            log = dir.join("asked").display(),
            engine = buggy_engine_cmd(&format!("--hang-on '{HANGS}'"))
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script.display().to_string()
}

/// True once the engine was asked about the position it hangs on.
fn asked_hanging(dir: &std::path::Path) -> bool {
    std::fs::read_to_string(dir.join("asked")).is_ok_and(|t| t.lines().any(|l| l.contains(HANGS)))
}

#[test]
fn a_suite_killed_by_sigterm_prints_the_rows_done_and_writes_its_junit() {
    let dir = scratch("text");
    let file = suite_file(&dir);
    let junit = dir.join("report.xml");
    let child = chesstool()
        .args(["suite", "--engine-uci", &engine(&dir), "--junit"])
        .arg(&junit)
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (status, out, err) = interrupt(child, libc::SIGTERM, || asked_hanging(&dir));
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status:?}\n{out}\n{err}");
    assert!(out.contains("mini.epd"), "the table: {out}\n{err}");
    // 4 counts checked, all passed (20, 400, 14, 191).
    let row = out.lines().find(|l| l.contains("mini.epd")).unwrap();
    let cells: Vec<&str> = row.split(['│', '┆']).map(str::trim).filter(|c| !c.is_empty()).collect();
    assert_eq!(&cells[1..5], ["3", "4", "4", "0"], "{out}");
    assert!(out.contains("interrupted by SIGTERM after 4 of 6 counts"), "{out}");
    assert!(err.contains("interrupted by SIGTERM"), "{err}");
    let xml = std::fs::read_to_string(&junit).expect("the JUnit report is written");
    assert_eq!(xml.matches("<testcase").count(), 4, "{xml}");
    assert!(!xml.contains("<failure") && !xml.contains("<error"), "{xml}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_suite_interrupted_by_sigint_prints_its_json_so_far() {
    let dir = scratch("json");
    let file = suite_file(&dir);
    let child = chesstool()
        .args(["suite", "--json", "--engine-uci", &engine(&dir)])
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (status, out, err) = interrupt(child, libc::SIGINT, || asked_hanging(&dir));
    assert_eq!(status.signal(), Some(libc::SIGINT), "{status:?}\n{out}\n{err}");
    let j: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    assert_eq!(j["status"], "interrupted", "{j}");
    assert_eq!(j["interrupted"], "SIGINT", "{j}");
    assert_eq!((j["totals"]["checked"].as_u64(), j["totals"]["passed"].as_u64()), (Some(4), Some(4)), "{j}");
    assert!(j.get("engine_failures").is_none(), "a killed engine is no engine failure: {j}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fuzz_run_interrupted_reports_the_positions_compared() {
    let dir = scratch("fuzz");
    let junit = dir.join("fuzz.xml");
    let child = chesstool()
        .args(["fuzz", "--json", "--seconds", "600", "--seed", "9", "--engine-uci", &buggy_engine_cmd(""), "--junit"])
        .arg(&junit)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let (status, out, err) = interrupt(child, libc::SIGTERM, || started.elapsed() > Duration::from_secs(3));
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status:?}\n{out}\n{err}");
    let j: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    assert_eq!((j["status"].as_str(), j["interrupted"].as_str()), (Some("interrupted"), Some("SIGTERM")), "{j}");
    assert!(j["positions"].as_u64().unwrap() > 0, "{j}");
    assert!(std::fs::read_to_string(&junit).unwrap().contains("<testcase"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `fuzz`'s depth and its reason, from its JSON.
fn fuzz_depth(seed: &str) -> (u64, String, Value) {
    let out = chesstool()
        .args(["fuzz", "--json", "--positions", "5", "--seed", seed, "--engine-uci", &buggy_engine_cmd("")])
        .output()
        .unwrap();
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    (j["depth"].as_u64().unwrap(), j["depth_reason"].as_str().unwrap().to_string(), j)
}

/// The start's perft is 400 at depth 2 and 8,902 at depth 3 (the
/// published table): with the budget of 2,000 nodes, depth 2, busy or not.
#[test]
fn fuzz_chooses_the_same_depth_on_a_busy_machine() {
    let (quiet, reason, j) = fuzz_depth("11");
    assert_eq!(quiet, 2, "{j}");
    assert!(reason.contains("400 at depth 2") && reason.contains("2000"), "{reason}");
    let busy = AtomicBool::new(true);
    let (loaded, loaded_reason) = std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                let mut x = 0u64;
                while busy.load(Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
                }
            });
        }
        let (d, r, _) = fuzz_depth("11");
        busy.store(false, Ordering::Relaxed);
        (d, r)
    });
    assert_eq!((loaded, loaded_reason), (quiet, reason));
}
