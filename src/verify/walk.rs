//! Seeded random walks through a game's positions, for `chesstool fuzz`:
//! games from a set of roots, each move drawn with the game's bias
//! (`Rules::walk_weight`), the same games for the same seed. Positions the
//! walks pass through become roots of later games (sent to engines as a FEN
//! of their own, with moves from there). Each kept position remembers its
//! line from a given root, so that a witness can also be asked from the
//! start by moves alone (`Walker::path_to`).

use crate::engines::Line;
use crate::rules::Rules;

/// SplitMix64 (Steele, Lea and Flood): tiny, seedable, and every seed,
/// 0 included, gives a good sequence.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The generator for `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n > 0`), by multiply-shift (bias below 2^-32 for
    /// the small `n` a walk uses).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// Positions from walks kept as roots: enough variety, bounded memory.
const POOL: usize = 1000;

/// The longest walk between two lines of the sweep, in moves.
const SWEEP_WALK_PLIES: usize = 2;

/// Kept roots remember their line from a given root up to this many moves.
const MAX_PATH: usize = 400;

/// The walks of one run.
pub struct Walker<'a, R: Rules> {
    rules: &'a R,
    rng: SplitMix64,
    /// The given roots: the first of them start the first games in order.
    roots: Vec<R::Position>,
    /// Positions met on walks, as later roots, with their line from a
    /// given root (`None` when longer than `MAX_PATH`).
    pool: Vec<(R::Position, Option<Line<R>>)>,
    /// The line from a given root to the current game's root, if known.
    origin: Option<Line<R>>,
    /// The moves of the current game so far.
    played: Vec<R::Move>,
    games: u64,
    /// Games that were walks (not the sweep's lines).
    walks: u64,
    /// Lines looked at once each, three games in four, in order (games of one
    /// position, the end of the line): positions built to hold rare rules.
    sweep: std::collections::VecDeque<Line<R>>,
    /// How many lines the sweep had at the start.
    sweep_total: usize,
    /// The current game is one of the sweep.
    in_sweep: bool,
    /// The longest game, in moves.
    pub max_plies: usize,
}

impl<'a, R: Rules> Walker<'a, R> {
    /// Walks from `roots` (at least one) with the moves drawn by `seed`.
    pub fn new(rules: &'a R, roots: Vec<R::Position>, seed: u64) -> Walker<'a, R> {
        assert!(!roots.is_empty(), "a walk needs a root");
        Walker {
            rules,
            rng: SplitMix64::new(seed),
            roots,
            pool: Vec::new(),
            origin: None,
            played: Vec::new(),
            games: 0,
            walks: 0,
            sweep: Default::default(),
            sweep_total: 0,
            in_sweep: false,
            max_plies: 40,
        }
    }

    /// Looks at the end of each of `lines` once, in order, three games in
    /// four from the first (short walks in between, so that a bug the walks find soon
    /// is not kept waiting by a slow engine's sweep); their ends are roots
    /// of later walks too.
    pub fn with_sweep(mut self, lines: Vec<Line<R>>) -> Walker<'a, R> {
        self.roots.extend(lines.iter().map(|l| l.position(self.rules)));
        self.sweep_total = lines.len();
        self.sweep = lines.into();
        self
    }

    /// True while the current game is one of the sweep's lines.
    pub fn in_sweep(&self) -> bool {
        self.in_sweep
    }

    /// The sweep's lines: how many there were at the start.
    pub fn sweep_total(&self) -> usize {
        self.sweep_total
    }

    /// The first of the given roots (the standard start for chess).
    pub fn first_root(&self) -> &R::Position {
        &self.roots[0]
    }

    /// Games started so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The start of the next game: while the sweep lasts, three games in
    /// four are its next lines. Every other walk starts at one of the first
    /// `primary` roots in turn (the standard start and the positions
    /// everyone tests); the others at a random root, given or met on a walk.
    pub fn start(&mut self, primary: usize) -> Line<R> {
        self.games += 1;
        self.in_sweep = false;
        self.played.clear();
        if !self.games.is_multiple_of(4) {
            if let Some(line) = self.sweep.pop_front() {
                self.in_sweep = true;
                // A position built to hold a rare rule: no moves lead to it
                // from the game's start.
                self.origin = None;
                return line;
            }
        }
        self.walks += 1;
        let g = self.walks - 1;
        let primary = primary.clamp(1, self.roots.len());
        // Lines from the first root (the game's start) are known by their
        // moves; other given roots are positions of their own.
        let given = |i: usize| (self.roots[i].clone(), (i == 0).then(|| Line::new(self.roots[0].clone())));
        let (root, origin) = if g.is_multiple_of(2) {
            given((g / 2) as usize % primary)
        } else {
            let n = (self.roots.len() + self.pool.len()) as u64;
            let i = self.rng.below(n) as usize;
            match i < self.roots.len() {
                true => given(i),
                false => self.pool[i - self.roots.len()].clone(),
            }
        };
        self.origin = origin;
        Line::new(root)
    }

    /// The line from the first root (the game's start: the standard start
    /// unless the run was given other roots) to the end of `line`, a line of
    /// the current game (its root, or its root and the moves played so far),
    /// where it is known.
    pub fn path_to(&self, line: &Line<R>) -> Option<Line<R>> {
        let mut path = self.origin.clone()?;
        path.moves.extend_from_slice(&line.moves);
        Some(path)
    }

    /// The next move of a game at `pos` (`moves` played so far), or `None`
    /// when the game ends there (no legal move, or long enough). One
    /// position in ten is kept as a root for later games.
    pub fn next_move(&mut self, pos: &R::Position, moves: usize) -> Option<R::Move> {
        // While the sweep lasts, walks between its lines are short: a slow
        // engine's budget goes to the rare cases first, yet bugs of common
        // positions near the roots are looked for from the start.
        let limit = if self.sweep.is_empty() { self.max_plies } else { SWEEP_WALK_PLIES };
        if moves >= limit || self.in_sweep {
            return None;
        }
        let legal = self.rules.legal_moves(pos);
        if legal.is_empty() {
            return None;
        }
        if moves > 0 && self.rng.below(10) == 0 {
            // Kept as the engine will be sent it, a FEN of its own: state no
            // FEN carries (Janggi's last pass, the passes of a stone game)
            // must not follow it into a later game.
            if let Ok(root) = self.rules.parse_position(&self.rules.position_text(pos)) {
                let path = self.origin.as_ref().filter(|o| o.moves.len() + self.played.len() <= MAX_PATH).map(|o| {
                    let mut path = o.clone();
                    path.moves.extend_from_slice(&self.played);
                    path
                });
                if self.pool.len() < POOL {
                    self.pool.push((root, path));
                } else {
                    let i = self.rng.below(POOL as u64) as usize;
                    self.pool[i] = (root, path);
                }
            }
        }
        let weights: Vec<u64> = legal.iter().map(|&m| u64::from(self.rules.walk_weight(pos, m).max(1))).collect();
        let mut pick = self.rng.below(weights.iter().sum());
        for (&m, &w) in legal.iter().zip(&weights) {
            if pick < w {
                self.played.push(m);
                return Some(m);
            }
            pick -= w;
        }
        unreachable!("the pick is below the sum of the weights")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_is_the_published_sequence() {
        // The first outputs for seed 0 (as in the reference C code).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        let mut r = SplitMix64::new(7);
        assert!((0..1000).all(|_| r.below(3) < 3));
    }
}
