//! `chesstool perft`: node counts of our generator, optionally with the
//! statistics columns of the Chess Programming Wiki and The Grand Chess Tree.

use super::common::{depth_arg, hash_arg, mnps, print_json, thread_count, thread_pool, LazyProgress, PositionArgs};
use super::{no_effect, Outcome};
use anyhow::{Context, Result};
use chesstool::perft::{leaf_stats, perft_fast, perft_fast_parallel, perft_stats_fast, HashTable, Stats, StatsTable};
use chesstool::Position;
use comfy_table::{presets::UTF8_FULL_CONDENSED, Table};
use rayon::prelude::*;
use serde::Serialize;
use std::io::Write;
use std::time::Instant;

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct PerftArgs {
    /// Distributed perft: split into work units, compute a unit, merge.
    #[command(subcommand)]
    pub action: Option<super::perft_dist::PerftAction>,
    #[command(flatten)]
    pub position: PositionArgs,
    /// Depth of the perft in plies.
    ///
    /// 0 to 20; 0 counts the root alone.
    // The default only fills the field under a subcommand: clap checks
    // `required` against the command line alone.
    #[arg(short, long, value_name = "DEPTH", value_parser = depth_arg, required = true, default_value_t = 0, hide_default_value = true)]
    pub depth: u32,
    /// Worker threads (0 = all cores).
    #[arg(short = 't', long, value_name = "THREADS", default_value_t = 0, value_parser = super::common::threads_arg)]
    pub threads: usize,
    /// Also count captures, e.p., castles, promotions, checks and mates for
    /// every depth from 0: the Chess Programming Wiki's columns, then The
    /// Grand Chess Tree's checks and mates by kind (direct, single
    /// discovered, direct discovered, double discovered).
    #[arg(long)]
    pub stats: bool,
    /// Hash table size in MiB, shared by all threads (0 = no table).
    ///
    /// With --stats the table holds whole statistics rows.
    #[arg(long, value_name = "MB", default_value_t = 0, value_parser = hash_arg)]
    pub hash: usize,
    /// Print one JSON document instead of text (see `chesstool docs json`).
    #[arg(long)]
    pub json: bool,
    /// No progress on standard error.
    ///
    /// A progress bar shows on a terminal after the first second, with the
    /// speed and the time left.
    #[arg(short, long)]
    pub quiet: bool,
    #[command(flatten)]
    pub variant: super::variant::VariantArgs,
}

#[derive(Serialize)]
struct PerftReport {
    status: &'static str,
    root: String,
    moves: Vec<String>,
    position: String,
    depth: u32,
    nodes: u64,
    seconds: f64,
    mnps: f64,
    threads: usize,
    hash_mb: usize,
    /// The share of the table's entries in use at the end (with `--hash`).
    #[serde(skip_serializing_if = "Option::is_none")]
    hash_filled: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<Vec<StatsRow>>,
}

#[derive(Serialize)]
struct StatsRow {
    depth: usize,
    #[serde(flatten)]
    stats: Stats,
}

pub fn run(args: PerftArgs) -> Result<Outcome> {
    if let Some(action) = args.action {
        return super::perft_dist::run(action);
    }
    if args.variant.is_set() {
        let p = &args.position;
        if p.is_chess960() {
            return Err(no_effect("--chess960", "with --variant"));
        }
        if args.stats {
            return Err(no_effect("--stats", "with --variant (the statistics columns are chess's)"));
        }
        if args.hash > 0 {
            return Err(super::variant::no_hash_table());
        }
        return super::variant::perft(&args.variant, &p.fen, &p.moves, args.depth, args.threads, args.json);
    }
    let root = args.position.root()?;
    let moves = args.position.uci_moves()?;
    let pos = args.position.resolve()?;
    let threads = thread_count(args.threads);
    let pool = thread_pool(threads)?;
    let hashed = args.hash > 0;
    let table = (hashed && !args.stats)
        .then(|| HashTable::try_for_search(args.hash, args.depth))
        .transpose()
        .context("--hash")?;
    let stats_table = (hashed && args.stats)
        .then(|| StatsTable::try_for_search(args.hash, args.depth))
        .transpose()
        .context("--hash")?;
    let progress = LazyProgress::weighted(0, "perft", args.quiet || args.json);
    let started = Instant::now();
    let (nodes, stats) = if args.stats {
        let rows = pool.install(|| stats_with_progress(&pos, args.depth, stats_table.as_ref(), &progress));
        (rows.last().map_or(1, |r| r.nodes), Some(rows))
    } else {
        (pool.install(|| count(&pos, args.depth, table.as_ref(), &progress))?, None)
    };
    progress.finish();
    let seconds = started.elapsed().as_secs_f64();
    let hash_filled = table.as_ref().map(HashTable::filled).or(stats_table.as_ref().map(StatsTable::filled));

    if args.json {
        print_json(&PerftReport {
            status: "ok",
            root: root.to_fen(),
            moves,
            position: pos.to_fen(),
            depth: args.depth,
            nodes,
            seconds,
            mnps: mnps(nodes, seconds),
            threads,
            hash_mb: args.hash,
            hash_filled,
            stats: stats
                .map(|rows| rows.into_iter().enumerate().map(|(depth, stats)| StatsRow { depth, stats }).collect()),
        })?;
        return Ok(Outcome::Success);
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "Position: {}", pos.to_fen())?;
    if let Some(rows) = &stats {
        writeln!(out, "{}", wiki_table(rows))?;
        writeln!(out, "{}", checks_table(rows))?;
    }
    writeln!(out, "Nodes: {nodes}  Time: {seconds:.3} s  Speed: {:.1} Mnps", mnps(nodes, seconds))?;
    if let Some(filled) = hash_filled {
        writeln!(out, "Hash: {} MiB, {:.1}% of the entries in use", args.hash, 100.0 * filled)?;
    }
    Ok(Outcome::Success)
}

/// The positions two plies below `pos`: the units of work, spread over the
/// threads, whose counts feed the progress bar (hundreds of them, so the bar
/// moves smoothly).
fn grandchildren(pos: &Position) -> Vec<Position> {
    let mut out = Vec::new();
    for &m in pos.legal_moves().iter() {
        let child = pos.play(m);
        out.extend(child.legal_moves().iter().map(|&r| child.play(r)));
    }
    out
}

/// Each unit's share of the work, guessed from a shallow count below it
/// (subtree sizes keep their proportions fairly well with depth): only when
/// a bar can show, and only for deep runs where it matters.
fn weights(units: &[Position], deep: bool, progress: &LazyProgress) -> Vec<u64> {
    const PROBE: u32 = 3;
    if !progress.can_show() || !deep {
        return vec![1; units.len()];
    }
    units.par_iter().map(|u| perft_fast(u, PROBE, None).max(1)).collect()
}

/// Leaf nodes at `depth` below `pos` on the current pool; the sum is checked
/// (an overflow is an error, never a wrap).
fn count(pos: &Position, depth: u32, table: Option<&HashTable>, progress: &LazyProgress) -> Result<u64> {
    if depth < 3 {
        return Ok(perft_fast_parallel(pos, depth, table));
    }
    let units = grandchildren(pos);
    let weights = weights(&units, depth >= 6, progress);
    progress.extend(weights.iter().sum());
    let counts: Vec<u64> = units
        .par_iter()
        .zip(&weights)
        .map(|(u, &w)| {
            // Each unit on one thread: the units are the parallel split (as
            // the library's own two-ply split), splitting them further costs more than it balances.
            let n = perft_fast(u, depth - 2, table);
            progress.add_nodes(n);
            progress.inc_by(w);
            n
        })
        .collect();
    counts.iter().try_fold(0u64, |sum, &n| sum.checked_add(n)).context("the node count exceeds 2^64 - 1")
}

/// The statistics rows from depth 0 (the root: one node) to `depth`. The
/// shallower depths are a few percent of the work (and fill the table for the
/// last); the last is split into the positions two plies down, each counted
/// on one thread, so that the bar can move.
fn stats_with_progress(pos: &Position, depth: u32, table: Option<&StatsTable>, progress: &LazyProgress) -> Vec<Stats> {
    let mut rows = vec![Stats { nodes: 1, ..Stats::default() }];
    if depth < 3 {
        rows.extend(perft_stats_fast(pos, depth, table));
        return rows;
    }
    rows.extend(perft_stats_fast(pos, depth - 1, table));
    let units = grandchildren(pos);
    let weights = weights(&units, depth >= 6, progress);
    progress.extend(weights.iter().sum());
    let last = units
        .par_iter()
        .zip(&weights)
        .map(|(u, &w)| {
            let s = leaf_stats(u, depth - 2, table);
            progress.add_nodes(s.nodes);
            progress.inc_by(w);
            s
        })
        .reduce(Stats::default, |mut a, b| {
            a += b;
            a
        });
    rows.push(last);
    rows
}

fn right_aligned(table: &mut Table, columns: usize) {
    for i in 1..columns {
        table.column_mut(i).expect("the columns just set").set_cell_alignment(comfy_table::CellAlignment::Right);
    }
}

/// The Chess Programming Wiki's columns.
fn wiki_table(rows: &[Stats]) -> Table {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(vec![
        "Depth",
        "Nodes",
        "Captures",
        "E.p.",
        "Castles",
        "Promotions",
        "Checks",
        "Discovery checks",
        "Double checks",
        "Checkmates",
    ]);
    for (depth, s) in rows.iter().enumerate() {
        let cells = [s.nodes, s.captures, s.en_passants, s.castles, s.promotions];
        let checks = [s.checks(), s.discovery_checks(), s.double_checks(), s.checkmates()];
        table.add_row(std::iter::once(depth as u64).chain(cells).chain(checks).map(|n| n.to_string()));
    }
    right_aligned(&mut table, 10);
    table
}

/// The Grand Chess Tree's checks (that do not mate) and mates, by kind.
fn checks_table(rows: &[Stats]) -> Table {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    let mut header = vec!["Depth".to_string()];
    for what in ["checks", "mates"] {
        for kind in ["Direct", "Single\ndiscovered", "Direct\ndiscovered", "Double\ndiscovered", "Total"] {
            header.push(format!("{kind}\n{what}"));
        }
    }
    table.set_header(header);
    for (depth, s) in rows.iter().enumerate() {
        let checks =
            [s.direct_checks, s.single_discovered_checks, s.direct_discovered_checks, s.double_discovered_checks];
        let mates = [s.direct_mates, s.single_discovered_mates, s.direct_discovered_mates, s.double_discovered_mates];
        let cells =
            std::iter::once(depth as u64).chain(checks).chain([s.total_checks()]).chain(mates).chain([s.total_mates()]);
        table.add_row(cells.map(|n| n.to_string()));
    }
    right_aligned(&mut table, 11);
    table
}
