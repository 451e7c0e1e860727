//! `rules::Palace` in generation and attacks: the moves along Janggi's
//! palace lines, and the Janggi cannon, whose screen and victim may not
//! be cannons.

use super::movegen::Tables;
use super::vocabulary::Move;
use crate::variants::board::{cell_kind, cell_side, Position, Side, EMPTY, OFF};
use crate::variants::rules::{Diagonal, Palace};

/// The four diagonal steps.
const DIAGONALS: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

impl Tables {
    /// The palace rules (only called in variants that have them).
    #[inline]
    fn palace(&self) -> &Palace {
        self.laws.palace.as_ref().expect("palace rules")
    }

    /// Is the cell a Janggi cannon (of either side)?
    #[inline]
    fn holds_cannon(&self, cell: u8) -> bool {
        cell != EMPTY && cell != OFF && self.palace().is_cannon(cell_kind(cell))
    }

    /// Drops the hops of the Janggi cannon on `from` (its moves from
    /// `start` on) over a cannon or onto one.
    pub(crate) fn keep_cannon_rules(&self, pos: &Position, from: usize, start: usize, out: &mut Vec<Move>) {
        let mut keep = start;
        for j in start..out.len() {
            if self.hop_free_of_cannons(pos, from, out[j].to as usize) {
                out[keep] = out[j];
                keep += 1;
            }
        }
        out.truncate(keep);
    }

    /// Neither the first piece between `from` and `to` (on one line: the
    /// screen) nor the piece on `to` is a cannon.
    fn hop_free_of_cannons(&self, pos: &Position, from: usize, to: usize) -> bool {
        if self.holds_cannon(pos.cells[to]) {
            return false;
        }
        let ((fx, fy), (tx, ty)) = (self.coords[from], self.coords[to]);
        let step = self.geometry().delta(((tx - fx).signum(), (ty - fy).signum()));
        let mut sq = (from as isize + step) as usize;
        while sq != to {
            if pos.cells[sq] != EMPTY {
                return !self.holds_cannon(pos.cells[sq]);
            }
            sq = (sq as isize + step) as usize;
        }
        true
    }

    /// Adds the moves along the palace's diagonal lines of the piece on
    /// `from`, when it stands on them: onto cells of the lines only.
    pub(crate) fn palace_moves(&self, pos: &Position, from: usize, out: &mut Vec<Move>) {
        let palace = self.palace();
        let cell = pos.cells[from];
        let (kind, side) = (cell_kind(cell), cell_side(cell));
        let Some(how) = palace.diagonal(kind).filter(|_| palace.lines.has(from)) else { return };
        for d in DIAGONALS {
            if how == Diagonal::Forward && (d.1 > 0) != (side == 0) {
                continue;
            }
            let delta = self.geometry().delta(d);
            let mut sq = from;
            let mut screened = false;
            loop {
                sq = (sq as isize + delta) as usize;
                let c = pos.cells[sq];
                if c == OFF {
                    break;
                }
                let lands = match how {
                    Diagonal::Hop => screened,
                    _ => true,
                };
                if lands
                    && palace.lines.has(sq)
                    && (c == EMPTY || cell_side(c) != side)
                    && !(how == Diagonal::Hop && self.holds_cannon(c))
                    && self.bound_allows(kind, side, from, sq)
                {
                    out.push(Move::plain(from, sq));
                }
                if c != EMPTY {
                    // A hop's first piece is its screen, never a cannon.
                    if how != Diagonal::Hop || screened || self.holds_cannon(c) {
                        break;
                    }
                    screened = true;
                }
                if matches!(how, Diagonal::Step | Diagonal::Forward) {
                    break;
                }
            }
        }
    }

    /// Does the Janggi cannon of `by` on `x` attack `sq` on its file or
    /// rank (exactly one screen between, not a cannon, and no cannon on `sq`)?
    pub(crate) fn cannon_attacks(&self, pos: &Position, x: usize, sq: usize) -> bool {
        let ((fx, fy), (tx, ty)) = (self.coords[x], self.coords[sq]);
        if (fx != tx && fy != ty) || x == sq || self.holds_cannon(pos.cells[sq]) {
            return false;
        }
        let step = self.geometry().delta(((tx - fx).signum(), (ty - fy).signum()));
        let mut screens = 0;
        let mut c = (x as isize + step) as usize;
        while c != sq {
            if pos.cells[c] != EMPTY {
                if screens == 1 || self.holds_cannon(pos.cells[c]) {
                    return false;
                }
                screens += 1;
            }
            c = (c as isize + step) as usize;
        }
        screens == 1
    }

    /// Does a piece of `by` (but one on `skip`) attack `sq` along the
    /// palace's diagonal lines?
    pub(crate) fn palace_attacks(&self, pos: &Position, sq: usize, by: Side, skip: usize) -> bool {
        let palace = self.palace();
        if palace.diagonal.is_empty() || !palace.lines.has(sq) {
            return false;
        }
        let target_cannon = self.holds_cannon(pos.cells[sq]);
        for d in DIAGONALS {
            let delta = self.geometry().delta(d);
            let (mut x, mut n, mut screened) = (sq, 0, false);
            loop {
                x = (x as isize + delta) as usize;
                n += 1;
                let c = pos.cells[x];
                if c == OFF {
                    break;
                }
                if c == EMPTY {
                    continue;
                }
                let how = palace.diagonal(cell_kind(c));
                if cell_side(c) == by && x != skip && palace.lines.has(x) && self.bound_allows(cell_kind(c), by, x, sq)
                {
                    let hit = match how {
                        Some(Diagonal::Step) => n == 1 && !screened,
                        // A soldier attacks forwards: `sq` is ahead of it.
                        Some(Diagonal::Forward) => n == 1 && !screened && (d.1 < 0) == (by == 0),
                        Some(Diagonal::Slide) => !screened,
                        Some(Diagonal::Hop) => screened && !target_cannon,
                        None => false,
                    };
                    if hit {
                        return true;
                    }
                }
                if screened || self.holds_cannon(c) {
                    break;
                }
                screened = true;
            }
        }
        false
    }

    /// The cells where a move could open an attack of `by` on `sq` along
    /// the palace's diagonals: on each diagonal through `sq` (on the lines)
    /// that holds a piece of `by` moving along them from a cell of the
    /// lines, the cells up to the farthest such piece.
    pub(crate) fn palace_rays(&self, pos: &Position, sq: usize, by: Side, mut mark: impl FnMut(usize)) {
        let palace = self.palace();
        if palace.diagonal.is_empty() || !palace.lines.has(sq) {
            return;
        }
        for d in DIAGONALS {
            let delta = self.geometry().delta(d);
            let (mut x, mut reach) = ((sq as isize + delta) as usize, None);
            while pos.cells[x] != OFF {
                let c = pos.cells[x];
                if c != EMPTY && cell_side(c) == by && palace.lines.has(x) && palace.diagonal(cell_kind(c)).is_some() {
                    reach = Some(x);
                }
                x = (x as isize + delta) as usize;
            }
            if let Some(last) = reach {
                let mut x = (sq as isize + delta) as usize;
                loop {
                    mark(x);
                    if x == last {
                        break;
                    }
                    x = (x as isize + delta) as usize;
                }
            }
        }
    }
}

impl Tables {
    /// (file, rank) of a cell.
    pub fn coords_of(&self, cell: usize) -> (i8, i8) {
        self.coords[cell]
    }

    /// Is a move from `from` to `to` among the side to move's pseudo-legal ones?
    pub fn pseudo_legal_has(&self, pos: &mut Position, from: usize, to: usize) -> bool {
        let mut moves = Vec::new();
        self.pseudo_legal(pos, &mut moves);
        moves.iter().any(|m| m.from as usize == from && m.to as usize == to)
    }
}
