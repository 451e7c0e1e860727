//! chesstool: exact legal move generation, perft and tools to verify other
//! engines' move generators.
//!
//! The library never prints and never exits; the binary's `cli` module does.

pub mod attacks;
pub mod board;
pub mod cli;
pub mod engines;
pub mod tools;

pub use board::{Bitboard, ByColor, Color, File, Piece, Rank, Role, Square};
pub mod movegen;
pub mod perft;
pub mod position;

pub use movegen::{Move, MoveList};
pub use position::Position;
