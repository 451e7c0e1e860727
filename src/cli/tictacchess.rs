//! `chesstool tictacchess`: perft, divide, solve, play and fuzz for
//! TicTacChess, the 4x4 game of the source documents.

#[path = "tictacchess_play.rs"]
mod play;

use super::common::{depth_arg, hash_arg, threads_arg, with_threads, LazyProgress};
use super::hunt::{error_document, write_json, EngineArgs};
use super::Outcome;
use anyhow::{anyhow, Context, Result};
use chesstool::engines::DivideFormat;
use chesstool::perft::HashTable;
use chesstool::tictacchess::perft::{divide, total};
use chesstool::tictacchess::rules::TicTacChess;
use chesstool::tictacchess::solve::file::{TableFile, TableWriter};
use chesstool::tictacchess::solve::index::CONFIGS;
use chesstool::tictacchess::solve::{solve, Phase, Solution, Value};
use chesstool::tictacchess::{Move, Position};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct TicTacChessArgs {
    #[command(subcommand)]
    pub command: TtcCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum TtcCommand {
    /// Count the leaf nodes of the legal move tree.
    Perft(PerftArgs),
    /// Per-move leaf counts (`N@b2: 60`), sorted by move; with an engine
    /// (`--engine-script`) or a saved divide (`--against`), the hunt.
    Divide(Box<DivideArgs>),
    /// The exact value of a position (win, loss or draw for the side to
    /// move, and the distance in plies with best play) from the solved game.
    Solve(SolveArgs),
    /// Play the solved game in the terminal against the engine.
    Play(play::PlayArgs),
    /// Find an engine's bug without knowing where: seeded random games from
    /// the start (or --roots) through --engine-script, every position's move
    /// list compared with ours, the first difference bisected (exit 1).
    Fuzz(Box<super::fuzz::WalkArgs>),
}

/// The root: a position string and moves played from it.
#[derive(clap::Args, Debug, Clone)]
pub struct PosArgs {
    /// Position string `<board> <hand> <side>` (ranks 4 to 1; hand PNBR then
    /// pnbr, or `-`), or `start`.
    #[arg(long, default_value = "start", allow_hyphen_values = true, value_name = "POS")]
    pub pos: String,
    /// Moves to play from the position first.
    ///
    /// Drops `N@b2`, moves `b1c3`.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
}

/// `tictacchess divide` shares perft's arguments; its depth starts at 1.
pub fn with_own_help(ttc: clap::Command) -> clap::Command {
    ttc.mut_subcommand("divide", |divide| {
        divide.mut_arg("depth", |a| a.long_help("Depth of the perft in plies.\n\n1 to 20."))
    })
}

/// The start position's string.
pub const START: &str = "4/4/4/4 PNBRpnbr w";

impl PosArgs {
    pub fn root(&self) -> Result<Position> {
        let text = if self.pos == "start" { START } else { self.pos.as_str() };
        Position::parse(text).map_err(|e| anyhow!("--pos {:?}: {e}", self.pos))
    }

    pub fn resolve(&self) -> Result<Position> {
        self.root()?
            .play_texts(self.moves.iter().map(String::as_str))
            .map_err(|(i, e)| anyhow!("--moves: move {i}: {e}"))
    }
}

#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub position: PosArgs,
    /// Depth of the perft in plies.
    ///
    /// 0 to 20; 0 counts the root alone.
    #[arg(short, long, value_name = "DEPTH", value_parser = depth_arg)]
    pub depth: u32,
    /// Worker threads (0 = all cores).
    #[arg(short = 't', long, value_name = "THREADS", default_value_t = 0, value_parser = threads_arg)]
    pub threads: usize,
    /// Hash table size in MiB, shared by all threads (0 = no table).
    #[arg(long, value_name = "MB", default_value_t = 0, value_parser = hash_arg)]
    pub hash: usize,
    /// Print one JSON document instead of text (see `chesstool docs json`).
    #[arg(long)]
    pub json: bool,
    /// No progress on standard error.
    #[arg(short, long)]
    pub quiet: bool,
}

impl TicTacChessArgs {
    /// Whether the answer is one JSON document on stdout.
    pub fn json(&self) -> bool {
        match &self.command {
            TtcCommand::Perft(a) => a.json,
            TtcCommand::Divide(a) => a.count.json,
            TtcCommand::Solve(a) => a.json,
            TtcCommand::Play(_) => false,
            TtcCommand::Fuzz(a) => a.json,
        }
    }
}

pub fn run(args: TicTacChessArgs) -> Result<Outcome> {
    let json = args.json();
    let mut extra = None;
    let result = match args.command {
        TtcCommand::Perft(a) => perft(a, false),
        TtcCommand::Divide(a) => divide_cmd(*a, &mut extra),
        TtcCommand::Solve(a) => solve_cmd(a),
        TtcCommand::Play(a) => play::run(a),
        TtcCommand::Fuzz(a) => fuzz(&a),
    };
    if let (Err(e), true) = (&result, json) {
        let extra = extra.as_ref().map(|(k, v): &(String, serde_json::Value)| (k.as_str(), v.clone()));
        let _ = write_json(&error_document(e, extra));
    }
    result
}

#[derive(Serialize)]
struct PerftJson<'a> {
    status: &'static str,
    root: String,
    moves: &'a [String],
    position: String,
    depth: u32,
    nodes: u64,
    seconds: f64,
    threads: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<BTreeMap<String, u64>>,
}

#[derive(clap::Args, Debug)]
pub struct DivideArgs {
    #[command(flatten)]
    pub count: PerftArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Compare a saved or pasted divide output instead of running an engine (`-` for standard input).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["engine_uci", "engine_usi", "engine_xboard", "engine_script"])]
    pub against: Option<std::path::PathBuf>,
    /// Layout of the divide under test (the --against file or the engine's output): auto, stockfish, perftree, weiss, dash, total [default: auto].
    #[arg(long, value_name = "FORMAT", value_parser = |s: &str| s.parse::<DivideFormat>())]
    pub against_format: Option<DivideFormat>,
    /// With an engine: descend to the first position whose move list is wrong.
    ///
    /// Not with --against: bisection asks about the positions below the root,
    /// and a pasted divide answers for its root alone.
    #[arg(long)]
    pub bisect: bool,
    #[command(flatten)]
    pub picture: super::hunt::picture::PictureArgs,
}

/// Our divide, or the hunt through the generic engines/verify layer.
fn divide_cmd(args: DivideArgs, extra: &mut Option<(String, serde_json::Value)>) -> Result<Outcome> {
    let hunting = args.against.is_some()
        || args.engine.has_engine()
        || args.bisect
        || args.against_format.is_some()
        || args.picture.svg.is_some();
    if !hunting {
        return perft(args.count, true);
    }
    let count = &args.count;
    if count.depth == 0 {
        return Err(super::usage_error("--depth: divide needs a depth of 1 or more", None));
    }
    for (given, flag) in [(count.hash > 0, "--hash"), (count.threads > 0, "--threads")] {
        if given {
            return Err(super::hunt::usage(&format!(
                "{flag} has no effect in the hunt (the reference divides on all cores)"
            )));
        }
    }
    // Our own messages for a bad position or move (they name the fault).
    let root = count.position.root()?;
    count.position.resolve()?;
    let divide_args = super::divide::DivideArgs {
        position: super::common::PositionArgs {
            fen: root.to_string(),
            moves: count.position.moves.clone(),
            chess960: None,
        },
        depth: count.depth,
        engine: args.engine,
        against: args.against,
        against_format: args.against_format,
        bisect: args.bisect,
        min_depth: None,
        picture: args.picture,
        hash: None,
        threads: None,
        quiet: count.quiet,
        json: count.json,
        variant: Default::default(),
    };
    super::divide::run_with(std::sync::Arc::new(TicTacChess), rayon::current_num_threads(), &divide_args, extra)
}

/// `tictacchess fuzz`: the generic fuzz from the start position.
fn fuzz(args: &super::fuzz::WalkArgs) -> Result<Outcome> {
    let rules = std::sync::Arc::new(TicTacChess);
    let start = chesstool::tictacchess::Position::parse(START).map_err(|e| anyhow!("the start position: {e}"))?;
    super::fuzz::run_with(rules, vec![start], 1, &|_| Vec::new(), args, false, false)
}

fn perft(args: PerftArgs, per_move: bool) -> Result<Outcome> {
    if per_move && args.depth == 0 {
        return Err(super::usage_error("--depth: divide needs a depth of 1 or more", None));
    }
    let root = args.position.root()?;
    let pos = args.position.resolve()?;
    let threads = if args.threads == 0 { rayon::current_num_threads() } else { args.threads };
    let table = (args.hash > 0).then(|| HashTable::try_new(args.hash)).transpose().context("--hash")?;
    let started = Instant::now();
    let counts = if args.depth == 0 {
        Vec::new()
    } else {
        let progress = LazyProgress::new(pos.legal_moves().len() as u64, "perft", args.quiet || args.json);
        let counts = with_threads(threads, || divide(&pos, args.depth, table.as_ref(), &|| progress.inc()))?;
        progress.finish();
        counts
    };
    let nodes =
        if args.depth == 0 { 1 } else { total(&counts).ok_or_else(|| anyhow!("the node count exceeds 2^64 - 1"))? };
    let seconds = started.elapsed().as_secs_f64();
    let sorted: BTreeMap<String, u64> = counts.iter().map(|(m, n)| (m.to_string(), *n)).collect();
    let mut out = std::io::stdout().lock();
    if args.json {
        let report = PerftJson {
            status: "ok",
            root: root.to_string(),
            moves: &args.position.moves,
            position: pos.to_string(),
            depth: args.depth,
            nodes,
            seconds,
            threads,
            divide: per_move.then_some(sorted),
        };
        write_json(&report)?;
    } else if per_move {
        for (m, n) in &sorted {
            writeln!(out, "{m}: {n}")?;
        }
        writeln!(out, "\nNodes searched: {nodes}")?;
    } else {
        writeln!(out, "Position: {pos}")?;
        let mnps = nodes as f64 / seconds.max(1e-9) / 1e6;
        writeln!(out, "Nodes: {nodes}  Time: {seconds:.3} s  Speed: {mnps:.1} Mnps")?;
    }
    Ok(Outcome::Success)
}

#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub position: PosArgs,
    /// The solved table: probed if the file exists, else solved and written.
    #[arg(long, value_name = "FILE")]
    pub table: Option<std::path::PathBuf>,
    /// Worker threads (0 = all cores).
    ///
    /// For a solve.
    #[arg(short = 't', long, value_name = "THREADS", default_value_t = 0, value_parser = threads_arg)]
    pub threads: usize,
    /// Print one JSON document instead of text (see `chesstool docs json`).
    #[arg(long)]
    pub json: bool,
    /// No progress on standard error.
    #[arg(short, long)]
    pub quiet: bool,
}

/// The value of the position and of each move, from a table file or a solve.
pub enum Oracle {
    File(TableFile),
    Memory(Solution),
}

impl Oracle {
    pub fn value(&self, pos: &Position) -> Result<Value> {
        Ok(match self {
            Oracle::File(t) => t.value(pos)?,
            Oracle::Memory(s) => s.value(pos),
        })
    }

    pub fn children(&self, pos: &Position) -> Result<Vec<(Move, Value)>> {
        Ok(match self {
            Oracle::File(t) => t.children(pos)?,
            Oracle::Memory(s) => s.children(pos),
        })
    }

    /// The moves that keep the value (for the side to move) best.
    pub fn best_moves(&self, pos: &Position) -> Result<(Value, Vec<Move>)> {
        let value = self.value(pos)?;
        let best = self.children(pos)?.into_iter().filter(|&(_, v)| v.before() == value).map(|(m, _)| m).collect();
        Ok((value, best))
    }
}

/// Opens `--table FILE` if it exists, else solves (and writes the file).
pub fn oracle(table: Option<&std::path::Path>, threads: usize, quiet: bool) -> Result<(Oracle, &'static str)> {
    if let Some(path) = table.filter(|p| p.exists()) {
        return Ok((Oracle::File(TableFile::open(path).context("--table")?), "table"));
    }
    // Made before the solve: an unwritable --table fails in a moment, not
    // after minutes of work.
    let writer = table.map(TableWriter::create).transpose().context("--table")?;
    let bar = SolveProgress::new(quiet);
    let solution = with_threads(threads, || solve(&|phase, rows| bar.update(phase, rows)))??;
    bar.finish();
    if let Some(writer) = writer {
        writer.finish(&solution).context("--table")?;
    }
    Ok((Oracle::Memory(solution), "solve"))
}

/// One bar per phase of a solve (58,625 rows each).
struct SolveProgress {
    bar: Option<indicatif::ProgressBar>,
    log: bool,
    started: Instant,
    phase: std::sync::Mutex<Option<Phase>>,
}

impl SolveProgress {
    fn new(quiet: bool) -> SolveProgress {
        use std::io::IsTerminal;
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = indicatif::ProgressBar::new(CONFIGS as u64);
            bar.set_style(
                indicatif::ProgressStyle::with_template("solve {msg:>9} [{elapsed_precise}] {wide_bar} {percent:>3}%")
                    .expect("valid template"),
            );
            bar
        });
        let log = !quiet && bar.is_none();
        SolveProgress { bar, log, started: Instant::now(), phase: std::sync::Mutex::new(None) }
    }

    fn update(&self, phase: Phase, rows: u64) {
        let mut current = self.phase.lock().unwrap_or_else(|e| e.into_inner());
        if *current != Some(phase) {
            *current = Some(phase);
            let name = match phase {
                Phase::Start => "start".to_string(),
                Phase::Ply(n) => format!("ply {n}"),
                Phase::Verify => "verify".to_string(),
            };
            match &self.bar {
                Some(bar) => {
                    bar.reset();
                    bar.set_message(name);
                }
                // Not a terminal: one line per phase, for logs.
                None if self.log => self.log_line(&name),
                None => {}
            }
        }
        if let Some(bar) = &self.bar {
            bar.set_position(rows);
        }
    }

    /// One line per phase for logs: wall time, and the process's CPU time
    /// (the solve's figure of merit on a shared machine).
    fn log_line(&self, name: &str) {
        eprintln!("solve: {name} at {:.1} s (CPU {:.1} s)", self.started.elapsed().as_secs_f64(), cpu_seconds());
    }

    fn finish(&self) {
        if self.log {
            self.log_line("done");
        }
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// User plus system CPU time of this process so far.
fn cpu_seconds() -> f64 {
    // Safety: getrusage only writes the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

fn describe(v: Value) -> String {
    match v {
        Value::Win(d) => format!("win in {d} plies"),
        Value::Loss(0) => "loss (the opponent has just won)".to_string(),
        Value::Loss(d) => format!("loss in {d} plies"),
        Value::Draw => "draw".to_string(),
    }
}

/// The keys (`pos`, `value`, `plies`), after `status`.
#[derive(Serialize)]
struct SolveJson<'a> {
    status: &'static str,
    pos: String,
    value: &'static str,
    plies: Option<u32>,
    best: &'a [String],
    source: &'static str,
    seconds: f64,
}

fn solve_cmd(args: SolveArgs) -> Result<Outcome> {
    let pos = args.position.resolve()?;
    let started = Instant::now();
    let (oracle, source) = oracle(args.table.as_deref(), args.threads, args.quiet || args.json)?;
    let (value, best) = oracle.best_moves(&pos)?;
    let seconds = started.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    let best_text: Vec<String> = best.iter().map(Move::to_string).collect();
    if args.json {
        let doc = SolveJson {
            status: "ok",
            pos: pos.to_string(),
            value: value.word(),
            plies: value.plies(),
            best: &best_text,
            source,
            seconds,
        };
        write_json(&doc)?;
    } else {
        writeln!(out, "Position: {pos}")?;
        writeln!(out, "Value: {} for {} to move", describe(value), pos.turn().name())?;
        if !best_text.is_empty() {
            writeln!(out, "Best moves: {}", best_text.join(" "))?;
        }
        writeln!(out, "From: {source} ({seconds:.3} s)")?;
    }
    Ok(Outcome::Success)
}
