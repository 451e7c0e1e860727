//! `chesstool magic-search`: find, verify and print magic numbers, or check a
//! magic file.

use super::Outcome;
use anyhow::Context;
use chesstool::board::Square;
use chesstool::tools::magic::search::{self as magic_search, Found, Slider};
use chesstool::tools::magic::verify::{self as magic_verify, hex, MagicEntry, MagicFile};
use chesstool::tools::magic::{packed as magic_packed, reduced as magic_reduced};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Table};
use std::path::PathBuf;
use std::time::Duration;

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
    /// Which sliders to search.
    #[arg(long, value_enum, default_value = "both")]
    pub piece: PieceArg,
    /// Only this square (e.g. a1).
    #[arg(long, value_name = "SQ")]
    pub square: Option<String>,
    /// Seed of the random generator; the result is the same for a seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Look for magics with this many index bits fewer than relevant bits.
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub bits_reduction: u32,
    /// How the squares' blocks are laid out in the shared table.
    #[arg(long, value_enum, default_value = "fancy")]
    pub layout: LayoutArg,
    /// Time budget in seconds for searches that may not finish (reduced bits,
    /// packing); shared out over the squares.
    #[arg(long, value_name = "S")]
    pub time_limit: Option<f64>,
    /// Worker threads (default 1).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = super::common::threads_arg)]
    pub threads: usize,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: FormatArg,
    /// Write the output to FILE instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Repeat the search N times and report the fastest and median time.
    #[arg(long, value_name = "N")]
    pub bench: Option<u32>,
    /// Check a JSON magic file instead of searching; every collision is
    /// reported and makes the exit status 1.
    #[arg(long, value_name = "FILE")]
    pub verify: Option<PathBuf>,
}

pub fn run(args: MagicSearchArgs) -> anyhow::Result<Outcome> {
    if let Some(path) = &args.verify {
        return verify_file(path);
    }
    let sliders: Vec<Slider> = match args.piece {
        PieceArg::Rook => vec![Slider::Rook],
        PieceArg::Bishop => vec![Slider::Bishop],
        PieceArg::Both => Slider::ALL.to_vec(),
    };
    let squares = match &args.square {
        Some(text) => Some(vec![Square::parse(text.trim())
            .with_context(|| format!("unknown square '{text}', expected a name such as a1"))?]),
        None => None,
    };
    if args.threads == 0 {
        anyhow::bail!("--threads must be at least 1");
    }
    if args.bits_reduction > 4 {
        anyhow::bail!("--bits-reduction {} is out of range (0..=4)", args.bits_reduction);
    }
    let time_limit = match args.time_limit {
        Some(s) if !(s.is_finite() && s > 0.0) => anyhow::bail!("--time-limit must be a positive number of seconds"),
        Some(s) => Some(Duration::from_secs_f64(s)),
        None => None,
    };
    let targets = magic_search::targets(&sliders, squares.as_deref());
    let pool =
        rayon::ThreadPoolBuilder::new().num_threads(args.threads).build().context("cannot start worker threads")?;
    if args.layout == LayoutArg::Packed {
        if args.bits_reduction > 0 {
            anyhow::bail!("--layout packed chooses its own index bits; drop --bits-reduction");
        }
        return run_packed(&args, &targets, &pool, time_limit, squares.is_none() && sliders.len() == 2);
    }
    // A reduced-bit search may fail: it runs for the whole budget (default 10 s) unless every square is found.
    let budget = if args.bits_reduction > 0 { Some(time_limit.unwrap_or(Duration::from_secs(10))) } else { time_limit };
    let black = args.layout == LayoutArg::Black;
    let progress = progress_bar(targets.len() as u64, args.bits_reduction > 0);
    let mut times = Vec::new();
    let mut results = Vec::with_capacity(targets.len());
    let mut missed = 0;
    // Per square (reduced searches): candidates tried, whether found.
    let mut attempts: Vec<(u64, bool)> = Vec::new();
    let runs = if args.bits_reduction > 0 { 1 } else { args.bench.unwrap_or(1).max(1) };
    if args.bits_reduction > 0 {
        // Rounds of growing slices over the squares not yet found, all threads, until the budget is spent.
        let tick = || progress.inc(1);
        let start = std::time::Instant::now();
        let outcomes = pool.install(|| {
            // The fancy layout takes whichever form a square gives up a bit in first.
            let forms: &[bool] = if black { &[true] } else { &[false, true] };
            magic_reduced::run(&targets, args.seed, args.bits_reduction, forms, budget.expect("set above"), &tick)
        });
        times.push(start.elapsed());
        for o in outcomes {
            attempts.push((o.candidates, o.found.is_some()));
            let found = match o.found {
                Some(f) => f,
                None => {
                    // Missed squares get a standard magic so the file is complete.
                    missed += 1;
                    let one = magic_search::run(&[(o.slider, o.square)], args.seed, 0, black, None, false, &|| {});
                    one.results[0].2.clone().expect("a standard search always succeeds")
                }
            };
            results.push(found);
        }
    } else {
        let tick = || progress.inc(1);
        let mut report = None;
        for _ in 0..runs {
            let r = pool.install(|| magic_search::run(&targets, args.seed, 0, black, budget, args.threads > 1, &tick));
            times.push(r.time);
            report = Some(r);
        }
        for (_, _, found) in report.expect("at least one run").results {
            results.push(found.expect("a standard search always succeeds"));
        }
    }
    progress.finish_and_clear();
    times.sort();
    let file = fancy_file(&results, if black { "black" } else { "fancy" });
    let verification = magic_verify::verify(&file, squares.is_none() && sliders.len() == 2)?;
    let text = match args.format {
        FormatArg::Json => format!("{}\n", serde_json::to_string_pretty(&file)?),
        FormatArg::Rust => magic_verify::to_rust(&file)?,
        FormatArg::Table => table(&results, args.bits_reduction, &attempts),
    };
    let reduced = results.iter().filter(|f| f.index_bits() < f.relevant_bits).count();
    let mut summary = format!("{} magics", results.len());
    if args.bits_reduction > 0 {
        summary.push_str(&format!(
            " ({reduced} with {} fewer index bit{}, {missed} fell back to standard)",
            args.bits_reduction,
            if args.bits_reduction == 1 { "" } else { "s" }
        ));
    }
    summary.push_str(&format!(
        " in {} on {} thread{} (search time, problems built inside it)",
        ms(times[0]),
        args.threads,
        if args.threads == 1 { "" } else { "s" }
    ));
    if runs > 1 {
        summary.push_str(&format!(
            "; {runs} runs: fastest {}, median {}, slowest {}",
            ms(times[0]),
            ms(times[times.len() / 2]),
            ms(times[times.len() - 1])
        ));
    }
    if let Some(b) = budget.filter(|_| args.bits_reduction > 0) {
        let tried: u64 = attempts.iter().map(|a| a.0).sum();
        summary.push_str(&format!("; budget {:.1} s wall, {tried} reduced candidates tried", b.as_secs_f64()));
    }
    let summary = format!(
        "{summary}\ntable: {} entries, {} bytes; verified {} occupancies against the reference: {}\n",
        file.table_entries,
        file.table_entries * 8,
        verification.occupancies,
        if verification.ok() { "ok".to_string() } else { format!("{} problems", verification.problem_count) }
    );
    emit(&args, &text, &summary, &verification)
}

/// Writes the magics (to `--output` or stdout) and the summary (on stderr
/// unless it belongs to the table), then turns the verification into the outcome.
fn emit(
    args: &MagicSearchArgs,
    text: &str,
    summary: &str,
    verification: &magic_verify::Verification,
) -> anyhow::Result<Outcome> {
    match (&args.output, args.format) {
        (Some(path), _) => {
            super::butterfly::write_output(path, text)?;
            eprint!("{summary}");
        }
        (None, FormatArg::Table) => super::butterfly::print_text(&format!("{text}{summary}"))?,
        (None, _) => {
            super::butterfly::print_text(text)?;
            eprint!("{summary}");
        }
    }
    if verification.ok() {
        Ok(Outcome::Success)
    } else {
        for p in &verification.problems {
            eprintln!("{p}");
        }
        Ok(Outcome::Mismatch)
    }
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

fn progress_bar(len: u64, visible: bool) -> indicatif::ProgressBar {
    if !visible {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::with_draw_target(Some(len), indicatif::ProgressDrawTarget::stderr());
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} squares {elapsed}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
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
            format!("{:.1} us", f.time.as_secs_f64() * 1e6),
        ]);
    }
    format!("{t}\n")
}

fn verify_file(path: &std::path::Path) -> anyhow::Result<Outcome> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let file = magic_verify::parse(&text).with_context(|| path.display().to_string())?;
    let v = magic_verify::verify(&file, false).with_context(|| path.display().to_string())?;
    for p in &v.problems {
        println!("{p}");
    }
    if v.problem_count as usize > v.problems.len() {
        println!("... and {} more", v.problem_count as usize - v.problems.len());
    }
    println!(
        "{}: {} entries, {} occupancies, {} of {} slots used: {}",
        path.display(),
        v.entries,
        v.occupancies,
        v.slots_used,
        file.table_entries,
        if v.ok() { "ok".to_string() } else { format!("{} problems", v.problem_count) }
    );
    Ok(if v.ok() { Outcome::Success } else { Outcome::Mismatch })
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
    let progress = progress_bar(targets.len() as u64, true);
    let tick = || progress.inc(1);
    let effort = magic_packed::Effort::default();
    let packing = pool.install(|| magic_packed::pack(targets, args.seed, effort, deadline, &tick));
    progress.finish_and_clear();
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
    let text = match args.format {
        FormatArg::Json => format!("{}\n", serde_json::to_string_pretty(&file)?),
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
        "packed {} magics in {:.1} s on {} thread{} ({} placement passes{}): {} slots used by the squares, \
         {} squares in {} bundle{}\n\
         table: {} entries, {} bytes; verified {} occupancies against the reference: {}\n",
        packing.entries.len(),
        time.as_secs_f64(),
        args.threads,
        if args.threads == 1 { "" } else { "s" },
        packing.passes,
        if deadline.is_some_and(|d| std::time::Instant::now() >= d) { ", cut short by --time-limit" } else { "" },
        packing.used_sum,
        packing.bundled,
        packing.bundles,
        if packing.bundles == 1 { "" } else { "s" },
        file.table_entries,
        file.table_entries * 8,
        verification.occupancies,
        if verification.ok() { "ok".to_string() } else { format!("{} problems", verification.problem_count) }
    );
    emit(args, &text, &summary, &verification)
}
