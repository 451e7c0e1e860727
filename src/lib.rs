//! chesstool: exact legal move generation, perft, and tools to verify other
//! engines' move generators.
//!
//! The library never prints and never exits: the command-line front end
//! lives in the binary crate (`src/main.rs` and `src/cli/`).

pub mod attacks;
pub mod board;
pub mod book;
pub mod chess;
pub mod engines;
pub mod input;
pub mod movegen;
pub mod perft;
pub mod position;
pub mod rules;
pub mod tictacchess;
pub mod tools;
pub mod variants;
pub mod verify;

pub use board::{Bitboard, ByColor, Color, File, Piece, Rank, Role, Square};
pub use movegen::{Move, MoveList};
pub use position::Position;
