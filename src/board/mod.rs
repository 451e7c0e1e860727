//! The board vocabulary: squares, bitboards, colours, pieces.

pub mod bitboard;
pub mod castling;
pub mod square;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use castling::CastlingRights;
pub use square::{File, Rank, Square};
pub use types::{ByColor, Color, Piece, Role};
