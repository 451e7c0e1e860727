//! `rules::Passing` in generation, legality and play: the pass (the king
//! to its own square, `e2e2`, a `Special::Pass`), Janggi's bikjang, and
//! the game's end after two passes in a row or a pass while the generals
//! face each other (Fairy-Stockfish's `is_immediate_game_end`).
//!
//! `Position::passes` remembers what the end needs: bit 0, the last move
//! was a pass; bit 1, before it the game was one pass from its end (the
//! move before was a pass too, or the generals faced with `bikjangRule`).

use super::movegen::Tables;
use super::play::Played;
use super::vocabulary::Move;
use crate::variants::board::{Position, NO_SQUARE};

impl Tables {
    /// Pushes the pass of the side to move, if it may pass and has a king.
    pub(crate) fn pass_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        let Some(passing) = &self.laws.passing else { return };
        let king = pos.royal[pos.side];
        if passing.pass[pos.side] && king != NO_SQUARE {
            out.push(Move::pass(king as usize));
        }
    }

    /// Do the generals face each other on an open file with `bikjangRule`?
    pub(crate) fn bikjang(&self, pos: &Position) -> bool {
        self.laws.passing.is_some_and(|p| p.bikjang) && self.generals_face(pos)
    }

    /// Do the two royal pieces face each other on an open file?
    pub(crate) fn generals_face(&self, pos: &Position) -> bool {
        let (w, b) = (pos.royal[0], pos.royal[1]);
        w != NO_SQUARE && b != NO_SQUARE && self.open_file_between(pos, w as usize, b as usize) == Some(true)
    }

    /// A pass is legal out of check, and always in bikjang.
    pub(crate) fn pass_legal(&self, pos: &mut Position, mv: Move) -> bool {
        self.bikjang(pos) || !self.attacked(pos, mv.from as usize, pos.side ^ 1)
    }

    /// In bikjang, a move other than the pass must break the facing (and
    /// leave its king safe): played and tested.
    pub(crate) fn breaks_bikjang(&self, pos: &mut Position, mv: Move) -> bool {
        let us = pos.side;
        let played = self.play_untested(pos, mv);
        let king = pos.royal[us];
        let ok = king != NO_SQUARE && !self.bikjang(pos) && !self.attacked(pos, king as usize, us ^ 1);
        self.unplay(pos, mv, &played);
        ok
    }

    /// Plays a pass: only the side to move and the pass record change.
    pub(crate) fn play_pass(&self, pos: &mut Position) -> Played {
        let played = Played::keeping(pos);
        let one_from_end = pos.passes & 1 != 0 || self.bikjang(pos);
        pos.passes = 1 | u8::from(one_from_end) << 1;
        pos.side ^= 1;
        (pos.ep, pos.ep_victim) = (NO_SQUARE, NO_SQUARE);
        played
    }

    /// Has a pass ended the game (two in a row, or one in bikjang)?
    #[inline]
    pub(crate) fn passed_to_end(&self, pos: &Position) -> bool {
        pos.passes == 3
    }
}
