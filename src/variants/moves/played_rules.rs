//! The rules that only playing a move can test: pseudo-royal pieces (and
//! duple check), `makpongRule`, mutually immune kinds and petrification;
//! `fully_legal` applies them with the royal piece's safety.

use super::movegen::Tables;
use super::vocabulary::{Move, Special};
use crate::variants::board::{cell_kind, cell_side, Position, Side, EMPTY, NO_SQUARE};
use crate::variants::rules::{Extinction, Laws};

impl Laws {
    /// Rules that only playing a move can test (pseudo-royal pieces,
    /// `makpongRule`, `mutuallyImmuneTypes`, petrification): the screen
    /// then plays every move, and `fully_legal` applies them.
    pub(crate) fn tested_by_playing(&self) -> bool {
        self.pseudo_royal().is_some() || self.makpong || self.mutually_immune != 0 || !self.petrify.is_empty()
    }

    /// Mutual immunity is the only rule of `tested_by_playing` (and no
    /// walls): a test of the board before the move, which the screen makes
    /// (atomar's kings).
    pub(crate) fn immune_only(&self) -> bool {
        self.mutually_immune != 0
            && self.pseudo_royal().is_none()
            && !self.makpong
            && self.petrify.is_empty()
            && self.walling.is_none()
    }

    /// The extinction rules when their pieces are pseudo-royal.
    pub(crate) fn pseudo_royal(&self) -> Option<&Extinction> {
        self.extinction.as_ref().filter(|e| e.pseudo_royal)
    }
}

impl Tables {
    /// A move is legal: the mover's royal piece survives unattacked (with
    /// explosions: both kings' fates), and it gives no check where checks
    /// are not allowed.
    pub(crate) fn fully_legal(&self, pos: &mut Position, mv: Move) -> bool {
        if mv.special == Special::Castle && !self.castling_path_safe(pos, mv) {
            return false;
        }
        let played_rules = self.laws.tested_by_playing();
        if played_rules && (self.forbidden_before_playing(pos, mv) || self.petrifies_pseudo_royal(pos, mv)) {
            return false;
        }
        let us = pos.side;
        let had_king = pos.royal[us] != NO_SQUARE;
        let pseudo = self.laws.pseudo_royal().map(|e| {
            let promoted = mv
                .promotion()
                .filter(|_| mv.dropped().is_none())
                .and_then(|k| e.group_of(k))
                .map(|g| (g, self.count_kinds(pos, us, g)));
            let theirs = self.pseudo_royal_kinds(pos, us ^ 1, e);
            (e, self.pseudo_royal_kinds(pos, us, e), theirs, self.count_kinds(pos, us ^ 1, theirs), promoted)
        });
        let played = self.play_untested(pos, mv);
        if let Some((e, mut mine, theirs, before, promoted)) = pseudo {
            // Taking a pseudo-royal piece needs no further test; a promotion
            // that makes one kind too many takes that kind's royalty away.
            if let Some((group, _)) = promoted.filter(|&(_, n)| n > e.count as usize) {
                mine &= !group;
            }
            let exposed =
                self.count_kinds(pos, us ^ 1, theirs) == before && self.any_pseudo_royal_attacked(pos, us, mine);
            if exposed || (e.duple_check && self.duple_checked(pos, us, e)) {
                self.unplay(pos, mv, &played);
                return false;
            }
        }
        let mine = pos.royal[us];
        let theirs = pos.royal[us ^ 1];
        let ok = if self.royal().is_none() {
            true
        } else if had_king && mine == NO_SQUARE {
            false
        } else if self.laws.blast && theirs == NO_SQUARE {
            true
        } else {
            let safe = mine == NO_SQUARE || self.blast_safe(pos, mine as usize, us);
            safe && !(self.laws.no_checks && theirs != NO_SQUARE && self.attacked(pos, theirs as usize, us))
        };
        self.unplay(pos, mv, &played);
        ok
    }

    /// Fairy-Stockfish's `Position::legal` rules that look at the board
    /// before the move: a kind may not take its own kind
    /// (`mutuallyImmuneTypes`), and with `makpongRule` a king in check may
    /// move only to take its one checker.
    fn forbidden_before_playing(&self, pos: &mut Position, mv: Move) -> bool {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let us = pos.side;
        if self.immune_capture(pos, &mv) {
            return true;
        }
        let king = pos.royal[us] as usize;
        self.laws.makpong
            && pos.royal[us] != NO_SQUARE
            && from == king
            && self.attacked(pos, king, us ^ 1)
            && self.attacked_skipping(pos, king, us ^ 1, to)
    }

    /// `mutuallyImmuneTypes`: does the move take a piece of its own,
    /// immune, kind?
    #[inline]
    pub(crate) fn immune_capture(&self, pos: &Position, mv: &Move) -> bool {
        let (mover, target) = (pos.cells[mv.from as usize], pos.cells[mv.to as usize]);
        self.laws.mutually_immune >> cell_kind(mover) & 1 == 1
            && mv.special != Special::Castle
            && target != EMPTY
            && cell_side(target) != pos.side
            && cell_kind(target) == cell_kind(mover)
    }

    /// The kinds whose pieces are pseudo-royal for `side`, as a mask: those
    /// with at most one more than the extinction count on the board.
    pub(crate) fn pseudo_royal_kinds(&self, pos: &Position, side: Side, e: &Extinction) -> u64 {
        e.groups.iter().filter(|&&g| self.count_kinds(pos, side, g) <= e.count as usize + 1).fold(0, |m, &g| m | g)
    }

    /// How many pieces of the kinds in `mask` `side` has.
    pub(crate) fn count_kinds(&self, pos: &Position, side: Side, mask: u64) -> usize {
        pos.lists[side].iter().filter(|&&sq| mask >> cell_kind(pos.cells[sq as usize]) & 1 == 1).count()
    }

    /// Is the piece on `sq` pseudo-royal (an extinction piece of a kind its
    /// side has at most one more of than the extinction count)?
    pub(crate) fn is_pseudo_royal(&self, pos: &Position, sq: usize) -> bool {
        let Some(e) = self.laws.pseudo_royal() else { return false };
        let group = e.group_of(cell_kind(pos.cells[sq]));
        group.is_some_and(|g| self.count_kinds(pos, cell_side(pos.cells[sq]), g) <= e.count as usize + 1)
    }

    /// Duple check (Fairy-Stockfish's `dupleCheck` in `Position::legal`):
    /// `side` has extinction pieces and every one of them is attacked,
    /// whatever their number (spartan's two kings; one that is not
    /// pseudo-royal still counts). Captures of pseudo-royal pieces do not
    /// excuse it.
    fn duple_checked(&self, pos: &mut Position, side: Side, e: &Extinction) -> bool {
        let mut any = false;
        for i in 0..pos.lists[side].len() {
            let sq = pos.lists[side][i] as usize;
            if e.group_of(cell_kind(pos.cells[sq])).is_some() {
                if !self.pseudo_royal_attacked(pos, sq, side ^ 1) {
                    return false;
                }
                any = true;
            }
        }
        any
    }

    /// A capture that would turn a pseudo-royal piece to stone (petrified's
    /// king may not capture: Fairy-Stockfish's `Position::legal`).
    fn petrifies_pseudo_royal(&self, pos: &Position, mv: Move) -> bool {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let captures = mv.special == Special::EnPassant
            || mv.nvictims > 0
            || (mv.special != Special::Castle && to != from && pos.cells[to] != EMPTY);
        captures && self.laws.petrify.contains(&cell_kind(pos.cells[from])) && self.is_pseudo_royal(pos, from)
    }

    /// Is one of `side`'s pieces of the kinds in `mine` attacked?
    fn any_pseudo_royal_attacked(&self, pos: &mut Position, side: Side, mine: u64) -> bool {
        // The attack tests leave the lists as they are.
        for i in 0..pos.lists[side].len() {
            let sq = pos.lists[side][i] as usize;
            if mine >> cell_kind(pos.cells[sq]) & 1 == 1 && self.pseudo_royal_attacked(pos, sq, side ^ 1) {
                return true;
            }
        }
        false
    }

    /// Is a pseudo-royal piece on `sq` attacked by `by`? `by`'s pieces that
    /// would turn to stone capturing it and are extinction pieces (petrified's
    /// kings) do not count; they still block as pieces do.
    pub(crate) fn pseudo_royal_attacked(&self, pos: &mut Position, sq: usize, by: Side) -> bool {
        self.pseudo_royal_attacked_skipping(pos, sq, by, usize::MAX)
    }

    /// `pseudo_royal_attacked`, ignoring a piece of `by` on `skip`.
    pub(crate) fn pseudo_royal_attacked_skipping(&self, pos: &mut Position, sq: usize, by: Side, skip: usize) -> bool {
        if self.laws.pseudo_royal().is_none() || self.laws.petrify.is_empty() {
            return self.attacked_skipping(pos, sq, by, skip);
        }
        self.attacked_ignoring(pos, sq, by, skip, |kind| self.stone_attacker(kind))
    }

    /// Does a piece of `kind` not count as an attacker of a pseudo-royal
    /// piece? (An extinction piece that would turn to stone capturing it:
    /// petrified's kings.)
    pub(crate) fn stone_attacker(&self, kind: usize) -> bool {
        let laws = &self.laws;
        laws.pseudo_royal().is_some_and(|e| e.group_of(kind).is_some()) && laws.petrify.contains(&kind)
    }

    /// A pseudo-royal king castles neither out of nor through an attack, by
    /// any enemy piece, from its square up to (not including) its
    /// destination (Fairy-Stockfish's `Position::legal`; the destination is
    /// then tested as for any move).
    pub(crate) fn pseudo_royal_castling_safe(&self, pos: &mut Position, mv: Move) -> bool {
        let us = pos.side;
        let (king, rook) = (mv.from as usize, mv.to as usize);
        let (kto, _) = self.castling_targets(us, king, rook);
        let cell = pos.cells[king];
        pos.cells[king] = EMPTY;
        let path: Vec<usize> = if king < kto { (king..kto).collect() } else { (kto + 1..=king).collect() };
        let safe = path.into_iter().all(|sq| !self.attacked(pos, sq, us ^ 1));
        pos.cells[king] = cell;
        safe
    }
}
