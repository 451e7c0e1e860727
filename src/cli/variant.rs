//! `--variant NAME --variant-path FILE`: the variant code paths of perft,
//! divide, suite and bench (named after Fairy-Stockfish's `UCI_Variant` and
//! `VariantPath`).

use super::common::{mnps, with_threads};
use super::{EngineFailure, Outcome};
use anyhow::{anyhow, Context, Result};
use chesstool::rules::Rules;
use chesstool::variants::count::perft;
use chesstool::variants::hunt::iccs::MoveNotation;
use chesstool::variants::hunt::VariantRules;
use chesstool::variants::variant::{builtin, user_ini};
use chesstool::variants::{Position, Variant};
use comfy_table::{presets::UTF8_FULL_CONDENSED, CellAlignment, Table};
use serde::Serialize;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// The variant argument group.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct VariantArgs {
    /// A variant (Fairy-Stockfish's UCI_Variant): a built-in (`chesstool
    /// variant list`) or one defined in --variant-path.
    #[arg(long, value_name = "NAME", value_parser = variant_name)]
    pub variant: Option<String>,
    /// A variants.ini file in Fairy-Stockfish's format (its VariantPath);
    /// its sections may use built-ins as templates (`[mycapa:capablanca]`).
    #[arg(long, value_name = "FILE", requires = "variant")]
    pub variant_path: Option<String>,
    /// The square names of the moves read and printed (--moves, divides, engines, pastes): `fsf`
    /// (Fairy-Stockfish's, ranks from 1: `h3e3`), `iccs` (xiangqi's, as Pikafish and UCCI engines
    /// write it, ranks from 0: `h2e2`; boards of at most ten ranks) or `usi` (the shogi world's:
    /// moves `7g7f`, `P*5e`, positions in SFEN) [default: usi with --engine-usi, else fsf].
    #[arg(long, value_name = "NOTATION", requires = "variant")]
    pub notation: Option<MoveNotation>,
}

/// A `--variant` value: a name, not an empty or blank string.
fn variant_name(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        return Err("a variant name is required (`chesstool variant list` lists the built-ins)".into());
    }
    Ok(text.to_string())
}

impl VariantArgs {
    pub fn is_set(&self) -> bool {
        self.variant.is_some()
    }

    fn path(&self) -> &str {
        self.variant_path.as_deref().unwrap_or_default()
    }

    /// The rules of one variant, printing in USI notation by default when
    /// the engine under test speaks USI (`usi_engine`).
    pub fn rules_for(&self, usi_engine: bool) -> Result<VariantRules> {
        let default = if usi_engine { MoveNotation::Usi } else { MoveNotation::Fairy };
        let args = VariantArgs { notation: Some(self.notation.unwrap_or(default)), ..self.clone() };
        args.rules()
    }

    /// The rules of one variant.
    pub fn rules(&self) -> Result<VariantRules> {
        let name = self.variant.as_deref().unwrap_or_default();
        let variant = if self.variant_path.is_some() {
            user_ini::load_with_builtins(self.path(), name).map_err(|e| anyhow!("--variant-path: {e}"))?
        } else {
            builtin::load(name).map_err(|e| anyhow!("--variant: {e}"))?
        };
        for w in &variant.warnings {
            eprintln!("warning: {w}");
        }
        let notation = self.notation.unwrap_or_default();
        if notation == MoveNotation::Iccs && variant.geometry.height > 10 {
            let message = format!(
                "--notation iccs: {} has {} ranks; ICCS names at most ten (0-9)",
                variant.name, variant.geometry.height
            );
            return Err(super::usage_error(message, None));
        }
        Ok(VariantRules::new(variant, self.path()).with_notation(notation))
    }
}

/// The root and the position after `moves`.
fn resolve(rules: &VariantRules, fen: &str, moves: &[String]) -> Result<(Position, Position)> {
    let root = rules.parse_position(fen).with_context(|| format!("--fen {fen:?}"))?;
    let mut pos = root.clone();
    for (i, text) in moves.iter().enumerate() {
        let mv = rules.read_move(&pos, text).map_err(|e| anyhow!("--moves: move {} {text:?}: {e}", i + 1))?;
        pos = rules.play(&pos, mv);
    }
    Ok((root, pos))
}

#[derive(Serialize)]
struct PerftJson<'a> {
    status: &'static str,
    variant: &'a str,
    root: String,
    moves: &'a [String],
    position: String,
    depth: u32,
    nodes: u64,
    seconds: f64,
    threads: usize,
}

/// `perft --variant`.
pub fn perft(
    args: &VariantArgs,
    fen: &str,
    moves: &[String],
    depth: u32,
    threads: usize,
    json: bool,
) -> Result<Outcome> {
    let rules = args.rules()?;
    let (root, pos) = resolve(&rules, fen, moves)?;
    let variant = &rules.variant;
    let started = Instant::now();
    let (nodes, used) =
        with_threads(threads, || (perft::perft_parallel(variant, &pos, depth), rayon::current_num_threads()))?;
    let seconds = started.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    if json {
        let report = PerftJson {
            status: "ok",
            variant: &variant.name,
            root: variant.fen(&root),
            moves,
            position: variant.fen(&pos),
            depth,
            nodes,
            seconds,
            threads: used,
        };
        super::common::print_json(&report)?;
    } else {
        writeln!(out, "Variant: {} ({}x{})", variant.name, variant.geometry.width, variant.geometry.height)?;
        writeln!(out, "Position: {}", variant.fen(&pos))?;
        writeln!(out, "Nodes: {nodes}  Time: {seconds:.3} s  Speed: {:.1} Mnps", mnps(nodes, seconds))?;
    }
    Ok(Outcome::Success)
}

/// `divide --variant`: our divide, or the hunt against an engine, through
/// the one generic hunt.
pub fn divide(args: &super::divide::DivideArgs, extra: &mut Option<(String, serde_json::Value)>) -> Result<Outcome> {
    if args.position.is_chess960() {
        return Err(super::no_effect("--chess960", "with --variant"));
    }
    if args.hash.is_some_and(|h| h > 0) {
        return Err(no_hash_table());
    }
    let rules = args.variant.rules_for(args.engine.engine_usi.is_some())?;
    let threads = args.threads.unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().context("cannot start the thread pool")?;
    let used = pool.current_num_threads();
    pool.install(|| super::divide::run_with(std::sync::Arc::new(rules), used, args, extra))
}

/// `--hash` given with `--variant` (divide, suite, bench).
pub fn no_hash_table() -> anyhow::Error {
    super::no_effect("--hash", "with --variant (the variant generator has no hash table)")
}

/// `suite --variant`: the generic suite with the variant's rules.
pub fn suite(args: &super::suite::SuiteArgs) -> Result<Outcome> {
    if args.hash > 0 {
        return Err(no_hash_table());
    }
    let rules = args.variant.rules_for(args.engine.engine_usi.is_some())?;
    let pool =
        rayon::ThreadPoolBuilder::new().num_threads(args.threads).build().context("cannot start the thread pool")?;
    let used = pool.current_num_threads();
    pool.install(|| super::suite::run_with(std::sync::Arc::new(rules), used, args))
}

/// A UCI engine that knows variants (Fairy-Stockfish), driven for `go perft`.
pub struct VariantEngine {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    timeout: Duration,
}

impl VariantEngine {
    pub fn start(cmd: &str, timeout: Duration) -> Result<VariantEngine> {
        let words = chesstool::engines::split_command(cmd)
            .ok_or_else(|| anyhow!("--against-uci {cmd:?}: unbalanced quotes"))?;
        let words = chesstool::engines::find::resolve_program(words).map_err(|e| anyhow!("--against-uci: {e}"))?;
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| anyhow::Error::new(EngineFailure(format!("{cmd}: cannot start: {e}"))))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = VariantEngine { name: cmd.into(), child, stdin, lines: rx, timeout };
        engine.send("uci")?;
        engine.wait_for("uciok")?;
        Ok(engine)
    }

    fn fail(&self, what: String) -> anyhow::Error {
        anyhow::Error::new(EngineFailure(format!("{}: {what}", self.name)))
    }

    fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| self.fail(format!("cannot write: {e}")))
    }

    fn wait_for(&mut self, prefix: &str) -> Result<Vec<String>> {
        let deadline = Instant::now() + self.timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    lines.push(line);
                    if done {
                        return Ok(lines);
                    }
                    if lines.len() > 1_000_000 {
                        return Err(self.fail("floods its output".into()));
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    return Err(self.fail(format!("no {prefix:?} within {:.0} s", self.timeout.as_secs_f64())))
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => return Err(self.fail(format!("exited before {prefix:?}"))),
            }
        }
    }

    /// Sets the options, the position, and returns `go perft`'s total.
    pub fn perft(&mut self, options: &[(String, String)], fen: &str, depth: u32) -> Result<u64> {
        for (name, value) in options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.send("isready")?;
        self.wait_for("readyok")?;
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go perft {depth}"))?;
        let lines = self.wait_for("Nodes searched")?;
        let last = lines.last().expect("one line");
        last["Nodes searched:".len()..].trim().parse().map_err(|_| self.fail(format!("garbage total {last:?}")))
    }
}

impl VariantEngine {
    /// The engine process's CPU time so far (user + system), from /proc; `None` elsewhere.
    pub fn cpu_seconds(&self) -> Option<f64> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).ok()?;
        let after = &stat[stat.rfind(')')? + 2..];
        let fields: Vec<&str> = after.split_whitespace().collect();
        let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
        // Safety: sysconf has no preconditions.
        let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
        Some(ticks / hz.max(1.0))
    }
}

/// This process's CPU time (all threads).
fn own_cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // Safety: a valid clock id and a pointer to a live timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

impl Drop for VariantEngine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Serialize)]
struct BenchRow {
    variant: String,
    depth: u32,
    nodes: u64,
    runs: usize,
    seconds: f64,
    mnps: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    engine_nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    engine_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ratio: Option<f64>,
    /// Median CPU seconds of our perft (all threads).
    cpu_seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    engine_cpu_seconds: Option<f64>,
    /// Engine CPU time over ours: the fair ratio on a busy machine.
    #[serde(skip_serializing_if = "Option::is_none")]
    cpu_ratio: Option<f64>,
}

/// The first depth (2 to 9) whose perft of `pos` takes half a second or more,
/// unless the next depth would take more than `DEPTH_BUDGET` seconds (estimated
/// from the growth of the node count): games with a thousand moves a ply
/// (amazons, duck) would otherwise jump from milliseconds to many minutes.
fn timed_depth(variant: &Variant, pos: &Position, pool: &rayon::ThreadPool) -> u32 {
    const DEPTH_BUDGET: f64 = 10.0;
    let (mut depth, mut before) = (2, perft::perft_parallel(variant, pos, 1).max(1));
    loop {
        let started = Instant::now();
        let nodes = pool.install(|| perft::perft_parallel(variant, pos, depth));
        let seconds = started.elapsed().as_secs_f64();
        let next = seconds * nodes as f64 / before as f64;
        if seconds >= 0.5 || next > DEPTH_BUDGET || depth >= 9 || nodes == 0 {
            return depth;
        }
        (depth, before) = (depth + 1, nodes.max(1));
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// `bench --variant A,B --variant-path FILE [--against-uci FSF]`: our perft
/// of each start position (at `depth`, or as `timed_depth` chooses) against
/// the engine's `go perft`, alternating runs, medians.
#[allow(clippy::too_many_arguments)]
pub fn bench(
    args: &VariantArgs,
    against: Option<&str>,
    threads: usize,
    depth: Option<u32>,
    runs: u32,
    min_time: f64,
    timeout: Duration,
    json: bool,
) -> Result<Outcome> {
    let names: Vec<String> =
        args.variant.as_deref().unwrap_or_default().split(',').map(|s| s.trim().to_string()).collect();
    let mut engine = against.map(|cmd| VariantEngine::start(cmd, timeout)).transpose()?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().context("cannot start the thread pool")?;
    let used = pool.current_num_threads();
    let mut rows = Vec::new();
    let mut ok = true;
    for name in &names {
        let one = VariantArgs { variant: Some(name.clone()), ..args.clone() };
        let rules = one.rules()?;
        let variant: &Variant = &rules.variant;
        let pos = rules.parse_position("startpos")?;
        let depth = depth.unwrap_or_else(|| timed_depth(variant, &pos, &pool));
        let options = rules.uci_options(&pos);
        let fen = variant.fen(&pos);
        if let Some(e) = engine.as_mut() {
            e.perft(&options, &fen, 1)?;
        }
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        let (mut ours_cpu, mut theirs_cpu) = (Vec::new(), Vec::new());
        let (mut nodes, mut engine_nodes) = (0, None);
        let mut spent = 0.0;
        while ours.len() < runs as usize || (spent < min_time && ours.len() < 51) {
            let started = Instant::now();
            let cpu = own_cpu_seconds();
            nodes = pool.install(|| perft::perft_parallel(variant, &pos, depth));
            ours_cpu.push(own_cpu_seconds() - cpu);
            let t = started.elapsed().as_secs_f64();
            ours.push(t);
            spent += t;
            if let Some(e) = engine.as_mut() {
                let cpu = e.cpu_seconds();
                let started = Instant::now();
                engine_nodes = Some(e.perft(&options, &fen, depth)?);
                theirs.push(started.elapsed().as_secs_f64());
                if let (Some(a), Some(b)) = (cpu, e.cpu_seconds()) {
                    theirs_cpu.push(b - a);
                }
            }
        }
        let cpu_seconds = median(&mut ours_cpu);
        let engine_cpu_seconds = (!theirs_cpu.is_empty()).then(|| median(&mut theirs_cpu));
        ok &= engine_nodes.is_none_or(|n| n == nodes);
        let n_runs = ours.len();
        let seconds = median(&mut ours);
        let engine_seconds = (!theirs.is_empty()).then(|| median(&mut theirs));
        rows.push(BenchRow {
            variant: name.clone(),
            depth,
            nodes,
            runs: n_runs,
            seconds,
            mnps: mnps(nodes, seconds),
            engine_nodes,
            engine_seconds,
            ratio: engine_seconds.map(|t| t / seconds.max(1e-9)),
            cpu_seconds,
            engine_cpu_seconds,
            cpu_ratio: engine_cpu_seconds.map(|t| t / cpu_seconds.max(1e-3)),
        });
    }
    let geomean = |v: Vec<f64>| (!v.is_empty()).then(|| (v.iter().map(|r| r.ln()).sum::<f64>() / v.len() as f64).exp());
    let geo = geomean(rows.iter().filter_map(|r| r.ratio).collect());
    let geo_cpu = geomean(rows.iter().filter_map(|r| r.cpu_ratio).collect());
    let mut out = std::io::stdout().lock();
    if json {
        #[derive(Serialize)]
        struct Report {
            status: &'static str,
            threads: usize,
            engine: Option<String>,
            rows: Vec<BenchRow>,
            geometric_mean_ratio: Option<f64>,
            geometric_mean_cpu_ratio: Option<f64>,
        }
        let status = if ok { "ok" } else { "mismatch" };
        let report = Report {
            status,
            threads: used,
            engine: against.map(String::from),
            rows,
            geometric_mean_ratio: geo,
            geometric_mean_cpu_ratio: geo_cpu,
        };
        super::common::print_json(&report)?;
    } else {
        let mut table = Table::new();
        table.load_preset(UTF8_FULL_CONDENSED);
        let mut header = vec!["Variant", "Depth", "Nodes", "Runs", "Time (s)", "Mnps", "CPU (s)"];
        if against.is_some() {
            header.extend(["Engine time (s)", "Ratio", "Engine CPU (s)", "CPU ratio"]);
        }
        table.set_header(header);
        for r in &rows {
            let mut cells = vec![
                r.variant.clone(),
                r.depth.to_string(),
                r.nodes.to_string(),
                r.runs.to_string(),
                format!("{:.3}", r.seconds),
                format!("{:.1}", r.mnps),
                format!("{:.3}", r.cpu_seconds),
            ];
            if let (Some(t), Some(q)) = (r.engine_seconds, r.ratio) {
                cells.extend([format!("{t:.3}"), format!("{q:.2}x")]);
                match (r.engine_cpu_seconds, r.cpu_ratio) {
                    (Some(c), Some(q)) => cells.extend([format!("{c:.3}"), format!("{q:.2}x")]),
                    _ => cells.extend([String::new(), String::new()]),
                }
            }
            table.add_row(cells);
        }
        if let Some(g) = geo {
            let mut cells = vec!["geometric mean".to_string()];
            cells.extend(std::iter::repeat_n(String::new(), 7));
            cells.push(format!("{g:.2}x"));
            cells.push(String::new());
            cells.push(geo_cpu.map(|g| format!("{g:.2}x")).unwrap_or_default());
            table.add_row(cells);
        }
        for i in 1..=10 {
            if let Some(c) = table.column_mut(i) {
                c.set_cell_alignment(CellAlignment::Right);
            }
        }
        let runs = rows.iter().map(|r| r.runs);
        writeln!(out, "{}", super::bench::header("variant perft", used, 0, runs, "variant", against.is_some()))?;
        writeln!(out, "{table}")?;
        for r in rows.iter().filter(|r| r.engine_nodes.is_some_and(|n| n != r.nodes)) {
            writeln!(
                out,
                "MISMATCH: {} depth {}: ours {}, engine {}",
                r.variant,
                r.depth,
                r.nodes,
                r.engine_nodes.unwrap_or(0)
            )?;
        }
    }
    if !ok {
        return Ok(Outcome::Mismatch);
    }
    Ok(Outcome::Success)
}
