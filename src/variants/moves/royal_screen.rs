//! The screen of pseudo-royal pieces: what a node's board tells about its
//! moves' legality without playing them, where every guarded piece (the
//! royal one, the pseudo-royal ones) must stay unattacked.
//!
//! None attacked: the cells whose change could let an attack through are
//! marked, and a plain move that changes none of them, of a piece that is
//! not guarded, is legal. One attacked: a plain move that changes no cell
//! of one attack on it (the attacker, its path, the piece) and takes no
//! extinction piece leaves that attack standing, and is illegal.

use super::legal::{Guard, RoyalScreen, KEPT};
use super::marks::{class, mark, marked, touches, Marks};
use super::movegen::Tables;
use super::vocabulary::{Move, Special};
use crate::variants::board::{cell_kind, Position, Side, EMPTY};

impl Tables {
    /// The node's `RoyalScreen`; `None` (play every move) when an enemy
    /// kind has no shapes, with duple check, or under a rule the marks do
    /// not know. Petrification is known: the wall a capture leaves blocks
    /// as the capturer would have, and a pseudo-royal piece's own moves
    /// are played (`petrifies_pseudo_royal`).
    pub(crate) fn royal_screen(&self, pos: &Position) -> Option<RoyalScreen> {
        let laws = &self.laws;
        let e = laws.pseudo_royal()?;
        let other_rules = laws.makpong
            || laws.mutually_immune != 0
            || laws.blast
            || laws.no_checks
            || laws.bounds.flying_general
            || laws.palace.is_some()
            || laws.passing.is_some()
            || laws.walling.is_some()
            || laws.stones.is_some();
        if other_rules {
            return None;
        }
        let (us, them) = (pos.side, pos.side ^ 1);
        let (mut marks, mut royals) = ([0u64; 8], [0u64; 8]);
        let mut guards = [Guard { sq: 0, marks: [0; 8], royal: false }; KEPT];
        let mut n = 0;
        let pseudo_royal = self.pseudo_royal_kinds(pos, us, e);
        for &sq in &pos.lists[us] {
            let sq = sq as usize;
            let kind = cell_kind(pos.cells[sq]);
            let guarded = self.royal() == Some(kind)
                || (e.duple_check && e.group_of(kind).is_some())
                || pseudo_royal >> kind & 1 == 1;
            if !guarded {
                continue;
            }
            match self.quiet_marks(pos, sq, them, true) {
                Some(own) => {
                    for (m, o) in marks.iter_mut().zip(own) {
                        *m |= o;
                    }
                    if n < KEPT {
                        guards[n] = Guard { sq, marks: own, royal: self.royal() == Some(kind) };
                    }
                    n += 1;
                }
                // Duple check needs every extinction piece attacked: one
                // attack decides nothing.
                None if e.duple_check => return None,
                None => return self.one_attack(pos, sq, them).map(|attack| RoyalScreen::Attacked { attack }),
            }
            mark(&mut royals, sq);
        }
        let guards = (n <= KEPT && !e.duple_check).then_some((guards, n));
        Some(RoyalScreen::Unattacked { marks, royals, guards })
    }

    /// The cells of one attack of `by` on `sq` through the attack shapes
    /// (the attacker's cell, its path and `sq`), by a piece that counts as
    /// an attacker of a pseudo-royal piece (`pseudo_royal_attacked`: not a
    /// petrifying extinction piece); `None` when none is found.
    fn one_attack(&self, pos: &Position, sq: usize, by: Side) -> Option<Marks> {
        let (kx, ky) = self.coords[sq];
        for &x in &pos.lists[by] {
            let x = x as usize;
            let kind = cell_kind(pos.cells[x]);
            let Some(shapes) = self.kinds[kind].sides[by].shapes.as_ref() else { continue };
            if self.stone_attacker(kind) || !self.bound_allows(kind, by, x, sq) {
                continue;
            }
            for &(start, len, initial) in self.bucket(shapes, x, kx, ky) {
                let conds = &shapes.conds[start as usize..start as usize + len as usize];
                let cell = |off: isize| (x as isize + off) as usize;
                // As `bucket_hits`: the first unmet condition stops the look.
                let fires = (!initial || self.initial[by][x])
                    && conds.iter().all(|&(off, mask)| class(pos.cells[cell(off)], by) & mask != 0);
                if fires {
                    let mut attack = [0u64; 8];
                    for &(off, _) in conds {
                        mark(&mut attack, cell(off));
                    }
                    mark(&mut attack, x);
                    mark(&mut attack, sq);
                    return Some(attack);
                }
            }
        }
        None
    }

    /// `screened_legal` under a `RoyalScreen`.
    pub(crate) fn royal_screened_legal(&self, pos: &mut Position, screen: &RoyalScreen, mv: Move) -> bool {
        let plain =
            matches!(mv.special, Special::None | Special::PawnRush) && mv.promo == 0 && mv.gate == 0 && mv.wall == 0;
        match screen {
            RoyalScreen::Unattacked { marks, royals, guards } => {
                if plain && !marked(royals, mv.from as usize) && !touches(marks, &mv, self.empty_paths) {
                    return true;
                }
                match guards {
                    Some((guards, n)) if plain && !self.takes_extinct(pos, &mv) => {
                        self.guards_safe(pos, &guards[..*n], mv)
                    }
                    _ => self.fully_legal(pos, mv),
                }
            }
            RoyalScreen::Attacked { attack } => {
                let (from, to) = (mv.from as usize, mv.to as usize);
                let stands = plain
                    && mv.nvictims == 0
                    && from != to
                    && !self.takes_extinct(pos, &mv)
                    && !marked(attack, from)
                    && !marked(attack, to);
                !stands && self.fully_legal(pos, mv)
            }
        }
    }

    /// Does the move take an extinction piece? That may excuse an attack
    /// on a guarded piece (`fully_legal`); so may the victims of a locust.
    fn takes_extinct(&self, pos: &Position, mv: &Move) -> bool {
        let to = mv.to as usize;
        mv.nvictims > 0
            || (pos.cells[to] != EMPTY
                && self.laws.pseudo_royal().is_some_and(|e| e.group_of(cell_kind(pos.cells[to])).is_some()))
    }

    /// A plain move that takes no extinction piece, out of attack: set on
    /// the cells alone (a captured piece is skipped as an attacker), only
    /// the guarded pieces it moves or whose marks it touches are tested. A
    /// capture that petrifies, and a guarded piece's own capture there
    /// (`petrifies_pseudo_royal`), are left to `fully_legal`.
    fn guards_safe(&self, pos: &mut Position, guards: &[Guard], mv: Move) -> bool {
        let (from, to) = (mv.from as usize, mv.to as usize);
        if !self.laws.petrify.is_empty() && pos.cells[to] != EMPTY {
            return self.fully_legal(pos, mv);
        }
        let them = pos.side ^ 1;
        let (mover, target) = (pos.cells[from], pos.cells[to]);
        pos.cells[from] = EMPTY;
        pos.cells[to] = mover;
        let safe = guards.iter().all(|g| {
            let moved = g.sq == from;
            if !moved && !touches(&g.marks, &mv, self.empty_paths) {
                return true;
            }
            let sq = if moved { to } else { g.sq };
            if g.royal {
                !self.attacked_skipping(pos, sq, them, to)
            } else {
                !self.pseudo_royal_attacked_skipping(pos, sq, them, to)
            }
        });
        pos.cells[from] = mover;
        pos.cells[to] = target;
        safe
    }
}
