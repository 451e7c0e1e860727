//! FUSc#-style rotated bitboards (Buchner, "Rotated Bitboards and
//! Reinforcement Learning in Computer Chess and Beyond", sections 1.4 and 2.4,
//! appendix 6.1).
//!
//! The occupancy is kept four times: `normal` (a1 = bit 0), `l90` (the board
//! flipped so that every file is one byte), and the two "compressed" diagonal
//! boards `a1h8` and `a8h1`, where every byte holds one diagonal, or the two
//! pieces of two diagonals split by the board edge (`|` in the appendix). A
//! slider's line is then one byte of one board, and the attacks along it are
//! looked up in a table indexed by (square, byte).
//!
//! The square maps are read off the appendix's pictures the way the normal
//! board's picture is read: the top row is byte 7, the bottom row byte 0, and
//! the leftmost column is bit 0 of its byte. So square (file `f`, rank `r`) is
//! - `normal`: byte `r`, bit `f`;
//! - `l90`: byte `7 - f`, bit `7 - r`;
//! - `a1h8`: byte `(r - f) mod 8`, bit `f`;
//! - `a8h1`: byte `(r + f) mod 8`, bit `f`.

use super::reference::slider_attacks;
use crate::board::{Bitboard, Square};

/// One of the four occupancy boards FUSc# keeps.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Rotation {
    /// The ordinary board: one rank per byte.
    Normal,
    /// Flipped by 90 degrees: one file per byte (rook and queen file moves).
    L90,
    /// One a1-h8 diagonal (or two edge-split pieces) per byte.
    A1h8,
    /// One a8-h1 diagonal (or two edge-split pieces) per byte.
    A8h1,
}

impl Rotation {
    /// The four rotations, in FUSc#'s order.
    pub const ALL: [Rotation; 4] = [Rotation::Normal, Rotation::L90, Rotation::A1h8, Rotation::A8h1];

    /// The board's name as in FUSc# (`board.occ_l90` is `l90`).
    pub const fn name(self) -> &'static str {
        match self {
            Rotation::Normal => "normal",
            Rotation::L90 => "l90",
            Rotation::A1h8 => "a1h8",
            Rotation::A8h1 => "a8h1",
        }
    }

    /// The bit of this board that holds `sq`.
    #[inline(always)]
    pub const fn bit(self, sq: Square) -> u8 {
        let (f, r) = (sq as u8 & 7, sq as u8 >> 3);
        match self {
            Rotation::Normal => sq as u8,
            Rotation::L90 => (7 - f) * 8 + (7 - r),
            Rotation::A1h8 => (r.wrapping_sub(f) & 7) * 8 + f,
            Rotation::A8h1 => ((r + f) & 7) * 8 + f,
        }
    }

    /// The square that bit `bit` (0..64) of this board holds: the inverse of
    /// [`Rotation::bit`].
    #[inline(always)]
    pub const fn square(self, bit: u8) -> Square {
        let (byte, col) = ((bit >> 3) & 7, bit & 7);
        let (f, r) = match self {
            Rotation::Normal => (col, byte),
            Rotation::L90 => (7 - byte, 7 - col),
            Rotation::A1h8 => (col, (byte + col) & 7),
            Rotation::A8h1 => (col, byte.wrapping_sub(col) & 7),
        };
        Square::new(r * 8 + f)
    }

    /// Where the board edge (`|` in the appendix) splits byte `byte` of this
    /// board: the column after which it falls, or `None` if the byte is one
    /// whole line.
    pub const fn edge_after(self, byte: u8) -> Option<u8> {
        match self {
            Rotation::Normal | Rotation::L90 => None,
            Rotation::A1h8 if byte & 7 != 0 => Some(7 - (byte & 7)),
            Rotation::A8h1 if byte & 7 != 7 => Some(byte & 7),
            _ => None,
        }
    }

    /// The (file step, rank step) directions of the line this board stores
    /// per byte, each given twice to fit `slider_attacks`.
    const fn directions(self) -> [(i8, i8); 4] {
        match self {
            Rotation::Normal => [(1, 0), (-1, 0), (1, 0), (-1, 0)],
            Rotation::L90 => [(0, 1), (0, -1), (0, 1), (0, -1)],
            Rotation::A1h8 => [(1, 1), (-1, -1), (1, 1), (-1, -1)],
            Rotation::A8h1 => [(1, -1), (-1, 1), (1, -1), (-1, 1)],
        }
    }
}

/// The four occupancy boards, kept in step by [`RotatedBoards::set`] and
/// [`RotatedBoards::clear`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RotatedBoards {
    boards: [u64; 4],
}

impl RotatedBoards {
    /// No square occupied.
    pub const EMPTY: RotatedBoards = RotatedBoards { boards: [0; 4] };

    /// The boards of an occupancy given as a normal bitboard.
    pub fn from_occupied(occupied: Bitboard) -> RotatedBoards {
        let mut boards = RotatedBoards::EMPTY;
        for sq in occupied {
            boards.set(sq);
        }
        boards
    }

    /// The occupancy as a normal bitboard.
    #[inline(always)]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.boards[Rotation::Normal as usize])
    }

    /// The raw value of one of the four boards.
    #[inline(always)]
    pub const fn board(&self, rotation: Rotation) -> u64 {
        self.boards[rotation as usize]
    }

    /// Marks `sq` occupied in all four boards.
    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        for (board, bit) in self.boards.iter_mut().zip(BITS[sq.index()]) {
            *board |= 1 << bit;
        }
    }

    /// Marks `sq` empty in all four boards.
    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        for (board, bit) in self.boards.iter_mut().zip(BITS[sq.index()]) {
            *board &= !(1 << bit);
        }
    }

    /// The byte of board `rotation` that holds `sq`'s line: FUSc#'s
    /// `board.occ_l90.byte[l90_to_normal[from_nr] >> 3]` for `L90`.
    #[inline(always)]
    pub fn pattern(&self, rotation: Rotation, sq: Square) -> u8 {
        let byte = BITS[sq.index()][rotation as usize] >> 3;
        (self.boards[rotation as usize] >> (8 * byte)) as u8
    }

    /// Attacks along the line of board `rotation` through `sq`.
    #[inline(always)]
    pub fn line_attacks(&self, rotation: Rotation, sq: Square) -> Bitboard {
        line_attacks(rotation, sq, self.pattern(rotation, sq))
    }

    /// The squares a rook on `sq` attacks, read from the rotated boards.
    #[inline(always)]
    pub fn rook_attacks(&self, sq: Square) -> Bitboard {
        self.line_attacks(Rotation::Normal, sq) | self.line_attacks(Rotation::L90, sq)
    }

    /// The squares a bishop on `sq` attacks, read from the rotated boards.
    #[inline(always)]
    pub fn bishop_attacks(&self, sq: Square) -> Bitboard {
        self.line_attacks(Rotation::A1h8, sq) | self.line_attacks(Rotation::A8h1, sq)
    }

    /// The squares a queen on `sq` attacks, read from the rotated boards.
    #[inline(always)]
    pub fn queen_attacks(&self, sq: Square) -> Bitboard {
        self.rook_attacks(sq) | self.bishop_attacks(sq)
    }
}

/// `BITS[sq][rotation]`: the bit that holds `sq` in each board.
static BITS: [[u8; 4]; 64] = {
    let mut t = [[0; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut r = 0;
        while r < 4 {
            t[sq][r] = Rotation::ALL[r].bit(Square::new(sq as u8));
            r += 1;
        }
        sq += 1;
    }
    t
};

/// `rank_moves`, `file_moves`, `a1h8_moves` and `a8h1_moves` of FUSc#:
/// `TABLES[rotation][sq][pattern]` are the attacks along that board's line
/// through `sq` when the line's byte is `pattern`. Bits of the byte that
/// belong to the other piece of an edge-split byte are ignored, so a slider
/// never wraps around the edge.
static TABLES: [[[Bitboard; 256]; 64]; 4] = {
    let mut t = [[[Bitboard::EMPTY; 256]; 64]; 4];
    let mut r = 0;
    while r < 4 {
        let rotation = Rotation::ALL[r];
        let dirs = rotation.directions();
        let mut sq = 0;
        while sq < 64 {
            let square = Square::new(sq as u8);
            let line = slider_attacks(square, 0, &dirs);
            let byte = rotation.bit(square) >> 3;
            let mut pattern = 0;
            while pattern < 256 {
                let mut occupied = 0u64;
                let mut col = 0;
                while col < 8 {
                    if pattern & (1 << col) != 0 {
                        occupied |= 1u64 << rotation.square(byte * 8 + col) as u8;
                    }
                    col += 1;
                }
                t[r][sq][pattern] = Bitboard(slider_attacks(square, occupied & line, &dirs));
                pattern += 1;
            }
            sq += 1;
        }
        r += 1;
    }
    t
};

/// The lookup table entry: attacks along board `rotation`'s line through `sq`
/// when that line's byte is `pattern`.
#[inline(always)]
pub fn line_attacks(rotation: Rotation, sq: Square, pattern: u8) -> Bitboard {
    TABLES[rotation as usize][sq.index()][pattern as usize]
}

/// Rook attacks through the rotated boards of `occupied` (builds the boards
/// first; keep a [`RotatedBoards`] to avoid that).
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    RotatedBoards::from_occupied(occupied).rook_attacks(sq)
}

/// Bishop attacks through the rotated boards of `occupied`.
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    RotatedBoards::from_occupied(occupied).bishop_attacks(sq)
}

/// Queen attacks through the rotated boards of `occupied`.
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    RotatedBoards::from_occupied(occupied).queen_attacks(sq)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::{magic, reference};

    /// Appendix 6.1 of the FUSc# paper, verbatim (top row first).
    const APPENDIX: [(Rotation, [&str; 8]); 4] = [
        (
            Rotation::Normal,
            [
                "a8 b8 c8 d8 e8 f8 g8 h8",
                "a7 b7 c7 d7 e7 f7 g7 h7",
                "a6 b6 c6 d6 e6 f6 g6 h6",
                "a5 b5 c5 d5 e5 f5 g5 h5",
                "a4 b4 c4 d4 e4 f4 g4 h4",
                "a3 b3 c3 d3 e3 f3 g3 h3",
                "a2 b2 c2 d2 e2 f2 g2 h2",
                "a1 b1 c1 d1 e1 f1 g1 h1",
            ],
        ),
        (
            Rotation::L90,
            [
                "a8 a7 a6 a5 a4 a3 a2 a1",
                "b8 b7 b6 b5 b4 b3 b2 b1",
                "c8 c7 c6 c5 c4 c3 c2 c1",
                "d8 d7 d6 d5 d4 d3 d2 d1",
                "e8 e7 e6 e5 e4 e3 e2 e1",
                "f8 f7 f6 f5 f4 f3 f2 f1",
                "g8 g7 g6 g5 g4 g3 g2 g1",
                "h8 h7 h6 h5 h4 h3 h2 h1",
            ],
        ),
        (
            Rotation::A1h8,
            [
                "a8 | b1 c2 d3 e4 f5 g6 h7",
                "a7 b8 | c1 d2 e3 f4 g5 h6",
                "a6 b7 c8 | d1 e2 f3 g4 h5",
                "a5 b6 c7 d8 | e1 f2 g3 h4",
                "a4 b5 c6 d7 e8 | f1 g2 h3",
                "a3 b4 c5 d6 e7 f8 | g1 h2",
                "a2 b3 c4 d5 e6 f7 g8 | h1",
                "a1 b2 c3 d4 e5 f6 g7 h8",
            ],
        ),
        (
            Rotation::A8h1,
            [
                "a8 b7 c6 d5 e4 f3 g2 h1",
                "a7 b6 c5 d4 e3 f2 g1 | h8",
                "a6 b5 c4 d3 e2 f1 | g8 h7",
                "a5 b4 c3 d2 e1 | f8 g7 h6",
                "a4 b3 c2 d1 | e8 f7 g6 h5",
                "a3 b2 c1 | d8 e7 f6 g5 h4",
                "a2 b1 | c8 d7 e6 f5 g4 h3",
                "a1 | b8 c7 d6 e5 f4 g3 h2",
            ],
        ),
    ];

    #[test]
    fn square_maps_match_the_appendix_square_by_square() {
        for (rotation, rows) in APPENDIX {
            for (row, line) in rows.iter().enumerate() {
                let byte = 7 - row as u8;
                let tokens: Vec<&str> = line.split(' ').collect();
                let names: Vec<&str> = tokens.iter().copied().filter(|t| *t != "|").collect();
                assert_eq!(names.len(), 8, "{line}");
                for (col, name) in names.iter().enumerate() {
                    let sq = Square::parse(name).unwrap();
                    let bit = byte * 8 + col as u8;
                    assert_eq!(rotation.square(bit), sq, "{} bit {bit}", rotation.name());
                    assert_eq!(rotation.bit(sq), bit, "{} {sq}", rotation.name());
                }
                let edge = tokens.iter().position(|t| *t == "|").map(|i| i as u8 - 1);
                assert_eq!(rotation.edge_after(byte), edge, "{} row {row}", rotation.name());
            }
        }
    }

    /// The embedded appendix is checked against the paper itself when the
    /// source documents are at hand.
    #[test]
    fn embedded_appendix_is_the_papers() {
        let path = "/work/shared/seeds/001_1265de678d5a0069.txt";
        let Ok(paper) = std::fs::read_to_string(path) else {
            return;
        };
        let lines: Vec<&str> = paper.lines().map(str::trim).collect();
        for (_, rows) in APPENDIX {
            for row in rows {
                assert!(lines.contains(&row), "{row} not in the paper");
            }
        }
    }

    #[test]
    fn rotated_equals_magic_equals_reference_for_every_subset() {
        for sq in Square::ALL {
            for occ in reference::rook_mask(sq).subsets() {
                let want = reference::rook_attacks(sq, occ);
                assert_eq!(magic::rook_attacks_magic(sq, occ), want, "magic rook {sq} {occ:?}");
                assert_eq!(rook_attacks(sq, occ), want, "rotated rook {sq} {occ:?}");
            }
            for occ in reference::bishop_mask(sq).subsets() {
                let want = reference::bishop_attacks(sq, occ);
                assert_eq!(magic::bishop_attacks_magic(sq, occ), want, "magic bishop {sq} {occ:?}");
                assert_eq!(bishop_attacks(sq, occ), want, "rotated bishop {sq} {occ:?}");
            }
        }
    }

    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn rotated_equals_magic_equals_reference_on_random_boards() {
        let mut state = 0x9e37_79b9_7f4a_7c15;
        for i in 0..20_000 {
            // Sparse, medium and dense boards; the square itself may be occupied.
            let occ = match i % 3 {
                0 => xorshift(&mut state) & xorshift(&mut state) & xorshift(&mut state),
                1 => xorshift(&mut state),
                _ => xorshift(&mut state) | xorshift(&mut state),
            };
            let occ = Bitboard(occ);
            let boards = RotatedBoards::from_occupied(occ);
            for sq in Square::ALL {
                let rook = reference::rook_attacks(sq, occ);
                let bishop = reference::bishop_attacks(sq, occ);
                assert_eq!(boards.rook_attacks(sq), rook, "{sq} {occ:?}");
                assert_eq!(magic::rook_attacks_magic(sq, occ), rook, "{sq} {occ:?}");
                assert_eq!(boards.bishop_attacks(sq), bishop, "{sq} {occ:?}");
                assert_eq!(magic::bishop_attacks_magic(sq, occ), bishop, "{sq} {occ:?}");
                assert_eq!(boards.queen_attacks(sq), rook | bishop, "{sq} {occ:?}");
            }
        }
    }

    #[test]
    fn incremental_set_and_clear_keep_the_boards_in_step() {
        let mut state = 0x2545_f491_4f6c_dd1d;
        let mut boards = RotatedBoards::EMPTY;
        for _ in 0..10_000 {
            let sq = Square::new((xorshift(&mut state) & 63) as u8);
            if xorshift(&mut state) & 1 == 0 {
                boards.set(sq);
            } else {
                boards.clear(sq);
            }
            assert_eq!(boards, RotatedBoards::from_occupied(boards.occupied()));
        }
        for sq in Square::ALL {
            let mut one = RotatedBoards::EMPTY;
            one.set(sq);
            for rotation in Rotation::ALL {
                assert_eq!(one.board(rotation), 1 << rotation.bit(sq));
            }
            one.clear(sq);
            assert_eq!(one, RotatedBoards::EMPTY);
        }
    }

    #[test]
    fn patterns_are_the_lines_bytes() {
        // A rook on a1 with only a1 occupied: rank pattern 00000001 (paper 1.3.3).
        let boards = RotatedBoards::from_occupied(Bitboard::from_square(Square::A1));
        assert_eq!(boards.pattern(Rotation::Normal, Square::A1), 0b0000_0001);
        // l90 stores the a-file in byte 7 with a1 in bit 7.
        assert_eq!(boards.pattern(Rotation::L90, Square::A1), 0b1000_0000);
        assert_eq!(boards.board(Rotation::L90), 1 << 63);
    }
}
