//! How an engine author tests a move generator with the chesstool library:
//! perft of the Chess Programming Wiki's six positions against the published
//! numbers, and for a wrong count, the hunt (a divide diff, then bisection)
//! down to the first position whose move list is wrong.
//!
//! `author_divide` stands for the author's generator: here our own, with a
//! bug that `--bug` switches on. Replace it with a call into your engine.
//!
//! cargo run --release --example engine_author_test -- --bug no-underpromotion

use chesstool::chess::Chess;
use chesstool::engines::{Builtin, Divide, Divider, EngineError, Line};
use chesstool::rules::Rules;
use chesstool::verify::bisect::Checker;
use chesstool::{Move, Position};
use clap::Parser;
use std::process::ExitCode;
use std::sync::Arc;

/// The Chess Programming Wiki's "Perft Results" positions and their
/// published counts at depths 1, 2, 3, ...
const CPW: &[(&str, &str, &[u64])] = &[
    ("initial", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &[20, 400, 8_902, 197_281, 4_865_609]),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        &[48, 2_039, 97_862, 4_085_603],
    ),
    ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", &[14, 191, 2_812, 43_238, 674_624]),
    ("position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", &[6, 264, 9_467, 422_333]),
    ("position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", &[44, 1_486, 62_379, 2_103_487]),
    (
        "position 6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        &[46, 2_079, 89_890, 3_894_594],
    ),
];

/// Perft of the CPW positions against the published counts, with the hunt
/// for the first wrong position when a count is off.
#[derive(Parser)]
#[command(about = "Perft of the CPW positions against the published counts, and the hunt for the first wrong position")]
struct Args {
    /// Deepest depth to check (each position has its published depths, up to 5).
    #[arg(long, default_value_t = 3, value_name = "DEPTH")]
    max_depth: u32,
    /// A bug for the stand-in generator: none, no-underpromotion, no-en-passant, no-castling.
    #[arg(long, default_value = "none", value_name = "BUG")]
    bug: String,
}

/// The author's generator, as the test sees it: the legal moves of a position.
fn author_moves(pos: &Position, bug: &str) -> Vec<Move> {
    let moves = pos.legal_moves();
    moves
        .iter()
        .copied()
        .filter(|m| match bug {
            "no-underpromotion" => m.promotion_role().is_none_or(|r| r == chesstool::Role::Queen),
            "no-en-passant" => !m.is_en_passant(),
            "no-castling" => !m.is_castling(),
            _ => true,
        })
        .collect()
}

fn author_perft(pos: &Position, depth: u32, bug: &str) -> u64 {
    if depth == 0 {
        return 1;
    }
    author_moves(pos, bug).into_iter().map(|m| author_perft(&pos.play(m), depth - 1, bug)).sum()
}

/// The author's divide: each move in UCI with its count.
fn author_divide(pos: &Position, depth: u32, bug: &str) -> Vec<(String, u64)> {
    author_moves(pos, bug).into_iter().map(|m| (m.to_uci(false), author_perft(&pos.play(m), depth - 1, bug))).collect()
}

/// The author's generator as an engine of the hunt.
struct Author {
    bug: String,
}

impl Divider<Chess> for Author {
    fn name(&self) -> String {
        "author".to_string()
    }

    fn divide(&mut self, line: &Line<Chess>, depth: u32) -> Result<Divide, EngineError> {
        let pos = line.position(&Chess::new());
        Ok(Divide { moves: author_divide(&pos, depth, &self.bug), ..Divide::default() })
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let known = ["none", "no-underpromotion", "no-en-passant", "no-castling"];
    if !known.contains(&args.bug.as_str()) {
        eprintln!("error: --bug {:?}: one of {}", args.bug, known.join(", "));
        return ExitCode::from(2);
    }
    let chess = Arc::new(Chess::new());
    let mut failures = 0;
    for &(name, fen, counts) in CPW {
        let pos = Position::from_fen(fen).expect("the CPW FENs are valid");
        for (i, &expected) in counts.iter().enumerate().take(args.max_depth as usize) {
            let depth = i as u32 + 1;
            let got = author_perft(&pos, depth, &args.bug);
            if got == expected {
                println!("ok    {name:<10} depth {depth}: {got}");
                continue;
            }
            failures += 1;
            println!("WRONG {name:<10} depth {depth}: {got}, published {expected}");
            // The hunt: compare the author's divide with ours and descend.
            let mut author = Author { bug: args.bug.clone() };
            let mut reference = Builtin::new(Arc::clone(&chess));
            let mut checker = Checker::new(&*chess, &mut author, &mut reference);
            let root = Line::new(chess.parse_position(fen).expect("valid"));
            match checker.check(&root, depth, true) {
                Ok(report) => match report.witness {
                    Some(w) => {
                        let at = w.line.position(&*chess);
                        println!("      first wrong position: {}", chess.position_text(&at));
                        let path = w.line.move_texts(&*chess).join(" ");
                        println!("      after: {}", if path.is_empty() { "(the root)" } else { &path });
                        for m in &w.diff.missing {
                            println!("      missing {} ({})", m.mv, m.hint.as_deref().unwrap_or("?"));
                        }
                        for x in &w.diff.extra {
                            println!("      extra   {} ({})", x.mv, x.hint.as_deref().unwrap_or("?"));
                        }
                    }
                    None => println!("      the divides agree: is the published number right?"),
                },
                Err(e) => println!("      the hunt failed: {e}"),
            }
            break; // deeper counts of a wrong position say nothing new
        }
    }
    if failures == 0 {
        ExitCode::SUCCESS
    } else {
        println!("{failures} position(s) wrong");
        ExitCode::from(1)
    }
}
