//! Packed layout: all squares share one table, each at its own offset, and a
//! slot may be used by several squares (or several occupancies of a square)
//! as long as they all store the same attack set.
//!
//! Attack sets of different squares almost never agree (6,326 distinct sets
//! over the 128 problems against 6,328 per-square ones), so the table can be
//! no smaller than the sum over squares of the slots each one uses. The
//! packing therefore works in two steps:
//! 1. per square, magics that use few slots: random candidates (plain and
//!    black form; sparse, dense, runs of ones, structured gathers) that fit,
//!    then hill climbs from the best few that take a step (flip one or two
//!    bits, add or subtract a power of two) when it still fits and its score
//!    (used slots plus span) is no worse. Black magics collapse many
//!    occupancies with one attack set onto one slot (a corner rook goes from
//!    4,096 to about 2,400 slots, an inner rook from 1,024 to 600-800);
//! 2. placement: squares largest first, each with the pattern that ends
//!    lowest at the lowest offset where its used slots meet only free slots
//!    or slots holding the same attack set; then the square that ends last is
//!    moved lower while it can be. Several orders are tried and the smallest
//!    table kept.
//!
//! What limits the result: the climbs bring the used slots down (about 74k
//! over all squares instead of 107k), but a square's used slots still spread
//! over nearly its whole block of `2^bits` slots, and the gaps they leave are
//! scattered single slots that no other square's pattern fits into. The
//! table therefore stays close to the sum of the blocks; going further needs
//! magics whose used slots fill a short range (or regular gaps), which these
//! climbs do not find.
//!
//! The work is counted in candidates and passes, not time, so a seed gives
//! one result; a deadline can cut it short (and then the result depends on
//! how far it got).

use super::magic_search::{self, Problem, Rng, Slider};
use crate::board::Square;
use std::time::Instant;

/// Per square (chosen pattern, offset), and the table size.
type Layout = (Vec<(usize, u64)>, u64);

/// The climb's score is used slots plus this many times the span: the span
/// is what a square costs unless other squares fill its gaps, which the
/// large ones' gaps rarely are.
const SPAN_WEIGHT: usize = 1;

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
                if (1 + SPAN_WEIGHT) * used > limit {
                    return None;
                }
            } else if slot.1 != att {
                return None;
            }
        }
        Some(used + SPAN_WEIGHT * (hi + 1 - lo))
    }

    fn pattern(&mut self, magic: u64, shift: u32, black: bool) -> Pattern {
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
    /// Climbs per square and form, from the best samples.
    pub starts: u32,
    /// Hill-climbing steps per climb.
    pub climb: u32,
    /// Magics kept per square for the placement.
    pub keep: usize,
    /// Placement orders tried.
    pub passes: u32,
}

impl Default for Effort {
    fn default() -> Effort {
        Effort { samples: 32, starts: 3, climb: 100_000, keep: 6, passes: 24 }
    }
}

/// A random magic for the packing's starts: sparse, dense, runs of ones
/// (sums of a few signed powers of two) or a structured gather.
fn start_candidate(problem: &Problem, bits: u32, n: u64, rng: &mut Rng) -> u64 {
    match n % 6 {
        0 | 1 => rng.sparse(),
        2 => rng.next_u64(),
        3 => rng.next_u64() & rng.next_u64(),
        4 => {
            let terms = 2 + rng.next_u64() % 7;
            (0..terms).fold(0u64, |x, _| {
                let r = rng.next_u64();
                let t = 1u64 << (r & 63);
                if r >> 32 & 1 == 1 {
                    x.wrapping_add(t)
                } else {
                    x.wrapping_sub(t)
                }
            })
        }
        _ => magic_search::structured_candidate(problem.mask, bits, rng),
    }
}

/// A step of the climb: flip one or two bits, or add or subtract a power of
/// two (which moves a run of ones).
#[inline]
fn neighbour(magic: u64, rng: &mut Rng) -> u64 {
    let r = rng.next_u64();
    let a = 1u64 << (r & 63);
    let b = 1u64 << (r >> 8 & 63);
    match r >> 6 & 3 {
        0 | 1 => magic ^ a,
        2 => magic ^ a ^ b,
        _ => {
            if r >> 16 & 1 == 1 {
                magic.wrapping_add(a)
            } else {
                magic.wrapping_sub(a)
            }
        }
    }
}

/// Candidates for one square: the best few magics by used slots.
pub fn square_patterns(problem: &Problem, seed: u64, effort: Effort, deadline: Option<Instant>) -> Vec<Pattern> {
    let bits = problem.relevant_bits();
    let mut rng = Rng::new(magic_search::square_seed(seed ^ 0x9ac4_ed00, problem.slider, problem.square));
    let mut best: Vec<Pattern> = Vec::new();
    let late = || deadline.is_some_and(|d| Instant::now() >= d);
    let shift = 64 - bits;
    for black in [true, false] {
        let mut tester = Tester::new(problem, black, bits);
        let relevant = if black { !0u64 } else { !0u64 >> problem.mask.trailing_zeros() };
        // Random fitting magics; the best few (by score) are the climbs' starts.
        let mut starts: Vec<(u64, usize)> = Vec::new();
        let mut found = 0;
        let mut tries = 0u64;
        while found < effort.samples && tries < 50_000_000 {
            tries += 1;
            if tries & 0xffff == 0 && late() {
                break;
            }
            let magic = start_candidate(problem, bits, tries, &mut rng) & relevant;
            if let Some(score) = tester.score(magic, shift, usize::MAX) {
                found += 1;
                starts.push((magic, score));
            }
        }
        starts.sort_by_key(|s| s.1);
        starts.dedup_by_key(|s| s.0);
        starts.truncate(effort.starts.max(1) as usize);
        // Climbs: take a step if it fits with a score no worse.
        let mut keep: Vec<(u64, usize)> = starts.clone();
        for &(mut magic, mut score) in &starts {
            for step in 0..effort.climb {
                if step & 0x3ff == 0 && late() {
                    break;
                }
                let next = neighbour(magic, &mut rng) & relevant;
                if next == magic {
                    continue;
                }
                if let Some(u) = tester.score(next, shift, score).filter(|&u| u <= score) {
                    if u < score {
                        keep.push((next, u));
                    }
                    magic = next;
                    score = u;
                }
            }
        }
        keep.sort_by_key(|k| k.1);
        keep.dedup_by_key(|k| k.0);
        for &(m, _) in keep.iter().take(effort.keep) {
            best.push(tester.pattern(m, shift, black));
        }
    }
    best.sort_by_key(|p| p.used() + SPAN_WEIGHT * p.span());
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

/// The shared table during placement: per slot the attack set stored there
/// ([`FREE`] if none) and how many squares use it.
#[derive(Default)]
struct Table {
    attacks: Vec<u64>,
    users: Vec<u16>,
}

impl Table {
    fn put(&mut self, p: &Pattern, offset: usize) {
        let end = offset + p.top() as usize;
        if self.attacks.len() < end {
            self.attacks.resize(end, FREE);
            self.users.resize(end, 0);
        }
        for &(i, a) in &p.slots {
            let s = offset + i as usize;
            self.attacks[s] = a;
            self.users[s] += 1;
        }
    }

    fn take(&mut self, p: &Pattern, offset: usize) {
        for &(i, _) in &p.slots {
            let s = offset + i as usize;
            self.users[s] -= 1;
            if self.users[s] == 0 {
                self.attacks[s] = FREE;
            }
        }
    }

    /// The placement of one of `options` that ends lowest (then lowest
    /// offset), as (end, offset, choice), if one ends at or below `bound`.
    fn best(&self, options: &[Pattern], bound: Option<usize>) -> Option<(usize, usize, usize)> {
        let mut best: Option<(usize, usize, usize)> = None;
        for (c, p) in options.iter().enumerate() {
            let limit = best.map(|b| b.0).or(bound);
            if let Some(offset) = first_fit(&self.attacks, p, limit) {
                let end = offset + p.top() as usize;
                if limit.is_none_or(|l| end <= l) && best.is_none_or(|b| (end, offset) < (b.0, b.1)) {
                    best = Some((end, offset, c));
                }
            }
        }
        best
    }
}

/// Places the squares in `order` into an empty table, each with the pattern
/// that ends lowest; then, while the square that ends last can be moved
/// lower (with any of its patterns), moves it. Returns (choice, offset) per
/// square and the table size.
fn place(options: &[Vec<Pattern>], order: &[usize]) -> Layout {
    let mut table = Table::default();
    let mut chosen = vec![(0, 0); options.len()];
    for &sq in order {
        let (_, offset, c) = table.best(&options[sq], None).expect("a pattern always fits past the end");
        table.put(&options[sq][c], offset);
        chosen[sq] = (c, offset as u64);
    }
    let end = |chosen: &[(usize, u64)], sq: usize| chosen[sq].1 as usize + options[sq][chosen[sq].0].top() as usize;
    // Squeeze: the last square down into the gaps, as long as the table shrinks.
    while let Some(top_sq) = order.iter().copied().max_by_key(|&s| (end(&chosen, s), s)) {
        let top = end(&chosen, top_sq);
        let (c, offset) = chosen[top_sq];
        table.take(&options[top_sq][c], offset as usize);
        let Some((_, o, c2)) = table.best(&options[top_sq], Some(top - 1)) else {
            table.put(&options[top_sq][c], offset as usize);
            break;
        };
        table.put(&options[top_sq][c2], o);
        chosen[top_sq] = (c2, o as u64);
    }
    let size = order.iter().map(|&s| end(&chosen, s)).max().unwrap_or(0);
    (chosen, size as u64)
}

/// The lowest offset at which `p` fits into `table` (slots past its end are
/// free), or `None` if it would end past `bound`.
fn first_fit(table: &[u64], p: &Pattern, bound: Option<usize>) -> Option<usize> {
    let top = p.top() as usize;
    let mut offset = 0;
    loop {
        if bound.is_some_and(|b| offset + top > b) {
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
        let effort = Effort { samples: 4, starts: 1, climb: 2_000, keep: 2, passes: 2 };
        let packing = pack(&targets, 1, effort, None, &|| {});
        assert!(packing.table_entries < 5_248, "{}", packing.table_entries);
        assert!(packing.table_entries >= packing.used_sum);
    }

    #[test]
    fn squeezed_placements_do_not_clash() {
        let targets: Vec<Problem> = [Square::A1, Square::B1, Square::C1, Square::H8, Square::D4, Square::E4]
            .iter()
            .map(|&s| Problem::new(Slider::Bishop, s))
            .collect();
        let effort = Effort { samples: 4, starts: 1, climb: 500, keep: 3, passes: 1 };
        let options: Vec<Vec<Pattern>> = targets.iter().map(|p| square_patterns(p, 3, effort, None)).collect();
        let order: Vec<usize> = (0..options.len()).collect();
        let (chosen, size) = place(&options, &order);
        let mut table = vec![FREE; size as usize];
        for (opts, &(c, offset)) in options.iter().zip(&chosen) {
            for &(i, a) in &opts[c].slots {
                let s = &mut table[offset as usize + i as usize];
                assert!(*s == FREE || *s == a, "clash at {}", offset + i as u64);
                *s = a;
            }
        }
    }
}
