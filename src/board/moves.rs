//! `Move` (16 bits) and `MoveList` (fixed capacity, no heap).

use super::{Role, Square};
use std::fmt;

/// A move in 16 bits:
///
/// | bits  | meaning                                                     |
/// |-------|-------------------------------------------------------------|
/// | 0-5   | from square (0 = a1 ... 63 = h8)                            |
/// | 6-11  | to square; for castling the castling rook's square          |
/// | 12-13 | promotion piece: 0 knight, 1 bishop, 2 rook, 3 queen        |
/// | 14-15 | kind: 0 normal, 1 promotion, 2 en passant, 3 castling       |
///
/// Castling is encoded as "king takes own rook" so that Chess960 castling,
/// where the king may not move at all, has a unique encoding.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

/// What kind of move a [`Move`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// A move or a capture that is none of the others.
    Normal,
    /// A pawn reaching the last rank (with its new role).
    Promotion,
    /// An en passant capture.
    EnPassant,
    /// Castling, written as king takes own rook.
    Castling,
}

impl Move {
    /// A move of a piece from one square to another (a capture if `to` is occupied).
    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from as u16 | (to as u16) << 6)
    }

    /// `role` must be knight, bishop, rook or queen.
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        Move(from as u16 | (to as u16) << 6 | (role as u16 - 1) << 12 | 1 << 14)
    }

    /// An en passant capture by the pawn on `from` onto the empty square `to`.
    #[inline(always)]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move(from as u16 | (to as u16) << 6 | 2 << 14)
    }

    /// Castling, given as the king's square and the castling rook's square.
    #[inline(always)]
    pub const fn castling(king: Square, rook: Square) -> Move {
        Move(king as u16 | (rook as u16) << 6 | 3 << 14)
    }

    /// The square the piece leaves.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    /// The destination; for castling the rook's square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 6 & 63) as u8)
    }

    /// The kind of move.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 14 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castling,
        }
    }

    /// Whether the move castles (encoded as king takes own rook).
    #[inline(always)]
    pub const fn is_castling(self) -> bool {
        self.0 >> 14 == 3
    }

    /// Whether the move is an en passant capture.
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 14 == 2
    }

    /// The piece a pawn promotes to, if the move is a promotion.
    pub const fn promotion_role(self) -> Option<Role> {
        if self.0 >> 14 == 1 {
            Some(match self.0 >> 12 & 3 {
                0 => Role::Knight,
                1 => Role::Bishop,
                2 => Role::Rook,
                _ => Role::Queen,
            })
        } else {
            None
        }
    }

    /// Where the king ends up when castling: the g- or c-file of its rank.
    pub const fn castling_king_target(self) -> Square {
        let rank_base = self.from() as u8 & 56;
        if (self.to() as u8) > (self.from() as u8) {
            Square::new(rank_base + 6)
        } else {
            Square::new(rank_base + 2)
        }
    }

    /// Where the castling rook ends up: the f- or d-file of its rank.
    pub const fn castling_rook_target(self) -> Square {
        let rank_base = self.from() as u8 & 56;
        if (self.to() as u8) > (self.from() as u8) {
            Square::new(rank_base + 5)
        } else {
            Square::new(rank_base + 3)
        }
    }

    /// UCI notation. Castling is written as the king's two-square move
    /// (`e1g1`) in standard chess and as king takes rook (`e1h1`) in Chess960.
    pub fn to_uci(self, chess960: bool) -> String {
        let to = if self.is_castling() && !chess960 { self.castling_king_target() } else { self.to() };
        let mut s = format!("{}{}", self.from(), to);
        if let Some(role) = self.promotion_role() {
            s.push(role.char());
        }
        s
    }

    /// The 16 bits of the move.
    pub const fn raw(self) -> u16 {
        self.0
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_uci(true))?;
        if self.is_castling() {
            write!(f, "(castling)")?;
        } else if self.is_en_passant() {
            write!(f, "(ep)")?;
        }
        Ok(())
    }
}

/// The most legal moves any position has is 218; 256 leaves room.
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves on the stack.
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; MAX_MOVES],
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList { len: 0, moves: [Move(0); MAX_MOVES] }
    }

    /// Appends a move (the list holds at most `MAX_MOVES`).
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        // A legal position never has more than 218 moves; the check keeps an
        // impossible overflow a panic instead of memory corruption.
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// The number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// An iterator over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Whether the list holds `m`.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_is_16_bits_and_round_trips() {
        assert_eq!(std::mem::size_of::<Move>(), 2);
        let m = Move::promotion(Square::A7, Square::B8, Role::Queen);
        assert_eq!((m.from(), m.to(), m.promotion_role()), (Square::A7, Square::B8, Some(Role::Queen)));
        assert_eq!(m.to_uci(false), "a7b8q");
        let c = Move::castling(Square::E1, Square::H1);
        assert_eq!(c.to_uci(false), "e1g1");
        assert_eq!(c.to_uci(true), "e1h1");
        assert_eq!(Move::castling(Square::E8, Square::A8).to_uci(false), "e8c8");
        assert_eq!(Move::en_passant(Square::E5, Square::D6).kind(), MoveKind::EnPassant);
    }
}
