//! `chesstool perft`: node counts of our generator, optionally with the
//! Chess Programming Wiki's statistics columns.

use super::common::{mnps, with_threads, LazyProgress, PositionArgs};
use super::Outcome;
use anyhow::{bail, Context, Result};
use chesstool::perft::{divide_fast, perft_stats, HashTable, Stats};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Table};
use serde::Serialize;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Depth in plies.
    #[arg(short, long)]
    pub depth: u32,
    /// Worker threads (default: all cores).
    #[arg(short = 't', long, default_value_t = 0, value_parser = super::common::threads_arg)]
    pub threads: usize,
    /// Also count captures, e.p., castles, promotions, checks, discovery
    /// checks, double checks and checkmates for every depth.
    #[arg(long)]
    pub stats: bool,
    /// Hash table size in MiB, shared by all threads (0 = no table).
    #[arg(long, value_name = "MB", default_value_t = 0)]
    pub hash: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
    #[command(flatten)]
    pub variant: super::variant::VariantArgs,
}

#[derive(Serialize)]
struct PerftReport<'a> {
    fen: String,
    moves: &'a [String],
    depth: u32,
    nodes: u64,
    seconds: f64,
    mnps: f64,
    threads: usize,
    hash_mb: usize,
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
    if args.variant.is_set() {
        let p = &args.position;
        return super::variant::perft(&args.variant, &p.fen, &p.moves, args.depth, args.threads, args.json);
    }
    if args.depth > chesstool::perft::MAX_DEPTH {
        bail!("--depth {} is beyond any feasible perft (at most {})", args.depth, chesstool::perft::MAX_DEPTH);
    }
    let pos = args.position.resolve()?;
    let threads = if args.threads == 0 { rayon::current_num_threads() } else { args.threads };
    if args.hash > 0 && args.stats {
        bail!("--hash does not apply to --stats (statistics are counted move by move)");
    }
    let table = (args.hash > 0).then(|| HashTable::try_new(args.hash)).transpose().context("--hash")?;
    let started = Instant::now();
    let (nodes, stats) = if args.stats {
        let rows = with_threads(threads, || perft_stats(&pos, args.depth))?;
        (rows.last().map_or(1, |r| r.nodes), Some(rows))
    } else {
        let progress = LazyProgress::new(pos.legal_moves().len() as u64, "perft", args.quiet || args.json);
        let counts = with_threads(threads, || divide_fast(&pos, args.depth, table.as_ref(), &|| progress.inc()))?;
        progress.finish();
        let nodes = if args.depth == 0 { 1 } else { checked_total(&counts)? };
        (nodes, None)
    };
    let seconds = started.elapsed().as_secs_f64();

    if args.json {
        let report = PerftReport {
            fen: args.position.root()?.to_fen(),
            moves: &args.position.moves,
            depth: args.depth,
            nodes,
            seconds,
            mnps: mnps(nodes, seconds),
            threads,
            hash_mb: args.hash,
            stats: stats
                .map(|rows| rows.into_iter().enumerate().map(|(i, stats)| StatsRow { depth: i + 1, stats }).collect()),
        };
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(Outcome::Success);
    }
    println!("Position: {}", pos.to_fen());
    if let Some(rows) = &stats {
        println!("{}", stats_table(rows));
    }
    println!("Nodes: {nodes}  Time: {seconds:.3} s  Speed: {:.1} Mnps", mnps(nodes, seconds));
    Ok(Outcome::Success)
}

fn stats_table(rows: &[Stats]) -> Table {
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
    for (i, s) in rows.iter().enumerate() {
        table.add_row(vec![
            (i + 1).to_string(),
            s.nodes.to_string(),
            s.captures.to_string(),
            s.en_passants.to_string(),
            s.castles.to_string(),
            s.promotions.to_string(),
            s.checks.to_string(),
            s.discovery_checks.to_string(),
            s.double_checks.to_string(),
            s.checkmates.to_string(),
        ]);
    }
    for i in 1..10 {
        table.column_mut(i).expect("ten columns").set_cell_alignment(comfy_table::CellAlignment::Right);
    }
    table
}

/// The sum of the root moves' counts; an overflow of u64 is an error, never a wrap.
fn checked_total(counts: &[(chesstool::Move, u64)]) -> Result<u64> {
    counts
        .iter()
        .try_fold(0u64, |sum, &(_, n)| sum.checked_add(n))
        .ok_or_else(|| anyhow::anyhow!("the node count exceeds 2^64 - 1"))
}
