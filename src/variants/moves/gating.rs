//! Seirawan gating (Fairy-Stockfish's `seirawanGating`): when a piece
//! first leaves its back-rank square (a "gate", kept in `Position::gates`),
//! a piece from the hand may enter there; castling may gate onto the king's
//! or the rook's square. A gating move is legal when the move without the
//! gated piece is (Fairy-Stockfish's `Position::legal` does not look at the
//! entering piece): `emit_legal` adds them after each legal move.

use super::marks::Marks;
use super::movegen::Tables;
use super::vocabulary::{Move, Special, GATE_ON_ROOK};
use crate::variants::board::{piece_cell, Position, Side};

impl Tables {
    /// Calls `f` for each gating move that goes with the legal move `mv`:
    /// each kind in hand that may enter on the square `mv` leaves (for
    /// castling, also the rook's), if that square is a gate.
    #[inline]
    pub(crate) fn gate_each(&self, pos: &mut Position, mv: Move, f: &mut impl FnMut(&mut Position, Move)) {
        let us = pos.side;
        if pos.gates[us] == 0 || mv.special == Special::Drop {
            return;
        }
        let Some(drops) = &self.laws.drops else { return };
        let n = if mv.special == Special::Castle { 2 } else { 1 };
        for (sq, flag) in [(mv.from as usize, 0), (mv.to as usize, GATE_ON_ROOK)].into_iter().take(n) {
            if !self.is_gate(pos, us, sq) {
                continue;
            }
            for kind in 0..pos.hands[us].len() {
                if pos.hands[us][kind] == 0 {
                    continue;
                }
                // Where the kind may be dropped (Fairy-Stockfish's
                // `drop_region`): a pawn never enters on its first rank.
                let region = if drops.pawn == Some(kind) { &drops.pawn_cells[us] } else { &drops.cells[us] };
                if region.has(sq) {
                    f(pos, Move { gate: (kind as u8 + 1) | flag, ..mv });
                }
            }
        }
    }

    /// Marks the side to move's gates, so that perft's last ply tests the
    /// moves of the pieces standing there one by one (and gates them)
    /// instead of counting them in bulk.
    pub(crate) fn mark_gates(&self, pos: &Position, marks: &mut Marks) {
        let us = pos.side;
        let rank = self.gate_rank(us);
        for file in 0..self.geometry().width {
            if pos.gates[us] >> file & 1 == 1 {
                let c = self.geometry().cell(file, rank);
                marks[c >> 6] |= 1 << (c & 63);
            }
        }
    }

    /// After the board part of `mv` by `us`: the gated piece enters from
    /// the hand, and the gates left, castled from or captured on close; a
    /// side whose hand is empty for good (no captures to the hand) loses
    /// its gates, as Fairy-Stockfish's `do_move` has it.
    pub(crate) fn play_gates(&self, pos: &mut Position, mv: Move, us: Side) {
        if let Some((kind, sq)) = mv.gated() {
            pos.hands[us][kind] -= 1;
            pos.put(sq, piece_cell(kind, us), false);
        }
        let g = *self.geometry();
        let mut close = |side: Side, sq: usize| {
            let (f, r) = g.coords(sq);
            let rank = if side == crate::variants::board::WHITE { 0 } else { g.height - 1 };
            if r == rank {
                pos.gates[side] &= !(1 << f);
            }
        };
        close(us, mv.from as usize);
        if mv.special == Special::Castle {
            close(us, mv.to as usize);
        } else {
            close(us ^ 1, mv.to as usize);
        }
        let captures_to_hand = self.laws.drops.as_ref().is_some_and(|d| d.captures_to_hand);
        if !captures_to_hand && pos.hands[us].iter().all(|&n| n == 0) {
            pos.gates[us] = 0;
        }
    }

    /// Takes back the gated piece of `mv` by `us` (before the board part).
    pub(crate) fn unplay_gate(&self, pos: &mut Position, mv: Move, us: Side) {
        if let Some((kind, sq)) = mv.gated() {
            pos.lift(sq);
            pos.hands[us][kind] += 1;
        }
    }
}
