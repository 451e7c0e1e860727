//! Magic-number search: for a slider on a square, a 64-bit `magic` such that
//! `((occupied & mask) * magic) >> shift` (or the "black" form
//! `((occupied | !mask) * magic) >> shift`) sends any two occupancies with
//! different attack sets to different slots (the mask / magic / shift /
//! database structure of the TicTacChess document).
//!
//! The search is built for speed: the occupancies and attack sets of a square
//! are laid out once in arrays, a table of epoch-stamped slots is never
//! cleared (a slot from an older candidate counts as empty), candidates are
//! sparse random numbers filtered by a cheap test on where the mask's bits
//! land, and a candidate is dropped at its first collision. The attack sets
//! come from a bitscan ray walker of this module, not from the library's
//! lookups, and every result is checked afterwards by [`super::verify`],
//! which shares no code with the search.

use crate::board::Square;
use std::time::{Duration, Instant};

/// Rook or bishop.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Slider {
    /// Along ranks and files.
    Rook,
    /// Along diagonals.
    Bishop,
}

impl Slider {
    /// Rook and bishop.
    pub const ALL: [Slider; 2] = [Slider::Rook, Slider::Bishop];

    /// `rook` or `bishop`.
    pub const fn name(self) -> &'static str {
        match self {
            Slider::Rook => "rook",
            Slider::Bishop => "bishop",
        }
    }

    /// The slider named `rook` or `bishop`.
    pub fn parse(text: &str) -> Option<Slider> {
        match text {
            "rook" => Some(Slider::Rook),
            "bishop" => Some(Slider::Bishop),
            _ => None,
        }
    }

    /// (file step, rank step) of the four rays; the first two run towards
    /// higher square numbers.
    const fn directions(self) -> [(i8, i8); 4] {
        match self {
            Slider::Rook => [(0, 1), (1, 0), (0, -1), (-1, 0)],
            Slider::Bishop => [(1, 1), (-1, 1), (1, -1), (-1, -1)],
        }
    }
}

/// A small, fast, seedable generator (xorshift64*).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator whose stream depends only on `seed`.
    pub fn new(seed: u64) -> Rng {
        // SplitMix64 scrambles the seed so that 0, 1, 2 ... give unrelated streams.
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Rng((z ^ (z >> 31)) | 1)
    }

    /// The next number of the stream.
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number with about 8 of 64 bits set.
    #[inline(always)]
    pub fn sparse(&mut self) -> u64 {
        self.next_u64() & self.next_u64() & self.next_u64()
    }
}

/// How candidates are made.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Candidates {
    /// The AND of three random numbers (about 8 bits set), filtered by how
    /// many of the mask's bits land in the top byte.
    Sparse,
    /// Built bit by bit: the mask's bits are taken in random order, and each
    /// one that no magic bit yet carries into the index window gets a magic
    /// bit `t - p` that moves it (`p`) to a random free window slot `t`. A
    /// candidate is thus an approximate bit gather, and it fits far more
    /// often than a random one (a few percent instead of one in 50,000 for
    /// the edge rooks).
    Structured,
    /// Structured, sparse and dense (plain random) candidates in turn.
    Mixed,
}

/// A structured candidate for `mask` with `index_bits` index bits.
#[inline]
pub fn structured_candidate(mask: u64, index_bits: u32, rng: &mut Rng) -> u64 {
    let window = !0u64 << (64 - index_bits);
    let mut bits = [0u8; 64];
    let mut n = 0;
    let mut m = mask;
    while m != 0 {
        bits[n] = m.trailing_zeros() as u8;
        m &= m - 1;
        n += 1;
    }
    let mut magic = 0u64;
    let mut covered = 0u64;
    let mut r = rng.next_u64();
    for i in (0..n).rev() {
        // Fisher-Yates: take a random remaining bit.
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        bits.swap(i, j);
        let p = bits[i] as u32;
        // Mostly skip a bit that some magic bit already carries into the window.
        if (magic << p) & window != 0 && r & 3 != 0 {
            r >>= 2;
            continue;
        }
        r >>= 2;
        let free = window & !covered & (!0u64 << p);
        if free == 0 {
            continue;
        }
        let mut pick = rng.next_u64() % free.count_ones() as u64;
        let mut f = free;
        while pick > 0 {
            f &= f - 1;
            pick -= 1;
        }
        let q = f.trailing_zeros() - p;
        magic |= 1 << q;
        covered |= (mask << q) & window;
    }
    magic
}

/// A rectangular board and its bit layout: square (file, rank) is bit
/// `stride * rank + file` of the occupancy. Chess is 8x8 with stride 8;
/// TicTacChess is 4x4 with stride 5 (the "ghost column").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// Files (columns).
    pub files: u8,
    /// Ranks (rows).
    pub ranks: u8,
    /// Bits from one rank to the next.
    pub stride: u8,
}

impl Geometry {
    /// The 8x8 chess board, bit = square index.
    pub const CHESS: Geometry = Geometry { files: 8, ranks: 8, stride: 8 };

    /// A board whose squares fit in 64 bits with `stride >= files`.
    pub const fn new(files: u8, ranks: u8, stride: u8) -> Option<Geometry> {
        let fits = files >= 1 && ranks >= 1 && stride >= files && (stride as u32) * (ranks as u32) <= 64;
        if fits {
            Some(Geometry { files, ranks, stride })
        } else {
            None
        }
    }

    /// The bit of square (file, rank), if it is on the board.
    pub const fn bit(self, file: i8, rank: i8) -> Option<u8> {
        if file >= 0 && rank >= 0 && file < self.files as i8 && rank < self.ranks as i8 {
            Some(rank as u8 * self.stride + file as u8)
        } else {
            None
        }
    }

    /// (file, rank) of a bit.
    pub const fn coords(self, bit: u8) -> (i8, i8) {
        ((bit % self.stride) as i8, (bit / self.stride) as i8)
    }

    /// Every square's bit, rank by rank.
    pub fn squares(self) -> impl Iterator<Item = u8> {
        (0..self.ranks).flat_map(move |r| (0..self.files).map(move |f| r * self.stride + f))
    }
}

/// The full ray from `sq` in direction `(df, dr)` to the board's edge.
fn ray(geometry: Geometry, sq: u8, (df, dr): (i8, i8)) -> u64 {
    let mut bits = 0u64;
    let (f0, r0) = geometry.coords(sq);
    let (mut f, mut r) = (f0 + df, r0 + dr);
    while let Some(b) = geometry.bit(f, r) {
        bits |= 1 << b;
        f += df;
        r += dr;
    }
    bits
}

/// The square of a non-empty ray farthest from `sq` (its edge square).
fn farthest(sq: u8, ray: u64) -> u64 {
    if ray.trailing_zeros() > u32::from(sq) {
        1 << (63 - ray.leading_zeros())
    } else {
        1 << ray.trailing_zeros()
    }
}

/// One square's problem: its mask, every subset of the mask and the attack
/// set of each.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The slider.
    pub slider: Slider,
    /// The square.
    pub square: Square,
    /// The board.
    pub geometry: Geometry,
    /// The relevant occupancy mask.
    pub mask: u64,
    /// Every subset of the mask.
    pub occupancies: Vec<u64>,
    /// The attack set of each subset.
    pub attacks: Vec<u64>,
}

impl Problem {
    /// A square of the 8x8 chess board.
    pub fn new(slider: Slider, square: Square) -> Problem {
        Problem::on(Geometry::CHESS, slider, square as u8)
    }

    /// The square at `bit` of `geometry`. `square` is then the square of the
    /// same index (a chess name only on the 8x8 board), which keeps seeds and
    /// reports working unchanged.
    pub fn on(geometry: Geometry, slider: Slider, bit: u8) -> Problem {
        debug_assert!(
            geometry.bit(geometry.coords(bit).0, geometry.coords(bit).1) == Some(bit),
            "bit {bit} is off the board"
        );
        let sq = bit;
        let square = Square::ALL[usize::from(sq)];
        let dirs = slider.directions();
        let rays: [u64; 4] = dirs.map(|d| ray(geometry, sq, d));
        // A ray's last square never matters: drop the edge square of each ray.
        let mask = rays.iter().fold(0u64, |m, &r| if r == 0 { m } else { m | (r & !farthest(sq, r)) });
        // Rays from every square, for the bitscan walker.
        let mut from = [[0u64; 64]; 4];
        for (d, dir) in dirs.iter().enumerate() {
            for s in geometry.squares() {
                from[d][usize::from(s)] = ray(geometry, s, *dir);
            }
        }
        let n = 1usize << mask.count_ones();
        let mut occupancies = Vec::with_capacity(n);
        let mut attacks = Vec::with_capacity(n);
        let mut occ = 0u64;
        loop {
            let mut att = 0;
            for d in 0..4 {
                let r = rays[d];
                let blockers = occ & r;
                att |= if blockers == 0 {
                    r
                } else {
                    // The first two directions run upwards: the nearest blocker
                    // is the lowest bit; the other two, the highest.
                    let b = if d < 2 { blockers.trailing_zeros() } else { 63 - blockers.leading_zeros() };
                    r ^ from[d][b as usize]
                };
            }
            occupancies.push(occ);
            attacks.push(att);
            occ = occ.wrapping_sub(mask) & mask;
            if occ == 0 {
                break;
            }
        }
        Problem { slider, square, geometry, mask, occupancies, attacks }
    }

    /// The number of bits in the mask.
    pub fn relevant_bits(&self) -> u32 {
        self.mask.count_ones()
    }

    /// The number of distinct attack sets.
    pub fn distinct_attacks(&self) -> usize {
        let mut a = self.attacks.clone();
        a.sort_unstable();
        a.dedup();
        a.len()
    }
}

/// One slot of the search's scratch table.
#[derive(Copy, Clone, Default)]
struct Slot {
    epoch: u32,
    attacks: u64,
}

/// Scratch space reused across candidates and squares: slots are valid only
/// when stamped with the current epoch, so the table is never cleared.
#[derive(Default)]
pub struct Scratch {
    slots: Vec<Slot>,
    epoch: u32,
    keys: Vec<u64>,
}

impl Scratch {
    fn prepare(&mut self, size: usize) {
        if self.slots.len() < size {
            self.slots = vec![Slot::default(); size];
            self.epoch = 0;
        }
    }

    #[inline(always)]
    fn next_epoch(&mut self) -> u32 {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.slots.iter_mut().for_each(|s| s.epoch = 0);
            self.epoch = 1;
        }
        self.epoch
    }

    /// True if `magic` sends no two different attack sets to one slot. `keys`
    /// are the occupancies as they enter the multiply (`occ` or `occ | !mask`).
    #[inline(always)]
    fn fits(&mut self, keys: &[u64], attacks: &[u64], magic: u64, shift: u32) -> bool {
        let epoch = self.next_epoch();
        let slots = &mut self.slots;
        for (&key, &att) in keys.iter().zip(attacks) {
            let index = (key.wrapping_mul(magic) >> shift) as usize;
            let slot = &mut slots[index];
            if slot.epoch != epoch {
                slot.epoch = epoch;
                slot.attacks = att;
            } else if slot.attacks != att {
                return false;
            }
        }
        true
    }

    /// The number of slots used and one past the highest slot used by a magic
    /// that fits.
    fn usage(&mut self, keys: &[u64], magic: u64, shift: u32) -> (usize, usize) {
        let epoch = self.next_epoch();
        let (mut used, mut top) = (0, 0);
        for &key in keys {
            let index = (key.wrapping_mul(magic) >> shift) as usize;
            if self.slots[index].epoch != epoch {
                self.slots[index].epoch = epoch;
                used += 1;
                top = top.max(index + 1);
            }
        }
        (used, top)
    }
}

/// A magic that was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
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
    /// Whether it is the black form `(occ | !mask) * magic`.
    pub black: bool,
    /// The number of bits in the mask.
    pub relevant_bits: u32,
    /// Candidates tested (after the cheap filter) until this one.
    pub candidates: u64,
    /// Time spent on the square.
    pub time: Duration,
    /// Slots the square's occupancies use, and one past the highest used.
    pub used: usize,
    /// The slots from the lowest used to one past the highest.
    pub span: usize,
}

impl Found {
    /// Bits of the index: 64 minus the shift.
    pub fn index_bits(&self) -> u32 {
        64 - self.shift
    }
}

/// What to look for on one square.
#[derive(Copy, Clone, Debug)]
pub struct Goal {
    /// Index bits: `relevant bits - reduction`.
    pub index_bits: u32,
    /// Use the black form `(occ | !mask) * magic`.
    pub black: bool,
    /// Give up after this many candidates (`u64::MAX` for no limit).
    pub max_candidates: u64,
    /// How candidates are drawn.
    pub candidates: Candidates,
}

/// Searches one square. `stop` is polled now and then (a deadline or a flag).
pub fn search(
    problem: &Problem,
    goal: Goal,
    rng: &mut Rng,
    scratch: &mut Scratch,
    stop: &dyn Fn() -> bool,
) -> Option<Found> {
    let start = Instant::now();
    let shift = 64 - goal.index_bits;
    scratch.prepare(1 << goal.index_bits);
    let mut keys = std::mem::take(&mut scratch.keys);
    keys.clear();
    keys.extend(problem.occupancies.iter().map(|&o| if goal.black { o | !problem.mask } else { o }));
    // For sparse candidates: the mask's bits must spread into the top byte, a
    // cheap filter that rejects most hopeless candidates before the table is touched.
    let filter_bits = goal.index_bits.min(6);
    let mut candidates = 0u64;
    let result = loop {
        if candidates & 0xfff == 0xfff && stop() {
            break None;
        }
        if candidates >= goal.max_candidates {
            break None;
        }
        let magic = match goal.candidates {
            Candidates::Structured => structured_candidate(problem.mask, goal.index_bits, rng),
            Candidates::Mixed if candidates & 1 == 0 => structured_candidate(problem.mask, goal.index_bits, rng),
            Candidates::Sparse | Candidates::Mixed => {
                let magic = rng.sparse();
                if (problem.mask.wrapping_mul(magic) >> 56).count_ones() < filter_bits {
                    continue;
                }
                magic
            }
        };
        candidates += 1;
        if scratch.fits(&keys, &problem.attacks, magic, shift) {
            let (used, span) = scratch.usage(&keys, magic, shift);
            break Some(Found {
                slider: problem.slider,
                square: problem.square,
                mask: problem.mask,
                magic,
                shift,
                black: goal.black,
                relevant_bits: problem.relevant_bits(),
                candidates,
                time: start.elapsed(),
                used,
                span,
            });
        }
    };
    scratch.keys = keys;
    result
}

/// A problem's keys (the occupancies as they enter the multiply) ready for
/// testing given magics.
pub struct Prepared<'a> {
    /// The problem.
    pub problem: &'a Problem,
    /// Whether the keys are of the black form.
    pub black: bool,
    keys: Vec<u64>,
}

impl<'a> Prepared<'a> {
    /// The keys of `problem`, in the black form if `black`.
    pub fn new(problem: &'a Problem, black: bool) -> Prepared<'a> {
        let keys = problem.occupancies.iter().map(|&o| if black { o | !problem.mask } else { o }).collect();
        Prepared { problem, black, keys }
    }

    /// True if `magic` with `shift` sends no two different attack sets to one slot.
    #[inline]
    pub fn fits(&self, magic: u64, shift: u32, scratch: &mut Scratch) -> bool {
        scratch.prepare(1 << (64 - shift));
        scratch.fits(&self.keys, &self.problem.attacks, magic, shift)
    }

    /// Slot usage (used, span) of a magic known to fit.
    pub fn usage(&self, magic: u64, shift: u32, scratch: &mut Scratch) -> (usize, usize) {
        scratch.prepare(1 << (64 - shift));
        scratch.usage(&self.keys, magic, shift)
    }
}

/// Tests one given magic on a problem.
pub fn fits(problem: &Problem, magic: u64, shift: u32, black: bool, scratch: &mut Scratch) -> bool {
    Prepared::new(problem, black).fits(magic, shift, scratch)
}

/// Per-square seed: the run's seed mixed with the square, so that results do
/// not depend on the order (or thread) in which squares are searched.
pub fn square_seed(seed: u64, slider: Slider, square: Square) -> u64 {
    seed.wrapping_mul(0x100_0000_01b3) ^ ((slider as u64) << 8 | square as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The squares and pieces a run covers, in search order.
pub fn targets(sliders: &[Slider], squares: Option<&[Square]>) -> Vec<(Slider, Square)> {
    let squares: Vec<Square> = squares.map_or_else(|| Square::ALL.to_vec(), <[Square]>::to_vec);
    sliders.iter().flat_map(|&s| squares.iter().map(move |&sq| (s, sq))).collect()
}

/// The outcome of a run over many squares.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// One entry per target, `None` where nothing was found in time.
    pub results: Vec<(Slider, Square, Option<Found>)>,
    /// Wall time of the whole run, building the problems included.
    pub time: Duration,
}

/// Finds a magic for every target with `index bits = relevant bits -
/// reduction`, on the current rayon pool when `parallel`. Each square has its
/// own seeded generator, so the result does not depend on the thread count.
/// `budget` bounds each square's search; `on_done` is called after each square.
pub fn run(
    targets: &[(Slider, Square)],
    seed: u64,
    reduction: u32,
    black: bool,
    budget: Option<Duration>,
    parallel: bool,
    on_done: &(dyn Fn() + Sync),
) -> RunReport {
    let start = Instant::now();
    let one = |&(slider, square): &(Slider, Square), scratch: &mut Scratch| {
        let problem = Problem::new(slider, square);
        let goal = Goal {
            index_bits: problem.relevant_bits().saturating_sub(reduction).max(1),
            black,
            max_candidates: u64::MAX,
            candidates: if reduction == 0 { Candidates::Structured } else { Candidates::Mixed },
        };
        let mut rng = Rng::new(square_seed(seed, slider, square));
        let deadline = budget.map(|b| Instant::now() + b);
        let stop = || deadline.is_some_and(|d| Instant::now() >= d);
        let found = search(&problem, goal, &mut rng, scratch, &stop);
        on_done();
        (slider, square, found)
    };
    let results = if parallel {
        use rayon::prelude::*;
        targets.par_iter().map_init(Scratch::default, |scratch, t| one(t, scratch)).collect()
    } else {
        let mut scratch = Scratch::default();
        targets.iter().map(|t| one(t, &mut scratch)).collect()
    };
    RunReport { results, time: start.elapsed() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::reference;
    use crate::board::Bitboard;

    #[test]
    fn problems_match_the_reference() {
        for slider in Slider::ALL {
            for sq in [Square::A1, Square::E4, Square::H8, Square::B7] {
                let p = Problem::new(slider, sq);
                let (mask, att): (Bitboard, fn(Square, Bitboard) -> Bitboard) = match slider {
                    Slider::Rook => (reference::rook_mask(sq), reference::rook_attacks),
                    Slider::Bishop => (reference::bishop_mask(sq), reference::bishop_attacks),
                };
                assert_eq!(p.mask, mask.0);
                for (o, a) in p.occupancies.iter().zip(&p.attacks) {
                    assert_eq!(att(sq, Bitboard(*o)).0, *a);
                }
            }
        }
    }

    #[test]
    fn search_finds_a_fitting_magic() {
        let p = Problem::new(Slider::Rook, Square::A1);
        let mut scratch = Scratch::default();
        let goal = Goal { index_bits: 12, black: false, max_candidates: u64::MAX, candidates: Candidates::Structured };
        let found = search(&p, goal, &mut Rng::new(7), &mut scratch, &|| false).unwrap();
        assert!(fits(&p, found.magic, found.shift, false, &mut scratch));
        assert!(!fits(&p, 0, found.shift, false, &mut scratch));
    }
}
