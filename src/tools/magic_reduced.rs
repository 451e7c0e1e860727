//! Reduced-bit magics: `index bits = relevant bits - k`, so that some
//! occupancies must share a slot, which is allowed only when their attack
//! sets agree (constructive collisions).
//!
//! What makes this search faster than the standard one run for longer:
//! - the occupancies are reordered so that one representative of every
//!   distinct attack set comes first: those must all land on different slots,
//!   and almost every candidate fails among them;
//! - candidates come from several generators in turn (sparse, dense, two-way
//!   AND, sums of a few signed powers of two, which make the runs of ones that
//!   the known reduced magics are full of, and the structured gathers of
//!   [`magic_search::structured_candidate`]); magic bits that cannot reach the
//!   index (above `64 - lowest mask bit` in the plain form) are cleared;
//! - squares are searched in rounds of short slices, in tiers by where
//!   reduced magics are known (corner bishops, then the other bishops near
//!   the edges, then corner and edge rooks, then the rest), and each tier
//!   gets its share of a round: the inner squares, where none is known, a
//!   fortieth of a corner bishop's. With the fancy layout both forms (plain and black) are searched,
//!   each with half the slice, and a square is done when either fits. Each
//!   square and form keeps its own generator across slices, so a magic
//!   found for a seed is the same whatever the thread count or budget (the
//!   budget only decides whether it is found).

use super::magic_search::{self, Found, Problem, Rng, Slider};
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
}

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
            rng: Rng::new(magic_search::square_seed(seed ^ 0x5eed_0000_0000_0001, slider, square)),
            candidates: 0,
            time: Duration::ZERO,
            found: None,
            slots: vec![(0, 0); 1 << index_bits],
            epoch: 0,
            problem,
        }
    }

    #[inline(always)]
    fn candidate(&mut self) -> u64 {
        let rng = &mut self.rng;
        // The structured gathers are slow to make: one candidate in eight.
        let magic = match self.candidates % 8 {
            0 | 4 => rng.sparse(),
            1 | 5 => rng.next_u64(),
            6 => rng.next_u64() & rng.next_u64(),
            2 | 3 => {
                // A few signed powers of two: runs of ones.
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
            _ => magic_search::structured_candidate(self.problem.mask, self.index_bits, rng),
        };
        if self.black {
            magic
        } else {
            // occ has at least `trailing_zeros(mask)` low zero bits: higher magic bits fall off.
            magic & (!0u64 >> self.problem.mask.trailing_zeros())
        }
    }

    #[inline(always)]
    fn fits(&mut self, magic: u64) -> bool {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.slots.iter_mut().for_each(|s| s.0 = 0);
            self.epoch = 1;
        }
        let (epoch, shift) = (self.epoch, 64 - self.index_bits);
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

    /// Searches until `until` (checked every 4096 candidates); true if found.
    fn slice(&mut self, until: Instant) -> bool {
        let start = Instant::now();
        'outer: loop {
            for _ in 0..4096 {
                let magic = self.candidate();
                self.candidates += 1;
                if self.fits(magic) {
                    let shift = 64 - self.index_bits;
                    let mut scratch = magic_search::Scratch::default();
                    let prepared = magic_search::Prepared::new(&self.problem, self.black);
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

/// How promising a reduced search on a square is, as a tier (lower first)
/// and a share of each round's slice. The known reduced magics are for
/// bishops near the edges (the corners and the two outer ranks and files)
/// and rooks on the outer ranks and files. The share is in 40ths: a corner
/// bishop gets the whole slice, an inner square a fortieth.
fn priority(problem: &Problem) -> (u32, u32) {
    let sq = problem.square as u32;
    let (file, rank) = (sq % 8, sq / 8);
    let outer = |x: u32| x == 0 || x == 7;
    let near = |x: u32| x <= 1 || x >= 6;
    match problem.slider {
        Slider::Bishop if outer(file) && outer(rank) => (0, 40),
        Slider::Bishop if near(file) && near(rank) => (1, 20),
        Slider::Bishop if near(file) || near(rank) => (2, 8),
        Slider::Rook if outer(file) && outer(rank) => (3, 4),
        Slider::Rook if near(rank) || outer(file) => (4, 2),
        _ => (5, 1),
    }
}

/// One square's outcome: the magic if found, and the candidates tried.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub slider: Slider,
    pub square: Square,
    pub found: Option<Found>,
    pub candidates: u64,
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
            let share = slice * priority(&state.problem).1 / 40 / forms.len() as u32;
            if now < deadline && state.slice((now + share).min(deadline)) {
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
            assert!(magic_search::fits(&p, f.magic, f.shift, f.black, &mut magic_search::Scratch::default()));
        }
    }

    #[test]
    fn known_reduced_squares_come_first() {
        let tier = |slider, sq| priority(&Problem::new(slider, sq)).0;
        assert_eq!(tier(Slider::Bishop, Square::A1), 0);
        assert_eq!(tier(Slider::Bishop, Square::H8), 0);
        assert_eq!(tier(Slider::Bishop, Square::B2), 1);
        assert!(tier(Slider::Bishop, Square::B5) < tier(Slider::Rook, Square::A1));
        assert!(tier(Slider::Rook, Square::H8) < tier(Slider::Rook, Square::E7));
        assert!(tier(Slider::Rook, Square::E7) < tier(Slider::Rook, Square::D4));
        assert!(tier(Slider::Bishop, Square::D4) > tier(Slider::Bishop, Square::D1));
    }
}
