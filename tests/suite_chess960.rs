//! The shipped suites of all 960 Chess960 start positions
//! (suites/chess960-starts.epd in Shredder-FEN, -xfen.epd in X-FEN): written
//! by scripts/gen_chess960.py from python-chess's start positions and
//! Stockfish's counts. Here: the files follow Scharnagl's numbering (our
//! own numbering agrees with python-chess's), Stockfish gives every count
//! to depth 3 again, live, and our generator agrees with the files. The
//! whole depth is an ignored test.

mod common;

use assert_cmd::Command;
use chesstool::position::chess960_start_fen;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

const SHREDDER: &str = "chess960-starts.epd";
const XFEN: &str = "chess960-starts-xfen.epd";

/// (FEN, counts by depth from 1, id) of each position line of a file.
fn lines(name: &str) -> Vec<(String, Vec<u64>, String)> {
    let text = std::fs::read_to_string(common::suite_path(name)).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.split(';').map(str::trim);
            let fen = parts.next().unwrap().to_string();
            let (mut counts, mut id) = (Vec::new(), String::new());
            for op in parts {
                if let Some(rest) = op.strip_prefix('D') {
                    let (depth, nodes) = rest.split_once(' ').unwrap();
                    assert_eq!(depth.parse::<usize>().unwrap(), counts.len() + 1, "{l}");
                    counts.push(nodes.parse().unwrap());
                } else if let Some(rest) = op.strip_prefix("id ") {
                    id = rest.trim_matches('"').to_string();
                }
            }
            (fen, counts, id)
        })
        .collect()
}

#[test]
fn the_files_follow_scharnagls_numbering() {
    let shredder = lines(SHREDDER);
    let xfen = lines(XFEN);
    assert_eq!((shredder.len(), xfen.len()), (960, 960));
    for (n, ((fen, counts, id), (x, x_counts, x_id))) in shredder.iter().zip(&xfen).enumerate() {
        assert_eq!(fen, &chess960_start_fen(n as u32).unwrap(), "position {n}");
        let castling = fen.split(' ').nth(2).unwrap();
        assert_eq!(x, &fen.replacen(&format!(" {castling} "), " KQkq ", 1), "position {n}");
        assert_eq!((id.as_str(), x_id.as_str()), (format!("chess960-{n}").as_str(), format!("chess960-{n}").as_str()));
        assert_eq!(counts, x_counts, "position {n}");
        assert!(counts.len() >= 5, "position {n}: {counts:?}");
    }
    // 518 is the standard start position: the published 20, 400, 8902, 197281, 4865609.
    assert_eq!(shredder[518].1[..5], [20, 400, 8902, 197281, 4865609]);
    // Line N + 7 holds position N.
    let text = std::fs::read_to_string(common::suite_path(SHREDDER)).unwrap();
    assert!(text.lines().nth(518 + 6).unwrap().starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha"));
}

/// Stockfish in Chess960 mode, asked with `go perft N`.
struct Stockfish {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Stockfish {
    fn start() -> Option<Stockfish> {
        let path = match chesstool::engines::find::find_stockfish() {
            Ok(p) => p,
            Err(e) => {
                assert!(std::env::var_os("CI").is_none(), "Stockfish missing under CI: {e}");
                eprintln!("note: skipping, {e}");
                return None;
            }
        };
        let mut child = std::process::Command::new(path).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut sf = Stockfish { child, stdin, stdout };
        sf.send("uci");
        sf.until("uciok");
        sf.send("setoption name UCI_Chess960 value true");
        sf.send("isready");
        sf.until("readyok");
        Some(sf)
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn until(&mut self, prefix: &str) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "Stockfish ended");
            if line.starts_with(prefix) {
                return line;
            }
        }
    }

    fn perft(&mut self, fen: &str, depth: usize) -> u64 {
        self.send(&format!("position fen {fen}"));
        self.send(&format!("go perft {depth}"));
        let total = self.until("Nodes searched:");
        self.send("isready");
        self.until("readyok");
        total.split(':').nth(1).unwrap().trim().parse().unwrap()
    }
}

impl Drop for Stockfish {
    fn drop(&mut self) {
        self.send("quit");
        let _ = self.child.wait();
    }
}

fn stockfish_agrees(max_depth: usize) {
    let Some(mut sf) = Stockfish::start() else { return };
    for (n, (fen, counts, _)) in lines(SHREDDER).iter().enumerate() {
        for (i, &count) in counts.iter().enumerate().take(max_depth) {
            assert_eq!(sf.perft(fen, i + 1), count, "position {n} ({fen}) depth {}", i + 1);
        }
    }
}

#[test]
fn stockfish_gives_every_count_to_depth_3_again() {
    stockfish_agrees(3);
}

#[test]
#[ignore = "every depth of the files: Stockfish, about 10 minutes"]
fn stockfish_gives_every_count_again() {
    stockfish_agrees(6);
}

fn our_suite(file: &str, extra: &[&str]) {
    let mut cmd = Command::cargo_bin("chesstool").unwrap();
    cmd.args(["suite", "-q", "--json"]).arg(common::suite_path(file)).args(extra);
    let (code, doc, _) = common::run_json(&mut cmd);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["totals"]["positions"], 960);
    assert_eq!(doc["totals"]["failed"], 0);
}

#[test]
fn our_generator_agrees_with_both_files() {
    our_suite(SHREDDER, &["--max-depth", "3"]);
    our_suite(XFEN, &["--max-depth", "3"]);
}

#[test]
#[ignore = "every depth of both files: minutes"]
fn our_generator_agrees_with_both_files_at_every_depth() {
    our_suite(SHREDDER, &[]);
    our_suite(XFEN, &[]);
}
