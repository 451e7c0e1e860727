//! Perft with the Chess Programming Wiki's statistics columns.
//!
//! Definitions (per move into a node at that depth):
//! - capture: a piece is taken (en passant included);
//! - check: the side to move after the move is in check;
//! - discovery check: a check in which the piece that moved is not a checker
//!   (for castling the rook counts as the one that moved; for a promotion the
//!   new piece); so a double check by the moved piece and a discovered piece
//!   counts as a double check only, as in the published tables;
//! - double check: two pieces give check;
//! - checkmate: in check with no legal move.

use crate::movegen::Move;
use crate::position::Position;
use serde::Serialize;
use std::ops::AddAssign;

/// Perft with the Chess Programming Wiki's per-kind counts of the leaves.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Leaf nodes.
    pub nodes: u64,
    /// Captures (en passant included).
    pub captures: u64,
    /// En passant captures.
    pub en_passants: u64,
    /// Castlings.
    pub castles: u64,
    /// Promotions.
    pub promotions: u64,
    /// Moves that give check.
    pub checks: u64,
    /// Checks by a discovered piece.
    pub discovery_checks: u64,
    /// Checks by two pieces.
    pub double_checks: u64,
    /// Moves that mate.
    pub checkmates: u64,
}

impl AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.nodes += o.nodes;
        self.captures += o.captures;
        self.en_passants += o.en_passants;
        self.castles += o.castles;
        self.promotions += o.promotions;
        self.checks += o.checks;
        self.discovery_checks += o.discovery_checks;
        self.double_checks += o.double_checks;
        self.checkmates += o.checkmates;
    }
}

impl Stats {
    /// Counts one move `m` from `before`, leading to `after`.
    fn record(&mut self, before: &Position, m: Move, after: &Position) {
        self.nodes += 1;
        if m.is_en_passant() {
            self.en_passants += 1;
            self.captures += 1;
        } else if !m.is_castling() && before.by_color(!before.turn()).contains(m.to()) {
            self.captures += 1;
        }
        if m.is_castling() {
            self.castles += 1;
        }
        if m.promotion_role().is_some() {
            self.promotions += 1;
        }
        let checkers = after.checkers();
        if checkers.any() {
            self.checks += 1;
            let moved = if m.is_castling() { m.castling_rook_target() } else { m.to() };
            if !checkers.contains(moved) {
                self.discovery_checks += 1;
            }
            if checkers.more_than_one() {
                self.double_checks += 1;
            }
            if after.count_legal() == 0 {
                self.checkmates += 1;
            }
        }
    }
}

/// Statistics for every depth from 1 to `depth` (index 0 is depth 1), in one
/// walk of the tree. Root moves run in parallel on the current rayon pool.
pub fn perft_stats(pos: &Position, depth: u32) -> Vec<Stats> {
    use rayon::prelude::*;
    let depth = depth as usize;
    if depth == 0 {
        return Vec::new();
    }
    let moves = pos.legal_moves();
    moves
        .as_slice()
        .par_iter()
        .map(|&m| {
            let mut rows = vec![Stats::default(); depth];
            let child = pos.play(m);
            rows[0].record(pos, m, &child);
            walk(&child, 1, &mut rows);
            rows
        })
        .reduce(
            || vec![Stats::default(); depth],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        )
}

fn walk(pos: &Position, ply: usize, rows: &mut [Stats]) {
    if ply >= rows.len() {
        return;
    }
    for &m in pos.legal_moves().iter() {
        let child = pos.play(m);
        rows[ply].record(pos, m, &child);
        walk(&child, ply + 1, rows);
    }
}
