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
//! `n + 1`. What is left unresolved is a draw. A last pass checks every value
//! against its successors with forward move generation.

pub mod file;
pub mod index;
pub mod retro;

use super::position::Position;
use index::{position_of, Indexer, CONFIGS, STATES};
use rayon::prelude::*;
use retro::{for_each_predecessor, index_black_to_move};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// The most predecessors a state has: per piece of the side that moved, one
/// drop and at most six origins, each perhaps with any of four captures.
const MAX_PREDECESSORS: usize = 4 * (1 + 6 + 6 * 4);

#[inline(always)]
fn prefetch(slot: &AtomicU8) {
    #[cfg(target_arch = "x86_64")]
    // Safety: a prefetch is a hint; it never faults.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(slot as *const AtomicU8 as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = slot;
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
    Draw,
}

impl Value {
    pub fn from_byte(b: u8) -> Option<Value> {
        match b {
            DRAW => Some(Value::Draw),
            d if d < UNRESOLVED && d % 2 == 1 => Some(Value::Win(u32::from(d))),
            d if d < UNRESOLVED => Some(Value::Loss(u32::from(d))),
            _ => None,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
        }
    }

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

/// What went wrong in a solve (an internal fault: never expected).
#[derive(Debug, Clone, thiserror::Error)]
pub enum SolveError {
    #[error("a distance passed 126 plies, more than a byte of the table holds")]
    TooDeep,
    #[error("verification failed: {count} states disagree with their successors, e.g. {example}")]
    Verify { count: u64, example: String },
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
    pub states: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
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

/// Calls `f(index, mover config rank, column)` over the rows, in parallel.
fn for_each_row(_ix: &Indexer, f: &(dyn Fn(usize) + Sync)) {
    (0..CONFIGS).into_par_iter().with_min_len(64).for_each(f);
}

/// Solves the whole game; `progress(phase, rows_done)` is called as rows
/// finish (58,625 rows per phase).
pub fn solve(progress: &(dyn Fn(Phase, u64) + Sync)) -> Result<Solution, SolveError> {
    let ix = Indexer::new();
    let mut bytes = zeroed_bytes(STATES)?;
    {
        let table = as_atomic(&mut bytes);
        let done = AtomicU64::new(0);
        // Ply 0: the opponent has just won; the rest count their moves.
        for_each_row(&ix, &|r| {
            let mover = ix.config(r);
            let (start, len) = ix.row(r);
            for c in 0..len {
                let pos = position_of(mover, ix.column_config(mover, c));
                let b = if pos.winner().is_some() { 0 } else { UNRESOLVED | pos.count_moves() as u8 };
                table[(start + c) as usize].store(b, Relaxed);
            }
            progress(Phase::Start, done.fetch_add(1, Relaxed) + 1);
        });
        let mut ply = 0u32;
        loop {
            if ply + 1 >= u32::from(UNRESOLVED) - 1 {
                return Err(SolveError::TooDeep);
            }
            let found = AtomicU64::new(0);
            let done = AtomicU64::new(0);
            let (n, next) = (ply as u8, ply as u8 + 1);
            for_each_row(&ix, &|r| {
                let mover = ix.config(r);
                let (start, len) = ix.row(r);
                let mut here = 0;
                for c in 0..len {
                    if table[(start + c) as usize].load(Relaxed) != n {
                        continue;
                    }
                    here += 1;
                    let pos = position_of(mover, ix.column_config(mover, c));
                    // Gather the predecessors and start loading their bytes
                    // before the first atomic update: a locked update waits for
                    // its cache line, so unprefetched ones would miss one by one.
                    let mut preds = [0u64; MAX_PREDECESSORS];
                    let mut k = 0;
                    for_each_predecessor(&pos, |p| {
                        let i = index_black_to_move(&ix, p);
                        prefetch(&table[i as usize]);
                        preds[k] = i;
                        k += 1;
                    });
                    for &i in &preds[..k] {
                        let slot = &table[i as usize];
                        if n % 2 == 0 {
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
                            } else if v & 0x7f == 1 {
                                // The last move not known to lose: every move loses.
                                Some(next)
                            } else {
                                Some(v - 1)
                            }
                        });
                    }
                }
                found.fetch_add(here, Relaxed);
                progress(Phase::Ply(ply), done.fetch_add(1, Relaxed) + 1);
            });
            if found.load(Relaxed) == 0 {
                break;
            }
            ply += 1;
        }
    }
    for b in bytes.iter_mut() {
        if *b & UNRESOLVED != 0 {
            *b = DRAW;
        }
    }
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

    /// The value a position should have given its successors' stored values.
    fn derived(&self, pos: &Position) -> Value {
        if pos.winner().is_some() {
            return Value::Loss(0);
        }
        let mut best: Option<Value> = None;
        pos.for_each_move(|m| {
            let child = pos.play(m);
            let b = self.bytes[index_black_to_move(&self.indexer, &child) as usize];
            let v = Value::from_byte(b).unwrap_or(Value::Draw).before();
            if best.is_none_or(|x| v.score() > x.score()) {
                best = Some(v);
            }
        });
        best.unwrap_or(Value::Loss(0))
    }

    /// Checks every stored value against its successors.
    pub fn verify(&self, progress: &(dyn Fn(Phase, u64) + Sync)) -> Result<(), SolveError> {
        let ix = &self.indexer;
        let bad = AtomicU64::new(0);
        let example = std::sync::Mutex::new(None::<String>);
        let done = AtomicU64::new(0);
        for_each_row(ix, &|r| {
            let mover = ix.config(r);
            let (start, len) = ix.row(r);
            for c in 0..len {
                let pos = position_of(mover, ix.column_config(mover, c));
                let stored = Value::from_byte(self.bytes[(start + c) as usize]);
                let derived = self.derived(&pos);
                if stored != Some(derived) {
                    bad.fetch_add(1, Relaxed);
                    let mut e = example.lock().unwrap_or_else(|e| e.into_inner());
                    if e.is_none() {
                        *e = Some(format!("{pos}: stored {stored:?}, successors say {derived:?}"));
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
