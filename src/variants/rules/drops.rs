//! Hands and drops: a piece in hand may be put on an empty square instead
//! of a move (`pieceDrops`), captured pieces join the capturer's hand
//! (`capturesToHand`), a promoted piece goes back as a pawn unless
//! `dropLoop`, and pawns are not dropped on the first rank
//! (`firstRankPawnDrops`) nor in their promotion zone
//! (`promotionZonePawnDrops`), as Fairy-Stockfish's `variant.h` names them.

use super::region::Region;
use super::setup::SetupDrops;

/// The drop rules of a variant with hands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drops {
    /// A captured piece joins the capturer's hand (`capturesToHand`).
    pub captures_to_hand: bool,
    /// A promoted piece captured joins the hand as the pawn it was
    /// (`dropLoop = false`); with `dropLoop` it keeps its promoted kind.
    pub demote: bool,
    /// The FEN writes promoted pieces' `~` marks: captures go to a hand
    /// (this board's or, `twoBoards`, the partner's) and promoted pieces
    /// are demoted there, as Fairy-Stockfish writes them.
    pub write_marks: bool,
    /// Pieces in hand may be dropped (`pieceDrops`); without it the hands
    /// only feed Seirawan gating.
    pub piece_drops: bool,
    /// The kind whose drops `pawn_cells` limits (the variant's pawn).
    pub pawn: Option<usize>,
    /// Per side, where a piece may be dropped (`whiteDropRegion`,
    /// `blackDropRegion`; the whole board by default).
    pub cells: [Region; 2],
    /// Per side, where the pawn may be dropped: `cells` without the first
    /// rank and the promotion zone unless the keys allow them.
    pub pawn_cells: [Region; 2],
    /// Set-up rules (`mustDrop`, `dropOppositeColoredBishop`,
    /// `castlingDroppedPiece`), if any.
    pub setup: Option<SetupDrops>,
    /// A drop may give check (`dropChecks`, true by default).
    pub checks: bool,
    /// Per kind, per side, the cells a bound piece may be dropped on (the
    /// cells it could reach from its start squares, within its region:
    /// Supply's general, advisors, elephants and soldiers); filled by
    /// `Variant::new`, empty: no kind is bound.
    pub bound_cells: Vec<Option<[Region; 2]>>,
}
