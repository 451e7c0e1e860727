//! The built-in pawn (`fmWfcF`, double steps from a region) without the
//! general path: its steps are read straight off the mailbox, and a table
//! per cell says where it may step two and where none of its moves can
//! promote. Horde's 36 pawns made this the bulk of its move generation.

use super::vocabulary::Special;
use crate::variants::board::cellbits::CellBits;
use crate::variants::board::{cell_side, Geometry, Position, Side, EMPTY, OFF};
use crate::variants::rules::Laws;

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
    words: usize,
    /// The CPU has the POPCNT instruction.
    popcnt: bool,
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
                let promotes = laws
                    .promotion
                    .as_ref()
                    .is_some_and(|p| !p.in_place && targets.iter().any(|&to| p.region[side].has(to)));
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
        #[cfg(target_arch = "x86_64")]
        let popcnt = std::is_x86_feature_detected!("popcnt");
        #[cfg(not(target_arch = "x86_64"))]
        let popcnt = false;
        Some(PawnPath { kind: pawn.kind, steps: [white, black], forward, cells, direct, double, words, popcnt })
    }

    /// `us`'s pawns that the direct path moves (none could promote), the
    /// number of their moves but en passant, and the number of the pawns,
    /// counted over the cell sets of `pos` (indexed with this kind as the
    /// pawn).
    #[inline]
    pub(crate) fn count_direct(&self, pos: &Position, us: Side) -> (CellBits, u64, u32) {
        #[cfg(target_arch = "x86_64")]
        if self.popcnt {
            // Safety: `popcnt` is set only on a CPU with POPCNT.
            return unsafe { self.count_direct_popcnt(pos, us) };
        }
        self.count_by_words(pos, us)
    }

    /// `count_direct` with the POPCNT instruction (a dozen instructions
    /// per word without it).
    ///
    /// # Safety
    /// The CPU must support POPCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn count_direct_popcnt(&self, pos: &Position, us: Side) -> (CellBits, u64, u32) {
        self.count_by_words(pos, us)
    }

    #[inline(always)]
    fn count_by_words(&self, pos: &Position, us: Side) -> (CellBits, u64, u32) {
        // The word count and the direction as constants: the loops unroll
        // into registers, and every shift goes one known way.
        match (self.words, us) {
            (1, 0) => self.count_in_words::<1, true>(pos, us),
            (1, _) => self.count_in_words::<1, false>(pos, us),
            (2, 0) => self.count_in_words::<2, true>(pos, us),
            (2, _) => self.count_in_words::<2, false>(pos, us),
            (3, 0) => self.count_in_words::<3, true>(pos, us),
            (3, _) => self.count_in_words::<3, false>(pos, us),
            (4, 0) => self.count_in_words::<4, true>(pos, us),
            (4, _) => self.count_in_words::<4, false>(pos, us),
            (5, 0) => self.count_in_words::<5, true>(pos, us),
            (5, _) => self.count_in_words::<5, false>(pos, us),
            (6, 0) => self.count_in_words::<6, true>(pos, us),
            (6, _) => self.count_in_words::<6, false>(pos, us),
            (_, 0) => self.count_in_words::<7, true>(pos, us),
            _ => self.count_in_words::<7, false>(pos, us),
        }
    }

    /// `count_direct` over the first `W` words of the cell sets, for the
    /// side whose pawns go towards higher cells if `UP` (White).
    #[inline(always)]
    fn count_in_words<const W: usize, const UP: bool>(&self, pos: &Position, us: Side) -> (CellBits, u64, u32) {
        let mut pawns = CellBits::default();
        let mut doubles = CellBits::default();
        let mut empty = CellBits::default();
        for i in 0..W {
            pawns.0[i] = pos.pawns[us].0[i] & self.direct[us].0[i];
            doubles.0[i] = pawns.0[i] & self.double[us].0[i];
            empty.0[i] = !(pos.men[0].0[i] | pos.men[1].0[i] | pos.walls.0[i]);
        }
        // One step forward, and the two diagonal ones.
        let s = self.forward[0] as u32;
        let them = &pos.men[us ^ 1];
        let n = pawns.moved_and_count::<UP>(s, &empty, W)
            + pawns.moved_and_count::<UP>(s - 1, them, W)
            + pawns.moved_and_count::<UP>(s + 1, them, W)
            + doubles.moved_and::<UP>(s, &empty, W).moved_and_count::<UP>(s, &empty, W);
        (pawns, u64::from(n), pawns.count(W))
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
