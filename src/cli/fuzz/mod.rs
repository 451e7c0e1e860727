//! `chesstool fuzz`: find an engine's bug without knowing where it is.
//! Seeded random walks from many roots (`roots`), every position compared
//! with ours through one persistent engine, the first difference bisected
//! and reported as `divide --bisect` reports it (`report`); optionally the
//! engine's printed position and keys checked too. Generic over the game
//! (`run_with`); `run` sets up chess or a variant, `tictacchess fuzz` its
//! game.

mod report;
mod roots;

use super::common::{plural, positive_depth_arg, seconds_in, seed_arg, ForceArg, MAX_SECONDS};
use super::hunt::live::Status;
use super::hunt::{
    error_document, is_broken_pipe, root_support, usage, verify_error, write_json, EngineArgs, EngineCalls,
};
use super::Outcome;
use chesstool::chess::Chess;
use chesstool::engines::{signals, DivideFormat, Line};
use chesstool::rules::Rules;
use chesstool::verify::bisect::Checker;
use chesstool::verify::fuzz::{self, Budget, Options, Progress};
use chesstool::verify::walk::Walker;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The deepest comparison `fuzz` chooses by itself.
const AUTO_DEPTH_MAX: u32 = 4;

/// The budget when none is given.
const DEFAULT_SECONDS: f64 = 60.0;

/// `chesstool fuzz`: chess or a variant.
#[derive(clap::Args, Debug)]
pub struct FuzzArgs {
    #[command(flatten)]
    pub walk: WalkArgs,
    /// Also check the engine's own position (Stockfish-style `d`: its `Fen:` and `Key:` lines) at every step (UCI engines).
    #[arg(long)]
    pub check_position: bool,
    /// With --engine-script: the script plays Chess960, so it is sent the Chess960 positions (a script cannot say so itself; without this they are skipped with a note).
    #[arg(long)]
    pub chess960: bool,
    #[command(flatten)]
    pub variant: super::variant::VariantArgs,
}

/// What `fuzz` takes for every game (`chesstool fuzz`, `chesstool
/// tictacchess fuzz`): the engine, the budget, the seed, the roots, the
/// reports.
#[derive(clap::Args, Debug)]
pub struct WalkArgs {
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Stop after this many seconds (whichever of --seconds and --positions comes first) [default: 60 without --positions].
    #[arg(long, value_name = "SECONDS", value_parser = seconds_budget, allow_negative_numbers = true)]
    pub seconds: Option<f64>,
    /// Stop after comparing this many positions.
    #[arg(long, value_name = "N", value_parser = positions_budget, allow_negative_numbers = true)]
    pub positions: Option<u64>,
    /// Seed of the random generator.
    ///
    /// The same seed walks the same games [default: from the clock, printed].
    #[arg(long, value_name = "SEED", value_parser = seed_arg, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Walk from the positions of FILE instead of the built-in roots: one FEN or EPD line each (`-`: standard input).
    #[arg(long, value_name = "FILE")]
    pub roots: Option<PathBuf>,
    /// Depth of the perft in plies.
    ///
    /// The depth of each comparison (1: the move lists) [default: the deepest up to 4 whose perft at the
    /// first root is at most 2000 nodes (2 for chess), the same for every run of a seed].
    #[arg(long, short, value_parser = positive_depth_arg, allow_negative_numbers = true)]
    pub depth: Option<u32>,
    /// Never ask either side below this depth (for an engine that cannot answer `go perft 1`): a
    /// hunt stops at this depth and its witness says so [default: 1].
    #[arg(long, value_name = "DEPTH", value_parser = positive_depth_arg, allow_negative_numbers = true)]
    pub min_depth: Option<u32>,
    /// Send every position as a FEN of its own, never as `position ... moves` (for an engine whose move list handling is broken).
    #[arg(long)]
    pub fen_only: bool,
    /// Go on after a finding until the budget is spent, and report every distinct cause with one witness each.
    #[arg(long)]
    pub keep_going: bool,
    /// After an engine failure (a crash, a hang, an answer that cannot be read), restart it and ask again up to N times: an answer then shows a failure at random, none a failure on that line; either is a finding and the walk goes on [default: 1].
    #[arg(long, value_name = "N", value_parser = super::suite::retries_arg)]
    pub retries: Option<u32>,
    /// Print one JSON document instead of text (see `chesstool docs json`).
    #[arg(long)]
    pub json: bool,
    /// Also write a JUnit XML report to FILE (`-`: standard output, instead of the text).
    ///
    /// One test case: the run.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    #[command(flatten)]
    pub force: ForceArg,
    /// No progress on standard error.
    #[arg(short, long)]
    pub quiet: bool,
}

fn seconds_budget(s: &str) -> Result<f64, String> {
    seconds_in(s, false, MAX_SECONDS, "a number of seconds")
}

fn positions_budget(s: &str) -> Result<u64, String> {
    super::common::integer_in(s, 1, u64::MAX, "a number of positions")
}

pub fn run(args: FuzzArgs) -> anyhow::Result<Outcome> {
    let check = args.check_position;
    let result = if args.chess960 && args.variant.is_set() {
        Err(super::no_effect("--chess960", "with --variant"))
    } else if args.chess960 && args.walk.engine.engine_script.is_none() {
        Err(usage(
            "--chess960 has no effect without --engine-script (a UCI engine says itself whether it plays Chess960)",
        ))
    } else if args.variant.is_set() {
        args.variant.rules_for(args.walk.engine.engine_usi.is_some()).and_then(|rules| {
            let rules = Arc::new(rules);
            let start = rules.parse_position("startpos").map_err(|e| anyhow::anyhow!("the variant's start: {e}"))?;
            let motif_lines = |seed| roots::variant_motif_lines(&rules, &start, seed);
            run_with(rules.clone(), vec![start.clone()], 1, &motif_lines, &args.walk, check, false)
        })
    } else {
        let chess = Arc::new(Chess::new());
        let (roots, primary) = roots::chess_roots(&*chess);
        run_with(chess, roots, primary, &roots::motif_roots, &args.walk, check, args.chess960)
    };
    json_error(&args.walk, result)
}

/// With `--json`, an error is also the one JSON document.
fn json_error(args: &WalkArgs, result: anyhow::Result<Outcome>) -> anyhow::Result<Outcome> {
    if let Err(err) = &result {
        if args.json && !is_broken_pipe(err) {
            write_json(&error_document(err, None))?;
        }
    }
    result
}

/// `fuzz` for any game: walks from `roots` (the first `primary` of them
/// start every other game), after a look at each position `sweep` builds
/// from the seed, unless `--roots` gives others; `check_position` asks the
/// engine's own position too; `chess960`: the user vouches that a script
/// plays Chess960. Roots a side cannot take (it lacks an option they need)
/// are skipped, counted and noted; if no root is left, the run fails naming
/// the option.
pub fn run_with<R: Rules + 'static>(
    rules: Arc<R>,
    roots: Vec<R::Position>,
    primary: usize,
    sweep: &dyn Fn(u64) -> Vec<Line<R>>,
    args: &WalkArgs,
    check_position: bool,
    chess960: bool,
) -> anyhow::Result<Outcome> {
    args.engine.check_usage(false)?;
    if !args.engine.has_engine() {
        return Err(usage(
            "fuzz needs an engine: --engine-uci CMD, --engine-usi CMD, --engine-xboard CMD or --engine-script CMD",
        ));
    }
    if check_position && args.engine.engine_uci.is_none() && args.engine.engine_usi.is_none() {
        return Err(usage(
            "--check-position needs a UCI or USI engine (--engine-uci, --engine-usi): it asks the engine's `d`",
        ));
    }
    let junit_stdout = args.junit.as_ref().is_some_and(|p| p.as_os_str() == "-");
    if junit_stdout && args.json {
        return Err(usage("--junit - and --json both write to standard output: give --junit a file"));
    }
    if let (Some(min), Some(depth)) = (args.min_depth, args.depth) {
        if min > depth {
            return Err(usage(&format!("--min-depth {min} is more than --depth {depth}")));
        }
    }
    let inputs: Vec<&std::path::Path> = args.roots.iter().map(PathBuf::as_path).collect();
    super::common::check_output("--junit", args.junit.as_deref(), args.force.force, &inputs)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let (roots, primary, sweep) = match &args.roots {
        Some(path) => (roots::read_roots(&*rules, path)?, usize::MAX, Vec::new()),
        None => (roots, primary, sweep(seed)),
    };
    let budget = Budget {
        positions: args.positions,
        time: match (args.seconds, args.positions) {
            (Some(s), _) => Some(Duration::from_secs_f64(s)),
            (None, Some(_)) => None,
            (None, None) => Some(Duration::from_secs_f64(DEFAULT_SECONDS)),
        },
    };

    let mut engine = args.engine.engine(&rules, DivideFormat::Auto, chess960)?.expect("an engine was given");
    let mut reference = args.engine.reference(&rules, chess960)?;
    let engine_name = engine.name();
    let all_roots = roots.len();
    let (mut kept, mut kept_primary, mut skipped) = (Vec::new(), 0, report::SkippedRoots::default());
    let mut first_unsupported = None;
    for (i, root) in roots.into_iter().enumerate() {
        match root_support(engine.as_mut(), reference.as_mut(), &root) {
            Ok(()) => {
                kept_primary += usize::from(i < primary);
                kept.push(root);
            }
            Err(e) if e.is_unsupported() => {
                skipped.add(e.to_string());
                first_unsupported.get_or_insert(e);
            }
            Err(e) => return Err(verify_error(e)),
        }
    }
    if let (true, Some(e)) = (kept.is_empty(), first_unsupported) {
        // Not one root the engine can take (a variant it does not play).
        return Err(verify_error(e));
    }
    let (roots, primary) = (kept, kept_primary);
    skipped.of = all_roots;
    let sweep: Vec<Line<R>> =
        sweep.into_iter().filter(|l| root_support(engine.as_mut(), reference.as_mut(), &l.root).is_ok()).collect();
    let min_depth = args.min_depth.unwrap_or(1);
    let options = Options {
        depth: args.depth.unwrap_or(AUTO_DEPTH_MAX),
        auto_depth: args.depth.is_none(),
        min_depth,
        interrupted: Some(|| signals::interrupted().is_some()),
        fen_only: args.fen_only,
        keep_going: args.keep_going,
        budget,
        check_positions: check_position,
        primary,
        retries: args.retries.unwrap_or(1),
        adaptive_timeout: args.engine.timeout.is_none(),
    };
    let status = Status::new(args.quiet || args.json || junit_stdout);
    let mut walker = Walker::new(&*rules, roots, seed).with_sweep(sweep);
    let mut checker = Checker::new(&*rules, engine.as_mut(), reference.as_mut());
    // A time limit's SIGTERM or a Ctrl-C ends the walks, not the report.
    signals::report_on_signals();
    let mut show = |p: &Progress| {
        if p.positions % 16 == 1 {
            let speed = p.positions as f64 / p.elapsed.as_secs_f64().max(1e-9);
            status.set(format!(
                "fuzz: {}, {}, {speed:.0} positions/s, seed {seed}",
                plural(p.positions, "position", "positions"),
                plural(p.games, "game", "games")
            ));
        }
    };
    let result = fuzz::run(&mut checker, &mut walker, &options, &mut show);
    let calls = checker.engine_calls;
    drop(checker);
    status.finish();
    let summary = result.map_err(verify_error)?;
    let engine_calls = EngineCalls { name: engine_name, calls };
    let skipped = (skipped.count > 0).then_some(skipped);

    if let Some(path) = &args.junit {
        let xml = report::junit_xml(&*rules, seed, &summary);
        super::common::write_output_file("--junit", path, xml.as_bytes(), args.force.force, &inputs)?;
    }
    if args.json {
        let mut doc = report::FuzzJson::new(&*rules, seed, &summary, engine_calls);
        doc.skipped_roots = skipped;
        doc.min_depth = (min_depth > 1).then_some(min_depth);
        doc.interrupted = signals::interrupted().map(signals::signal_name);
        write_json(&doc)?;
    } else if !junit_stdout {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", report::headline(seed, &summary))?;
        writeln!(out, "{}", report::budget_line(&summary))?;
        if summary.sweep.cut_short {
            writeln!(out, "{}", report::sweep_note(&summary))?;
        }
        if summary.gave_up {
            writeln!(out, "{}", report::gave_up_note())?;
        }
        if let Some(signal) = signals::interrupted() {
            writeln!(out, "interrupted: by {} before the budget was spent", signals::signal_name(signal))?;
        }
        if let Some(s) = &skipped {
            writeln!(out, "{}", s.note())?;
        }
        write!(out, "{}", report::findings_text(&*rules, &summary))?;
        out.flush()?;
    }
    if let Some(signal) = signals::interrupted() {
        let _ = writeln!(
            std::io::stderr(),
            "error: interrupted by {}: the report covers the positions compared before it",
            signals::signal_name(signal)
        );
        let _ = std::io::stdout().flush();
        crate::cli::hunt::exit_by_signal(signal);
    }
    Ok(if summary.engine_failed() {
        Outcome::EngineFailure
    } else if summary.found.is_empty() {
        Outcome::Success
    } else {
        Outcome::Mismatch
    })
}

/// A seed for a run without `--seed`: the clock's nanoseconds (printed, so
/// the run can be repeated).
fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}
