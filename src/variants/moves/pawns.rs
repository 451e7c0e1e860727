//! The pawn's moves beyond its Betza: double and triple steps, en passant
//! (of a pawn's rush, of a Betza pawn's `i` moves and of another piece's
//! two-square first move), read from `PawnLaws`. The built-in pawn's direct
//! path is `pawn_path.rs`; promotion is `promotion.rs`.

use super::movegen::Tables;
use super::vocabulary::{Move, Special};
use crate::variants::board::{cell_kind, cell_side, piece_cell, Position, Side, EMPTY, NO_SQUARE, OFF, WHITE};
use crate::variants::rules::{PawnLaws, Rushes};

impl Tables {
    /// The pawn kind to keep `pos`'s cell sets with, if `count_unroyal`
    /// may ever count from it: a side has no royal piece, and no rule
    /// tests its moves.
    pub(crate) fn unroyal_pawn(&self, pos: &Position) -> Option<usize> {
        let laws = &self.laws;
        let royal_less = self.royal().is_none() || pos.royal.contains(&NO_SQUARE);
        let path = self.pawn_path.as_ref()?;
        (royal_less && !laws.tested_by_playing() && !laws.no_checks && !laws.blast && !laws.must_capture)
            .then_some(path.kind)
    }

    /// One step forward for `side`'s pawns, as a cell offset.
    pub(crate) fn forward(&self, side: Side) -> isize {
        let s = self.geometry().stride as isize;
        if side == WHITE {
            s
        } else {
            -s
        }
    }

    /// Double and triple steps, en passant, then promotion of the pawn
    /// moves from `start` on.
    pub(crate) fn pawn_extras(&self, pos: &Position, from: usize, start: usize, out: &mut Vec<Move>) {
        let Some(pawn) = &self.laws.pawn else { return };
        let us = pos.side;
        let up = self.forward(us);
        if pawn.betza {
            self.betza_pawn_extras(pos, pawn, from, start, out);
            return self.promotions(pos, start, out);
        }
        let step = |sq: usize| (sq as isize + up) as usize;
        for (region, n) in [(&pawn.double_step[us], 2), (&pawn.triple_step[us], 3)] {
            if !region.has(from) {
                continue;
            }
            let mut sq = from;
            let mut clear = true;
            for _ in 0..n {
                sq = step(sq);
                clear &= pos.cells[sq] == EMPTY;
            }
            if clear {
                out.push(Move { special: Special::PawnRush, ..Move::plain(from, sq) });
            }
        }
        self.en_passant(pos, from, out);
        self.promotions(pos, start, out);
    }

    /// The built-in pawn's capture en passant from `from`, if it has one.
    #[inline]
    pub(crate) fn en_passant(&self, pos: &Position, from: usize, out: &mut Vec<Move>) {
        let Some(pawn) = &self.laws.pawn else { return };
        let us = pos.side;
        let up = self.forward(us);
        // A wall (the duck) on the square passed over bars the capture.
        if pos.ep != NO_SQUARE && pawn.ep_region[us].has(pos.ep as usize) && pos.cells[pos.ep as usize] == EMPTY {
            let ep = pos.ep as usize;
            let victim = (ep as isize - up) as usize;
            if (from as isize + 1 == victim as isize || from as isize - 1 == victim as isize)
                && pos.cells[victim] != EMPTY
                && pos.cells[victim] != OFF
                && cell_side(pos.cells[victim]) != us
            {
                let mut mv = Move { special: Special::EnPassant, ..Move::plain(from, ep) };
                mv.victims[0] = victim as u16;
                mv.nvictims = 1;
                out.push(mv);
            }
        }
    }

    /// A Betza pawn: its mobility region, its `i` steps marked as rushes,
    /// and en passant with its capture-only moves (Fairy-Stockfish's
    /// `attacks & ~quiets & ep_squares`).
    fn betza_pawn_extras(&self, pos: &Position, pawn: &PawnLaws, from: usize, start: usize, out: &mut Vec<Move>) {
        let us = pos.side;
        let mobility = &pawn.mobility[us];
        let mut keep = start;
        for j in start..out.len() {
            if mobility.has(out[j].to as usize) {
                out[keep] = out[j];
                keep += 1;
            }
        }
        out.truncate(keep);
        if let Some(rushes) = pawn.rushes[us].get(from).filter(|r| !r.is_empty()) {
            for mv in &mut out[start..] {
                if rushes.iter().any(|&(to, _)| to == mv.to) {
                    mv.special = Special::PawnRush;
                }
            }
        }
        let ep = pos.ep as usize;
        if !pawn.takes_ep
            || pos.ep == NO_SQUARE
            || !pawn.ep_region[us].has(ep)
            || !mobility.has(ep)
            || pos.cells[ep] != EMPTY
            || out[start..].iter().any(|m| m.to == pos.ep)
        {
            return;
        }
        let Some(victim) = self.ep_victim(pos) else { return };
        let mut cells = pos.cells.clone();
        cells[ep] = pos.cells[victim];
        let mut reach = Vec::new();
        self.destinations(&mut cells, from, None, &mut reach);
        if reach.contains(&pos.ep) {
            let mut mv = Move { special: Special::EnPassant, ..Move::plain(from, ep) };
            mv.victims[0] = victim as u16;
            mv.nvictims = 1;
            out.push(mv);
        }
    }

    /// The piece an en-passant capture on `pos.ep` takes: the one that
    /// passed over it when known, else (as Fairy-Stockfish) the nearest
    /// enemy piece behind the square.
    fn ep_victim(&self, pos: &Position) -> Option<usize> {
        let us = pos.side;
        let enemy = |sq: usize| pos.cells[sq] != EMPTY && pos.cells[sq] != OFF && cell_side(pos.cells[sq]) != us;
        if pos.ep_victim != NO_SQUARE && enemy(pos.ep_victim as usize) {
            return Some(pos.ep_victim as usize);
        }
        let back = -self.forward(us);
        let mut sq = pos.ep as usize;
        loop {
            sq = (sq as isize + back) as usize;
            if pos.cells[sq] == OFF {
                return None;
            }
            if enemy(sq) {
                return Some(sq);
            }
        }
    }

    /// A Betza pawn's rush table (`PawnLaws::rushes`): the destinations of
    /// its `i` moves that its other moves do not reach, on an empty board.
    pub(crate) fn betza_rushes(&self, kind: usize) -> Result<Rushes, String> {
        let g = *self.geometry();
        let mut table = [vec![Vec::new(); g.cells], vec![Vec::new(); g.cells]];
        for (side, rows) in table.iter_mut().enumerate() {
            for from in g.squares() {
                let mut cells = g.empty_cells();
                cells[from] = piece_cell(kind, side);
                let (mut with, mut without) = (Vec::new(), Vec::new());
                self.destinations(&mut cells, from, Some(true), &mut with);
                self.destinations(&mut cells, from, Some(false), &mut without);
                for to in with {
                    if without.contains(&to) || rows[from].iter().any(|&(t, _)| t == to) {
                        continue;
                    }
                    let passed = passed_square(&g, from, to as usize).ok_or_else(|| {
                        format!(
                            "the pawn's initial move {}{} passes more than one square: en passant after it is not \
                             implemented",
                            g.name(from),
                            g.name(to as usize)
                        )
                    })?;
                    rows[from].push((to, passed));
                }
            }
        }
        Ok(table)
    }

    /// The en-passant squares a pawn rush from `from` to `to` leaves: the
    /// square passed over and, for a Betza pawn, the pawn's own square (as
    /// Fairy-Stockfish marks it), each where the opponent may take e.p.
    pub(crate) fn rush_ep(&self, us: Side, from: usize, to: usize) -> (u16, u16) {
        match &self.laws.pawn {
            Some(pawn) if pawn.betza => {
                let passed = pawn.rushes[us].get(from).and_then(|r| r.iter().find(|&&(t, _)| t as usize == to));
                let region = &pawn.ep_region[us ^ 1];
                let keep = |sq: u16| if sq != NO_SQUARE && region.has(sq as usize) { sq } else { NO_SQUARE };
                (keep(passed.map_or(NO_SQUARE, |&(_, p)| p)), keep(to as u16))
            }
            // As Fairy-Stockfish, no square where the opponent may not take (spartan: nowhere).
            Some(pawn) => {
                let passed = (from + to) / 2;
                (if pawn.ep_region[us ^ 1].has(passed) { passed as u16 } else { NO_SQUARE }, NO_SQUARE)
            }
            None => (((from + to) / 2) as u16, NO_SQUARE),
        }
    }

    /// Fairy-Stockfish: a two-square move that only an unmoved piece has
    /// (the wolf sergeant's `ifmnD`) may be taken en passant by a pawn on
    /// the square it passed (`Position::do_move`).
    pub(crate) fn initial_rush(&self, moved: u8, from: usize, to: usize) -> bool {
        let rushes = &self.laws.initial_rushes;
        if rushes.is_empty() || moved == EMPTY {
            return false;
        }
        let side = cell_side(moved);
        let key = (cell_kind(moved) as u16, from as u16, to as u16);
        let mid = (from + to) / 2;
        rushes[side].binary_search(&key).is_ok()
            && self.laws.pawn.as_ref().is_some_and(|p| p.ep_region[side ^ 1].has(mid))
    }
}

/// The one square a straight or diagonal step from `from` to `to` passes
/// over (`NO_SQUARE`: none, or a bent leap); `None` if it passes several.
fn passed_square(g: &crate::variants::board::Geometry, from: usize, to: usize) -> Option<u16> {
    let ((fx, fy), (tx, ty)) = (g.coords(from), g.coords(to));
    let (dx, dy) = (tx as i8 - fx as i8, ty as i8 - fy as i8);
    let n = dx.abs().max(dy.abs());
    if !(dx == 0 || dy == 0 || dx.abs() == dy.abs()) || n < 2 {
        return Some(NO_SQUARE);
    }
    (n == 2).then(|| g.cell((fx as i8 + dx / 2) as u8, (fy as i8 + dy / 2) as u8) as u16)
}
