//! Walling (`wallingRule`, `rules::Walling`): a move also turns an empty
//! square into a wall. Each legal move is emitted once per square its wall
//! may go to (a move whose wall has nowhere to go is no move, as in
//! Fairy-Stockfish's generator); perft's last ply counts the squares
//! without building the moves. The wall squares are those empty once the
//! move is made, in the side's walling region, and for the arrow those the
//! moved piece could move to from its destination; for the trail only the
//! square left; the duck lifts the walls standing before it lands.

use super::legal::Screen;
use super::movegen::Tables;
use super::play::Played;
use super::vocabulary::{Move, Special};
use crate::variants::board::{cell_kind, cellbits::CellBits, Position, EMPTY, NO_SQUARE, OFF};
use crate::variants::rules::{WallRule, Walling};

/// The most squares of a board (16x16).
const MAX_SQUARES: usize = 256;

impl Tables {
    /// Calls `f` for each walled form of the legal move `mv`.
    #[inline]
    pub(crate) fn wall_each(&self, pos: &mut Position, mv: Move, f: &mut impl FnMut(&mut Position, Move)) {
        let w = self.laws.walling.as_ref().expect("a walling rule");
        if w.rule == WallRule::Past && simple(&mv) {
            // The square left, empty after the move: known without playing it.
            let from = mv.from as usize;
            if w.region[pos.side].has(from) {
                f(pos, Move { wall: from as u16, ..mv });
            }
            return;
        }
        let mut targets = [0u16; MAX_SQUARES];
        let n = self.wall_targets(pos, mv, &mut targets);
        for &wall in &targets[..n] {
            f(pos, Move { wall, ..mv });
        }
    }

    /// The squares the wall of `mv` may go to, into `out`; their number.
    fn wall_targets(&self, pos: &mut Position, mv: Move, out: &mut [u16; MAX_SQUARES]) -> usize {
        let w = self.laws.walling.as_ref().expect("a walling rule");
        let us = pos.side;
        let (from, to) = (mv.from as usize, mv.to as usize);
        let played = self.play_untested(pos, mv);
        let mut n = 0;
        let mut push = |pos: &Position, sq: usize| {
            if pos.cells[sq] == EMPTY && w.region[us].has(sq) {
                out[n] = sq as u16;
                n += 1;
            }
        };
        match w.rule {
            // A drop or a pass has no vector to shoot along.
            WallRule::Arrow if from == to => {}
            WallRule::Arrow => {
                let mut shots = [0u16; MAX_SQUARES];
                let k = self.arrow_squares(pos, to, &mut shots);
                for &sq in &shots[..k] {
                    push(pos, sq as usize);
                }
            }
            WallRule::Past if from != to => push(pos, from),
            WallRule::Past => {}
            WallRule::Duck | WallRule::Static => {
                for sq in self.geometry().squares() {
                    push(pos, sq);
                }
            }
            WallRule::Edge => {
                for sq in self.geometry().squares() {
                    if self.on_edge_or_by_wall(pos, sq) {
                        push(pos, sq);
                    }
                }
            }
        }
        self.unplay(pos, mv, &played);
        n
    }

    /// The squares the piece on `at` could move to (empty or not: the
    /// caller keeps the empty ones), into `out`; their number.
    fn arrow_squares(&self, pos: &mut Position, at: usize, out: &mut [u16; MAX_SQUARES]) -> usize {
        if pos.cells[at] == EMPTY || pos.cells[at] == OFF {
            return 0;
        }
        let mut n = 0;
        let plain = self.plain_landings(pos, at, |t| {
            out[n] = t as u16;
            n += 1;
        });
        if !plain {
            let mut targets = Vec::new();
            self.destinations(&mut pos.cells, at, None, &mut targets);
            targets.sort_unstable();
            targets.dedup();
            n = targets.len().min(MAX_SQUARES);
            out[..n].copy_from_slice(&targets[..n]);
        }
        n
    }

    /// Is `sq` on the board's edge or next to a wall standing on the board
    /// (the edge rule; Fairy-Stockfish's shifts of its wall squares)?
    fn on_edge_or_by_wall(&self, pos: &Position, sq: usize) -> bool {
        let g = self.geometry();
        let (f, r) = g.coords(sq);
        if f == 0 || r == 0 || f + 1 == g.width || r + 1 == g.height {
            return true;
        }
        [1, -1, g.stride as isize, -(g.stride as isize)].iter().any(|d| pos.placed.contains((sq as isize + d) as usize))
    }

    /// After the board part of `mv`: its wall (the duck lifts the standing
    /// walls first, kept in `played` to put back).
    #[inline]
    pub(crate) fn raise_move_wall(&self, pos: &mut Position, mv: Move, played: &mut Played) {
        if self.laws.walling.as_ref().is_some_and(|w| w.rule == WallRule::Duck) {
            played.lifted = pos.placed;
            for_each_cell(&pos.placed.clone(), |c| pos.lower_wall(c));
        }
        pos.raise_wall(mv.wall as usize);
        // A wall on the square a pawn passed over bars en passant (and
        // Fairy-Stockfish's FEN then has `-`).
        if pos.ep == mv.wall {
            (pos.ep, pos.ep_victim) = (NO_SQUARE, NO_SQUARE);
        }
    }

    /// Takes back `raise_move_wall`.
    #[inline]
    pub(crate) fn lower_move_wall(&self, pos: &mut Position, mv: Move, played: &Played) {
        pos.lower_wall(mv.wall as usize);
        for_each_cell(&played.lifted, |c| pos.raise_wall(c));
    }

    /// Perft's last ply with walls: per legal move, the squares its wall
    /// may go to, counted without building the walled moves where the
    /// count follows from the board (see `wall_count`).
    pub(crate) fn count_walled(&self, pos: &mut Position, moves: &mut Vec<Move>) -> u64 {
        let w = self.laws.walling.as_ref().expect("a walling rule");
        let screen: Screen = self.screen(pos);
        let laws = &self.laws;
        let plain_pieces = screen.king == NO_SQUARE
            && !screen.all_played
            && laws.pawn.is_none()
            && laws.castling.is_none()
            && laws.drops.is_none()
            && !laws.blast
            && laws.petrify.is_empty();
        if w.rule == WallRule::Arrow && plain_pieces {
            return self.count_arrows(pos, w, moves);
        }
        // Then a plain move is legal as `screened_legal` would find it.
        let screened_away = laws.mutually_immune != 0 || laws.no_checks || screen.bikjang;
        if w.rule == WallRule::Past && plain_pieces && !screened_away {
            return self.count_past(pos, w, &screen, moves);
        }
        self.pseudo_legal(pos, moves);
        let us = pos.side;
        let empty = match w.rule {
            WallRule::Duck | WallRule::Static => {
                self.geometry().squares().filter(|&sq| pos.cells[sq] == EMPTY && w.region[us].has(sq)).count() as u64
            }
            _ => 0,
        };
        let mut n = 0;
        for &mv in moves.iter() {
            if self.screened_legal(pos, &screen, mv) {
                n += self.wall_count(pos, w, mv, empty);
            }
        }
        n
    }

    /// `count_walled` for the past rule where every plain move is legal
    /// (`count_walled`'s conditions): a plain move walls the square it
    /// leaves if that is in the region, so each piece's plain moves are
    /// counted without building them. Other moves go the general way.
    fn count_past(&self, pos: &mut Position, w: &Walling, screen: &Screen, moves: &mut Vec<Move>) -> u64 {
        let us = pos.side;
        let mut n = 0;
        for i in 0..pos.lists[us].len() {
            let from = pos.lists[us][i] as usize;
            // Every move of a piece walls the square it leaves, or is no
            // move: outside the region the piece has none.
            if !w.region[us].has(from) {
                continue;
            }
            let mut k = 0;
            if !self.has_extras_at(cell_kind(pos.cells[from]), from) && self.plain_landings(pos, from, |_| k += 1) {
                n += k;
            } else {
                self.general_moves(pos, from, moves);
            }
        }
        self.board_extras(pos, moves);
        for &mv in moves.iter() {
            if self.screened_legal(pos, screen, mv) {
                n += self.wall_count(pos, w, mv, 0);
            }
        }
        n
    }

    /// `count_walled` for arrows where every move is a plain one of a
    /// piece (Amazons): per destination of each piece, the squares it could
    /// shoot to from there, without building a move. A piece whose moves
    /// are not plain goes the general way.
    fn count_arrows(&self, pos: &mut Position, w: &Walling, moves: &mut Vec<Move>) -> u64 {
        let us = pos.side;
        let region = &w.region[us];
        let mut n = 0;
        let mut dests = [0u16; MAX_SQUARES];
        for i in 0..pos.lists[us].len() {
            let from = pos.lists[us][i] as usize;
            let mover = pos.cells[from];
            let mut k = 0;
            let plain = !self.has_extras(cell_kind(mover))
                && self.plain_landings(pos, from, |to| {
                    dests[k] = to as u16;
                    k += 1;
                });
            if !plain {
                moves.clear();
                self.general_moves(pos, from, moves);
                for &mv in moves.iter() {
                    n += self.wall_count(pos, w, mv, 0);
                }
                continue;
            }
            pos.cells[from] = EMPTY;
            for &to in &dests[..k] {
                let to = to as usize;
                let target = pos.cells[to];
                pos.cells[to] = mover;
                let cells = &pos.cells;
                let counted = self.plain_landings(pos, to, |sq| n += u64::from(cells[sq] == EMPTY && region.has(sq)));
                debug_assert!(counted, "the same kind's moves are plain from any square");
                pos.cells[to] = target;
            }
            pos.cells[from] = mover;
        }
        n
    }

    /// The number of walled forms of the legal move `mv`; `empty`: the
    /// empty squares of the mover's walling region (duck and static).
    #[inline]
    fn wall_count(&self, pos: &mut Position, w: &Walling, mv: Move, empty: u64) -> u64 {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let region = &w.region[pos.side];
        let simple = simple(&mv);
        match w.rule {
            // The square left is empty after the move, the destination
            // full: only they change the count.
            WallRule::Duck | WallRule::Static if simple => {
                let left = u64::from(region.has(from));
                let filled = u64::from(pos.cells[to] == EMPTY && region.has(to));
                empty + left - filled
            }
            WallRule::Past if simple => u64::from(region.has(from)),
            WallRule::Arrow if simple && mv.promo == 0 => {
                // The piece on its destination, its origin empty: the
                // squares it could move to from there.
                let (mover, target) = (pos.cells[from], pos.cells[to]);
                pos.cells[from] = EMPTY;
                pos.cells[to] = mover;
                let mut n = 0;
                let cells = &pos.cells;
                let plain = self.plain_landings(pos, to, |sq| n += u64::from(cells[sq] == EMPTY && region.has(sq)));
                pos.cells[to] = target;
                pos.cells[from] = mover;
                if plain {
                    n
                } else {
                    self.wall_targets(pos, mv, &mut [0; MAX_SQUARES]) as u64
                }
            }
            _ => self.wall_targets(pos, mv, &mut [0; MAX_SQUARES]) as u64,
        }
    }
}

/// A move of one piece from one square to another, no victims: its
/// origin is empty once it is made.
#[inline]
fn simple(mv: &Move) -> bool {
    mv.nvictims == 0 && matches!(mv.special, Special::None | Special::PawnRush) && mv.from != mv.to
}

/// Calls `f` for each cell of `set`.
#[inline]
fn for_each_cell(set: &CellBits, mut f: impl FnMut(usize)) {
    for (i, &word) in set.0.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            f(i * 64 + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
}
