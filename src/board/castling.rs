//! Castling rights, stored as the squares of the rooks that may still castle.
//!
//! Keeping rook squares instead of four flags covers Chess960, where the
//! castling rooks may start on any file, and makes losing a right trivial:
//! a move from or to a rook's square clears it.

use super::{Bitboard, Color, Rank};

/// The castling rights: the squares of the rooks that may still castle.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CastlingRights(Bitboard);

impl CastlingRights {
    /// No right at all.
    pub const NONE: CastlingRights = CastlingRights(Bitboard::EMPTY);

    /// Squares of every rook that may still castle (both colours).
    #[inline(always)]
    pub const fn rooks(self) -> Bitboard {
        self.0
    }

    /// Squares of `color`'s rooks that may still castle.
    #[inline(always)]
    pub fn rooks_of(self, color: Color) -> Bitboard {
        let back_rank = if color.is_white() { Rank::First } else { Rank::Eighth };
        self.0 & Bitboard::rank(back_rank)
    }

    /// Whether the rook on `rook` may still castle.
    #[inline(always)]
    pub fn contains(self, rook: super::Square) -> bool {
        self.0.contains(rook)
    }

    /// Gives the rook on `rook` the right to castle.
    pub fn add(&mut self, rook: super::Square) {
        self.0 |= rook;
    }

    /// Clears the rights of the rooks on `squares`; returns the ones that were set.
    #[inline(always)]
    pub fn remove(&mut self, squares: Bitboard) -> Bitboard {
        let removed = self.0 & squares;
        self.0 &= !squares;
        removed
    }
}
