//! What a move is: `Move` (from, to, locust victims, promotion, wall) and
//! `Special` (pawn rush, en passant, castling), as every file of the room
//! and the rooms above read it.

/// A move: where the piece goes and the extra squares it captures on the
/// way (locust victims, sorted). Cells are the variant's mailbox cells.
/// Castling moves are stored as the king taking its own rook (`to` is the
/// rook's cell), as Fairy-Stockfish stores them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The cell the piece leaves.
    pub from: u16,
    /// The cell the piece lands on (the rook's cell for castling).
    pub to: u16,
    /// How many entries of `victims` are used.
    pub nvictims: u8,
    /// Cells captured on the way (locust victims), sorted.
    pub victims: [u16; MAX_VICTIMS],
    /// The kind promoted to, plus one (0: no promotion); for a drop, the
    /// kind dropped, plus one.
    pub promo: u8,
    /// What else the move does.
    pub special: Special,
    /// Seirawan gating: the kind that enters from the hand, plus one (0:
    /// none), on the square the piece leaves; with `GATE_ON_ROOK`, on the
    /// castling rook's square.
    pub gate: u8,
    /// Walling (`wallingRule`): the cell the move turns into a wall, 0 for
    /// none (cell 0 is padding, never a square). Written `d1a1,a1b1`.
    pub wall: u16,
}

/// `Move::gate`'s flag: the piece enters on the castling rook's square.
pub const GATE_ON_ROOK: u8 = 0x80;

/// Moves with more to them than from, to and captures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Special {
    /// A plain move.
    #[default]
    None,
    /// A pawn's double (or triple) step: leaves an en-passant square.
    PawnRush,
    /// A capture en passant: the victim is `victims[0]`, not a leg.
    EnPassant,
    /// Castling: the king from `from`, the rook from `to`.
    Castle,
    /// A piece of kind `promo - 1` from the hand onto `to` (`from == to`).
    Drop,
    /// A pass: nothing moves (`from == to`): janggi's king "moves" to its
    /// own square (`moves/passing.rs`); a stone game's pass is written from
    /// a square of the mover's, as Fairy-Stockfish writes it (`a1a1`).
    Pass,
}

/// The most locust victims in one move.
pub const MAX_VICTIMS: usize = 3;

impl Move {
    /// A move from `from` to `to` and nothing else.
    pub fn plain(from: usize, to: usize) -> Move {
        Move {
            from: from as u16,
            to: to as u16,
            nvictims: 0,
            victims: [0; MAX_VICTIMS],
            promo: 0,
            special: Special::None,
            gate: 0,
            wall: 0,
        }
    }

    /// A drop of `kind` from the hand onto `to`.
    pub fn drop(kind: usize, to: usize) -> Move {
        Move { promo: kind as u8 + 1, special: Special::Drop, ..Move::plain(to, to) }
    }

    /// A pass, written as a move from `sq` to itself.
    pub fn pass(sq: usize) -> Move {
        Move { special: Special::Pass, ..Move::plain(sq, sq) }
    }

    /// The kind dropped, if the move is a drop.
    pub fn dropped(&self) -> Option<usize> {
        (self.special == Special::Drop).then(|| self.promo as usize - 1)
    }

    /// The kind gated in and its square (the origin, or for castling with
    /// `GATE_ON_ROOK`, the rook's cell), if the move gates.
    pub fn gated(&self) -> Option<(usize, usize)> {
        if self.gate == 0 {
            return None;
        }
        let sq = if self.gate & GATE_ON_ROOK != 0 { self.to } else { self.from };
        Some(((self.gate & !GATE_ON_ROOK) as usize - 1, sq as usize))
    }

    /// The kind promoted to (or dropped), if any.
    pub fn promotion(&self) -> Option<usize> {
        self.promo.checked_sub(1).map(usize::from)
    }

    /// The squares captured on the way (locust victims; the pawn taken en passant).
    pub fn victims(&self) -> &[u16] {
        &self.victims[..self.nvictims as usize]
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_move_with_its_wall_stays_small() {
        assert!(std::mem::size_of::<super::Move>() <= 16);
    }
}
