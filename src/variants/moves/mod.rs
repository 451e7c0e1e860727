//! Move generation: the attack shapes, the leg interpreter (`Tables`), the
//! moves and effects of each rule beyond a piece's Betza, legality, and
//! playing a move and taking it back. Uses `board/`, `betza/` and `rules/`
//! (layer 2).

pub(crate) mod gate_moves;
pub(crate) mod legal;
pub mod movegen;
pub(crate) mod pawn_path;
pub(crate) mod shapes;
pub mod special;
