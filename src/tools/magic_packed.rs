//! Packed layout: all squares share one table, each at its own offset, and a
//! slot may be used by several squares (or several occupancies of a square)
//! as long as they all store the same attack set.
//!
//! Attack sets of different squares almost never agree (6,326 distinct sets
//! over the 128 problems against 6,328 per-square ones), so the table can be
//! no smaller than the sum over squares of the slots each one uses. The
//! packing therefore works in two steps:
//! 1. per square, a magic that uses few slots in a short range: random
//!    candidates (plain and black form) that fit, then a hill climb that flips
//!    magic bits and keeps a change when it still fits and its score (used
//!    slots plus span) is no worse. Black magics
//!    collapse many occupancies with one attack set onto one slot (a corner
//!    rook goes from 4,096 to about 2,300 slots);
//! 2. placement: squares largest first, each at the lowest offset where its
//!    used slots meet only free slots or slots holding the same attack set,
//!    choosing among a square's best few magics the one that ends lowest;
//!    several orders are tried and the smallest table kept.
//!
//! The work is counted in candidates and passes, not time, so a seed gives
//! one result; a deadline can cut it short (and then the result depends on
//! how far it got).

use super::magic_search::{self, Problem, Rng, Slider};
use crate::board::Square;
use std::time::Instant;

/// Per square (chosen pattern, offset), and the table size.
type Layout = (Vec<(usize, u64)>, u64);

/// A free slot in the placement table (no attack set is all 64 squares).
const FREE: u64 = u64::MAX;

/// One magic for a square and the slots it uses.
#[derive(Clone, Debug)]
pub struct Pattern {
    pub magic: u64,
    pub shift: u32,
    pub black: bool,
    /// (index without offset, attack set), one per used slot, by index.
    pub slots: Vec<(u32, u64)>,
}

impl Pattern {
    pub fn used(&self) -> usize {
        self.slots.len()
    }

    /// From the lowest used slot to the highest.
    pub fn span(&self) -> usize {
        self.slots.last().map_or(0, |s| (s.0 - self.slots[0].0 + 1) as usize)
    }

    fn top(&self) -> u32 {
        self.slots.last().map_or(0, |s| s.0 + 1)
    }
}

/// A square's keys for one form, and scratch space to test magics.
struct Tester {
    keys: Vec<u64>,
    attacks: Vec<u64>,
    slots: Vec<(u32, u64)>,
    epoch: u32,
    used: Vec<u32>,
}

impl Tester {
    fn new(problem: &Problem, black: bool, max_bits: u32) -> Tester {
        // One occupancy per attack set first: they fail candidates fastest.
        let mut seen = std::collections::HashSet::new();
        let (mut first, mut rest) = (Vec::new(), Vec::new());
        for (&o, &a) in problem.occupancies.iter().zip(&problem.attacks) {
            let key = if black { o | !problem.mask } else { o };
            if seen.insert(a) {
                first.push((key, a));
            } else {
                rest.push((key, a));
            }
        }
        first.extend(rest);
        Tester {
            keys: first.iter().map(|k| k.0).collect(),
            attacks: first.iter().map(|k| k.1).collect(),
            slots: vec![(0, 0); 1 << max_bits],
            epoch: 0,
            used: Vec::with_capacity(first.len()),
        }
    }

    /// The score (used slots plus the span from the lowest to the highest
    /// used slot) if `magic` fits, else `None`; gives up as soon as the score
    /// must exceed `limit`.
    #[inline]
    fn score(&mut self, magic: u64, shift: u32, limit: usize) -> Option<usize> {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.slots.iter_mut().for_each(|s| s.0 = 0);
            self.epoch = 1;
        }
        let epoch = self.epoch;
        let (mut used, mut lo, mut hi) = (0, usize::MAX, 0);
        for (&key, &att) in self.keys.iter().zip(&self.attacks) {
            let index = (key.wrapping_mul(magic) >> shift) as usize;
            let slot = &mut self.slots[index];
            if slot.0 != epoch {
                *slot = (epoch, att);
                used += 1;
                lo = lo.min(index);
                hi = hi.max(index);
                // The span is at least the used slots.
                if 2 * used > limit {
                    return None;
                }
            } else if slot.1 != att {
                return None;
            }
        }
        Some(used + hi + 1 - lo)
    }

    fn pattern(&mut self, magic: u64, shift: u32, black: bool) -> Pattern {
        self.used.clear();
        let mut seen = std::collections::HashMap::new();
        for (&key, &att) in self.keys.iter().zip(&self.attacks) {
            let index = (key.wrapping_mul(magic) >> shift) as u32;
            seen.entry(index).or_insert(att);
        }
        let mut slots: Vec<(u32, u64)> = seen.into_iter().collect();
        slots.sort_unstable();
        Pattern { magic, shift, black, slots }
    }
}

/// How much work the packing does.
#[derive(Copy, Clone, Debug)]
pub struct Effort {
    /// Fitting random magics to collect per square and form before climbing.
    pub samples: u32,
    /// Hill-climbing steps per square and form.
    pub climb: u32,
    /// Magics kept per square for the placement.
    pub keep: usize,
    /// Placement orders tried.
    pub passes: u32,
}

impl Default for Effort {
    fn default() -> Effort {
        Effort { samples: 32, climb: 150_000, keep: 6, passes: 24 }
    }
}

/// Candidates for one square: the best few magics by used slots.
pub fn square_patterns(problem: &Problem, seed: u64, effort: Effort, deadline: Option<Instant>) -> Vec<Pattern> {
    let bits = problem.relevant_bits();
    let shift = 64 - bits;
    let mut rng = Rng::new(magic_search::square_seed(seed ^ 0x9ac4_ed00, problem.slider, problem.square));
    let mut best: Vec<Pattern> = Vec::new();
    let late = || deadline.is_some_and(|d| Instant::now() >= d);
    for black in [true, false] {
        let mut tester = Tester::new(problem, black, bits);
        let relevant = if black { !0u64 } else { !0u64 >> problem.mask.trailing_zeros() };
        // Random fitting magics, the best kept as the climb's start.
        let mut start: Option<(u64, usize)> = None;
        let mut found = 0;
        let mut tries = 0u64;
        while found < effort.samples && tries < 50_000_000 {
            tries += 1;
            if tries & 0xffff == 0 && late() {
                break;
            }
            let magic = if tries.is_multiple_of(3) {
                magic_search::structured_candidate(problem.mask, bits, &mut rng)
            } else {
                rng.sparse()
            } & relevant;
            if let Some(used) = tester.score(magic, shift, usize::MAX) {
                found += 1;
                if start.is_none_or(|s| used < s.1) {
                    start = Some((magic, used));
                }
            }
        }
        let Some((mut magic, mut used)) = start else { continue };
        // Climb: flip one or two bits, keep the change if it fits with no more slots.
        let mut keep: Vec<(u64, usize)> = vec![(magic, used)];
        for step in 0..effort.climb {
            if step & 0x3ff == 0 && late() {
                break;
            }
            let r = rng.next_u64();
            let mut next = magic ^ (1u64 << (r & 63));
            if r >> 6 & 1 == 1 {
                next ^= 1u64 << (r >> 8 & 63);
            }
            next &= relevant;
            if next == magic {
                continue;
            }
            if let Some(u) = tester.score(next, shift, used).filter(|&u| u <= used) {
                if u < used {
                    keep.push((next, u));
                }
                magic = next;
                used = u;
            }
        }
        keep.sort_by_key(|k| k.1);
        keep.dedup_by_key(|k| k.0);
        for &(m, _) in keep.iter().take(effort.keep) {
            best.push(tester.pattern(m, shift, black));
        }
    }
    best.sort_by_key(|p| p.used() + p.span());
    best.truncate(effort.keep);
    best
}

/// One placed square.
#[derive(Clone, Debug)]
pub struct Placed {
    pub slider: Slider,
    pub square: Square,
    pub mask: u64,
    pub magic: u64,
    pub shift: u32,
    pub black: bool,
    pub offset: u64,
    pub used: usize,
}

/// A finished packing.
#[derive(Clone, Debug)]
pub struct Packing {
    pub entries: Vec<Placed>,
    pub table_entries: u64,
    /// Sum of the slots each square uses: the table can be no smaller.
    pub used_sum: u64,
    pub passes: u32,
}

/// Places the squares in `order` into an empty table, each with the pattern
/// that ends lowest. Returns (choice, offset) per square and the table size.
fn place(options: &[Vec<Pattern>], order: &[usize]) -> Layout {
    let mut table: Vec<u64> = Vec::new();
    let mut top = 0usize;
    let mut chosen = vec![(0, 0); options.len()];
    for &sq in order {
        let mut best: Option<(usize, usize, usize)> = None; // (end, offset, choice)
        for (c, p) in options[sq].iter().enumerate() {
            let offset = first_fit(&table, p, best.map(|b| b.0));
            if let Some(offset) = offset {
                let end = top.max(offset + p.top() as usize);
                if best.is_none_or(|b| (end, offset) < (b.0, b.1)) {
                    best = Some((end, offset, c));
                }
            }
        }
        let (_, offset, c) = best.expect("a pattern always fits past the end");
        let p = &options[sq][c];
        if table.len() < offset + p.top() as usize {
            table.resize(offset + p.top() as usize, FREE);
        }
        for &(i, a) in &p.slots {
            table[offset + i as usize] = a;
        }
        top = top.max(offset + p.top() as usize);
        chosen[sq] = (c, offset as u64);
    }
    (chosen, top as u64)
}

/// The lowest offset at which `p` fits into `table` (slots past its end are
/// free), or `None` if it would end past `bound`.
fn first_fit(table: &[u64], p: &Pattern, bound: Option<usize>) -> Option<usize> {
    let top = p.top() as usize;
    let mut offset = 0;
    loop {
        if bound.is_some_and(|b| offset + top > b && offset + top > table.len()) {
            return None;
        }
        if offset >= table.len() {
            return Some(offset);
        }
        let clash = p.slots.iter().any(|&(i, a)| {
            let s = offset + i as usize;
            s < table.len() && table[s] != FREE && table[s] != a
        });
        if !clash {
            return Some(offset);
        }
        offset += 1;
    }
}

/// Packs every target into one table. Runs on the current rayon pool; the
/// result depends only on `seed` and `effort` unless `deadline` cuts the work
/// short. `on_square` is called after each square's magics are chosen.
pub fn pack(
    targets: &[(Slider, Square)],
    seed: u64,
    effort: Effort,
    deadline: Option<Instant>,
    on_square: &(dyn Fn() + Sync),
) -> Packing {
    use rayon::prelude::*;
    let options: Vec<(Problem, Vec<Pattern>)> = targets
        .par_iter()
        .with_max_len(1)
        .map(|&(slider, square)| {
            let problem = Problem::new(slider, square);
            let patterns = square_patterns(&problem, seed, effort, deadline);
            on_square();
            (problem, patterns)
        })
        .collect();
    let patterns: Vec<Vec<Pattern>> = options.iter().map(|o| o.1.clone()).collect();
    // Largest first; later passes perturb the order with a seeded shuffle of neighbours.
    let mut base: Vec<usize> = (0..targets.len()).collect();
    base.sort_by_key(|&i| (std::cmp::Reverse(patterns[i][0].used()), i));
    let mut rng = Rng::new(seed ^ 0x0bad_5eed);
    let orders: Vec<Vec<usize>> = (0..effort.passes.max(1))
        .map(|pass| {
            let mut order = base.clone();
            for _ in 0..pass * 4 {
                let i = (rng.next_u64() % order.len().max(1) as u64) as usize;
                let j = (i + 1 + (rng.next_u64() % 4) as usize).min(order.len() - 1);
                order.swap(i, j);
            }
            order
        })
        .collect();
    let mut results: Vec<(Layout, usize)> = Vec::new();
    let done: Vec<Option<Layout>> =
        orders
            .par_iter()
            .enumerate()
            .map(|(n, order)| {
                if n > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                    None
                } else {
                    Some(place(&patterns, order))
                }
            })
            .collect();
    for (n, d) in done.into_iter().enumerate() {
        if let Some((chosen, size)) = d {
            results.push(((chosen, size), n));
        }
    }
    let passes = results.len() as u32;
    let ((chosen, size), _) = results.into_iter().min_by_key(|r| (r.0 .1, r.1)).expect("the first pass always runs");
    let entries = options
        .iter()
        .zip(&chosen)
        .map(|((problem, pats), &(c, offset))| {
            let p = &pats[c];
            Placed {
                slider: problem.slider,
                square: problem.square,
                mask: problem.mask,
                magic: p.magic,
                shift: p.shift,
                black: p.black,
                offset,
                used: p.used(),
            }
        })
        .collect();
    let used_sum = chosen.iter().zip(&patterns).map(|(&(c, _), p)| p[c].used() as u64).sum();
    Packing { entries, table_entries: size, used_sum, passes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_packing_overlaps_and_fits() {
        let targets: Vec<(Slider, Square)> = Square::ALL.iter().map(|&s| (Slider::Bishop, s)).collect();
        let effort = Effort { samples: 4, climb: 2_000, keep: 2, passes: 2 };
        let packing = pack(&targets, 1, effort, None, &|| {});
        assert!(packing.table_entries < 5_248, "{}", packing.table_entries);
        assert!(packing.table_entries >= packing.used_sum);
    }
}
