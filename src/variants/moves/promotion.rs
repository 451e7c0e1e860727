//! Promotion: the kinds a pawn (or a kind that promotes as one) may become
//! in the promotion region, whether it must, and the limits per kind.

use super::movegen::Tables;
use super::vocabulary::Move;
use crate::variants::board::{cell_kind, Position, Side, NO_SQUARE, OFF};
use crate::variants::rules::Mandatory;

impl Tables {
    /// Promotion of the moves from `start` on of a pawn, or of a kind
    /// that promotes as one (`promotionPawnTypes`).
    pub(crate) fn promotions(&self, pos: &Position, start: usize, out: &mut Vec<Move>) {
        // Sittuyin's promotion is a move of its own (`in_place_promotion.rs`).
        let Some(promotion) = self.laws.promotion.as_ref().filter(|p| !p.in_place) else { return };
        let us = pos.side;
        let up = self.forward(us);
        let pawn = self.laws.pawn.as_ref().map(|p| p.kind);
        let region = &promotion.region[us];
        let end = out.len();
        if !out[start..].iter().any(|mv| region.has(mv.to as usize)) {
            return;
        }
        // The moves as they stay or promote go after `end`, then take the
        // place of `start..end` (no list of their own to allocate).
        for i in start..end {
            let mv = out[i];
            let to = mv.to as usize;
            if !region.has(to) {
                out.push(mv);
                continue;
            }
            for &kind in &promotion.kinds[us] {
                let limit = promotion.limit.get(kind).copied().unwrap_or(0);
                if limit > 0 && self.count(pos, us, kind) >= limit as usize {
                    continue;
                }
                out.push(Move { promo: kind as u8 + 1, ..mv });
            }
            // Fairy-Stockfish's `promotedPieceType` of the pawn: one more
            // promotion, printed `+`, with no limit.
            if let Some(kind) = promotion.pawn_piece_promotion {
                if pawn == Some(cell_kind(pos.cells[mv.from as usize])) {
                    out.push(Move { promo: kind as u8 + 1, ..mv });
                }
            }
            let stays = match promotion.mandatory {
                Mandatory::Always => false,
                Mandatory::Never => true,
                Mandatory::UnlessStuck => pos.cells[(to as isize + up) as usize] != OFF,
            };
            if stays {
                out.push(mv);
            }
        }
        out.drain(start..end);
    }

    /// The pieces of `kind` that `side` has.
    pub(crate) fn count(&self, pos: &Position, side: Side, kind: usize) -> usize {
        if self.royal() == Some(kind) {
            // A side has at most one royal piece (the FEN reader refuses more).
            return usize::from(pos.royal[side] != NO_SQUARE);
        }
        pos.lists[side].iter().filter(|&&sq| cell_kind(pos.cells[sq as usize]) == kind).count()
    }
}
