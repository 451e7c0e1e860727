//! Reduced-bit magics: `index bits = relevant bits - k`, so that some
//! occupancies must share a slot, which is allowed only when their attack
//! sets agree (constructive collisions).
//!
//! What makes this search find them:
//! - the occupancies are reordered so that one representative of every
//!   distinct attack set comes first: those must all land on different slots,
//!   and almost every candidate fails among them;
//! - rooks: candidates are mostly minus a sparse number, 7 to 14 bits below
//!   bit `width - 18 .. width - 11` (`width = 64 - lowest mask bit`: higher
//!   magic bits never reach the index in the plain form). The known reduced
//!   rook magics all have this shape (e7 is `-(2^9 + 2^12 + 2^13 + 2^19 +
//!   2^20 + 2^33 + 2^34 + 2^36)`). In 13 of the 15 the lowest bit is the
//!   shift that lifts the square's rank bits to the top of the word (9 on
//!   the seventh rank, 1 on the eighth), and in 13 bit 33 is set: three
//!   quarters of the candidates are built that way (bit 33 in half of
//!   them), which finds most top-rank rooks in well under a second (c7:
//!   0.08 s), a hundred times faster than without the anchor; every rook
//!   magic found so far has the anchor. Unanchored, signed-sum, sparse and
//!   structured candidates (one in sixteen each, for other squares) found
//!   no reduced rook magic in minutes;
//! - bishops: a local search. From a random magic, one or two bits below
//!   `width` are flipped at a time and the flip kept unless more occupancies
//!   collide; after 500 steps without improvement it restarts. This finds
//!   the hardest known bishop squares (ranks 3 and 6) in well under a
//!   second, where random candidates of every kind took minutes;
//! - squares are searched in rounds of short slices, in tiers by where
//!   reduced magics are known: the 39 squares of the Chess Programming
//!   Wiki's list get whole slices, the other squares (a reduced magic there
//!   would be new) a fortieth. With the fancy layout bishops
//!   search both forms (plain and black), each with half the slice, and a
//!   square is done when either fits; rooks search the plain form only,
//!   where their generator works. Each square and form keeps its own
//!   generator across slices, so a magic found for a seed is the same
//!   whatever the thread count or budget (the budget only decides whether
//!   it is found).

use super::search::{self, Found, Problem, Rng, Slider};
use crate::board::Square;
use std::time::{Duration, Instant};

/// A square's search state, kept across slices.
struct State {
    problem: Problem,
    keys: Vec<u64>,
    attacks: Vec<u64>,
    index_bits: u32,
    black: bool,
    rng: Rng,
    candidates: u64,
    time: Duration,
    found: Option<Found>,
    slots: Vec<(u32, u64)>,
    epoch: u32,
    /// Local search (bishops): the current magic, its collisions, and the
    /// steps since it last improved.
    current: u64,
    current_bad: u32,
    stale: u32,
    /// Rooks: the shift that lifts the mask's bits on the square's rank to
    /// the top of the word (1 on the eighth rank, 9 on the seventh).
    anchor: u32,
}

/// Local search: steps without improvement before a restart.
const STALE_STEPS: u32 = 500;

impl State {
    fn new(slider: Slider, square: Square, seed: u64, reduction: u32, black: bool) -> State {
        let problem = Problem::new(slider, square);
        // One representative per attack set first, then the rest.
        let mut seen = std::collections::HashSet::new();
        let (mut first, mut rest) = (Vec::new(), Vec::new());
        for (&o, &a) in problem.occupancies.iter().zip(&problem.attacks) {
            if seen.insert(a) {
                first.push((o, a));
            } else {
                rest.push((o, a));
            }
        }
        first.extend(rest);
        let keys = first.iter().map(|&(o, _)| if black { o | !problem.mask } else { o }).collect();
        let attacks = first.iter().map(|&(_, a)| a).collect();
        let index_bits = problem.relevant_bits().saturating_sub(reduction).max(1);
        State {
            keys,
            attacks,
            index_bits,
            black,
            rng: Rng::new(search::square_seed(seed ^ 0x5eed_0000_0000_0001, slider, square)),
            candidates: 0,
            time: Duration::ZERO,
            found: None,
            slots: vec![(0, 0); 1 << index_bits],
            epoch: 0,
            current: 0,
            current_bad: u32::MAX,
            stale: STALE_STEPS,
            anchor: (problem.mask & 0xff << (square as u32 & !7)).leading_zeros(),
            problem,
        }
    }

    #[inline(always)]
    fn candidate(&mut self) -> u64 {
        // Magic bits at `width` and above never reach the index in the plain
        // form (every occupancy has `64 - width` low zero bits).
        let width = 64 - self.problem.mask.trailing_zeros();
        let rng = &mut self.rng;
        let magic = match self.candidates % 16 {
            // The known reduced rook magics are minus a sparse number below
            // bit `width - 14` or so (e.g. e7: -(2^9 + 2^12 + 2^13 + 2^19 + ...)).
            // Its lowest bit is most often the anchor (below), and bit 33 is
            // in 13 of the 15.
            0..=11 if self.anchor + 8 < width.saturating_sub(18) => {
                let r = rng.next_u64();
                let top = width - 18 + (r & 7) as u32;
                let lowest = 1u64 << self.anchor | (r >> 3 & 1) << 33;
                let rest = window_sum(rng, self.anchor + 1, top, 6 + (r >> 4 & 7) as u32, false);
                (lowest | rest).wrapping_neg()
            }
            0..=12 => {
                let r = rng.next_u64();
                let top = (width.saturating_sub(18) + (r & 7) as u32).min(width);
                window_sum(rng, 0, top, 7 + (r >> 3 & 7) as u32, false).wrapping_neg()
            }
            // Sums of many signed powers of two: runs of ones.
            13 => {
                let terms = 6 + (rng.next_u64() % 12) as u32;
                window_sum(rng, 0, width, terms, true)
            }
            14 => rng.sparse(),
            _ => search::structured_candidate(self.problem.mask, self.index_bits, rng),
        };
        if self.black {
            magic
        } else {
            magic & (!0u64 >> (64 - width))
        }
    }

    #[inline(always)]
    fn next_epoch(&mut self) -> u32 {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.slots.iter_mut().for_each(|s| s.0 = 0);
            self.epoch = 1;
        }
        self.epoch
    }

    #[inline(always)]
    fn fits(&mut self, magic: u64) -> bool {
        let (epoch, shift) = (self.next_epoch(), 64 - self.index_bits);
        for (&key, &att) in self.keys.iter().zip(&self.attacks) {
            let slot = &mut self.slots[(key.wrapping_mul(magic) >> shift) as usize];
            if slot.0 != epoch {
                *slot = (epoch, att);
            } else if slot.1 != att {
                return false;
            }
        }
        true
    }

    /// Occupancies that land on a slot held by another attack set.
    #[inline(always)]
    fn collisions(&mut self, magic: u64) -> u32 {
        let epoch = self.next_epoch();
        let shift = 64 - self.index_bits;
        let mut bad = 0;
        for (&key, &att) in self.keys.iter().zip(&self.attacks) {
            let slot = &mut self.slots[(key.wrapping_mul(magic) >> shift) as usize];
            if slot.0 != epoch {
                *slot = (epoch, att);
            } else if slot.1 != att {
                bad += 1;
            }
        }
        bad
    }

    /// One step of the local search: flip one or two magic bits below
    /// `width` and keep the result unless it collides more; restart from a
    /// random magic after [`STALE_STEPS`] steps without improvement. Returns
    /// the magic tried and whether it fits.
    #[inline(always)]
    fn climb(&mut self) -> (u64, bool) {
        // In the black form every magic bit reaches the index.
        let width = if self.black { 64 } else { 64 - self.problem.mask.trailing_zeros() };
        let magic = if self.stale >= STALE_STEPS {
            self.stale = 0;
            self.current_bad = u32::MAX;
            let terms = 20 + (self.rng.next_u64() % 10) as u32;
            window_sum(&mut self.rng, 0, width, terms, false)
        } else {
            let r = self.rng.next_u64();
            let mut m = self.current ^ 1 << (((r & 0xff) as u32 * width) >> 8);
            if r >> 8 & 1 == 1 {
                m ^= 1 << (((r >> 16 & 0xff) as u32 * width) >> 8);
            }
            m
        };
        let bad = self.collisions(magic);
        if bad < self.current_bad {
            self.stale = 0;
        } else {
            self.stale += 1;
        }
        if bad <= self.current_bad {
            (self.current, self.current_bad) = (magic, bad);
        }
        (magic, bad == 0)
    }

    /// Searches until `until` (checked every 4096 candidates); true if found.
    fn slice(&mut self, until: Instant) -> bool {
        let start = Instant::now();
        'outer: loop {
            for _ in 0..4096 {
                let (magic, fits) = match self.problem.slider {
                    Slider::Bishop => self.climb(),
                    Slider::Rook => {
                        let magic = self.candidate();
                        (magic, self.fits(magic))
                    }
                };
                self.candidates += 1;
                if fits {
                    let shift = 64 - self.index_bits;
                    let mut scratch = search::Scratch::default();
                    let prepared = search::Prepared::new(&self.problem, self.black);
                    let (used, span) = prepared.usage(magic, shift, &mut scratch);
                    self.found = Some(Found {
                        slider: self.problem.slider,
                        square: self.problem.square,
                        mask: self.problem.mask,
                        magic,
                        shift,
                        black: self.black,
                        relevant_bits: self.problem.relevant_bits(),
                        candidates: self.candidates,
                        time: self.time + start.elapsed(),
                        used,
                        span,
                    });
                    break 'outer;
                }
            }
            if Instant::now() >= until {
                break;
            }
        }
        self.time += start.elapsed();
        self.found.is_some()
    }
}

/// The sum of `terms` powers of two at positions in `lo..hi` (random signs
/// when `signed`, else an OR of the bits), four terms from each random number.
#[inline(always)]
fn window_sum(rng: &mut Rng, lo: u32, hi: u32, terms: u32, signed: bool) -> u64 {
    let span = hi - lo;
    let mut x = 0u64;
    let mut r = 0;
    for t in 0..terms {
        if t % 4 == 0 {
            r = rng.next_u64();
        }
        let bit = 1u64 << (lo + (((r & 0xff) as u32 * span) >> 8));
        x = match (signed, r >> 8 & 1) {
            (false, _) => x | bit,
            (true, 1) => x.wrapping_add(bit),
            (true, _) => x.wrapping_sub(bit),
        };
        r >>= 16;
    }
    x
}

/// How promising a reduced search on a square is, as a tier (lower first)
/// and a share of each round's slice, in 40ths. The reduced magics known
/// (the Chess Programming Wiki's "Best Magics so far", 39 squares) are for
/// bishops on the a, b, g and h files of ranks 1-3 and 6-8 and for rooks on
/// the top two ranks (all but f8): those get the whole slice; the other
/// squares, where none is known (a new one would be a record), a fortieth,
/// those near the edges first.
fn priority(problem: &Problem) -> (u32, u32) {
    let sq = problem.square as u32;
    let (file, rank) = (sq % 8, sq / 8);
    let near = |x: u32| x <= 1 || x >= 6;
    match problem.slider {
        Slider::Bishop if near(file) && (rank <= 2 || rank >= 5) => (0, 40),
        // Rooks on the top two ranks: their rank bits sit at the top of the word.
        Slider::Rook if rank >= 6 => (0, 40),
        Slider::Bishop if near(file) || near(rank) => (1, 1),
        Slider::Rook if file == 0 || file == 7 || rank <= 1 => (1, 1),
        _ => (2, 1),
    }
}

/// A form's part of a square's slice, out of `forms.len()`: even, except that
/// rooks search only the plain form when it is offered (the rook generator
/// makes plain-form magics; in the black form it finds none).
fn form_share(state: &State, forms: &[bool]) -> u32 {
    match (state.problem.slider, state.black) {
        (Slider::Rook, true) if forms.contains(&false) => 0,
        (Slider::Rook, false) => forms.len() as u32,
        _ => 1,
    }
}

/// One square's outcome: the magic if found, and the candidates tried.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The slider.
    pub slider: Slider,
    /// The square.
    pub square: Square,
    /// The magic, if one was found.
    pub found: Option<Found>,
    /// Candidates tried.
    pub candidates: u64,
    /// Time spent on the square.
    pub time: Duration,
}

/// Searches reduced-bit magics for `targets` until `budget` is spent (wall
/// time), on the current rayon pool. `on_found` is called for each success.
pub fn run(
    targets: &[(Slider, Square)],
    seed: u64,
    reduction: u32,
    forms: &[bool],
    budget: Duration,
    on_found: &(dyn Fn() + Sync),
) -> Vec<Outcome> {
    use rayon::prelude::*;
    let deadline = Instant::now() + budget;
    let mut states: Vec<(usize, State)> = targets
        .par_iter()
        .enumerate()
        .flat_map_iter(|(i, &(slider, square))| {
            forms
                .iter()
                .enumerate()
                .map(move |(f, &black)| (i * forms.len() + f, State::new(slider, square, seed, reduction, black)))
        })
        .collect();
    states.sort_by_key(|(i, s)| (priority(&s.problem).0, s.black, *i));
    // Slices grow each round: short ones pick the easy squares off first.
    let mut slice = Duration::from_millis(20);
    while Instant::now() < deadline {
        let done: std::collections::HashSet<usize> =
            states.iter().filter(|(_, s)| s.found.is_some()).map(|(i, _)| i / forms.len()).collect();
        let mut open: Vec<&mut State> =
            states.iter_mut().filter(|(i, _)| !done.contains(&(i / forms.len()))).map(|(_, s)| s).collect();
        if open.is_empty() {
            break;
        }
        open.par_iter_mut().with_max_len(1).for_each(|state| {
            let now = Instant::now();
            let share = slice * priority(&state.problem).1 / 40 * form_share(state, forms) / forms.len() as u32;
            if now < deadline && !share.is_zero() && state.slice((now + share).min(deadline)) {
                on_found();
            }
        });
        slice = (slice * 2).min(Duration::from_secs(2));
    }
    // Per target, the form found in fewer candidates, with both forms' work counted.
    states.sort_by_key(|(i, _)| *i);
    states
        .chunks(forms.len())
        .map(|forms| {
            let s = &forms[0].1;
            let found = forms.iter().filter_map(|(_, s)| s.found.clone()).min_by_key(|f| (f.candidates, f.black));
            Outcome {
                slider: s.problem.slider,
                square: s.problem.square,
                candidates: forms.iter().map(|(_, s)| s.candidates).sum(),
                time: forms.iter().map(|(_, s)| s.time).sum(),
                found,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_bishops_give_up_a_bit() {
        let targets = [(Slider::Bishop, Square::B8), (Slider::Bishop, Square::A7)];
        let out = run(&targets, 1, 1, &[false, true], Duration::from_secs(5), &|| {});
        for o in &out {
            let f = o.found.as_ref().expect("an edge bishop has a reduced magic");
            assert_eq!(f.index_bits() + 1, f.relevant_bits);
            let p = Problem::new(o.slider, o.square);
            assert!(search::fits(&p, f.magic, f.shift, f.black, &mut search::Scratch::default()));
        }
    }

    #[test]
    fn known_reduced_squares_come_first() {
        let tier = |slider, sq| priority(&Problem::new(slider, sq)).0;
        let known = |slider| Square::ALL.iter().filter(|&&sq| tier(slider, sq) == 0).count();
        assert_eq!((known(Slider::Rook), known(Slider::Bishop)), (16, 24));
        assert_eq!(tier(Slider::Bishop, Square::A3), 0);
        assert_eq!(tier(Slider::Bishop, Square::H6), 0);
        assert_eq!(tier(Slider::Rook, Square::F8), 0);
        assert!(tier(Slider::Bishop, Square::A4) < tier(Slider::Bishop, Square::D4));
        assert!(tier(Slider::Rook, Square::E7) < tier(Slider::Rook, Square::E2));
        assert!(tier(Slider::Rook, Square::E2) < tier(Slider::Rook, Square::D4));
    }
}
