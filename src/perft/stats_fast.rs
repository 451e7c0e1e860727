//! The statistics of one depth, fast: the last ply is classified from the
//! generator's target sets without making the moves (captures by a popcount,
//! checks from the squares that attack the enemy king and from the pieces
//! that block our sliders' lines to it), and only the moves that give check,
//! promote, castle or capture en passant are made; the plies above probe and
//! fill an optional `StatsTable`. `stats::perft_stats` is the reference.

use super::stats::Stats;
use super::stats_hash::StatsTable;
use crate::attacks::{between, bishop_attacks, knight_attacks, line, pawn_attacks, rook_attacks};
use crate::board::{Bitboard, Role, Square};
use crate::movegen::{Move, MoveSink};
use crate::position::Position;
use rayon::prelude::*;

/// Counts the legal moves of one position into a `Stats` (the leaves below it).
struct LeafSink<'a> {
    pos: &'a Position,
    theirs: Bitboard,
    /// For each role, the squares from which it would attack the enemy king.
    check_squares: [Bitboard; 6],
    /// Our pieces that alone stand between one of our sliders and the enemy king.
    blockers: Bitboard,
    their_king: Square,
    stats: Stats,
}

impl<'a> LeafSink<'a> {
    fn new(pos: &'a Position) -> LeafSink<'a> {
        let us = pos.turn();
        let ours = pos.by_color(us);
        let theirs = pos.by_color(!us);
        let occupied = pos.occupied();
        let ksq = pos.king(!us);
        let diagonal = bishop_attacks(ksq, occupied);
        let straight = rook_attacks(ksq, occupied);
        let check_squares =
            [pawn_attacks(!us, ksq), knight_attacks(ksq), diagonal, straight, diagonal | straight, Bitboard::EMPTY];
        let snipers = ((rook_attacks(ksq, Bitboard::EMPTY) & pos.line_sliders())
            | (bishop_attacks(ksq, Bitboard::EMPTY) & pos.diagonal_sliders()))
            & ours;
        let mut blockers = Bitboard::EMPTY;
        for sniper in snipers {
            let between = between(ksq, sniper) & occupied;
            if !between.more_than_one() {
                blockers |= between & ours;
            }
        }
        LeafSink { pos, theirs, check_squares, blockers, their_king: ksq, stats: Stats::default() }
    }

    /// Moves that leave a blocker's line to the enemy king uncover a check.
    #[inline(always)]
    fn discovering(&self, from: Square, targets: Bitboard) -> Bitboard {
        if self.blockers.contains(from) {
            targets & !line(from, self.their_king)
        } else {
            Bitboard::EMPTY
        }
    }

    /// Counts moves that give no check and do nothing special, in bulk.
    #[inline(always)]
    fn quiet(&mut self, targets: Bitboard) {
        self.stats.nodes += targets.count() as u64;
        self.stats.captures += (targets & self.theirs).count() as u64;
    }

    /// Makes `m` and counts it move by move (checks, and the rare kinds).
    #[inline(never)]
    fn exact(&mut self, m: Move) {
        let after = self.pos.play(m);
        self.stats.record(self.pos, m, &after);
    }
}

impl MoveSink for LeafSink<'_> {
    #[inline(always)]
    fn piece_moves(&mut self, from: Square, targets: Bitboard) {
        let role = self.pos.role_at(from).expect("a move starts on a piece");
        let checking = (targets & self.check_squares[role as usize]) | self.discovering(from, targets);
        self.quiet(targets & !checking);
        for to in checking {
            self.exact(Move::normal(from, to));
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, step: i8, promotion: bool) {
        let from_of = |to: Square| Square::new((to as i8 - step) as u8);
        if promotion {
            for to in targets {
                for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    self.exact(Move::promotion(from_of(to), to, role));
                }
            }
            return;
        }
        let mut checking = targets & self.check_squares[Role::Pawn as usize];
        // The targets whose pawn is a blocker (`to - step` in `blockers`).
        let moved_blockers = if step > 0 { self.blockers.0 << step } else { self.blockers.0 >> -step };
        for to in targets & Bitboard(moved_blockers) {
            checking |= self.discovering(from_of(to), Bitboard::from_square(to));
        }
        self.quiet(targets & !checking);
        for to in checking {
            self.exact(Move::normal(from_of(to), to));
        }
    }

    fn special(&mut self, m: Move) {
        self.exact(m);
    }
}

/// The statistics of the leaves `depth` plies below `pos`, on this thread,
/// with an optional table. Depth 0 is the root alone.
pub fn leaf_stats(pos: &Position, depth: u32, table: Option<&StatsTable>) -> Stats {
    match depth {
        0 => Stats { nodes: 1, ..Stats::default() },
        1 => {
            let mut sink = LeafSink::new(pos);
            pos.generate(&mut sink);
            sink.stats
        }
        _ => {
            if let Some(hit) = table.and_then(|t| t.probe(pos.key(), depth)) {
                return hit;
            }
            let mut total = Stats::default();
            for &m in pos.legal_moves().iter() {
                total += leaf_stats(&pos.play(m), depth - 1, table);
            }
            if let Some(t) = table {
                t.store(pos.key(), depth, &total);
            }
            total
        }
    }
}

/// As `leaf_stats`, on every thread of the current rayon pool (the tree is
/// split over the first two plies).
pub fn leaf_stats_parallel(pos: &Position, depth: u32, table: Option<&StatsTable>) -> Stats {
    if depth < 3 {
        return leaf_stats(pos, depth, table);
    }
    if let Some(hit) = table.and_then(|t| t.probe(pos.key(), depth)) {
        return hit;
    }
    let children: Vec<Position> = pos.legal_moves().iter().map(|&m| pos.play(m)).collect();
    let total = children
        .par_iter()
        .map(|c| {
            let grandchildren: Vec<Position> = c.legal_moves().iter().map(|&m| c.play(m)).collect();
            grandchildren.par_iter().map(|g| leaf_stats(g, depth - 2, table)).reduce(Stats::default, sum)
        })
        .reduce(Stats::default, sum);
    if let Some(t) = table {
        t.store(pos.key(), depth, &total);
    }
    total
}

fn sum(mut a: Stats, b: Stats) -> Stats {
    a += b;
    a
}

/// The statistics of every depth from 1 to `depth` (index 0 is depth 1), on
/// every thread of the current pool, sharing one optional table (the
/// shallower depths fill it for the deeper).
pub fn perft_stats_fast(pos: &Position, depth: u32, table: Option<&StatsTable>) -> Vec<Stats> {
    (1..=depth).map(|d| leaf_stats_parallel(pos, d, table)).collect()
}
