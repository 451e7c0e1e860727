//! Perft on variants: the last ply is counted without playing its moves,
//! the root moves are shared among rayon's threads.

use crate::variants::board::{piece_cell, Position, Undo, NO_SQUARE};
use crate::variants::moves::vocabulary::{Move, Special};
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
    // Promotions and walls that leave the others standing change one cell
    // more (`plain_make`): such moves are plain too.
    let plain = variant.tables.laws.plain_with_extras() && pos.ep == NO_SQUARE && pos.ep_victim == NO_SQUARE;
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
                    let undo = plain_make(pos, mv, royal);
                    nodes += perft_in(variant, pos, depth - 1, deeper, scratch, true);
                    plain_unmake(pos, mv, &undo, royal);
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

/// A move where no rule acts (`Laws::plain_with_extras`): the board's
/// `make`, the promoted piece, the wall.
#[inline(always)]
fn plain_make(pos: &mut Position, mv: Move, royal: Option<usize>) -> Undo {
    debug_assert!(mv.special == Special::None, "no rush, en passant or castling: {mv:?}");
    let (from, to, us) = (mv.from as usize, mv.to as usize, pos.side);
    let undo = pos.make(from, to, mv.victims(), royal);
    if let Some(kind) = mv.promotion() {
        pos.set_piece(to, piece_cell(kind, us));
    }
    if mv.wall != 0 {
        pos.raise_wall(mv.wall as usize);
    }
    undo
}

/// Takes back `plain_make`.
#[inline(always)]
fn plain_unmake(pos: &mut Position, mv: Move, undo: &Undo, royal: Option<usize>) {
    let (from, to) = (mv.from as usize, mv.to as usize);
    if mv.wall != 0 {
        pos.lower_wall(mv.wall as usize);
    }
    if mv.promotion().is_some() {
        pos.set_piece(to, undo.moved);
    }
    pos.unmake(from, to, undo, royal);
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
