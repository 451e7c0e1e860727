//! `chesstool suite`: run perft suites (EPD or python-chess `.perft`) against
//! our generator or an engine; exit 1 on any mismatch, with one bisected
//! witness per failing position when an engine is under test; exit 2 if the
//! run checks no count at all. The work is generic over the game
//! (`run_with`); `run` sets up chess.

use super::common::{depth_arg, mnps, plural};
use super::hunt::junit::{self, Case, CaseResult};
use super::hunt::live::NodeBar;
use super::hunt::picture;
use super::hunt::report::WitnessJson;
use super::hunt::{
    error_document, is_broken_pipe, root_support, usage, verify_error, write_json, EngineArgs, EngineCalls,
};
use super::Outcome;
use ours::{Job, OurCounts};
use read::{read_remarks, read_suites, NoteJson, RefusedJson, Remark, SuiteFile};

mod ours;
mod read;
use anyhow::Context;
use chesstool::chess::Chess;
use chesstool::engines::{signals, DivideFormat, Line};
use chesstool::rules::Rules;
use chesstool::verify::bisect::{Checker, VerifyError};
use chesstool::verify::suite::SuiteEntry;
use comfy_table::{presets::UTF8_FULL_CONDENSED, CellAlignment, Table};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct SuiteArgs {
    /// Suite files: EPD lines `FEN ;D1 20 ;D2 400` or python-chess `.perft` blocks (`-` for standard input).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Skip depths above this (0 to 20).
    #[arg(long, value_name = "DEPTH", value_parser = depth_arg, allow_negative_numbers = true)]
    pub max_depth: Option<u32>,
    /// Never ask either side below this depth (for an engine that cannot answer `go perft 1`): a
    /// hunt stops at this depth and its witness says so [default: 1].
    #[arg(long, value_name = "DEPTH", value_parser = super::common::positive_depth_arg, allow_negative_numbers = true)]
    pub min_depth: Option<u32>,
    /// Skip counts whose expected node count is above this.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub max_nodes: Option<u64>,
    /// Worker threads (0 = all cores).
    ///
    /// For our generator.
    #[arg(short = 't', long, value_name = "THREADS", default_value_t = 0, value_parser = super::common::threads_arg, allow_negative_numbers = true)]
    pub threads: usize,
    /// Hash table size in MiB, shared by all threads (0 = no table).
    ///
    /// One table for all positions of the suites.
    #[arg(long, value_name = "MB", default_value_t = 0, allow_negative_numbers = true)]
    pub hash: usize,
    /// Print one JSON document instead of text (see `chesstool docs json`).
    #[arg(long)]
    pub json: bool,
    /// Also write a JUnit XML report to FILE (`-`: standard output, instead of the text).
    ///
    /// One test case per position and depth.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// With an engine: draw each failing position's first wrong position as an SVG picture in DIR (created if missing), named after the suite file and line (`tricky-line12.svg`).
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
    #[command(flatten)]
    pub force: super::common::ForceArg,
    /// No progress on standard error.
    #[arg(short, long)]
    pub quiet: bool,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// With an engine: after an engine failure (a crash, a hang, an answer that breaks a rule), restart it and ask again up to N times before the count is marked as an engine failure (for engines that fail at random) [default: 0].
    #[arg(long, value_name = "N", value_parser = retries_arg)]
    pub retries: Option<u32>,
    /// With --engine-script: the script plays Chess960, so it is sent the Chess960 positions (a script cannot say so itself; without this they are skipped with a note).
    #[arg(long)]
    pub chess960: bool,
    #[command(flatten)]
    pub variant: super::variant::VariantArgs,
}

pub(super) fn retries_arg(s: &str) -> Result<u32, String> {
    super::common::integer_in(s, 0, 100, "a number of retries").map(|n| n as u32)
}

pub fn run(args: SuiteArgs) -> anyhow::Result<Outcome> {
    if args.retries.is_some() && !args.engine.has_engine() {
        return Err(usage("--retries has no effect without --engine-uci or --engine-script"));
    }
    if args.chess960 && args.variant.is_set() {
        return Err(super::no_effect("--chess960", "with --variant"));
    }
    if args.chess960 && args.engine.engine_script.is_none() {
        return Err(usage(
            "--chess960 has no effect without --engine-script (a UCI engine says itself whether it plays Chess960)",
        ));
    }
    if args.variant.is_set() {
        return super::variant::suite(&args);
    }
    let result = Chess::new()
        .with_hash(args.hash)
        .context("--hash")
        .and_then(|c| c.with_threads(args.threads).context("--threads"))
        .and_then(|chess| {
            let threads = chess.threads();
            run_with(Arc::new(chess), threads, &args)
        });
    if let Err(err) = &result {
        if args.json && !is_broken_pipe(err) {
            write_json(&error_document(err, None))?;
        }
    }
    result
}

/// One count that disagreed: `engine` is the count under test (our
/// generator or the engine), `reference` the file's count.
#[derive(Debug, Serialize)]
pub struct Mismatch {
    pub file: String,
    pub line_number: usize,
    pub root: String,
    pub depth: u32,
    pub engine: u64,
    pub reference: u64,
    /// With an engine, on the shallowest failing depth of each position:
    /// where bisection against the reference ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub witness: Option<WitnessJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Engine calls the bisection took.
    #[serde(skip)]
    pub calls: u32,
    /// The witness's board as a text diagram.
    #[serde(skip)]
    pub diagram: String,
}

#[derive(Debug, Default, Serialize, Clone)]
struct Summary {
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    positions: usize,
    checked: usize,
    passed: usize,
    failed: usize,
    skipped: usize,
    /// Positions never compared: a side lacks an option they need.
    unsupported: usize,
    /// Counts the engine failed to give (crash, hang, unreadable answer).
    engine_failures: usize,
    /// Lines that could not be read, left out.
    refused: usize,
    nodes: u128,
    seconds: f64,
    /// Positions read per second of the run (the gate's speed).
    positions_per_second: f64,
}

impl Summary {
    fn add(&mut self, other: &Summary) {
        self.positions += other.positions;
        self.checked += other.checked;
        self.passed += other.passed;
        self.failed += other.failed;
        self.skipped += other.skipped;
        self.unsupported += other.unsupported;
        self.engine_failures += other.engine_failures;
        self.refused += other.refused;
        self.nodes += other.nodes;
        self.seconds += other.seconds;
    }
}

#[derive(Serialize)]
struct SuiteJson<'a> {
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    variant: Option<String>,
    /// The signal that ended the run early (`SIGTERM`, `SIGINT`): the
    /// report covers the counts done before it.
    #[serde(skip_serializing_if = "Option::is_none")]
    interrupted: Option<String>,
    files: &'a [Summary],
    totals: &'a Summary,
    mismatches: &'a [Mismatch],
    /// Positions never compared because a side cannot take them.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    unsupported: &'a [Unsupported],
    /// Counts the engine failed to give, each marked and the run gone on.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    engine_failures: &'a [Failure],
    /// Lines that could not be read, each with what is wrong: left out.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    refused_lines: Vec<RefusedJson<'a>>,
    /// Lines read with a remark (an e.p. square dropped, NUL bytes).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    notes: Vec<NoteJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    engine: Option<EngineCalls>,
    threads: usize,
    seconds: f64,
}

/// A position never compared: the engine (or the reference) lacks an
/// option it needs (`UCI_Chess960`).
#[derive(Debug, Serialize)]
pub struct Unsupported {
    pub file: String,
    pub line_number: usize,
    pub root: String,
    pub reason: String,
}

/// A count the engine failed to give (or a bisection it failed to finish):
/// the engine was restarted and the suite went on.
#[derive(Debug, Serialize)]
pub struct Failure {
    pub file: String,
    pub line_number: usize,
    pub root: String,
    pub depth: u32,
    /// Times the engine was asked (1 + the retries used).
    pub attempts: u32,
    pub message: String,
    /// The rule of answers the answer broke, if that is the failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
}

/// Asks the engine for the divide of `pos` at `depth`, restarting it and
/// asking again up to `retries` times after a failure: the count, or the
/// last failure and the number of attempts.
fn ask_count<R: Rules>(
    engine: &mut dyn chesstool::engines::Divider<R>,
    pos: &R::Position,
    depth: u32,
    retries: u32,
    calls: &mut u32,
) -> Result<u64, (chesstool::engines::EngineError, u32)> {
    let mut attempt = 0;
    loop {
        attempt += 1;
        *calls += 1;
        match engine.divide(&Line::new(pos.clone()), depth) {
            // A move printed again is counted as printed, so that the
            // position fails and its hunt shows the repeated move.
            Ok(d) if !d.repeated.is_empty() => {
                return Ok(d.repeated.iter().fold(d.sum(), |s, r| s.saturating_add(r.1)))
            }
            Ok(d) => return Ok(d.nodes()),
            Err(e) => {
                // A dead engine is started anew for the next question.
                engine.restart();
                if attempt > retries || !e.is_engine_failure() {
                    return Err((e, attempt));
                }
            }
        }
    }
}

/// `suite` for any game whose rules are set up.
pub fn run_with<R: Rules + 'static>(rules: Arc<R>, threads: usize, args: &SuiteArgs) -> anyhow::Result<Outcome> {
    args.engine.check_usage(false)?;
    let junit_stdout = args.junit.as_ref().is_some_and(|p| p.as_os_str() == "-");
    if junit_stdout && args.json {
        return Err(usage("--junit - and --json both write to standard output: give --junit a file"));
    }
    if args.files.iter().filter(|f| f.as_os_str() == "-").count() > 1 {
        return Err(usage("standard input (`-`) can be read only once"));
    }
    let inputs: Vec<&std::path::Path> = args.files.iter().map(PathBuf::as_path).collect();
    let junit_force = args.force.force && (args.junit.is_some() || args.svg.is_none());
    super::common::check_output("--junit", args.junit.as_deref(), junit_force, &inputs)?;
    picture::check_dir(args.svg.as_deref(), args.engine.has_engine())?;
    let suites = read_suites(&*rules, &args.files)?;
    let selected = |entry: &SuiteEntry| -> Vec<(u32, u64)> {
        let mut checks: Vec<(u32, u64)> = entry
            .counts
            .iter()
            .copied()
            .filter(|&(d, n)| {
                args.max_depth.is_none_or(|m| d <= m)
                    && args.min_depth.is_none_or(|m| d >= m)
                    && args.max_nodes.is_none_or(|m| n <= m)
            })
            .collect();
        checks.sort_by_key(|&(d, _)| d);
        checks
    };
    let all = || suites.iter().flat_map(|s| s.entries.iter().map(|(e, _)| e));
    let total_checks: usize = all().map(|e| selected(e).len()).sum();
    let refused: Vec<&Remark> = suites.iter().flat_map(|s| &s.refused).collect();
    if total_checks == 0 && refused.is_empty() {
        return Err(nothing_to_check(&suites, all().map(|e| e.counts.len()).sum(), args));
    }

    let mut engine = args.engine.engine(&rules, DivideFormat::Auto, args.chess960)?;
    let mut reference = match engine {
        Some(_) => Some(args.engine.reference(&rules, args.chess960)?),
        None => None,
    };
    // Positions a side cannot take (it lacks an option they need) are
    // never compared: skipped, counted and noted. If none is left, the run
    // fails naming the option (a variant the engine does not play).
    let mut unsupported: Vec<Unsupported> = Vec::new();
    let mut cannot: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    if let (Some(e), Some(r)) = (engine.as_mut(), reference.as_mut()) {
        let mut first = None;
        for suite in &suites {
            for (entry, pos) in &suite.entries {
                match root_support(e.as_mut(), r.as_mut(), pos) {
                    Ok(()) => {}
                    Err(err) if err.is_unsupported() => {
                        cannot.insert(entry.origin.clone(), err.to_string());
                        unsupported.push(Unsupported {
                            file: suite.name.clone(),
                            line_number: entry.line(),
                            root: entry.fen.clone(),
                            reason: err.to_string(),
                        });
                        first.get_or_insert(err);
                    }
                    Err(err) => return Err(verify_error(err)),
                }
            }
        }
        if let (true, Some(err)) = (all().all(|e| cannot.contains_key(&e.origin) || selected(e).is_empty()), first) {
            return Err(verify_error(err));
        }
    }
    let total_checks: usize = all().filter(|e| !cannot.contains_key(&e.origin)).map(|e| selected(e).len()).sum();
    let expected_nodes = all()
        .filter(|e| !cannot.contains_key(&e.origin))
        .flat_map(selected)
        .fold(0u64, |a, (_, n)| a.saturating_add(n));
    let bar = NodeBar::new(expected_nodes, args.quiet || args.json || junit_stdout);
    let started = Instant::now();
    // Without an engine, every count is ours: all of them start at once.
    let mut ours = engine.is_none().then(|| {
        let jobs = suites
            .iter()
            .flat_map(|s| &s.entries)
            .flat_map(|(entry, pos)| {
                selected(entry).into_iter().map(|(depth, expected)| Job { position: pos.clone(), depth, expected })
            })
            .collect();
        OurCounts::start(&rules, jobs, threads)
    });
    let mut job = 0;
    let mut engine_calls = 0u32;
    let mut summaries = Vec::new();
    let mut mismatches = Vec::new();
    let mut failures: Vec<Failure> = Vec::new();
    let retries = args.retries.unwrap_or(0);
    let mut junit_suites = Vec::new();
    let mut done = 0;
    // A time limit's SIGTERM or a Ctrl-C ends the counting, not the report.
    signals::report_on_signals();
    let stop = || signals::interrupted().is_some();
    for suite in &suites {
        if stop() {
            break;
        }
        let file_started = Instant::now();
        let mut summary =
            Summary { file: Some(suite.name.clone()), positions: suite.entries.len(), ..Summary::default() };
        summary.refused = suite.refused.len();
        let mut cases = Vec::new();
        // Our counts' own times, summed: the files are counted side by
        // side, so the wait for a file in the report's order is no measure
        // of it.
        let mut counting = 0.0;
        for (entry, pos) in &suite.entries {
            if stop() {
                break;
            }
            if let Some(reason) = cannot.get(&entry.origin) {
                summary.unsupported += 1;
                for &(depth, _) in &entry.counts {
                    summary.skipped += 1;
                    let message = format!("never compared: {reason}");
                    cases.push(case_name(entry, depth, 0.0, CaseResult::Skipped { message }));
                }
                continue;
            }
            let checks = selected(entry);
            let first_case = cases.len();
            for &(depth, nodes) in entry.counts.iter().filter(|c| !checks.contains(c)) {
                summary.skipped += 1;
                let why = skip_reason(args, depth, nodes);
                cases.push(case_name(entry, depth, 0.0, CaseResult::Skipped { message: why }));
            }
            let mut failing: Vec<Mismatch> = Vec::new();
            // After an engine failure, the deeper counts of the position are
            // not asked (they would fail the same way, or take as long).
            let mut failed_at: Option<u32> = None;
            for (depth, expected) in checks {
                if stop() {
                    break;
                }
                if let Some(at) = failed_at {
                    summary.skipped += 1;
                    let message = format!("not asked: the engine failed at depth {at} of this position");
                    cases.push(case_name(entry, depth, 0.0, CaseResult::Skipped { message }));
                    done += 1;
                    bar.advance(expected, done, total_checks);
                    continue;
                }
                let count_started = Instant::now();
                // Our counts come timed from the worker that made them.
                let mut took = None;
                let got = match engine.as_mut() {
                    Some(e) => match ask_count(e.as_mut(), pos, depth, retries, &mut engine_calls) {
                        Ok(n) => n,
                        // The engine was killed by the signal: not its failure.
                        Err(_) if stop() => break,
                        Err((err, _)) if !err.is_engine_failure() => {
                            return Err(verify_error(VerifyError::Engine(err)))
                        }
                        Err((err, attempts)) => {
                            let seconds = count_started.elapsed().as_secs_f64();
                            let message = err.to_string();
                            summary.engine_failures += 1;
                            failures.push(Failure {
                                file: suite.name.clone(),
                                line_number: entry.count_line(depth),
                                root: entry.fen.clone(),
                                depth,
                                attempts,
                                message: message.clone(),
                                rule: err.rule(),
                            });
                            let kind = "engine-failure";
                            cases.push(case_name(entry, depth, seconds, CaseResult::Error { kind, message }));
                            failed_at = Some(depth);
                            done += 1;
                            bar.advance(expected, done, total_checks);
                            continue;
                        }
                    },
                    None => {
                        job += 1;
                        match ours.as_mut().and_then(|o| o.get(job - 1, &bar)) {
                            Some((n, seconds)) => {
                                took = Some(seconds);
                                counting += seconds;
                                n
                            }
                            None => break,
                        }
                    }
                };
                let seconds = took.unwrap_or_else(|| count_started.elapsed().as_secs_f64());
                summary.checked += 1;
                summary.nodes += u128::from(got);
                done += 1;
                if ours.is_none() {
                    bar.advance(expected, done, total_checks);
                }
                if got == expected {
                    summary.passed += 1;
                    cases.push(case_name(entry, depth, seconds, CaseResult::Passed));
                    continue;
                }
                summary.failed += 1;
                let line = entry.count_line(depth);
                failing.push(Mismatch {
                    file: suite.name.clone(),
                    line_number: line,
                    root: entry.fen.clone(),
                    depth,
                    engine: got,
                    reference: expected,
                    witness: None,
                    note: None,
                    calls: 0,
                    diagram: String::new(),
                });
                let message = format!("counted {got}, the suite says {expected}");
                cases.push(case_name(entry, depth, seconds, CaseResult::Failed { message, details: String::new() }));
            }
            // One witness per failing position, from its shallowest failing depth.
            if let (Some(first), Some(e), Some(r)) = (failing.first_mut(), engine.as_mut(), reference.as_mut()) {
                let mut checker = Checker::new(&*rules, e.as_mut(), r.as_mut());
                checker.min_depth = args.min_depth.unwrap_or(1);
                let report = checker.check_from(&Line::new(pos.clone()), first.depth, first.depth, true);
                first.calls = checker.engine_calls;
                engine_calls += checker.engine_calls;
                drop(checker);
                let report = match report {
                    Ok(report) => Some(report),
                    Err(_) if stop() => {
                        first.note = Some("no witness: interrupted while looking for it".to_string());
                        None
                    }
                    Err(err) if err.is_engine_failure() => {
                        // The mismatch stands; the hunt for its witness failed.
                        e.restart();
                        r.restart();
                        summary.engine_failures += 1;
                        let rule = match &err {
                            VerifyError::Engine(x) | VerifyError::Reference(x) => x.rule(),
                            _ => None,
                        };
                        failures.push(Failure {
                            file: suite.name.clone(),
                            line_number: first.line_number,
                            root: entry.fen.clone(),
                            depth: first.depth,
                            attempts: 1,
                            message: format!("while looking for the first wrong position: {err}"),
                            rule,
                        });
                        first.note = Some(format!("no witness: the engine failed while bisecting: {err}"));
                        None
                    }
                    Err(err) => return Err(verify_error(err)),
                };
                match report.as_ref().map(|r| &r.witness) {
                    None => {}
                    Some(Some(w)) => {
                        first.witness = Some(WitnessJson::new(&*rules, w));
                        first.diagram = picture::witness_diagram(&*rules, w, "  ");
                        if let Some(dir) = &args.svg {
                            let path = picture::suite_path(dir, &suite.name, first.line_number);
                            picture::write_one(&path, &*rules, w, args.force.force, &inputs)?;
                        }
                    }
                    Some(None) => {
                        first.note = Some(format!(
                            "the engine agrees with the reference at depth {}: the suite's count may be wrong",
                            first.depth
                        ))
                    }
                }
                if let Some(CaseResult::Failed { details, .. }) =
                    cases.iter_mut().rev().find(|c| c.name == case_title(entry, first.depth)).map(|c| &mut c.result)
                {
                    *details = witness_block(first);
                }
            }
            mismatches.extend(failing);
            // Test cases in the order of the file's lines and depths.
            cases[first_case..].sort_by_key(|c| c.order);
        }
        for r in &suite.refused {
            let message = format!("refused: {}", r.text);
            let case = Case {
                name: format!("line {}", r.line_number),
                order: (r.line_number, 0),
                seconds: 0.0,
                result: CaseResult::Error { kind: "refused-line", message },
            };
            cases.push(case);
        }
        cases.sort_by_key(|c| c.order);
        summary.seconds = match ours {
            // Its share of the run: its counts' times over the threads.
            Some(_) => counting / threads.max(1) as f64,
            None => file_started.elapsed().as_secs_f64(),
        };
        summary.positions_per_second = summary.positions as f64 / summary.seconds.max(1e-9);
        summaries.push(summary);
        junit_suites.push(junit::Suite { name: suite.name.clone(), cases });
    }
    bar.finish();
    let mut totals = Summary::default();
    for s in &summaries {
        totals.add(s);
    }
    totals.seconds = started.elapsed().as_secs_f64();
    totals.positions_per_second = totals.positions as f64 / totals.seconds.max(1e-9);

    if let Some(path) = &args.junit {
        let xml = junit::xml(&junit_suites);
        if junit_stdout {
            let mut out = std::io::stdout().lock();
            out.write_all(xml.as_bytes())?;
            out.flush()?;
        } else {
            super::common::write_output_file("--junit", path, xml.as_bytes(), args.force.force, &inputs)?;
        }
    }
    // An interruption or an engine failure wins over a mismatch: the
    // verdict is incomplete. A mismatch wins over refused lines: a count
    // that is wrong is the news, the lines left out are listed too.
    let interrupted = signals::interrupted();
    let (outcome, status) = match (failures.is_empty(), mismatches.is_empty()) {
        _ if interrupted.is_some() => (Outcome::EngineFailure, "interrupted"),
        (false, _) => (Outcome::EngineFailure, "engine-failure"),
        (true, false) => (Outcome::Mismatch, "mismatch"),
        (true, true) if !refused.is_empty() => (Outcome::Refused, "refused"),
        (true, true) => (Outcome::Success, "ok"),
    };
    let notes: Vec<&Remark> = suites.iter().flat_map(|s| &s.notes).collect();
    let mut out = std::io::stdout().lock();
    if args.json {
        let doc = SuiteJson {
            status,
            variant: rules.variant(),
            interrupted: interrupted.map(signals::signal_name),
            files: &summaries,
            totals: &totals,
            mismatches: &mismatches,
            unsupported: &unsupported,
            engine_failures: &failures,
            refused_lines: refused
                .iter()
                .map(|r| RefusedJson { file: &r.file, line_number: r.line_number, message: &r.text })
                .collect(),
            notes: notes
                .iter()
                .map(|r| NoteJson { file: &r.file, line_number: r.line_number, note: &r.text })
                .collect(),
            engine: args.engine.has_engine().then(|| EngineCalls {
                name: args.engine.engine_command().unwrap_or_default().to_string(),
                calls: engine_calls,
            }),
            threads,
            seconds: totals.seconds,
        };
        write_json(&doc)?;
    } else if !junit_stdout {
        writeln!(out, "{}", summary_table(&summaries, &totals))?;
        if !mismatches.is_empty() {
            writeln!(
                out,
                "\n{}:\n{}",
                plural(mismatches.len() as u64, "mismatch", "mismatches"),
                mismatch_table(&mismatches)
            )?;
            for m in mismatches.iter().filter(|m| m.witness.is_some() || m.note.is_some()) {
                write!(out, "\n{}:{} (depth {}): {}", m.file, m.line_number, m.depth, witness_block(m))?;
            }
        }
        write!(out, "{}", unsupported_notes(&unsupported))?;
        write!(out, "{}", read_remarks(&refused, &notes))?;
        if !failures.is_empty() {
            writeln!(out, "\n{}:", plural(failures.len() as u64, "engine failure", "engine failures"))?;
            for f in &failures {
                let attempts = if f.attempts > 1 { format!(", {} attempts", f.attempts) } else { String::new() };
                writeln!(out, "{}:{} (depth {}{attempts}): {}", f.file, f.line_number, f.depth, f.message)?;
            }
        }
        if let Some(signal) = interrupted {
            let name = signals::signal_name(signal);
            writeln!(
                out,
                "\ninterrupted by {name} after {done} of {total_checks} counts: the rows above are the counts done"
            )?;
        }
        out.flush()?;
    }
    if let Some(signal) = interrupted {
        let _ = std::io::stdout().flush();
        let _ = writeln!(
            std::io::stderr(),
            "error: interrupted by {}: the report covers the {done} counts done",
            signals::signal_name(signal)
        );
        super::hunt::exit_by_signal(signal);
    }
    if !failures.is_empty() {
        // The one line on stderr; the failures are in the report.
        let _ = writeln!(
            std::io::stderr(),
            "error: {} ({}): the report is incomplete",
            plural(failures.len() as u64, "engine failure", "engine failures"),
            failures.iter().map(|f| format!("{}:{}", f.file, f.line_number)).take(5).collect::<Vec<_>>().join(", ")
        );
    }
    if !refused.is_empty() {
        let at: Vec<String> = refused.iter().take(5).map(|r| format!("{}:{}", r.file, r.line_number)).collect();
        let more = if refused.len() > 5 { ", ..." } else { "" };
        let _ = writeln!(
            std::io::stderr(),
            "error: {} could not be read ({}{more}): the report leaves {}",
            plural(refused.len() as u64, "line", "lines"),
            at.join(", "),
            if refused.len() == 1 { "it out" } else { "them out" }
        );
    }
    Ok(outcome)
}

/// One note per reason for the positions never compared, naming them.
fn unsupported_notes(unsupported: &[Unsupported]) -> String {
    let mut reasons: Vec<&str> = Vec::new();
    for u in unsupported {
        if !reasons.contains(&u.reason.as_str()) {
            reasons.push(&u.reason);
        }
    }
    let mut text = String::new();
    for reason in reasons {
        let at: Vec<String> = unsupported
            .iter()
            .filter(|u| u.reason == reason)
            .map(|u| format!("{}:{}", u.file, u.line_number))
            .collect();
        let shown = if at.len() > 8 { format!("{}, ...", at[..8].join(", ")) } else { at.join(", ") };
        text.push_str(&format!(
            "\nnote: {} never compared ({shown}): {reason}\n",
            plural(at.len() as u64, "position", "positions")
        ));
    }
    text
}

/// Why a run checks nothing: empty files, or every count filtered out.
fn nothing_to_check<R: Rules>(suites: &[SuiteFile<R>], counts: usize, args: &SuiteArgs) -> anyhow::Error {
    let positions: usize = suites.iter().map(|s| s.entries.len()).sum();
    let why = if positions == 0 {
        format!("{} no positions", if suites.len() == 1 { "the file has" } else { "the files have" })
    } else {
        let mut filters = Vec::new();
        if let Some(d) = args.max_depth {
            filters.push(format!("--max-depth {d}"));
        }
        if let Some(d) = args.min_depth {
            filters.push(format!("--min-depth {d}"));
        }
        if let Some(n) = args.max_nodes {
            filters.push(format!("--max-nodes {n}"));
        }
        format!(
            "{} {} every one of the {} of {}",
            filters.join(" and "),
            if filters.len() == 1 { "skips" } else { "skip" },
            plural(counts as u64, "count", "counts"),
            plural(positions as u64, "position", "positions")
        )
    };
    anyhow::anyhow!("nothing to check: {why}")
}

fn skip_reason(args: &SuiteArgs, depth: u32, nodes: u64) -> String {
    match (args.max_depth, args.max_nodes) {
        (Some(m), _) if depth > m => format!("depth {depth} is above --max-depth {m}"),
        _ if args.min_depth.is_some_and(|m| depth < m) => {
            format!("depth {depth} is below --min-depth {}", args.min_depth.unwrap_or(1))
        }
        (_, Some(m)) => format!("{nodes} nodes is above --max-nodes {m}"),
        _ => "skipped".to_string(),
    }
}

fn case_title(entry: &SuiteEntry, depth: u32) -> String {
    format!("line {} depth {depth}", entry.count_line(depth))
}

fn case_name(entry: &SuiteEntry, depth: u32, seconds: f64, result: CaseResult) -> Case {
    Case { name: case_title(entry, depth), order: (entry.count_line(depth), depth), seconds, result }
}

/// The witness of a failing position as indented text.
fn witness_block(m: &Mismatch) -> String {
    match (&m.witness, &m.note) {
        (Some(w), _) => format!(
            "first wrong position after {}\n{}",
            plural(m.calls, "engine call", "engine calls"),
            w.text("  ", None) + &m.diagram
        ),
        (None, Some(note)) => format!("{note}\n"),
        (None, None) => String::new(),
    }
}

fn summary_table(summaries: &[Summary], totals: &Summary) -> Table {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    // The engine failures and the refused lines get a column when there are any.
    let failures = totals.engine_failures > 0;
    let refused = totals.refused > 0;
    let mut header =
        vec!["File", "Positions", "Checked", "Passed", "Failed", "Skipped", "Nodes", "Time (s)", "Pos/s", "Mnps"];
    if failures {
        header.insert(5, "Engine failed");
    }
    if refused {
        header.insert(1, "Refused");
    }
    let columns = header.len();
    table.set_header(header);
    let row = |name: String, s: &Summary| {
        let mut cells = vec![
            name,
            s.positions.to_string(),
            s.checked.to_string(),
            s.passed.to_string(),
            s.failed.to_string(),
            s.skipped.to_string(),
            s.nodes.to_string(),
            format!("{:.2}", s.seconds),
            format!("{:.1}", s.positions_per_second),
            format!("{:.1}", mnps(u64::try_from(s.nodes).unwrap_or(u64::MAX), s.seconds)),
        ];
        if failures {
            cells.insert(5, s.engine_failures.to_string());
        }
        if refused {
            cells.insert(1, s.refused.to_string());
        }
        cells
    };
    for s in summaries {
        table.add_row(row(s.file.clone().unwrap_or_default(), s));
    }
    if summaries.len() > 1 {
        table.add_row(row("total".to_string(), totals));
    }
    for i in 1..columns {
        table.column_mut(i).expect("a column per header").set_cell_alignment(CellAlignment::Right);
    }
    table
}

fn mismatch_table(mismatches: &[Mismatch]) -> Table {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(vec!["Where", "Position", "Depth", "Counted", "Suite says"]);
    for m in mismatches {
        table.add_row(vec![
            format!("{}:{}", m.file, m.line_number),
            m.root.clone(),
            m.depth.to_string(),
            m.engine.to_string(),
            m.reference.to_string(),
        ]);
    }
    for i in 2..5 {
        table.column_mut(i).expect("five columns").set_cell_alignment(CellAlignment::Right);
    }
    table
}
