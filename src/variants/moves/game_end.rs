//! The game ends that leave the side to move no moves: extinction, a flag
//! region reached, the last check given (Fairy-Stockfish's `go perft`
//! counts no moves after them).

use super::movegen::Tables;
use super::vocabulary::Special;
use crate::variants::board::{cell_kind, Position, Side, NO_SQUARE, WHITE};
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
        let safe_flag = laws.flag.as_ref().filter(|f| f.safe);
        // Per side: may a flag piece stand in its region (unknown: yes)?
        let mut flag_seen = [true; 2];
        if let Some(ext) = laws.extinction.as_ref().filter(|e| !e.pseudo_royal || laws.blast) {
            for c in [them, us] {
                let claim = u8::from(ext.claim && c == us) as usize;
                let (mine, theirs) = (pos.lists[c].len(), pos.lists[c ^ 1].len());
                if ext.all && mine <= ext.count as usize && theirs >= ext.opponent_count as usize + claim {
                    return true;
                }
            }
            // Which kinds each side has, in one pass over its list: a kind
            // present is at least one piece, which decides most tests
            // without counting (a count per kind and side was a third of
            // extinction chess's perft).
            // With one kind (or `*` alone: horde's 36 pawns) a count is one
            // pass anyway: every kind is taken as present, and counted. At
            // an extinction count of 0 presence decides, and is cheaper
            // found: a lone royal kind (atomic's king) is present where the
            // side's royal piece stands, with no pass, and with a safe flag
            // the pass finds the flag pieces in their regions too
            // (dobutsu's lion).
            let lone = ext.count == 0 && ext.kinds.len() == 1;
            let royal = self
                .royal()
                .filter(|&r| lone && ext.kinds[0] == r && Some(ext.groups[0]) == 1u64.checked_shl(r as u32));
            let many = ext.kinds.len() > 1 || (lone && (royal.is_some() || safe_flag.is_some()));
            let present = match (safe_flag, royal) {
                _ if !many => [u64::MAX; 2],
                (Some(flag), _) => {
                    let (w, b) = (kinds_and_flag(pos, 0, flag), kinds_and_flag(pos, 1, flag));
                    flag_seen = [w.1, b.1];
                    [w.0, b.0]
                }
                (None, Some(r)) => pos.royal.map(|sq| u64::from(sq != NO_SQUARE) << r),
                (None, None) => [kinds_present(pos, 0), kinds_present(pos, 1)],
            };
            // Pieces in hand count (Fairy-Stockfish's `count_with_hand`).
            let held = |c: Side, kind: usize| pos.hands[c].get(kind).map_or(0, |&n| n as usize);
            let count = |c: Side, kind: usize, group: u64| {
                let on_board = if present[c] & group == 0 { 0 } else { self.count_kinds(pos, c, group) };
                on_board + held(c, kind)
            };
            for c in [them, us] {
                let claim = u8::from(ext.claim && c == us) as usize;
                for (&kind, &group) in ext.kinds.iter().zip(&ext.groups) {
                    let least = usize::from(many && present[c] & group != 0) + held(c, kind);
                    if least <= ext.count as usize
                        && count(c, kind, group) <= ext.count as usize
                        && count(c ^ 1, kind, group) >= ext.opponent_count as usize + claim
                    {
                        return true;
                    }
                }
            }
        }
        if let Some(flag) = safe_flag {
            if flag_seen != [false; 2] && self.flag_reached_safely(pos, flag) {
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
                    // The shapes answer without a board to write on (a
                    // copy of the position was a tenth of dobutsu's perft).
                    let attacked = match self.shapes_attacked(pos, sq, c ^ 1) {
                        Some(hit) => hit,
                        None => self.attacked(board.get_or_insert_with(|| pos.clone()), sq, c ^ 1),
                    };
                    if !attacked {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// `attacked` read from the attack shapes alone, on a board it may not
    /// write: `None` where that is not enough (a piece without shapes, a
    /// bound or cannon rule, the flying general, the palace's lines).
    fn shapes_attacked(&self, pos: &Position, sq: usize, by: Side) -> Option<bool> {
        if self.attack_rules != 0 || self.laws.bounds.flying_general || self.laws.palace.is_some() {
            return None;
        }
        let (kx, ky) = self.coords[sq];
        let mut sure = true;
        for &x in &pos.lists[by] {
            let x = x as usize;
            match &self.kinds[cell_kind(pos.cells[x])].sides[by].shapes {
                Some(shapes) => {
                    let bucket = self.bucket(shapes, x, kx, ky);
                    if !bucket.is_empty() && self.bucket_hits_with(shapes, bucket, x, by, |c| pos.cells[c]) {
                        return Some(true);
                    }
                }
                None => sure = false,
            }
        }
        sure.then_some(false)
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

/// The kinds (below 64, the width of the kind masks) of which `side` has
/// a piece on the board, as a mask.
#[inline]
fn kinds_present(pos: &Position, side: Side) -> u64 {
    pos.lists[side].iter().fold(0, |m, &sq| m | 1u64.checked_shl(cell_kind(pos.cells[sq as usize]) as u32).unwrap_or(0))
}

/// `kinds_present`, and whether a `flag` piece of `side` stands in its
/// region, in one pass.
#[inline]
fn kinds_and_flag(pos: &Position, side: Side, flag: &Flag) -> (u64, bool) {
    let mut seen = false;
    let kinds = pos.lists[side].iter().fold(0, |m, &sq| {
        let kind = cell_kind(pos.cells[sq as usize]);
        seen |= kind == flag.kind && flag.region[side].has(sq as usize);
        m | 1u64.checked_shl(kind as u32).unwrap_or(0)
    });
    (kinds, seen)
}
