//! The 4x4 board in the "ghost column" layout of the source document: square
//! (file, rank) is bit `5 * rank + file` of a `u32`, so bits 4, 9, 14 and 19
//! (the ghost column) are never occupied. A one-square shift that leaves the
//! board sideways lands on a ghost bit instead of wrapping into the next rank,
//! which keeps pawn captures and the four-in-a-line test free of edge masks.

use std::fmt;

/// Bits of a board layout (only the 16 board bits are ever set).
pub type Bits = u32;

/// Bit step from a rank to the next: four files plus the ghost column.
pub const STRIDE: u8 = 5;
/// The 16 board squares.
pub const BOARD: Bits = 0b01111_01111_01111_01111;
/// Rank 1 and rank 4 (a pawn on its last rank is stuck).
pub const RANK_1: Bits = 0b01111;
/// Rank 4 (see `RANK_1`).
pub const RANK_4: Bits = 0b01111 << 15;

/// A square of the 4x4 board, kept as its bit index.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// a1, b1, c1, d1, a2, ... d4.
    pub const ALL: [Square; 16] = {
        let mut all = [Square(0); 16];
        let mut i = 0;
        while i < 16 {
            all[i] = Square::new(i as u8 % 4, i as u8 / 4);
            i += 1;
        }
        all
    };

    /// File 0..4 (a..d), rank 0..4 (1..4).
    pub const fn new(file: u8, rank: u8) -> Square {
        assert!(file < 4 && rank < 4);
        Square(rank * STRIDE + file)
    }

    /// The square at a bit index of the layout, if that bit is on the board.
    pub const fn from_bit(bit: u32) -> Option<Square> {
        if bit < 20 && bit % 5 != 4 {
            Some(Square(bit as u8))
        } else {
            None
        }
    }

    /// The square's bit index in the ghost-column layout.
    pub const fn bit(self) -> u32 {
        self.0 as u32
    }

    /// The square as a set of one bit.
    pub const fn bb(self) -> Bits {
        1 << self.0
    }

    /// The file, 0 (a) to 3 (d).
    pub const fn file(self) -> u8 {
        self.0 % STRIDE
    }

    /// The rank, 0 (rank 1) to 3 (rank 4).
    pub const fn rank(self) -> u8 {
        self.0 / STRIDE
    }

    /// 0..16 in the order of `ALL`.
    pub const fn dense(self) -> usize {
        (self.rank() * 4 + self.file()) as usize
    }

    /// The same file on the mirrored rank (a1 <-> a4).
    pub const fn flip_rank(self) -> Square {
        Square::new(self.file(), 3 - self.rank())
    }

    /// `a1` .. `d4`, in either case.
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'1');
        (file < 4 && rank < 4).then(|| Square::new(file, rank))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The squares of a set of bits, lowest first.
pub fn squares(mut bits: Bits) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let b = bits.trailing_zeros();
            bits &= bits - 1;
            Square(b as u8)
        })
    })
}

/// White moves first; its pawn walks towards rank 4.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// The side that moves first.
    White = 0,
    /// The side that moves second.
    Black = 1,
}

impl Color {
    /// The opponent.
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `White` or `Black`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }

    /// 0 for White, 1 for Black.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// The four pieces each side owns, in the order of the hand (`PNBR`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Kind {
    /// `P`: the pawn.
    Pawn = 0,
    /// `N`: the knight.
    Knight = 1,
    /// `B`: the bishop.
    Bishop = 2,
    /// `R`: the rook.
    Rook = 3,
}

impl Kind {
    /// The four pieces in the hand's order.
    pub const ALL: [Kind; 4] = [Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook];

    /// `P`, `N`, `B`, `R`.
    pub const fn letter(self) -> char {
        ['P', 'N', 'B', 'R'][self as usize]
    }

    /// `pawn`, `knight`, `bishop`, `rook`.
    pub const fn name(self) -> &'static str {
        ["pawn", "knight", "bishop", "rook"][self as usize]
    }

    /// The piece of a letter in either case.
    pub fn from_letter(c: char) -> Option<Kind> {
        match c.to_ascii_uppercase() {
            'P' => Some(Kind::Pawn),
            'N' => Some(Kind::Knight),
            'B' => Some(Kind::Bishop),
            'R' => Some(Kind::Rook),
            _ => None,
        }
    }

    /// 0 to 3 in the hand's order.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// The ten lines: four ranks, four files, the diagonal a1-d4 and the
/// anti-diagonal d1-a4.
pub const LINES: [Bits; 10] = {
    let mut lines = [0; 10];
    let mut i = 0;
    while i < 4 {
        lines[i] = 0b1111 << (5 * i);
        lines[4 + i] = (1 | 1 << 5 | 1 << 10 | 1 << 15) << i;
        i += 1;
    }
    lines[8] = 1 | 1 << 6 | 1 << 12 | 1 << 18;
    lines[9] = 1 << 3 | 1 << 7 | 1 << 11 | 1 << 15;
    lines
};

/// True if the pieces `occ` of one side (four at most) fill a line. Shifted
/// copies meet on a set bit only along a full line: the ghost column stops a
/// rank from running into the next, and the bits of a file (step 5), the
/// diagonal (step 6) and the anti-diagonal (step 4) can start nowhere else.
#[inline(always)]
pub const fn has_line(o: Bits) -> bool {
    (o & o >> 1 & o >> 2 & o >> 3)
        | (o & o >> 5 & o >> 10 & o >> 15)
        | (o & o >> 6 & o >> 12 & o >> 18)
        | (o & o >> 4 & o >> 8 & o >> 12)
        != 0
}

/// Knight targets of every bit (zero on ghost bits). Built from coordinates:
/// a two-file jump would cross a one-bit ghost column.
pub const KNIGHT: [Bits; 20] = {
    let mut t = [0; 20];
    let jumps: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
    let mut s = 0;
    while s < 16 {
        let sq = Square::ALL[s];
        let mut j = 0;
        while j < 8 {
            let f = sq.file() as i8 + jumps[j].0;
            let r = sq.rank() as i8 + jumps[j].1;
            if f >= 0 && f < 4 && r >= 0 && r < 4 {
                t[sq.0 as usize] |= Square::new(f as u8, r as u8).bb();
            }
            j += 1;
        }
        s += 1;
    }
    t
};

/// The squares a pawn of `color` on `from` captures on (diagonally forward).
#[inline(always)]
pub const fn pawn_captures(color: Color, from: Bits) -> Bits {
    match color {
        Color::White => (from << 4 | from << 6) & BOARD,
        Color::Black => (from >> 4 | from >> 6) & BOARD,
    }
}

/// The square a pawn of `color` on `from` steps to (empty if it is on its
/// last rank).
#[inline(always)]
pub const fn pawn_step(color: Color, from: Bits) -> Bits {
    match color {
        Color::White => (from << 5) & BOARD,
        Color::Black => from >> 5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_the_ten_lines() {
        for a in 0..1u32 << 16 {
            // Every set of at most four squares: a line iff one of LINES.
            if a.count_ones() > 4 {
                continue;
            }
            let bits: Bits = Square::ALL.iter().enumerate().filter(|(i, _)| a >> i & 1 == 1).map(|(_, s)| s.bb()).sum();
            let on_line = LINES.contains(&bits);
            assert_eq!(has_line(bits), on_line, "{bits:#b}");
        }
    }

    #[test]
    fn square_names() {
        assert_eq!(Square::parse("a1").unwrap().bit(), 0);
        assert_eq!(Square::parse("D4").unwrap().bit(), 18);
        assert_eq!(Square::parse("b3").unwrap().to_string(), "b3");
        assert!(Square::parse("e1").is_none() && Square::parse("a5").is_none() && Square::parse("a").is_none());
        assert_eq!(
            KNIGHT[Square::parse("a1").unwrap().bit() as usize],
            Square::parse("b3").unwrap().bb() | Square::parse("c2").unwrap().bb()
        );
    }

    #[test]
    fn pawns_never_leave_the_board() {
        for sq in Square::ALL {
            for c in [Color::White, Color::Black] {
                assert_eq!(pawn_captures(c, sq.bb()) & !BOARD, 0);
                let last = if c == Color::White { 3 } else { 0 };
                assert_eq!(pawn_step(c, sq.bb()) == 0, sq.rank() == last);
                let expect = squares(BOARD).filter(|t| {
                    let dr = if c == Color::White { 1 } else { -1 };
                    t.rank() as i8 - sq.rank() as i8 == dr && (t.file() as i8 - sq.file() as i8).abs() == 1
                });
                assert_eq!(pawn_captures(c, sq.bb()), expect.map(Square::bb).sum::<Bits>());
            }
        }
    }
}
