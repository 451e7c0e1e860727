//! The board vocabulary: squares, bitboards, colours, pieces, moves.

pub mod bitboard;
pub mod castling;
pub mod moves;
pub mod square;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use castling::CastlingRights;
pub use moves::{Move, MoveKind, MoveList, MAX_MOVES};
pub use square::{File, Rank, Square};
pub use types::{ByColor, Color, Piece, Role};
