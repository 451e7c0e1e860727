//! Boards up to 16x16 as a padded mailbox, and positions on them.
//!
//! Squares are cells of a byte array with three cells of padding on every
//! side (the longest single step of an atom is 3), so a step never needs a
//! bounds check: it lands on an `OFF` cell instead. A row is `width + 3`
//! cells (the padding between rows is shared), and there are three padding
//! rows above and below.

use super::cellbits::CellBits;
use std::fmt;

/// The widest and tallest board.
pub const MAX_SIZE: u8 = 16;
/// Padding cells around the board.
pub const PAD: usize = 3;

/// An empty cell.
pub const EMPTY: u8 = 0;
/// A cell off the board.
pub const OFF: u8 = 255;
/// Colour bit of a piece cell.
pub const BLACK_BIT: u8 = 64;

/// A side.
pub type Side = usize;
/// White, the side that moves first.
pub const WHITE: Side = 0;
/// Black.
pub const BLACK: Side = 1;

/// The cell for a piece of `kind` (index into the variant's pieces) and `side`.
pub fn piece_cell(kind: usize, side: Side) -> u8 {
    (kind as u8 + 1) | if side == BLACK { BLACK_BIT } else { 0 }
}

/// The kind of the piece in a non-empty, on-board cell.
pub fn cell_kind(cell: u8) -> usize {
    ((cell & !BLACK_BIT) - 1) as usize
}

/// The side of the piece in a non-empty, on-board cell.
pub fn cell_side(cell: u8) -> Side {
    usize::from(cell & BLACK_BIT != 0)
}

/// Board dimensions and the mailbox layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    /// Files, 1 to `MAX_SIZE`.
    pub width: u8,
    /// Ranks, 1 to `MAX_SIZE`.
    pub height: u8,
    /// Cells from one rank to the next (`width + PAD`).
    pub stride: usize,
    /// Cells in the whole mailbox, padding included.
    pub cells: usize,
}

impl Geometry {
    /// The layout of a `width` x `height` board (each 1 to `MAX_SIZE`; panics otherwise).
    pub fn new(width: u8, height: u8) -> Geometry {
        assert!((1..=MAX_SIZE).contains(&width) && (1..=MAX_SIZE).contains(&height));
        let stride = width as usize + PAD;
        Geometry { width, height, stride, cells: (height as usize + 2 * PAD + 1) * stride }
    }

    /// The cell of (file, rank), both 0-based.
    pub fn cell(&self, file: u8, rank: u8) -> usize {
        (rank as usize + PAD) * self.stride + file as usize + PAD
    }

    /// (file, rank) of an on-board cell.
    pub fn coords(&self, cell: usize) -> (u8, u8) {
        ((cell % self.stride - PAD) as u8, (cell / self.stride - PAD) as u8)
    }

    /// The cell offset of a step.
    pub fn delta(&self, step: (i8, i8)) -> isize {
        step.1 as isize * self.stride as isize + step.0 as isize
    }

    /// Every on-board cell, a1 first, rank by rank.
    pub fn squares(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.height).flat_map(move |r| (0..self.width).map(move |f| self.cell(f, r)))
    }

    /// The square name of a cell (`a1`, `p16`; ranks past 9 with two digits).
    pub fn name(&self, cell: usize) -> String {
        let (f, r) = self.coords(cell);
        format!("{}{}", (b'a' + f) as char, r as u32 + 1)
    }

    /// Reads a square name (either case), `None` if off this board.
    pub fn parse_square(&self, text: &str) -> Option<usize> {
        let mut chars = text.chars();
        let file = chars.next()?.to_ascii_lowercase();
        if !file.is_ascii_lowercase() {
            return None;
        }
        let digits: String = chars.collect();
        if digits.is_empty()
            || digits.len() > 2
            || !digits.chars().all(|c| c.is_ascii_digit())
            || digits.starts_with('0')
        {
            return None;
        }
        let rank: u8 = digits.parse().ok()?;
        let f = file as u8 - b'a';
        if f >= self.width || rank == 0 || rank > self.height {
            return None;
        }
        Some(self.cell(f, rank - 1))
    }

    /// A fresh mailbox: every board cell empty, the padding `OFF`.
    pub fn empty_cells(&self) -> Vec<u8> {
        let mut cells = vec![OFF; self.cells];
        for sq in self.squares() {
            cells[sq] = EMPTY;
        }
        cells
    }
}

/// No royal piece on the board.
pub const NO_SQUARE: u16 = u16::MAX;

/// A position: the mailbox, the side to move, piece lists and royal squares.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    /// The mailbox: `EMPTY`, `OFF` or a piece cell (`piece_cell`).
    pub cells: Vec<u8>,
    /// The side to move.
    pub side: Side,
    /// The cells of each side's pieces (unordered).
    pub lists: [Vec<u16>; 2],
    /// For each cell, its index in its side's list.
    slot: Vec<u16>,
    /// Each side's royal piece, or `NO_SQUARE`.
    pub royal: [u16; 2],
    /// Castling rights: each side's rook cell towards the h side and the a
    /// side, `NO_SQUARE` when that castling is gone.
    pub castle: [[u16; 2]; 2],
    /// Each side's castling king where it is not the royal piece (giveaway's
    /// commoner), found from the FEN; `NO_SQUARE` otherwise.
    pub castle_king: [u16; 2],
    /// The cell a pawn passed over with a double step just now (the FEN's
    /// en-passant square), or `NO_SQUARE`.
    pub ep: u16,
    /// The piece that passed over `ep` when it is not the one behind it (a
    /// Betza pawn's step: Berolina's diagonal one), or `NO_SQUARE`.
    pub ep_victim: u16,
    /// Checks each side still has to give (check-counting variants).
    pub checks: [u8; 2],
    /// Cambodian first-move rights: per side, a bit per file of its back
    /// rank whose piece (king or met) has not moved (the FEN's `DEde`).
    pub gates: [u16; 2],
    /// Each side's hand (variants with drops): per kind, how many; empty
    /// vectors in variants without hands.
    pub hands: [Vec<u8>; 2],
    /// Per cell, is its piece a promoted one (the FEN's `~`), kept by the
    /// moves of variants with hands; empty in the others.
    pub promoted: Vec<bool>,
    /// What the last moves passed, 0 in a FEN. Janggi (`moves/passing.rs`):
    /// bit 0, the last move was a pass; bit 1, the game was one pass from
    /// its end before it. Stone games (`moves/stones.rs`): passes in a row.
    pub passes: u8,
    /// Each side's pieces as a cell set, kept by the moves.
    pub(crate) men: [CellBits; 2],
    /// Each side's pawns (the kind given to `index_cells`), kept by the moves.
    pub(crate) pawns: [CellBits; 2],
    /// The `OFF` cells (padding and holes) when `index_cells` ran; cells
    /// turned to stone later are not in it.
    pub(crate) walls: CellBits,
    /// The walls standing on squares of the board (the FEN's `*`, and the
    /// walls moves placed): the duck rule lifts them.
    pub(crate) placed: CellBits,
    /// The pawns' cell without its colour bit (kind + 1); 0: the cell sets
    /// are not kept (`index_cells` was not asked to).
    pawn_code: u8,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position(side {}, {} + {} pieces)", self.side, self.lists[0].len(), self.lists[1].len())
    }
}

/// What a move changed, to take it back.
#[derive(Debug, Clone, Copy)]
pub struct Undo {
    /// The cell of the piece that moved.
    pub moved: u8,
    /// The squares emptied by the move and what stood there (the cell
    /// widened to 16 bits: a pair without padding is zeroed in two
    /// stores, not eight), in the order taken.
    pub captured: [(u16, u16); 4],
    /// How many entries of `captured` are used.
    pub ncaptured: u8,
}

impl Position {
    /// An empty board of `geometry`, white to move.
    pub fn empty(geometry: &Geometry) -> Position {
        Position {
            cells: geometry.empty_cells(),
            side: WHITE,
            lists: [Vec::new(), Vec::new()],
            slot: vec![0; geometry.cells],
            royal: [NO_SQUARE; 2],
            castle: [[NO_SQUARE; 2]; 2],
            castle_king: [NO_SQUARE; 2],
            ep: NO_SQUARE,
            ep_victim: NO_SQUARE,
            checks: [0; 2],
            gates: [0; 2],
            hands: [Vec::new(), Vec::new()],
            promoted: Vec::new(),
            passes: 0,
            men: [CellBits::default(); 2],
            pawns: [CellBits::default(); 2],
            walls: CellBits::default(),
            placed: CellBits::default(),
            pawn_code: 0,
        }
    }

    /// Gives the position empty hands for `kinds` kinds of piece and no
    /// promoted pieces (a variant with drops).
    pub fn open_hands(&mut self, kinds: usize) {
        self.hands = [vec![0; kinds], vec![0; kinds]];
        self.promoted = vec![false; self.cells.len()];
    }

    /// Fills the cell sets from the mailbox and keeps them from now on,
    /// `pawn`'s pieces as the pawns (`None`: the sets are not kept).
    pub fn index_cells(&mut self, pawn: Option<usize>) {
        self.pawn_code = pawn.map_or(0, |k| k as u8 + 1);
        if pawn.is_none() {
            (self.men, self.pawns, self.walls) = Default::default();
            return;
        }
        let cells = &self.cells;
        let of = |side: Side, pawns_only: bool| {
            CellBits::from_fn(cells.len(), |c| {
                let cell = cells[c];
                cell != EMPTY && cell != OFF && cell_side(cell) == side && (!pawns_only || self.is_pawn(cell))
            })
        };
        let men = [of(WHITE, false), of(BLACK, false)];
        let pawns = [of(WHITE, true), of(BLACK, true)];
        let walls = CellBits::from_fn(64 * super::cellbits::WORDS, |c| c >= cells.len() || cells[c] == OFF);
        (self.men, self.pawns, self.walls) = (men, pawns, walls);
    }

    /// The kind given to `index_cells`, if any.
    pub(crate) fn pawn_kind(&self) -> Option<usize> {
        (self.pawn_code != 0).then(|| self.pawn_code as usize - 1)
    }

    /// Is the piece `cell` a pawn of the kind kept?
    #[inline(always)]
    fn is_pawn(&self, cell: u8) -> bool {
        cell & !BLACK_BIT == self.pawn_code
    }

    /// Replaces the piece on `sq` by `cell` of the same side (a promotion
    /// or its take-back).
    pub fn set_piece(&mut self, sq: usize, cell: u8) {
        let side = cell_side(cell);
        self.cells[sq] = cell;
        if self.pawn_code != 0 {
            self.pawns[side].remove(sq);
            if self.is_pawn(cell) {
                self.pawns[side].insert(sq);
            }
        }
    }

    /// Moves `side`'s piece `cell` from `from` to `to` in the cell sets.
    #[inline(always)]
    fn move_in_sets(&mut self, side: Side, cell: u8, from: usize, to: usize) {
        self.men[side].remove(from);
        self.men[side].insert(to);
        if self.is_pawn(cell) {
            self.pawns[side].remove(from);
            self.pawns[side].insert(to);
        }
    }

    /// Do the cell sets agree with the mailbox (after `index_cells`)?
    pub(crate) fn cells_indexed(&self) -> bool {
        let mut fresh = self.clone();
        fresh.index_cells(self.pawn_kind());
        fresh.men == self.men && fresh.pawns == self.pawns && fresh.walls == self.walls
    }

    /// Takes the piece off a non-empty cell and returns it.
    #[inline(always)]
    pub fn lift(&mut self, sq: usize) -> u8 {
        let cell = self.cells[sq];
        debug_assert!(cell != EMPTY && cell != OFF);
        let s = cell_side(cell);
        self.remove_from_list(sq, s);
        if self.royal[s] == sq as u16 {
            self.royal[s] = NO_SQUARE;
        }
        self.cells[sq] = EMPTY;
        if self.pawn_code != 0 {
            self.men[s].remove(sq);
            self.pawns[s].remove(sq);
        }
        cell
    }

    /// Puts a piece on an empty cell.
    pub fn put(&mut self, sq: usize, cell: u8, royal: bool) {
        debug_assert_eq!(self.cells[sq], EMPTY);
        let side = cell_side(cell);
        self.cells[sq] = cell;
        self.slot[sq] = self.lists[side].len() as u16;
        self.lists[side].push(sq as u16);
        if self.pawn_code != 0 {
            self.men[side].insert(sq);
            if self.is_pawn(cell) {
                self.pawns[side].insert(sq);
            }
        }
        if royal {
            self.royal[side] = sq as u16;
        }
    }

    /// Turns the piece on `sq` over to the other side (a flipped stone).
    pub fn flip(&mut self, sq: usize) {
        let cell = self.cells[sq];
        let side = cell_side(cell);
        self.remove_from_list(sq, side);
        self.cells[sq] = cell ^ BLACK_BIT;
        self.slot[sq] = self.lists[side ^ 1].len() as u16;
        self.lists[side ^ 1].push(sq as u16);
        if self.pawn_code != 0 {
            self.men[side].remove(sq);
            self.men[side ^ 1].insert(sq);
            if self.is_pawn(cell) {
                self.pawns[side].remove(sq);
                self.pawns[side ^ 1].insert(sq);
            }
        }
    }

    /// Turns the empty square `sq` into a wall.
    #[inline]
    pub fn raise_wall(&mut self, sq: usize) {
        debug_assert_eq!(self.cells[sq], EMPTY);
        self.cells[sq] = OFF;
        self.placed.insert(sq);
        if self.pawn_code != 0 {
            self.walls.insert(sq);
        }
    }

    /// Takes the wall off the square `sq` (placed by `raise_wall`).
    #[inline]
    pub fn lower_wall(&mut self, sq: usize) {
        debug_assert_eq!(self.cells[sq], OFF);
        self.cells[sq] = EMPTY;
        self.placed.remove(sq);
        if self.pawn_code != 0 {
            self.walls.remove(sq);
        }
    }

    /// The walls standing on the board's squares, lowest cell first.
    pub fn placed_walls(&self) -> impl Iterator<Item = usize> + '_ {
        (0..64 * super::cellbits::WORDS).filter(|&c| self.placed.contains(c))
    }

    fn remove_from_list(&mut self, sq: usize, side: Side) {
        let i = self.slot[sq] as usize;
        let list = &mut self.lists[side];
        let last = list.pop().expect("a piece in the list");
        if i < list.len() {
            list[i] = last;
            self.slot[last as usize] = i as u16;
        }
    }

    /// Plays a move: `from` to `to`, capturing whatever stands on `to` (if
    /// it is another square) and on each victim square.
    // Inlined everywhere: `play` and the plain paths of `perft` and
    // `is_legal_slow` all call it once per move.
    #[inline(always)]
    pub fn make(&mut self, from: usize, to: usize, victims: &[u16], royal_kind: Option<usize>) -> Undo {
        let moved = self.cells[from];
        let side = cell_side(moved);
        let mut undo = Undo { moved, captured: [(0, 0); 4], ncaptured: 0 };
        let mut capture = |pos: &mut Position, sq: usize| {
            if pos.cells[sq] != EMPTY && sq != from {
                let cell = pos.lift(sq);
                undo.captured[undo.ncaptured as usize] = (sq as u16, u16::from(cell));
                undo.ncaptured += 1;
            }
        };
        for &v in victims {
            capture(self, v as usize);
        }
        if to != from {
            capture(self, to);
            let i = self.slot[from];
            self.lists[side][i as usize] = to as u16;
            self.slot[to] = i;
            self.cells[from] = EMPTY;
            self.cells[to] = moved;
            if self.pawn_code != 0 {
                self.move_in_sets(side, moved, from, to);
            }
            if royal_kind == Some(cell_kind(moved)) {
                self.royal[side] = to as u16;
            }
        }
        self.side ^= 1;
        undo
    }

    /// Takes back a move made by `make`.
    // Inlined everywhere: `play` and the plain paths of `perft` and
    // `is_legal_slow` all call it once per move.
    #[inline(always)]
    pub fn unmake(&mut self, from: usize, to: usize, undo: &Undo, royal_kind: Option<usize>) {
        self.side ^= 1;
        let side = cell_side(undo.moved);
        if to != from {
            let i = self.slot[to];
            self.lists[side][i as usize] = from as u16;
            self.slot[from] = i;
            self.cells[to] = EMPTY;
            self.cells[from] = undo.moved;
            if self.pawn_code != 0 {
                self.move_in_sets(side, undo.moved, to, from);
            }
            if royal_kind == Some(cell_kind(undo.moved)) {
                self.royal[side] = from as u16;
            }
        }
        for &(sq, cell) in undo.captured[..undo.ncaptured as usize].iter().rev() {
            let cell = cell as u8;
            let is_royal = royal_kind == Some(cell_kind(cell));
            self.put(sq as usize, cell, is_royal);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_with_two_digit_ranks() {
        let g = Geometry::new(12, 10);
        for sq in g.squares() {
            assert_eq!(g.parse_square(&g.name(sq)), Some(sq));
        }
        assert_eq!(g.name(g.cell(0, 9)), "a10");
        assert_eq!(g.parse_square("A10"), Some(g.cell(0, 9)));
        assert_eq!(g.parse_square("a11"), None);
        assert_eq!(g.parse_square("m1"), None);
        assert_eq!(g.parse_square("a01"), None);
    }

    #[test]
    fn padding_catches_every_atom_step() {
        let g = Geometry::new(16, 16);
        let cells = g.empty_cells();
        for sq in g.squares() {
            for dx in -3i8..=3 {
                for dy in -3i8..=3 {
                    let t = (sq as isize + g.delta((dx, dy))) as usize;
                    let (f, r) = g.coords(sq);
                    let on = (0..16).contains(&(f as i8 + dx)) && (0..16).contains(&(r as i8 + dy));
                    assert_eq!(cells[t] != OFF, on);
                }
            }
        }
    }
}
