//! Lists the double checks of a perft tree's last ply by the kind of move
//! that gives them, and prints every one that mates or is made by a special
//! move (castling, e.p., promotion) as `FEN MOVE`: the witnesses of the
//! Kiwipete depth-5 dispute (2645 double checks, 8 of them mates, which the
//! Chess Programming Wiki's 2637 leaves out).
use chesstool::{movegen::MoveKind, Position};
use std::collections::BTreeMap;

fn walk(pos: &Position, depth: u32, tally: &mut BTreeMap<String, u64>) {
    for &m in pos.legal_moves().iter() {
        let child = pos.play(m);
        if depth == 1 {
            if child.checkers().more_than_one() {
                let role = pos.role_at(m.from()).unwrap();
                let mate = child.count_legal() == 0;
                let what = if mate { "mate" } else { "check" };
                *tally.entry(format!("{:?} by {:?}, {what}", m.kind(), role)).or_default() += 1;
                if mate || m.kind() != MoveKind::Normal {
                    eprintln!("{} {} {what}", pos.to_fen(), m.to_uci(false));
                }
            }
        } else {
            walk(&child, depth - 1, tally);
        }
    }
}

const USAGE: &str = "usage: double_checks FEN DEPTH\n  the double checks of the perft tree to DEPTH plies, by kind of move and piece;\n  the mates and special moves among them on stderr as FEN MOVE";

/// `cargo run --release --example double_checks -- FEN DEPTH`
fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return std::process::ExitCode::SUCCESS;
    }
    match run(&args) {
        Ok(tally) => {
            println!("{tally:#?}");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            std::process::ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<BTreeMap<String, u64>, String> {
    let [fen, depth] = args else {
        return Err("expected two arguments".into());
    };
    let pos = Position::from_fen(fen).map_err(|e| format!("FEN {fen:?}: {e}"))?;
    let depth: u32 = depth.parse().ok().filter(|&d| d >= 1).ok_or_else(|| format!("DEPTH {depth:?}: 1 or more"))?;
    let mut tally = BTreeMap::new();
    walk(&pos, depth, &mut tally);
    Ok(tally)
}
