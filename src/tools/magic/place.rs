//! Steps 2 and 3 of the packed layout: placing the squares' patterns into
//! one table, greedily and by joint climbs of magic and offset.

use super::packed::Pattern;
use super::patterns::{neighbour, Tester};
use super::search::{self, Problem, Rng};
use std::time::Instant;

/// Per square (chosen pattern, offset), and the table size.
pub(super) type Layout = (Vec<(usize, u64)>, u64);

/// Per square (pattern, offset), and the table size.
pub(super) type Layout2 = (Vec<(Pattern, u64)>, u64);

/// A free slot in the placement table (no attack set is all 64 squares).
pub(super) const FREE: u64 = u64::MAX;

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
pub(super) fn place(options: &[Vec<Pattern>], order: &[usize], pinned: &[(usize, u64)]) -> Layout {
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
pub(super) fn place_joint(
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
                let square_seed = search::square_seed(seed ^ 0x701e_7000 ^ n as u64, problem.slider, problem.square);
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
