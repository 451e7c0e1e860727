//! Stone games (`rules::Stones`: Ataxx, Othello, Reversi) on a
//! `Position`: their tables built with the variant, their moves (all
//! legal), playing them (the stone dropped or moved, the stones it flips,
//! the pass) and taking them back. The rules themselves work on bit sets
//! (`stone_bits.rs`).

use super::movegen::{TableError, Tables};
use super::play::Played;
use super::stone_bits::{Bits, StoneMove, StoneTables};
use super::vocabulary::{Move, Special};
use crate::variants::board::{piece_cell, Position, EMPTY, OFF};
use crate::variants::rules::Stones;

impl Tables {
    /// The stone game's tables for `rules`; refuses what the stones
    /// cannot do (more than one kind, a royal piece, stones that ride or
    /// capture, more than 128 squares).
    pub(crate) fn build_stones(&self, rules: &Stones, kinds: usize) -> Result<Box<StoneTables>, TableError> {
        let g = self.geometry();
        let refuse = |why: &str| Err(TableError(format!("enclosingDrop (a stone game) {why} is not implemented")));
        if kinds != 1 {
            return refuse("with more than one kind of piece");
        }
        if self.royal().is_some() {
            return refuse("with a royal piece");
        }
        if g.width as usize * g.height as usize > 128 {
            return refuse("on more than 128 squares");
        }
        let st = StoneTables::new(g, rules, |side, from| self.empty_board_targets(0, side, from, false));
        self.check_leaps(&st)?;
        Ok(Box::new(st))
    }

    /// The stone's moves must be leaps onto empty squares: every target of
    /// an empty board stays one when every other square holds a stone of
    /// its own side, and none is left when they hold the other side's.
    fn check_leaps(&self, st: &StoneTables) -> Result<(), TableError> {
        let (t, g) = (self, self.geometry());
        for side in 0..2 {
            for (b, &from) in st.cell.iter().enumerate() {
                for (fill, want) in [(side, st.jumps(side, b)), (side ^ 1, 0)] {
                    let mut cells = g.empty_cells();
                    for &c in &st.cell {
                        cells[c as usize] = piece_cell(0, fill);
                    }
                    cells[from as usize] = piece_cell(0, side);
                    let mut got = 0 as Bits;
                    for &to in &st.cell {
                        if want >> st.bit[to as usize] & 1 == 1 {
                            let keep = cells[to as usize];
                            cells[to as usize] = EMPTY;
                            let mut out = Vec::new();
                            t.destinations(&mut cells, from as usize, Some(false), &mut out);
                            got |= out.iter().filter(|&&c| c == to).fold(0, |m, &c| m | 1 << st.bit[c as usize]);
                            cells[to as usize] = keep;
                        }
                    }
                    let mut out = Vec::new();
                    t.destinations(&mut cells, from as usize, Some(false), &mut out);
                    if got != want || (fill != side && !out.is_empty()) {
                        return Err(TableError(
                            "enclosingDrop (a stone game) with stones that ride or capture is not implemented".into(),
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// The stone game's tables, if the variant is one.
    #[inline(always)]
    pub(crate) fn stone_tables(&self) -> Option<&StoneTables> {
        self.stones.as_deref()
    }

    /// Pushes the moves of a stone game's position (all legal).
    pub(crate) fn stone_moves(&self, st: &StoneTables, pos: &Position, out: &mut Vec<Move>) {
        st.for_each_move(&st.node(pos), |mv| out.push(st.to_move(mv)));
    }

    /// Plays a stone game's move: the stone dropped or moved, the stones
    /// it flips, or a pass.
    pub(crate) fn play_stones(&self, st: &StoneTables, pos: &mut Position, mv: Move) -> Played {
        let mut played = Played::keeping(pos);
        let us = pos.side;
        let node = st.node(pos);
        let Some(smv) = st.of_move(mv) else {
            pos.side ^= 1;
            return played;
        };
        let (_, flipped) = st.child(&node, smv);
        match smv {
            StoneMove::Pass(_) => {
                pos.side ^= 1;
                pos.passes += 1;
                return played;
            }
            StoneMove::Drop(_) => {
                if !st.rules.free_drops {
                    pos.hands[us][st.kind] -= 1;
                }
                pos.put(mv.to as usize, piece_cell(st.kind, us), false);
            }
            StoneMove::Jump(..) => {
                let stone = pos.lift(mv.from as usize);
                pos.put(mv.to as usize, stone, false);
            }
        }
        let mut rest = flipped;
        while rest != 0 {
            pos.flip(st.cell[rest.trailing_zeros() as usize] as usize);
            rest &= rest - 1;
        }
        played.flips = [flipped as u64, (flipped >> 64) as u64];
        pos.side ^= 1;
        pos.passes = 0;
        played
    }

    /// Takes back a move made by `play_stones`.
    pub(crate) fn unplay_stones(&self, st: &StoneTables, pos: &mut Position, mv: Move, played: &Played) {
        pos.side ^= 1;
        let us = pos.side;
        let mut rest = played.flips[0] as Bits | (played.flips[1] as Bits) << 64;
        while rest != 0 {
            pos.flip(st.cell[rest.trailing_zeros() as usize] as usize);
            rest &= rest - 1;
        }
        match mv.special {
            Special::Drop => {
                pos.lift(mv.to as usize);
                if !st.rules.free_drops {
                    pos.hands[us][st.kind] += 1;
                }
            }
            Special::None if pos.cells[mv.to as usize] != EMPTY && pos.cells[mv.to as usize] != OFF => {
                let stone = pos.lift(mv.to as usize);
                pos.put(mv.from as usize, stone, false);
            }
            _ => {}
        }
        played.restore(pos);
    }
}
