//! Perft with the statistics columns that the records publish: the Chess
//! Programming Wiki's ("Perft Results") and The Grand Chess Tree's.
//!
//! Every column counts the moves into the nodes at that depth. A check is
//! classified by its checkers after the move and by the square the moved
//! piece stands on (for castling the rook's square, for a promotion the new
//! piece's, for en passant the capturing pawn's):
//! - *direct*: one checker, the moved piece;
//! - *single discovered*: one checker, another piece (uncovered by the move);
//! - *direct discovered*: two checkers, one of them the moved piece;
//! - *double discovered*: two checkers, neither the moved piece. One emptied
//!   square uncovers at most one line to the king, so this takes a move that
//!   empties two: an en passant capture (or a castling).
//!
//! The Grand Chess Tree counts each kind twice, apart for checks that do not
//! mate and for mates. The Wiki's columns are sums of these (reproduced at
//! every depth it publishes, see `checks` and the methods below it):
//! its checks include the mates, while its discovery checks and double checks
//! do not.
//!
//! `perft_stats` here is the slow reference that makes every move; the fast
//! path (`stats_fast`) is tested against it.

use crate::board::{Bitboard, Square};
use crate::movegen::Move;
use crate::position::Position;
use serde::ser::{Serialize, SerializeStruct, Serializer};
use std::ops::AddAssign;

/// How a move gives check (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckKind {
    /// One checker: the moved piece.
    Direct,
    /// One checker, uncovered by the move.
    SingleDiscovered,
    /// The moved piece and an uncovered piece.
    DirectDiscovered,
    /// Two uncovered pieces.
    DoubleDiscovered,
}

impl CheckKind {
    /// The kind of check that `checkers` give when the moved piece stands on
    /// `moved`; `None` without checkers.
    #[inline]
    pub fn of(checkers: Bitboard, moved: Square) -> Option<CheckKind> {
        if checkers.is_empty() {
            return None;
        }
        let direct = checkers.contains(moved);
        Some(match (checkers.more_than_one(), direct) {
            (false, true) => CheckKind::Direct,
            (false, false) => CheckKind::SingleDiscovered,
            (true, true) => CheckKind::DirectDiscovered,
            (true, false) => CheckKind::DoubleDiscovered,
        })
    }
}

/// The counts of one depth: the move kinds, and checks and mates by kind of
/// check (checks that mate are counted as mates only).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    /// Leaf nodes.
    pub nodes: u64,
    /// Captures (en passant included).
    pub captures: u64,
    /// En passant captures.
    pub en_passants: u64,
    /// Castlings.
    pub castles: u64,
    /// Promotions (each of the four pieces counts).
    pub promotions: u64,
    /// Direct checks that do not mate.
    pub direct_checks: u64,
    /// Single discovered checks that do not mate.
    pub single_discovered_checks: u64,
    /// Direct discovered checks that do not mate.
    pub direct_discovered_checks: u64,
    /// Double discovered checks that do not mate.
    pub double_discovered_checks: u64,
    /// Mates by a direct check.
    pub direct_mates: u64,
    /// Mates by a single discovered check.
    pub single_discovered_mates: u64,
    /// Mates by a direct discovered check.
    pub direct_discovered_mates: u64,
    /// Mates by a double discovered check.
    pub double_discovered_mates: u64,
}

/// The number of counters in a `Stats` (the words of a hash table entry).
pub const STATS_WORDS: usize = 13;

impl Stats {
    /// The Wiki's checks: every move that gives check, mates included.
    pub fn checks(&self) -> u64 {
        self.total_checks() + self.total_mates()
    }

    /// The Wiki's discovery checks: single discovered checks that do not mate.
    pub fn discovery_checks(&self) -> u64 {
        self.single_discovered_checks
    }

    /// The Wiki's double checks: checks by two pieces that do not mate.
    pub fn double_checks(&self) -> u64 {
        self.direct_discovered_checks + self.double_discovered_checks
    }

    /// The Wiki's checkmates (= `total_mates`).
    pub fn checkmates(&self) -> u64 {
        self.total_mates()
    }

    /// The Grand Chess Tree's total checks: checks that do not mate.
    pub fn total_checks(&self) -> u64 {
        self.direct_checks
            + self.single_discovered_checks
            + self.direct_discovered_checks
            + self.double_discovered_checks
    }

    /// The Grand Chess Tree's total mates.
    pub fn total_mates(&self) -> u64 {
        self.direct_mates + self.single_discovered_mates + self.direct_discovered_mates + self.double_discovered_mates
    }

    /// Counts one check of `kind`, as a mate if `mate`.
    #[inline]
    pub fn add_check(&mut self, kind: CheckKind, mate: bool) {
        let counter = match (kind, mate) {
            (CheckKind::Direct, false) => &mut self.direct_checks,
            (CheckKind::SingleDiscovered, false) => &mut self.single_discovered_checks,
            (CheckKind::DirectDiscovered, false) => &mut self.direct_discovered_checks,
            (CheckKind::DoubleDiscovered, false) => &mut self.double_discovered_checks,
            (CheckKind::Direct, true) => &mut self.direct_mates,
            (CheckKind::SingleDiscovered, true) => &mut self.single_discovered_mates,
            (CheckKind::DirectDiscovered, true) => &mut self.direct_discovered_mates,
            (CheckKind::DoubleDiscovered, true) => &mut self.double_discovered_mates,
        };
        *counter += 1;
    }

    /// The counters in field order (for storing in a hash table).
    pub fn to_words(&self) -> [u64; STATS_WORDS] {
        [
            self.nodes,
            self.captures,
            self.en_passants,
            self.castles,
            self.promotions,
            self.direct_checks,
            self.single_discovered_checks,
            self.direct_discovered_checks,
            self.double_discovered_checks,
            self.direct_mates,
            self.single_discovered_mates,
            self.direct_discovered_mates,
            self.double_discovered_mates,
        ]
    }

    /// The inverse of `to_words`.
    pub fn from_words(w: [u64; STATS_WORDS]) -> Stats {
        Stats {
            nodes: w[0],
            captures: w[1],
            en_passants: w[2],
            castles: w[3],
            promotions: w[4],
            direct_checks: w[5],
            single_discovered_checks: w[6],
            direct_discovered_checks: w[7],
            double_discovered_checks: w[8],
            direct_mates: w[9],
            single_discovered_mates: w[10],
            direct_discovered_mates: w[11],
            double_discovered_mates: w[12],
        }
    }

    /// Counts one legal move `m` from `before`, leading to `after`.
    #[inline]
    pub fn record(&mut self, before: &Position, m: Move, after: &Position) {
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
        let moved = if m.is_castling() { m.castling_rook_target() } else { m.to() };
        if let Some(kind) = CheckKind::of(after.checkers(), moved) {
            self.add_check(kind, after.count_legal() == 0);
        }
    }
}

impl AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        let mut w = self.to_words();
        for (x, y) in w.iter_mut().zip(o.to_words()) {
            *x += y;
        }
        *self = Stats::from_words(w);
    }
}

/// The Wiki's columns, then the Grand Chess Tree's (their names, spelt
/// right), then the totals: what `--json` prints.
impl Serialize for Stats {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Stats", 19)?;
        s.serialize_field("nodes", &self.nodes)?;
        s.serialize_field("captures", &self.captures)?;
        s.serialize_field("en_passants", &self.en_passants)?;
        s.serialize_field("castles", &self.castles)?;
        s.serialize_field("promotions", &self.promotions)?;
        s.serialize_field("checks", &self.checks())?;
        s.serialize_field("discovery_checks", &self.discovery_checks())?;
        s.serialize_field("double_checks", &self.double_checks())?;
        s.serialize_field("checkmates", &self.checkmates())?;
        s.serialize_field("direct_checks", &self.direct_checks)?;
        s.serialize_field("single_discovered_checks", &self.single_discovered_checks)?;
        s.serialize_field("direct_discovered_checks", &self.direct_discovered_checks)?;
        s.serialize_field("double_discovered_checks", &self.double_discovered_checks)?;
        s.serialize_field("total_checks", &self.total_checks())?;
        s.serialize_field("direct_mates", &self.direct_mates)?;
        s.serialize_field("single_discovered_mates", &self.single_discovered_mates)?;
        s.serialize_field("direct_discovered_mates", &self.direct_discovered_mates)?;
        s.serialize_field("double_discovered_mates", &self.double_discovered_mates)?;
        s.serialize_field("total_mates", &self.total_mates())?;
        s.end()
    }
}

/// Statistics for every depth from 1 to `depth` (index 0 is depth 1), in one
/// walk of the tree that makes every move: the slow reference. Root moves run
/// in parallel on the current rayon pool.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip_and_sums() {
        let s = Stats::from_words(std::array::from_fn(|i| i as u64 + 1));
        assert_eq!(Stats::from_words(s.to_words()), s);
        assert_eq!(s.total_checks(), 6 + 7 + 8 + 9);
        assert_eq!(s.total_mates(), 10 + 11 + 12 + 13);
        assert_eq!(s.checks(), s.total_checks() + s.total_mates());
        assert_eq!((s.discovery_checks(), s.double_checks()), (7, 8 + 9));
    }
}
