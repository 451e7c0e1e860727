//! The game ends that leave the side to move no moves: extinction, a flag
//! region reached, the last check given (Fairy-Stockfish's `go perft`
//! counts no moves after them).

use super::movegen::Tables;
use super::vocabulary::Special;
use crate::variants::board::{cell_kind, Position, Side, WHITE};
use crate::variants::rules::Flag;

impl Tables {
    /// Has a rule ended the game before the side to move moves? (Then it
    /// has no moves, as Fairy-Stockfish's `go perft` counts.)
    pub(crate) fn game_over(&self, pos: &Position) -> bool {
        let laws = &self.laws;
        let us = pos.side;
        let them = us ^ 1;
        if let Some(st) = self.stone_tables() {
            return st.over(&st.node(pos));
        }
        // Pseudo-royal pieces are never captured, so extinction does not
        // end the game (Fairy-Stockfish's `is_immediate_game_end`).
        if let Some(ext) = laws.extinction.as_ref().filter(|e| !e.pseudo_royal || laws.blast) {
            // Each side's pieces per kind, in one pass over its list (a pass
            // per kind and side was a third of extinction chess's perft).
            let counts = [kind_counts(pos, 0), kind_counts(pos, 1)];
            for c in [them, us] {
                let claim = u8::from(ext.claim && c == us) as usize;
                let (mine, theirs) = (pos.lists[c].len(), pos.lists[c ^ 1].len());
                if ext.all && mine <= ext.count as usize && theirs >= ext.opponent_count as usize + claim {
                    return true;
                }
                // Pieces in hand count (Fairy-Stockfish's `count_with_hand`).
                let held = |c: Side, kind: usize| pos.hands[c].get(kind).map_or(0, |&n| n as usize);
                for (&kind, &group) in ext.kinds.iter().zip(&ext.groups) {
                    if group_count(&counts[c], group) + held(c, kind) <= ext.count as usize
                        && group_count(&counts[c ^ 1], group) + held(c ^ 1, kind) >= ext.opponent_count as usize + claim
                    {
                        return true;
                    }
                }
            }
        }
        if let Some(flag) = laws.flag.as_ref().filter(|f| f.safe) {
            if self.flag_reached_safely(pos, flag) {
                return true;
            }
        } else if let Some(flag) = &laws.flag {
            let reached = |c: Side| {
                pos.lists[c]
                    .iter()
                    .any(|&sq| cell_kind(pos.cells[sq as usize]) == flag.kind && flag.region[c].has(sq as usize))
            };
            // Fairy-Stockfish: with flag moves (racing kings, jesonmor) the
            // flag piece must also survive the reply, except that Black's
            // king may still draw by reaching the flag itself.
            let early = !flag.flag_move || self.royal() == Some(flag.kind);
            if early && reached(them) && !(flag.flag_move && us != WHITE && self.may_follow_to_flag(pos)) {
                return true;
            }
            if flag.flag_move && reached(us) {
                return true;
            }
        }
        if laws.check_counting && pos.checks[them] == 0 {
            return true;
        }
        laws.passing.is_some() && self.passed_to_end(pos)
    }

    /// `flagPieceSafe`: has either side a flag piece in its region that the
    /// other does not attack?
    fn flag_reached_safely(&self, pos: &Position, flag: &Flag) -> bool {
        let mut board: Option<Position> = None;
        for c in [pos.side ^ 1, pos.side] {
            for &sq in &pos.lists[c] {
                let sq = sq as usize;
                if cell_kind(pos.cells[sq]) == flag.kind && flag.region[c].has(sq) {
                    let p = board.get_or_insert_with(|| pos.clone());
                    if !self.attacked(p, sq, c ^ 1) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Racing kings: after White reached the flag, can Black's flag piece
    /// reach it too with a legal move (then the game goes on one move)?
    fn may_follow_to_flag(&self, pos: &Position) -> bool {
        let flag = self.laws.flag.as_ref().expect("flag rules");
        let us = pos.side;
        let mut p = pos.clone();
        let mut moves = Vec::new();
        self.pseudo_legal(&mut p, &mut moves);
        moves.into_iter().any(|mv| {
            cell_kind(pos.cells[mv.from as usize]) == flag.kind
                && mv.special == Special::None
                && flag.region[us].has(mv.to as usize)
                && self.is_legal_slow(&mut p, mv)
        })
    }
}

/// How many pieces of each kind `side` has on the board (kinds below 64,
/// the width of the kind masks: no mask counts the others).
#[inline]
fn kind_counts(pos: &Position, side: Side) -> [u16; 64] {
    let mut counts = [0u16; 64];
    for &sq in &pos.lists[side] {
        if let Some(n) = counts.get_mut(cell_kind(pos.cells[sq as usize])) {
            *n += 1;
        }
    }
    counts
}

/// The pieces of the kinds in `mask`, from `kind_counts`.
#[inline]
fn group_count(counts: &[u16; 64], mut mask: u64) -> usize {
    let mut n = 0;
    while mask != 0 {
        n += counts[mask.trailing_zeros() as usize] as usize;
        mask &= mask - 1;
    }
    n
}
