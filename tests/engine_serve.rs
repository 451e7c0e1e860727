//! `chesstool engine` as a real process through pipes, the way the tools
//! that expect Stockfish drive it: the same commands sent to Stockfish and
//! to us give the same divide (Stockfish-compatible); the Grand Chess
//! Tree's leaderboard harness (`position fen`, `go perft`, a regex on the
//! total) on its three positions, counts from the Chess Programming Wiki;
//! perftree's exchange with `stockfish` byte for byte; Fairy-Stockfish's
//! `UCI_Variant` and USI; chesstool's own hunt with the engine on either
//! side; and bad input, which gets error lines, never a crash.

mod common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const CHESS960: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";

/// How long one answer line may take (a generous bound: never wait blind).
const LINE_TIMEOUT: Duration = Duration::from_secs(120);

fn chesstool() -> PathBuf {
    assert_cmd::cargo::cargo_bin("chesstool")
}

fn engine_cmd() -> String {
    format!("{} engine", chesstool().display())
}

/// Stockfish, or a note (a failure under CI).
fn stockfish() -> Option<PathBuf> {
    let p = PathBuf::from("/usr/games/stockfish");
    if p.is_file() {
        return Some(p);
    }
    assert!(std::env::var_os("CI").is_none(), "no Stockfish at /usr/games/stockfish under CI");
    eprintln!("note: skipping, no Stockfish at /usr/games/stockfish");
    None
}

/// Fairy-Stockfish, or a note (a failure under CI).
fn fairy_stockfish() -> Option<PathBuf> {
    let p = match std::env::var_os("FAIRY_STOCKFISH") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("target/fairy-stockfish/fairy-stockfish"),
    };
    if p.is_file() {
        return Some(p);
    }
    assert!(std::env::var_os("CI").is_none(), "Fairy-Stockfish is not built");
    eprintln!("note: skipping, no Fairy-Stockfish (set FAIRY_STOCKFISH)");
    None
}

/// An engine process with its output read on a thread of its own, so that
/// every read has a deadline.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start(program: &Path, args: &[&str]) -> Engine {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{}: {e}", program.display()));
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine { child, stdin, lines }
    }

    fn ours() -> Engine {
        Engine::start(&chesstool(), &["engine"])
    }

    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line; `None` at the end of the output.
    fn line(&mut self) -> Option<String> {
        match self.lines.recv_timeout(LINE_TIMEOUT) {
            Ok(line) => Some(line),
            Err(mpsc::RecvTimeoutError::Disconnected) => None,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                panic!("no answer line within {LINE_TIMEOUT:?}");
            }
        }
    }

    /// The lines up to and with the first one that `last` accepts.
    fn until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.line().unwrap_or_else(|| panic!("output ended; seen {seen:?}"));
            let done = last(&line);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// `go perft N` after `setup`: the divide lines and the total.
    fn perft(&mut self, setup: &[String], depth: u32) -> (BTreeMap<String, u64>, u64) {
        for line in setup {
            self.send(line);
        }
        self.send(&format!("go perft {depth}"));
        let lines = self.until(|l| l.starts_with("Nodes searched: "));
        let total = lines.last().unwrap()["Nodes searched: ".len()..].trim().parse().unwrap();
        let divide = lines
            .iter()
            .filter_map(|l| l.split_once(": "))
            .filter(|(m, _)| !m.contains(' '))
            .map(|(m, n)| (m.to_string(), n.trim().parse().unwrap()))
            .collect();
        (divide, total)
    }

    /// Closes standard input (or sends `quit`) and waits for the exit.
    fn finish(mut self, quit: bool) -> std::process::ExitStatus {
        if quit {
            self.send("quit");
        }
        drop(self.stdin.take());
        for _ in 0..600 {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        panic!("the engine did not exit within 30 s");
    }
}

fn position(root: &str, moves: &[&str]) -> String {
    let root = if root == "startpos" { "startpos".to_string() } else { format!("fen {root}") };
    if moves.is_empty() {
        format!("position {root}")
    } else {
        format!("position {root} moves {}", moves.join(" "))
    }
}

#[test]
fn stockfish_and_we_give_the_same_divide() {
    let Some(sf) = stockfish() else { return };
    let cases: [(&[&str], &str, &[&str], u32); 6] = [
        (&[], "startpos", &[], 4),
        (&[], KIWIPETE, &[], 3),
        (&[], "startpos", &["e2e4", "d7d5", "e4e5", "f7f5"], 3),
        (&[], POSITION_3, &["e2e4"], 4),
        (&["setoption name UCI_Chess960 value true"], CHESS960, &[], 3),
        (
            &["setoption name UCI_Chess960 value true"],
            "qrkrnnbb/pppppppp/8/8/8/8/PPPPPPPP/QRKRNNBB w DBdb - 0 1",
            &["d2d4", "d7d5", "e1d3"],
            3,
        ),
    ];
    let (mut theirs, mut ours) = (Engine::start(&sf, &[]), Engine::ours());
    for (options, root, moves, depth) in cases {
        let mut setup: Vec<String> = options.iter().map(|s| s.to_string()).collect();
        setup.push(position(root, moves));
        let expected = theirs.perft(&setup, depth);
        assert_eq!(ours.perft(&setup, depth), expected, "{setup:?} go perft {depth}");
    }
    theirs.finish(true);
    assert!(ours.finish(true).success());
}

#[test]
fn the_grand_chess_tree_leaderboard_harness() {
    // Its three positions with the Chess Programming Wiki's counts.
    let cases = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5, 4_865_609u64),
        (KIWIPETE, 4, 4_085_603),
        (POSITION_3, 5, 674_624),
    ];
    for (fen, depth, expected) in cases {
        // One process per run, as the harness launches the program.
        let mut engine = Engine::ours();
        engine.send(&format!("position fen {fen}"));
        engine.send(&format!("go perft {depth}"));
        let lines = engine.until(|l| l.starts_with("Nodes searched: "));
        let total: u64 = lines.last().unwrap().rsplit(' ').next().unwrap().parse().unwrap();
        assert_eq!(total, expected, "{fen} depth {depth}");
        assert!(engine.finish(true).success());
    }
}

/// perftree's side of the exchange: one banner line at the start, then per
/// question `position fen FEN[ moves ...]` and `go perft N` in one write, the
/// answer read to a blank line (skipping `info` lines), the total line split
/// at ": ", one more line.
fn perftree_ask(engine: &mut Engine, fen: &str, moves: &[&str], depth: u32) -> (BTreeMap<String, u64>, u64) {
    let mut question = format!("position fen {fen}");
    if !moves.is_empty() {
        question.push_str(&format!(" moves {}", moves.join(" ")));
    }
    question.push_str(&format!("\ngo perft {depth}"));
    engine.send(&question);
    let mut children = BTreeMap::new();
    loop {
        let line = engine.line().expect("an answer line");
        if line.trim().is_empty() {
            break;
        }
        if line.starts_with("info") {
            continue;
        }
        let mut parts = line.trim().split(": ");
        let mv = parts.next().unwrap().to_string();
        children.insert(mv, parts.next().expect("move: count").parse().expect("a count"));
    }
    let total = engine.line().unwrap().trim().split(": ").nth(1).expect("Nodes searched: N").parse().unwrap();
    assert_eq!(engine.line().as_deref(), Some(""), "a blank line after the total");
    (children, total)
}

#[test]
fn perftree_reads_us_as_it_reads_stockfish() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let questions: [(&str, &[&str], u32); 4] =
        [(start, &[], 3), (start, &["e2e4"], 2), (start, &["e2e4", "e7e5"], 1), (KIWIPETE, &["e1g1"], 2)];
    let mut ours = Engine::ours();
    assert!(ours.line().is_some(), "a banner line");
    let answers: Vec<_> = questions.iter().map(|(f, m, d)| perftree_ask(&mut ours, f, m, *d)).collect();
    // The Chess Programming Wiki's perft(3) of the start position.
    assert_eq!(answers[0].1, 8902);
    assert_eq!(answers[0].0.len(), 20);
    assert!(ours.finish(true).success());
    let Some(sf) = stockfish() else { return };
    let mut theirs = Engine::start(&sf, &[]);
    assert!(theirs.line().is_some(), "Stockfish's banner");
    for ((fen, moves, depth), ours) in questions.iter().zip(&answers) {
        assert_eq!(&perftree_ask(&mut theirs, fen, moves, *depth), ours, "{fen} {moves:?} {depth}");
    }
    theirs.finish(true);
}

#[test]
fn fairy_stockfish_and_we_give_the_same_variant_divide() {
    let Some(fsf) = fairy_stockfish() else { return };
    let cases: [(&str, &str, &[&str], u32); 5] = [
        ("crazyhouse", "startpos", &["e2e4", "d7d5", "e4d5"], 3),
        ("atomic", "startpos", &["e2e4", "d7d5"], 3),
        ("xiangqi", "startpos", &[], 3),
        ("capablanca", "startpos", &[], 2),
        ("chess", "startpos", &["e2e4"], 3),
    ];
    let (mut theirs, mut ours) = (Engine::start(&fsf, &[]), Engine::ours());
    for (variant, root, moves, depth) in cases {
        let setup = vec![format!("setoption name UCI_Variant value {variant}"), position(root, moves)];
        let expected = theirs.perft(&setup, depth);
        assert_eq!(ours.perft(&setup, depth), expected, "{setup:?} go perft {depth}");
    }
    theirs.finish(true);
    assert!(ours.finish(true).success());
}

#[test]
fn fairy_stockfish_and_we_agree_over_usi() {
    let Some(fsf) = fairy_stockfish() else { return };
    let (mut theirs, mut ours) = (Engine::start(&fsf, &[]), Engine::ours());
    for engine in [&mut theirs, &mut ours] {
        engine.send("usi");
        engine.until(|l| l == "usiok");
    }
    let cases: [(&str, u32); 3] = [
        ("position startpos moves 7g7f 3c3d", 3),
        ("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2 moves 3c3d 8h2b+", 2),
        ("position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e", 2),
    ];
    for (setup, depth) in cases {
        let setup = vec![setup.to_string()];
        let expected = theirs.perft(&setup, depth);
        assert_eq!(ours.perft(&setup, depth), expected, "{setup:?} go perft {depth}");
    }
    theirs.finish(true);
    assert!(ours.finish(true).success());
}

/// `chesstool divide ARGS`: exit code and standard output.
fn divide(args: &[&str]) -> (i32, String) {
    let out = common::chesstool_with(&[&["divide"], args].concat(), 600).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn our_hunt_drives_the_engine_over_uci_usi_and_xboard() {
    let ours = engine_cmd();
    // Our own reading of each protocol against our generator.
    let runs: [&[&str]; 5] = [
        &["--depth", "3", "--engine-uci", &ours],
        &["--depth", "3", "--fen", CHESS960, "--engine-xboard", &ours],
        &["--depth", "3", "--variant", "crazyhouse", "--moves", "e2e4", "d7d5", "e4d5", "--engine-xboard", &ours],
        &["--depth", "3", "--variant", "shogi", "--moves", "7g7f", "3c3d", "--engine-usi", &ours],
        &["--depth", "2", "--variant", "xiangqi", "--engine-uci", &ours, "--bisect"],
    ];
    for args in runs {
        let (code, text) = divide(args);
        assert_eq!(code, 0, "divide {args:?}:\n{text}");
    }
    if let Some(sf) = stockfish() {
        let sf = sf.display().to_string();
        let (code, text) = divide(&["--depth", "4", "--engine-uci", &sf, "--reference-uci", &ours, "--bisect"]);
        assert_eq!(code, 0, "{text}");
    }
    let Some(fsf) = fairy_stockfish() else { return };
    let fsf = fsf.display().to_string();
    for variant in ["crazyhouse", "shogi", "atomic"] {
        let args = ["--variant", variant, "--depth", "3", "--engine-uci", &fsf, "--reference-uci", &ours, "--bisect"];
        let (code, text) = divide(&args);
        assert_eq!(code, 0, "divide {args:?}:\n{text}");
    }
}

#[test]
fn bad_input_gets_error_lines_and_the_engine_keeps_running() {
    let mut engine = Engine::ours();
    let bad = [
        "garbage",
        "go perft x",
        "go perft -1",
        "position fen junk",
        "position startpos moves e2e4 e7e4",
        "setoption name UCI_Variant value nosuchvariant",
        "setoption name VariantPath value /nonexistent/variants.ini",
        "setoption name Hash value lots",
        "position sfen",
    ];
    for line in bad {
        engine.send(line);
        engine.send("isready");
        let answer = engine.until(|l| l == "readyok");
        let errors: Vec<&String> = answer.iter().filter(|l| l.starts_with("info string error: ")).collect();
        assert_eq!(errors.len(), 1, "{line:?}: {answer:?}");
    }
    // After a refused position there is no count of another position.
    engine.send("position fen junk");
    engine.send("go perft 1");
    engine.send("isready");
    let answer = engine.until(|l| l == "readyok");
    assert!(!answer.iter().any(|l| l.starts_with("Nodes searched")), "{answer:?}");
    // A good one after it counts again; then the end of input mid-stream.
    engine.send("position startpos");
    engine.send("go perft 2");
    let answer = engine.until(|l| l.starts_with("Nodes searched: "));
    assert_eq!(answer.last().unwrap(), "Nodes searched: 400");
    engine.send("position startpos moves e2e4");
    assert!(engine.finish(false).success(), "exit 0 at the end of input");

    // Bytes that are not text, and `quit` with more input behind it.
    let out = Command::new(chesstool())
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(b"\x00\xff\xfe\nxboard\nfoo\nusermove e2e5\nquit\ngo perft 5\n")?;
            drop(stdin);
            child.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("\nError (unknown command): foo\n"), "{text}");
    assert!(text.contains("\nIllegal move ("), "{text}");
    assert!(!text.contains("Nodes searched"), "{text}");
}
