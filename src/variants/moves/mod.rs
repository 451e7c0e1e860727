//! Move generation: what a move is, the attack shapes, the leg interpreter
//! (`Tables`), the moves and effects of each rule beyond a piece's Betza (a
//! file per rule), legality, and playing a move and taking it back. Uses
//! `board/`, `betza/` and `rules/` (layer 2).

pub(crate) mod blast;
pub(crate) mod castling;
pub(crate) mod game_end;
pub(crate) mod gate_moves;
pub(crate) mod legal;
pub mod movegen;
pub(crate) mod pawn_path;
pub(crate) mod pawns;
pub mod play;
pub(crate) mod played_rules;
pub(crate) mod promotion;
pub(crate) mod shapes;
pub(crate) mod simple_paths;
pub mod vocabulary;
