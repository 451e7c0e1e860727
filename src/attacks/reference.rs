//! The slow reference: walks rays square by square. It is the oracle that the
//! magic and rotated lookups are tested against, and it builds their tables
//! (it is `const`, so tables can be built at compile time).

use crate::board::{Bitboard, Square};

/// (file step, rank step) of the rook's four rays.
pub const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// (file step, rank step) of the bishop's four rays.
pub const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (-1, -1), (1, -1), (-1, 1)];

/// Squares reached from `sq` along `dirs`, each ray stopping at (and
/// including) the first occupied square.
pub const fn slider_attacks(sq: Square, occupied: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut file = (sq as u8 & 7) as i8 + df;
        let mut rank = (sq as u8 >> 3) as i8 + dr;
        while file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            let bit = 1u64 << (rank * 8 + file);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            file += df;
            rank += dr;
        }
        d += 1;
    }
    attacks
}

/// The rook's attacks walked ray by ray (the slow oracle).
pub const fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(slider_attacks(sq, occupied.0, &ROOK_DIRECTIONS))
}

/// The bishop's attacks walked ray by ray (the slow oracle).
pub const fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(slider_attacks(sq, occupied.0, &BISHOP_DIRECTIONS))
}

/// The queen's attacks walked ray by ray (the slow oracle).
pub const fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(rook_attacks(sq, occupied).0 | bishop_attacks(sq, occupied).0)
}

/// The squares whose occupancy matters for a slider on `sq`: its empty-board
/// rays without the last square of each ray (an edge blocker changes nothing).
pub const fn relevant_mask(sq: Square, dirs: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut file = (sq as u8 & 7) as i8 + df;
        let mut rank = (sq as u8 >> 3) as i8 + dr;
        while file + df >= 0 && file + df < 8 && rank + dr >= 0 && rank + dr < 8 {
            mask |= 1u64 << (rank * 8 + file);
            file += df;
            rank += dr;
        }
        d += 1;
    }
    mask
}

/// The rook's relevant occupancy mask: its rays without the board's edge.
pub const fn rook_mask(sq: Square) -> Bitboard {
    Bitboard(relevant_mask(sq, &ROOK_DIRECTIONS))
}

/// The bishop's relevant occupancy mask: its rays without the board's edge.
pub const fn bishop_mask(sq: Square) -> Bitboard {
    Bitboard(relevant_mask(sq, &BISHOP_DIRECTIONS))
}

/// Squares a leaper on `sq` reaches with the given (file, rank) steps.
pub const fn leaper_attacks(sq: Square, steps: &[(i8, i8)]) -> u64 {
    let mut attacks = 0u64;
    let mut i = 0;
    while i < steps.len() {
        let file = (sq as u8 & 7) as i8 + steps[i].0;
        let rank = (sq as u8 >> 3) as i8 + steps[i].1;
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            attacks |= 1u64 << (rank * 8 + file);
        }
        i += 1;
    }
    attacks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rook_in_corner_on_empty_board() {
        assert_eq!(rook_attacks(Square::A1, Bitboard::EMPTY).count(), 14);
        assert_eq!(rook_mask(Square::A1).count(), 12);
        assert_eq!(rook_mask(Square::E4).count(), 10);
        assert_eq!(bishop_mask(Square::E4).count(), 9);
        assert_eq!(bishop_mask(Square::A1).count(), 6);
    }

    #[test]
    fn rays_stop_at_blockers() {
        let occ = Bitboard::from_square(Square::E6) | Square::C4;
        let att = rook_attacks(Square::E4, occ);
        assert!(att.contains(Square::E6) && !att.contains(Square::E7));
        assert!(att.contains(Square::C4) && !att.contains(Square::B4));
        assert!(att.contains(Square::H4) && att.contains(Square::E1));
    }
}
