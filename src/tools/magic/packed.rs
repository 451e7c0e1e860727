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
//!    [`super::bundle`]): combs of two to four squares at the same
//!    index bits whose lanes, turned by small offsets, are disjoint share one
//!    block. The bundles are pinned end to end at the table's start before
//!    steps 2 and 3 place the other squares (bishops also into the bundles'
//!    free slots). Seed 1: 16 bundles of 55 squares (rooks h1, a3, h4, a5
//!    in 8,192 slots instead of 4,096 + 2,048 + 2,048 + 2,048; rooks e2, c3
//!    and bishop e5 in 2,048 instead of 1,024 + 1,024 + 512), and the table
//!    went from 89,412 to 76,849 entries: 83,134 with up to three rooks and
//!    one greedy pass, 82,306 with four, 79,312 with twice the rook comb
//!    climbs (all kept) and the best of 2,000 randomised greedy passes,
//!    78,269 with the Lagrangian choice ([`bundle::select`]), 77,417
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
//! 4. refill ([`super::refill`]): the small bishops past the rook
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

use super::patterns::{comb_patterns, known_patterns, square_patterns, BUNDLE_BISHOP_BITS, CENTRE_BISHOP_BITS};
use super::place::{place, place_joint, Layout, Layout2};
use super::search::{Problem, Rng, Slider};
use super::{bundle, refill};
use crate::board::Square;
use std::time::Instant;

/// One magic for a square and the slots it uses.
#[derive(Clone, Debug)]
pub struct Pattern {
    /// The multiplier.
    pub magic: u64,
    /// The right shift of the product.
    pub shift: u32,
    /// Whether it is the black form `(occ | !mask) * magic`.
    pub black: bool,
    /// (index without offset, attack set), one per used slot, by index.
    pub slots: Vec<(u32, u64)>,
}

impl Pattern {
    /// How many slots it uses.
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

/// One placed square.
#[derive(Clone, Debug)]
pub struct Placed {
    /// The slider.
    pub slider: Slider,
    /// The square.
    pub square: Square,
    /// The relevant occupancy mask.
    pub mask: u64,
    /// The multiplier.
    pub magic: u64,
    /// The right shift of the product.
    pub shift: u32,
    /// Whether it is the black form.
    pub black: bool,
    /// Where its slots start in the shared table.
    pub offset: u64,
    /// How many slots it uses.
    pub used: usize,
}

/// A finished packing.
#[derive(Clone, Debug)]
pub struct Packing {
    /// Every placed square.
    pub entries: Vec<Placed>,
    /// The size of the shared table, in slots.
    pub table_entries: u64,
    /// Sum of the slots each square uses: the table can be no smaller.
    pub used_sum: u64,
    /// Passes the packing took.
    pub passes: u32,
    /// Bundles of combs (step 1c) and the squares in them.
    pub bundles: usize,
    /// Squares in those bundles.
    pub bundled: usize,
}

/// Where a packing is, for progress reports: each step as it begins, and
/// the units of the steps that have them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Step 1 (candidate magics per square) is done for one more target.
    Square(Slider, Square),
    /// The choice of bundles begins (after step 1).
    Bundles,
    /// Step 2 begins: this many placement orders.
    Placement(u32),
    /// One more placement order is done.
    Pass,
    /// Step 3, the joint placement, begins.
    Joint,
    /// Step 4, the refill, begins.
    Refill,
}

/// Packs every target into one table. Runs on the current rayon pool; the
/// result depends only on `seed` and `effort` unless `deadline` cuts the work
/// short. `on_progress` hears where the work is.
pub fn pack(
    targets: &[(Slider, Square)],
    seed: u64,
    effort: Effort,
    deadline: Option<Instant>,
    on_progress: &(dyn Fn(Progress) + Sync),
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
            on_progress(Progress::Square(slider, square));
            (problem, (patterns, combs))
        })
        .collect();
    let (problems, (mut patterns, combs)): (Vec<Problem>, (Vec<_>, Vec<_>)) = options.into_iter().unzip();
    // Bundles first, end to end at the table's start; their squares keep only their comb.
    let smallest = |ps: &Vec<Pattern>| ps.iter().map(|p| 1usize << (64 - p.shift)).min().unwrap_or(usize::MAX);
    let block: Vec<usize> = patterns.iter().map(smallest).collect();
    let mut pinned: Vec<(usize, u64)> = Vec::new();
    let mut start = 0;
    on_progress(Progress::Bundles);
    let mut bundles = bundle::choose(&combs, &block);
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
        bundles = bundle::choose(&combs, &value);
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
    on_progress(Progress::Placement(orders.len() as u32));
    let done: Vec<Option<Layout>> = orders
        .par_iter()
        .enumerate()
        .map(|(n, order)| {
            if n > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                None
            } else {
                let placed = place(&patterns, order, &pinned);
                on_progress(Progress::Pass);
                Some(placed)
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
        on_progress(Progress::Joint);
        let joint = place_joint(&problems, &patterns, &base, effort.joint, seed, deadline, &pinned);
        if joint.1 < best.1 {
            best = joint;
        }
    }
    let (mut chosen, mut size) = best;
    if effort.refill > 0 && deadline.is_none_or(|d| Instant::now() < d) {
        on_progress(Progress::Refill);
        size = refill::refill(&problems, &mut chosen, seed, effort.refill);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::magic::place::FREE;

    #[test]
    fn a_small_packing_overlaps_and_fits() {
        let targets: Vec<(Slider, Square)> = Square::ALL.iter().map(|&s| (Slider::Bishop, s)).collect();
        let effort = Effort { samples: 4, starts: 1, climb: 2_000, keep: 2, passes: 2, joint: 200, refill: 2_000 };
        let packing = pack(&targets, 1, effort, None, &|_| {});
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
        let comb = |lanes: &[u32]| bundle::tests::comb(53, lanes, 128);
        let combs = vec![vec![comb(&[0, 1, 2, 3, 4, 5, 6])], vec![comb(&[0, 1, 2, 3, 4, 5, 6, 7, 8])], vec![]];
        let bundles = bundle::choose(&combs, &[2048, 2048, 64]);
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
