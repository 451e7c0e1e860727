//! Multi-threaded perft on the current rayon pool: the tree is split over the
//! first two plies so that work-stealing can balance uneven subtrees.

use super::perft;
use crate::position::Position;
use rayon::prelude::*;

/// Below this depth a subtree is too small to be worth splitting.
const SPLIT_MIN_DEPTH: u32 = 4;

/// The same count as `perft`, using every thread of the current pool.
pub fn perft_parallel(pos: &Position, depth: u32) -> u64 {
    split(pos, depth, 2)
}

fn split(pos: &Position, depth: u32, levels: u32) -> u64 {
    if levels == 0 || depth < SPLIT_MIN_DEPTH {
        return perft(pos, depth);
    }
    let moves = pos.legal_moves();
    moves.as_slice().par_iter().map(|&m| split(&pos.play(m), depth - 1, levels - 1)).sum()
}

/// Per-root-move counts computed in parallel, in generation order, with
/// `on_done` called after each root move (for progress bars).
pub fn divide_parallel(pos: &Position, depth: u32, on_done: &(dyn Fn() + Sync)) -> Vec<(crate::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = pos.legal_moves();
    moves
        .as_slice()
        .par_iter()
        .map(|&m| {
            let n = split(&pos.play(m), depth - 1, 1);
            on_done();
            (m, n)
        })
        .collect()
}
