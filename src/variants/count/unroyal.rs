//! The last ply of perft for a side with no royal piece (horde's White):
//! with no rule that tests moves, every pseudo-legal move is legal, so the
//! pawns' moves are counted with shifts over the position's cell sets and
//! the other pieces' plain moves by their landings, building no move.

use crate::variants::board::{cell_kind, Position, NO_SQUARE};
use crate::variants::moves::movegen::Tables;
use crate::variants::moves::vocabulary::Move;

impl Tables {
    /// Can `count_unroyal` count the side to move of `pos`, which has no
    /// royal piece and no move the screen plays? (No rule that tests a
    /// move without a royal piece: checks, explosions, compulsory captures.)
    #[inline]
    pub(crate) fn counts_unroyal(&self, pos: &Position) -> bool {
        let laws = &self.laws;
        // Explosions endanger nothing where no kind is royal.
        !laws.no_checks
            && (!laws.blast || self.royal().is_none())
            && !laws.must_capture
            && laws.mutually_immune == 0
            && self.reparse.is_none()
            && self.pawn_path.as_ref().is_some_and(|p| pos.pawn_kind() == Some(p.kind))
    }

    /// The number of moves counted for sure (see `counts_unroyal`); the
    /// rest of the pseudo-legal moves (en passant, promotions, castling,
    /// pieces without plain landings) go to `moves`.
    #[inline(never)]
    pub(crate) fn count_unroyal(&self, pos: &mut Position, moves: &mut Vec<Move>) -> u64 {
        debug_assert!(pos.cells_indexed(), "cell sets out of date");
        let path = self.pawn_path.as_ref().expect("the pawn's path");
        let us = pos.side;
        let (pawns, mut n, npawns) = path.count_direct(pos, us);
        if pos.ep != NO_SQUARE {
            // Only a pawn beside the pawn that passed can take it.
            let victim = pos.ep as isize - path.forward[us];
            for from in [victim - 1, victim + 1].map(|c| c as usize) {
                if pawns.contains(from) {
                    self.en_passant(pos, from, moves);
                }
            }
        }
        if pos.lists[us].len() as u32 > npawns {
            for i in 0..pos.lists[us].len() {
                let from = pos.lists[us][i] as usize;
                if pawns.contains(from) {
                    continue;
                }
                if !self.has_extras_at(cell_kind(pos.cells[from]), from) && self.plain_landings(pos, from, |_| n += 1) {
                    continue;
                }
                self.general_moves(pos, from, moves);
            }
        }
        self.board_extras(pos, moves);
        n
    }
}
