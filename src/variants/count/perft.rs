//! Perft on variants: the last ply is counted without playing its moves,
//! the root moves are shared among rayon's threads.

use crate::variants::board::{Position, NO_SQUARE};
use crate::variants::moves::vocabulary::Move;
use crate::variants::variant::definition::Variant;
use rayon::prelude::*;

/// Leaf nodes of the legal move tree to `depth` (1 at depth 0).
pub fn perft(variant: &Variant, pos: &mut Position, depth: u32) -> u64 {
    if let Some(st) = variant.tables.stone_tables() {
        return super::stones::perft(st, &st.node(pos), depth);
    }
    let mut buffers: Vec<Vec<Move>> = (0..=depth).map(|_| Vec::with_capacity(256)).collect();
    let mut scratch = Vec::with_capacity(256);
    // Without a rule that acts when a move is played (and no en-passant
    // square from the FEN to clear), a move is the board's `make`: its
    // smaller undo record and no rule's test per move.
    // (A flag rather than a second copy of `perft_in`: two copies took the
    // last ply's counter and the board's `make` out of line, 1-4% more
    // instructions for the built-ins.)
    let plain = variant.tables.plain_play && pos.ep == NO_SQUARE && pos.ep_victim == NO_SQUARE;
    perft_in(variant, pos, depth, &mut buffers, &mut scratch, plain)
}

/// `perft` with one move buffer per remaining ply, allocated once;
/// `plain`: moves are played as the board's `make` (see `perft`).
fn perft_in(
    variant: &Variant,
    pos: &mut Position,
    depth: u32,
    buffers: &mut [Vec<Move>],
    scratch: &mut Vec<Move>,
    plain: bool,
) -> u64 {
    let tables = &variant.tables;
    match depth {
        0 => 1,
        1 => tables.count_legal_in(pos, scratch),
        _ => {
            let (here, deeper) = buffers.split_first_mut().expect("a buffer per ply");
            tables.legal_moves_in(pos, scratch, here);
            let mut nodes = 0;
            if plain {
                let royal = tables.royal();
                for &mv in here.iter() {
                    let (from, to) = (mv.from as usize, mv.to as usize);
                    let undo = pos.make(from, to, mv.victims(), royal);
                    nodes += perft_in(variant, pos, depth - 1, deeper, scratch, true);
                    pos.unmake(from, to, &undo, royal);
                }
                return nodes;
            }
            for &mv in here.iter() {
                let undo = if depth == 2 { tables.play_to_count(pos, mv) } else { tables.play(pos, mv) };
                nodes += perft_in(variant, pos, depth - 1, deeper, scratch, false);
                tables.unplay(pos, mv, &undo);
            }
            nodes
        }
    }
}

/// Every legal move with the perft of `depth - 1` after it (`depth >= 1`),
/// the moves in generation order, computed on the current rayon pool.
pub fn divide(variant: &Variant, pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    assert!(depth >= 1, "divide needs depth >= 1");
    let mut root = pos.clone();
    let moves = variant.tables.legal_moves(&mut root);
    moves
        .par_iter()
        .map(|&mv| {
            let mut child = pos.clone();
            variant.tables.play(&mut child, mv);
            (mv, perft(variant, &mut child, depth - 1))
        })
        .collect()
}

/// Perft split over rayon's threads at the root.
pub fn perft_parallel(variant: &Variant, pos: &Position, depth: u32) -> u64 {
    if depth <= 1 {
        return perft(variant, &mut pos.clone(), depth);
    }
    divide(variant, pos, depth).iter().map(|&(_, n)| n).sum()
}
