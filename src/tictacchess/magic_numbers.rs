//! Magic numbers of the TicTacChess slider attacks (4x4 board, stride 5),
//! found by `tools::magic::search` from the seed below. Generated: the test
//! `tictacchess::magics::tests::numbers_are_what_the_search_finds` re-runs the
//! search and compares (`TTC_WRITE_MAGICS=1` rewrites this file).

use super::Magic;

/// The seed of the magic search that found these numbers.
pub const SEED: u64 = 1;

/// The rook's magic of every bit of the layout (ghost bits unused).
pub const ROOK: [Magic; 20] = [
    Magic { mask: 0x00426, magic: 0x2088000000000000, shift: 60 }, // a1
    Magic { mask: 0x00844, magic: 0x2104000000000000, shift: 61 }, // b1
    Magic { mask: 0x01082, magic: 0x4044000000000000, shift: 61 }, // c1
    Magic { mask: 0x02106, magic: 0x2424000000000000, shift: 60 }, // d1
    Magic { mask: 0x00000, magic: 0x0000000000000000, shift: 63 }, // ghost column
    Magic { mask: 0x004c0, magic: 0x00a0000000000000, shift: 61 }, // a2
    Magic { mask: 0x00880, magic: 0x0090000000000000, shift: 62 }, // b2
    Magic { mask: 0x01040, magic: 0x0108000000000000, shift: 62 }, // c2
    Magic { mask: 0x020c0, magic: 0x0144000000000000, shift: 61 }, // d2
    Magic { mask: 0x00000, magic: 0x0000000000000000, shift: 63 }, // ghost column
    Magic { mask: 0x01820, magic: 0x0212000000000000, shift: 61 }, // a3
    Magic { mask: 0x01040, magic: 0x0204000000000000, shift: 62 }, // b3
    Magic { mask: 0x00880, magic: 0x0108000000000000, shift: 62 }, // c3
    Magic { mask: 0x01900, magic: 0x0028000000000000, shift: 61 }, // d3
    Magic { mask: 0x00000, magic: 0x0000000000000000, shift: 63 }, // ghost column
    Magic { mask: 0x30420, magic: 0x0220100000000000, shift: 60 }, // a4
    Magic { mask: 0x20840, magic: 0x0104400000000000, shift: 61 }, // b4
    Magic { mask: 0x11080, magic: 0x0104200000000000, shift: 61 }, // c4
    Magic { mask: 0x32100, magic: 0x0044100000000000, shift: 60 }, // d4
    Magic { mask: 0x00000, magic: 0x0000000000000000, shift: 63 }, // ghost column
];

/// The bishop's magic of every bit of the layout (ghost bits unused).
pub const BISHOP: [Magic; 20] = [
    Magic { mask: 0x01040, magic: 0x0108000000000000, shift: 62 }, // a1
    Magic { mask: 0x00080, magic: 0x0100000000000000, shift: 63 }, // b1
    Magic { mask: 0x00040, magic: 0x0200000000000000, shift: 63 }, // c1
    Magic { mask: 0x00880, magic: 0x0090000000000000, shift: 62 }, // d1
    Magic { mask: 0x00000, magic: 0x0000000000000000, shift: 63 }, // ghost column
    Magic { mask: 0x00800, magic: 0x0010000000000000, shift: 63 }, // a2
    Magic { mask: 0x01000, magic: 0x0008000000000000, shift: 63 }, // b2
    Magic { mask: 0x00800, magic: 0x0010000000000000, shift: 63 }, // c2
    Magic { mask: 0x01000, magic: 0x0008000000000000, shift: 63 }, // d2
    Magic { mask: 0x00000, magic: 0x0000000000000000, shift: 63 }, // ghost column
    Magic { mask: 0x00040, magic: 0x0200000000000000, shift: 63 }, // a3
    Magic { mask: 0x00080, magic: 0x0100000000000000, shift: 63 }, // b3
    Magic { mask: 0x00040, magic: 0x0200000000000000, shift: 63 }, // c3
    Magic { mask: 0x00080, magic: 0x0100000000000000, shift: 63 }, // d3
    Magic { mask: 0x00000, magic: 0x0000000000000000, shift: 63 }, // ghost column
    Magic { mask: 0x00880, magic: 0x0108000000000000, shift: 62 }, // a4
    Magic { mask: 0x01000, magic: 0x0008000000000000, shift: 63 }, // b4
    Magic { mask: 0x00800, magic: 0x0010000000000000, shift: 63 }, // c4
    Magic { mask: 0x01040, magic: 0x0204000000000000, shift: 62 }, // d4
    Magic { mask: 0x00000, magic: 0x0000000000000000, shift: 63 }, // ghost column
];
