//! Perft's last ply: the number of legal moves of a position, most of them
//! counted without building or playing a move (the screen's marks tell
//! which plain moves are legal for sure), with the no-check and royal-less
//! counters of `checkless.rs` and `unroyal.rs`.

use crate::variants::board::{cell_kind, Position, EMPTY, NO_SQUARE};
use crate::variants::moves::legal::{RoyalScreen, Screen};
use crate::variants::moves::marks::{marked, Marks};
use crate::variants::moves::movegen::Tables;
use crate::variants::moves::vocabulary::Move;

impl Tables {
    /// The number of legal moves (the last ply of perft); `moves` is scratch.
    ///
    /// Out of check, a plain move of a piece that stands on no marked
    /// square, to no marked square, is legal (an explosion aside): those are
    /// counted without building a move; the rest are tested one by one.
    pub fn count_legal_in(&self, pos: &mut Position, moves: &mut Vec<Move>) -> u64 {
        if let Some(st) = self.stone_tables() {
            return st.count(&st.node(pos));
        }
        if self.setup_drops && self.setup_applies(pos) {
            // Set-up rules (must-drop, bishops' colours) judge each drop,
            // unless only a royal drop's safety can refuse one.
            if let Some(n) = self.count_setup_drops(pos) {
                return if self.game_over(pos) { 0 } else { n };
            }
            let mut n = 0;
            self.for_each_legal_in(pos, moves, |_, _| n += 1);
            return n;
        }
        moves.clear();
        if self.game_over(pos) {
            return 0;
        }
        if self.laws.walling.is_some() && !self.laws.must_capture {
            return self.count_walled(pos, moves);
        }
        let screen = self.screen(pos);
        let laws = &self.laws;
        // Without a royal piece of the mover (horde's White) and without
        // rules that play every move, every plain move is legal: nothing
        // is marked.
        let unroyal = screen.king == NO_SQUARE && !screen.all_played;
        let marks = match &screen.pseudo {
            _ if unroyal => Some([0; 8]),
            // Pseudo-royal pieces unattacked: a plain move off their cells
            // that changes no marked cell is legal (`screened_legal`).
            Some(RoyalScreen::Unattacked { marks, royals, .. }) => Some(std::array::from_fn(|i| marks[i] | royals[i])),
            Some(RoyalScreen::Attacked { .. }) => None,
            None => screen.marks,
        };
        let (mut quiet, mut captures) = (0, 0);
        let gating = laws.seirawan_gating && pos.gates[pos.side] != 0;
        match marks {
            // Gating moves are built from each legal move (`gate_each`).
            _ if gating && unroyal => self.pseudo_legal(pos, moves),
            _ if unroyal && self.counts_unroyal(pos) => {
                quiet = self.count_unroyal(pos, moves);
            }
            Some(mut marks) if !laws.no_checks && self.reparse.is_none() => {
                // The pieces on gates are tested (and gated) one by one.
                if gating {
                    self.mark_gates(pos, &mut marks);
                }
                // Copies of the loop: without the pawn's path, the
                // custom-piece variants' loop stays as lean as it was, and
                // only compulsory captures count captures apart.
                let king = screen.king as usize;
                // Out of check (marks were made), a drop is legal when no attack needs
                // an occupied cell and nothing explodes: drops are counted, not built.
                // Pawn-drop mate tests each drop (nifu and immobility are counted).
                // Without a royal piece of ours a drop endangers nothing.
                let drops_counted = laws.drops.as_ref().is_some_and(|d| d.checks && d.bound_cells.is_empty())
                    && laws.shogi.as_ref().is_none_or(|s| s.pawn_drop_mate.is_none())
                    && (self.empty_paths || unroyal)
                    && !laws.blast
                    && !screen.all_played;
                if drops_counted {
                    quiet = self.count_drops(pos);
                }
                let (plain, split) = match (self.pawn_path.is_some(), laws.must_capture) {
                    (true, false) => self.count_plain::<true, false>(pos, king, &marks, moves),
                    (false, false) => self.count_plain::<false, false>(pos, king, &marks, moves),
                    (true, true) => self.count_plain::<true, true>(pos, king, &marks, moves),
                    (false, true) => self.count_plain::<false, true>(pos, king, &marks, moves),
                };
                (quiet, captures) = (quiet + plain, split);
                self.castlings(pos, moves);
                self.cambodian_moves(pos, moves);
                if laws.promotion.as_ref().is_some_and(|p| p.in_place) {
                    self.in_place_promotions(pos, moves);
                }
                if !drops_counted {
                    self.drop_moves(pos, moves);
                }
                self.pass_moves(pos, moves);
            }
            Some(marks) if self.checkless_counted(&screen) => {
                let check_marks = screen.check_marks.as_ref().expect("check marks");
                let theirs = pos.royal[pos.side ^ 1] as usize;
                quiet = self.count_checkless(pos, screen.king as usize, theirs, &marks, check_marks, moves);
            }
            _ => self.pseudo_legal(pos, moves),
        }
        if !laws.must_capture {
            self.emit_legal(pos, &screen, moves, |_, _| quiet += 1);
            return quiet;
        }
        for &mv in moves.iter() {
            if self.screened_legal(pos, &screen, mv) {
                if self.is_capture(pos, &mv) {
                    captures += 1;
                } else {
                    quiet += 1;
                }
            }
        }
        if captures > 0 {
            captures
        } else {
            quiet
        }
    }

    /// Can `count_checkless` count the node's plain moves? (Checks are not
    /// allowed, both kings are on the board and neither is attacked, and no
    /// explosion, compulsory capture or played rule needs the whole list.)
    fn checkless_counted(&self, screen: &Screen) -> bool {
        let laws = &self.laws;
        laws.no_checks
            && !laws.blast
            && !laws.must_capture
            && laws.mutually_immune == 0
            && self.reparse.is_none()
            && screen.king != NO_SQUARE
            && screen.check_marks.is_some()
    }

    /// Counts the plain moves that are legal for sure (see
    /// `count_legal_in`) and puts every other pseudo-legal move of the
    /// pieces on the board in `moves` (the caller adds castlings, gates
    /// and drops).
    /// `PAWN`: the variant has the pawn's direct path; `SPLIT`: count
    /// captures apart (returned second; else all are counted first).
    // Not inlined: four copies of the loop in `perft_in` cost every copy registers.
    #[inline(never)]
    fn count_plain<const PAWN: bool, const SPLIT: bool>(
        &self,
        pos: &mut Position,
        king: usize,
        marks: &Marks,
        moves: &mut Vec<Move>,
    ) -> (u64, u64) {
        // Captures are tested with explosions where there are royal pieces,
        // and with mutual immunity. (One flag for the loop: a test per kind
        // cost chess 2% more instructions.)
        let captures_tested = (self.laws.blast && self.royal().is_some()) || self.laws.mutually_immune != 0;
        let us = pos.side;
        let (mut n, mut captures) = (0, 0);
        let pawn_kind = self.pawn_path.as_ref().filter(|_| PAWN).map_or(usize::MAX, |p| p.kind);
        for i in 0..pos.lists[us].len() {
            let from = pos.lists[us][i] as usize;
            let kind = cell_kind(pos.cells[from]);
            if from != king && !marked(marks, from) {
                let cells = &pos.cells;
                // A plain move that must still be tested.
                let tested =
                    |to: usize| (!self.empty_paths && marked(marks, to)) || (captures_tested && cells[to] != EMPTY);
                // The pawn's and the other pieces' tallies stay two copies:
                // one closure for both cost horde 22% more instructions.
                if PAWN && kind == pawn_kind {
                    let path = self.pawn_path.as_ref().expect("the pawn's path");
                    let direct = path.landings(cells, from, us, |to, special| {
                        if tested(to) {
                            moves.push(Move { special, ..Move::plain(from, to) });
                        } else if SPLIT && cells[to] != EMPTY {
                            captures += 1;
                        } else {
                            n += 1;
                        }
                    });
                    if direct {
                        if pos.ep != NO_SQUARE {
                            self.en_passant(pos, from, moves);
                        }
                        continue;
                    }
                } else if !self.has_extras_at(kind, from) {
                    let counted = self.plain_landings(pos, from, |to| {
                        if tested(to) {
                            moves.push(Move::plain(from, to));
                        } else if SPLIT && cells[to] != EMPTY {
                            captures += 1;
                        } else {
                            n += 1;
                        }
                    });
                    if counted {
                        continue;
                    }
                }
            }
            self.general_moves(pos, from, moves);
        }
        (n, captures)
    }

    /// The number of legal moves.
    pub fn count_legal(&self, pos: &mut Position) -> u64 {
        self.count_legal_in(pos, &mut Vec::with_capacity(128))
    }
}
