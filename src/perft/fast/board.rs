//! The compact board of the fast path, the side to move as a type, and the
//! bit-set helpers the rest of it shares.

use crate::board::{Color, Role};
use crate::position::Position;

pub(super) const PAWN: usize = Role::Pawn as usize;
pub(super) const KNIGHT: usize = Role::Knight as usize;
pub(super) const BISHOP: usize = Role::Bishop as usize;
pub(super) const ROOK: usize = Role::Rook as usize;
pub(super) const QUEEN: usize = Role::Queen as usize;
pub(super) const KING: usize = Role::King as usize;

pub(super) const FILE_A: u64 = 0x0101_0101_0101_0101;
pub(super) const FILE_H: u64 = FILE_A << 7;
pub(super) const RANK_1: u64 = 0xff;
pub(super) const RANK_8: u64 = 0xff << 56;

/// The board of the fast path: role and colour sets, castling rooks and the
/// e.p. target as a set. The side to move is a type parameter, never stored;
/// the Zobrist key travels beside the board, and only where the hash table
/// needs it (80 bytes copy in five moves, 88 would take six).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    pub(super) role: [u64; 6],
    pub(super) color: [u64; 2],
    pub(super) castling: u64,
    pub(super) ep: u64,
}

/// A board with its Zobrist key.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Keyed {
    pub(super) board: Board,
    pub(super) key: u64,
}

impl Keyed {
    pub(super) fn from_position(pos: &Position) -> Keyed {
        let board = Board {
            role: Role::ALL.map(|r| pos.by_role(r).0),
            color: [pos.by_color(Color::White).0, pos.by_color(Color::Black).0],
            castling: pos.castling_rooks().0,
            ep: pos.ep_square().map_or(0, |sq| 1 << sq as u8),
        };
        Keyed { board, key: pos.key() }
    }
}

/// Side to move as a type, so that every colour-relative constant folds.
pub(super) trait Side {
    const US: usize;
    const WHITE: bool;
    type Opp: Side;
}
pub(super) struct White;
pub(super) struct Black;
impl Side for White {
    const US: usize = 0;
    const WHITE: bool = true;
    type Opp = Black;
}
impl Side for Black {
    const US: usize = 1;
    const WHITE: bool = false;
    type Opp = White;
}

pub(super) fn bits(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let sq = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(sq)
    })
}

#[inline(always)]
pub(super) fn shift(set: u64, step: i32) -> u64 {
    if step > 0 {
        set << step
    } else {
        set >> -step
    }
}
