//! Opening books in Ken Thompson's tree form, as Kathe Spracklen describes it
//! ("Representation of an Opening Book Tree"): one byte per move, the move
//! given as its index in our generator's legal-move order
//! (`Position::legal_moves`, documented in docs/formats/book.md), and two bits that
//! describe the whole tree. Also Polyglot `.bin` books, both ways.
//!
//! The byte layout (`format`):
//!
//! | bits | meaning |
//! |------|---------|
//! | 0-5  | the move's index in `legal_moves()` of the position before it (0..=62; 63 is never a move byte) |
//! | 6    | `(`: another choice follows in this position, after this move's line |
//! | 7    | `)`: the line ends after this move |
//!
//! Both bits together, `()`, make an extension byte whose bits 0-5 are a code
//! (see `format::ext`): indices above 62, "recognise but do not play", a line
//! ending before another choice, transposition pointers and style tags. A
//! book with no extension has exactly one byte per move.
//!
//! Every book starts from the standard start position.

pub mod dump;
pub mod format;
pub mod pgn;
pub mod polyglot;
mod polyglot_random;
pub mod probe;
pub mod text;
pub mod tree;
pub mod verify;
pub mod write;

pub use format::{FormatError, RawBook, RawNode};

pub use tree::{NodeId, Style, Tree};
