//! Computing one work unit: perft of every record, written record by record
//! to the output as `FEN count perft product`, so that an interrupted unit
//! resumes after its last complete line.
//!
//! Each line is written (one `write`) as soon as its record and all before it
//! are done, and the file is synced at most once a second and at the end: a
//! killed process loses nothing it wrote, a power cut at most the last
//! second, and a line cut short is recognised (no newline) and dropped.

use super::units::{format_result_line, parse_result_line};
use super::{perft_fast, perft_fast_parallel, HashTable};
use crate::position::Position;
use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// One record of a unit, its FEN as written in the unit file.
#[derive(Clone, Debug)]
pub struct UnitRecord {
    /// The position as written in the unit file.
    pub fen: String,
    /// The move sequences from the root that reach it.
    pub count: u64,
    /// The position read.
    pub position: Position,
}

/// Why a unit cannot be computed.
#[derive(Debug, thiserror::Error)]
pub enum UnitError {
    /// The output holds lines that are not this unit's results.
    #[error(
        "{path} line {line}: {message}; it is not a partial result of this unit (remove it or choose another output)"
    )]
    Foreign {
        /// The output file.
        path: String,
        /// The line at fault.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// Reading or writing a file (named first) failed.
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    /// The output cannot be read within the caps of a unit's text.
    #[error("{0}")]
    Input(String),
}

/// How far the output already was, and what is done now.
#[derive(Clone, Debug)]
pub struct UnitSummary {
    /// Complete lines found in the output at the start.
    pub resumed: usize,
    /// A partial last line found and dropped (its length in bytes).
    pub dropped_partial: Option<usize>,
    /// Records computed in this run.
    pub computed: usize,
    /// Their nodes (perft times count), added up.
    pub nodes: u128,
}

/// Reads the complete lines already in `path` and checks them against the
/// records; drops a partial last line. Returns how many records are done,
/// the bytes to keep, and the partial line's length.
fn resume_point(
    path: &Path,
    records: &[UnitRecord],
    depth_nodes: &mut u128,
) -> Result<(usize, u64, Option<usize>), UnitError> {
    if !path.exists() {
        return Ok((0, 0, None));
    }
    let input = crate::input::Input::open(path).and_then(|i| i.text_bytes(crate::input::UNITS));
    let text = input.map_err(|e| UnitError::Input(e.to_string()))?;
    let complete = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let partial = (complete < text.len()).then_some(text.len() - complete);
    let foreign = |line: usize, message: String| UnitError::Foreign { path: path.display().to_string(), line, message };
    let body = std::str::from_utf8(&text[..complete]).map_err(|_| foreign(0, "not UTF-8 text".into()))?;
    let mut done = 0;
    for (i, line) in body.lines().enumerate() {
        let r = parse_result_line(line).map_err(|e| foreign(i + 1, e))?;
        let record =
            records.get(i).ok_or_else(|| foreign(i + 1, format!("the unit has only {} records", records.len())))?;
        if r.fen != record.fen || r.count != record.count {
            return Err(foreign(
                i + 1,
                format!("{:?} {} where the unit has {:?} {}", r.fen, r.count, record.fen, record.count),
            ));
        }
        if r.product != u128::from(r.count) * u128::from(r.perft) {
            return Err(foreign(i + 1, format!("product {} is not {} x {}", r.product, r.count, r.perft)));
        }
        *depth_nodes += r.product;
        done += 1;
    }
    Ok((done, complete as u64, partial))
}

/// Computes perft(`depth`) of every record not yet in `out`, appending the
/// result lines in record order. `threads` workers take records in order
/// (with fewer records than threads, each record is split over the threads
/// instead); `on_record` is called after each line is written.
pub fn run_unit(
    records: &[UnitRecord],
    depth: u32,
    table: Option<&HashTable>,
    threads: usize,
    out: &Path,
    on_record: &(dyn Fn() + Sync),
) -> Result<UnitSummary, UnitError> {
    let io = |e| UnitError::Io(out.display().to_string(), e);
    let mut nodes = 0u128;
    let (resumed, keep, dropped_partial) = resume_point(out, records, &mut nodes)?;
    let mut file = OpenOptions::new().create(true).write(true).truncate(false).open(out).map_err(io)?;
    file.set_len(keep).map_err(io)?;
    file.seek(SeekFrom::End(0)).map_err(io)?;
    let todo = &records[resumed..];
    let threads = threads.max(1);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, u64)>();
    let write_result = std::thread::scope(|s| {
        let few = todo.len() < 4 * threads;
        for _ in 0..(if few { 1 } else { threads }) {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= todo.len() || stop.load(Ordering::Relaxed) {
                    return;
                }
                let pos = &todo[i].position;
                let n = if few { pool_perft(pos, depth, table, threads) } else { perft_fast(pos, depth, table) };
                if tx.send((i, n)).is_err() {
                    return;
                }
            });
        }
        drop(tx);
        let result = write_in_order(&mut file, todo, rx, &mut nodes, on_record);
        stop.store(true, Ordering::Relaxed);
        result
    });
    write_result.map_err(io)?;
    file.sync_all().map_err(io)?;
    Ok(UnitSummary { resumed, dropped_partial, computed: todo.len(), nodes })
}

/// perft on a pool of `threads` (a record deep enough to be split).
fn pool_perft(pos: &Position, depth: u32, table: Option<&HashTable>, threads: usize) -> u64 {
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| perft_fast_parallel(pos, depth, table)),
        Err(_) => perft_fast(pos, depth, table),
    }
}

/// Writes results as soon as every earlier one is there; syncs once a second.
fn write_in_order(
    file: &mut File,
    todo: &[UnitRecord],
    rx: mpsc::Receiver<(usize, u64)>,
    nodes: &mut u128,
    on_record: &(dyn Fn() + Sync),
) -> std::io::Result<()> {
    let mut pending = std::collections::BTreeMap::new();
    let mut written = 0;
    let mut synced = Instant::now();
    for (i, n) in rx {
        pending.insert(i, n);
        while let Some(n) = pending.remove(&written) {
            let r = &todo[written];
            file.write_all(format_result_line(&r.fen, r.count, n).as_bytes())?;
            *nodes += u128::from(r.count) * u128::from(n);
            written += 1;
            on_record();
        }
        if synced.elapsed() > Duration::from_secs(1) {
            file.sync_data()?;
            synced = Instant::now();
        }
    }
    if written < todo.len() {
        return Err(std::io::Error::other(format!("a worker stopped after {written} of {} records", todo.len())));
    }
    Ok(())
}
