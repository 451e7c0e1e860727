//! `chesstool suite`: run perft suites (EPD or python-chess `.perft`) against
//! our generator; exit 1 on any mismatch.

use super::common::{mnps, LazyProgress};
use super::Outcome;
use anyhow::{Context, Result};
use chesstool::perft::{perft_fast_parallel, HashTable};
use chesstool::position::Position;
use chesstool::verify::suite::{parse_suite, SuiteEntry};
use comfy_table::{presets::UTF8_FULL_CONDENSED, CellAlignment, Table};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct SuiteArgs {
    /// Suite files: EPD lines `FEN ;D1 20 ;D2 400` or python-chess `.perft` blocks.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Skip depths above this.
    #[arg(long, value_name = "D")]
    pub max_depth: Option<u32>,
    /// Skip counts whose expected node count is above this.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(short = 't', long, default_value_t = 0, value_parser = super::common::threads_arg)]
    pub threads: usize,
    /// Hash table size in MiB, shared by all threads and positions (0 = no table).
    #[arg(long, value_name = "MB", default_value_t = 0)]
    pub hash: usize,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
    #[command(flatten)]
    pub engine: super::divide::EngineArgs,
    #[command(flatten)]
    pub variant: super::variant::VariantArgs,
}

/// One count that disagreed.
#[derive(Debug, Serialize)]
pub struct Mismatch {
    pub origin: String,
    pub fen: String,
    pub depth: u32,
    pub expected: u64,
    pub got: u64,
    /// With an engine: where bisection against the reference ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub witness: Option<super::divide::ReportJson>,
}

#[derive(Debug, Default, Serialize)]
struct FileSummary {
    file: String,
    positions: usize,
    checked: usize,
    passed: usize,
    failed: usize,
    skipped: usize,
    nodes: u64,
    seconds: f64,
}

#[derive(Serialize)]
struct SuiteReport {
    status: &'static str,
    files: Vec<FileSummary>,
    mismatches: Vec<Mismatch>,
}

pub fn run(mut args: SuiteArgs) -> Result<Outcome> {
    if args.variant.is_set() {
        return super::variant::suite(&args.variant, &args.files, args.max_depth, args.json);
    }
    args.engine.hash_mb = args.hash;
    // Read and check every file before any work starts.
    let mut suites = Vec::new();
    for path in &args.files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
        suites.push((name.clone(), parse_suite(&name, &text)?));
    }
    let selected = |entry: &SuiteEntry| -> Vec<(u32, u64)> {
        entry
            .counts
            .iter()
            .copied()
            .filter(|&(d, n)| args.max_depth.is_none_or(|m| d <= m) && args.max_nodes.is_none_or(|m| n <= m))
            .collect()
    };
    let total: usize = suites.iter().flat_map(|(_, es)| es.iter().map(|e| selected(e).len())).sum();
    let progress = LazyProgress::new(total as u64, "suite", args.quiet || args.json);

    let table = (args.hash > 0).then(|| HashTable::try_new(args.hash)).transpose().context("--hash")?;
    // One pool for the whole run: building one per count costs more than
    // the small counts themselves.
    let pool =
        rayon::ThreadPoolBuilder::new().num_threads(args.threads).build().context("cannot start the thread pool")?;
    let mut engine = super::divide::SuiteEngine::start(&args.engine)?;
    let mut summaries = Vec::new();
    let mut mismatches = Vec::new();
    for (name, entries) in &suites {
        let started = Instant::now();
        let mut summary = FileSummary { file: name.clone(), positions: entries.len(), ..Default::default() };
        for entry in entries {
            let pos = Position::from_fen(&entry.fen).with_context(|| entry.origin.clone())?;
            let checks = selected(entry);
            summary.skipped += entry.counts.len() - checks.len();
            for (depth, expected) in checks {
                let got = match engine.as_mut() {
                    Some(e) => e.count(&pos, depth)?,
                    None => pool.install(|| perft_fast_parallel(&pos, depth, table.as_ref())),
                };
                summary.checked += 1;
                summary.nodes += got;
                if got == expected {
                    summary.passed += 1;
                } else {
                    summary.failed += 1;
                    mismatches.push(Mismatch {
                        origin: entry.origin.clone(),
                        fen: entry.fen.clone(),
                        depth,
                        expected,
                        got,
                        witness: match engine.as_mut() {
                            Some(e) => e.witness(&pos, depth)?,
                            None => None,
                        },
                    });
                }
                progress.inc();
            }
        }
        summary.seconds = started.elapsed().as_secs_f64();
        summaries.push(summary);
    }
    progress.finish();

    let outcome = if mismatches.is_empty() { Outcome::Success } else { Outcome::Mismatch };
    if args.json {
        let status = if mismatches.is_empty() { "match" } else { "mismatch" };
        println!("{}", serde_json::to_string_pretty(&SuiteReport { status, files: summaries, mismatches })?);
    } else {
        println!("{}", summary_table(&summaries));
        if !mismatches.is_empty() {
            println!("\n{} mismatch(es):\n{}", mismatches.len(), mismatch_table(&mismatches));
            print!("{}", super::divide::suite_witness_text(&mismatches));
        }
    }
    Ok(outcome)
}

fn summary_table(summaries: &[FileSummary]) -> Table {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(vec!["File", "Positions", "Checked", "Passed", "Failed", "Skipped", "Nodes", "Time (s)", "Mnps"]);
    for s in summaries {
        table.add_row(vec![
            s.file.clone(),
            s.positions.to_string(),
            s.checked.to_string(),
            s.passed.to_string(),
            s.failed.to_string(),
            s.skipped.to_string(),
            s.nodes.to_string(),
            format!("{:.2}", s.seconds),
            format!("{:.1}", mnps(s.nodes, s.seconds)),
        ]);
    }
    for i in 1..9 {
        table.column_mut(i).expect("nine columns").set_cell_alignment(CellAlignment::Right);
    }
    table
}

pub fn mismatch_table(mismatches: &[Mismatch]) -> Table {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(vec!["Where", "FEN", "Depth", "Expected", "Got"]);
    for m in mismatches {
        table.add_row(vec![
            m.origin.clone(),
            m.fen.clone(),
            m.depth.to_string(),
            m.expected.to_string(),
            m.got.to_string(),
        ]);
    }
    table
}
