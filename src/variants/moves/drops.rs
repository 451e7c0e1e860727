//! Hands and drops: the drops of the side to move, and playing a move
//! where the hands change (a drop leaves the hand, a capture joins the
//! capturer's hand, a promoted piece's `~` mark travels with it). Called
//! only in variants with `Laws::drops`: the plain path never looks at a
//! hand.

use super::movegen::Tables;
use super::play::Played;
use super::vocabulary::{Move, Special};
use crate::variants::board::{cell_kind, piece_cell, Position, EMPTY, NO_SQUARE};
use crate::variants::rules::Region;

impl Tables {
    /// Pushes the drops of the side to move: each kind in its hand onto
    /// each empty cell of its drop region.
    pub(crate) fn drop_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        let Some(drops) = &self.laws.drops else { return };
        if !drops.piece_drops {
            return;
        }
        if let Some(setup) = drops.setup.as_ref().filter(|_| self.setup_drops) {
            return self.setup_drop_moves(pos, drops, setup, out);
        }
        let us = pos.side;
        for (kind, &n) in pos.hands[us].iter().enumerate() {
            if n == 0 {
                continue;
            }
            let region = match drops.bound_cells.get(kind) {
                Some(Some(bound)) => &bound[us],
                _ if drops.pawn == Some(kind) => &drops.pawn_cells[us],
                _ => &drops.cells[us],
            };
            if self.laws.shogi.is_some() {
                self.shogi_drops(pos, kind, region, |mv| out.push(mv));
                continue;
            }
            for sq in self.geometry().squares() {
                if pos.cells[sq] == EMPTY && region.has(sq) {
                    out.push(Move::drop(kind, sq));
                }
            }
        }
    }

    /// The drops of `kind` onto the empty cells of `region` that shogi's
    /// rules allow (nifu, immobility; `dropPromoted` adds the promoted
    /// side up); pawn-drop mate is the legality test's.
    #[inline(always)]
    fn shogi_drops(&self, pos: &Position, kind: usize, region: &Region, mut drop: impl FnMut(Move)) {
        let shogi = self.laws.shogi.as_ref().expect("shogi rules");
        let files = self.shogi_doubled_files(pos, kind);
        let promoted = shogi.promotes_to[kind].filter(|_| shogi.drop_promoted);
        for sq in self.geometry().squares() {
            if pos.cells[sq] != EMPTY || !region.has(sq) {
                continue;
            }
            if self.shogi_drop_allowed(pos, kind, sq, files) {
                drop(Move::drop(kind, sq));
            }
            if let Some(p) = promoted.filter(|&p| self.shogi_drop_allowed(pos, p, sq, 0)) {
                drop(Move::drop(p, sq));
            }
        }
    }

    /// The number of drops `drop_moves` would push, without building them:
    /// the empty cells of the drop region (the pawn's for the pawn) for
    /// each kind in hand, less those shogi's drop rules refuse (but for
    /// pawn-drop mate: the caller counts no drops then). Out of check every
    /// drop is legal when no attack needs an occupied cell, and always
    /// without a royal piece (see `screened_legal`), so perft's last ply
    /// counts them here.
    pub(crate) fn count_drops(&self, pos: &Position) -> u64 {
        let Some(drops) = self.laws.drops.as_ref().filter(|d| d.piece_drops) else { return 0 };
        let us = pos.side;
        let hand = &pos.hands[us];
        if hand.iter().all(|&n| n == 0) {
            return 0;
        }
        // One pass over slices from the first square to the last (the
        // squares' iterator and the regions' checked lookups were most of
        // this count, and a pass per rank did not vectorise on small
        // boards). Regions cover the whole mailbox and hold no padding.
        let g = self.geometry();
        let span = g.cell(0, 0)..g.cell(g.width - 1, g.height - 1) + 1;
        let (board, region, pawn_region) =
            (&pos.cells[span.clone()], &drops.cells[us].0[span.clone()], &drops.pawn_cells[us].0[span]);
        let (mut cells, mut pawn_cells) = (0u32, 0u32);
        for ((&c, &ok), &pawn_ok) in board.iter().zip(region).zip(pawn_region) {
            let empty = u8::from(c == EMPTY);
            cells += u32::from(empty & u8::from(ok));
            pawn_cells += u32::from(empty & u8::from(pawn_ok));
        }
        let (cells, pawn_cells) = (u64::from(cells), u64::from(pawn_cells));
        // Only a kind that shogi's drop rules touch is counted cell by cell.
        let ruled = self.laws.shogi.as_ref().map(|s| &s.ruled[us]);
        let per_kind = |kind: usize| {
            if ruled.is_some_and(|r| r.get(kind).copied().unwrap_or(true)) {
                let region = if drops.pawn == Some(kind) { &drops.pawn_cells[us] } else { &drops.cells[us] };
                let mut n = 0;
                self.shogi_drops(pos, kind, region, |_| n += 1);
                n
            } else if drops.pawn == Some(kind) {
                pawn_cells
            } else {
                cells
            }
        };
        hand.iter().enumerate().filter(|&(_, &n)| n > 0).map(|(kind, _)| per_kind(kind)).sum()
    }

    /// `play_board` with the hands: a drop, or a move whose captures join
    /// the mover's hand and whose promoted marks move with the pieces.
    pub(crate) fn play_hands(&self, pos: &mut Position, mv: Move) -> Played {
        let us = pos.side;
        let drops = self.laws.drops.as_ref().expect("a variant with drops");
        if let Some(kind) = mv.dropped() {
            let played = Played::keeping(pos);
            pos.hands[us][self.hand_kind(kind)] -= 1;
            pos.put(mv.to as usize, piece_cell(kind, us), self.royal() == Some(kind));
            if self.setup_drops {
                self.castle_dropped(pos, kind, mv.to as usize);
            }
            pos.side ^= 1;
            (pos.ep, pos.ep_victim) = (NO_SQUARE, NO_SQUARE);
            return played;
        }
        let (from, to) = (mv.from as usize, mv.to as usize);
        let castle = mv.special == Special::Castle;
        let (mover_promoted, target_promoted) = (pos.promoted[from], pos.promoted[to]);
        let demoted = self.demotes(pos, mv);
        let mut played = self.play_board(pos, mv);
        if self.laws.seirawan_gating {
            self.play_gates(pos, mv, us);
        }
        if !castle {
            pos.promoted[from] = false;
            // A piece that turns back (`pieceDemotion`) loses its mark.
            pos.promoted[to] = (mover_promoted || mv.promo != 0) && !demoted;
            played.marks = u8::from(mover_promoted) | u8::from(target_promoted) << 1;
        }
        for i in 0..played.undo.ncaptured as usize {
            let (sq, cell) = played.undo.captured[i];
            let sq = sq as usize;
            let was_promoted = if sq == to {
                target_promoted
            } else {
                let marked = pos.promoted[sq];
                pos.promoted[sq] = false;
                played.marks |= u8::from(marked) << (2 + i);
                marked
            };
            if drops.captures_to_hand {
                let kind = match drops.pawn {
                    Some(pawn) if was_promoted && drops.demote => pawn,
                    _ => cell_kind(cell as u8),
                };
                // Shogi: a promoted piece joins the hand as the piece it was.
                let kind = self.laws.shogi.as_ref().and_then(|s| s.demotes_to[kind]).unwrap_or(kind);
                pos.hands[us][kind] += 1;
                played.gains[i] = kind as u8 + 1;
            }
        }
        played
    }

    /// The kind in hand that a drop of `kind` takes: the unpromoted kind
    /// of a piece dropped promoted side up (`dropPromoted`).
    #[inline]
    fn hand_kind(&self, kind: usize) -> usize {
        match &self.laws.shogi {
            Some(s) if s.drop_promoted => s.demotes_to[kind].unwrap_or(kind),
            _ => kind,
        }
    }

    /// Takes back a move made by `play_hands`.
    pub(crate) fn unplay_hands(&self, pos: &mut Position, mv: Move, played: &Played) {
        let us = pos.side ^ 1;
        if let Some(kind) = mv.dropped() {
            pos.lift(mv.to as usize);
            pos.hands[us][self.hand_kind(kind)] += 1;
            pos.side = us;
            played.restore(pos);
            return;
        }
        let (from, to) = (mv.from as usize, mv.to as usize);
        self.unplay_gate(pos, mv, us);
        for i in 0..played.undo.ncaptured as usize {
            if played.gains[i] != 0 {
                pos.hands[us][played.gains[i] as usize - 1] -= 1;
            }
            let sq = played.undo.captured[i].0 as usize;
            if sq != to {
                pos.promoted[sq] = played.marks >> (2 + i) & 1 != 0;
            }
        }
        if mv.special != Special::Castle {
            pos.promoted[to] = played.marks & 2 != 0;
            pos.promoted[from] = played.marks & 1 != 0;
        }
        self.unplay_board(pos, mv, played);
    }
}
