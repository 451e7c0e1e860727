//! The hunt on TicTacChess: our engine of `examples/ttc_engine.rs` with each
//! of its bugs, bisected down to the exact missing and extra moves. The move
//! lists at each witness are checked against the plain Python reference.

use assert_cmd::Command;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::OnceLock;

const REFERENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tools/ttc_reference.py");
const ROOT: &str = "R3/1B2/2N1/4 Ppnbr w";

/// The example engine of this build profile (`cargo test` builds examples;
/// built here if it is missing).
fn engine() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let exe = std::env::current_exe().expect("test binary path");
        let profile_dir = exe.parent().and_then(|d| d.parent()).expect("target/<profile>/deps");
        let path = profile_dir.join("examples").join(format!("ttc_engine{}", std::env::consts::EXE_SUFFIX));
        if !path.exists() {
            let mut cargo = std::process::Command::new(env!("CARGO"));
            cargo.args(["build", "--quiet", "--example", "ttc_engine"]);
            if profile_dir.ends_with("release") {
                cargo.arg("--release");
            }
            assert!(cargo.status().expect("cargo runs").success(), "cannot build examples/ttc_engine");
        }
        path
    })
}

fn python_moves(pos: &str) -> Option<BTreeSet<String>> {
    let out = std::process::Command::new("python3").args([REFERENCE, "divide", pos, "1"]).output().ok()?;
    out.status.success().then(|| {
        String::from_utf8(out.stdout).unwrap().lines().map(|l| l.split(' ').next().unwrap().to_string()).collect()
    })
}

fn bisect(bug: &str, depth: &str) -> serde_json::Value {
    let cmd = format!("{} --bug {bug}", engine().display());
    let out = Command::cargo_bin("chesstool")
        .unwrap()
        .args(["tictacchess", "divide", "--pos", ROOT, "--depth", depth, "--engine-script", &cmd, "--bisect", "--json"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&out).unwrap()
}

fn texts(v: &serde_json::Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect()
}

/// Missing moves are legal and extra ones are not, by the Python reference.
fn agrees_with_python(w: &serde_json::Value) {
    let Some(legal) = python_moves(w["position"].as_str().unwrap()) else { return };
    for m in texts(&w["missing"]) {
        assert!(legal.contains(&m), "{m} reported missing but not legal");
    }
    for m in texts(&w["extra"]) {
        assert!(!legal.contains(&m), "{m} reported extra but legal");
    }
}

#[test]
fn the_public_slider_bug_loses_rook_slides() {
    let v = bisect("slider-unmasked", "3");
    let w = &v["witness"];
    assert_eq!(w["position"], ROOT);
    // The rook on a4 with b4 empty: the unmasked occupancy (its own square
    // included) picks the entry of a blocker on b4.
    assert_eq!(texts(&w["missing"]), ["a4c4", "a4d4"]);
    assert!(texts(&w["extra"]).is_empty());
    assert_eq!(w["hints"]["a4c4"], "rook slide from a4 to c4");
    agrees_with_python(w);
}

#[test]
fn drops_onto_occupied_squares_are_extra() {
    let v = bisect("drop-occupied", "3");
    let w = &v["witness"];
    assert_eq!(texts(&w["path"]), ["P@a1"]);
    let extra = texts(&w["extra"]);
    // Four black pieces in hand, four white pieces on the board.
    assert_eq!(extra.len(), 16);
    for sq in ["a1", "a4", "b3", "c2"] {
        for p in ["P", "N", "B", "R"] {
            assert!(extra.contains(&format!("{p}@{sq}")));
        }
    }
    assert!(texts(&w["missing"]).is_empty());
    assert_eq!(w["hints"]["N@c2"], "drop onto an occupied square (c2 holds a white knight)");
    agrees_with_python(w);
}

#[test]
fn a_pawn_moving_from_its_last_rank_is_extra() {
    let v = bisect("pawn-last-rank", "3");
    let w = &v["witness"];
    assert_eq!(texts(&w["path"]), ["P@b4", "B@a3"]);
    assert_eq!(texts(&w["extra"]), ["b4b1"]);
    assert!(texts(&w["missing"]).is_empty());
    assert_eq!(w["hints"]["b4b1"], "a pawn on its last rank cannot move");
    agrees_with_python(w);
}

/// The win on d1-c2-b3-a4 is pinned to the move that makes it; the engine
/// goes on where the game is over, and each of its moves there is extra
/// (our divide of a finished game is empty, a whole divide of its own).
#[test]
fn a_missed_anti_diagonal_win_is_pinned_to_its_position() {
    let v = bisect("no-anti-diagonal", "3");
    let w = &v["witness"];
    assert_eq!(texts(&w["path"]), ["P@d1"]);
    assert_eq!(w["position"], "R3/1B2/2N1/3P pnbr b");
    let diffs = &v["comparison"]["differences"];
    assert_eq!(diffs[0]["move"], "P@d1");
    assert_eq!(diffs[0]["reference"], 0);
    assert!(texts(&w["missing"]).is_empty());
    let extra = texts(&w["extra"]);
    assert!(!extra.is_empty(), "{v}");
    for m in &extra {
        assert!(w["hints"][m].as_str().unwrap().contains("the game is over"), "{m}: {v}");
    }
    if let Some(legal) = python_moves("R3/1B2/2N1/3P pnbr b") {
        assert!(legal.is_empty(), "the reference sees a finished game");
    }
}

#[test]
fn a_saved_divide_is_compared() {
    let out = std::process::Command::new(engine())
        .args(["--bug", "pawn-last-rank", "1", "P3/4/4/3p NBRnbr w"])
        .output()
        .unwrap();
    let dir = std::env::temp_dir().join(format!("ttc-against-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("divide.txt");
    std::fs::write(&file, out.stdout).unwrap();
    let assert = Command::cargo_bin("chesstool")
        .unwrap()
        .args(["tictacchess", "divide", "--pos", "P3/4/4/3p NBRnbr w", "--depth", "1", "--against"])
        .arg(&file)
        .assert()
        .code(1);
    let text = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(text.contains("a4a1 (a pawn on its last rank cannot move)"), "{text}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_correct_engine_matches() {
    let cmd = format!("{} --bug none", engine().display());
    Command::cargo_bin("chesstool")
        .unwrap()
        .args(["tictacchess", "divide", "--depth", "3", "--engine-script", &cmd, "--bisect"])
        .assert()
        .success()
        .stdout(predicates::str::contains("match at depth 3: 173672 nodes"));
}
