//! Counting: perft, with the last ply counted without playing its moves
//! (`last_ply.rs`: the plain path; `checkless.rs` where checks are not
//! allowed; `unroyal.rs` for a side without a royal piece; `stones.rs` for stone
//! games, on bit sets). Uses every room
//! below (layer 4).

pub(crate) mod checkless;
pub(crate) mod last_ply;
pub mod perft;
pub(crate) mod stones;
pub(crate) mod unroyal;
