//! Shogi's rules on moves (`rules::Shogi`): a piece that promotes may do
//! so on a move that starts or ends in its zone (`e7e8+`), a piece may not
//! stay where it could never move again (`immobilityIllegal`: a pawn or
//! lance on the last rank, a knight on the last two), drops avoid those
//! cells and a second unpromoted pawn's file (`dropNoDoubled`), and a pawn
//! drop that mates is illegal (`shogiPawnDropMateIllegal`); with
//! `mandatoryPiecePromotion` a move in or into the zone must promote, and
//! `dropNoDoubledCount` lets a file hold that many pawns. With
//! `pieceDemotion` a promoted piece turns back as a piece promotes
//! (`a1a2-`), with `piecePromotionOnCapture` only on a capture, and with
//! `dropPromoted` a piece may be dropped either side up. Called only in
//! variants with `Laws::shogi`.

use super::movegen::Tables;
use super::vocabulary::Move;
use crate::variants::board::{cell_kind, piece_cell, Position, EMPTY, NO_SQUARE};
use crate::variants::rules::Region;

impl Tables {
    /// The promotions (or, with `pieceDemotion`, the turns back) of the
    /// moves from `start` on of the piece on `from`, less the moves that
    /// leave it where it could never move again or that had to flip.
    pub(crate) fn shogi_promotions(&self, pos: &Position, from: usize, start: usize, out: &mut Vec<Move>) {
        let Some(shogi) = &self.laws.shogi else { return };
        let us = pos.side;
        let kind = cell_kind(pos.cells[from]);
        let flipped = shogi.promotes_to[kind].or_else(|| shogi.demotes_to[kind].filter(|_| shogi.demotion));
        let Some(flipped) = flipped else { return };
        let region = &shogi.region[us];
        let end = out.len();
        let from_in = region.has(from);
        // May the move flip the piece: in the zone, and with
        // `piecePromotionOnCapture` only when it takes.
        let may_flip = |mv: &Move| {
            (from_in || region.has(mv.to as usize)) && (!shogi.on_capture || pos.cells[mv.to as usize] != EMPTY)
        };
        for i in start..end {
            let mv = out[i];
            if may_flip(&mv) {
                out.push(Move { promo: flipped as u8 + 1, ..mv });
            }
        }
        if shogi.immobility || shogi.mandatory {
            let stuck = &shogi.stuck[us][kind];
            let mut kept = start;
            for i in start..out.len() {
                let mv = out[i];
                let to = mv.to as usize;
                // An unflipped move the rules forbid: where the piece could
                // never move again, or one that had to flip.
                if i < end && (shogi.immobility && stuck.has(to) || shogi.mandatory && may_flip(&mv)) {
                    continue;
                }
                out[kept] = mv;
                kept += 1;
            }
            out.truncate(kept);
        }
    }

    /// Is `mv` a move that turns a promoted piece back (`pieceDemotion`,
    /// written `a1a2-`)?
    pub(crate) fn demotes(&self, pos: &Position, mv: Move) -> bool {
        let Some(shogi) = self.laws.shogi.as_ref().filter(|s| s.demotion) else { return false };
        mv.dropped().is_none()
            && mv.promotion().is_some_and(|k| shogi.demotes_to[cell_kind(pos.cells[mv.from as usize])] == Some(k))
    }

    /// May the side to move drop `kind` on `sq` by shogi's rules (the
    /// cell's emptiness and the drop region aside)? `files`: the files
    /// (bits) where it already has a piece of the `dropNoDoubled` kind.
    #[inline]
    pub(crate) fn shogi_drop_allowed(&self, pos: &Position, kind: usize, sq: usize, files: u32) -> bool {
        let Some(shogi) = &self.laws.shogi else { return true };
        if shogi.immobility && shogi.stuck[pos.side][kind].has(sq) {
            return false;
        }
        shogi.no_doubled != Some(kind) || files >> self.coords[sq].0 & 1 == 0
    }

    /// The files (bits) where the side to move has a piece of the
    /// `dropNoDoubled` kind, when it is `kind`; 0 otherwise.
    /// With `dropNoDoubledCount` above 1: the files holding that many.
    pub(crate) fn shogi_doubled_files(&self, pos: &Position, kind: usize) -> u32 {
        let Some(shogi) = self.laws.shogi.as_ref().filter(|s| s.no_doubled == Some(kind)) else { return 0 };
        let cell = piece_cell(kind, pos.side);
        let on_board = pos.lists[pos.side].iter().filter(|&&sq| pos.cells[sq as usize] == cell);
        if shogi.doubled_count == 1 {
            return on_board.fold(0, |m, &sq| m | 1 << self.coords[sq as usize].0);
        }
        let mut per_file = [0u8; 32];
        let mut full = 0;
        for &sq in on_board {
            let file = self.coords[sq as usize].0 as usize;
            per_file[file] += 1;
            if per_file[file] >= shogi.doubled_count {
                full |= 1 << file;
            }
        }
        full
    }

    /// Is `mv` a drop that shogi forbids because it mates (a pawn dropped
    /// in front of the enemy king, leaving it no legal move)?
    pub(crate) fn shogi_drop_mates(&self, pos: &mut Position, mv: Move) -> bool {
        let Some(shogi) = &self.laws.shogi else { return false };
        if shogi.pawn_drop_mate.is_none() || mv.dropped() != shogi.pawn_drop_mate {
            return false;
        }
        let them = pos.side ^ 1;
        let king = pos.royal[them];
        if king == NO_SQUARE || king as isize != mv.to as isize + self.forward(pos.side) {
            return false;
        }
        let played = self.play(pos, mv);
        // Mate on the board: the replies are asked for even where the check
        // ended the game (check-shogi's last check), a check, not a mate.
        let mut replies = Vec::new();
        self.pseudo_legal(pos, &mut replies);
        let screen = self.screen(pos);
        let mut any = false;
        self.emit_legal(pos, &screen, &mut replies, |_, _| any = true);
        self.unplay(pos, mv, &played);
        !any
    }
}

/// Per side and kind, the cells from which `kind` has no move on an empty
/// board (where `immobilityIllegal` forbids it to stay or be dropped).
pub(crate) fn stuck_cells(tables: &Tables, kinds: usize) -> [Vec<Region>; 2] {
    let g = tables.geometry();
    [0, 1].map(|side| {
        (0..kinds)
            .map(|kind| {
                let mut cells = vec![false; g.cells];
                for sq in g.squares() {
                    cells[sq] = tables.empty_board_targets(kind, side, sq, false).is_empty();
                }
                Region(cells)
            })
            .collect()
    })
}
