//! Step 1 of the packed layout: per square, candidate magics that use few
//! slots (climbed dense blocks, combs, the known reduced magics).

use super::bundle;
use super::packed::{Effort, Pattern};
use super::search::{self, Problem, Rng, Slider};
use crate::board::Square;
use std::time::Instant;

/// The climb's score is used slots plus this many times the span: the span
/// is what a square costs unless other squares fill its gaps, which the
/// large ones' gaps rarely are.
const SPAN_WEIGHT: usize = 1;

/// A square's keys for one form, and scratch space to test magics.
pub(super) struct Tester {
    keys: Vec<u64>,
    attacks: Vec<u64>,
    slots: Vec<(u32, u64)>,
    epoch: u32,
}

impl Tester {
    pub(super) fn new(problem: &Problem, black: bool, max_bits: u32) -> Tester {
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
        // The span is at least the used slots.
        let (lo, hi, used) = self.walk(magic, shift, |_, used| (1 + SPAN_WEIGHT) * used <= limit)?;
        Some(used + SPAN_WEIGHT * (hi + 1 - lo))
    }

    /// Twice the comb cost (lanes used times rows, see [`comb_cost`]) plus
    /// the used slots if `magic` fits, else `None`; gives up as soon as it
    /// must exceed `limit`.
    #[inline]
    fn comb(&mut self, magic: u64, shift: u32, limit: usize) -> Option<usize> {
        let rows = (1usize << (64 - shift)) / LANES;
        let rating = |lanes: u64, used: usize| 2 * rows * lanes.count_ones() as usize + used;
        let mut lanes = 0u64;
        let (_, _, used) = self.walk(magic, shift, |index, used| {
            lanes |= 1 << (index % LANES);
            rating(lanes, used) <= limit
        })?;
        Some(rating(lanes, used))
    }

    /// The used slots of `magic` as (index, attack set) in `out`, by first
    /// use; false if it does not fit.
    pub(super) fn used_slots(&mut self, magic: u64, shift: u32, out: &mut Vec<(u32, u64)>) -> bool {
        out.clear();
        if self
            .walk(magic, shift, |index, _| {
                out.push((index as u32, 0));
                true
            })
            .is_none()
        {
            return false;
        }
        out.iter_mut().for_each(|s| s.1 = self.slots[s.0 as usize].1);
        true
    }

    /// Marks the used slots of `magic` in `out` (one bit per slot of the
    /// block, cleared first) and returns (lowest, highest, used), or `None`
    /// if it does not fit.
    pub(super) fn block(&mut self, magic: u64, shift: u32, out: &mut [u64]) -> Option<(usize, usize, usize)> {
        out.iter_mut().for_each(|w| *w = 0);
        self.walk(magic, shift, |index, _| {
            out[index / 64] |= 1 << (index % 64);
            true
        })
    }

    /// Indexes every occupancy with `magic`; `new_slot(index, used so far)`
    /// sees each slot when first used and stops the walk by returning false.
    /// Returns (lowest, highest, used), or `None` on a clash or a stop.
    #[inline(always)]
    fn walk(
        &mut self,
        magic: u64,
        shift: u32,
        mut new_slot: impl FnMut(usize, usize) -> bool,
    ) -> Option<(usize, usize, usize)> {
        // A new epoch marks every slot free without clearing them.
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
                if !new_slot(index, used) {
                    return None;
                }
            } else if slot.1 != att {
                return None;
            }
        }
        Some((lo, hi, used))
    }

    /// The pattern of a magic known to fit.
    pub(super) fn pattern(&mut self, magic: u64, shift: u32, black: bool) -> Pattern {
        let mut slots = Vec::new();
        assert!(self.used_slots(magic, shift, &mut slots), "the magic fits");
        slots.sort_unstable();
        Pattern { magic, shift, black, slots }
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
        _ => search::structured_candidate(problem.mask, bits, rng),
    }
}

/// A step of the climb: flip one or two bits, or add or subtract a power of
/// two (which moves a run of ones).
#[inline]
pub(super) fn neighbour(magic: u64, rng: &mut Rng) -> u64 {
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

/// How a climb rates a magic (lower is better).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Rating {
    /// Used slots plus span: a dense, short block.
    Span,
    /// Twice the comb cost plus used slots (see [`Tester::comb`]).
    Comb,
}

/// Candidates for one square: the best few magics by used slots plus span,
/// at as many index bits as relevant bits.
pub fn square_patterns(problem: &Problem, seed: u64, effort: Effort, deadline: Option<Instant>) -> Vec<Pattern> {
    let bits = problem.relevant_bits();
    let mut rng = Rng::new(search::square_seed(seed ^ 0x9ac4_ed00, problem.slider, problem.square));
    let mut best: Vec<Pattern> = Vec::new();
    for black in [true, false] {
        best.extend(climb_form(problem, bits, black, Rating::Span, effort, &mut rng, deadline));
    }
    best.sort_by_key(|p| p.used() + SPAN_WEIGHT * p.span());
    best.truncate(effort.keep);
    best
}

/// Candidates that are combs: with one to three index bits more than
/// relevant bits, magics whose used slots fall on few residues modulo
/// [`LANES`]. A small bishop's comb fits into the holes of the rook blocks;
/// a rook's comb pays only in a [`bundle::Bundle`] with other combs.
pub fn comb_patterns(problem: &Problem, seed: u64, effort: Effort, deadline: Option<Instant>) -> Vec<Pattern> {
    // Rooks: eight times the climbs, all kept, since the bundles need many
    // lane sets to choose from (seed 1: the choice on the rook combs alone
    // saved 12,253 slots with twice the climbs, 12,787 with four times; the
    // table went from 76,309 entries with four times to 74,933 with eight).
    let (effort, keep) = match problem.slider {
        Slider::Rook => (Effort { starts: 8 * effort.starts, keep: 8 * effort.keep, ..effort }, usize::MAX),
        Slider::Bishop => (effort, COMB_KEEP),
    };
    let relevant = problem.relevant_bits();
    let mut rng = Rng::new(search::square_seed(seed ^ 0xc0b5_0000, problem.slider, problem.square));
    let mut best: Vec<(usize, Pattern)> = Vec::new();
    for bits in relevant + 1..=relevant + COMB_EXTRA_BITS {
        for black in [true, false] {
            for p in climb_form(problem, bits, black, Rating::Comb, effort, &mut rng, deadline) {
                best.push((comb_cost(&p), p));
            }
        }
    }
    best.sort_by_key(|b| (b.0, b.1.used()));
    best.into_iter().take(keep).map(|b| b.1).collect()
}

/// Bishops with at least this many relevant bits (the 4 centre and 12 ring
/// bishops) are offered to the bundles; the others fit into holes anyway.
/// Seed 1: 77,417 entries with the centre bishops only (9), 77,171 with
/// the ring too (7), 77,833 with all bishops (0).
pub(super) const BUNDLE_BISHOP_BITS: u32 = 7;

/// The centre bishops (9 relevant bits), valued twice in the bundle choice
/// if left out.
pub(super) const CENTRE_BISHOP_BITS: u32 = 9;

/// Residues of the index that a comb's used slots are counted on.
pub(super) const LANES: usize = 16;

/// Extra index bits tried for combs (4 gave the same table as 3).
const COMB_EXTRA_BITS: u32 = 3;

/// Combs kept per bishop (all the climbs give): more choice for the holes
/// (seed 1: 6 gave 90,614 entries in 142 s, 12 gave 90,271, 24 gave 89,923
/// in 210 s, 36 gave 89,412 in 245 s).
const COMB_KEEP: usize = 36;

/// Lanes used (residues of the index modulo [`LANES`]) times rows (block
/// size over [`LANES`]): what the block costs if other combs fill the free
/// lanes.
fn comb_cost(p: &Pattern) -> usize {
    bundle::lanes(p).count_ones() as usize * ((1usize << (64 - p.shift)) / LANES)
}

/// Random fitting magics of one form at `bits` index bits, then climbs from
/// the best few that take a step when it fits with a rating no worse; the
/// best `effort.keep` by `rating`.
fn climb_form(
    problem: &Problem,
    bits: u32,
    black: bool,
    rating: Rating,
    effort: Effort,
    rng: &mut Rng,
    deadline: Option<Instant>,
) -> Vec<Pattern> {
    let late = || deadline.is_some_and(|d| Instant::now() >= d);
    let shift = 64 - bits;
    let mut tester = Tester::new(problem, black, bits);
    let relevant = if black { !0u64 } else { !0u64 >> problem.mask.trailing_zeros() };
    let rate = |t: &mut Tester, magic: u64, limit: usize| match rating {
        Rating::Span => t.score(magic, shift, limit),
        Rating::Comb => t.comb(magic, shift, limit),
    };
    // Random fitting magics; the best few (by rating) are the climbs' starts.
    let mut starts: Vec<(u64, usize)> = Vec::new();
    let mut found = 0;
    let mut tries = 0u64;
    while found < effort.samples && tries < 50_000_000 {
        tries += 1;
        if tries & 0xffff == 0 && late() {
            break;
        }
        let magic = start_candidate(problem, bits, tries, rng) & relevant;
        if let Some(score) = rate(&mut tester, magic, usize::MAX) {
            found += 1;
            starts.push((magic, score));
        }
    }
    starts.sort_by_key(|s| s.1);
    starts.dedup_by_key(|s| s.0);
    starts.truncate(effort.starts.max(1) as usize);
    let mut keep: Vec<(u64, usize)> = starts.clone();
    for &(mut magic, mut score) in &starts {
        for step in 0..effort.climb {
            if step & 0x3ff == 0 && late() {
                break;
            }
            let next = neighbour(magic, rng) & relevant;
            if next == magic {
                continue;
            }
            if let Some(u) = rate(&mut tester, next, score).filter(|&u| u <= score) {
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
    keep.iter().take(effort.keep).map(|&(m, _)| tester.pattern(m, shift, black)).collect()
}

/// The published magics with one index bit fewer than relevant bits (plain
/// form), from `data/cpw_reduced_magics.txt` (the Chess Programming Wiki's
/// "Best Magics so far"; the finders are named there).
const KNOWN_REDUCED: &str = include_str!("../../../data/cpw_reduced_magics.txt");

/// The known reduced-bit magic of a square, if any, and the best few magics
/// a climb from it finds at the same shift (by used slots plus span).
pub fn known_patterns(problem: &Problem, seed: u64, effort: Effort, deadline: Option<Instant>) -> Vec<Pattern> {
    let known = KNOWN_REDUCED.lines().filter(|l| !l.starts_with('#')).find_map(|l| {
        let f: Vec<&str> = l.split_whitespace().collect();
        let (piece, square, bits, magic) = (f.first()?, f.get(1)?, f.get(3)?, f.get(4)?);
        (Slider::parse(piece)? == problem.slider && Square::parse(square)? == problem.square)
            .then(|| Some((bits.parse::<u32>().ok()?, u64::from_str_radix(magic.strip_prefix("0x")?, 16).ok()?)))?
    });
    let Some((bits, start)) = known.filter(|k| k.0 >= 1 && k.0 <= problem.relevant_bits()) else {
        return Vec::new();
    };
    let shift = 64 - bits;
    let mut tester = Tester::new(problem, false, problem.relevant_bits());
    let Some(mut score) = tester.score(start, shift, usize::MAX) else {
        return Vec::new();
    };
    let mut rng = Rng::new(search::square_seed(seed ^ 0xc0de_0001, problem.slider, problem.square));
    let mut keep = vec![(start, score)];
    let mut magic = start;
    for step in 0..effort.climb {
        if step & 0x3ff == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let next = neighbour(magic, &mut rng);
        if let Some(u) = tester.score(next, shift, score).filter(|&u| u <= score) {
            if u < score {
                keep.push((next, u));
            }
            (magic, score) = (next, u);
        }
    }
    keep.sort_by_key(|k| k.1);
    keep.dedup_by_key(|k| k.0);
    keep.iter().take(effort.keep.max(1)).map(|&(m, _)| tester.pattern(m, shift, false)).collect()
}
