//! `between` and `line`: the squares strictly between two aligned squares, and
//! the whole line through them. Used for check masks and pins.

use super::reference::{slider_attacks, BISHOP_DIRECTIONS, ROOK_DIRECTIONS};
use crate::board::{Bitboard, Square};

const fn build(full_line: bool) -> [[Bitboard; 64]; 64] {
    let mut t = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            if a != b {
                let (sa, sb) = (Square::new(a as u8), Square::new(b as u8));
                let bit_b = 1u64 << b;
                let bit_a = 1u64 << a;
                let mut value = 0;
                let mut d = 0;
                while d < 2 {
                    let dirs = if d == 0 { &ROOK_DIRECTIONS } else { &BISHOP_DIRECTIONS };
                    if slider_attacks(sa, 0, dirs) & bit_b != 0 {
                        value = if full_line {
                            (slider_attacks(sa, 0, dirs) & slider_attacks(sb, 0, dirs)) | bit_a | bit_b
                        } else {
                            slider_attacks(sa, bit_b, dirs) & slider_attacks(sb, bit_a, dirs)
                        };
                    }
                    d += 1;
                }
                t[a][b] = Bitboard(value);
            }
            b += 1;
        }
        a += 1;
    }
    t
}

static BETWEEN: [[Bitboard; 64]; 64] = build(false);
static LINE: [[Bitboard; 64]; 64] = build(true);

/// Squares strictly between `a` and `b` if they share a rank, file or
/// diagonal; empty otherwise.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The whole rank, file or diagonal through `a` and `b` (edge to edge),
/// or empty if they are not aligned.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}

/// Whether `c` lies on the line through `a` and `b`.
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn between_and_line() {
        assert_eq!(between(Square::A1, Square::D4), Bitboard::from_square(Square::B2) | Square::C3);
        assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(between(Square::E1, Square::E2), Bitboard::EMPTY);
        assert_eq!(line(Square::B2, Square::C3).count(), 8);
        assert_eq!(line(Square::E1, Square::E4), Bitboard::file(crate::board::File::E));
        assert!(line(Square::A1, Square::B3).is_empty());
        assert!(aligned(Square::A1, Square::H8, Square::D4));
    }
}
