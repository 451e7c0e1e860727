//! Attack sets of every piece. Sliders use fancy magic bitboards (`magic`);
//! `rotated` is the FUSc#-style second implementation and `reference` the slow
//! ray walker both are tested against.

pub mod leapers;
pub mod lines;
pub mod magic;
mod magic_numbers;
pub mod reference;
pub mod rotated;

pub use leapers::{king_attacks, knight_attacks, pawn_attacks};
pub use lines::{aligned, between, line};
pub use magic_numbers::{BISHOP_MAGICS, ROOK_MAGICS};

use crate::board::{Bitboard, Square};

/// The squares a rook on `sq` attacks, `occupied` blocking (the first blocker included).
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic::rook_attacks_magic(sq, occupied)
}

/// The squares a bishop on `sq` attacks, `occupied` blocking (the first blocker included).
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic::bishop_attacks_magic(sq, occupied)
}

/// The squares a queen on `sq` attacks: rook and bishop together.
#[inline(always)]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}
