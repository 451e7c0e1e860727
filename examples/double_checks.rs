//! Classifies the double checks of a perft tree by the kind of move that gives
//! them (used to settle the Kiwipete depth-5 dispute, 2637 vs 2645).
use chesstool::{movegen::MoveKind, Position};
use std::collections::BTreeMap;

fn walk(pos: &Position, depth: u32, tally: &mut BTreeMap<String, u64>) {
    for &m in pos.legal_moves().iter() {
        let child = pos.play(m);
        if depth == 1 {
            if child.checkers().more_than_one() {
                let role = pos.role_at(m.from()).unwrap();
                *tally.entry(format!("{:?} by {:?}", m.kind(), role)).or_default() += 1;
                if m.kind() != MoveKind::Normal {
                    eprintln!("{} {}", pos.to_fen(), m.to_uci(false));
                }
            }
        } else {
            walk(&child, depth - 1, tally);
        }
    }
}

/// `cargo run --release --example double_checks -- FEN DEPTH`
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, fen, depth] = args.as_slice() else {
        return Err("usage: double_checks FEN DEPTH".into());
    };
    let pos = Position::from_fen(fen)?;
    let mut tally = BTreeMap::new();
    walk(&pos, depth.parse()?, &mut tally);
    println!("{tally:#?}");
    Ok(())
}
