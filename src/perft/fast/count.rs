//! The counting recursion: a node either popcounts the generator's target
//! sets (`Counter`) or makes each move and counts below it (`Walk`), probing
//! and filling the optional hash table above the last two plies.

use super::board::{Board, Side, BISHOP, KNIGHT, QUEEN, ROOK};
use super::generate::{generate, Sink, PROMOTION};
use super::lookups::Sliders;
use super::make::{key_after, make_castle, make_en_passant, make_pawn, make_piece, make_promotion};
use crate::perft::HashTable;
use std::marker::PhantomData;

/// Leaf nodes `depth` plies below `b` (side `S`, sliders `A`).
#[inline(always)]
pub(super) fn node<S: Side, A: Sliders>(b: &Board, depth: u32, tt: Option<&HashTable>) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let mut counter = Counter(0);
            generate::<S, A, _>(b, &mut counter);
            counter.0
        }
        _ => {
            if let Some(hit) = tt.and_then(|t| t.probe(b.key, depth)) {
                return hit;
            }
            let nodes = if depth == 2 {
                let mut walk = Walk::<A, true> { depth: 1, tt: None, nodes: 0, _sliders: PhantomData };
                generate::<S, A, _>(b, &mut walk);
                walk.nodes
            } else {
                let mut walk = Walk::<A, false> { depth: depth - 1, tt, nodes: 0, _sliders: PhantomData };
                generate::<S, A, _>(b, &mut walk);
                walk.nodes
            };
            if let Some(t) = tt {
                t.store(b.key, depth, nodes);
            }
            nodes
        }
    }
}

/// Bulk counting: a popcount per group.
struct Counter(u64);

impl Sink for Counter {
    #[inline(always)]
    fn piece<S: Side, const ROLE: usize>(&mut self, _b: &Board, _from: usize, targets: u64) {
        self.0 += targets.count_ones() as u64;
    }
    #[inline(always)]
    fn pawns<S: Side, const KIND: u8>(&mut self, _b: &Board, targets: u64, _step: i32) {
        let n = targets.count_ones() as u64;
        self.0 += if KIND >= PROMOTION { 4 * n } else { n };
    }
    #[inline(always)]
    fn en_passant<S: Side>(&mut self, _b: &Board, _from: usize, _to: usize) {
        self.0 += 1;
    }
    #[inline(always)]
    fn castle<S: Side>(&mut self, _b: &Board, _king: usize, _rook: usize) {
        self.0 += 1;
    }
}

/// Makes every move and counts below it: with `LAST` the children are counted
/// by popcount here, otherwise the recursion (and the hash table) takes over.
struct Walk<'a, A, const LAST: bool> {
    depth: u32,
    tt: Option<&'a HashTable>,
    nodes: u64,
    _sliders: PhantomData<A>,
}

impl<A: Sliders, const LAST: bool> Walk<'_, A, LAST> {
    #[inline(always)]
    fn visit<S: Side>(&mut self, parent: &Board, mut child: Board) {
        if LAST {
            let mut counter = Counter(0);
            generate::<S::Opp, A, _>(&child, &mut counter);
            self.nodes += counter.0;
        } else {
            if self.tt.is_some() {
                child.key = key_after(parent, &child);
            }
            self.nodes += A::node::<S::Opp>(&child, self.depth, self.tt);
        }
    }
}

impl<A: Sliders, const LAST: bool> Sink for Walk<'_, A, LAST> {
    #[inline(always)]
    fn piece<S: Side, const ROLE: usize>(&mut self, b: &Board, from: usize, mut targets: u64) {
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            self.visit::<S>(b, make_piece::<S, ROLE>(b, from, to));
        }
    }
    #[inline(always)]
    fn pawns<S: Side, const KIND: u8>(&mut self, b: &Board, mut targets: u64, step: i32) {
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            let from = (to as i32 - step) as usize;
            if KIND >= PROMOTION {
                for role in [QUEEN, ROOK, BISHOP, KNIGHT] {
                    self.visit::<S>(b, make_promotion::<S>(b, from, to, role));
                }
            } else {
                self.visit::<S>(b, make_pawn::<S, KIND>(b, from, to));
            }
        }
    }
    #[inline(always)]
    fn en_passant<S: Side>(&mut self, b: &Board, from: usize, to: usize) {
        self.visit::<S>(b, make_en_passant::<S>(b, from, to));
    }
    #[inline(always)]
    fn castle<S: Side>(&mut self, b: &Board, king: usize, rook: usize) {
        self.visit::<S>(b, make_castle::<S>(b, king, rook));
    }
}
