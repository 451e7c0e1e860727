//! The unique positions at a ply below a root, with how often each occurs:
//! the work units of a distributed perft.
//!
//! Ply by ply: the unique positions of ply j - 1 (each with its count) make
//! their children, equal children merge and add their counts, so transpositions
//! are expanded once. Positions are `FenKey`s (36 bytes, ordered like their
//! FEN), a record is a key and a u32 count (40 bytes).
//!
//! Memory is bounded by `memory` bytes of records per pass: the children of the
//! last ply are cut into key ranges (quantiles of a sample of them), and each
//! pass makes all the children again but keeps only its range, sorts and merges
//! it, and hands its records on in order. A pass's buffer is also sorted and
//! merged whenever it fills, so an underestimate costs time, not memory. The
//! records of the ply before the last stay in memory (9.4 million x 40 bytes
//! for ply 7 of the start position).

use super::fenkey::FenKey;
use crate::position::Position;
use rayon::prelude::*;
use std::time::Instant;

/// A unique position and how many move sequences from the root reach it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position.
    pub key: FenKey,
    /// The number of move sequences from the root that reach it.
    pub count: u32,
}

/// Bytes of a record in memory.
pub const RECORD_BYTES: usize = std::mem::size_of::<Record>();

/// Why the positions at a ply cannot be enumerated.
#[derive(Debug, thiserror::Error)]
pub enum SplitError {
    /// A position reached more often than a record can count.
    #[error("{fen} occurs more than {} times at ply {ply}: split at a smaller ply", u32::MAX)]
    CountOverflow {
        /// The position.
        fen: String,
        /// The ply.
        ply: u32,
    },
    /// Reading or writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Where the enumeration is (for a progress bar).
#[derive(Clone, Debug)]
pub struct SplitProgress {
    /// The ply being enumerated.
    pub ply: u32,
    /// The pass over the parents (memory bounds each pass).
    pub pass: usize,
    /// Passes this ply needs.
    pub passes: usize,
    /// Parents enumerated so far in this pass.
    pub parents_done: usize,
    /// Parents in this pass.
    pub parents: usize,
}

/// Figures of one ply.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PlyStats {
    /// The ply.
    pub ply: u32,
    /// Unique positions at this ply.
    pub unique: u64,
    /// Move sequences reaching them (the perft of this ply).
    pub occurrences: u64,
    /// Passes over the parents it took.
    pub passes: usize,
    /// Seconds it took.
    pub seconds: f64,
}

/// Parents handed to the threads at a time (bounds the unsorted children
/// held beside the pass buffer).
const BLOCK: usize = 1 << 14;
/// Parents whose children estimate a ply's size and cut it into ranges.
const SAMPLE_PARENTS: usize = 4096;

/// Enumerates the unique positions `ply` plies below `root`, hands them to
/// `emit` in key (= FEN) order, and returns the figures of every ply. Uses
/// the current rayon pool.
pub fn unique_positions(
    root: &Position,
    ply: u32,
    memory: usize,
    progress: &mut dyn FnMut(&SplitProgress),
    emit: &mut dyn FnMut(&Record) -> std::io::Result<()>,
) -> Result<Vec<PlyStats>, SplitError> {
    let chess960 = root.is_chess960();
    let mut level = vec![Record { key: FenKey::new(root), count: 1 }];
    let mut stats = Vec::new();
    if ply == 0 {
        emit(&level[0])?;
        return Ok(stats);
    }
    for j in 1..=ply {
        let started = Instant::now();
        let ranges = plan(&level, chess960, memory);
        let passes = ranges.len();
        let (mut unique, mut occurrences) = (0u64, 0u64);
        let mut next = Vec::new();
        for (pass, range) in ranges.iter().enumerate() {
            let report = &mut |parents_done| {
                progress(&SplitProgress { ply: j, pass, passes, parents_done, parents: level.len() })
            };
            let records = expand(&level, chess960, range, memory, j, report)?;
            unique += records.len() as u64;
            occurrences += records.iter().map(|r| u64::from(r.count)).sum::<u64>();
            if j == ply {
                records.iter().try_for_each(&mut *emit)?;
            } else {
                next.extend_from_slice(&records);
            }
        }
        stats.push(PlyStats { ply: j, unique, occurrences, passes, seconds: started.elapsed().as_secs_f64() });
        level = next;
    }
    Ok(stats)
}

/// A half-open key range `[lo, hi)`; `None` is unbounded.
#[derive(Clone, Debug)]
struct Range {
    lo: Option<FenKey>,
    hi: Option<FenKey>,
}

impl Range {
    fn contains(&self, key: &FenKey) -> bool {
        self.lo.is_none_or(|lo| *key >= lo) && self.hi.is_none_or(|hi| *key < hi)
    }
}

/// The children of `parent` in `range`, each with the parent's count.
fn children_in(parent: &Record, chess960: bool, range: &Range, out: &mut Vec<Record>) {
    let pos = parent.key.position(chess960);
    for &m in pos.legal_moves().iter() {
        let key = FenKey::new(&pos.play(m));
        if range.contains(&key) {
            out.push(Record { key, count: parent.count });
        }
    }
}

/// The key ranges of the passes over `parents`' children: one if all of them
/// fit in `memory`, otherwise quantiles of a sample.
fn plan(parents: &[Record], chess960: bool, memory: usize) -> Vec<Range> {
    let step = parents.len().div_ceil(SAMPLE_PARENTS).max(1);
    let all = Range { lo: None, hi: None };
    let mut sample: Vec<FenKey> = parents
        .par_iter()
        .step_by(step)
        .flat_map_iter(|p| {
            let mut out = Vec::new();
            children_in(p, chess960, &all, &mut out);
            out.into_iter().map(|r| r.key)
        })
        .collect();
    let sampled = parents.len().div_ceil(step);
    let estimate = sample.len() as f64 * parents.len() as f64 / sampled as f64;
    let passes = (estimate * RECORD_BYTES as f64 / memory.max(1) as f64).ceil().max(1.0) as usize;
    if passes == 1 || sample.is_empty() {
        return vec![all];
    }
    sample.par_sort_unstable();
    let cuts: Vec<FenKey> = (1..passes).map(|i| sample[i * sample.len() / passes]).collect();
    let mut ranges = Vec::with_capacity(passes);
    let mut lo = None;
    for cut in cuts {
        if lo != Some(cut) {
            ranges.push(Range { lo, hi: Some(cut) });
            lo = Some(cut);
        }
    }
    ranges.push(Range { lo, hi: None });
    ranges
}

/// All children of `parents` in `range`, merged and sorted.
fn expand(
    parents: &[Record],
    chess960: bool,
    range: &Range,
    memory: usize,
    ply: u32,
    progress: &mut dyn FnMut(usize),
) -> Result<Vec<Record>, SplitError> {
    let limit = (memory / RECORD_BYTES).max(BLOCK);
    let mut buf: Vec<Record> = Vec::new();
    for (b, block) in parents.chunks(BLOCK).enumerate() {
        let parts: Vec<Vec<Record>> = block
            .par_chunks(256)
            .map(|chunk| {
                let mut out = Vec::new();
                chunk.iter().for_each(|p| children_in(p, chess960, range, &mut out));
                out
            })
            .collect();
        for part in parts {
            buf.extend_from_slice(&part);
        }
        if buf.len() > limit {
            merge_equal(&mut buf, ply)?;
        }
        progress(b * BLOCK + block.len());
    }
    merge_equal(&mut buf, ply)?;
    buf.shrink_to_fit();
    Ok(buf)
}

/// Sorts `buf` by key and merges equal keys, adding their counts.
fn merge_equal(buf: &mut Vec<Record>, ply: u32) -> Result<(), SplitError> {
    buf.par_sort_unstable_by(|a, b| a.key.cmp(&b.key));
    let mut kept = 0;
    for i in 0..buf.len() {
        let r = buf[i];
        if kept > 0 && buf[kept - 1].key == r.key {
            let last = &mut buf[kept - 1];
            last.count = last
                .count
                .checked_add(r.count)
                .ok_or_else(|| SplitError::CountOverflow { fen: r.key.to_fen(), ply })?;
        } else {
            buf[kept] = r;
            kept += 1;
        }
    }
    buf.truncate(kept);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(root: &Position, ply: u32, memory: usize) -> (Vec<Record>, Vec<PlyStats>) {
        let mut out = Vec::new();
        let stats = unique_positions(root, ply, memory, &mut |_| {}, &mut |r| {
            out.push(*r);
            Ok(())
        })
        .unwrap();
        (out, stats)
    }

    #[test]
    fn start_position_unique_counts() {
        // Published (OEIS A083276): 20, 400, 5362, 72078 distinct positions.
        let (records, stats) = collect(&Position::startpos(), 4, 1 << 30);
        let uniques: Vec<u64> = stats.iter().map(|s| s.unique).collect();
        assert_eq!(uniques, [20, 400, 5362, 72078]);
        let occurrences: Vec<u64> = stats.iter().map(|s| s.occurrences).collect();
        assert_eq!(occurrences, [20, 400, 8902, 197281], "perft(1..4), the published table");
        assert_eq!(records.len(), 72078);
    }

    #[test]
    fn passes_give_the_same_records() {
        let root = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
        let (one, _) = collect(&root, 3, 1 << 30);
        // 97,862 occurrences at ply 3 (the published perft(3)) in 40-byte records:
        // a budget of 100 KB makes many passes and many merges within each.
        let (many, stats) = collect(&root, 3, 100_000);
        assert!(stats[2].passes > 10, "{stats:?}");
        assert_eq!(one, many);
        assert_eq!(stats[2].occurrences, 97862);
        assert!(one.windows(2).all(|w| w[0].key < w[1].key));
    }
}
