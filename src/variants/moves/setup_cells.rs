//! The tables of `setup_count.rs`, apart from the code that builds and
//! reads them (`movegen.rs` keeps them; `setup_count.rs` needs `Tables`).

use crate::variants::board::cellbits::CellBits;

/// What the count needs, built once when the variant's rules allow it.
#[derive(Debug, Clone)]
pub(crate) struct SetupCount {
    /// Per side: the drop region, the pawn's region, the rook's back-rank cells within the region.
    pub(super) region: [CellBits; 2],
    pub(super) pawn_region: [CellBits; 2],
    pub(super) back_rank: [CellBits; 2],
    /// Per (kind, side, cell): the cells a piece there attacks on an empty
    /// board's geometry (a shape leads there), the candidates to test.
    pub(super) reach: Vec<CellBits>,
    pub(super) cells: usize,
    pub(super) words: usize,
}
