//! Counting: perft, with the last ply counted without playing its moves
//! (the plain, no-check and royal-less paths). Uses every room below
//! (layer 4).

pub(crate) mod checkless;
pub mod perft;
pub(crate) mod unroyal;
