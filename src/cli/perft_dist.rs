//! `chesstool perft split | unit | merge`: a perft cut into unique-position
//! work units that any batch system can run, merged only once proven.

use super::common::{with_threads, LazyProgress, PositionArgs};
use super::Outcome;
use anyhow::{anyhow, bail, Context, Result};
use chesstool::perft::merge::{merge, MergeError, UnitFigures};
use chesstool::perft::split::{unique_positions, SplitProgress};
use chesstool::perft::unit::{run_unit, UnitRecord};
use chesstool::perft::units::{parse_unit_line, sha256_file, Manifest, UnitWriter, MANIFEST_NAME};
use chesstool::perft::{perft_fast_parallel, HashTable, MAX_DEPTH};
use chesstool::position::Position;
use comfy_table::{presets::UTF8_FULL_CONDENSED, CellAlignment, Table};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Subcommand, Debug)]
pub enum PerftAction {
    /// Write the unique positions at --split-ply (with how often each occurs)
    /// as work units of --unit-size `FEN count` lines, and DIR/manifest.json.
    Split(SplitArgs),
    /// Compute one unit: `FEN count perft product` per record; an interrupted
    /// run resumes after the last complete line of its --output file.
    Unit(UnitArgs),
    /// Check every unit's results against the units (and each other, where a
    /// unit was computed twice), then add them up exactly.
    Merge(MergeArgs),
}

fn depth_arg(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(d) if d <= MAX_DEPTH => Ok(d),
        _ => Err(format!("{s} is not a depth (0 to {MAX_DEPTH})")),
    }
}

fn positive_arg(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("{s} is not a positive number")),
    }
}

#[derive(clap::Args, Debug)]
pub struct SplitArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// The ply whose unique positions become the work units.
    #[arg(long, value_name = "PLY", value_parser = depth_arg)]
    pub split_ply: u32,
    /// Depth of the perft in plies.
    ///
    /// The whole perft's depth; each unit searches depth - split ply.
    #[arg(short, long, value_name = "DEPTH", value_parser = depth_arg)]
    pub depth: u32,
    /// Records per unit file.
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = positive_arg)]
    pub unit_size: u64,
    /// Memory for the enumeration in MiB (more passes over the last ply when
    /// its records do not fit).
    #[arg(long, value_name = "MB", default_value_t = 4096, value_parser = positive_arg)]
    pub memory: u64,
    /// Worker threads (0 = all cores).
    #[arg(short = 't', long, value_name = "THREADS", default_value_t = 0, value_parser = super::common::threads_arg)]
    pub threads: usize,
    /// Directory for the units and the manifest (new or empty).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// No progress on standard error.
    #[arg(short, long)]
    pub quiet: bool,
    /// Print one JSON document instead of text (see `chesstool docs json`).
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args, Debug)]
pub struct UnitArgs {
    /// The unit file (`FEN count` lines) from `perft split`.
    pub file: PathBuf,
    /// The manifest that lists the unit (default: manifest.json beside it).
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,
    /// Depth of the perft in plies.
    ///
    /// The depth below each record: the manifest's depth - split ply (the default).
    #[arg(short, long, value_name = "DEPTH", value_parser = depth_arg)]
    pub depth: Option<u32>,
    /// Hash table size in MiB, shared by all threads (0 = no table).
    ///
    /// One table for all records of the unit.
    #[arg(long, value_name = "MB", default_value_t = 0)]
    pub hash: usize,
    /// Worker threads (0 = all cores).
    #[arg(short = 't', long, value_name = "THREADS", default_value_t = 0, value_parser = super::common::threads_arg)]
    pub threads: usize,
    /// Zobrist keys from this seed (0 = the default keys), for a second,
    /// independent computation of a unit with --hash.
    #[arg(long, value_name = "SEED", default_value_t = 0)]
    pub zobrist_seed: u64,
    /// The results file to write; an existing one is checked and continued.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// No progress on standard error.
    #[arg(short, long)]
    pub quiet: bool,
    /// Print one JSON document instead of text (see `chesstool docs json`).
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The split's manifest.json (the units are read beside it).
    pub manifest: PathBuf,
    /// Results files of `perft unit`, at least one per unit (two for a unit
    /// computed twice), in any order.
    #[arg(required = true)]
    pub results: Vec<PathBuf>,
    /// Worker threads (0 = all cores).
    #[arg(short = 't', long, value_name = "THREADS", default_value_t = 0, value_parser = super::common::threads_arg)]
    pub threads: usize,
    /// No progress on standard error.
    #[arg(short, long)]
    pub quiet: bool,
    /// Print one JSON document instead of text (see `chesstool docs json`).
    ///
    /// With the figures of every unit.
    #[arg(long)]
    pub json: bool,
}

impl PerftAction {
    /// Whether the run answers with one JSON document on stdout.
    pub fn json(&self) -> bool {
        match self {
            PerftAction::Split(a) => a.json,
            PerftAction::Unit(a) => a.json,
            PerftAction::Merge(a) => a.json,
        }
    }
}

pub fn run(action: PerftAction) -> Result<Outcome> {
    match action {
        PerftAction::Split(args) => split(&args),
        PerftAction::Unit(args) => unit(&args),
        PerftAction::Merge(args) => merge_cmd(&args),
    }
}

// ---- split ---------------------------------------------------------------

#[derive(Serialize)]
struct SplitReport {
    status: &'static str,
    root: String,
    depth: u32,
    split_ply: u32,
    unique: u64,
    sum_counts: u64,
    units: usize,
    manifest: String,
    /// One row per ply from 1 (the vocabulary's `rows`).
    rows: Vec<chesstool::perft::split::PlyStats>,
    seconds: f64,
}

/// Creates `dir`, or accepts it if empty: a split never overwrites.
fn fresh_dir(dir: &Path) -> Result<()> {
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir).with_context(|| format!("-o {}", dir.display()))?;
        if entries.next().is_some() {
            bail!("-o {}: the directory is not empty (a split never overwrites)", dir.display());
        }
    }
    std::fs::create_dir_all(dir).with_context(|| format!("-o {}", dir.display()))
}

fn split(args: &SplitArgs) -> Result<Outcome> {
    if args.split_ply > args.depth {
        return Err(super::usage_error(
            format!("--split-ply {} is deeper than --depth {}", args.split_ply, args.depth),
            None,
        ));
    }
    let root = args.position.resolve()?;
    fresh_dir(&args.output)?;
    let started = Instant::now();
    let mut writer = UnitWriter::new(&args.output, args.unit_size);
    let memory = usize::try_from(args.memory).unwrap_or(usize::MAX).saturating_mul(1 << 20);
    let quiet = args.quiet || args.json;
    // One bar per ply and pass, over the parents expanded.
    let mut bar: Option<((u32, usize), usize, LazyProgress)> = None;
    let mut progress = |p: &SplitProgress| {
        if bar.as_ref().is_none_or(|(at, _, _)| *at != (p.ply, p.pass)) {
            if let Some((_, _, old)) = &bar {
                old.finish();
            }
            let what = format!("ply {} pass {}/{}", p.ply, p.pass + 1, p.passes);
            bar = Some(((p.ply, p.pass), 0, LazyProgress::new(p.parents as u64, &what, quiet)));
        }
        if let Some((_, shown, b)) = &mut bar {
            (*shown..p.parents_done).for_each(|_| b.inc());
            *shown = p.parents_done;
        }
    };
    let (plies, perft_k) = with_threads(args.threads, || {
        let plies = unique_positions(&root, args.split_ply, memory, &mut progress, &mut |r| writer.push(r));
        (plies, perft_fast_parallel(&root, args.split_ply, None))
    })?;
    if let Some((_, _, b)) = &bar {
        b.finish();
    }
    let plies = plies.with_context(|| format!("-o {}", args.output.display()))?;
    let units = writer.finish().with_context(|| format!("-o {}", args.output.display()))?;
    let unique: u64 = units.iter().map(|u| u.records).sum();
    let sum_counts = plies.last().map_or(1, |p| p.occurrences);
    if sum_counts != perft_k {
        bail!("internal: the occurrences add up to {sum_counts}, but perft({}) is {perft_k}", args.split_ply);
    }
    let manifest =
        Manifest { root: root.to_fen(), split_ply: args.split_ply, depth: args.depth, unique, sum_counts, units };
    manifest.write(&args.output).with_context(|| format!("-o {}", args.output.display()))?;
    let seconds = started.elapsed().as_secs_f64();
    let manifest_path = args.output.join(MANIFEST_NAME).display().to_string();
    if args.json {
        super::common::print_json(&SplitReport {
            status: "ok",
            root: manifest.root,
            depth: args.depth,
            split_ply: args.split_ply,
            unique,
            sum_counts,
            units: manifest.units.len(),
            manifest: manifest_path,
            rows: plies,
            seconds,
        })?;
        return Ok(Outcome::Success);
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "Root: {}", manifest.root)?;
    for p in &plies {
        writeln!(
            out,
            "ply {}: {} unique of {} ({} pass(es), {:.2} s)",
            p.ply, p.unique, p.occurrences, p.passes, p.seconds
        )?;
    }
    writeln!(
        out,
        "Units: {} of up to {} records, {} in all; the counts add up to perft({}) = {}",
        manifest.units.len(),
        args.unit_size,
        unique,
        args.split_ply,
        sum_counts
    )?;
    writeln!(
        out,
        "Manifest: {manifest_path} (depth {}: each record needs perft({}))",
        args.depth,
        args.depth - args.split_ply
    )?;
    writeln!(out, "Time: {seconds:.2} s")?;
    Ok(Outcome::Success)
}

// ---- unit ----------------------------------------------------------------

#[derive(Serialize)]
struct UnitReport {
    status: &'static str,
    /// The unit file read.
    file: String,
    root: String,
    depth: u32,
    records: usize,
    resumed: usize,
    nodes: u128,
    threads: usize,
    hash_mb: usize,
    zobrist_seed: u64,
    seconds: f64,
}

/// The unit's records, its FENs checked, after its checksum is checked
/// against the manifest.
fn read_unit(path: &Path, manifest: &Manifest, chess960: bool) -> Result<Vec<UnitRecord>> {
    let file = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    let entry = manifest
        .units
        .iter()
        .find(|u| u.file == file)
        .ok_or_else(|| anyhow!("{}: the manifest lists no unit {file:?}", path.display()))?;
    let sha = sha256_file(path).with_context(|| path.display().to_string())?;
    if sha != entry.sha256 {
        bail!(
            "{}: sha256 {sha} is not the manifest's {} (the unit changed after the split)",
            path.display(),
            entry.sha256
        );
    }
    let mut lines = chesstool::input::Input::open(path)?.lines(chesstool::input::UNITS)?;
    let mut records = Vec::new();
    while let Some((number, line)) = lines.next_line()? {
        let at = || format!("{} line {number}", path.display());
        let (fen, count) = parse_unit_line(line).map_err(|e| anyhow!("{}: {e}", at()))?;
        let mut position = Position::from_fen(fen).with_context(|| format!("{}: {fen:?}", at()))?;
        if chess960 {
            position.set_chess960(true);
        }
        records.push(UnitRecord { fen: fen.to_string(), count, position });
    }
    if records.len() as u64 != entry.records {
        bail!("{}: {} records, the manifest says {}", path.display(), records.len(), entry.records);
    }
    Ok(records)
}

/// The unit is a readable file: checked before its manifest is looked for
/// beside it, so that a wrong unit path is named as such.
fn check_unit_file(path: &Path) -> Result<()> {
    if path.as_os_str() == "-" {
        bail!("-: a unit is read from a file, not from standard input");
    }
    let meta = std::fs::metadata(path).with_context(|| format!("cannot read unit {}", path.display()))?;
    if !meta.is_file() {
        bail!("{}: the unit is not a file", path.display());
    }
    let cap = chesstool::input::UNITS;
    if meta.len() > cap.total {
        bail!("{}: larger than {} (the cap for {})", path.display(), chesstool::input::size(cap.total), cap.what);
    }
    std::fs::File::open(path).with_context(|| format!("cannot read unit {}", path.display()))?;
    Ok(())
}

fn unit(args: &UnitArgs) -> Result<Outcome> {
    // Before any position is made: every key in this process is of one family.
    chesstool::board::zobrist::set_seed(args.zobrist_seed);
    check_unit_file(&args.file)?;
    let manifest_path = match &args.manifest {
        Some(p) => p.clone(),
        None => args.file.parent().unwrap_or(Path::new(".")).join(MANIFEST_NAME),
    };
    let manifest = Manifest::read(&manifest_path).map_err(|e| anyhow!(e))?;
    let root = Position::from_fen(&manifest.root).with_context(|| format!("{}: root", manifest_path.display()))?;
    let depth = manifest.depth - manifest.split_ply;
    if let Some(d) = args.depth.filter(|&d| d != depth) {
        bail!(
            "--depth {d} is not the manifest's depth {} - split ply {} = {depth}",
            manifest.depth,
            manifest.split_ply
        );
    }
    if args.output.as_os_str() == "-" {
        bail!("-o -: a unit's results go to a file, so that an interrupted unit can resume");
    }
    let records = read_unit(&args.file, &manifest, root.is_chess960())?;
    let threads =
        if args.threads == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { args.threads };
    let table = (args.hash > 0).then(|| HashTable::try_new(args.hash)).transpose().context("--hash")?;
    let started = Instant::now();
    let progress = LazyProgress::new(records.len() as u64, "unit", args.quiet || args.json);
    let summary = run_unit(&records, depth, table.as_ref(), threads, &args.output, &|| progress.inc())?;
    progress.finish();
    let seconds = started.elapsed().as_secs_f64();
    let unit = args.file.display().to_string();
    if let Some(bytes) = summary.dropped_partial {
        eprintln!("note: {}: dropped a partial last line ({bytes} bytes)", args.output.display());
    }
    if args.json {
        super::common::print_json(&UnitReport {
            status: "ok",
            file: unit,
            root: manifest.root,
            depth,
            records: records.len(),
            resumed: summary.resumed,
            nodes: summary.nodes,
            threads,
            hash_mb: args.hash,
            zobrist_seed: args.zobrist_seed,
            seconds,
        })?;
        return Ok(Outcome::Success);
    }
    let mut out = std::io::stdout().lock();
    let resumed = match summary.resumed {
        0 => String::new(),
        n => format!(" (resumed after {n} records)"),
    };
    writeln!(out, "{unit}: {} records, perft({depth}) each: nodes {}{resumed}", records.len(), summary.nodes)?;
    writeln!(out, "Results: {}  Time: {seconds:.3} s", args.output.display())?;
    Ok(Outcome::Success)
}

// ---- merge ---------------------------------------------------------------

#[derive(Serialize)]
struct MergeJson<'a> {
    status: &'static str,
    root: &'a str,
    depth: u32,
    split_ply: u32,
    nodes: u128,
    units: usize,
    records: u64,
    occurrences: u64,
    seconds: f64,
    /// One row per unit (the vocabulary's `rows`).
    rows: &'a [UnitFigures],
}

fn merge_cmd(args: &MergeArgs) -> Result<Outcome> {
    let started = Instant::now();
    let manifest = Manifest::read(&args.manifest).map_err(|e| anyhow!(e))?;
    let dir = args.manifest.parent().unwrap_or(Path::new("."));
    let root = Position::from_fen(&manifest.root).with_context(|| format!("{}: root", args.manifest.display()))?;
    let progress = LazyProgress::new(manifest.units.len() as u64, "merge", args.quiet || args.json);
    let result = with_threads(args.threads, || {
        let perft_k = perft_fast_parallel(&root, manifest.split_ply, None);
        merge(&manifest, dir, &args.results, perft_k, &|| progress.inc())
    })?;
    progress.finish();
    let report = match result {
        Ok(r) => r,
        Err(MergeError::Input(message)) => bail!(message),
        Err(MergeError::Mismatch(message)) => {
            if args.json {
                #[derive(Serialize)]
                struct Mismatch<'a> {
                    status: &'static str,
                    message: &'a str,
                }
                super::common::print_json(&Mismatch { status: "mismatch", message: &message })?;
            }
            eprintln!("error: {message}");
            return Ok(Outcome::Mismatch);
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        super::common::print_json(&MergeJson {
            status: "ok",
            root: &manifest.root,
            depth: manifest.depth,
            split_ply: manifest.split_ply,
            nodes: report.nodes,
            units: report.units.len(),
            records: report.records,
            occurrences: report.occurrences,
            seconds,
            rows: &report.units,
        })?;
        return Ok(Outcome::Success);
    }
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(vec!["Unit", "Records", "Occurrences", "Nodes", "Computations"]);
    for u in &report.units {
        table.add_row(vec![
            u.file.clone(),
            u.records.to_string(),
            u.occurrences.to_string(),
            u.nodes.to_string(),
            u.computations.to_string(),
        ]);
    }
    for i in 1..5 {
        table.column_mut(i).expect("five columns").set_cell_alignment(CellAlignment::Right);
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "{table}")?;
    writeln!(out, "Root: {}", manifest.root)?;
    writeln!(
        out,
        "perft({}) = {}: {} units, {} records, {} occurrences = perft({}); all checked",
        manifest.depth,
        report.nodes,
        report.units.len(),
        report.records,
        report.occurrences,
        manifest.split_ply
    )?;
    writeln!(out, "Time: {seconds:.2} s")?;
    Ok(Outcome::Success)
}
