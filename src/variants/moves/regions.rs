//! The bounds of `rules::Bounds` in generation and attacks: moves that
//! leave a piece's region or step sideways before the soldier's river are
//! dropped, and two royal pieces facing each other on an open file attack
//! each other (the flying general).

use super::movegen::Tables;
use super::vocabulary::Move;
use crate::variants::board::{cell_kind, cell_side, Position, Side, EMPTY, NO_SQUARE};

impl Tables {
    /// Drops the moves from `start` on (of the piece on `from`) that its
    /// bounds forbid.
    pub(crate) fn keep_in_bounds(&self, pos: &Position, from: usize, start: usize, out: &mut Vec<Move>) {
        let (kind, side) = (cell_kind(pos.cells[from]), cell_side(pos.cells[from]));
        let mut keep = start;
        for j in start..out.len() {
            if self.bound_allows(kind, side, from, out[j].to as usize) {
                out[keep] = out[j];
                keep += 1;
            }
        }
        out.truncate(keep);
    }

    /// May a piece of `kind` and `side` on `from` move to (or attack) `to`?
    // Always inlined: out of line in `attacked_ignoring` it cost grasshopper
    // and manchu 8-10% more instructions.
    #[inline(always)]
    pub(crate) fn bound_allows(&self, kind: usize, side: Side, from: usize, to: usize) -> bool {
        let bounds = &self.laws.bounds;
        !bounds.binds(kind) || bounds.allows(kind, side, self.coords[from], to, self.coords[to], self.geometry().height)
    }

    /// Does the royal piece of `by` (unless on `skip`) face `sq` on a file
    /// with nothing between (only with `flyingGeneral`)?
    pub(crate) fn general_faces(&self, pos: &Position, sq: usize, by: Side, skip: usize) -> bool {
        let general = pos.royal[by];
        if !self.laws.bounds.flying_general || general == NO_SQUARE || general as usize == skip {
            return false;
        }
        self.open_file_between(pos, general as usize, sq).is_some_and(|open| open)
    }

    /// `None` if `a` and `b` are not on one file (or are one cell), else
    /// whether every cell between them is empty.
    pub(crate) fn open_file_between(&self, pos: &Position, a: usize, b: usize) -> Option<bool> {
        let ((fa, ra), (fb, rb)) = (self.coords[a], self.coords[b]);
        if fa != fb || ra == rb {
            return None;
        }
        let g = self.geometry();
        Some((ra.min(rb) + 1..ra.max(rb)).all(|r| pos.cells[g.cell(fa as u8, r as u8)] == EMPTY))
    }

    /// The cells between the two royal pieces when they share a file:
    /// moving a piece out of one may let the generals face each other.
    pub(crate) fn cells_between_generals(&self, pos: &Position) -> Vec<usize> {
        let (w, b) = (pos.royal[0], pos.royal[1]);
        if !self.laws.bounds.flying_general || w == NO_SQUARE || b == NO_SQUARE {
            return Vec::new();
        }
        let ((fw, rw), (fb, rb)) = (self.coords[w as usize], self.coords[b as usize]);
        if fw != fb {
            return Vec::new();
        }
        let g = self.geometry();
        (rw.min(rb) + 1..rw.max(rb)).map(|r| g.cell(fw as u8, r as u8)).collect()
    }
}
