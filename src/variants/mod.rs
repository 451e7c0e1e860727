//! Fairy-chess variants: pieces in XBetza notation compiled to leg code,
//! boards up to 16x16, variants read from Fairy-Stockfish's `variants.ini`,
//! a leg-code interpreter for move generation, perft, and the `Rules` of the
//! hunt.

pub mod betza;
pub mod board;
pub mod builtin;
mod cambodian;
mod cellbits;
mod checkless;
pub mod explain;
pub mod explain_rules;
mod fen;
pub mod fuzz;
pub mod ini;
pub mod laws;
mod legal;
pub mod movegen;
mod pawn;
pub mod perft;
pub mod rules;
mod shapes;
pub mod show;
pub mod special;
mod unroyal;
pub mod variant;
pub mod view;

pub use board::Position;
pub use movegen::Move;
pub use variant::{Initial, PieceDef, Variant};
