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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pos = Position::from_fen(&args[1]).unwrap();
    let mut tally = BTreeMap::new();
    walk(&pos, args[2].parse().unwrap(), &mut tally);
    println!("{tally:#?}");
}
