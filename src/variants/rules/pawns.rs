//! Pawns: which kind, where they step two or three, where they take en
//! passant and where they may move.

use super::region::Region;

/// Pawns: which kind, where they may step two, whether they take en passant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PawnLaws {
    /// The pawn's kind (index into the variant's pieces).
    pub kind: usize,
    /// Cells from which a pawn may step two, per side.
    pub double_step: [Region; 2],
    /// Cells from which a pawn may step three, per side.
    pub triple_step: [Region; 2],
    /// Where a pawn of each side may capture en passant (its destination).
    pub ep_region: [Region; 2],
    /// The pawn is a piece given in Betza (`pawnTypes`): its double step is
    /// an `i` move of the Betza, and it takes en passant with its
    /// capture-only moves.
    pub betza: bool,
    /// A Betza pawn may take en passant (`e` in its Betza, or `pawnTypes`).
    pub takes_ep: bool,
    /// A Betza pawn's steps that only its `i` moves make (on an empty
    /// board), per side and origin cell: (destination, the square passed
    /// over or `NO_SQUARE`). Filled in when the variant is built.
    pub rushes: Rushes,
    /// Where a pawn of each side may move to (`mobilityRegion...`).
    pub mobility: [Region; 2],
}

/// A Betza pawn's rush table: per side, per origin cell, (destination, the
/// square passed over or `NO_SQUARE`).
pub type Rushes = [Vec<Vec<(u16, u16)>>; 2];
