//! Sets of mailbox cells as bits (bit `c` for cell `c`), so that many
//! pawns' moves are counted at once with shifts and popcounts, as bitboard
//! engines count them. A shift by a step moves every cell of the set by
//! that step; the mailbox's padding keeps a step from wrapping onto the
//! board.

/// Words of a set: the largest mailbox (16x16 and its padding) has 437
/// cells, and the eighth word stays zero so that a shift may read one word
/// past the last one used.
pub(crate) const WORDS: usize = 8;

/// A set of mailbox cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct CellBits(pub(crate) [u64; WORDS]);

impl CellBits {
    /// The words a mailbox of `cells` cells uses.
    pub(crate) fn words_for(cells: usize) -> usize {
        cells.div_ceil(64)
    }

    /// The set of the cells `0..n` for which `has` holds.
    pub(crate) fn from_fn(n: usize, mut has: impl FnMut(usize) -> bool) -> CellBits {
        let mut set = CellBits::default();
        for c in (0..n).filter(|&c| has(c)) {
            set.insert(c);
        }
        set
    }

    // Cells are below 64 * WORDS: `& (WORDS - 1)` changes no index, and
    // spares the bounds check.

    #[inline(always)]
    pub(crate) fn insert(&mut self, c: usize) {
        self.0[c >> 6 & (WORDS - 1)] |= 1 << (c & 63);
    }

    #[inline(always)]
    pub(crate) fn remove(&mut self, c: usize) {
        self.0[c >> 6 & (WORDS - 1)] &= !(1 << (c & 63));
    }

    #[inline(always)]
    pub(crate) fn contains(&self, c: usize) -> bool {
        self.0[c >> 6 & (WORDS - 1)] >> (c & 63) & 1 != 0
    }

    /// The number of cells in the first `w` words.
    #[inline(always)]
    pub(crate) fn count(&self, w: usize) -> u32 {
        self.0[..w].iter().map(|x| x.count_ones()).sum()
    }

    /// Word `i` of the set moved by `n` cells (`0 < n < 64`), towards
    /// higher cells if `UP`; `i + 1` may be the last word.
    #[inline(always)]
    fn moved_word<const UP: bool>(&self, i: usize, n: u32) -> u64 {
        let a = &self.0;
        if UP {
            let below = if i == 0 { 0 } else { a[i - 1] >> (64 - n) };
            a[i] << n | below
        } else {
            a[i] >> n | a[i + 1] << (64 - n)
        }
    }

    /// The set moved by `n` cells (towards higher cells if `UP`), kept
    /// where `mask` has cells, over the first `w` words (`w < WORDS`).
    #[inline(always)]
    pub(crate) fn moved_and<const UP: bool>(&self, n: u32, mask: &CellBits, w: usize) -> CellBits {
        let mut out = CellBits::default();
        for i in 0..w {
            out.0[i] = self.moved_word::<UP>(i, n) & mask.0[i];
        }
        out
    }

    /// The number of cells of `moved_and(n, mask, w)`.
    #[inline(always)]
    pub(crate) fn moved_and_count<const UP: bool>(&self, n: u32, mask: &CellBits, w: usize) -> u32 {
        (0..w).map(|i| (self.moved_word::<UP>(i, n) & mask.0[i]).count_ones()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_carry_across_words_both_ways() {
        let cells = [0, 5, 63, 64, 120, 190, 300, 436];
        let set = CellBits::from_fn(437, |c| cells.contains(&c));
        let all = CellBits([u64::MAX; WORDS]);
        let w = CellBits::words_for(437);
        for delta in [1isize, 11, 19, 20, 63, -1, -11, -19, -20, -63] {
            let n = delta.unsigned_abs() as u32;
            let (moved, count) = if delta > 0 {
                (set.moved_and::<true>(n, &all, w), set.moved_and_count::<true>(n, &all, w))
            } else {
                (set.moved_and::<false>(n, &all, w), set.moved_and_count::<false>(n, &all, w))
            };
            let want: Vec<usize> = cells
                .iter()
                .map(|&c| c as isize + delta)
                .filter(|&c| (0..(w * 64) as isize).contains(&c))
                .map(|c| c as usize)
                .collect();
            let got: Vec<usize> = (0..w * 64).filter(|&c| moved.contains(c)).collect();
            assert_eq!(got, want, "delta {delta}");
            assert_eq!(count, want.len() as u32);
        }
    }
}
