//! Playing a move with all its effects (castling, promotion, explosions,
//! petrification, gates, en-passant squares, check counts) and taking it
//! back.

use super::movegen::Tables;
use super::vocabulary::{Move, Special};
use crate::variants::board::{cell_kind, cellbits::CellBits, piece_cell, Position, Undo, EMPTY, NO_SQUARE, OFF};

/// What `play` changed, to take it back.
#[derive(Debug, Clone, Copy)]
pub struct Played {
    pub(super) undo: Undo,
    pub(super) castle: [[u16; 2]; 2],
    pub(super) ep: u16,
    pub(super) ep_victim: u16,
    pub(super) gates: [u16; 2],
    pub(super) checks: [u8; 2],
    /// Pieces removed by an explosion (the capturer first), in order
    /// (cells widened as in `Undo::captured`).
    pub(super) blasted: [(u16, u16); 9],
    pub(super) nblasted: u8,
    /// The capturer turned to stone (`blasted[0]`; a wall on its square).
    pub(super) petrified: bool,
    /// Per entry of `undo.captured`, the kind that joined the mover's hand,
    /// plus one (0: none).
    pub(super) gains: [u8; 4],
    /// Promoted marks before the move: bit 0 the mover's, bit 1 the
    /// destination's, bit 2 + i the i-th captured cell's (not the destination).
    pub(super) marks: u8,
    /// Stones flipped (a stone game's squares as bits, low word first).
    pub(super) flips: [u64; 2],
    /// `Position::passes` before the move.
    pub(super) passes: u8,
    /// The walls the duck lifted (walling's duck rule).
    pub(super) lifted: CellBits,
}

impl Played {
    /// A record of what a move may change, before it changes anything.
    pub(super) fn keeping(pos: &Position) -> Played {
        Played {
            undo: Undo { moved: EMPTY, captured: [(0, 0); 4], ncaptured: 0 },
            castle: pos.castle,
            ep: pos.ep,
            ep_victim: pos.ep_victim,
            gates: pos.gates,
            checks: pos.checks,
            blasted: [(0, 0); 9],
            nblasted: 0,
            petrified: false,
            gains: [0; 4],
            marks: 0,
            flips: [0; 2],
            passes: pos.passes,
            lifted: CellBits::default(),
        }
    }

    /// Puts back the castling rights, en-passant squares, gates and check counts.
    pub(super) fn restore(&self, pos: &mut Position) {
        pos.castle = self.castle;
        pos.ep = self.ep;
        pos.ep_victim = self.ep_victim;
        pos.gates = self.gates;
        pos.checks = self.checks;
        pos.passes = self.passes;
    }
}

impl Tables {
    /// Plays a move with all its effects.
    pub fn play(&self, pos: &mut Position, mv: Move) -> Played {
        self.play_counting(pos, mv, true)
    }

    /// `play` before a position that is only counted (perft's last ply):
    /// a check is looked for only where it ends the game (`game_over`
    /// reads that count); other counts stay stale until `unplay`.
    pub(crate) fn play_to_count(&self, pos: &mut Position, mv: Move) -> Played {
        self.play_counting(pos, mv, false)
    }

    /// `play`; `every_check`: count every check given, else only a last one.
    #[inline]
    fn play_counting(&self, pos: &mut Position, mv: Move, every_check: bool) -> Played {
        let last_check = pos.checks[pos.side] == 1;
        let played = self.play_untested(pos, mv);
        let us = pos.side ^ 1;
        if self.laws.check_counting && (every_check || last_check) && pos.royal[pos.side] != NO_SQUARE {
            let king = pos.royal[pos.side] as usize;
            if self.attacked(pos, king, us) {
                pos.checks[us] = pos.checks[us].saturating_sub(1);
            }
        }
        played
    }

    /// `play` without counting checks: for legality tests, which take the
    /// move back at once.
    #[inline]
    pub(crate) fn play_untested(&self, pos: &mut Position, mv: Move) -> Played {
        if let Some(st) = self.stone_tables() {
            return self.play_stones(st, pos, mv);
        }
        if mv.special == Special::Pass {
            return self.play_pass(pos);
        }
        let mut played = if self.hands_change(mv) { self.play_hands(pos, mv) } else { self.play_board(pos, mv) };
        pos.passes = 0;
        if mv.wall != 0 {
            self.raise_move_wall(pos, mv, &mut played);
        }
        played
    }

    /// May `mv` change a hand or a promoted mark? Not a move on the board
    /// where captures stay out of the hands and nothing promotes (Supply).
    #[inline]
    fn hands_change(&self, mv: Move) -> bool {
        let laws = &self.laws;
        laws.drops.as_ref().is_some_and(|d| {
            mv.special == Special::Drop
                || d.captures_to_hand
                || laws.promotion.is_some()
                || laws.shogi.is_some()
                || laws.seirawan_gating
        })
    }

    /// `play_untested` on the board alone (no hands).
    pub(crate) fn play_board(&self, pos: &mut Position, mv: Move) -> Played {
        let us = pos.side;
        let mut played = Played::keeping(pos);
        played.undo.moved = pos.cells[mv.from as usize];
        let (from, to) = (mv.from as usize, mv.to as usize);
        if mv.special == Special::Castle {
            let (kto, rto) = self.castling_targets(us, from, to);
            let king = pos.lift(from);
            let rook = pos.lift(to);
            pos.put(kto, king, self.royal() == Some(cell_kind(king)));
            pos.put(rto, rook, false);
            pos.side ^= 1;
            pos.castle[us] = [NO_SQUARE; 2];
        } else {
            played.undo = pos.make(from, to, mv.victims(), self.royal());
            if let Some(kind) = mv.promotion() {
                pos.set_piece(to, piece_cell(kind, us));
            }
            if self.laws.blast && played.undo.ncaptured > 0 {
                self.explode(pos, to, &mut played);
            } else if played.undo.ncaptured > 0 && self.laws.petrify.contains(&cell_kind(played.undo.moved)) {
                // The capturer turns to stone: a wall where it stands.
                played.blasted[0] = (to as u16, u16::from(pos.lift(to)));
                played.nblasted = 1;
                played.petrified = true;
                pos.cells[to] = OFF;
            }
            for side in 0..2 {
                if pos.castle[side] == [NO_SQUARE; 2] {
                    continue;
                }
                for wing in 0..2 {
                    let rook = pos.castle[side][wing] as usize;
                    if rook == NO_SQUARE as usize {
                        continue;
                    }
                    if rook == from || rook == to || pos.cells[rook] == EMPTY {
                        pos.castle[side][wing] = NO_SQUARE;
                    }
                }
                let king_gone = if self.plain_castling_king().is_some() {
                    let king = pos.castle_king[side] as usize;
                    king != NO_SQUARE as usize && (king == from || king == to || pos.cells[king] == EMPTY)
                } else {
                    pos.royal[side] == NO_SQUARE || (side == us && self.royal() == Some(cell_kind(played.undo.moved)))
                };
                if king_gone {
                    pos.castle[side] = [NO_SQUARE; 2];
                }
            }
        }
        // A rush that promotes (torpedo: b3b1q) leaves no pawn to take en passant.
        let rush = mv.special == Special::PawnRush && mv.promo == 0;
        if self.laws.cambodian.is_some() {
            self.close_gates(pos, mv, us);
        }
        (pos.ep, pos.ep_victim) = if rush {
            self.rush_ep(us, from, to)
        } else if self.initial_rush(played.undo.moved, from, to) {
            // A sergeant's two-square first move (wolf) may be taken en
            // passant like a pawn's rush; the victim is found as for a pawn.
            (((from as isize + to as isize) / 2) as u16, NO_SQUARE)
        } else {
            (NO_SQUARE, NO_SQUARE)
        };
        played
    }

    /// Takes back a move made by `play`.
    #[inline]
    pub fn unplay(&self, pos: &mut Position, mv: Move, played: &Played) {
        if let Some(st) = self.stone_tables() {
            return self.unplay_stones(st, pos, mv, played);
        }
        if mv.special == Special::Pass {
            pos.side ^= 1;
            return played.restore(pos);
        }
        if mv.wall != 0 {
            self.lower_move_wall(pos, mv, played);
        }
        if self.hands_change(mv) {
            return self.unplay_hands(pos, mv, played);
        }
        self.unplay_board(pos, mv, played);
    }

    /// Takes back a move made by `play_board`.
    pub(crate) fn unplay_board(&self, pos: &mut Position, mv: Move, played: &Played) {
        let (from, to) = (mv.from as usize, mv.to as usize);
        if mv.special == Special::Castle {
            let us = pos.side ^ 1;
            let (kto, rto) = self.castling_targets(us, from, to);
            let king = pos.lift(kto);
            let rook = pos.lift(rto);
            pos.put(from, king, self.royal() == Some(cell_kind(king)));
            pos.put(to, rook, false);
            pos.side = us;
        } else {
            let royal = self.royal();
            if played.petrified {
                pos.cells[to] = EMPTY;
            }
            for &(sq, cell) in played.blasted[..played.nblasted as usize].iter().rev() {
                let cell = cell as u8;
                pos.put(sq as usize, cell, royal == Some(cell_kind(cell)));
            }
            if mv.promo != 0 {
                pos.set_piece(to, played.undo.moved);
            }
            pos.unmake(from, to, &played.undo, royal);
        }
        played.restore(pos);
    }
}
