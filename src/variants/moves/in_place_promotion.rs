//! Sittuyin's promotion (`sittuyinPromotion`, `rules/promotion.rs`): a
//! pawn becomes a promotion kind as a move of its own, staying on its cell
//! (`e5e5f`) or stepping onto an empty cell the new piece attacks
//! (`e5f6f`), as Fairy-Stockfish's `movegen.cpp` generates it:
//! - with more than one pawn, only a pawn in the promotion region may
//!   promote; the last pawn may promote anywhere;
//! - `promotionLimit`: not to a kind the side already has that many of;
//! - the new piece may attack no enemy piece from its cell;
//! - the move may give no check, not even a discovered one
//!   (Fairy-Stockfish's `Position::legal`).
//!
//! Called only when `Promotion::in_place` is set.

use super::movegen::Tables;
use super::vocabulary::Move;
use crate::variants::board::{cell_kind, cell_side, piece_cell, Position, EMPTY, NO_SQUARE};

impl Tables {
    /// Pushes the in-place and diagonal promotions of the side to move.
    pub(crate) fn in_place_promotions(&self, pos: &mut Position, out: &mut Vec<Move>) {
        let (Some(promotion), Some(pawn)) = (&self.laws.promotion, &self.laws.pawn) else { return };
        let us = pos.side;
        let pawn = pawn.kind;
        let pawns: Vec<usize> =
            pos.lists[us].iter().map(|&sq| sq as usize).filter(|&sq| cell_kind(pos.cells[sq]) == pawn).collect();
        let last_pawn = pawns.len() == 1;
        let mut targets = Vec::new();
        for from in pawns {
            if !last_pawn && !promotion.region[us].has(from) {
                continue;
            }
            for &kind in &promotion.kinds[us] {
                let limit = promotion.limit.get(kind).copied().unwrap_or(0);
                if limit > 0 && self.count(pos, us, kind) >= limit as usize {
                    continue;
                }
                // The new piece's empty destinations from the pawn's cell.
                let pawn_cell = pos.cells[from];
                pos.cells[from] = piece_cell(kind, us);
                targets.clear();
                self.destinations(&mut pos.cells, from, Some(false), &mut targets);
                pos.cells[from] = pawn_cell;
                targets.retain(|&to| pos.cells[to as usize] == EMPTY);
                targets.push(from as u16);
                for &to in &targets {
                    if !self.attacks_enemy(pos, from, to as usize, kind) {
                        out.push(Move { promo: kind as u8 + 1, ..Move::plain(from, to as usize) });
                    }
                }
            }
        }
    }

    /// Would `kind` of the side to move, on `to` with `from` emptied, attack
    /// an enemy piece?
    fn attacks_enemy(&self, pos: &mut Position, from: usize, to: usize, kind: usize) -> bool {
        let us = pos.side;
        let (was_from, was_to) = (pos.cells[from], pos.cells[to]);
        pos.cells[from] = EMPTY;
        pos.cells[to] = piece_cell(kind, us);
        let mut hits = Vec::new();
        self.destinations(&mut pos.cells, to, Some(false), &mut hits);
        pos.cells[to] = was_to;
        pos.cells[from] = was_from;
        hits.iter().any(|&sq| {
            let c = pos.cells[sq as usize];
            c != EMPTY && cell_side(c) != us
        })
    }

    /// Is the promotion `mv` legal: the mover's royal piece safe, and no
    /// check given (a discovered one included)?
    pub(crate) fn in_place_promotion_legal(&self, pos: &mut Position, mv: Move) -> bool {
        let us = pos.side;
        let played = self.play_untested(pos, mv);
        let (mine, theirs) = (pos.royal[us], pos.royal[us ^ 1]);
        let ok = (mine == NO_SQUARE || !self.attacked(pos, mine as usize, us ^ 1))
            && (theirs == NO_SQUARE || !self.attacked(pos, theirs as usize, us));
        self.unplay(pos, mv, &played);
        ok
    }
}
