//! `chesstool bench`: our perft speed on a fixed list of positions, every
//! count checked against the published numbers, optionally side by side with
//! a UCI engine's `go perft` (alternating runs, medians, ratio, geometric mean).

use super::common::{hash_arg, mnps, plural, print_json, thread_pool, LazyProgress};
use super::{no_effect, EngineFailure, Outcome};
use anyhow::{Context, Result};
use chesstool::engines::find::resolve_program;
use chesstool::engines::{split_command, DivideFormat, Divider, Line, UciEngine, XboardEngine};
use chesstool::perft::{perft_fast_parallel, HashTable};
use chesstool::position::Position;
use comfy_table::{presets::UTF8_FULL_CONDENSED, CellAlignment, Table};
use serde::Serialize;
use std::io::Write;
use std::time::{Duration, Instant};

/// Times our perft on five standard positions and checks every count.
///
/// Runs are alternated with the engine's (ours, theirs, ours, ...) so that a
/// busy machine hurts both alike; the median of `--runs` is reported. The
/// engine is started and answers a depth-1 request before any timing; each of
/// its runs is timed from sending `go perft N` (after `isready`/`readyok` and
/// `position fen ...`) to its `Nodes searched:` line, so its start-up is not
/// counted. Short positions get more runs (see --min-time), since one run of
/// a tenth of a second on a shared machine is mostly noise. With --hash every
/// run of ours gets a fresh table.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Worker threads (0 = all cores).
    ///
    /// For our perft; the engine's `go perft` is single-threaded.
    #[arg(short = 't', long, value_name = "THREADS", default_value_t = 0, value_parser = super::common::threads_arg)]
    pub threads: usize,
    /// Hash table size in MiB, shared by all threads (0 = no table).
    ///
    /// For our perft; each run gets a fresh table.
    #[arg(long, value_name = "MB", default_value_t = 0, value_parser = hash_arg)]
    pub hash: usize,
    /// A UCI engine with `go perft` to compare with (e.g. /usr/games/stockfish).
    #[arg(long, value_name = "CMD", conflicts_with = "against_xboard")]
    pub against_uci: Option<String>,
    /// An xboard engine with `perft N` to compare with (e.g. /usr/games/sjeng; standard chess only).
    #[arg(long, value_name = "CMD")]
    pub against_xboard: Option<String>,
    /// Timed runs per position, at least (1 to 1000; the median is reported).
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = runs_arg)]
    pub runs: u32,
    /// Runs of a position go on (alternating, up to 51) until ours have taken
    /// this many seconds in all (0 to 3600); 0 = exactly --runs.
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0, value_parser = min_time_arg)]
    pub min_time: f64,
    /// Smaller depths (a few seconds in all).
    #[arg(long)]
    pub quick: bool,
    /// Depth of the perft in plies.
    ///
    /// With --variant only: the depth of every variant's perft (1 to 20),
    /// instead of the first depth that takes half a second here (or the
    /// deepest whose next depth would take over ten seconds).
    #[arg(long, value_name = "DEPTH", value_parser = super::common::positive_depth_arg)]
    pub depth: Option<u32>,
    /// Seconds each engine answer may take before the engine is killed (more than 0, at most 604800) [default: 600].
    ///
    /// Stockfish's Kiwipete depth 6 takes about a minute.
    #[arg(long, value_name = "SECONDS", value_parser = super::common::timeout_arg)]
    pub timeout: Option<f64>,
    /// Seconds an engine may take for its handshake (`uci` -> `uciok`, `isready` -> `readyok`, xboard's `feature done=1`, `pong`) [default: 10].
    #[arg(long, value_name = "SECONDS", value_parser = super::common::timeout_arg)]
    pub handshake_timeout: Option<f64>,
    /// Print one JSON document instead of text (see `chesstool docs json`).
    #[arg(long)]
    pub json: bool,
    /// No progress on standard error.
    #[arg(short, long)]
    pub quiet: bool,
    #[command(flatten)]
    pub variant: super::variant::VariantArgs,
}

/// A benchmark position with the depths and counts we time.
struct Case {
    name: &'static str,
    fen: &'static str,
    /// (depth, published count) for the full and the --quick run.
    full: (u32, u64),
    quick: (u32, u64),
}

/// The counts are those published on the Chess Programming Wiki's "Perft
/// Results" page (positions 1, 2 = Kiwipete, 3, 4 and 5).
const CASES: [Case; 5] = [
    Case {
        name: "startpos",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        full: (7, 3_195_901_860),
        quick: (6, 119_060_324),
    },
    Case {
        name: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        full: (6, 8_031_647_685),
        quick: (5, 193_690_690),
    },
    Case {
        name: "pos3",
        fen: "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        full: (7, 178_633_661),
        quick: (6, 11_030_083),
    },
    Case {
        name: "pos4",
        fen: "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        full: (6, 706_045_033),
        quick: (5, 15_833_292),
    },
    Case {
        name: "pos5",
        fen: "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        full: (5, 89_941_194),
        quick: (4, 2_103_487),
    },
];

#[derive(Serialize)]
struct Row {
    name: &'static str,
    root: &'static str,
    depth: u32,
    /// The published count.
    reference: u64,
    nodes: u64,
    /// Timed runs of each side (the medians are reported).
    runs: usize,
    seconds: f64,
    mnps: f64,
    /// The engine's count.
    #[serde(skip_serializing_if = "Option::is_none")]
    engine: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    engine_seconds: Option<f64>,
    /// Engine time / our time: how many times faster we are.
    #[serde(skip_serializing_if = "Option::is_none")]
    ratio: Option<f64>,
}

#[derive(Serialize)]
struct Report {
    status: &'static str,
    threads: usize,
    hash_mb: usize,
    /// --runs: the fewest timed runs per position.
    min_runs: u32,
    min_time: f64,
    quick: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    engine_command: Option<String>,
    rows: Vec<Row>,
    #[serde(skip_serializing_if = "Option::is_none")]
    geometric_mean_ratio: Option<f64>,
}

pub fn run(mut args: BenchArgs) -> Result<Outcome> {
    if args.against_xboard.is_some() && args.variant.is_set() {
        return Err(no_effect("--against-xboard", "with --variant (the variant bench drives UCI engines)"));
    }
    let xboard = args.against_xboard.is_some();
    if xboard {
        args.against_uci = args.against_xboard.take();
    }
    if args.timeout.is_some() && args.against_uci.is_none() {
        return Err(no_effect("--timeout", "without --against-uci (it limits the engine's answers)"));
    }
    if args.handshake_timeout.is_some() && (args.against_uci.is_none() || args.variant.is_set()) {
        return Err(no_effect("--handshake-timeout", "without --against-uci in standard chess"));
    }
    if args.depth.is_some() && !args.variant.is_set() {
        return Err(no_effect(
            "--depth",
            "without --variant (the five positions have fixed depths; --quick makes them smaller)",
        ));
    }
    if args.variant.is_set() {
        if args.quick {
            return Err(no_effect("--quick", "with --variant (its depths are found by timing; --depth sets one)"));
        }
        if args.hash > 0 {
            return Err(super::variant::no_hash_table());
        }
        let timeout = Duration::from_secs_f64(args.timeout.unwrap_or(super::common::DEFAULT_TIMEOUT));
        let against = args.against_uci.as_deref();
        return super::variant::bench(
            &args.variant,
            against,
            args.threads,
            args.depth,
            args.runs,
            args.min_time,
            timeout,
            args.json,
        );
    }
    let mut engine = match &args.against_uci {
        Some(cmd) => {
            let words = split_command(cmd).with_context(|| format!("--against-uci {cmd:?}: unbalanced quotes"))?;
            anyhow::ensure!(!words.is_empty(), "--against-uci: empty command");
            let words = resolve_program(words).map_err(|e| anyhow::anyhow!("--against-uci: {e}"))?;
            let timeout = Duration::from_secs_f64(args.timeout.unwrap_or(super::common::DEFAULT_TIMEOUT));
            let chess = std::sync::Arc::new(chesstool::chess::Chess::new());
            let mut opts = chesstool::engines::EngineOptions::new(timeout, DivideFormat::Auto);
            if let Some(h) = args.handshake_timeout {
                opts.handshake = Duration::from_secs_f64(h);
            }
            let engine: Box<dyn Divider<chesstool::chess::Chess>> = if xboard {
                Box::new(XboardEngine::with_options(chess, cmd, words, opts))
            } else {
                Box::new(UciEngine::with_options(chess, cmd, words, opts))
            };
            Some(engine)
        }
        None => None,
    };
    let pool = thread_pool(args.threads)?;
    let threads = pool.current_num_threads();
    if let Some(e) = engine.as_mut() {
        // Start the engine (and page in its tables) outside any timing.
        let line = Line::new(Position::startpos());
        let answer = e.divide(&line, 1).map_err(engine_failure)?;
        if answer.nodes() != 20 {
            return Err(anyhow::Error::new(EngineFailure(format!(
                "{}: go perft 1 from the start position gave {} nodes, not 20",
                e.name(),
                answer.nodes()
            ))));
        }
    }

    let per_run = if engine.is_some() { 2 } else { 1 };
    let per_case = per_run * args.runs as u64;
    let progress = LazyProgress::new(per_case * CASES.len() as u64, "bench", args.quiet || args.json);
    let mut rows = Vec::new();
    for case in &CASES {
        let (depth, expected) = if args.quick { case.quick } else { case.full };
        let pos = Position::from_fen(case.fen).expect("benchmark FENs are valid");
        let line = Line::new(pos);
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        let (mut nodes, mut engine_nodes) = (0, None);
        let mut spent = 0.0;
        while more_runs(ours.len(), args.runs, spent, args.min_time) {
            if ours.len() >= args.runs as usize {
                progress.extend(per_run);
            }
            let table = (args.hash > 0).then(|| HashTable::try_new(args.hash)).transpose().context("--hash")?;
            let started = Instant::now();
            nodes = pool.install(|| perft_fast_parallel(&pos, depth, table.as_ref()));
            ours.push(started.elapsed().as_secs_f64());
            spent += ours[ours.len() - 1];
            drop(table);
            progress.inc();
            if let Some(e) = engine.as_mut() {
                let started = Instant::now();
                let answer = e.divide(&line, depth).map_err(engine_failure)?;
                theirs.push(started.elapsed().as_secs_f64());
                engine_nodes = Some(answer.nodes());
                progress.inc();
            }
        }
        let runs = ours.len();
        let seconds = median(&mut ours);
        let engine_seconds = (!theirs.is_empty()).then(|| median(&mut theirs));
        rows.push(Row {
            name: case.name,
            root: case.fen,
            depth,
            reference: expected,
            nodes,
            runs,
            seconds,
            mnps: mnps(nodes, seconds),
            engine: engine_nodes,
            engine_seconds,
            ratio: engine_seconds.map(|t| t / seconds.max(1e-9)),
        });
    }
    progress.finish();

    let ratios: Vec<f64> = rows.iter().filter_map(|r| r.ratio).collect();
    let geometric_mean_ratio =
        (!ratios.is_empty()).then(|| (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp());
    let ok = rows.iter().all(|r| r.nodes == r.reference && r.engine.is_none_or(|n| n == r.reference));
    let outcome = if ok { Outcome::Success } else { Outcome::Mismatch };
    if args.json {
        print_json(&Report {
            status: if ok { "ok" } else { "mismatch" },
            threads,
            hash_mb: args.hash,
            min_runs: args.runs,
            min_time: args.min_time,
            quick: args.quick,
            engine_command: args.against_uci.clone(),
            rows,
            geometric_mean_ratio,
        })?;
        return Ok(outcome);
    }
    let mut out = std::io::stdout().lock();
    let runs = rows.iter().map(|r| r.runs);
    writeln!(out, "{}", header("perft", threads, args.hash, runs, "position", args.against_uci.is_some()))?;
    writeln!(out, "{}", table(&rows, args.against_uci.as_deref(), geometric_mean_ratio))?;
    for r in rows.iter().filter(|r| r.nodes != r.reference) {
        writeln!(out, "MISMATCH: {} depth {}: we counted {}, published {}", r.name, r.depth, r.nodes, r.reference)?;
    }
    for r in rows.iter().filter(|r| r.engine.is_some_and(|n| n != r.reference)) {
        let n = r.engine.unwrap_or_default();
        writeln!(out, "MISMATCH: {} depth {}: the engine counted {n}, published {}", r.name, r.depth, r.reference)?;
    }
    Ok(outcome)
}

/// bench's `--variant` takes several variants, where the other subcommands
/// that share the argument group take one: its help says so.
pub fn with_own_help(bench: clap::Command) -> clap::Command {
    bench.mut_arg("variant", |a| {
        a.help(
            "The variants to time, comma-separated (Fairy-Stockfish's UCI_Variant): built-ins (`chesstool variant \
             list`) or defined in --variant-path",
        )
        .long_help(None::<&str>)
    })
}

/// The one header line of both benches: `chesstool perft: 2 threads, hash 64
/// MiB; medians of 3-19 runs per position; the engine's `go perft` is
/// single-threaded`.
pub fn header(
    what: &str,
    threads: usize,
    hash_mb: usize,
    runs: impl Iterator<Item = usize> + Clone,
    per: &str,
    engine: bool,
) -> String {
    let hash = if hash_mb > 0 { format!(", hash {hash_mb} MiB") } else { String::new() };
    let fewest = runs.clone().min().unwrap_or(0);
    let most = runs.max().unwrap_or(0);
    let spread = if fewest == most { format!("{fewest}") } else { format!("{fewest}-{most}") };
    let engine = if engine { "; the engine's `go perft` is single-threaded" } else { "" };
    let threads = plural(threads as u64, "thread", "threads");
    format!(
        "chesstool {what}: {threads}{hash}; medians of {spread} {} per {per}{engine}",
        if most == 1 { "run" } else { "runs" }
    )
}

fn engine_failure(e: chesstool::engines::EngineError) -> anyhow::Error {
    if e.is_engine_failure() {
        anyhow::Error::new(EngineFailure(e.to_string()))
    } else {
        anyhow::anyhow!("{e}")
    }
}

/// Most runs a position gets, however short it is.
const MAX_RUNS: usize = 51;

/// Whether a position needs another run: fewer than `min_runs` so far, or
/// ours have taken less than `min_time` seconds in all (up to `MAX_RUNS`).
fn more_runs(done: usize, min_runs: u32, spent: f64, min_time: f64) -> bool {
    done < min_runs as usize || (spent < min_time && done < MAX_RUNS)
}

fn min_time_arg(s: &str) -> Result<f64, String> {
    super::common::seconds_in(s, true, 3600.0, "a number of seconds")
}

fn runs_arg(s: &str) -> Result<u32, String> {
    super::common::integer_in(s, 1, 1000, "a number of runs").map(|n| n as u32)
}

fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    let n = times.len();
    if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2.0
    }
}

fn table(rows: &[Row], engine: Option<&str>, geomean: Option<f64>) -> Table {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    let mut header = vec!["Position", "Depth", "Nodes", "Time (s)", "Mnps"];
    if engine.is_some() {
        header.extend(["Engine time (s)", "Ratio"]);
    }
    table.set_header(header);
    for r in rows {
        let mark = if r.nodes == r.reference { "" } else { " ✗" };
        let mut cells = vec![
            r.name.to_string(),
            r.depth.to_string(),
            format!("{}{mark}", r.nodes),
            format!("{:.3}", r.seconds),
            format!("{:.1}", r.mnps),
        ];
        if let (Some(t), Some(ratio)) = (r.engine_seconds, r.ratio) {
            let mark = if r.engine == Some(r.reference) { "" } else { " ✗" };
            cells.extend([format!("{t:.3}{mark}"), format!("{ratio:.2}x")]);
        }
        table.add_row(cells);
    }
    if let Some(g) = geomean {
        table.add_row(vec!["geometric mean", "", "", "", "", "", &format!("{g:.2}x")]);
    }
    let columns = if engine.is_some() { 7 } else { 5 };
    for i in 1..columns {
        table.column_mut(i).expect("column exists").set_cell_alignment(CellAlignment::Right);
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
    }

    #[test]
    fn short_positions_get_more_runs() {
        // --runs is a minimum, whatever the time.
        assert!(more_runs(2, 3, 100.0, 2.0));
        assert!(!more_runs(3, 3, 2.5, 2.0));
        // Short runs go on until the time is reached, up to the cap.
        assert!(more_runs(3, 3, 0.3, 2.0));
        assert!(!more_runs(MAX_RUNS, 3, 0.3, 2.0));
        // 0 means exactly --runs.
        assert!(!more_runs(3, 3, 0.0, 0.0));
    }

    #[test]
    fn min_time_must_be_a_non_negative_number() {
        assert_eq!(min_time_arg("2.5"), Ok(2.5));
        assert_eq!(min_time_arg("0"), Ok(0.0));
        for bad in ["-1", "nan", "inf", "two", "", "1e300", "3601"] {
            assert!(min_time_arg(bad).is_err(), "{bad}");
        }
    }
}
