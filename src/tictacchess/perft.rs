//! Perft and divide: leaf counts of the legal move tree. The last ply is
//! counted without making the moves (`count_moves`), the root moves are
//! shared out over the rayon pool, and an optional hash table (the chess
//! perft's lock-free table) remembers subtrees. TicTacChess transposes a lot
//! (drops commute), so the table pays. Its keys are exact: the position packed
//! into 41 bits and scrambled by a bijection, so two positions never share a key.

use super::movegen::MAX_MOVES;
use super::position::{Move, Position};
use crate::perft::HashTable;
use rayon::prelude::*;

/// The position as a 64-bit key, different for different positions.
#[inline(always)]
pub fn exact_key(pos: &Position) -> u64 {
    let mut k = pos.turn as u64;
    for side in pos.at {
        for at in side {
            k = k << 5 | u64::from(at);
        }
    }
    // Odd multipliers and xor-shifts are bijections of u64: scramble the
    // bits into the high half, which picks the bucket, without collisions.
    k = k.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    k ^= k >> 29;
    k.wrapping_mul(0xbf58_476d_1ce4_e5b9)
}

/// Leaf nodes `depth` plies below `pos` (1 at depth 0; 0 from depth 1 on
/// when the game is over). Sequential, no table.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    search(pos, depth, None)
}

fn search(pos: &Position, depth: u32, table: Option<&HashTable>) -> u64 {
    match depth {
        0 => 1,
        1 => u64::from(pos.count_moves()),
        _ => {
            let key = exact_key(pos);
            if let Some(n) = table.and_then(|t| t.probe(key, depth)) {
                return n;
            }
            let mut n = 0;
            pos.for_each_move(|m| n += search(&pos.play(m), depth - 1, table));
            if let Some(t) = table {
                t.store(key, depth, n);
            }
            n
        }
    }
}

/// Every legal move with the leaf count `depth - 1` plies below it
/// (`depth >= 1`), in the order of `legal_moves`, on the current rayon pool;
/// `on_move` is called as each root move finishes.
pub fn divide(pos: &Position, depth: u32, table: Option<&HashTable>, on_move: &(dyn Fn() + Sync)) -> Vec<(Move, u64)> {
    assert!(depth >= 1, "divide needs depth >= 1");
    let moves = pos.legal_moves();
    debug_assert!(moves.len() <= MAX_MOVES);
    moves
        .par_iter()
        .with_max_len(1)
        .map(|&m| {
            let n = search(&pos.play(m), depth - 1, table);
            on_move();
            (m, n)
        })
        .collect()
}

/// The total of a divide; `None` if it passes 2^64 - 1.
pub fn total(counts: &[(Move, u64)]) -> Option<u64> {
    counts.iter().try_fold(0u64, |sum, &(_, n)| sum.checked_add(n))
}
