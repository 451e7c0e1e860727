//! Bundles for the packed layout: combs of different squares (rooks, and
//! the larger bishops) that share one stretch of the table.
//!
//! A comb (see `patterns::comb_patterns`) is a magic with more
//! index bits than relevant bits whose used slots fall on few lanes
//! (residues of the index modulo `LANES`, 16). Moving a comb by `r` slots
//! turns its lanes by `r`, so combs at the same index bits whose turned lane
//! sets are disjoint never meet, and their blocks can lie on top of each
//! other. In the table of seed 1, rooks h1, a1, h3 and f5 at 13 index bits
//! share 8,192 slots, where their smallest blocks take 4,096 + 4,096 +
//! 2,048 + 1,024.
//!
//! A bundle may also stack two combs with one index bit fewer (half the
//! block) in the same lanes, one in the lower half of the block and one in
//! the upper half ("half members"): lanes that a member at the bundle's own
//! index bits leaves free over the whole block then hold two squares. In
//! the table of seed 1, rooks a2 and c5 at 12 index bits share 4,096 slots
//! with rook b2 (11 bits) in the lower half and rook c4 in the upper half.
//!
//! Placed one at a time, a comb never pays (its free lanes stay free until
//! others fill them), which is why the bundles are formed first, from all
//! the combs together.

use super::packed::Pattern;
use super::patterns::LANES;

/// Combs of several squares sharing one stretch of the table.
#[derive(Clone, Debug)]
pub struct Bundle {
    /// (target, pattern, offset of the pattern within the bundle).
    pub members: Vec<(usize, Pattern, u32)>,
    /// From the bundle's start to past its highest used slot.
    pub top: u32,
    /// The members' smallest blocks laid end to end, minus `top`.
    pub saving: usize,
}

/// Members per bundle. On the rook combs of seed 1, a greedy choice saved
/// 7,152 slots with three, 8,186 with four; with [`select`] (and twice the
/// climbs), five saved 12,258 against 12,253 with four, in 155 s against 5 s.
const MAX_MEMBERS: usize = 4;

/// The lanes a pattern uses, a bit per residue of the index modulo `LANES` (16).
pub fn lanes(p: &Pattern) -> u32 {
    p.slots.iter().fold(0, |m, s| m | 1 << (s.0 as usize % LANES))
}

/// The lanes of a pattern moved by `r` slots (`r < LANES`).
fn turn(lanes: u32, r: usize) -> u32 {
    let all = (1u32 << LANES) - 1;
    (lanes << r | lanes >> ((LANES - r) % LANES)) & all
}

/// One comb offered to the bundles.
struct Candidate<'a> {
    target: usize,
    pattern: &'a Pattern,
    lanes: u32,
    /// The target's smallest block minus lanes times rows (at least 0).
    gain: usize,
}

/// A bundle while it is searched: (candidate, offset) per member.
type Members = Vec<(usize, usize)>;

/// The best bundle found per set of targets (as bits): (saving, top,
/// members as (target, pattern, offset)).
type Found<'a> = std::collections::HashMap<u128, (usize, u32, Vec<(usize, &'a Pattern, u32)>)>;

/// Bundles of `combs` (per target), no target in two, with the largest
/// total saving that [`select`] finds among the bundles the search offers
/// (the best one per set of targets). `block[t]` is what target `t` costs
/// outside a bundle (its smallest block). Deterministic. At most 128
/// targets (a set of them is a `u128`).
pub fn choose(combs: &[Vec<Pattern>], block: &[usize]) -> Vec<Bundle> {
    assert!(combs.len() <= 128, "at most 128 targets, got {}", combs.len());
    let mut shifts: Vec<u32> = combs.iter().flatten().map(|p| p.shift).collect();
    shifts.sort_unstable();
    shifts.dedup();
    let mut found = Found::default();
    for shift in shifts {
        let offer = Offer::new(combs, block, shift);
        let mut members = Members::new();
        for first in 0..offer.full {
            if offer.candidates[first].gain > 0 {
                members.push((first, 0));
                let lanes = offer.candidates[first].lanes;
                offer.grow(first + 1, &mut members, [lanes, lanes], &mut found);
                members.pop();
            }
        }
    }
    // Sorted, so that the choice does not depend on the map's order.
    let mut offered: Vec<_> = found.into_iter().collect();
    offered.sort_by_key(|(targets, (saving, top, _))| (std::cmp::Reverse(*saving), *top, *targets));
    let sets: Vec<(u128, usize)> = offered.iter().map(|(targets, f)| (*targets, f.0)).collect();
    select(&sets)
        .into_iter()
        .map(|n| {
            let (_, (saving, top, members)) = &offered[n];
            let members = members.iter().map(|&(t, p, r)| (t, p.clone(), r)).collect();
            Bundle { members, top: *top, saving: *saving }
        })
        .collect()
}

/// Lagrangian rounds in [`select`].
const ROUNDS: u32 = 400;

/// Sets (targets as bits, saving) that share no target and save the most,
/// as indices into `sets`. Weighted set packing is NP-hard; this is the
/// Lagrangian heuristic: each target gets a price, and a greedy pass takes
/// the sets by saving minus their targets' prices; the prices follow the
/// subgradient (up where a target is wanted by several sets, down where by
/// none), and the best pass wins; then `improve` searches around it.
/// Seed 1's rook combs (twice the climbs): 12,253 slots saved by the
/// Lagrangian passes ([`choose`] in 5 s, search included), where 2,000
/// randomised greedy passes by saving alone found 10,734 (48 s) and an
/// exact solver (HiGHS, offline, on the same bundles) 12,256. Seed 1's
/// combs as the packing offers them (rooks four times the climbs, centre
/// and ring bishops): 14,414 by the Lagrangian passes, 14,931 after the
/// local search, which is the exact optimum (HiGHS). With the centre
/// bishops valued twice it stops short: 15,976 against 16,475.
/// Deterministic: ties go to the earlier set.
pub fn select(sets: &[(u128, usize)]) -> Vec<usize> {
    let mut price = [0f64; 128];
    let mut best: (usize, Vec<usize>) = (0, Vec::new());
    let mut step = 1.0;
    let mut order: Vec<usize> = (0..sets.len()).collect();
    for round in 0..ROUNDS {
        let reduced: Vec<f64> = sets
            .iter()
            .map(|&(targets, saving)| saving as f64 - members(targets).map(|t| price[t]).sum::<f64>())
            .collect();
        order.sort_by(|&a, &b| reduced[b].total_cmp(&reduced[a]).then(a.cmp(&b)));
        let (mut taken, mut total, mut picked) = (0u128, 0, Vec::new());
        for &n in &order {
            if sets[n].0 & taken == 0 {
                taken |= sets[n].0;
                total += sets[n].1;
                picked.push(n);
            }
        }
        if total > best.0 {
            best = (total, picked);
        }
        // The relaxation's value (a bound on any packing) and its subgradient.
        let mut wanted = [0u32; 128];
        let mut bound: f64 = price.iter().sum();
        for (n, &(targets, _)) in sets.iter().enumerate() {
            if reduced[n] > 0.0 {
                bound += reduced[n];
                members(targets).for_each(|t| wanted[t] += 1);
            }
        }
        let gradient: Vec<f64> = wanted.iter().map(|&w| 1.0 - w as f64).collect();
        let norm: f64 = gradient.iter().map(|g| g * g).sum();
        if norm == 0.0 {
            break;
        }
        let t = step * (bound - best.0 as f64) / norm;
        price.iter_mut().zip(&gradient).for_each(|(p, g)| *p = (*p - t * g).max(0.0));
        if round % 50 == 49 {
            step *= 0.8;
        }
    }
    improve(sets, best.1)
}

/// Local search on a packing of `sets` (indices into it): a set not taken
/// goes in, the taken sets it meets go out, and the targets they free are
/// filled again greedily (by saving); kept if the total grows, until no set
/// makes it grow. Every set has at least one target. Deterministic.
fn improve(sets: &[(u128, usize)], chosen: Vec<usize>) -> Vec<usize> {
    const NONE: usize = usize::MAX;
    let mut by_target = vec![Vec::new(); 128];
    for (n, &(targets, _)) in sets.iter().enumerate() {
        members(targets).for_each(|t| by_target[t].push(n));
    }
    // By saving, best first: the order of both the tries and the refills.
    let mut order: Vec<usize> = (0..sets.len()).collect();
    order.sort_by_key(|&n| (std::cmp::Reverse(sets[n].1), n));
    let mut rank = vec![0; sets.len()];
    order.iter().enumerate().for_each(|(r, &n)| rank[n] = r);
    // The taken set per target: the one record of the packing.
    let mut owner = [NONE; 128];
    let taken = |owner: &[usize; 128], n: usize| owner[sets[n].0.trailing_zeros() as usize] == n;
    let put = |owner: &mut [usize; 128], n: usize, on: bool| {
        members(sets[n].0).for_each(|t| owner[t] = if on { n } else { NONE });
    };
    chosen.iter().for_each(|&n| put(&mut owner, n, true));
    let mut improved = true;
    while improved {
        improved = false;
        for &x in &order {
            if taken(&owner, x) {
                continue;
            }
            let mut out: Vec<usize> = members(sets[x].0).map(|t| owner[t]).filter(|&o| o != NONE).collect();
            out.sort_unstable();
            out.dedup();
            let lost: usize = out.iter().map(|&o| sets[o].1).sum();
            let freed = out.iter().fold(0u128, |a, &o| a | sets[o].0) & !sets[x].0;
            let mut busy = (0..128).filter(|&t| owner[t] != NONE).fold(0u128, |a, t| a | 1 << t) & !freed | sets[x].0;
            let mut refill: Vec<usize> =
                members(freed).flat_map(|t| by_target[t].iter().copied()).filter(|&n| sets[n].0 & busy == 0).collect();
            refill.sort_unstable_by_key(|&n| rank[n]);
            refill.dedup();
            let mut gain = sets[x].1;
            refill.retain(|&n| {
                let fits = sets[n].0 & busy == 0;
                if fits {
                    busy |= sets[n].0;
                    gain += sets[n].1;
                }
                fits
            });
            if gain > lost {
                out.iter().for_each(|&o| put(&mut owner, o, false));
                refill.iter().chain([&x]).for_each(|&n| put(&mut owner, n, true));
                improved = true;
            }
        }
    }
    (0..sets.len()).filter(|&n| taken(&owner, n)).collect()
}

/// The targets in a set of them, lowest first.
fn members(mut targets: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (targets != 0).then(|| {
            let t = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            t
        })
    })
}

/// A bundle is kept if it saves at least its size over this. It drops
/// bundles that save a slot or two but pin their rooks to combs; the choice
/// hardly changed (seed 1, with the earlier randomised greedy choice: 10,734
/// slots saved with the cut, 10,737 without), and the table was measured
/// with it only.
const MIN_SHARE: usize = 16;

/// The combs at `shift` that cost no more than their target's smallest
/// block, one per target and lane set (the one using fewest slots), best
/// gain first.
fn candidates<'a>(combs: &'a [Vec<Pattern>], block: &[usize], shift: u32) -> Vec<Candidate<'a>> {
    let rows = (1usize << (64 - shift)) / LANES;
    let mut out: Vec<Candidate> = Vec::new();
    for (target, patterns) in combs.iter().enumerate() {
        for pattern in patterns.iter().filter(|p| p.shift == shift) {
            let lanes = lanes(pattern);
            let Some(gain) = block[target].checked_sub(lanes.count_ones() as usize * rows) else {
                continue;
            };
            match out.iter_mut().find(|c| c.target == target && c.lanes == lanes) {
                Some(c) if c.pattern.used() > pattern.used() => c.pattern = pattern,
                Some(_) => {}
                None => out.push(Candidate { target, pattern, lanes, gain }),
            }
        }
    }
    out.sort_by_key(|c| (std::cmp::Reverse(c.gain), c.target, c.pattern.used(), c.lanes));
    out
}

/// Half combs (one index bit fewer) offered per target, best gain first.
/// Seed 1's combs: the choice saved 15,200 slots with one (46 s), 15,209
/// with three (151 s), 14,931 without (31 s); the table went from 76,380 to
/// 76,309 entries with one (74,933 with eight times the rook comb climbs).
const HALVES_PER_TARGET: usize = 1;

/// The combs offered to the bundles at one index bit count: first the ones
/// at that count, then the half members.
struct Offer<'a, 'b> {
    candidates: Vec<Candidate<'a>>,
    /// Candidates before this index span the whole block; the rest half of it.
    full: usize,
    /// Half the block, where the upper half members start.
    half: usize,
    block: &'b [usize],
}

impl<'a, 'b> Offer<'a, 'b> {
    fn new(combs: &'a [Vec<Pattern>], block: &'b [usize], shift: u32) -> Offer<'a, 'b> {
        let mut list = candidates(combs, block, shift);
        let full = list.len();
        let mut offered = vec![0; combs.len()];
        list.extend(candidates(combs, block, shift + 1).into_iter().filter(|c| {
            offered[c.target] += 1;
            offered[c.target] <= HALVES_PER_TARGET
        }));
        Offer { candidates: list, full, half: 1 << (63 - shift), block }
    }

    /// Records every bundle that grows from `members` (taken lanes `taken`
    /// in the lower and upper half) by candidates from `from` on, each at
    /// the first offset whose turned lanes are all free (a half member in
    /// the lower half if it fits there).
    fn grow(&self, from: usize, members: &mut Members, taken: [u32; 2], found: &mut Found<'a>) {
        let candidates = &self.candidates;
        if members.len() >= 2 {
            let top = members.iter().map(|&(c, r)| candidates[c].pattern.top() + r as u32).max().unwrap_or(0);
            let blocks: usize = members.iter().map(|&(c, _)| self.block[candidates[c].target]).sum();
            if let Some(saving) = blocks.checked_sub(top as usize).filter(|&s| s * MIN_SHARE >= top as usize) {
                let targets = members.iter().fold(0u128, |m, &(c, _)| m | 1 << candidates[c].target);
                // The first found wins a tie, which keeps the choice deterministic.
                let better = found
                    .get(&targets)
                    .is_none_or(|b| (saving, std::cmp::Reverse(top)) > (b.0, std::cmp::Reverse(b.1)));
                if better {
                    let list =
                        members.iter().map(|&(c, r)| (candidates[c].target, candidates[c].pattern, r as u32)).collect();
                    found.insert(targets, (saving, top, list));
                }
            }
        }
        if members.len() == MAX_MEMBERS {
            return;
        }
        for next in from..candidates.len() {
            let c = &candidates[next];
            if members.iter().any(|&(m, _)| candidates[m].target == c.target) {
                continue;
            }
            if next < self.full {
                let all = taken[0] | taken[1];
                if let Some(r) = (0..LANES).find(|&r| turn(c.lanes, r) & all == 0) {
                    let lanes = turn(c.lanes, r);
                    members.push((next, r));
                    self.grow(next + 1, members, [taken[0] | lanes, taken[1] | lanes], found);
                    members.pop();
                }
                continue;
            }
            for (h, base) in [(0, 0), (1, self.half)] {
                let fits = |r: usize| {
                    turn(c.lanes, r) & taken[h] == 0
                        && members.iter().all(|&(m, o)| {
                            m < self.full
                                || (o >= self.half) == (h == 1)
                                || !meet(candidates[m].pattern, o, c.pattern, base + r)
                        })
                };
                if let Some(r) = (0..LANES).find(|&r| fits(r)) {
                    let mut lanes = taken;
                    lanes[h] |= turn(c.lanes, r);
                    members.push((next, base + r));
                    self.grow(next + 1, members, lanes, found);
                    members.pop();
                    break;
                }
            }
        }
    }
}

/// Whether two patterns at offsets `oa` and `ob` use a slot in common. Half
/// members in opposite halves can meet only where a lower one, moved by its
/// offset, runs into the first row of the upper half: lanes alone do not
/// tell.
fn meet(a: &Pattern, oa: usize, b: &Pattern, ob: usize) -> bool {
    let lo = oa.max(ob);
    let hi = (oa + a.top() as usize).min(ob + b.top() as usize);
    if lo >= hi {
        return false;
    }
    within(b, ob, lo, hi).any(|x| within(a, oa, lo, hi).any(|y| y == x))
}

/// The slots of `p` moved by `o` that lie in `lo..hi`, by index.
fn within(p: &Pattern, o: usize, lo: usize, hi: usize) -> impl Iterator<Item = usize> + '_ {
    let first = p.slots.partition_point(|s| (s.0 as usize + o) < lo);
    p.slots[first..].iter().map(move |s| s.0 as usize + o).take_while(move |&x| x < hi)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A comb using every row of `lanes` (attack set: the lane's bit).
    pub(crate) fn comb(shift: u32, lanes: &[u32], rows: u32) -> Pattern {
        let slots = (0..rows).flat_map(|row| lanes.iter().map(move |&l| (row * LANES as u32 + l, 1u64 << l))).collect();
        Pattern { magic: 0, shift, black: false, slots }
    }

    #[test]
    fn turning_wraps_the_lanes() {
        assert_eq!(turn(0b1, 0), 0b1);
        assert_eq!(turn(0b1, 15), 1 << 15);
        assert_eq!(turn(1 << 15 | 1, 1), 0b11);
    }

    #[test]
    fn combs_with_disjoint_turned_lanes_share_a_block() {
        // Two 8-lane combs of 64 rows (512 slots of lanes times rows) against 1,024-slot blocks.
        let combs = vec![vec![comb(54, &[0, 1, 2, 3, 4, 5, 6, 7], 64)], vec![comb(54, &[1, 2, 3, 4, 5, 6, 7, 8], 64)]];
        let bundles = choose(&combs, &[1024, 1024]);
        assert_eq!(bundles.len(), 1);
        let b = &bundles[0];
        assert_eq!(b.members.len(), 2);
        // Every member's used slots, moved by its offset, are distinct.
        let mut seen = std::collections::HashSet::new();
        for (_, p, r) in &b.members {
            assert!(p.slots.iter().all(|s| seen.insert(s.0 + r)));
        }
        assert_eq!((b.top, b.saving), (1024, 1024));
    }

    #[test]
    fn half_combs_stack_in_the_lanes_a_full_comb_leaves_free() {
        // A 1,024-slot comb on lanes 0-7, and two 512-slot combs on lanes 8-15: one block for all three.
        let full = comb(54, &[0, 1, 2, 3, 4, 5, 6, 7], 64);
        let half = || comb(55, &[8, 9, 10, 11, 12, 13, 14, 15], 32);
        let bundles = choose(&[vec![full], vec![half()], vec![half()]], &[1024, 512, 512]);
        assert_eq!(bundles.len(), 1);
        let b = &bundles[0];
        assert_eq!((b.members.len(), b.top, b.saving), (3, 1024, 1024));
        assert!(b.members.iter().any(|&(_, _, r)| r >= 512), "one half member in the upper half");
        let mut seen = std::collections::HashSet::new();
        for (_, p, r) in &b.members {
            assert!(p.slots.iter().all(|s| seen.insert(s.0 + r)));
        }
    }

    #[test]
    fn a_lower_half_member_running_into_the_upper_half_is_seen() {
        // The last slot of a 512-slot block moved by 3 is slot 514 of the bundle.
        let lower = Pattern { magic: 0, shift: 55, black: false, slots: vec![(0, 1), (511, 2)] };
        let upper = Pattern { magic: 0, shift: 55, black: false, slots: vec![(0, 3), (40, 4)] };
        assert!(meet(&lower, 3, &upper, 514));
        assert!(!meet(&lower, 3, &upper, 512));
        assert!(!meet(&lower, 0, &upper, 512));
    }

    #[test]
    fn the_selection_beats_taking_the_largest_saving_first() {
        // Greedy by saving takes the first set (10); the two halves save 14.
        let sets = [(0b1111, 10), (0b0011, 7), (0b1100, 7), (0b0110, 3)];
        let mut picked = select(&sets);
        picked.sort_unstable();
        assert_eq!(picked, [1, 2]);
    }

    #[test]
    fn the_selection_never_takes_a_target_twice() {
        // Every pair of 6 targets, saving by a fixed scramble.
        let pairs: Vec<(u128, usize)> =
            (0..6).flat_map(|a| (a + 1..6).map(move |b| (1u128 << a | 1 << b, (a * 7 + b * 13) % 10 + 1))).collect();
        let picked = select(&pairs);
        let mut seen = 0u128;
        for &n in &picked {
            assert_eq!(seen & pairs[n].0, 0);
            seen |= pairs[n].0;
        }
        // The best of the 15 perfect matchings, by brute force.
        let best = (0..1u32 << pairs.len())
            .filter_map(|chosen| {
                let mut seen = 0u128;
                let mut total = 0;
                for (_, &(targets, saving)) in pairs.iter().enumerate().filter(|(n, _)| chosen >> n & 1 == 1) {
                    if seen & targets != 0 {
                        return None;
                    }
                    seen |= targets;
                    total += saving;
                }
                Some(total)
            })
            .max();
        assert_eq!(Some(picked.iter().map(|&n| pairs[n].1).sum()), best);
    }

    #[test]
    fn the_local_search_swaps_a_set_for_the_ones_it_blocks() {
        // Start from the largest set (10): taking set 1 drops it and refills with set 2, 14 in all.
        let sets = [(0b1111, 10), (0b0011, 7), (0b1100, 7), (0b0110, 3)];
        assert_eq!(improve(&sets, vec![0]), [1, 2]);
        // A packing no single swap improves stays as it is.
        assert_eq!(improve(&sets, vec![1, 2]), [1, 2]);
    }

    #[test]
    fn members_lists_the_targets_lowest_first() {
        assert_eq!(members(1 << 127 | 1 << 3 | 1).collect::<Vec<_>>(), [0, 3, 127]);
        assert_eq!(members(0).count(), 0);
    }

    #[test]
    fn no_bundle_when_the_lanes_cannot_be_made_disjoint() {
        let combs =
            vec![vec![comb(54, &[0, 1, 2, 3, 4, 5, 6, 7, 8], 64)], vec![comb(54, &[0, 1, 2, 3, 4, 5, 6, 7], 64)]];
        assert!(choose(&combs, &[1024, 1024]).is_empty());
    }
}
