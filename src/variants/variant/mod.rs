//! The variant as a whole: its pieces, board, rules and move tables
//! (`definition.rs`), its positions in Fairy-Stockfish's FEN (`fen.rs`, with
//! the pieces' regions checked in `bounds_check.rs`),
//! the `variants.ini` reader (`ini.rs`), Fairy-Stockfish's built-in
//! variants as that same text (`builtin.ini`, `builtin.rs`), SFEN
//! (`sfen.rs`), and a user's
//! file read on top of them (`user_ini.rs`). Uses `board/`, `betza/`,
//! `rules/` and `moves/` (layer 3).

mod bounds_check;
pub mod builtin;
pub mod definition;
mod fen;
mod gating_fen;
pub mod ini;
pub mod sfen;
pub mod user_ini;

pub use definition::{FenError, Initial, PieceDef, Variant, VariantError};
