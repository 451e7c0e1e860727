//! Copy-make: the child board for each kind of move, and the child's
//! Zobrist key from what changed (only where the hash table needs it).

use super::board::{bits, Board, Side, BISHOP, KING, KNIGHT, PAWN, QUEEN, RANK_1, RANK_8, ROOK};
use super::generate::{CAPTURE, DOUBLE_PUSH};
use super::lookups::{pawn_hits, sq};
use crate::board::{zobrist, Color, Role};

/// Removes whatever stands on `to` (nothing, for a quiet move): cheaper than
/// finding out which role it is.
#[inline(always)]
fn clear<S: Side>(c: &mut Board, to: u64) {
    for r in [PAWN, KNIGHT, BISHOP, ROOK, QUEEN] {
        c.role[r] &= !to;
    }
    c.color[1 - S::US] &= !to;
}

#[inline(always)]
pub(super) fn make_piece<S: Side, const ROLE: usize>(b: &Board, from: usize, to: usize) -> Board {
    let (f, t) = (1u64 << from, 1u64 << to);
    let mut c = *b;
    // Why the branch: against clearing every square, startpos d6 1.021x,
    // Kiwipete d5 1.002x, pos3 d7 1.038x, pos4 d6 1.004x, pos5 d5 1.027x
    // (`scripts/ab_perft.py`, 7 rounds, medians).
    if b.color[1 - S::US] & t != 0 {
        clear::<S>(&mut c, t);
    }
    c.role[ROLE] ^= f | t;
    c.color[S::US] ^= f | t;
    // A rook leaving or taken on its castling square loses the right.
    c.castling &= !(f | t);
    if ROLE == KING {
        c.castling &= if S::WHITE { !RANK_1 } else { !RANK_8 };
    }
    c.ep = 0;
    c
}

#[inline(always)]
pub(super) fn make_pawn<S: Side, const KIND: u8>(b: &Board, from: usize, to: usize) -> Board {
    let (f, t) = (1u64 << from, 1u64 << to);
    let mut c = *b;
    if KIND == CAPTURE {
        clear::<S>(&mut c, t);
        c.castling &= !t;
    }
    c.role[PAWN] ^= f | t;
    c.color[S::US] ^= f | t;
    c.ep = 0;
    if KIND == DOUBLE_PUSH {
        // The e.p. square is kept only if an enemy pawn could take there, as
        // `Position` does, so that keys agree.
        let ep = (from + to) / 2;
        if pawn_hits(S::WHITE, ep) & b.role[PAWN] & b.color[1 - S::US] != 0 {
            c.ep = 1 << ep;
        }
    }
    c
}

#[inline(always)]
pub(super) fn make_promotion<S: Side>(b: &Board, from: usize, to: usize, role: usize) -> Board {
    let (f, t) = (1u64 << from, 1u64 << to);
    let mut c = *b;
    clear::<S>(&mut c, t);
    c.castling &= !t;
    c.role[PAWN] ^= f;
    c.role[role] |= t;
    c.color[S::US] ^= f | t;
    c.ep = 0;
    c
}

#[inline(always)]
pub(super) fn make_en_passant<S: Side>(b: &Board, from: usize, to: usize) -> Board {
    let captured = if S::WHITE { to - 8 } else { to + 8 };
    let mut c = *b;
    c.role[PAWN] ^= 1 << from | 1 << to | 1 << captured;
    c.color[S::US] ^= 1 << from | 1 << to;
    c.color[1 - S::US] ^= 1 << captured;
    c.ep = 0;
    c
}

#[inline(always)]
pub(super) fn make_castle<S: Side>(b: &Board, king: usize, rook: usize) -> Board {
    let base = king & 56;
    let (king_to, rook_to) = if rook > king { (base + 6, base + 5) } else { (base + 2, base + 3) };
    let mut c = *b;
    c.role[KING] = (c.role[KING] & !(1 << king)) | 1 << king_to;
    c.role[ROOK] = (c.role[ROOK] & !(1 << rook)) | 1 << rook_to;
    c.color[S::US] = (c.color[S::US] & !(1 << king) & !(1 << rook)) | 1 << king_to | 1 << rook_to;
    c.castling &= if S::WHITE { !RANK_1 } else { !RANK_8 };
    c.ep = 0;
    c
}

/// The child's Zobrist key from the parent's and what changed between them
/// (works for every kind of move; only needed where the hash table is used).
pub(super) fn key_after(parent: &Board, parent_key: u64, child: &Board) -> u64 {
    let mut key = parent_key ^ zobrist::turn_key();
    for (ci, color) in Color::ALL.into_iter().enumerate() {
        for role in Role::ALL {
            let r = role as usize;
            let changed = (parent.color[ci] & parent.role[r]) ^ (child.color[ci] & child.role[r]);
            for s in bits(changed) {
                key ^= zobrist::piece_key(color, role, sq(s));
            }
        }
    }
    for s in bits(parent.castling ^ child.castling) {
        key ^= zobrist::castling_key(sq(s));
    }
    for s in bits(parent.ep ^ child.ep) {
        key ^= zobrist::ep_key(sq(s));
    }
    key
}
