//! Stockfish as the engine against our generator: no false mismatch, on
//! hand-picked positions (standard and Chess960, with move lists) and on
//! every position of suites/*.epd. Stockfish is found like
//! `--reference-uci stockfish` finds it (PATH, then /usr/games/stockfish);
//! where it is absent the tests say so and pass (CI installs it).

use assert_cmd::Command;
use chesstool::chess::Chess;
use chesstool::engines::find::find_stockfish;
use chesstool::engines::{Builtin, DivideFormat, Line, UciEngine};
use chesstool::verify::bisect::Checker;
use chesstool::Position;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

mod common;
use common::buggy_engine;

fn stockfish() -> Option<PathBuf> {
    match find_stockfish() {
        Ok(p) => Some(p),
        Err(e) => {
            eprintln!("note: skipping, {e}");
            None
        }
    }
}

const POSITIONS: [(&str, &[&str], u32); 8] = [
    ("startpos", &["e2e4", "d7d5", "e4e5", "f7f5"], 3),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", &[], 3),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", &["e2e4"], 4),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", &[], 3),
    ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", &[], 3),
    ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", &[], 3),
    ("2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", &["e1e2", "e7e5"], 3),
    ("qrkrnnbb/pppppppp/8/8/8/8/PPPPPPPP/QRKRNNBB w DBdb - 0 1", &["d2d4", "d7d5", "e1d3"], 3),
];

#[test]
fn stockfish_agrees_with_us_through_the_cli() {
    if stockfish().is_none() {
        return;
    }
    for (fen, moves, depth) in POSITIONS {
        let out = Command::cargo_bin("chesstool")
            .unwrap()
            .args(["divide", "--fen", fen, "-d", &depth.to_string(), "--engine-uci", "stockfish", "--json"])
            .args(if moves.is_empty() { vec![] } else { [&["--moves"][..], moves].concat() })
            .timeout(Duration::from_secs(120))
            .output()
            .unwrap();
        let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        assert_eq!(out.status.code(), Some(0), "{fen} {moves:?}: {j} {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(j["status"], "ok");
    }
}

#[test]
fn stockfish_as_reference_agrees_with_us() {
    if stockfish().is_none() {
        return;
    }
    let fen = POSITIONS[5].0;
    Command::cargo_bin("chesstool")
        .unwrap()
        .args(["divide", "--fen", fen, "-d", "2", "--against", "-", "--reference-uci", "stockfish"])
        .write_stdin(
            Command::cargo_bin("chesstool").unwrap().args(["divide", "--fen", fen, "-d", "2"]).output().unwrap().stdout,
        )
        .assert()
        .success();
}

/// Every suite position, at the deepest listed depth with at most 200k nodes,
/// through one long-lived Stockfish.
#[test]
fn stockfish_agrees_with_us_on_the_suites() {
    let Some(sf) = stockfish() else { return };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("suites");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("note: no suites/ directory");
        return;
    };
    let chess = Arc::new(Chess::new());
    let words = vec![sf.display().to_string()];
    let mut engine =
        UciEngine::new(Arc::clone(&chess), "stockfish", words, Duration::from_secs(60), DivideFormat::Auto);
    let mut reference = Builtin::new(Arc::clone(&chess));
    let mut checker = Checker::new(&*chess, &mut engine, &mut reference);
    let mut checked = 0;
    let mut files: Vec<PathBuf> =
        entries.map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "epd")).collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let mut fields = line.split(';');
            let fen = fields.next().unwrap().trim();
            let depth = fields
                .filter_map(|f| {
                    let mut w = f.split_whitespace();
                    let d = w.next()?.strip_prefix('D')?.parse::<u32>().ok()?;
                    let n = w.next()?.parse::<u64>().ok()?;
                    (n <= 200_000).then_some(d)
                })
                .max()
                .unwrap_or(1);
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{}: {fen}: {e}", file.display()));
            let report = checker.check(&Line::new(pos), depth, true).unwrap();
            assert!(report.witness.is_none(), "{}: {fen} depth {depth}: {:?}", file.display(), report.witness);
            checked += 1;
        }
    }
    eprintln!("{checked} suite positions agree with Stockfish");
}

#[test]
fn stockfish_as_reference_finds_an_injected_bug() {
    if stockfish().is_none() {
        return;
    }
    let fen = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
    let out = Command::cargo_bin("chesstool")
        .unwrap()
        .args([
            "divide",
            "--fen",
            fen,
            "-d",
            "4",
            "--bisect",
            "--json",
            "--reference-uci",
            "stockfish",
            "--engine-script",
        ])
        .arg(format!("{} --bug ep-pin", buggy_engine().display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["witness"]["extra"], serde_json::json!(["f4e3"]), "{j}");
    assert_eq!(j["witness"]["missing"], serde_json::json!([]), "{j}");
}
