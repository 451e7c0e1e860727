//! Legal moves. Every move is legal as generated (there is no check); a
//! position whose side that just moved has four in a line has none.
//!
//! Order (the documented order of `legal_moves`): the pieces of the side to
//! move in the order pawn, knight, bishop, rook; for each, its drops when it
//! is in hand, else its moves, by target square a1, b1, ... d4.

use super::board::{pawn_captures, pawn_step, squares, Bits, Color, Kind, Square, BOARD, KNIGHT};
use super::magics::{bishop_attacks, rook_attacks};
use super::position::{Move, Position, HAND};

/// The most moves a position can have: four pieces in hand, 16 empty squares.
pub const MAX_MOVES: usize = 64;

/// A fixed-capacity move list (no heap).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    #[inline(always)]
    fn new() -> MoveList {
        MoveList { moves: [Move::drop(Kind::Pawn, Square::ALL[0]); MAX_MOVES], len: 0 }
    }

    #[inline(always)]
    fn push(&mut self, m: Move) {
        // Safety net, not a hot branch: MAX_MOVES is the proven maximum.
        debug_assert!(self.len < MAX_MOVES);
        self.moves[self.len] = m;
        self.len += 1;
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

/// Targets of piece `kind` of `us` standing on `from`.
#[inline(always)]
pub fn targets(pos: &Position, us: Color, kind: Kind, from: Square) -> Bits {
    let own = pos.occ[us as usize];
    let all = pos.occupied();
    match kind {
        Kind::Pawn => (pawn_step(us, from.bb()) & !all) | (pawn_captures(us, from.bb()) & pos.occ[us.other() as usize]),
        Kind::Knight => KNIGHT[from.bit() as usize] & !own,
        Kind::Bishop => bishop_attacks(from, all) & !own,
        Kind::Rook => rook_attacks(from, all) & !own,
    }
}

impl Position {
    /// The legal moves, in the documented order.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.for_each_move(|m| list.push(m));
        list
    }

    /// Calls `f` for every legal move, in the documented order.
    #[inline(always)]
    pub fn for_each_move(&self, mut f: impl FnMut(Move)) {
        if self.winner().is_some() {
            return;
        }
        let us = self.turn;
        let empty = !self.occupied() & BOARD;
        for kind in Kind::ALL {
            match Square::from_bit(self.at[us as usize][kind as usize] as u32) {
                None => squares(empty).for_each(|to| f(Move::drop(kind, to))),
                Some(from) => squares(targets(self, us, kind, from)).for_each(|to| f(Move::step(kind, from, to))),
            }
        }
    }

    /// The number of legal moves (the last ply of perft), without listing them.
    #[inline(always)]
    pub fn count_moves(&self) -> u32 {
        if self.winner().is_some() {
            return 0;
        }
        let us = self.turn;
        let empty = (!self.occupied() & BOARD).count_ones();
        let mut n = 0;
        for kind in Kind::ALL {
            n += match Square::from_bit(self.at[us as usize][kind as usize] as u32) {
                None => empty,
                Some(from) => targets(self, us, kind, from).count_ones(),
            };
        }
        n
    }

    /// The position after a legal move (copy-make).
    #[inline(always)]
    pub fn play(&self, m: Move) -> Position {
        let mut next = *self;
        let us = self.turn as usize;
        let them = 1 - us;
        let to = m.to();
        if let Some(from) = m.from() {
            next.occ[us] ^= from.bb();
            if self.occ[them] & to.bb() != 0 {
                // A capture: the piece goes back to its owner's hand.
                next.occ[them] ^= to.bb();
                for slot in next.at[them].iter_mut() {
                    if *slot == to.bit() as u8 {
                        *slot = HAND;
                    }
                }
            }
        }
        next.occ[us] |= to.bb();
        next.at[us][m.kind() as usize] = to.bit() as u8;
        next.turn = self.turn.other();
        next
    }
}
