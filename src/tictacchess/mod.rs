//! TicTacChess, the 4x4 game of the source documents: each side has a pawn,
//! a knight, a bishop and a rook, all in hand at the start; a turn drops a
//! piece from hand, moves one, or captures (the captured piece goes back to
//! its owner's hand); whoever has just moved wins with all four pieces on one
//! line (rank, file or long diagonal).
//!
//! `board` is the ghost-column layout, `magics` the slider attacks from the
//! project's magic search, `position` the position string and move text,
//! `movegen` the legal moves, `perft` the counts, `rules` the hunt's contract,
//! `solve` the retrograde solution of the whole game.

pub mod board;
pub mod magics;
pub mod movegen;
pub mod perft;
pub mod position;
pub mod rules;
pub mod solve;

pub use board::{Color, Kind, Square};
pub use position::{Move, MoveError, Position, PositionError};
