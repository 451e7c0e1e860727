//! Squares, files and ranks: `#[repr(u8)]` enums with checked conversions.

use std::fmt;

/// A file (column) of the board, `A` to `H`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[rustfmt::skip]
#[allow(missing_docs)] // the names are the documentation
pub enum File {
    A, B, C, D, E, F, G, H,
}

/// A rank (row) of the board, `First` to `Eighth`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[rustfmt::skip]
#[allow(missing_docs)] // the names are the documentation
pub enum Rank {
    First, Second, Third, Fourth, Fifth, Sixth, Seventh, Eighth,
}

impl File {
    /// The files a to h.
    pub const ALL: [File; 8] = [File::A, File::B, File::C, File::D, File::E, File::F, File::G, File::H];

    /// The file with index `i` (0 = a); `i` is taken modulo 8.
    #[inline]
    pub const fn new(i: u8) -> File {
        File::ALL[(i & 7) as usize]
    }

    /// The file of a letter `a` to `h`.
    pub fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File::new(c as u8 - b'a')),
            _ => None,
        }
    }

    /// The file's letter, `a` to `h`.
    pub fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// The file's letter in upper case, `A` to `H` (Shredder-FEN's White castling).
    pub fn upper_char(self) -> char {
        (b'A' + self as u8) as char
    }
}

impl Rank {
    /// The ranks 1 to 8.
    pub const ALL: [Rank; 8] =
        [Rank::First, Rank::Second, Rank::Third, Rank::Fourth, Rank::Fifth, Rank::Sixth, Rank::Seventh, Rank::Eighth];

    /// The rank with index `i` (0 = first); `i` is taken modulo 8.
    #[inline]
    pub const fn new(i: u8) -> Rank {
        Rank::ALL[(i & 7) as usize]
    }

    /// The rank of a digit `1` to `8`.
    pub fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank::new(c as u8 - b'1')),
            _ => None,
        }
    }

    /// The rank's digit, `1` to `8`.
    pub fn char(self) -> char {
        (b'1' + self as u8) as char
    }
}

/// A square, numbered a1 = 0, b1 = 1, ..., h8 = 63 (little-endian rank-file mapping).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[rustfmt::skip]
#[allow(missing_docs)] // the names are the documentation
pub enum Square {
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
}

impl Square {
    /// Every square in index order.
    pub const ALL: [Square; 64] = {
        let mut all = [Square::A1; 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square::new(i as u8);
            i += 1;
        }
        all
    };

    /// The square with index `i`; `i` is taken modulo 64.
    #[inline(always)]
    pub const fn new(i: u8) -> Square {
        // Safety: `Square` is `repr(u8)` with exactly the 64 values 0..=63.
        unsafe { std::mem::transmute::<u8, Square>(i & 63) }
    }

    /// The square with index `i`, or `None` if `i >= 64`.
    pub const fn try_new(i: u32) -> Option<Square> {
        if i < 64 {
            Some(Square::new(i as u8))
        } else {
            None
        }
    }

    /// The square on a file and a rank.
    #[inline(always)]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square::new(file as u8 | (rank as u8) << 3)
    }

    /// The square's number, 0 (a1) to 63 (h8).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The square's file.
    #[inline(always)]
    pub const fn file(self) -> File {
        File::new(self as u8 & 7)
    }

    /// The square's rank.
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank::new(self as u8 >> 3)
    }

    /// The square `delta` steps further on in index order, if it is on the board.
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self as i32 + delta;
        if 0 <= i && i < 64 {
            Some(Square::new(i as u8))
        } else {
            None
        }
    }

    /// The same square seen from the other side (a1 <-> a8).
    #[inline(always)]
    pub const fn flip_vertical(self) -> Square {
        Square::new(self as u8 ^ 56)
    }

    /// Parses `e4`-style names.
    pub fn parse(s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let file = File::from_char(chars.next()?)?;
        let rank = Rank::from_char(chars.next()?)?;
        if chars.next().is_some() {
            return None;
        }
        Some(Square::from_coords(file, rank))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl std::str::FromStr for Square {
    type Err = ();
    fn from_str(s: &str) -> Result<Square, ()> {
        Square::parse(s).ok_or(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::ALL {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("e4"), Some(Square::E4));
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a11"), None);
        assert_eq!(Square::E4.file(), File::E);
        assert_eq!(Square::E4.rank(), Rank::Fourth);
    }
}
