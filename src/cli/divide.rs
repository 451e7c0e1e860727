//! `chesstool divide`: per-move perft counts of our generator in Stockfish's
//! format, streamed as each root move is counted; with an engine
//! (`--engine-uci`, `--engine-script`, `--against`), the engine's divide
//! compared with a reference and, with `--bisect`, the hunt for the first
//! position whose move list is wrong. The work is generic over the game
//! (`run_with`); `run` sets up chess.

use super::common::{plural, positive_depth_arg, read_input_bytes};
use super::hunt::live::Status;
use super::hunt::report::{diff_table_named, witness_text, ComparisonJson, LineJson, WitnessJson};
use super::hunt::{
    engine_error, error_document, is_broken_pipe, resolve_line, root_support, usage, verify_error, write_json,
    EngineArgs, EngineCalls,
};
use super::Outcome;
use anyhow::Context;
use chesstool::chess::Chess;
use chesstool::engines::{DivideFormat, Divider, Line, SavedDivide, Skipped};
use chesstool::rules::Rules;
use chesstool::verify::bisect::{Checker, Report, Step};
use chesstool::verify::diff::Side;
use chesstool::verify::paste::paste_notes;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct DivideArgs {
    #[command(flatten)]
    pub position: super::common::PositionArgs,
    /// Depth of the perft in plies.
    ///
    /// 1 to 20.
    #[arg(long, short, value_name = "DEPTH", value_parser = positive_depth_arg, allow_negative_numbers = true)]
    pub depth: u32,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Compare a saved or pasted divide output instead of running an engine (`-` for standard input).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["engine_uci", "engine_usi", "engine_xboard", "engine_script"])]
    pub against: Option<PathBuf>,
    /// Layout of the divide under test (the --against file or the engine's output): auto, stockfish, perftree, weiss, dash, total [default: auto].
    #[arg(long, value_name = "FORMAT", value_parser = parse_format)]
    pub against_format: Option<DivideFormat>,
    /// With an engine: descend to the first position whose move list is wrong.
    ///
    /// Not with --against: bisection asks about the positions below the root,
    /// and a pasted divide answers for its root alone.
    #[arg(long)]
    pub bisect: bool,
    /// Never ask either side below this depth (for an engine that cannot answer `go perft 1`): a
    /// hunt stops at this depth and its witness says so [default: 1].
    #[arg(long, value_name = "DEPTH", value_parser = positive_depth_arg, allow_negative_numbers = true, requires = "bisect")]
    pub min_depth: Option<u32>,
    /// Hash table size in MiB, shared by all threads (0 = no table) [default: 0].
    ///
    /// For our generator.
    #[arg(long, value_name = "MB", allow_negative_numbers = true)]
    pub hash: Option<usize>,
    /// Worker threads (0 = all cores) [default: 0].
    ///
    /// For our generator.
    #[arg(short = 't', long, value_name = "THREADS", value_parser = super::common::threads_arg, allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// No progress on standard error.
    ///
    /// On a terminal the hunt shows each count or bisection step as it comes.
    #[arg(short, long)]
    pub quiet: bool,
    /// Print one JSON document instead of text (see `chesstool docs json`).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub picture: super::hunt::picture::PictureArgs,
    #[command(flatten)]
    pub variant: super::variant::VariantArgs,
}

fn parse_format(s: &str) -> Result<DivideFormat, String> {
    s.parse()
}

pub fn run(args: DivideArgs) -> anyhow::Result<Outcome> {
    let mut extra = None;
    let result = run_chess(&args, &mut extra);
    if let Err(err) = &result {
        if args.json && !is_broken_pipe(err) {
            let extra = extra.as_ref().map(|(k, v): &(String, serde_json::Value)| (k.as_str(), v.clone()));
            write_json(&error_document(err, extra))?;
        }
    }
    result
}

fn run_chess(args: &DivideArgs, extra: &mut Option<(String, serde_json::Value)>) -> anyhow::Result<Outcome> {
    if args.variant.is_set() {
        return super::variant::divide(args, extra);
    }
    let ours_used = args.engine.reference_uci.is_none() && args.engine.reference_script.is_none();
    if !ours_used && args.engine.has_engine() {
        for (given, flag) in [(args.hash.is_some(), "--hash"), (args.threads.is_some(), "--threads")] {
            if given {
                return Err(usage(&format!(
                    "{flag} has no effect when both sides are engines (it sets our generator)"
                )));
            }
        }
    }
    let chess = Chess::new()
        .chess960(args.position.is_chess960())
        .with_hash(args.hash.unwrap_or(0))
        .context("--hash")?
        .with_threads(args.threads.unwrap_or(0))
        .context("--threads")?;
    let threads = chess.threads();
    run_with(Arc::new(chess), threads, args, extra)
}

/// `divide` for any game whose rules are set up: our divide, or the hunt.
/// `extra` receives context for a JSON error document (the engine's calls).
pub fn run_with<R: Rules + 'static>(
    rules: Arc<R>,
    threads: usize,
    args: &DivideArgs,
    extra: &mut Option<(String, serde_json::Value)>,
) -> anyhow::Result<Outcome> {
    args.engine.check_usage(args.against.is_some())?;
    if args.bisect && args.against.is_some() {
        return Err(super::usage_error(
            "--bisect cannot be used with --against: bisection asks the engine about the positions below the root, \
             and a pasted divide answers for its root alone",
            Some("run your engine with --engine-uci CMD or --engine-script CMD to bisect".to_string()),
        ));
    }
    let hunting = args.against.is_some() || args.engine.has_engine();
    if !hunting {
        if args.bisect {
            return Err(usage(
                "--bisect needs an engine: --engine-uci CMD, --engine-xboard CMD or --engine-script CMD",
            ));
        }
        if args.against_format.is_some() {
            return Err(usage("--against-format has no effect without --against, --engine-uci or --engine-script"));
        }
    }
    let max = rules.max_depth();
    if args.depth > max {
        return Err(usage(&format!("--depth: {} is not a depth (1 to {max})", args.depth)));
    }
    if let Some(min) = args.min_depth.filter(|&m| m > args.depth) {
        return Err(usage(&format!("--min-depth {min} is more than --depth {}", args.depth)));
    }
    let inputs: Vec<&std::path::Path> = args.against.iter().map(|p| p.as_path()).collect();
    args.picture.check(hunting, args.json, &inputs)?;
    let line = resolve_line(&*rules, &args.position.fen_text()?, &args.position.moves)?;
    if hunting {
        hunt(&rules, args, &line, extra)
    } else {
        ours(&*rules, &line, args.depth, threads, args.json)
    }
}

/// The vocabulary's document for our divide.
#[derive(Serialize)]
struct DivideJson {
    status: &'static str,
    #[serde(flatten)]
    line: LineJson,
    depth: u32,
    divide: BTreeMap<String, u64>,
    nodes: u64,
    seconds: f64,
    threads: usize,
}

/// Our generator alone: Stockfish's format, moves sorted by their text,
/// each line printed as soon as it and the lines before it are counted.
fn ours<R: Rules>(rules: &R, line: &Line<R>, depth: u32, threads: usize, json: bool) -> anyhow::Result<Outcome> {
    let pos = line.position(rules);
    let started = Instant::now();
    let out = std::io::stdout();
    if json {
        let divide: BTreeMap<String, u64> =
            rules.divide(&pos, depth).into_iter().map(|(m, n)| (rules.move_text(&pos, m), n)).collect();
        let nodes = divide.values().fold(0u64, |a, &n| a.saturating_add(n));
        let doc = DivideJson {
            status: "ok",
            line: LineJson::new(rules, line),
            depth,
            divide,
            nodes,
            seconds: started.elapsed().as_secs_f64(),
            threads,
        };
        write_json(&doc)?;
        return Ok(Outcome::Success);
    }
    let mut order: Vec<String> = rules.legal_moves(&pos).into_iter().map(|m| rules.move_text(&pos, m)).collect();
    order.sort();
    let printer = Mutex::new(Printer { order, next: 0, done: HashMap::new(), nodes: 0 });
    rules.divide_each(&pos, depth, &|m, n| {
        let text = rules.move_text(&pos, m);
        let mut p = printer.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = p.push(text, n) {
            // Nobody reads any more (`| head`): stop now rather than count on.
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
        }
    });
    let p = printer.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut out = out.lock();
    writeln!(out, "\nNodes searched: {}", p.nodes)?;
    out.flush()?;
    Ok(Outcome::Success)
}

/// Prints divide lines in sorted order as they complete.
struct Printer {
    order: Vec<String>,
    next: usize,
    done: HashMap<String, u64>,
    nodes: u64,
}

impl Printer {
    fn push(&mut self, text: String, n: u64) -> std::io::Result<()> {
        self.nodes = self.nodes.saturating_add(n);
        self.done.insert(text, n);
        let mut out = std::io::stdout().lock();
        while let Some(n) = self.order.get(self.next).and_then(|m| self.done.get(m)) {
            writeln!(out, "{}: {n}", self.order[self.next])?;
            self.next += 1;
        }
        out.flush()
    }
}

/// Skipped lines of a paste, by kind.
#[derive(Serialize)]
struct SkippedJson {
    banner: usize,
    uci: usize,
    echo: usize,
    timing: usize,
    debug: usize,
    board: usize,
    prose: usize,
    bom: bool,
}

impl From<Skipped> for SkippedJson {
    fn from(s: Skipped) -> SkippedJson {
        SkippedJson {
            banner: s.banner,
            uci: s.uci,
            echo: s.echo,
            timing: s.timing,
            debug: s.debug,
            board: s.board,
            prose: s.prose,
            bom: s.bom,
        }
    }
}

/// The vocabulary's document for a hunt.
#[derive(Serialize)]
struct HuntJson {
    status: &'static str,
    #[serde(flatten)]
    line: LineJson,
    depth: u32,
    /// The engine under test; absent when a pasted divide stands for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    engine: Option<EngineCalls>,
    /// The pasted or saved divide under test (`--against FILE`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pasted: Option<PastedJson>,
    reference: EngineCalls,
    comparison: ComparisonJson,
    witness: Option<WitnessJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped_lines: Option<SkippedJson>,
    notes: Vec<String>,
    seconds: f64,
}

/// The divide under test when it is a file: `{"file"}`.
#[derive(Serialize)]
struct PastedJson {
    file: String,
}

/// The engine (or a saved divide) against the reference, perhaps bisected.
fn hunt<R: Rules + 'static>(
    rules: &Arc<R>,
    args: &DivideArgs,
    line: &Line<R>,
    extra: &mut Option<(String, serde_json::Value)>,
) -> anyhow::Result<Outcome> {
    let format = args.against_format.unwrap_or_default();
    let mut saved: Option<SavedDivide> = None;
    let mut engine: Box<dyn Divider<R>> = match &args.against {
        Some(path) => {
            let (name, bytes) = read_input_bytes(path, chesstool::input::DIVIDE)?;
            let divide = SavedDivide::parse_at(&name, &String::from_utf8_lossy(&bytes), format, Some(args.depth))
                .map_err(engine_error)?;
            if let (Some(kinds), false) = (divide.skipped().describe(), args.quiet) {
                // A closed stderr (`2>&1 | head`) must not end the run.
                let _ = writeln!(
                    std::io::stderr(),
                    "note: {name}: skipped {} that {} not divide data ({kinds})",
                    plural(divide.skipped().lines() as u64, "line", "lines"),
                    if divide.skipped().lines() == 1 { "is" } else { "are" }
                );
            }
            saved = Some(divide.clone());
            Box::new(divide)
        }
        None => args
            .engine
            .engine(rules, format, args.position.is_chess960())?
            .expect("an engine, or hunting would be false"),
    };
    let mut reference = args.engine.reference(rules, args.position.is_chess960())?;
    let engine_name = engine.name();
    // An engine that lacks an option the root needs is refused before any
    // question: its answer would be about another game.
    let reference_name = reference.name();
    if let Err(e) = root_support(engine.as_mut(), reference.as_mut(), &line.root) {
        if args.against.is_none() {
            *extra = Some(EngineCalls { name: engine_name, calls: 0 }.context());
        }
        return Err(verify_error(e));
    }
    let status = Status::new(args.quiet || args.json);
    let started = Instant::now();
    let show_step = |s: &Step| {
        let path = if s.path.is_empty() { "(start)".to_string() } else { s.path.join(" ") };
        status.set(format!(
            "bisect: depth {}, path {path}; {}, {:.1} s waiting for the engine",
            s.depth,
            plural(s.engine_calls, "engine call", "engine calls"),
            s.engine_wait.as_secs_f64()
        ));
    };
    let live_line = |side: Side, m: &str, n: u64| status.set(format!("{side}: {m}: {n}"));
    let mut checker = Checker::new(&**rules, engine.as_mut(), reference.as_mut());
    checker.min_depth = args.min_depth.unwrap_or(1);
    checker = if args.bisect { checker.on_step(show_step) } else { checker.on_line(&live_line) };
    let result = checker.check(line, args.depth, args.bisect);
    let (calls, reference_calls) = (checker.engine_calls, checker.reference_calls);
    drop(checker);
    status.finish();
    let skipped = engine.skipped();
    if let (Some(s), None, false) = (skipped, &args.against, args.quiet || args.json) {
        // UCI chatter is what engines print between answers: not worth a note.
        if let Some(kinds) = (Skipped { uci: 0, ..s }).describe() {
            let lines = s.lines() - s.uci;
            let _ = writeln!(
                std::io::stderr(),
                "note: {engine_name}: skipped {} of its answers that {} not divide data ({kinds})",
                plural(lines as u64, "line", "lines"),
                if lines == 1 { "is" } else { "are" }
            );
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let report = match result {
        Ok(report) => report,
        Err(e) => {
            *extra = Some(match args.against {
                Some(_) => ("pasted".to_string(), serde_json::json!({ "file": engine_name })),
                None => EngineCalls { name: engine_name, calls }.context(),
            });
            return Err(verify_error(e));
        }
    };
    let mut notes = match (&saved, &report.witness) {
        (Some(s), Some(_)) => paste_notes(&**rules, &line.position(rules), args.depth, s.divide(), &report.root),
        _ => Vec::new(),
    };
    notes.extend(report.root.zero_count_note());
    let inputs: Vec<&std::path::Path> = args.against.iter().map(|p| p.as_path()).collect();
    args.picture.write(&**rules, report.witness.as_ref(), args.quiet, &inputs)?;
    let mut out = std::io::stdout().lock();
    if args.picture.to_stdout() {
        // The picture is all that standard output carries.
    } else if args.json {
        let doc = HuntJson {
            status: if report.witness.is_some() { "mismatch" } else { "ok" },
            line: LineJson::new(&**rules, line),
            depth: args.depth,
            engine: args.against.is_none().then(|| EngineCalls { name: engine_name.clone(), calls }),
            pasted: args.against.is_some().then(|| PastedJson { file: engine_name.clone() }),
            reference: EngineCalls { name: reference_name, calls: reference_calls },
            comparison: ComparisonJson::new(report.root_depth, &report.root),
            witness: report.witness.as_ref().map(|w| WitnessJson::new(&**rules, w)),
            // A paste's always; an engine's when it printed more than UCI chatter.
            skipped_lines: skipped
                .filter(|s| args.against.is_some() || (Skipped { uci: 0, ..*s }).describe().is_some())
                .map(Into::into),
            notes,
            seconds,
        };
        write_json(&doc)?;
    } else {
        let under_test = match args.against {
            Some(_) => UnderTest::Pasted(&engine_name),
            None => UnderTest::Engine(calls),
        };
        let text = report_text(&**rules, line, args.depth, &report, under_test, seconds, args.bisect, &notes);
        out.write_all(text.as_bytes())?;
        out.flush()?;
    }
    Ok(if report.witness.is_some() { Outcome::Mismatch } else { Outcome::Success })
}

/// The side under test, as the text report names it.
enum UnderTest<'a> {
    /// An engine, asked this many times.
    Engine(u32),
    /// A pasted or saved divide, read from this file.
    Pasted(&'a str),
}

impl UnderTest<'_> {
    /// The word for the side in the totals line and the table.
    fn word(&self) -> &'static str {
        match self {
            UnderTest::Engine(_) => "engine",
            UnderTest::Pasted(_) => "pasted",
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn report_text<R: Rules>(
    rules: &R,
    start: &Line<R>,
    requested: u32,
    report: &Report<R>,
    under_test: UnderTest,
    seconds: f64,
    bisect: bool,
    notes: &[String],
) -> String {
    let root = &report.root;
    let calls = match &under_test {
        UnderTest::Engine(calls) => format!("{} ({seconds:.2} s)\n", plural(*calls, "engine call", "engine calls")),
        UnderTest::Pasted(file) => format!("compared with the pasted divide {file} ({seconds:.2} s)\n"),
    };
    let mut text = String::new();
    let Some(w) = &report.witness else {
        text.push_str(&format!("match at depth {requested}: {} nodes\n", root.engine_total));
        for note in notes {
            text.push_str(&format!("note: {note}\n"));
        }
        text.push_str(&calls);
        return text;
    };
    let depth = report.root_depth;
    if bisect && depth < requested {
        text.push_str(&format!("the first difference shows at depth {depth} (of {requested}):\n"));
    }
    if root.engine_total_only || root.reference_total_only {
        text.push_str("(only totals to compare: a side printed no per-move counts)\n");
    } else {
        text.push_str(&format!("{}\n", diff_table_named(root, under_test.word())));
    }
    text.push_str(&format!(
        "totals at depth {depth}: {} {}, reference {} ({:+})\n",
        under_test.word(),
        root.engine_total,
        root.reference_total,
        i128::from(root.engine_total) - i128::from(root.reference_total)
    ));
    for note in notes {
        text.push_str(&format!("note: {note}\n"));
    }
    if bisect {
        text.push_str(&format!("\nfirst wrong position (from {}):\n", start.root_text(rules)));
        text.push_str(&witness_text(rules, w, ""));
    } else if w.diff.lists_differ() {
        text.push('\n');
        text.push_str(&witness_text(rules, w, ""));
    }
    text.push_str(&calls);
    text
}
