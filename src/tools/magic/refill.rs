//! Step 4 of the packed layout: the small squares at the table's end moved
//! into its holes.
//!
//! After the placement, the table's end holds the small bishops that found
//! no hole with the magics they were offered. Here each of them (largest
//! first) is searched again, magic and offset together, for a placement
//! whose used slots all land below the rook blocks and bundles on free slots
//! (or slots holding the same attack set): climbs from random magics at up
//! to `EXTRA_BITS` (8) more index bits than relevant bits that lower the
//! number of clashing slots, then the used slots. A wide, sparse block finds
//! room in the free lanes of the bundles, which the placement's first-fit
//! search over the square's own few patterns does not. Those that find no
//! place are laid as low as they fit, largest first.
//!
//! Measured on seed 1 (probe runs on finished tables): on the 76,849-entry
//! table of the previous choice, an earlier version of this step moved 24
//! of the 30 bishops at its end; on the table of the optimal choice without
//! this step (77,153 entries, 49 bishops past the rook blocks), this version
//! moved 30 of them and brought it to 76,490.

use super::packed::Pattern;
use super::patterns::{neighbour, Tester};
use super::place::{first_fit, Table, FREE};
use super::search::{self, Problem, Rng};

/// Index bits tried above the relevant bits (capped at [`MAX_BITS`]).
const EXTRA_BITS: u32 = 8;

/// No block wider than the largest rook bundle's.
const MAX_BITS: u32 = 13;

/// Climbs per square, each from its own random magic and offset.
const RESTARTS: usize = 64;

/// Passes over the squares still past the others' end.
const ROUNDS: u64 = 4;

/// Squares with more occupancies than this are not searched: a centre
/// bishop's 512 came no closer than 256 clashing slots (seed 1, 20 climbs).
const MAX_OCCUPANCIES: usize = 128;

/// Moves the squares searched here (at most `MAX_OCCUPANCIES`, 128) that end
/// past the others into the holes below the others' end, largest first;
/// a square that finds no place stays. `placed` is per square (pattern,
/// offset); `steps` is the length of each climb. Returns the table size.
pub fn refill(problems: &[Problem], placed: &mut [(Pattern, u64)], seed: u64, steps: u32) -> u64 {
    let end = |p: &(Pattern, u64)| p.1 + p.0.top() as u64;
    let small = |s: usize| problems[s].occupancies.len() <= MAX_OCCUPANCIES;
    let floor = (0..placed.len()).filter(|&s| !small(s)).map(|s| end(&placed[s])).max().unwrap_or(0) as usize;
    // The small squares past the floor, largest first: they need the widest holes.
    let tail = |placed: &[(Pattern, u64)]| {
        let mut tail: Vec<usize> = (0..placed.len()).filter(|&s| small(s) && end(&placed[s]) > floor as u64).collect();
        tail.sort_by_key(|&s| (std::cmp::Reverse(placed[s].0.used()), s));
        tail
    };
    let mut table = Table::default();
    placed.iter().for_each(|(p, o)| table.put(p, *o as usize));
    // Rounds with fresh seeds while squares move: the climbs are random.
    for round in 0..ROUNDS {
        let mut moved = false;
        for s in tail(placed) {
            table.take(&placed[s].0, placed[s].1 as usize);
            let square_seed =
                search::square_seed(seed ^ 0x4e11_f111 ^ round << 40, problems[s].slider, problems[s].square);
            if let Some(f) = fit(&table.attacks, &problems[s], floor, square_seed, steps) {
                placed[s] = f;
                moved = true;
            }
            table.put(&placed[s].0, placed[s].1 as usize);
        }
        if !moved {
            break;
        }
    }
    // The squares that found no hole: as low as they fit, largest first.
    let rest = tail(placed);
    rest.iter().for_each(|&s| table.take(&placed[s].0, placed[s].1 as usize));
    for s in rest {
        let offset = first_fit(&table.attacks, &placed[s].0, None).expect("a pattern always fits past the end");
        placed[s].1 = offset as u64;
        table.put(&placed[s].0, offset);
    }
    placed.iter().map(end).max().unwrap_or(0)
}

/// A pattern for `problem` and an offset at which every used slot lies
/// below `limit` on a free slot of `table` (or one with the same attack
/// set), if a climb finds one. Climbs run in parallel; the first in order
/// that succeeds wins, so the result does not depend on the threads.
fn fit(table: &[u64], problem: &Problem, limit: usize, seed: u64, steps: u32) -> Option<(Pattern, u64)> {
    use rayon::prelude::*;
    (0..RESTARTS)
        .into_par_iter()
        .with_max_len(1)
        .find_map_first(|n| climb(table, problem, limit, seed ^ (n as u64) << 32 ^ n as u64, steps))
}

/// One climb on (magic, offset) that takes a step when no more used slots
/// clash (and, as many clashing, no more are used); stops at none.
fn climb(table: &[u64], problem: &Problem, limit: usize, seed: u64, steps: u32) -> Option<(Pattern, u64)> {
    let mut rng = Rng::new(seed);
    let relevant = problem.relevant_bits();
    let bits = (relevant + (rng.next_u64() % (EXTRA_BITS as u64 + 1)) as u32).min(MAX_BITS);
    let (shift, black) = (64 - bits, rng.next_u64() & 1 == 1);
    if 1usize << bits >= limit {
        return None;
    }
    let mut tester = Tester::new(problem, black, bits);
    let mut slots = Vec::new();
    // A fitting random start (sparse magics fit at these widths within a few tries).
    let mut magic =
        (0..1_000).map(|_| rng.next_u64() & rng.next_u64()).find(|&m| tester.used_slots(m, shift, &mut slots))?;
    // The table reaches at least to `limit` (the end of a placed square).
    let clashes = |slots: &[(u32, u64)], offset: usize| {
        slots
            .iter()
            .filter(|&&(i, a)| {
                let s = offset + i as usize;
                s >= limit || (table[s] != FREE && table[s] != a)
            })
            .count()
    };
    // Start with the lowest used slot on a free slot.
    let mut offset = (0..64)
        .map(|_| (rng.next_u64() % limit as u64) as usize)
        .find(|&s| table[s] == FREE)
        .map_or(0, |s| s.saturating_sub(slots.iter().map(|s| s.0).min().unwrap_or(0) as usize));
    // Clashing slots, then used slots (fewer need fewer holes).
    let mut now = (clashes(&slots, offset), slots.len());
    for _ in 0..steps {
        if now.0 == 0 {
            return Some((tester.pattern(magic, shift, black), offset as u64));
        }
        let r = rng.next_u64();
        let (next, at) = match r % 20 {
            0..=14 => (neighbour(magic, &mut rng), offset),
            15..=18 => {
                let d = 1 + (r >> 8) as usize % 32;
                (magic, if r >> 16 & 1 == 1 { offset + d } else { offset.saturating_sub(d) })
            }
            _ => (magic, (rng.next_u64() % limit as u64) as usize),
        };
        if !tester.used_slots(next, shift, &mut slots) {
            continue;
        }
        let c = (clashes(&slots, at), slots.len());
        if c <= now {
            (magic, offset, now) = (next, at, c);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::tools::magic::search::Slider;

    #[test]
    fn a_small_square_at_the_end_moves_into_the_holes() {
        // A rook block with every other slot free (4,095 slots to its highest used one), a bishop after it.
        let rook = Problem::new(Slider::Rook, Square::A1);
        let bishop = Problem::new(Slider::Bishop, Square::H7);
        let wall = Pattern { magic: 0, shift: 52, black: false, slots: (0..2048).map(|i| (2 * i, 1 << 20)).collect() };
        // The bishop's pattern at the end only gives its place and size: the refill searches its own.
        let end = Pattern { magic: 0, shift: 60, black: false, slots: (0..16).map(|i| (i, 1 << 62)).collect() };
        let mut placed = vec![(wall, 0), (end, 4096)];
        let size = refill(&[rook, bishop.clone()], &mut placed, 1, 200_000);
        assert_eq!(size, 4095);
        // The bishop's slots are all free in the wall, and every occupancy finds its attack set.
        let (p, offset) = &placed[1];
        assert!(p.slots.iter().all(|&(i, _)| (*offset as usize + i as usize) % 2 == 1));
        for (&occ, &att) in bishop.occupancies.iter().zip(&bishop.attacks) {
            let key = if p.black { occ | !bishop.mask } else { occ };
            assert!(p.slots.contains(&(((key.wrapping_mul(p.magic)) >> p.shift) as u32, att)));
        }
    }
}
