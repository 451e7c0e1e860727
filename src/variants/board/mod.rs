//! The board: a geometry up to 16x16 as a padded mailbox, the cell
//! encoding, cell sets as bits, and `Position` with its make and unmake of
//! plain moves. Uses nothing else of the variants (layer 0).

pub(crate) mod cellbits;
mod position;

pub use position::*;
