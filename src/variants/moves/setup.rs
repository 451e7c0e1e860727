//! Set-up phases played with drops (`rules/setup.rs`): the drops of a
//! variant with set-up rules (bishops on opposite colours), the must-drop
//! filter on the legal moves, and castling rights gained by a dropped king
//! or rook. Called only when `Tables::setup_drops` is set: other variants
//! never look here.

use super::legal::Screen;
use super::movegen::Tables;
use super::vocabulary::{Move, Special};
use crate::variants::board::{cell_kind, cell_side, Position, EMPTY, WHITE};
use crate::variants::rules::{Drops, SetupDrops};

/// The bishops' colours at a node: the side's bishops on dark and light
/// cells, the empty cells of their drop region by colour, and how many the
/// side has on the board and in hand.
struct Bishops {
    kind: usize,
    on: [u32; 2],
    free: [u32; 2],
    total: u32,
}

impl Tables {
    /// 0 for a dark cell (a1 is dark, as Fairy-Stockfish's `DarkSquares`), 1 for a light one.
    fn colour(&self, sq: usize) -> usize {
        let (f, r) = self.geometry().coords(sq);
        usize::from((f + r) % 2 == 1)
    }

    /// `drop_moves` with the set-up rules: each kind in hand onto each
    /// empty cell of its region, less the drops that break the bishops'
    /// colours (Fairy-Stockfish's `Position::legal`: a bishop joins no
    /// bishop of its colour beyond half of them; another piece leaves
    /// enough empty cells of each colour for the bishops still in hand).
    pub(crate) fn setup_drop_moves(&self, pos: &Position, drops: &Drops, setup: &SetupDrops, out: &mut Vec<Move>) {
        let us = pos.side;
        let region = |kind: usize| if drops.pawn == Some(kind) { &drops.pawn_cells[us] } else { &drops.cells[us] };
        let bishops = setup.opposite_bishops.map(|kind| {
            let mut b = Bishops { kind, on: [0; 2], free: [0; 2], total: u32::from(pos.hands[us][kind]) };
            for &sq in &pos.lists[us] {
                if cell_kind(pos.cells[sq as usize]) == kind {
                    b.on[self.colour(sq as usize)] += 1;
                }
            }
            b.total += b.on[0] + b.on[1];
            for sq in self.geometry().squares() {
                if pos.cells[sq] == EMPTY && region(kind).has(sq) {
                    b.free[self.colour(sq)] += 1;
                }
            }
            b
        });
        let allowed = |kind: usize, sq: usize| {
            let Some(b) = &bishops else { return true };
            let c = self.colour(sq);
            if kind == b.kind {
                return b.on[c] < b.total.div_ceil(2);
            }
            let mut free = b.free;
            free[c] -= u32::from(region(b.kind).has(sq));
            (0..2).all(|c| b.on[c] + free[c] >= b.total / 2)
        };
        // `sittuyinRookDrop`: the rook only on the side's first rank.
        let back_rank = if us == WHITE { 0 } else { self.geometry().height - 1 };
        let on_rank =
            |kind: usize, sq: usize| setup.rook_back_rank != Some(kind) || self.geometry().coords(sq).1 == back_rank;
        for (kind, &n) in pos.hands[us].iter().enumerate() {
            if n == 0 {
                continue;
            }
            for sq in self.geometry().squares() {
                if pos.cells[sq] == EMPTY && region(kind).has(sq) && allowed(kind, sq) && on_rank(kind, sq) {
                    out.push(Move::drop(kind, sq));
                }
            }
        }
    }

    /// Does a set-up rule judge the drops of the side to move here? (A
    /// piece in hand, with a must-drop that applies, the bishops' rule or
    /// a rook for the back rank.)
    /// Else perft's last ply counts the node as any variant with drops.
    pub(crate) fn setup_applies(&self, pos: &Position) -> bool {
        let Some(setup) = self.laws.drops.as_ref().and_then(|d| d.setup.as_ref()) else { return false };
        let hand = &pos.hands[pos.side];
        if hand.iter().all(|&n| n == 0) {
            return false;
        }
        setup.opposite_bishops.is_some()
            || setup.rook_back_rank.is_some_and(|r| hand[r] > 0)
            || (setup.must_drop && setup.must_kind.is_none_or(|k| hand[k] > 0))
    }

    /// `mustDrop`: with a piece in hand (of `mustDropType`), keeps in
    /// `moves` the legal drops of that kind when there is one, else the
    /// moves that are not drops (Fairy-Stockfish's `Position::legal`).
    pub(crate) fn keep_must_drops(&self, pos: &mut Position, screen: &Screen, moves: &mut Vec<Move>) {
        let Some(setup) = self.laws.drops.as_ref().and_then(|d| d.setup.as_ref()).filter(|s| s.must_drop) else {
            return;
        };
        let hand = &pos.hands[pos.side];
        let active = match setup.must_kind {
            Some(kind) => hand[kind] > 0,
            None => hand.iter().any(|&n| n > 0),
        };
        if !active {
            return;
        }
        let mut n = 0;
        let mut any_drop = false;
        for i in 0..moves.len() {
            let mv = moves[i];
            let drop = mv.special == Special::Drop;
            if drop && setup.must_kind.is_some_and(|k| mv.dropped() != Some(k)) {
                continue;
            }
            if self.screened_legal(pos, screen, mv) {
                any_drop |= drop;
                moves[n] = mv;
                n += 1;
            }
        }
        moves.truncate(n);
        if any_drop {
            moves.retain(|mv| mv.special == Special::Drop);
        }
    }

    /// `castlingDroppedPiece`: `kind` of the side to move was just put on
    /// `sq` (the side not yet switched). A king dropped on its castling
    /// square gains the rights of the rooks in the corners of its rank; a
    /// rook dropped in a corner beside such a king gains its own.
    pub(crate) fn castle_dropped(&self, pos: &mut Position, kind: usize, sq: usize) {
        let setup = self.laws.drops.as_ref().and_then(|d| d.setup.as_ref());
        if !setup.is_some_and(|s| s.castling_dropped) {
            return;
        }
        let Some(c) = &self.laws.castling else { return };
        let g = self.geometry();
        let us = pos.side;
        let rank = if us == WHITE { c.rank } else { g.height - 1 - c.rank };
        let (file, r) = g.coords(sq);
        if r != rank {
            return;
        }
        let king_kind = c.king_kind.or(self.royal());
        let last = g.width - 1;
        // Rights index 1 is the a side's rook, 0 the h side's.
        let wing = |f: u8| usize::from(f == 0);
        let ours =
            |cell: u8, kinds: &[usize]| cell != EMPTY && cell_side(cell) == us && kinds.contains(&cell_kind(cell));
        if Some(kind) == king_kind && file == c.king_file {
            for f in [0, last] {
                let rook = g.cell(f, rank);
                if ours(pos.cells[rook], &c.rook_kinds) {
                    pos.castle[us][wing(f)] = rook as u16;
                }
            }
        } else if c.rook_kinds.contains(&kind) && (file == 0 || file == last) {
            let king = pos.cells[g.cell(c.king_file, rank)];
            if king_kind.is_some_and(|k| ours(king, &[k])) {
                pos.castle[us][wing(file)] = sq as u16;
            }
        }
    }
}
