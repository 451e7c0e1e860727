//! Packed layout: all squares share one table, each at its own offset, and a
//! slot may be used by several squares (or several occupancies of a square)
//! as long as they all store the same attack set.
//!
//! Candidates include the 39 published magics with one index bit fewer than
//! relevant bits (`data/cpw_reduced_magics.txt`; 15 rooks, 24 bishops) and
//! climbs from them: their blocks are half the size, which saves more than
//! all the overlapping (91,925 entries with them, 105,607 without, before
//! the bishop combs of step 1b). The table follows the sum of the blocks,
//! not of the used slots: cut short after 5 s (unclimbed magics, 89,101 used
//! slots) it is already 92,669.
//!
//! Attack sets of different squares almost never agree (6,326 distinct sets
//! over the 128 problems against 6,328 per-square ones), so the table can be
//! no smaller than the sum over squares of the slots each one uses. The
//! packing therefore works in three steps:
//! 1. per square, magics that use few slots: random candidates (plain and
//!    black form; sparse, dense, runs of ones, structured gathers) that fit,
//!    then hill climbs from the best few that take a step (flip one or two
//!    bits, add or subtract a power of two) when it still fits and its score
//!    (used slots plus span) is no worse. Black magics collapse many
//!    occupancies with one attack set onto one slot (a corner rook goes from
//!    4,096 to about 2,400 slots, an inner rook from 1,024 to 600-800);
//!    1b. for bishops also combs: magics with one to three index bits more
//!    than relevant bits whose used slots fall on few residues of the index
//!    modulo 16 ("lanes"; climbed on lanes times rows, then used slots).
//!    Such a sparse block fits into the free slots left inside the rook
//!    blocks: with them the bishops, 60 of them with more index bits, end up
//!    in holes, and the table went from 91,925 to 89,412 entries (seed 1);
//!    1c. for rooks (and the 16 bishops with 7 or 9 relevant bits, see
//!    `BUNDLE_BISHOP_BITS`) also combs, which go into bundles (see
//!    [`super::magic_bundle`]): combs of two to four squares at the same
//!    index bits whose lanes, turned by small offsets, are disjoint share one
//!    block. The bundles are pinned end to end at the table's start before
//!    steps 2 and 3 place the other squares (bishops also into the bundles'
//!    free slots). Seed 1: 16 bundles of 55 squares (rooks h1, a3, h4, a5
//!    in 8,192 slots instead of 4,096 + 2,048 + 2,048 + 2,048; rooks e2, c3
//!    and bishop e5 in 2,048 instead of 1,024 + 1,024 + 512), and the table
//!    went from 89,412 to 76,849 entries: 83,134 with up to three rooks and
//!    one greedy pass, 82,306 with four, 79,312 with twice the rook comb
//!    climbs (all kept) and the best of 2,000 randomised greedy passes,
//!    78,269 with the Lagrangian choice ([`magic_bundle::select`]), 77,417
//!    with the centre bishops' combs offered too, 77,171 with the ring
//!    bishops', 76,849 with four times the rook comb climbs. The choice
//!    now ends with a local search, which finds the exact optimum on seed
//!    1's combs (14,931 slots saved against 14,414); a centre bishop it
//!    leaves out is offered again at twice its block (see `pack`). A
//!    bundle may also stack two "half members" (combs with one index bit
//!    fewer) in lanes its full members leave free, one in each half of the
//!    block: 76,309 entries against 76,380 (steps 1 to 4), and 74,933 with
//!    eight times the rook comb climbs (the bundles then end at 55,614
//!    instead of 59,680). The two need each other: eight times the climbs
//!    without the half members gave 76,239;
//! 2. placement: squares largest first, each with the pattern that ends
//!    lowest at the lowest offset where its used slots meet only free slots
//!    or slots holding the same attack set; then the square that ends last is
//!    moved lower while it can be. Several orders are tried;
//! 3. joint placement (magic and offset together): squares largest first;
//!    from each of the square's patterns a climb takes the steps that end no
//!    higher in the table built so far (lowest offset where every used slot is
//!    free, found on a bitset of the table). The smaller of 2 and 3 is kept;
//! 4. refill ([`super::magic_refill`]): the small bishops past the rook
//!    blocks and bundles are searched again for wide, sparse magics that fit
//!    into the holes below them.
//!
//! Steps 1 to 4 on seed 1 (`magic-search --layout packed --threads 2 --seed
//! 1`): 74,933 entries, 72,909 of them used. The rook blocks and bundles
//! end at 74,556; past them lie the ring bishop d6 and 12 small bishops
//! (377 slots). Before the half members and the eight times the climbs
//! (76,380 entries), the better choice alone made the table larger (77,153:
//! the rook blocks and bundles ended 505 slots lower, but 50 bishops ended
//! up past them, with fewer holes left), and so did valuing every centre
//! bishop twice from the start (77,457, a worse choice). The refill alone,
//! on the 76,849 table, moved 20 to 24 of the 30 bishops at its end, but not
//! the centre bishop e4 (512 slots, too dense for any hole).
//!
//! What did not help, on seed 1's combs with four times the rook climbs and
//! the half members (76,309 entries):
//! - the ring bishops' combs kept out of the bundles (76,848): seven of
//!   them end up past the rook blocks, too dense for the holes;
//! - rating a square outside a bundle and a bundle by used slots plus half
//!   (or 0.8 times) their free slots instead of their whole block, since
//!   free slots fill with bishops (77,129, 77,107): fewer rooks bundled;
//! - valuing twice the rooks left out whose dense block has few free slots,
//!   as for the centre bishops (77,790, and 5 minutes per choice);
//! - each bundle moved as low as it fits among those before it (76,305);
//! - three half members per target instead of one (15,209 slots saved
//!   against 15,200, three times the search).
//!
//! What did not help the bundles (seed 1's rook combs, twice the climbs):
//! five members (12,258 slots saved against 12,253, 155 s of search against
//! 5 s), every free turn of a member instead of the first (12,261, 17
//! minutes of search), all bishops' combs offered (table 77,833 against
//! 77,171 with the ring and centre bishops only).
//!
//! Before the bundles (kept as the record of what was tried): the climbs
//! bring the used slots down (about 78k
//! over all squares instead of 107k), but a square's used slots spread
//! evenly over its whole block of `2^bits` slots (often in a fixed pattern of
//! the low index bits: 9 of every 16 slots, 26 of every 64), so the gaps are
//! single slots, and two such blocks can share a stretch of the table only
//! where their densities add up to at most one, which 0.56-0.75 never do. The
//! table therefore stays close to the sum of the blocks (107,648 for the
//! fancy layout): 106,237 without step 3 and the known magics, 105,607 with
//! step 3 (seed 1). What did not help:
//! - more index bits than relevant bits (one or two): climbs on the span
//!   (lowest to highest used slot) never found a rook block shorter than
//!   `2^relevant bits` (d4, b1, a1; 1.2M steps each), and the wider blocks
//!   packed no better (106,500 with up to two extra bits, shorter climbs);
//! - a fixed shift (12 bits for rooks, 9 for bishops, as in the published
//!   87,988-entry table) with this greedy joint placement: 132,734, since a
//!   random sparse block almost never lands in the free slots of the table;
//! - longer joint climbs: 10,000 steps instead of 2,000 gave 105,552
//!   instead of 105,764 for 2.5 times the time (a first, sequential version
//!   of step 3);
//! - combs for rooks: with one or two extra index bits the best comb of each
//!   rook costs (lanes times rows) 74.6k over all rooks against 88.1k for
//!   their dense blocks (an inner rook: 6 of 16 lanes of a 2,048-slot block,
//!   768), but a comb only pays once other combs take all its free lanes:
//!   two 6-lane combs in one stretch cost as much as two dense blocks. Greedy
//!   passes offering rooks only their combs (largest first, or most lanes
//!   first) gave 105,252 against 92,002 for the same pass with all patterns,
//!   92,363 with only combs of at most half a dense block; offered next to
//!   the dense blocks, no rook comb was ever chosen. Packing rook combs needs
//!   a search over whole bundles of lane sets, not square after square;
//! - long free runs: climbs on the number of aligned 16- or 64-slot chunks
//!   touched (rook d4, b2, b1, a1; 0-2 extra bits, 1M steps) never touched
//!   fewer than `2^relevant bits` slots' worth; only the low index bits
//!   collapse (lanes), never the high ones;
//! - fewest used slots alone with more index bits: rook d4 676 at 12 bits,
//!   b1 1,024 at 13, d1 1,146 at 13 (768, 1,600, 1,534 in the table), but
//!   spread over 4-8k slots, so they fit nowhere;
//! - combs for the dense 512-slot blocks at the table's end (rooks b7-g7,
//!   480 used slots with the known 9-bit magics): at 10-12 bits, combs
//!   included, rook b7's patterns use 544-960 slots (576 in the black
//!   form), more than the dense block; offered to the placements, they
//!   left the table at 89,412 (seed 1);
//! - moving the end blocks into the holes after step 3: a climb on magic and
//!   offset together that counts the used slots landing on taken slots
//!   (every pattern of the square, 100,000 steps from a random offset) got
//!   no closer than 128 clashes for bishop e4 (461-512 used slots) and 69
//!   for rook b7 (576). The 14,524 free slots lie in lanes of single rook
//!   blocks (at most 7 of 16 nearly free lanes of a 1,024-slot block, 448
//!   slots, rook d2) at residues that change from block to block, so no
//!   stretch holds the 460-510 slots an end block needs;
//! - more orders in step 2: 400 passes instead of 24 gave at best 89,491
//!   (89,463 with the rook combs above), still above step 3, for +260 s.
//!
//! - combs whose lanes form one run (so that any two fit side by side): the
//!   climbs found only blocks with one index bit fixed (8 lanes of a block
//!   twice the size), which save nothing;
//! - rook combs offered square by square to a skyline placement (per lane
//!   the highest row taken): 97,000-115,000, since free lanes left by one
//!   comb rarely match the next one's.
//!
//! Rook combs packed as bundles, chosen together before the placement, were
//! the way out (step 1c).
//!
//! The work is counted in candidates and passes, not time, so a seed gives
//! one result; a deadline can cut it short (and then the result depends on
//! how far it got).

use super::magic_search::{self, Problem, Rng, Slider};
use super::{magic_bundle, magic_refill};
use crate::board::Square;
use std::time::Instant;

/// Per square (chosen pattern, offset), and the table size.
type Layout = (Vec<(usize, u64)>, u64);

/// Per square (pattern, offset), and the table size.
type Layout2 = (Vec<(Pattern, u64)>, u64);

/// The climb's score is used slots plus this many times the span: the span
/// is what a square costs unless other squares fill its gaps, which the
/// large ones' gaps rarely are.
const SPAN_WEIGHT: usize = 1;

/// A free slot in the placement table (no attack set is all 64 squares).
pub(super) const FREE: u64 = u64::MAX;

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

    /// Past the highest used slot.
    pub fn top(&self) -> u32 {
        self.slots.last().map_or(0, |s| s.0 + 1)
    }
}

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
    fn block(&mut self, magic: u64, shift: u32, out: &mut [u64]) -> Option<(usize, usize, usize)> {
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
    /// Climb steps per seed and square in the joint placement (magic and
    /// offset chosen together); 0 leaves it out.
    pub joint: u32,
    /// Steps per climb in the refill (step 4); 0 leaves it out.
    pub refill: u32,
}

impl Default for Effort {
    fn default() -> Effort {
        Effort { samples: 32, starts: 3, climb: 100_000, keep: 6, passes: 24, joint: 2_000, refill: 200_000 }
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
    let mut rng = Rng::new(magic_search::square_seed(seed ^ 0x9ac4_ed00, problem.slider, problem.square));
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
/// a rook's comb pays only in a [`magic_bundle::Bundle`] with other combs.
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
    let mut rng = Rng::new(magic_search::square_seed(seed ^ 0xc0b5_0000, problem.slider, problem.square));
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
const BUNDLE_BISHOP_BITS: u32 = 7;

/// The centre bishops (9 relevant bits), valued twice in the bundle choice
/// if left out.
const CENTRE_BISHOP_BITS: u32 = 9;

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
    magic_bundle::lanes(p).count_ones() as usize * ((1usize << (64 - p.shift)) / LANES)
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
const KNOWN_REDUCED: &str = include_str!("../../data/cpw_reduced_magics.txt");

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
    let mut rng = Rng::new(magic_search::square_seed(seed ^ 0xc0de_0001, problem.slider, problem.square));
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
    /// Bundles of combs (step 1c) and the squares in them.
    pub bundles: usize,
    pub bundled: usize,
}

/// The shared table during placement: per slot the attack set stored there
/// ([`FREE`] if none) and how many squares use it.
#[derive(Default)]
pub(super) struct Table {
    /// Per slot the attack set, or [`FREE`].
    pub(super) attacks: Vec<u64>,
    users: Vec<u16>,
}

impl Table {
    pub(super) fn put(&mut self, p: &Pattern, offset: usize) {
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

    pub(super) fn take(&mut self, p: &Pattern, offset: usize) {
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

/// Places the squares in `order` into a table holding only the `pinned`
/// squares (at their offsets, with their first pattern), each with the
/// pattern that ends lowest; then, while the square that ends last can be moved
/// lower (with any of its patterns), moves it. Returns (choice, offset) per
/// square and the table size.
fn place(options: &[Vec<Pattern>], order: &[usize], pinned: &[(usize, u64)]) -> Layout {
    let mut table = Table::default();
    let mut chosen = vec![(0, 0); options.len()];
    for &(sq, offset) in pinned {
        table.put(&options[sq][0], offset as usize);
        chosen[sq] = (0, offset);
    }
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
    let size = order.iter().chain(pinned.iter().map(|p| &p.0)).map(|&s| end(&chosen, s)).max().unwrap_or(0);
    (chosen, size as u64)
}

/// The lowest offset at which `p` fits into `table` (slots past its end are
/// free), or `None` if it would end past `bound`.
pub(super) fn first_fit(table: &[u64], p: &Pattern, bound: Option<usize>) -> Option<usize> {
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
    // Per target: the problem, its patterns, and its combs for the bundles (none for small bishops).
    let options: Vec<_> = targets
        .par_iter()
        .with_max_len(1)
        .map(|&(slider, square)| {
            let problem = Problem::new(slider, square);
            let mut patterns = known_patterns(&problem, seed, effort, deadline);
            patterns.extend(square_patterns(&problem, seed, effort, deadline));
            let mut combs = comb_patterns(&problem, seed, effort, deadline);
            if slider == Slider::Bishop {
                patterns.extend(combs.iter().cloned());
                if problem.relevant_bits() < BUNDLE_BISHOP_BITS {
                    combs.clear();
                }
            }
            on_square();
            (problem, (patterns, combs))
        })
        .collect();
    let (problems, (mut patterns, combs)): (Vec<Problem>, (Vec<_>, Vec<_>)) = options.into_iter().unzip();
    // Bundles first, end to end at the table's start; their squares keep only their comb.
    let smallest = |ps: &Vec<Pattern>| ps.iter().map(|p| 1usize << (64 - p.shift)).min().unwrap_or(usize::MAX);
    let block: Vec<usize> = patterns.iter().map(smallest).collect();
    let mut pinned: Vec<(usize, u64)> = Vec::new();
    let mut start = 0;
    let mut bundles = magic_bundle::choose(&combs, &block);
    // A centre bishop left out is offered again at twice its block: outside
    // a bundle its dense block has no holes and ends the table, where a
    // rook's block has holes that the small bishops fill.
    let left_out: Vec<usize> = (0..problems.len())
        .filter(|&t| problems[t].relevant_bits() >= CENTRE_BISHOP_BITS && problems[t].slider == Slider::Bishop)
        .filter(|&t| !combs[t].is_empty() && bundles.iter().all(|b| b.members.iter().all(|m| m.0 != t)))
        .collect();
    if !left_out.is_empty() {
        let mut value = block.clone();
        left_out.iter().for_each(|&t| value[t] *= 2);
        bundles = magic_bundle::choose(&combs, &value);
    }
    let bundle_count = bundles.len();
    for bundle in bundles {
        for (target, pattern, r) in bundle.members {
            patterns[target] = vec![pattern];
            pinned.push((target, start + r as u64));
        }
        start += bundle.top as u64;
    }
    // Largest first; later passes perturb the order with a seeded shuffle of neighbours.
    let mut base: Vec<usize> = (0..targets.len()).filter(|&i| pinned.iter().all(|p| p.0 != i)).collect();
    base.sort_by_key(|&i| (std::cmp::Reverse(patterns[i][0].used()), i));
    let mut rng = Rng::new(seed ^ 0x0bad_5eed);
    let orders: Vec<Vec<usize>> = (0..effort.passes.max(1))
        .map(|pass| {
            let mut order = base.clone();
            for _ in 0..if order.len() > 1 { pass * 4 } else { 0 } {
                let i = (rng.next_u64() % order.len() as u64) as usize;
                let j = (i + 1 + (rng.next_u64() % 4) as usize).min(order.len() - 1);
                order.swap(i, j);
            }
            order
        })
        .collect();
    let mut results: Vec<(Layout, usize)> = Vec::new();
    let done: Vec<Option<Layout>> = orders
        .par_iter()
        .enumerate()
        .map(|(n, order)| {
            if n > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                None
            } else {
                Some(place(&patterns, order, &pinned))
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
    let mut best: Layout2 =
        (chosen.iter().zip(&patterns).map(|(&(c, offset), p)| (p[c].clone(), offset)).collect(), size);
    if effort.joint > 0 && deadline.is_none_or(|d| Instant::now() < d) {
        let joint = place_joint(&problems, &patterns, &base, effort.joint, seed, deadline, &pinned);
        if joint.1 < best.1 {
            best = joint;
        }
    }
    let (mut chosen, mut size) = best;
    if effort.refill > 0 && deadline.is_none_or(|d| Instant::now() < d) {
        size = magic_refill::refill(&problems, &mut chosen, seed, effort.refill);
    }
    let entries = problems
        .iter()
        .zip(&chosen)
        .map(|(problem, (p, offset))| Placed {
            slider: problem.slider,
            square: problem.square,
            mask: problem.mask,
            magic: p.magic,
            shift: p.shift,
            black: p.black,
            offset: *offset,
            used: p.used(),
        })
        .collect();
    let used_sum = chosen.iter().map(|(p, _)| p.used() as u64).sum();
    Packing { entries, table_entries: size, used_sum, passes, bundles: bundle_count, bundled: pinned.len() }
}

/// The shared table as a bitset of used slots (the joint placement).
#[derive(Default)]
struct Bits {
    words: Vec<u64>,
}

impl Bits {
    /// The 64 slots from `pos` on, one bit each (slots past the end are free).
    #[inline]
    fn at(&self, pos: usize) -> u64 {
        let (q, r) = (pos / 64, pos % 64);
        let low = self.words.get(q).copied().unwrap_or(0);
        if r == 0 {
            return low;
        }
        low >> r | self.words.get(q + 1).copied().unwrap_or(0) << (64 - r)
    }

    /// Whether the block's used slots (`block`, words `w0..=w1`) are all free at `offset`.
    #[inline]
    fn fits(&self, block: &[u64], w0: usize, w1: usize, offset: usize) -> bool {
        (w0..=w1).all(|w| block[w] == 0 || self.at(offset + 64 * w) & block[w] == 0)
    }

    /// The lowest offset at which the block (used slots `lo..=hi`) fits, if
    /// it then ends at or below `limit`. Only offsets that put the lowest
    /// used slot on a free slot are tried.
    fn first_fit(&self, block: &[u64], lo: usize, hi: usize, limit: usize) -> Option<usize> {
        let (w0, w1) = (lo / 64, hi / 64);
        let mut pos = lo;
        loop {
            if pos - lo + hi + 1 > limit {
                return None;
            }
            let q = pos / 64;
            let free = !self.words.get(q).copied().unwrap_or(0) & (!0u64 << (pos % 64));
            if free == 0 {
                pos = (q + 1) * 64;
                continue;
            }
            pos = q * 64 + free.trailing_zeros() as usize;
            if pos - lo + hi + 1 > limit {
                return None;
            }
            if self.fits(block, w0, w1, pos - lo) {
                return Some(pos - lo);
            }
            pos += 1;
        }
    }

    fn set(&mut self, block: &[u64], offset: usize, hi: usize) {
        let end = (offset + hi + 1).div_ceil(64) + 1;
        if self.words.len() < end {
            self.words.resize(end, 0);
        }
        for (w, &b) in block.iter().enumerate() {
            let mut b = b;
            while b != 0 {
                let s = offset + 64 * w + b.trailing_zeros() as usize;
                self.words[s / 64] |= 1 << (s % 64);
                b &= b - 1;
            }
        }
    }
}

/// Joint placement: the `pinned` squares at their offsets (with their first
/// pattern), then the squares in `order`, each with the magic that ends
/// lowest in the table so far (then uses the fewest slots). From each of the
/// square's `seeds` (in parallel) a climb takes the steps of [`neighbour`]
/// that end no higher, for `steps` steps or until `deadline`.
fn place_joint(
    problems: &[Problem],
    seeds: &[Vec<Pattern>],
    order: &[usize],
    steps: u32,
    seed: u64,
    deadline: Option<Instant>,
    pinned: &[(usize, u64)],
) -> Layout2 {
    use rayon::prelude::*;
    let mut table = Bits::default();
    let mut placed: Vec<Option<(Pattern, u64)>> = vec![None; problems.len()];
    for &(sq, offset) in pinned {
        let p = &seeds[sq][0];
        let mut block = vec![0u64; p.top().div_ceil(64) as usize];
        for &(i, _) in &p.slots {
            block[i as usize / 64] |= 1 << (i % 64);
        }
        table.set(&block, offset as usize, p.top() as usize);
        placed[sq] = Some((p.clone(), offset));
    }
    for &sq in order {
        let problem = &problems[sq];
        let table = &mut table;
        // Per seed: (end, used, magic, offset).
        let climbs: Vec<Option<(usize, usize, u64, usize)>> = seeds[sq]
            .par_iter()
            .enumerate()
            .with_max_len(1)
            .map(|(n, p)| {
                let square_seed =
                    magic_search::square_seed(seed ^ 0x701e_7000 ^ n as u64, problem.slider, problem.square);
                climb_into(&*table, problem, p, steps, square_seed, deadline)
            })
            .collect();
        let (c, &(_, _, magic, offset)) = climbs
            .iter()
            .enumerate()
            .filter_map(|(c, r)| r.as_ref().map(|r| (c, r)))
            .min_by_key(|(c, r)| (r.0, r.1, *c))
            .expect("a seed always fits past the end");
        let p = &seeds[sq][c];
        let mut tester = Tester::new(problem, p.black, 64 - p.shift);
        let mut block = vec![0u64; (1usize << (64 - p.shift)).div_ceil(64)];
        let (_, hi, _) = tester.block(magic, p.shift, &mut block).expect("the climb keeps to fitting magics");
        table.set(&block, offset, hi);
        placed[sq] = Some((tester.pattern(magic, p.shift, p.black), offset as u64));
    }
    let placed: Vec<(Pattern, u64)> = placed.into_iter().map(|p| p.expect("every square placed")).collect();
    let size = placed.iter().map(|(p, o)| o + p.top() as u64).max().unwrap_or(0);
    (placed, size)
}

/// One climb of the joint placement from `start`: (end, used, magic, offset).
fn climb_into(
    table: &Bits,
    problem: &Problem,
    start: &Pattern,
    steps: u32,
    seed: u64,
    deadline: Option<Instant>,
) -> Option<(usize, usize, u64, usize)> {
    let (black, shift) = (start.black, start.shift);
    let mut rng = Rng::new(seed);
    let mut tester = Tester::new(problem, black, 64 - shift);
    let mut block = vec![0u64; (1usize << (64 - shift)).div_ceil(64)];
    let relevant = if black { !0u64 } else { !0u64 >> problem.mask.trailing_zeros() };
    let mut cost = |magic: u64, limit: usize| {
        let (lo, hi, used) = tester.block(magic, shift, &mut block)?;
        let offset = table.first_fit(&block, lo, hi, limit)?;
        Some((offset + hi + 1, used, offset))
    };
    let (mut end, mut used, mut offset) = cost(start.magic, usize::MAX)?;
    let mut magic = start.magic;
    for step in 0..steps {
        if step & 0xff == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let next = neighbour(magic, &mut rng) & relevant;
        if next == magic {
            continue;
        }
        if let Some((e, u, o)) = cost(next, end) {
            if (e, u) <= (end, used) {
                (end, used, offset, magic) = (e, u, o, next);
            }
        }
    }
    Some((end, used, magic, offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_packing_overlaps_and_fits() {
        let targets: Vec<(Slider, Square)> = Square::ALL.iter().map(|&s| (Slider::Bishop, s)).collect();
        let effort = Effort { samples: 4, starts: 1, climb: 2_000, keep: 2, passes: 2, joint: 200, refill: 2_000 };
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
        let effort = Effort { samples: 4, starts: 1, climb: 500, keep: 3, passes: 1, joint: 0, refill: 0 };
        let options: Vec<Vec<Pattern>> = targets.iter().map(|p| square_patterns(p, 3, effort, None)).collect();
        let order: Vec<usize> = (0..options.len()).collect();
        let (chosen, size) = place(&options, &order, &[]);
        let mut table = vec![FREE; size as usize];
        for (opts, &(c, offset)) in options.iter().zip(&chosen) {
            for &(i, a) in &opts[c].slots {
                let s = &mut table[offset as usize + i as usize];
                assert!(*s == FREE || *s == a, "clash at {}", offset + i as u64);
                *s = a;
            }
        }
    }

    #[test]
    fn pinned_bundles_and_the_squares_around_them_do_not_clash() {
        // Hand-made combs: two rooks whose lanes fit side by side, pinned as a bundle.
        let comb = |lanes: &[u32]| magic_bundle::tests::comb(53, lanes, 128);
        let combs = vec![vec![comb(&[0, 1, 2, 3, 4, 5, 6])], vec![comb(&[0, 1, 2, 3, 4, 5, 6, 7, 8])], vec![]];
        let bundles = magic_bundle::choose(&combs, &[2048, 2048, 64]);
        assert_eq!(bundles.len(), 1);
        let mut options = vec![Vec::new(); 3];
        let mut pinned = Vec::new();
        for (t, p, r) in &bundles[0].members {
            options[*t] = vec![p.clone()];
            pinned.push((*t, *r as u64));
        }
        // A third square of 64 slots with its own attack sets goes after or into the free slots.
        options[2] =
            vec![Pattern { magic: 0, shift: 58, black: false, slots: (0..64).map(|i| (i, 1 << 40)).collect() }];
        let (chosen, size) = place(&options, &[2], &pinned);
        let mut table = vec![FREE; size as usize];
        for (opts, &(c, offset)) in options.iter().zip(&chosen) {
            for &(i, a) in &opts[c].slots {
                let s = &mut table[offset as usize + i as usize];
                assert!(*s == FREE || *s == a, "clash at {}", offset + i as u64);
                *s = a;
            }
        }
        assert_eq!(size, 2048 + 64);
    }

    #[test]
    fn joint_placements_do_not_clash() {
        let targets: Vec<Problem> = [Square::A1, Square::B1, Square::C1, Square::H8, Square::D4, Square::E4]
            .iter()
            .map(|&s| Problem::new(Slider::Bishop, s))
            .chain([Problem::new(Slider::Rook, Square::D4)])
            .collect();
        let effort = Effort { samples: 4, starts: 1, climb: 500, keep: 3, passes: 1, joint: 300, refill: 0 };
        let options: Vec<Vec<Pattern>> = targets.iter().map(|p| square_patterns(p, 5, effort, None)).collect();
        let order: Vec<usize> = (0..options.len()).rev().collect();
        let (placed, size) = place_joint(&targets, &options, &order, effort.joint, 5, None, &[]);
        let mut table = vec![FREE; size as usize];
        for (problem, (p, offset)) in targets.iter().zip(&placed) {
            // The placed pattern is the magic's own, and every occupancy finds its attack set.
            for (&occ, &att) in problem.occupancies.iter().zip(&problem.attacks) {
                let key = if p.black { occ | !problem.mask } else { occ };
                let index = (key.wrapping_mul(p.magic) >> p.shift) as u32;
                assert!(p.slots.contains(&(index, att)));
            }
            for &(i, a) in &p.slots {
                let s = &mut table[*offset as usize + i as usize];
                assert!(*s == FREE, "clash at {}", offset + i as u64);
                *s = a;
            }
        }
        assert!(size < placed.iter().map(|(p, _)| 1u64 << (64 - p.shift)).sum::<u64>());
    }
}
