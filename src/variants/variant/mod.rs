//! The variant as a whole: its pieces, board, rules and move tables
//! (`Variant`), its positions in Fairy-Stockfish's FEN, the reading of a
//! `variants.ini` file, and Fairy-Stockfish's built-in variants as the
//! same text. Uses `board/`, `betza/`, `rules/` and `moves/` (layer 3).

pub mod builtin;
pub mod definition;
mod fen;
pub mod ini;
