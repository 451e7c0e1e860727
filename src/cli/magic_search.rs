//! `chesstool magic-search`: find, verify and print magic numbers, or check a
//! magic file.

use super::common::{
    check_output, human_duration, is_stdio, plural, print_err, print_json, print_text, read_input, thread_pool,
    write_output_file, ForceArg, LazyProgress,
};
use super::{no_effect, usage_error, Outcome};
use anyhow::Context;
use chesstool::board::Square;
use chesstool::tools::magic::packed::Progress;
use chesstool::tools::magic::search::{self as magic_search, Found, Problem, Slider};
use chesstool::tools::magic::verify::{self as magic_verify, hex, MagicEntry, MagicFile};
use chesstool::tools::magic::{packed as magic_packed, reduced as magic_reduced};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Table};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// The name of the packing's first stage (most of its time).
const STEP1: &str = "step 1 of 4: candidate magics per square";

/// The stages without counts, as shares of step 1's time: in the full
/// packing (seed 1, `--threads 2`, on the shared 2-core machine) step 1 took
/// 51m 20s, the bundles 9m 10s, step 2 10 s, step 3 1m 13s and step 4 6m 13s.
const BUNDLES_SHARE: f64 = 550.0 / 3080.0;
const JOINT_SHARE: f64 = 73.0 / 3080.0;
const REFILL_SHARE: f64 = 373.0 / 3080.0;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceArg {
    Rook,
    Bishop,
    Both,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayoutArg {
    /// One block of 2^bits slots per square, blocks one after another.
    Fancy,
    /// As fancy, with the black-magic index `(occ | !mask) * magic`.
    Black,
    /// One shared table where squares' blocks overlap wherever they can.
    Packed,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatArg {
    Table,
    Json,
    Rust,
}

#[derive(clap::Args, Debug)]
pub struct MagicSearchArgs {
    /// Which sliders to search (with --verify: which the file must hold, on every square or --square).
    #[arg(long, value_enum, default_value = "both")]
    pub piece: PieceArg,
    /// Only this square (a name such as a1 or A1; with --verify: the one square the file must hold).
    #[arg(long, value_name = "SQ")]
    pub square: Option<String>,
    /// Seed of the random generator.
    ///
    /// A seed gives the same magics (default 1).
    #[arg(long, value_name = "SEED", value_parser = super::common::seed_arg)]
    pub seed: Option<u64>,
    /// Look for magics with BITS index bits fewer than relevant bits (0 to 4).
    /// Runs for the whole --time-limit (default 10 s) unless every square is
    /// found: 120 s on 2 threads finds 37 of the 39 squares known to have one.
    #[arg(long, value_name = "BITS", default_value_t = 0, value_parser = bits_reduction_arg)]
    pub bits_reduction: u32,
    /// How the squares' blocks are laid out in the shared table (default
    /// fancy). `packed` takes 25-35 minutes for all 128 squares with 2 cores
    /// to itself (about 2,500 s of CPU; 68 minutes measured on 2 busy cores),
    /// 1-4 minutes for the 64 bishops, seconds for one square.
    #[arg(long, value_enum)]
    pub layout: Option<LayoutArg>,
    /// Time budget in seconds for the searches that may not finish
    /// (--bits-reduction, --layout packed), shared out over the squares.
    #[arg(long, value_name = "SECONDS", value_parser = time_limit_arg)]
    pub time_limit: Option<f64>,
    /// Worker threads (0 = all cores).
    #[arg(long, short = 't', value_name = "THREADS", default_value_t = 0, value_parser = super::common::threads_arg)]
    pub threads: usize,
    /// Output format: table (with a summary), json (the magic file that
    /// --verify reads) or rust (source like src/attacks/magic_numbers.rs).
    #[arg(long, value_enum, conflicts_with = "json")]
    pub format: Option<FormatArg>,
    /// Print one JSON document instead of text (see `chesstool docs json`).
    ///
    /// The magic file, or the --verify report: the same as --format json
    /// without -o.
    #[arg(long, conflicts_with = "output")]
    pub json: bool,
    /// The file to write (`-` is standard output).
    ///
    /// The summary then goes to standard error.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub force: ForceArg,
    /// Repeat the standard search N times (1 to 1000) and report the fastest and median time.
    #[arg(long, value_name = "N", value_parser = bench_arg)]
    pub bench: Option<u32>,
    /// Check a JSON magic file (`-` for standard input) instead of searching:
    /// all 128 squares (or those of --piece and --square) must be there, once
    /// each; every collision or missing square is reported and makes the exit
    /// status 1.
    #[arg(long, value_name = "FILE")]
    pub verify: Option<PathBuf>,
    /// No progress on standard error.
    ///
    /// A bar shows on a terminal for work that takes more than a second.
    #[arg(short, long)]
    pub quiet: bool,
}

impl MagicSearchArgs {
    /// Whether the answer is one JSON document on stdout.
    pub fn json_on_stdout(&self) -> bool {
        self.json || (self.format == Some(FormatArg::Json) && self.output.as_deref().is_none_or(is_stdio))
    }

    fn format(&self) -> FormatArg {
        if self.json {
            FormatArg::Json
        } else {
            self.format.unwrap_or(FormatArg::Table)
        }
    }

    /// Options that change nothing in this combination are usage errors.
    fn check_combination(&self) -> anyhow::Result<()> {
        let layout = self.layout.unwrap_or(LayoutArg::Fancy);
        if self.verify.is_some() {
            let why = "with --verify (the file gives the magics)";
            let given = [
                ("--seed", self.seed.is_some()),
                ("--bits-reduction", self.bits_reduction > 0),
                ("--layout", self.layout.is_some()),
                ("--time-limit", self.time_limit.is_some()),
                ("--bench", self.bench.is_some()),
                ("--output", self.output.is_some()),
            ];
            if let Some((option, _)) = given.iter().find(|(_, given)| *given) {
                return Err(no_effect(option, why));
            }
            if self.format == Some(FormatArg::Rust) {
                return Err(usage_error("--format rust: --verify reports as a table or json", None));
            }
            return Ok(());
        }
        if layout == LayoutArg::Packed && self.bits_reduction > 0 {
            return Err(usage_error(
                "--bits-reduction cannot be used with --layout packed (the packing chooses its own index bits)",
                None,
            ));
        }
        let standard = self.bits_reduction == 0 && layout != LayoutArg::Packed;
        if standard && self.time_limit.is_some() {
            return Err(no_effect(
                "--time-limit",
                "on a standard search (it always finishes, in milliseconds); it bounds --bits-reduction and --layout packed",
            ));
        }
        if !standard && self.bench.is_some() {
            return Err(no_effect(
                "--bench",
                "with --bits-reduction or --layout packed (it times the standard search)",
            ));
        }
        Ok(())
    }
}

fn bits_reduction_arg(s: &str) -> Result<u32, String> {
    super::common::integer_in(s, 0, 4, "a number of index bits").map(|n| n as u32)
}

fn bench_arg(s: &str) -> Result<u32, String> {
    super::common::integer_in(s, 1, 1000, "a number of runs").map(|n| n as u32)
}

fn time_limit_arg(s: &str) -> Result<f64, String> {
    super::common::seconds_in(s, false, super::common::MAX_SECONDS, "a number of seconds")
}

pub fn run(args: MagicSearchArgs) -> anyhow::Result<Outcome> {
    args.check_combination()?;
    check_output("-o", args.output.as_deref(), args.force.force, &[])?;
    if let Some(path) = &args.verify {
        return verify_file(&args, path);
    }
    let sliders: Vec<Slider> = match args.piece {
        PieceArg::Rook => vec![Slider::Rook],
        PieceArg::Bishop => vec![Slider::Bishop],
        PieceArg::Both => Slider::ALL.to_vec(),
    };
    let squares = match &args.square {
        Some(text) => Some(vec![super::common::parse_square("--square", text)?]),
        None => None,
    };
    let seed = args.seed.unwrap_or(1);
    let time_limit = args.time_limit.map(Duration::from_secs_f64);
    let targets = magic_search::targets(&sliders, squares.as_deref());
    let pool = thread_pool(args.threads)?;
    let threads = pool.current_num_threads();
    let layout = args.layout.unwrap_or(LayoutArg::Fancy);
    if layout == LayoutArg::Packed {
        return run_packed(&args, &targets, &pool, time_limit, squares.is_none() && sliders.len() == 2);
    }
    // A reduced-bit search may fail: it runs for the whole budget (default 10 s) unless every square is found.
    let budget = if args.bits_reduction > 0 { Some(time_limit.unwrap_or(Duration::from_secs(10))) } else { None };
    let black = layout == LayoutArg::Black;
    let runs = args.bench.unwrap_or(1);
    let mut times = Vec::new();
    let mut results = Vec::with_capacity(targets.len());
    let mut missed = 0;
    // Per square (reduced searches): candidates tried, whether found.
    let mut attempts: Vec<(u64, bool)> = Vec::new();
    if let Some(budget) = budget {
        // Rounds of growing slices over the squares not yet found, all threads, until the budget is spent.
        let progress = LazyProgress::new(targets.len() as u64, "reduced magics found", args.quiet);
        let start = std::time::Instant::now();
        progress.set_deadline(Some(start + budget));
        let tick = || progress.inc();
        let outcomes = pool.install(|| {
            // The fancy layout takes whichever form a square gives up a bit in first.
            let forms: &[bool] = if black { &[true] } else { &[false, true] };
            magic_reduced::run(&targets, seed, args.bits_reduction, forms, budget, &tick)
        });
        times.push(start.elapsed());
        progress.finish();
        for o in outcomes {
            attempts.push((o.candidates, o.found.is_some()));
            let found = match o.found {
                Some(f) => f,
                None => {
                    // Missed squares get a standard magic so the file is complete.
                    missed += 1;
                    let one = magic_search::run(&[(o.slider, o.square)], seed, 0, black, None, false, &|| {});
                    one.results[0].2.clone().expect("a standard search without a budget always succeeds")
                }
            };
            results.push(found);
        }
    } else {
        let progress = LazyProgress::new(targets.len() as u64 * u64::from(runs), "magics", args.quiet);
        let tick = || progress.inc();
        let mut report = None;
        for _ in 0..runs {
            let r = pool.install(|| magic_search::run(&targets, seed, 0, black, None, threads > 1, &tick));
            times.push(r.time);
            report = Some(r);
        }
        progress.finish();
        for (_, _, found) in report.expect("at least one run").results {
            results.push(found.expect("a standard search without a budget always succeeds"));
        }
    }
    times.sort();
    let file = fancy_file(&results, if black { "black" } else { "fancy" });
    let verification = magic_verify::verify(&file, squares.is_none() && sliders.len() == 2)?;
    let text = match args.format() {
        FormatArg::Json => json_text(&file, &verification)?,
        FormatArg::Rust => magic_verify::to_rust(&file)?,
        FormatArg::Table => table(&results, args.bits_reduction, &attempts),
    };
    let reduced = results.iter().filter(|f| f.index_bits() < f.relevant_bits).count();
    let mut summary = plural(results.len() as u64, "magic", "magics");
    if args.bits_reduction > 0 {
        summary.push_str(&format!(
            " ({reduced} with {} fewer, {missed} fell back to standard)",
            plural(args.bits_reduction, "index bit", "index bits"),
        ));
    }
    summary.push_str(&format!(
        " in {} on {} (search time, problems built inside it)",
        human_duration(times[0]),
        plural(threads as u64, "thread", "threads"),
    ));
    if runs > 1 {
        summary.push_str(&format!(
            "; {runs} runs: fastest {}, median {}, slowest {}",
            human_duration(times[0]),
            human_duration(times[times.len() / 2]),
            human_duration(times[times.len() - 1])
        ));
    }
    if let Some(b) = budget {
        let tried: u64 = attempts.iter().map(|a| a.0).sum();
        summary.push_str(&format!("; budget {:.1} s wall, {tried} reduced candidates tried", b.as_secs_f64()));
    }
    let summary = format!("{summary}\n{}\n", table_line(&file, &verification));
    emit(&args, &text, &summary, &verification)
}

/// `table: N entries, B bytes; verified ...: ok`.
fn table_line(file: &MagicFile, verification: &magic_verify::Verification) -> String {
    format!(
        "table: {} entries, {} bytes; verified {} occupancies against the reference: {}",
        file.table_entries,
        file.table_entries * 8,
        verification.occupancies,
        if verification.ok() { "ok".to_string() } else { plural(verification.problem_count, "problem", "problems") }
    )
}

/// The magic file with the run's status first (readers of the file ignore it).
fn json_text(file: &MagicFile, verification: &magic_verify::Verification) -> anyhow::Result<String> {
    #[derive(Serialize)]
    struct WithStatus<'a> {
        status: &'static str,
        #[serde(flatten)]
        file: &'a MagicFile,
    }
    let status = if verification.ok() { "ok" } else { "mismatch" };
    Ok(format!("{}\n", serde_json::to_string_pretty(&WithStatus { status, file })?))
}

/// Writes the magics (to `--output` or stdout) and the summary (on stderr
/// unless it belongs to the table), then turns the verification into the outcome.
fn emit(
    args: &MagicSearchArgs,
    text: &str,
    summary: &str,
    verification: &magic_verify::Verification,
) -> anyhow::Result<Outcome> {
    match (&args.output, args.format()) {
        (Some(path), _) if !is_stdio(path) => {
            write_output_file("-o", path, text.as_bytes(), args.force.force, &[])?;
            print_err(summary);
        }
        (_, FormatArg::Table) => print_text(&format!("{text}{summary}"))?,
        _ => {
            print_text(text)?;
            print_err(summary);
        }
    }
    if verification.ok() {
        Ok(Outcome::Success)
    } else {
        let problems: String = verification.problems.iter().map(|p| format!("{p}\n")).collect();
        print_err(&problems);
        Ok(Outcome::Mismatch)
    }
}

/// Fancy layout: each square's block of 2^index-bits slots after the previous one.
fn fancy_file(results: &[Found], layout: &str) -> MagicFile {
    let mut offset = 0u64;
    let magics = results
        .iter()
        .map(|f| {
            let e = MagicEntry {
                piece: f.slider.name().to_string(),
                square: f.square.to_string(),
                mask: hex(f.mask),
                magic: hex(f.magic),
                shift: f.shift,
                offset,
                black: f.black,
            };
            offset += 1 << f.index_bits();
            e
        })
        .collect();
    MagicFile { layout: layout.to_string(), table_entries: offset, magics }
}

fn table(results: &[Found], reduction: u32, attempts: &[(u64, bool)]) -> String {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    t.set_header(vec![
        "piece",
        "square",
        "relevant bits",
        "index bits",
        "magic",
        "entries",
        "used",
        "candidates",
        "time",
    ]);
    for (n, f) in results.iter().enumerate() {
        let bits = if reduction > 0 && f.index_bits() < f.relevant_bits {
            format!("{} (-{})", f.index_bits(), f.relevant_bits - f.index_bits())
        } else {
            f.index_bits().to_string()
        };
        t.add_row(vec![
            f.slider.name().to_string(),
            f.square.to_string(),
            f.relevant_bits.to_string(),
            bits,
            hex(f.magic),
            (1u64 << f.index_bits()).to_string(),
            f.used.to_string(),
            match attempts.get(n) {
                Some((tried, false)) => format!("{tried} (reduced: none)"),
                _ => f.candidates.to_string(),
            },
            human_duration(f.time),
        ]);
    }
    format!("{t}\n")
}

#[derive(Serialize)]
struct VerifyReport {
    status: &'static str,
    file: String,
    entries: usize,
    occupancies: u64,
    slots_used: u64,
    table_entries: u64,
    problem_count: u64,
    problems: Vec<String>,
}

/// What a file given to --verify is, when it is plainly not JSON: the table
/// of published reduced magics we ship (`data/cpw_reduced_magics.txt`) is
/// the likely one, so it is named with the command that reads it.
fn other_format(text: &str) -> Option<&'static str> {
    let first = text.trim_start().chars().next()?;
    if first == '{' || first == '[' {
        return None;
    }
    let rows = text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    let table = rows.clone().next().is_some()
        && rows.clone().all(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            f.len() >= 5 && matches!(f[0], "rook" | "bishop") && f[4].starts_with("0x")
        });
    Some(if table {
        "it is a table of published reduced magics (`piece square relevant used magic` lines, as \
         data/cpw_reduced_magics.txt), which `magic-search --bits-reduction` starts from (built into the binary)"
    } else {
        "it is not JSON"
    })
}

fn verify_file(args: &MagicSearchArgs, path: &std::path::Path) -> anyhow::Result<Outcome> {
    let (text, name) = read_input(path, chesstool::input::MAGIC)?;
    if let Some(what) = other_format(&text) {
        anyhow::bail!(
            "{name}: not a magic file: {what}; --verify reads the JSON that `magic-search --format json` writes"
        );
    }
    let file = magic_verify::parse(&text).with_context(|| name.clone())?;
    let pieces: &[&str] = match args.piece {
        PieceArg::Rook => &["rook"],
        PieceArg::Bishop => &["bishop"],
        PieceArg::Both => &["rook", "bishop"],
    };
    let squares = match &args.square {
        Some(text) => vec![super::common::parse_square("--square", text)?],
        None => Square::ALL.to_vec(),
    };
    let expected: Vec<(&str, Square)> =
        pieces.iter().flat_map(|&piece| squares.iter().map(move |&sq| (piece, sq))).collect();
    let v = magic_verify::verify_squares(&file, &expected).with_context(|| name.clone())?;
    let outcome = if v.ok() { Outcome::Success } else { Outcome::Mismatch };
    if args.format() == FormatArg::Json {
        print_json(&VerifyReport {
            status: if v.ok() { "ok" } else { "mismatch" },
            file: name,
            entries: v.entries,
            occupancies: v.occupancies,
            slots_used: v.slots_used,
            table_entries: file.table_entries,
            problem_count: v.problem_count,
            problems: v.problems.iter().map(ToString::to_string).collect(),
        })?;
        return Ok(outcome);
    }
    let mut out = std::io::stdout().lock();
    for p in &v.problems {
        writeln!(out, "{p}")?;
    }
    if v.problem_count as usize > v.problems.len() {
        writeln!(out, "... and {} more", v.problem_count as usize - v.problems.len())?;
    }
    writeln!(
        out,
        "{name}: {}, {} occupancies, {} of {} slots used: {}",
        plural(v.entries as u64, "entry", "entries"),
        v.occupancies,
        v.slots_used,
        file.table_entries,
        if v.ok() { "ok".to_string() } else { plural(v.problem_count, "problem", "problems") }
    )?;
    Ok(outcome)
}

/// `--layout packed`: one shared, overlapping table.
fn run_packed(
    args: &MagicSearchArgs,
    targets: &[(Slider, Square)],
    pool: &rayon::ThreadPool,
    time_limit: Option<Duration>,
    complete: bool,
) -> anyhow::Result<Outcome> {
    let start = std::time::Instant::now();
    let deadline = time_limit.map(|t| start + t);
    // Step 1 is most of the time; a square's share grows with its occupancies.
    let weight = |slider, square| Problem::new(slider, square).occupancies.len() as u64;
    let step1: u64 = targets.iter().map(|&(slider, square)| weight(slider, square)).sum();
    let progress = LazyProgress::stages("packing", args.quiet);
    progress.set_deadline(deadline);
    progress.stage(STEP1, step1);
    // The stages without counts take their share of step 1's time in the
    // full packing; a part of the squares has no such figures.
    let step1_seconds = std::sync::Mutex::new(0.0);
    let usual = |share: f64| {
        let seconds = *step1_seconds.lock().unwrap_or_else(|e| e.into_inner());
        complete.then(|| Duration::from_secs_f64(seconds * share))
    };
    let on_progress = |p: Progress| match p {
        Progress::Square(slider, square) => progress.inc_by(weight(slider, square)),
        Progress::Bundles => {
            *step1_seconds.lock().unwrap_or_else(|e| e.into_inner()) = progress.stage_elapsed().as_secs_f64();
            progress.stage_expected("choosing the bundles", usual(BUNDLES_SHARE));
        }
        Progress::Placement(orders) => progress.stage("step 2 of 4: placement orders", orders.into()),
        Progress::Pass => progress.inc(),
        Progress::Joint => progress.stage_expected("step 3 of 4: joint placement", usual(JOINT_SHARE)),
        Progress::Refill => progress.stage_expected("step 4 of 4: refill of the holes", usual(REFILL_SHARE)),
    };
    let effort = magic_packed::Effort::default();
    let packing = pool.install(|| magic_packed::pack(targets, args.seed.unwrap_or(1), effort, deadline, &on_progress));
    progress.finish();
    let time = start.elapsed();
    let magics = packing
        .entries
        .iter()
        .map(|e| MagicEntry {
            piece: e.slider.name().to_string(),
            square: e.square.to_string(),
            mask: hex(e.mask),
            magic: hex(e.magic),
            shift: e.shift,
            offset: e.offset,
            black: e.black,
        })
        .collect();
    let file = MagicFile { layout: "packed".to_string(), table_entries: packing.table_entries, magics };
    let verification = magic_verify::verify(&file, complete)?;
    let text = match args.format() {
        FormatArg::Json => json_text(&file, &verification)?,
        FormatArg::Rust => magic_verify::to_rust(&file)?,
        FormatArg::Table => {
            let mut t = Table::new();
            t.load_preset(UTF8_FULL_CONDENSED);
            t.set_header(vec!["piece", "square", "relevant bits", "index bits", "magic", "form", "offset", "used"]);
            for e in &packing.entries {
                t.add_row(vec![
                    e.slider.name().to_string(),
                    e.square.to_string(),
                    e.mask.count_ones().to_string(),
                    (64 - e.shift).to_string(),
                    hex(e.magic),
                    if e.black { "black" } else { "plain" }.to_string(),
                    e.offset.to_string(),
                    e.used.to_string(),
                ]);
            }
            format!("{t}\n")
        }
    };
    let summary = format!(
        "packed {} in {} on {} ({}{}): {} slots used by the squares, {} in {}\n{}\n",
        plural(packing.entries.len() as u64, "magic", "magics"),
        human_duration(time),
        plural(pool.current_num_threads() as u64, "thread", "threads"),
        plural(packing.passes, "placement pass", "placement passes"),
        if deadline.is_some_and(|d| std::time::Instant::now() >= d) { ", cut short by --time-limit" } else { "" },
        packing.used_sum,
        plural(packing.bundled as u64, "square", "squares"),
        plural(packing.bundles as u64, "bundle", "bundles"),
        table_line(&file, &verification),
    );
    emit(args, &text, &summary, &verification)
}
