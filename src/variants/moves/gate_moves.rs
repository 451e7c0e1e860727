//! Cambodian chess's first moves (Fairy-Stockfish's `cambodianMoves`): an
//! unmoved king may leap as a knight to the rank in front, not out of
//! check, and an unmoved met may step two squares straight forward. The
//! rights ("gates") sit on back-rank files, as the FEN's `DEde` names them.

use super::movegen::Tables;
use super::vocabulary::Move;
use crate::variants::board::{cell_kind, Position, Side, EMPTY, NO_SQUARE, WHITE};

impl Tables {
    /// The back rank of `side` (0-based).
    pub(crate) fn gate_rank(&self, side: Side) -> u8 {
        if side == WHITE {
            0
        } else {
            self.geometry().height - 1
        }
    }

    /// Is `sq` a gate of `side` in `pos`?
    pub(crate) fn is_gate(&self, pos: &Position, side: Side, sq: usize) -> bool {
        let (f, r) = self.geometry().coords(sq);
        r == self.gate_rank(side) && pos.gates[side] >> f & 1 == 1
    }

    /// The king's leaps and the met's double steps of the side to move.
    pub(crate) fn cambodian_moves(&self, pos: &mut Position, out: &mut Vec<Move>) {
        let Some(rules) = &self.laws.cambodian else { return };
        let us = pos.side;
        if pos.gates[us] == 0 {
            return;
        }
        let g = *self.geometry();
        let s = g.stride as isize;
        let up = if us == WHITE { s } else { -s };
        let king = pos.royal[us];
        if king != NO_SQUARE && self.is_gate(pos, us, king as usize) && !self.attacked(pos, king as usize, us ^ 1) {
            let king = king as usize;
            for to in [king as isize + up - 2, king as isize + up + 2].map(|t| t as usize) {
                if pos.cells[to] == EMPTY {
                    out.push(Move::plain(king, to));
                }
            }
        }
        let Some(fers) = rules.fers else { return };
        for i in 0..pos.lists[us].len() {
            let from = pos.lists[us][i] as usize;
            if cell_kind(pos.cells[from]) != fers || !self.is_gate(pos, us, from) {
                continue;
            }
            // A leap onto an empty square only (Fairy-Stockfish's movegen).
            let to = (from as isize + 2 * up) as usize;
            if pos.cells[to] == EMPTY {
                out.push(Move::plain(from, to));
            }
        }
    }

    /// After `mv` by `us`: a gate left or landed on is gone, and a rook that
    /// moves onto the line of the opponent's unmoved king takes its leap away.
    pub(crate) fn close_gates(&self, pos: &mut Position, mv: Move, us: Side) {
        let g = *self.geometry();
        for (side, sq) in [(us, mv.from as usize), (us ^ 1, mv.to as usize)] {
            let (f, r) = g.coords(sq);
            if r == self.gate_rank(side) {
                pos.gates[side] &= !(1 << f);
            }
        }
        let rook = self.laws.cambodian.as_ref().and_then(|c| c.rook);
        let king = pos.royal[us ^ 1];
        let to = mv.to as usize;
        if king == NO_SQUARE || rook.is_none() || Some(cell_kind(pos.cells[to])) != rook {
            return;
        }
        let king = king as usize;
        if !self.is_gate(pos, us ^ 1, king) {
            return;
        }
        // "Aimed by a rook" (Fairy-Stockfish's `do_move`): on the king's
        // file or rank, whatever stands between.
        let ((kf, kr), (rf, rr)) = (g.coords(king), g.coords(to));
        if kf == rf || kr == rr {
            pos.gates[us ^ 1] &= !(1 << kf);
        }
    }
}
