//! Fairy-chess variants: pieces in XBetza notation compiled to leg code,
//! boards up to 16x16, variants read from Fairy-Stockfish's `variants.ini`,
//! a leg-code interpreter for move generation, perft, and the `Rules` of the
//! hunt.
//!
//! The room is a house of rooms that follow the data, from the text a user
//! writes to the answer the hunt gives. Each room uses only the rooms below
//! it, and the files of a room import each other in no circle
//! (`tests/layering.rs` checks both, and that no file passes 600 lines):
//!
//! ```text
//! 5  hunt/     what the hunt needs: the Rules trait for a variant, hints, fuzz walks, betza show
//! 4  count/    perft and its last-ply counters
//! 3  variant/  the variant as a whole (pieces, board, rules, tables), its FEN, variants.ini, the built-ins
//! 2  moves/    generation: the leg interpreter, each rule's moves and effects, legality, play and unplay
//! 1  rules/    the rules as one typed struct (Laws), read from variants.ini keys
//! 0  board/    geometry, the padded mailbox, cell sets, Position
//! 0  betza/    the XBetza parser and its compiler to leg code
//! ```
//!
//! A new rule is a field in `rules/`, its moves and effects a file in
//! `moves/` named by the rule, and, if it changes what a position holds,
//! a field of `board/`'s `Position`.

pub mod betza;
pub mod board;
pub mod count;
pub mod hunt;
pub mod moves;
pub mod rules;
pub mod variant;

pub use board::Position;
pub use moves::vocabulary::Move;
pub use variant::definition::{Initial, PieceDef, Variant};
