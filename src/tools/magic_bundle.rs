//! Bundles for the packed layout: rook combs of different squares that share
//! one stretch of the table.
//!
//! A comb (see [`super::magic_packed::comb_patterns`]) is a magic with more
//! index bits than relevant bits whose used slots fall on few lanes
//! (residues of the index modulo [`LANES`]). Moving a comb by `r` slots
//! turns its lanes by `r`, so combs at the same index bits whose turned lane
//! sets are disjoint never meet, and their blocks can lie on top of each
//! other. In the table of seed 1, rooks h1, a5, h4 and h6 at 13 index bits
//! share 8,192 slots, where their smallest blocks take 4,096 + 2,048 +
//! 2,048 + 2,048.
//!
//! Placed one at a time, a comb never pays (its free lanes stay free until
//! others fill them), which is why the bundles are formed first, from all
//! the combs together.

use super::magic_packed::{Pattern, LANES};
use super::magic_search::Rng;

/// Rook combs of several squares sharing one stretch of the table.
#[derive(Clone, Debug)]
pub struct Bundle {
    /// (target, pattern, offset of the pattern within the bundle).
    pub members: Vec<(usize, Pattern, u32)>,
    /// From the bundle's start to past its highest used slot.
    pub top: u32,
    /// The members' smallest blocks laid end to end, minus `top`.
    pub saving: usize,
}

/// Members per bundle. On the rook combs of seed 1, the greedy choice saved
/// 7,152 slots with three, 8,186 with four; five saved 2 slots more than
/// four (with the randomised passes) in 20 times the time.
const MAX_MEMBERS: usize = 4;

/// The lanes a pattern uses, a bit per residue of the index modulo [`LANES`].
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

/// A bundle found: (saving, top, members as (target, pattern, offset)).
type Found<'a> = (usize, u32, Vec<(usize, &'a Pattern, u32)>);

/// Bundles of `combs` (per target), no target in two, chosen greedily by
/// saving, best of [`PASSES`] randomised greedy passes (seed 1: 9,211 slots
/// saved instead of 8,186; trying every free turn of a member instead of
/// the first found more bundles but chose worse ones, 8,192). `block[t]` is
/// what target `t` costs outside a bundle (its smallest block).
/// Deterministic: ties go to the lower targets.
pub fn choose(combs: &[Vec<Pattern>], block: &[usize]) -> Vec<Bundle> {
    let mut shifts: Vec<u32> = combs.iter().flatten().map(|p| p.shift).collect();
    shifts.sort_unstable();
    shifts.dedup();
    let mut found: Vec<Found> = Vec::new();
    for shift in shifts {
        let candidates = candidates(combs, block, shift);
        let mut members = Members::new();
        for first in 0..candidates.len() {
            if candidates[first].gain > 0 {
                members.push((first, 0));
                grow(&candidates, block, first + 1, &mut members, candidates[first].lanes, &mut found);
                members.pop();
            }
        }
    }
    let targets = |f: &Found| f.2.iter().map(|m| m.0).collect::<Vec<_>>();
    found.sort_by_cached_key(|f| (std::cmp::Reverse(f.0), f.1, targets(f)));
    // The plain greedy, then greedy passes that pass over each bundle with
    // probability 1/SKIP; the largest total saving wins.
    let mut rng = Rng::new(0xb0d1e);
    let mut best: (usize, Vec<usize>) = (0, Vec::new());
    for pass in 0..=PASSES {
        let mut taken = vec![false; combs.len()];
        let (mut total, mut picked) = (0, Vec::new());
        for (n, (saving, _, members)) in found.iter().enumerate() {
            if members.iter().any(|m| taken[m.0]) || (pass > 0 && rng.next_u64().is_multiple_of(SKIP)) {
                continue;
            }
            members.iter().for_each(|m| taken[m.0] = true);
            total += saving;
            picked.push(n);
        }
        if total > best.0 {
            best = (total, picked);
        }
    }
    best.1
        .into_iter()
        .map(|n| {
            let (saving, top, members) = &found[n];
            let members = members.iter().map(|&(t, p, r)| (t, p.clone(), r)).collect();
            Bundle { members, top: *top, saving: *saving }
        })
        .collect()
}

/// A bundle is kept if it saves at least its size over this. It drops
/// bundles that save a slot or two but pin their rooks to combs; the choice
/// hardly changes (seed 1: 10,734 slots saved with the cut, 10,737
/// without), and the table was measured with it only.
const MIN_SHARE: usize = 16;

/// Randomised greedy passes over the bundles found.
const PASSES: u32 = 2_000;

/// A randomised pass skips one bundle in this many.
const SKIP: u64 = 3;

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

/// Records every bundle that grows from `members` (taken lanes `taken`) by
/// candidates from `from` on, each at the first offset whose turned lanes
/// are all free.
fn grow<'a>(
    candidates: &[Candidate<'a>],
    block: &[usize],
    from: usize,
    members: &mut Members,
    taken: u32,
    found: &mut Vec<Found<'a>>,
) {
    if members.len() >= 2 {
        let top = members.iter().map(|&(c, r)| candidates[c].pattern.top() + r as u32).max().unwrap_or(0);
        let blocks: usize = members.iter().map(|&(c, _)| block[candidates[c].target]).sum();
        if let Some(saving) = blocks.checked_sub(top as usize).filter(|&s| s * MIN_SHARE >= top as usize) {
            let list = members.iter().map(|&(c, r)| (candidates[c].target, candidates[c].pattern, r as u32)).collect();
            found.push((saving, top, list));
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
        if let Some(r) = (0..LANES).find(|&r| turn(c.lanes, r) & taken == 0) {
            members.push((next, r));
            grow(candidates, block, next + 1, members, taken | turn(c.lanes, r), found);
            members.pop();
        }
    }
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
    fn no_bundle_when_the_lanes_cannot_be_made_disjoint() {
        let combs =
            vec![vec![comb(54, &[0, 1, 2, 3, 4, 5, 6, 7, 8], 64)], vec![comb(54, &[0, 1, 2, 3, 4, 5, 6, 7], 64)]];
        assert!(choose(&combs, &[1024, 1024]).is_empty());
    }
}
