//! Knight, king and pawn attack tables, built at compile time.

use super::reference::leaper_attacks;
use crate::board::{Bitboard, ByColor, Color, Square};

/// The eight (file, rank) steps of a knight.
pub const KNIGHT_STEPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
/// The eight (file, rank) steps of a king.
pub const KING_STEPS: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
const WHITE_PAWN_STEPS: [(i8, i8); 2] = [(-1, 1), (1, 1)];
const BLACK_PAWN_STEPS: [(i8, i8); 2] = [(-1, -1), (1, -1)];

const fn table(steps: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut t = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = Bitboard(leaper_attacks(Square::new(sq as u8), steps));
        sq += 1;
    }
    t
}

static KNIGHT: [Bitboard; 64] = table(&KNIGHT_STEPS);
static KING: [Bitboard; 64] = table(&KING_STEPS);
static PAWN: ByColor<[Bitboard; 64]> = ByColor { white: table(&WHITE_PAWN_STEPS), black: table(&BLACK_PAWN_STEPS) };

/// The squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

/// The squares a king on `sq` attacks.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color][sq.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(knight_attacks(Square::E4).count(), 8);
        assert_eq!(king_attacks(Square::H8).count(), 3);
        assert_eq!(pawn_attacks(Color::White, Square::A2), Bitboard::from_square(Square::B3));
        assert_eq!(pawn_attacks(Color::Black, Square::E5).count(), 2);
        assert!(pawn_attacks(Color::White, Square::H8).is_empty());
    }
}
