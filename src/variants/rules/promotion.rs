//! Promotion: where, to what, whether it is compulsory, and limits.

use super::region::Region;

/// Whether a pawn reaching the promotion region must promote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mandatory {
    /// Every move into the region promotes (chess).
    Always,
    /// A pawn may stay a pawn, except where it could never move again
    /// (Grand: `mandatoryPawnPromotion = false`, `immobilityIllegal = true`).
    UnlessStuck,
    /// A pawn may stay a pawn anywhere.
    Never,
}

/// Promotion of pawns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Promotion {
    /// Where a pawn promotes, per side.
    pub region: [Region; 2],
    /// The kinds a pawn may become, per side.
    pub kinds: [Vec<usize>; 2],
    /// Must it promote?
    pub mandatory: Mandatory,
    /// Per kind: at most this many on the board after promoting (0: no
    /// limit). Grand's "only to a piece that has been captured".
    pub limit: Vec<u8>,
    /// Per side, kinds besides the pawn that promote as it does, a mask
    /// (`promotionPawnTypes`: wolf's sergeant; `promotionPawnTypesBlack`:
    /// spartan's hoplite).
    pub other_pawn_kinds: [u64; 2],
    /// One more kind the pawn may become, printed `+`
    /// (`promotedPieceType = p:e`: wolf's elephant).
    pub pawn_piece_promotion: Option<usize>,
    /// `sittuyinPromotion`: no promotion on moving into the region; a pawn
    /// promotes as a move of its own, in place or onto an empty cell the new
    /// piece attacks (`moves/in_place_promotion.rs`).
    pub in_place: bool,
}
