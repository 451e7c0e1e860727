//! The built-in pawn (`fmWfcF`, double steps from a region) without the
//! general path: its steps are read straight off the mailbox, and a table
//! per cell says where it may step two and where none of its moves can
//! promote. Horde's 36 pawns made this the bulk of its move generation.

use super::board::{cell_side, Geometry, Position, Side, EMPTY, OFF};
use super::cellbits::CellBits;
use super::laws::Laws;
use super::movegen::Special;

/// A pawn on this cell has no move into the promotion region and no
/// triple step: the direct path gives all its moves but en passant.
const DIRECT: u8 = 1;
/// A pawn on this cell may step two.
const DOUBLE: u8 = 2;

/// The built-in pawn's direct path.
#[derive(Debug, Clone)]
pub(crate) struct PawnPath {
    /// The pawn's kind.
    pub(crate) kind: usize,
    /// Per side, its three steps in the order of its leg code: (cell
    /// offset, captures only; else moves only).
    steps: [[(isize, bool); 3]; 2],
    /// Per side, one step forward.
    pub(crate) forward: [isize; 2],
    /// Per side and cell: `DIRECT` and `DOUBLE`.
    cells: [Vec<u8>; 2],
    /// Per side, the cells with `DIRECT`, and those with `DOUBLE` too.
    direct: [CellBits; 2],
    double: [CellBits; 2],
    /// The words of the mailbox's cell sets.
    pub(crate) words: usize,
}

impl PawnPath {
    /// The path for the built-in pawn of `laws`, whose steps per side are
    /// `steps` (`None`: its moves are not exactly one forward step and two
    /// forward diagonal captures, so the general path stays).
    pub(crate) fn new(g: &Geometry, laws: &Laws, steps: [Option<[(isize, bool); 3]>; 2]) -> Option<PawnPath> {
        let pawn = laws.pawn.as_ref().filter(|p| !p.betza)?;
        let [Some(white), Some(black)] = steps else { return None };
        let s = g.stride as isize;
        let forward = [s, -s];
        let expected = |side: usize, list: &[(isize, bool); 3]| {
            let mut found: Vec<(isize, bool)> = list.to_vec();
            found.sort_unstable();
            let up = forward[side];
            let mut want = vec![(up, false), (up - 1, true), (up + 1, true)];
            want.sort_unstable();
            found == want
        };
        if !expected(0, &white) || !expected(1, &black) {
            return None;
        }
        let cells = [0, 1].map(|side: Side| {
            let up = forward[side];
            let mut flags = vec![0u8; g.cells];
            for from in g.squares() {
                let at = |n: isize| (from as isize + n * up) as usize;
                let double = pawn.double_step[side].has(from);
                let mut targets = vec![at(1), at(1) - 1, at(1) + 1];
                if double {
                    targets.push(at(2));
                }
                let promotes =
                    laws.promotion.as_ref().is_some_and(|p| targets.iter().any(|&to| p.region[side].has(to)));
                if !promotes && !pawn.triple_step[side].has(from) {
                    flags[from] = DIRECT | if double { DOUBLE } else { 0 };
                }
            }
            flags
        });
        let set = |side: Side, flag: u8| CellBits::from_fn(g.cells, |c| cells[side][c] & flag == flag);
        let direct = [set(0, DIRECT), set(1, DIRECT)];
        let double = [set(0, DIRECT | DOUBLE), set(1, DIRECT | DOUBLE)];
        let words = CellBits::words_for(g.cells);
        Some(PawnPath { kind: pawn.kind, steps: [white, black], forward, cells, direct, double, words })
    }

    /// `us`'s pawns that the direct path moves (none could promote), and
    /// the number of their moves but en passant, counted over the cell
    /// sets of `pos` (indexed with this kind as the pawn).
    #[inline]
    pub(crate) fn count_direct(&self, pos: &Position, us: Side) -> (CellBits, u64) {
        let w = self.words;
        let mut pawns = pos.pawns[us];
        for (p, d) in pawns.0[..w].iter_mut().zip(&self.direct[us].0) {
            *p &= d;
        }
        let mut empty = CellBits::default();
        for (i, e) in empty.0[..w].iter_mut().enumerate() {
            *e = !(pos.men[0].0[i] | pos.men[1].0[i] | pos.walls.0[i]);
        }
        let up = self.forward[us];
        let them = &pos.men[us ^ 1];
        let mut n = pawns.shift_and_len(up, &empty, w)
            + pawns.shift_and_len(up - 1, them, w)
            + pawns.shift_and_len(up + 1, them, w);
        let mut doubles = self.double[us];
        for (d, p) in doubles.0[..w].iter_mut().zip(&pawns.0) {
            *d &= p;
        }
        n += doubles.shift_and(up, &empty, w).shift_and_len(up, &empty, w);
        (pawns, u64::from(n))
    }

    /// Calls `land(to, special)` for every move of `us`'s pawn on `from`
    /// but en passant, and returns true; false, with no call, when the
    /// pawn there could promote (the general path decides).
    #[inline(always)]
    pub(crate) fn landings(&self, cells: &[u8], from: usize, us: Side, mut land: impl FnMut(usize, Special)) -> bool {
        let flags = self.cells[us][from];
        if flags & DIRECT == 0 {
            return false;
        }
        for &(delta, captures) in &self.steps[us] {
            let to = (from as isize + delta) as usize;
            let c = cells[to];
            let ok = if captures { c != EMPTY && c != OFF && cell_side(c) != us } else { c == EMPTY };
            if ok {
                land(to, Special::None);
            }
        }
        if flags & DOUBLE != 0 {
            let one = (from as isize + self.forward[us]) as usize;
            let two = (one as isize + self.forward[us]) as usize;
            if cells[one] == EMPTY && cells[two] == EMPTY {
                land(two, Special::PawnRush);
            }
        }
        true
    }
}
