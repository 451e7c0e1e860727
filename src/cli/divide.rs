//! `chesstool divide`: per-move perft counts of our generator in Stockfish's
//! format; with an engine (`--engine-uci`, `--engine-script`, `--against`),
//! the engine's divide compared with a reference and, with `--bisect`, the
//! hunt for the first position whose move list is wrong.

use super::{EngineFailure, Outcome};
use anyhow::Context;
use chesstool::engines::find::resolve_program;
use chesstool::engines::{
    split_command, Builtin, DivideFormat, Divider, EngineError, Line, SavedDivide, ScriptEngine, UciEngine,
};
use chesstool::verify::bisect::{Checker, Report, VerifyError, Witness};
use chesstool::verify::diff::DivideDiff;
use chesstool::verify::notation::resolve_move;
use chesstool::Position;
use comfy_table::{presets::UTF8_FULL_CONDENSED, CellAlignment, Table};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct DivideArgs {
    /// FEN, X-FEN or Shredder-FEN of the root position (or `startpos`).
    #[arg(long, default_value = "startpos", allow_hyphen_values = true)]
    pub fen: String,
    /// Moves to play from the FEN first (UCI, long algebraic or SAN), e.g. `--moves e2e4 e7e5`.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Treat the position as Chess960 (otherwise recognised from the castling field).
    #[arg(long)]
    pub chess960: bool,
    /// Depth of the divide (1 or more).
    #[arg(long, short, value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: u32,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Compare a saved divide output instead of running an engine (`-` for standard input).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["engine_uci", "engine_script", "bisect"])]
    pub against: Option<PathBuf>,
    /// With an engine: descend to the first position whose move list is wrong.
    #[arg(long)]
    pub bisect: bool,
    /// Hash table size in MiB for our generator (0 = none).
    #[arg(long, value_name = "MB", default_value_t = 0)]
    pub hash: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub variant: super::variant::VariantArgs,
}

/// How to reach the engine under test and the reference.
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
    /// The engine under test, a UCI program answering `go perft N` (a command line, quoted like a shell).
    #[arg(long, value_name = "CMD", conflicts_with = "engine_script")]
    pub engine_uci: Option<String>,
    /// The engine under test, a perftree-style script run as `CMD DEPTH "FEN" "MOVES"`.
    #[arg(long, value_name = "CMD")]
    pub engine_script: Option<String>,
    /// The reference: `builtin` (our generator, the default).
    #[arg(long, value_name = "NAME", default_value = "builtin", value_parser = ["builtin"])]
    pub reference: String,
    /// A UCI reference instead of ours (`stockfish` is looked up on PATH, then at /usr/games/stockfish).
    #[arg(long, value_name = "CMD", conflicts_with = "reference_script")]
    pub reference_uci: Option<String>,
    /// A perftree-style script as the reference.
    #[arg(long, value_name = "CMD")]
    pub reference_script: Option<String>,
    /// Seconds every engine call may take before the engine is killed.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = positive_seconds)]
    pub timeout: f64,
    /// Layout of the engine's divide output: auto, stockfish, perftree, weiss, dash, total.
    #[arg(long, value_name = "FORMAT", default_value = "auto", value_parser = parse_format)]
    pub format: DivideFormat,
    /// Hash table size in MiB for the builtin reference (set from the
    /// subcommand's own `--hash`).
    #[arg(skip)]
    pub hash_mb: usize,
}

fn positive_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("{s:?} is not a positive number of seconds")),
    }
}

fn parse_format(s: &str) -> Result<DivideFormat, String> {
    s.parse()
}

impl EngineArgs {
    fn timeout(&self) -> Duration {
        Duration::from_secs_f64(self.timeout)
    }

    /// The engine under test (`None` if none was given).
    pub fn engine(&self) -> anyhow::Result<Option<Box<dyn Divider>>> {
        let timeout = self.timeout();
        Ok(match (&self.engine_uci, &self.engine_script) {
            (Some(cmd), _) => {
                Some(Box::new(UciEngine::new(cmd, command_words(cmd, "--engine-uci")?, timeout, self.format)))
            }
            (_, Some(cmd)) => {
                Some(Box::new(ScriptEngine::new(cmd, command_words(cmd, "--engine-script")?, timeout, self.format)))
            }
            _ => None,
        })
    }

    /// The reference: ours unless a reference engine was given.
    pub fn reference(&self) -> anyhow::Result<Box<dyn Divider>> {
        let timeout = self.timeout();
        let auto = DivideFormat::Auto;
        Ok(match (&self.reference_uci, &self.reference_script) {
            (Some(cmd), _) => Box::new(UciEngine::new(cmd, command_words(cmd, "--reference-uci")?, timeout, auto)),
            (_, Some(cmd)) => {
                Box::new(ScriptEngine::new(cmd, command_words(cmd, "--reference-script")?, timeout, auto))
            }
            _ => Box::new(Builtin::with_hash(self.hash_mb).context("--hash")?),
        })
    }
}

/// Splits a command line; a bare `stockfish` is looked up where Debian puts it.
fn command_words(cmd: &str, flag: &str) -> anyhow::Result<Vec<String>> {
    let words = split_command(cmd).with_context(|| format!("{flag} {cmd:?}: unbalanced quotes"))?;
    anyhow::ensure!(!words.is_empty(), "{flag}: empty command");
    resolve_program(words).map_err(|e| anyhow::anyhow!("{flag}: {e}"))
}

/// The root position and the moves played from it, as given on the command
/// line (moves in UCI, long algebraic or SAN).
pub(crate) fn resolve_line(fen: &str, moves: &[String], chess960: bool) -> anyhow::Result<Line> {
    let mut root = Position::from_fen(fen).with_context(|| format!("--fen {fen:?}"))?;
    if chess960 {
        root.set_chess960(true);
    }
    let mut line = Line::new(root);
    let mut pos = root;
    for text in moves {
        let m = resolve_move(&pos, text).with_context(|| format!("--moves: {text:?} in {}", pos.to_fen()))?;
        line.moves.push(m);
        pos = pos.play(m);
    }
    Ok(line)
}

pub fn run(mut args: DivideArgs) -> anyhow::Result<Outcome> {
    if args.variant.is_set() {
        if args.engine.engine_uci.is_some() || args.engine.engine_script.is_some() || args.against.is_some() {
            return super::variant::unsupported("an engine or --against");
        }
        return super::variant::divide(&args.variant, &args.fen, &args.moves, args.depth, args.json);
    }
    args.engine.hash_mb = args.hash;
    let line = resolve_line(&args.fen, &args.moves, args.chess960)?;
    let mut engine: Box<dyn Divider> = if let Some(path) = &args.against {
        Box::new(saved_divide(path, args.engine.format)?)
    } else if let Some(engine) = args.engine.engine()? {
        engine
    } else {
        anyhow::ensure!(!args.bisect, "--bisect needs an engine: --engine-uci CMD or --engine-script CMD");
        anyhow::ensure!(
            args.engine.reference_uci.is_none() && args.engine.reference_script.is_none(),
            "a reference needs an engine to compare: --engine-uci, --engine-script or --against"
        );
        return run_builtin(&line, args.depth, args.hash, args.json);
    };
    let mut reference = args.engine.reference()?;
    let started = Instant::now();
    let mut checker = Checker::new(engine.as_mut(), reference.as_mut());
    let result = checker.check(&line, args.depth, args.bisect);
    let calls = checker.engine_calls;
    let report = match result {
        Ok(report) => report,
        Err(e) => {
            let err = verify_error(e);
            if args.json {
                let j = serde_json::json!({"status": "error", "error": format!("{err:#}"), "engine_calls": calls});
                print(&format!("{j}\n"))?;
            }
            return Err(err);
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    let text = if args.json {
        format!("{}\n", serde_json::to_string(&report_json(&line, args.depth, &report, calls))?)
    } else {
        report_text(&line, args.depth, &report, calls, seconds, args.bisect)
    };
    print(&text)?;
    Ok(if report.witness.is_some() { Outcome::Mismatch } else { Outcome::Success })
}

/// A comparison failure as an error with the right exit code: engine
/// failures (3) carry `EngineFailure`, input errors (2) do not.
pub(crate) fn verify_error(e: VerifyError) -> anyhow::Error {
    if e.is_engine_failure() {
        anyhow::Error::new(EngineFailure(e.to_string()))
    } else {
        anyhow::anyhow!("{e}")
    }
}

fn saved_divide(path: &PathBuf, format: DivideFormat) -> anyhow::Result<SavedDivide> {
    let (name, text) = if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).context("cannot read standard input")?;
        ("standard input".to_string(), text)
    } else {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
        (name, text)
    };
    SavedDivide::parse(&name, &text, format).map_err(|e: EngineError| anyhow::anyhow!("{e}"))
}

/// Our generator alone: Stockfish's format, moves sorted by their UCI text.
fn run_builtin(line: &Line, depth: u32, hash_mb: usize, json: bool) -> anyhow::Result<Outcome> {
    let divide = Builtin::with_hash(hash_mb).context("--hash")?.divide(line, depth)?;
    let moves: BTreeMap<String, u64> = divide.moves.iter().cloned().collect();
    let nodes = divide.nodes();
    let text = if json {
        #[derive(Serialize)]
        struct Json<'a> {
            fen: String,
            depth: u32,
            moves: &'a BTreeMap<String, u64>,
            nodes: u64,
        }
        let j = Json { fen: line.position().to_fen(), depth, moves: &moves, nodes };
        format!("{}\n", serde_json::to_string(&j)?)
    } else {
        stockfish_text(&moves, nodes)
    };
    print(&text)?;
    Ok(Outcome::Success)
}

/// `e2e4: 20` per move, a blank line, `Nodes searched: N`.
pub(crate) fn stockfish_text(moves: &BTreeMap<String, u64>, nodes: u64) -> String {
    let mut text = String::new();
    for (m, n) in moves {
        text.push_str(&format!("{m}: {n}\n"));
    }
    text.push_str(&format!("\nNodes searched: {nodes}\n"));
    text
}

/// One root-level difference.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct DiffRow {
    #[serde(rename = "move")]
    pub mv: String,
    pub engine: Option<u64>,
    pub reference: Option<u64>,
}

/// Every differing move of a divide: counts, then missing, then extra.
pub(crate) fn diff_rows(d: &DivideDiff) -> Vec<DiffRow> {
    let mut rows: Vec<DiffRow> = d
        .counts
        .iter()
        .map(|c| DiffRow { mv: c.uci.clone(), engine: Some(c.engine), reference: Some(c.reference) })
        .collect();
    rows.extend(d.missing.iter().map(|m| DiffRow { mv: m.uci.clone(), engine: None, reference: Some(m.reference) }));
    rows.extend(d.extra.iter().map(|x| DiffRow { mv: x.uci.clone(), engine: Some(x.engine), reference: None }));
    rows.sort_by(|a, b| a.mv.cmp(&b.mv));
    rows
}

/// The witness (or the start, for a match) in the JSON shape.
#[derive(Serialize, Debug)]
pub struct ReportJson {
    pub status: &'static str,
    pub path: Vec<String>,
    pub fen: String,
    pub depth: u32,
    pub missing: Vec<String>,
    pub extra: Vec<String>,
    pub diffs: Vec<DiffRow>,
    /// The depth of `diffs`: the first depth at which the start position differs.
    pub diffs_depth: u32,
    pub engine_calls: u32,
    pub engine_total: u64,
    pub reference_total: u64,
    /// Why each missing or extra move is wrong, where easy to tell.
    pub hints: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

pub(crate) fn report_json(start: &Line, depth: u32, report: &Report, calls: u32) -> ReportJson {
    let (line, wdepth, diff, note, status) = match &report.witness {
        Some(Witness { line, depth, diff, note }) => (line, *depth, diff, note.clone(), "mismatch"),
        None => (start, depth, &report.root, None, "match"),
    };
    let mut hints = BTreeMap::new();
    for m in &diff.missing {
        if let Some(h) = &m.hint {
            hints.insert(m.uci.clone(), h.clone());
        }
    }
    for x in &diff.extra {
        if let Some(h) = &x.hint {
            hints.insert(x.uci.clone(), h.clone());
        }
    }
    ReportJson {
        status,
        path: line.uci_moves(),
        fen: line.position().to_fen(),
        depth: wdepth,
        missing: diff.missing.iter().map(|m| m.uci.clone()).collect(),
        extra: diff.extra.iter().map(|x| x.uci.clone()).collect(),
        diffs: diff_rows(&report.root),
        diffs_depth: report.root_depth,
        engine_calls: calls,
        engine_total: report.root.engine_total,
        reference_total: report.root.reference_total,
        hints,
        note,
    }
}

/// The differing moves as a table: move, engine, reference, difference.
pub(crate) fn diff_table(d: &DivideDiff) -> Table {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(vec!["Move", "Engine", "Reference", "Difference"]);
    let num = |n: Option<u64>| n.map_or("-".to_string(), |n| n.to_string());
    for row in diff_rows(d) {
        let difference = match (row.engine, row.reference) {
            (Some(e), Some(r)) => format!("{:+}", e as i128 - r as i128),
            (None, _) => "missing".to_string(),
            (_, None) => "extra".to_string(),
        };
        table.add_row(vec![row.mv.clone(), num(row.engine), num(row.reference), difference]);
    }
    for i in 1..3 {
        table.column_mut(i).expect("four columns").set_cell_alignment(CellAlignment::Right);
    }
    table
}

/// Missing and extra moves of a witness, one per line with its hint.
pub(crate) fn witness_text(w: &Witness) -> String {
    let mut text = String::new();
    let path = w.line.uci_moves();
    text.push_str(&format!(
        "path:    {}\n",
        if path.is_empty() { "(the root position)".to_string() } else { path.join(" ") }
    ));
    text.push_str(&format!("fen:     {}\n", w.line.position().to_fen()));
    text.push_str(&format!("depth:   {}\n", w.depth));
    let list = |items: Vec<(String, Option<String>)>| {
        if items.is_empty() {
            return "(none)".to_string();
        }
        items
            .into_iter()
            .map(|(m, h)| match h {
                Some(h) => format!("{m} ({h})"),
                None => m,
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    text.push_str(&format!(
        "missing: {}\n",
        list(w.diff.missing.iter().map(|m| (m.uci.clone(), m.hint.clone())).collect())
    ));
    text.push_str(&format!(
        "extra:   {}\n",
        list(w.diff.extra.iter().map(|x| (x.uci.clone(), x.hint.clone())).collect())
    ));
    if let Some(note) = &w.note {
        text.push_str(&format!("note:    {note}\n"));
    }
    if !w.diff.lists_differ() && !w.diff.counts.is_empty() {
        text.push_str(&format!("{}\n", diff_table(&w.diff)));
    }
    text
}

fn report_text(start: &Line, requested: u32, report: &Report, calls: u32, seconds: f64, bisect: bool) -> String {
    let root = &report.root;
    let depth = requested;
    let mut text = String::new();
    if report.witness.is_none() {
        text.push_str(&format!("match at depth {depth}: {} nodes\n", root.engine_total));
        text.push_str(&format!("engine calls: {calls} ({seconds:.2} s)\n"));
        return text;
    }
    let depth = report.root_depth;
    if bisect && depth < requested {
        text.push_str(&format!("the first difference shows at depth {depth} (of {requested}):\n"));
    }
    if root.engine_total_only || root.reference_total_only {
        text.push_str("(only totals to compare: a side printed no per-move counts)\n");
    } else {
        text.push_str(&format!("{}\n", diff_table(root)));
    }
    text.push_str(&format!(
        "totals at depth {depth}: engine {}, reference {} ({:+})\n",
        root.engine_total,
        root.reference_total,
        root.engine_total as i128 - root.reference_total as i128
    ));
    if let Some(w) = &report.witness {
        if bisect {
            text.push_str(&format!("\nfirst wrong position (from {}):\n", start.root_fen()));
            text.push_str(&witness_text(w));
        } else if w.diff.lists_differ() {
            text.push('\n');
            text.push_str(&witness_text(w));
        }
    }
    text.push_str(&format!("engine calls: {calls} ({seconds:.2} s)\n"));
    text
}

/// `chesstool suite --engine-uci/--engine-script`: the engine's counts, and a
/// witness by bisection for every count that disagrees with the suite.
pub(crate) struct SuiteEngine {
    engine: Box<dyn Divider>,
    reference: Box<dyn Divider>,
}

impl SuiteEngine {
    /// `None` if no engine was given (the suite then runs our generator).
    pub fn start(args: &EngineArgs) -> anyhow::Result<Option<SuiteEngine>> {
        let Some(engine) = args.engine()? else {
            anyhow::ensure!(
                args.reference_uci.is_none() && args.reference_script.is_none(),
                "a reference needs an engine to compare: --engine-uci or --engine-script"
            );
            return Ok(None);
        };
        Ok(Some(SuiteEngine { engine, reference: args.reference()? }))
    }

    /// The engine's node count at `depth`.
    pub fn count(&mut self, pos: &Position, depth: u32) -> anyhow::Result<u64> {
        let divide = self.engine.divide(&Line::new(*pos), depth).map_err(|e| verify_error(VerifyError::Engine(e)))?;
        Ok(divide.nodes())
    }

    /// Bisects from `pos` against the reference.
    pub fn witness(&mut self, pos: &Position, depth: u32) -> anyhow::Result<Option<ReportJson>> {
        let line = Line::new(*pos);
        let mut checker = Checker::new(self.engine.as_mut(), self.reference.as_mut());
        let report = checker.check(&line, depth, true).map_err(verify_error)?;
        Ok(Some(report_json(&line, depth, &report, checker.engine_calls)))
    }
}

/// The witnesses of a suite run against an engine, as text (empty if none).
pub(crate) fn suite_witness_text(mismatches: &[super::suite::Mismatch]) -> String {
    let mut text = String::new();
    for m in mismatches {
        let Some(w) = &m.witness else { continue };
        text.push_str(&format!("\n{} (depth {}): ", m.origin, m.depth));
        if w.status == "match" {
            text.push_str("the engine agrees with the reference here; the suite's count may be wrong\n");
            continue;
        }
        let list = |v: &[String]| if v.is_empty() { "(none)".to_string() } else { v.join(", ") };
        text.push_str(&format!("first wrong position after {} engine calls\n", w.engine_calls));
        let path = if w.path.is_empty() { "(the suite position)".to_string() } else { w.path.join(" ") };
        text.push_str(&format!("  path:    {path}\n  fen:     {}\n  depth:   {}\n", w.fen, w.depth));
        text.push_str(&format!("  missing: {}\n  extra:   {}\n", list(&w.missing), list(&w.extra)));
        for (mv, hint) in &w.hints {
            text.push_str(&format!("  {mv}: {hint}\n"));
        }
        if let Some(note) = &w.note {
            text.push_str(&format!("  note:    {note}\n"));
        }
    }
    text
}

fn print(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}
