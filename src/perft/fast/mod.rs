//! The fast perft: a compact copy-make board, fully legal generation that
//! hands whole target sets to a sink (so the last ply is a popcount and the
//! second-to-last never builds a list), slider lookups by PEXT when the CPU has
//! BMI2 (the whole hot path is compiled twice and chosen at run time; fancy
//! magics otherwise), an optional lock-free hash table, and a rayon split over
//! the first two plies. `super::perft` stays the reference it is tested against.
//!
//! `board` holds the compact board and the side-to-move types, `lookups` the
//! attack lookups and the choice of compiled copy, `generate` the legal
//! generator and its `Sink` interface, `castling` its castling moves, `make`
//! copy-make and key updates, `count` the counting recursion, and `spread`
//! puts the workers of a search on cores of their own; this file is the
//! public API, the run-time dispatch and the thread split.

mod board;
mod castling;
mod count;
mod generate;
mod lookups;
mod make;
mod spread;

use self::board::{bits, Black, Board, Keyed, Side, White, BISHOP, KNIGHT, QUEEN, ROOK};
use self::generate::{generate, Sink, PROMOTION};
use self::lookups::{lookups, node_magic, Lookups, Magic};
#[cfg(target_arch = "x86_64")]
use self::lookups::{node_magic_popcnt, node_pext};
use self::make::{key_after, make_castle, make_en_passant, make_pawn, make_piece, make_promotion};
use super::hash::HashTable;
use crate::board::Color;
use crate::movegen::Move;
use crate::position::Position;
use rayon::prelude::*;

/// Leaf nodes `depth` plies below `b` (side to move `turn`), on this thread.
fn run(k: &Keyed, turn: Color, depth: u32, tt: Option<&HashTable>, lookups: Lookups) -> u64 {
    let (b, key) = (&k.board, k.key);
    #[cfg(target_arch = "x86_64")]
    match lookups {
        // Safety: `lookups()` chose these only where the CPU has the features.
        Lookups::Pext => {
            return unsafe {
                match turn {
                    Color::White => node_pext::<White>(b, key, depth, tt),
                    Color::Black => node_pext::<Black>(b, key, depth, tt),
                }
            }
        }
        // Safety: as above.
        Lookups::MagicPopcnt => {
            return unsafe {
                match turn {
                    Color::White => node_magic_popcnt::<White>(b, key, depth, tt),
                    Color::Black => node_magic_popcnt::<Black>(b, key, depth, tt),
                }
            }
        }
        Lookups::Magic => {}
    }
    let _ = lookups;
    match turn {
        Color::White => node_magic::<White>(b, key, depth, tt),
        Color::Black => node_magic::<Black>(b, key, depth, tt),
    }
}

/// Collects the children with their keys (for the hash table, and for
/// splitting work over threads).
pub(super) struct Children {
    parent_key: u64,
    pub(super) kids: Vec<Keyed>,
}

impl Children {
    pub(super) fn new(parent_key: u64) -> Children {
        Children { parent_key, kids: Vec::with_capacity(64) }
    }

    fn push(&mut self, parent: &Board, board: Board) {
        let key = key_after(parent, self.parent_key, &board);
        self.kids.push(Keyed { board, key });
    }
}

impl Sink for Children {
    fn piece<S: Side, const ROLE: usize>(&mut self, b: &Board, from: usize, targets: u64) {
        for to in bits(targets) {
            self.push(b, make_piece::<S, ROLE>(b, from, to));
        }
    }
    fn pawns<S: Side, const KIND: u8>(&mut self, b: &Board, targets: u64, step: i32) {
        for to in bits(targets) {
            let from = (to as i32 - step) as usize;
            if KIND >= PROMOTION {
                for role in [QUEEN, ROOK, BISHOP, KNIGHT] {
                    self.push(b, make_promotion::<S>(b, from, to, role));
                }
            } else {
                self.push(b, make_pawn::<S, KIND>(b, from, to));
            }
        }
    }
    fn en_passant<S: Side>(&mut self, b: &Board, from: usize, to: usize) {
        self.push(b, make_en_passant::<S>(b, from, to));
    }
    fn castle<S: Side>(&mut self, b: &Board, king: usize, rook: usize) {
        self.push(b, make_castle::<S>(b, king, rook));
    }
}

/// The children of `b` (side `turn`), with keys.
fn children(k: &Keyed, turn: Color) -> Vec<Keyed> {
    let mut out = Children::new(k.key);
    match turn {
        Color::White => generate::<White, Magic, _>(&k.board, &mut out),
        Color::Black => generate::<Black, Magic, _>(&k.board, &mut out),
    }
    out.kids
}

/// Below this depth a subtree is not worth splitting over threads.
const SPLIT_MIN_DEPTH: u32 = 4;

/// Leaf nodes of `b` split over the current rayon pool at the first `levels` plies.
fn split(b: &Keyed, turn: Color, depth: u32, tt: Option<&HashTable>, lookups: Lookups, levels: u32) -> u64 {
    if levels == 0 || depth < SPLIT_MIN_DEPTH {
        return run(b, turn, depth, tt, lookups);
    }
    if let Some(hit) = tt.and_then(|t| t.probe(b.key, depth)) {
        return hit;
    }
    let nodes = children(b, turn).par_iter().map(|c| split(c, !turn, depth - 1, tt, lookups, levels - 1)).sum();
    if let Some(t) = tt {
        t.store(b.key, depth, nodes);
    }
    nodes
}

/// Leaf nodes at `depth` below `pos`, counted on the current thread, with an
/// optional hash table. The same count as `perft` (tests hold it to that).
pub fn perft_fast(pos: &Position, depth: u32, tt: Option<&HashTable>) -> u64 {
    run(&Keyed::from_position(pos), pos.turn(), depth, tt, lookups())
}

/// As `perft_fast` with the portable fancy-magic copy of the hot path even
/// where PEXT and POPCNT are available (so that tests cover the fallback).
pub fn perft_fast_magic(pos: &Position, depth: u32, tt: Option<&HashTable>) -> u64 {
    run(&Keyed::from_position(pos), pos.turn(), depth, tt, Lookups::Magic)
}

/// Leaf nodes at `depth` below `pos` on every thread of the current rayon
/// pool (the tree is split over the first two plies), with an optional hash
/// table shared by all threads. Workers found sharing a core are moved to
/// idle ones for the search (see `spread`).
pub fn perft_fast_parallel(pos: &Position, depth: u32, tt: Option<&HashTable>) -> u64 {
    let _spread = (depth >= SPLIT_MIN_DEPTH).then(spread::spread);
    split(&Keyed::from_position(pos), pos.turn(), depth, tt, lookups(), 2)
}

/// Per-root-move counts on the current rayon pool (split over two plies), in
/// generation order, with `on_done` called after each root move; the hash
/// table is optional. This is what `divide --hash` can call.
pub fn divide_fast(
    pos: &Position,
    depth: u32,
    tt: Option<&HashTable>,
    on_done: &(dyn Fn() + Sync),
) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let lookups = lookups();
    let moves = pos.legal_moves();
    let _spread = (depth >= SPLIT_MIN_DEPTH).then(spread::spread);
    moves
        .as_slice()
        .par_iter()
        .map(|&m| {
            let child = pos.play(m);
            let n = split(&Keyed::from_position(&child), child.turn(), depth - 1, tt, lookups, 1);
            on_done();
            (m, n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_follow_position() {
        for fen in [
            crate::position::STARTPOS_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let b = Keyed::from_position(&pos);
            let kids = children(&b, pos.turn());
            let moves = pos.legal_moves();
            assert_eq!(kids.len(), moves.len());
            // Same children (the generation orders differ); equal boards
            // include equal keys, so the incremental key agrees too.
            for &m in moves.iter() {
                let next = Keyed::from_position(&pos.play(m));
                assert!(kids.contains(&next), "{fen} {m:?}");
            }
        }
    }
}
