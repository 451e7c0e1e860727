//! Castling: the king and a rook of the castling rank to their fixed files,
//! as Fairy-Stockfish (and Chess960) castles; the path must be free and the
//! king must cross no attacked square.

use super::movegen::Tables;
use super::vocabulary::{Move, Special};
use crate::variants::board::{Position, Side, EMPTY, NO_SQUARE, WHITE};

impl Tables {
    /// The king's and the rook's destinations castling with the rook on `rook`.
    pub(crate) fn castling_targets(&self, side: Side, king: usize, rook: usize) -> (usize, usize) {
        let c = self.laws.castling.as_ref().expect("castling rules");
        let g = self.geometry();
        let rank = if side == WHITE { c.rank } else { g.height - 1 - c.rank };
        let kingside = rook > king;
        let kto = g.cell(if kingside { c.kingside_file } else { c.queenside_file }, rank);
        let rto = if kingside { kto - 1 } else { kto + 1 };
        (kto, rto)
    }

    /// The kind that castles as the king without being royal (giveaway's
    /// commoner), if any.
    pub(crate) fn plain_castling_king(&self) -> Option<usize> {
        let kind = self.laws.castling.as_ref()?.king_kind?;
        (self.royal() != Some(kind)).then_some(kind)
    }

    /// The cell of `side`'s castling king, or `NO_SQUARE`.
    pub(crate) fn castling_king(&self, pos: &Position, side: Side) -> u16 {
        if self.plain_castling_king().is_some() {
            pos.castle_king[side]
        } else {
            pos.royal[side]
        }
    }

    /// Castling moves whose squares are free (attacks are tested later).
    pub(crate) fn castlings(&self, pos: &Position, out: &mut Vec<Move>) {
        if self.laws.castling.is_none() {
            return;
        }
        let us = pos.side;
        let king = self.castling_king(pos, us);
        if king == NO_SQUARE {
            return;
        }
        let king = king as usize;
        for rook in pos.castle[us] {
            if rook == NO_SQUARE {
                continue;
            }
            let rook = rook as usize;
            let (kto, rto) = self.castling_targets(us, king, rook);
            let span = |a: usize, b: usize| a.min(b)..=a.max(b);
            let free =
                span(king, kto).chain(span(rook, rto)).all(|sq| sq == king || sq == rook || pos.cells[sq] == EMPTY);
            if free {
                out.push(Move { special: Special::Castle, ..Move::plain(king, rook) });
            }
        }
    }

    /// The king is not in check and crosses no attacked square (its
    /// destination included) on the board before castling.
    pub(crate) fn castling_path_safe(&self, pos: &mut Position, mv: Move) -> bool {
        // A king that is not royal castles through attacks (Fairy-Stockfish's
        // `Position::legal`: "Non-royal pieces can not be impeded from castling").
        if self.plain_castling_king().is_some() {
            return !self.is_pseudo_royal(pos, mv.from as usize) || self.pseudo_royal_castling_safe(pos, mv);
        }
        let us = pos.side;
        let (king, rook) = (mv.from as usize, mv.to as usize);
        let (kto, _) = self.castling_targets(us, king, rook);
        if self.royal_attacked(pos, king, us ^ 1) {
            return false;
        }
        let cell = pos.cells[king];
        let (lo, hi) = (king.min(kto), king.max(kto));
        for sq in lo..=hi {
            if sq == king {
                continue;
            }
            let before = pos.cells[sq];
            pos.cells[sq] = cell;
            let hit = self.royal_attacked(pos, sq, us ^ 1);
            pos.cells[sq] = before;
            if hit {
                return false;
            }
        }
        true
    }
}
