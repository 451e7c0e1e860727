//! The exact value of every TicTacChess position by retrograde analysis.
//!
//! Every state (see `index`) gets one byte. While solving, a byte with the
//! high bit set is unresolved and counts the successors not yet known to be
//! won for the opponent; a byte below 0x80 is the distance to the end in
//! plies with best play (the winner fastest, the loser slowest): even means
//! the side to move loses, odd that it wins. Ply 0 is every state the
//! opponent has just won. Then, ply by ply, every state lost in `n` makes its
//! predecessors won in `n + 1`, and every state won in `n` takes one off its
//! predecessors' counters; a counter at zero means every move loses: lost in
//! `n + 1`. What is left unresolved is a draw. The passes keep one state of
//! each left-right mirror pair (see `symmetry`) and copy the other at the
//! end. A last pass checks every kept value against its successors with
//! forward move generation.

pub mod file;
pub mod index;
pub mod retro;
pub mod symmetry;

use super::board::{squares, Color, Kind, Square, BOARD};
use super::movegen::targets;
use super::position::Position;
use index::{flip_digit, position_of, Columns, Config, Indexer, KeyParts, CONFIGS, HAND, STATES};
use rayon::prelude::*;
use retro::{for_each_predecessor, state_black_to_move};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};
use symmetry::{copy_mirror_images, is_kept, is_symmetric, mirror, Row};

/// The most predecessors a state has: per piece of the side that moved, one
/// drop and at most six origins, each perhaps with any of four captures.
const MAX_PREDECESSORS: usize = 4 * (1 + 6 + 6 * 4);

/// Starts loading the cache line of `x` (a hint; the next access finds it
/// in cache).
#[inline(always)]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // Safety: a prefetch is a hint; it never faults.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(x as *const T as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// The stored byte of a draw in a finished table.
pub const DRAW: u8 = 0xff;
const UNRESOLVED: u8 = 0x80;

/// The value of a position for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Wins in this many plies (odd).
    Win(u32),
    /// Loses in this many plies (even; 0 when the opponent has just won).
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

impl Value {
    /// The value stored as byte `b`, `None` if unresolved.
    pub fn from_byte(b: u8) -> Option<Value> {
        match b {
            DRAW => Some(Value::Draw),
            d if d < UNRESOLVED && d % 2 == 1 => Some(Value::Win(u32::from(d))),
            d if d < UNRESOLVED => Some(Value::Loss(u32::from(d))),
            _ => None,
        }
    }

    /// `win`, `loss` or `draw`.
    pub fn word(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
        }
    }

    /// The plies to the end of a won or lost game.
    pub fn plies(self) -> Option<u32> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// The value of the position before a move that leads to a position of
    /// value `self` (for the opponent).
    pub fn before(self) -> Value {
        match self {
            Value::Loss(d) => Value::Win(d + 1),
            Value::Win(d) => Value::Loss(d + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// Orders values for the side to move: a faster win is better, a slower
    /// loss is better.
    pub fn score(self) -> i64 {
        match self {
            Value::Win(d) => 1000 - i64::from(d),
            Value::Draw => 0,
            Value::Loss(d) => -1000 + i64::from(d),
        }
    }
}

/// Where a solve is, for a progress bar.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Terminal states and move counts.
    Start,
    /// Resolving states whose distance is this ply.
    Ply(u32),
    /// Checking every value against its successors.
    Verify,
}

/// Where the successors of the states (mover, `other`) lie, White to move:
/// after a quiet move the new mover is `other` (mirrored), after a capture
/// it is `other` without the captured piece.
struct Successors<'a> {
    ix: &'a Indexer,
    other: Config,
    other_occupancy: u32,
    /// Row start and key parts: `[0]` quiet, `[1 + k]` piece `k` of `other` captured.
    rows: [(u64, KeyParts); 5],
}

impl<'a> Successors<'a> {
    fn new(ix: &'a Indexer, other: Config) -> Successors<'a> {
        let after = |captured: Option<usize>| {
            let mut left = other;
            if let Some(k) = captured {
                left[k] = HAND;
            }
            let mover = left.map(flip_digit);
            (ix.row_start(mover), KeyParts::new(mover, true))
        };
        Successors {
            ix,
            other,
            other_occupancy: index::occupancy(other),
            rows: [after(None), after(Some(0)), after(Some(1)), after(Some(2)), after(Some(3))],
        }
    }

    /// The index of the position after `mover` puts piece `k` on square
    /// digit `to`; `quiet_key` is `rows[0].1.key(mover)`.
    #[inline(always)]
    fn index_after(&self, mover: Config, quiet_key: usize, k: usize, to: u8) -> u64 {
        let (start, key) = if self.other_occupancy & 1 << to == 0 {
            (self.rows[0].0, self.rows[0].1.key_moved(quiet_key, mover, k, to))
        } else {
            let (start, parts) = &self.rows[self.other.iter().position(|&d| d == to).map_or(0, |k| k + 1)];
            (*start, parts.key_with(mover, k, to))
        };
        start + self.ix.rank_of_key(key)
    }

    /// The byte that `mover`'s position should hold given its successors'
    /// bytes: the fastest win, else a draw, else the slowest loss. A position
    /// without moves stays a draw, as in the retrograde passes (none occurs).
    #[inline(always)]
    fn derived(&self, bytes: &[u8], mover: Config) -> u8 {
        let pos = position_of(mover, self.other);
        if pos.winner().is_some() {
            return 0;
        }
        // Without branches on the child's value (they mispredict): a child
        // lost in d (even) offers a win in d + 1, a draw (0xff, odd) a draw,
        // a child won in d (odd) a loss in d + 1.
        let (mut win, mut draw, mut loss) = (u8::MAX, false, 0u8);
        let quiet_key = self.rows[0].1.key(mover);
        // The moves of `Position::for_each_move`, written out so that this
        // loop inlines (through the closure it did not: a call per move).
        let empty = !pos.occupied() & BOARD;
        for kind in Kind::ALL {
            let k = kind as usize;
            let targets = match Square::from_bit(u32::from(pos.at[0][k])) {
                None => empty,
                Some(from) => targets(&pos, Color::White, kind, from),
            };
            for to in squares(targets) {
                let child = bytes[self.index_after(mover, quiet_key, k, to.dense() as u8) as usize];
                let even = child & 1 == 0;
                win = win.min(if even { child + 1 } else { u8::MAX });
                draw |= child == DRAW;
                loss = loss.max(if even || child == DRAW { 0 } else { child + 1 });
            }
        }
        if win != u8::MAX {
            win
        } else if draw || loss == 0 {
            // A position without moves stays a draw (none occurs).
            DRAW
        } else {
            loss
        }
    }
}

/// What went wrong in a solve (an internal fault: never expected).
#[derive(Debug, Clone, thiserror::Error)]
pub enum SolveError {
    /// A distance to the end passed 126 plies.
    #[error("a distance passed 126 plies, more than a byte of the table holds")]
    TooDeep,
    /// The verification pass found states that disagree with their successors.
    #[error("verification failed: {count} states disagree with their successors, e.g. {example}")]
    Verify {
        /// How many states disagree.
        count: u64,
        /// One of them, described.
        example: String,
    },
    /// The CPU lacks the `popcnt` instruction the solve was compiled for.
    #[error("this CPU lacks the popcnt instruction that the solve is compiled for")]
    NoPopcnt,
    /// The table could not be allocated; holds its size in bytes.
    #[error("cannot allocate the table of {0} bytes")]
    Memory(u64),
}

/// A solved game: one byte per state.
pub struct Solution {
    pub(crate) indexer: Indexer,
    pub(crate) bytes: Vec<u8>,
}

/// Counts of a finished solve.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Summary {
    /// Every state of the table.
    pub states: u64,
    /// States the side to move wins.
    pub wins: u64,
    /// States the side to move loses.
    pub losses: u64,
    /// Drawn states.
    pub draws: u64,
    /// The longest win or loss, in plies.
    pub longest: u32,
}

fn zeroed_bytes(n: u64) -> Result<Vec<u8>, SolveError> {
    let len = usize::try_from(n).map_err(|_| SolveError::Memory(n))?;
    let mut v: Vec<u8> = Vec::new();
    v.try_reserve_exact(len).map_err(|_| SolveError::Memory(n))?;
    #[cfg(target_os = "linux")]
    // Safety: advice on memory this vector owns; it changes no contents.
    unsafe {
        libc::madvise(v.as_mut_ptr() as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
    v.resize(len, 0);
    Ok(v)
}

fn as_atomic(bytes: &mut [u8]) -> &[AtomicU8] {
    // Safety: AtomicU8 has the size and alignment of u8, and the exclusive
    // borrow guarantees no other access while the atomic view lives.
    unsafe { &*(bytes as *mut [u8] as *const [AtomicU8]) }
}

/// Calls `f(row)` for every row (mover configuration), in parallel.
fn for_each_row(f: impl Fn(usize) + Sync + Send) {
    (0..CONFIGS).into_par_iter().with_min_len(64).for_each(f);
}

/// One bit per state, in the transposed order: the state (mover, other)
/// at `Indexer::index(other, mover)`. Why: the moves that lead to a state
/// change only the other side's pieces (and may put back one of the
/// mover's), so the predecessors of all states with the same other side
/// lie in a few dozen rows of the table. Visiting the states of a ply in
/// this order keeps those rows in cache; visiting them in the table's own
/// order sends every update to a random cache line of the 1.2 GB table.
struct Frontier {
    words: Vec<AtomicU64>,
}

impl Frontier {
    fn new() -> Result<Frontier, SolveError> {
        let len = STATES.div_ceil(64);
        let mut words = Vec::new();
        words.try_reserve_exact(len as usize).map_err(|_| SolveError::Memory(len * 8))?;
        words.resize_with(len as usize, || AtomicU64::new(0));
        Ok(Frontier { words })
    }

    #[inline(always)]
    fn word(&self, bit: u64) -> &AtomicU64 {
        &self.words[(bit / 64) as usize]
    }

    #[inline(always)]
    fn set(&self, bit: u64) {
        self.word(bit).fetch_or(1 << (bit % 64), Relaxed);
    }

    /// Calls `f(column)` for every set bit of the row `start..start + len`.
    #[inline(always)]
    fn for_each_in(&self, start: u64, len: u64, mut f: impl FnMut(u64)) {
        let end = start + len;
        let mut w = start / 64;
        while w * 64 < end {
            let mut bits = self.words[w as usize].load(Relaxed);
            if w * 64 < start {
                bits &= !0 << (start % 64);
            }
            if (w + 1) * 64 > end {
                bits &= (1u64 << (end % 64)) - 1;
            }
            while bits != 0 {
                f(w * 64 + u64::from(bits.trailing_zeros()) - start);
                bits &= bits - 1;
            }
            w += 1;
        }
    }

    fn clear(&self) {
        self.words.par_iter().for_each(|w| w.store(0, Relaxed));
    }
}

// The passes below are compiled for the `popcnt` instruction (their
// closures and everything they inline, too); `solve` checks that the CPU
// has it. Why: the baseline x86-64 target counts bits with a dozen
// instructions, and the passes count bits for every state and move: it was
// a third of the first pass.

/// Marks in `frontier` every state whose byte is `n`; returns how many.
#[cfg_attr(target_arch = "x86_64", target_feature(enable = "popcnt"))]
fn mark(ix: &Indexer, table: &[AtomicU8], frontier: &Frontier, n: u8) -> u64 {
    let found = AtomicU64::new(0);
    for_each_row(|r| {
        let mover = ix.config(r);
        let kept = Row::of(mover);
        if kept == Row::Mirrored {
            return;
        }
        let columns = Columns::of(mover);
        let (start, len) = ix.row(r);
        let row = &table[start as usize..(start + len) as usize];
        let mut pending = [0u64; 16];
        let mut k = 0;
        let mut here = 0;
        for (c, byte) in row.iter().enumerate() {
            if byte.load(Relaxed) != n {
                continue;
            }
            let other = ix.column_config_in(&columns, c as u64);
            if !kept.keeps(mover, other) {
                continue;
            }
            here += 1;
            // Random writes: gather a few, start loading their lines, then set.
            let bit = ix.index(other, mover);
            prefetch(frontier.word(bit));
            pending[k] = bit;
            k += 1;
            if k == pending.len() {
                pending.iter().for_each(|&b| frontier.set(b));
                k = 0;
            }
        }
        pending[..k].iter().for_each(|&b| frontier.set(b));
        found.fetch_add(here, Relaxed);
    });
    found.load(Relaxed)
}

/// Resolves the predecessors of every marked state (all at ply `n`), each
/// as the kept one of its mirror pair. Why the weights: a kept predecessor
/// `Q` must lose one count per move into the marked state `C` or into its
/// image `C'`. The predecessors of `C` that are `Q` or `Q'` are exactly
/// those moves (`Q' -> C` is the image of `Q -> C'`), except where a state
/// is its own image: a symmetric `Q` has its moves into `C'` among no
/// predecessor of `C` (count each twice), and a symmetric `C` would list
/// `Q -> C` twice, as `Q` and as `Q'` (count only the kept one).
#[cfg_attr(target_arch = "x86_64", target_feature(enable = "popcnt"))]
fn push(ix: &Indexer, table: &[AtomicU8], frontier: &Frontier, n: u8, progress: &(dyn Fn(u64) + Sync)) {
    let next = n + 1;
    let done = AtomicU64::new(0);
    // Row r of the transposed order: `other` is config r, the movers are its columns.
    for_each_row(|r| {
        let other = ix.config(r);
        let columns = Columns::of(other);
        let (start, len) = ix.row(r);
        frontier.for_each_in(start, len, |c| {
            let mover = ix.column_config_in(&columns, c);
            let pos = position_of(mover, other);
            let symmetric = is_symmetric(mover, other);
            // Gather the predecessors and start loading their bytes before
            // the first update: the rows are in L3 at best, and an atomic
            // update waits for its line.
            let mut preds = [(0u64, 0u8); MAX_PREDECESSORS];
            let mut k = 0;
            for_each_predecessor(&pos, |p| {
                let (mut m, mut o) = state_black_to_move(p);
                if !is_kept(m, o) {
                    if symmetric {
                        return;
                    }
                    (m, o) = (mirror(m), mirror(o));
                }
                let i = ix.index(m, o);
                prefetch(&table[i as usize]);
                preds[k] = (i, if is_symmetric(m, o) && !symmetric { 2 } else { 1 });
                k += 1;
            });
            for &(i, weight) in &preds[..k] {
                let slot = &table[i as usize];
                if n.is_multiple_of(2) {
                    // A move into a lost position wins (a plain store:
                    // racing writers all write the same value).
                    if slot.load(Relaxed) & UNRESOLVED != 0 {
                        slot.store(next, Relaxed);
                    }
                    continue;
                }
                let _ = slot.fetch_update(Relaxed, Relaxed, |v| {
                    if v & UNRESOLVED == 0 {
                        None
                    } else if v & 0x7f <= weight {
                        // The last moves not known to lose: every move loses.
                        Some(next)
                    } else {
                        Some(v - weight)
                    }
                });
            }
        });
        progress(done.fetch_add(1, Relaxed) + 1);
    });
}

/// Ply 0: the opponent has just won; the rest count their moves.
#[cfg_attr(target_arch = "x86_64", target_feature(enable = "popcnt"))]
fn first_pass(ix: &Indexer, table: &[AtomicU8], progress: &(dyn Fn(Phase, u64) + Sync)) {
    let done = AtomicU64::new(0);
    for_each_row(|r| {
        let mover = ix.config(r);
        let kept = Row::of(mover);
        if kept == Row::Mirrored {
            progress(Phase::Start, done.fetch_add(1, Relaxed) + 1);
            return;
        }
        let columns = Columns::of(mover);
        let (start, len) = ix.row(r);
        for c in 0..len {
            let other = ix.column_config_in(&columns, c);
            if !kept.keeps(mover, other) {
                continue;
            }
            let pos = position_of(mover, other);
            let b = if pos.winner().is_some() { 0 } else { UNRESOLVED | pos.count_moves() as u8 };
            table[(start + c) as usize].store(b, Relaxed);
        }
        progress(Phase::Start, done.fetch_add(1, Relaxed) + 1);
    });
}

/// Solves the whole game; `progress(phase, rows_done)` is called as rows
/// finish (58,625 rows per phase).
#[allow(unused_unsafe)]
pub fn solve(progress: &(dyn Fn(Phase, u64) + Sync)) -> Result<Solution, SolveError> {
    #[cfg(target_arch = "x86_64")]
    if !std::is_x86_feature_detected!("popcnt") {
        return Err(SolveError::NoPopcnt);
    }
    let ix = Indexer::new();
    let mut bytes = zeroed_bytes(STATES)?;
    let frontier = Frontier::new()?;
    {
        let table = as_atomic(&mut bytes);
        // Safety (each unsafe call below): the CPU has popcnt, checked above.
        unsafe { first_pass(&ix, table, progress) };
        let mut ply = 0u32;
        loop {
            if ply + 1 >= u32::from(UNRESOLVED) - 1 {
                return Err(SolveError::TooDeep);
            }
            if unsafe { mark(&ix, table, &frontier, ply as u8) } == 0 {
                break;
            }
            unsafe { push(&ix, table, &frontier, ply as u8, &|rows| progress(Phase::Ply(ply), rows)) };
            frontier.clear();
            ply += 1;
        }
    }
    drop(frontier);
    bytes.par_chunks_mut(1 << 20).for_each(|chunk| {
        for b in chunk {
            if *b & UNRESOLVED != 0 {
                *b = DRAW;
            }
        }
    });
    copy_mirror_images(&ix, as_atomic(&mut bytes));
    let solution = Solution { indexer: ix, bytes };
    solution.verify(progress)?;
    Ok(solution)
}

impl Solution {
    /// The value of a position.
    pub fn value(&self, pos: &Position) -> Value {
        let (m, o) = index::state_of(pos);
        let b = self.bytes[self.indexer.index(m, o) as usize];
        Value::from_byte(b).expect("a finished table holds only values")
    }

    /// Each legal move with the value of the position it leads to.
    pub fn children(&self, pos: &Position) -> Vec<(super::Move, Value)> {
        pos.legal_moves().iter().map(|&m| (m, self.value(&pos.play(m)))).collect()
    }

    /// Checks every kept value against its successors, found by forward
    /// move generation (the others are copies of their mirror images, whose
    /// values the rules make equal: tested below). The states are visited
    /// in the transposed order (see `Frontier`): the successors of the
    /// states with the same side that has just moved lie in at most five rows.
    #[allow(unused_unsafe)]
    pub fn verify(&self, progress: &(dyn Fn(Phase, u64) + Sync)) -> Result<(), SolveError> {
        #[cfg(target_arch = "x86_64")]
        if !std::is_x86_feature_detected!("popcnt") {
            return Err(SolveError::NoPopcnt);
        }
        // Safety: the CPU has popcnt, checked above.
        unsafe { self.verify_rows(progress) }
    }

    #[cfg_attr(target_arch = "x86_64", target_feature(enable = "popcnt"))]
    fn verify_rows(&self, progress: &(dyn Fn(Phase, u64) + Sync)) -> Result<(), SolveError> {
        const AHEAD: u64 = 16;
        let ix = &self.indexer;
        let bad = AtomicU64::new(0);
        let example = std::sync::Mutex::new(None::<String>);
        let done = AtomicU64::new(0);
        for_each_row(|r| {
            let other = ix.config(r);
            let columns = Columns::of(other);
            let successors = Successors::new(ix, other);
            let (_, len) = ix.row(r);
            // The stored bytes are random reads: load them a chunk ahead.
            let mut stored_at = [None::<u64>; AHEAD as usize];
            for chunk in (0..len).step_by(AHEAD as usize) {
                let columns_here = chunk..len.min(chunk + AHEAD);
                for c in columns_here.clone() {
                    let mover = ix.column_config_in(&columns, c);
                    stored_at[(c - chunk) as usize] = is_kept(mover, other).then(|| {
                        let i = ix.index(mover, other);
                        prefetch(&self.bytes[i as usize]);
                        i
                    });
                }
                for c in columns_here {
                    let Some(i) = stored_at[(c - chunk) as usize] else { continue };
                    let mover = ix.column_config_in(&columns, c);
                    let stored = self.bytes[i as usize];
                    let derived = successors.derived(&self.bytes, mover);
                    if stored != derived {
                        bad.fetch_add(1, Relaxed);
                        let mut e = example.lock().unwrap_or_else(|e| e.into_inner());
                        if e.is_none() {
                            let pos = position_of(mover, other);
                            let (stored, derived) = (Value::from_byte(stored), Value::from_byte(derived));
                            *e = Some(format!("{pos}: stored {stored:?}, successors say {derived:?}"));
                        }
                    }
                }
            }
            progress(Phase::Verify, done.fetch_add(1, Relaxed) + 1);
        });
        match bad.load(Relaxed) {
            0 => Ok(()),
            count => Err(SolveError::Verify {
                count,
                example: example.into_inner().unwrap_or_else(|e| e.into_inner()).unwrap_or_default(),
            }),
        }
    }

    /// The counts of wins, losses and draws.
    pub fn summary(&self) -> Summary {
        let mut s = Summary { states: self.bytes.len() as u64, ..Summary::default() };
        for &b in &self.bytes {
            match Value::from_byte(b) {
                Some(Value::Win(d)) => {
                    s.wins += 1;
                    s.longest = s.longest.max(d);
                }
                Some(Value::Loss(d)) => {
                    s.losses += 1;
                    s.longest = s.longest.max(d);
                }
                _ => s.draws += 1,
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrored_positions_have_the_same_game_tree() {
        use crate::tictacchess::perft::divide;
        let ix = Indexer::new();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..300 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (mover, other) = ix.state(x % STATES);
            let (pos, image) = (position_of(mover, other), position_of(mirror(mover), mirror(other)));
            assert_eq!(pos.winner(), image.winner(), "{pos} / {image}");
            let total = |p: &Position| divide(p, 3, None, &|| ()).iter().map(|(_, n)| n).sum::<u64>();
            assert_eq!(total(&pos), total(&image), "{pos} / {image}");
        }
    }

    #[test]
    fn successor_indices_are_the_indices_of_the_played_positions() {
        let ix = Indexer::new();
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..3000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (mover, other) = ix.state(x % STATES);
            let pos = position_of(mover, other);
            let successors = Successors::new(&ix, other);
            pos.for_each_move(|m| {
                let quiet_key = successors.rows[0].1.key(mover);
                assert_eq!(
                    successors.index_after(mover, quiet_key, m.kind() as usize, m.to().dense() as u8),
                    retro::index_black_to_move(&ix, &pos.play(m)),
                    "{pos} {m}"
                );
            });
        }
    }
}
