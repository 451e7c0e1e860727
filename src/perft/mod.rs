//! Perft: count the leaf nodes of the legal move tree. `perft` here is the
//! plain sequential reference; the faster paths are checked against it.
//! `fast` is the speed path (PEXT, bulk counting, optional `HashTable`).

mod fast;
pub mod fenkey;
pub mod hash;
mod memory;
pub mod merge;
pub mod split;
pub mod stats;
pub mod stats_fast;
pub mod stats_hash;
pub mod unit;
pub mod units;

pub use fast::{divide_fast, perft_fast, perft_fast_magic, perft_fast_parallel};
pub use hash::{HashTable, TableTooLarge};
pub use stats::{perft_stats, CheckKind, Stats};
pub use stats_fast::{leaf_stats, leaf_stats_parallel, perft_stats_fast};
pub use stats_hash::StatsTable;

use crate::movegen::Move;
use crate::position::Position;

/// The deepest perft chesstool accepts anywhere (arguments, suite lines,
/// bisection): perft(20) of any position is far beyond any machine, so a
/// larger number is a typo, not a request.
pub const MAX_DEPTH: u32 = 20;

/// Leaf nodes at `depth` (bulk counting at the last ply).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => pos.legal_moves().iter().map(|&m| perft(&pos.play(m), depth - 1)).sum(),
    }
}

/// Perft that makes every move, even at the last ply (a slower oracle for
/// testing the bulk counting).
pub fn perft_full(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves().iter().map(|&m| perft_full(&pos.play(m), depth - 1)).sum()
}

/// Per-root-move counts, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves().iter().map(|&m| (m, perft(&pos.play(m), depth - 1))).collect()
}
