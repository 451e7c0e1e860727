//! chesstool: exact legal move generation, perft, and tools to verify other
//! engines' move generators.
//!
//! Everything but `cli` is library code that never prints and never exits;
//! `cli` holds the command-line front end that the `chesstool` binary runs.

pub mod attacks;
pub mod board;
pub mod cli;
pub mod engines;
pub mod movegen;
pub mod perft;
pub mod position;
pub mod tools;
pub mod verify;

pub use board::{Bitboard, ByColor, Color, File, Piece, Rank, Role, Square};
pub use movegen::{Move, MoveList};
pub use position::Position;
