//! `chesstool book`: opening books in Thompson's one-byte-per-move tree
//! (build, dump, probe, verify) and Polyglot `.bin` interop.

use super::common::{plural, ForceArg};
use super::moves::resolve;
use super::Outcome;
use anyhow::{bail, Context, Result};
use chesstool::book::dump::{self, Notation};
use chesstool::book::polyglot::{self, ImportOptions};
use chesstool::book::probe::Book;
use chesstool::book::verify::{decode, verify, Statistics};
use chesstool::book::write::{encode, Sizes};
use chesstool::book::{pgn, text, Tree};
use chesstool::input;
use comfy_table::{presets::UTF8_FULL_CONDENSED, Table};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    pub command: BookCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum BookCommand {
    /// Build a book from PGN (variations, several games) or plain lines of
    /// moves (SAN or UCI, one line per line).
    Build(BuildArgs),
    /// Print a book in Thompson's parenthesised form, or as PGN.
    Dump(DumpArgs),
    /// The book moves of a position, in book order.
    Probe(ProbeArgs),
    /// Check that every move is legal and the tree well formed; statistics.
    Verify(VerifyArgs),
    /// Import a Polyglot .bin book (following it from the start position).
    ImportPolyglot(ImportArgs),
    /// Export a book as a Polyglot .bin book.
    ExportPolyglot(ExportArgs),
}

#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// PGN files (`.pgn`, or starting with a `[` tag) or text files of move
    /// lines; `-` is standard input.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// The file to write (`-` is standard output).
    ///
    /// The book.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    #[command(flatten)]
    pub force: ForceArg,
    /// Print one JSON document instead of text (see `chesstool docs json`).
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args, Debug)]
pub struct DumpArgs {
    /// The book (`-` is standard input).
    pub file: PathBuf,
    /// Moves in SAN (the default).
    #[arg(long, group = "notation")]
    pub san: bool,
    /// Moves in UCI.
    #[arg(long, group = "notation")]
    pub uci: bool,
    /// PGN with variations instead of the parenthesised form.
    #[arg(long, group = "notation")]
    pub pgn: bool,
    /// The file to write (`-` is standard output).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub output: PathBuf,
    #[command(flatten)]
    pub force: ForceArg,
}

#[derive(clap::Args, Debug)]
pub struct ProbeArgs {
    /// The book.
    pub file: PathBuf,
    /// The root position: FEN, X-FEN or Shredder-FEN, or `startpos`.
    ///
    /// Quote it: a FEN has spaces.
    #[arg(long, default_value = "startpos", allow_hyphen_values = true)]
    pub fen: String,
    /// Moves to play from the position first.
    ///
    /// Each in UCI or SAN: `--moves e2e4 e7e5` or `--moves e4 e5 Nf3`.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Print one JSON document instead of text (see `chesstool docs json`).
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// The book (`-` is standard input).
    pub file: PathBuf,
    /// Print one JSON document instead of text (see `chesstool docs json`).
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The Polyglot book (`-` is standard input).
    pub file: PathBuf,
    /// Follow the book this many plies from the start (shortest way); all of it when left out.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub max_ply: Option<u32>,
    /// Leave out entries of a lower weight; 0 keeps weight-0 entries as
    /// "recognise but do not play".
    #[arg(long, value_name = "WEIGHT", default_value_t = 1, value_parser = clap::value_parser!(u16))]
    pub min_weight: u16,
    /// The file to write (`-` is standard output).
    ///
    /// The book.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    #[command(flatten)]
    pub force: ForceArg,
    /// Print one JSON document instead of text (see `chesstool docs json`).
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The book (`-` is standard input).
    pub file: PathBuf,
    /// The file to write (`-` is standard output).
    ///
    /// The Polyglot book.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    #[command(flatten)]
    pub force: ForceArg,
    /// Print one JSON document instead of text (see `chesstool docs json`).
    #[arg(long)]
    pub json: bool,
}

impl BookArgs {
    /// Whether the run answers with one JSON document on stdout.
    pub fn json(&self) -> bool {
        match &self.command {
            BookCommand::Build(a) => a.json,
            BookCommand::Dump(_) => false,
            BookCommand::Probe(a) => a.json,
            BookCommand::Verify(a) => a.json,
            BookCommand::ImportPolyglot(a) => a.json,
            BookCommand::ExportPolyglot(a) => a.json,
        }
    }
}

pub fn run(args: BookArgs) -> Result<Outcome> {
    match args.command {
        BookCommand::Build(a) => build(&a),
        BookCommand::Dump(a) => dump_book(&a),
        BookCommand::Probe(a) => probe(&a),
        BookCommand::Verify(a) => verify_book(&a),
        BookCommand::ImportPolyglot(a) => import(&a),
        BookCommand::ExportPolyglot(a) => export(&a),
    }
}

fn shown(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "standard input".to_string()
    } else {
        path.display().to_string()
    }
}

/// Reads the entries of a Polyglot book a megabyte at a time (the bytes are
/// never all held beside the entries), sorted by key as `read_entries` does.
fn read_polyglot(path: &Path) -> Result<Vec<polyglot::Entry>> {
    const PIECE: usize = 1 << 20; // a multiple of the 16-byte entry
    let mut entries = Vec::new();
    let mut bytes = 0usize;
    super::common::open_input(path)?.binary_pieces::<anyhow::Error>(input::POLYGLOT, PIECE, |piece| {
        bytes += piece.len();
        if !piece.len().is_multiple_of(16) {
            return Err(polyglot::PolyglotError::Length(bytes).into());
        }
        entries.extend(polyglot::read_entries(piece)?);
        Ok(())
    })?;
    // Stable: within a key, the file's order (each piece is already sorted).
    entries.sort_by_key(|e| e.key);
    Ok(entries)
}

/// Reads a book in Thompson's format; an empty one is an error (a book
/// with no move is the wrong file or a failed build, never what was meant).
fn read_book(path: &Path) -> Result<Vec<u8>> {
    let bytes = super::common::open_input(path)?.binary(input::BOOK)?;
    if bytes.is_empty() {
        bail!("{}: the book is empty (no move)", shown(path));
    }
    Ok(bytes)
}

/// Refuses `-o FILE` before the work when it is one of `inputs` or exists
/// (without `--force`).
fn check_output(output: &Path, force: ForceArg, inputs: &[&Path]) -> Result<()> {
    super::common::check_output("-o", Some(output), force.force, inputs)
}

/// Writes `bytes` to `-o FILE` (`-` is standard output), as [`check_output`] allows.
fn write_output(output: &Path, bytes: &[u8], force: ForceArg, inputs: &[&Path]) -> Result<()> {
    super::common::write_output_file("-o", output, bytes, force.force, inputs)
}

/// Reports go to stdout, or to stderr when the book itself goes to stdout.
fn report_stream(output: &Path) -> Box<dyn Write> {
    if output.as_os_str() == "-" {
        Box::new(std::io::stderr())
    } else {
        Box::new(std::io::stdout())
    }
}

fn no_json_to_stdout(json: bool, output: &Path) -> Result<()> {
    if json && output.as_os_str() == "-" {
        return Err(super::usage_error(
            "--json needs -o FILE: with -o - the book itself goes to standard output",
            None,
        ));
    }
    Ok(())
}

/// A PGN file: `.pgn`, or text whose first non-blank byte is a `[` tag.
fn is_pgn(path: &Path, bytes: &[u8]) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
        || bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[')
}

fn sizes_line(s: &Sizes) -> String {
    format!(
        "{} nodes, {} bytes = {} move bytes + {} extension bytes (index escapes {}, line ends {}, not to play {}, transposition pointers {} in {} bytes, style tags {})",
        s.nodes,
        s.bytes,
        s.nodes,
        s.extension_bytes(),
        s.escapes,
        s.line_ends,
        s.avoid,
        s.pointers,
        s.pointer_bytes,
        s.styles
    )
}

#[derive(Serialize)]
struct BuildReport {
    status: &'static str,
    games: usize,
    lines: usize,
    #[serde(flatten)]
    sizes: Sizes,
    seconds: f64,
}

fn build(args: &BuildArgs) -> Result<Outcome> {
    no_json_to_stdout(args.json, &args.output)?;
    let inputs: Vec<&Path> = args.inputs.iter().map(PathBuf::as_path).collect();
    check_output(&args.output, args.force, &inputs)?;
    let started = Instant::now();
    let mut tree = Tree::new();
    let mut report = report_stream(&args.output);
    let (mut games, mut lines) = (0, 0);
    for input in &args.inputs {
        let bytes = super::common::read_input_bytes(input, chesstool::input::PGN)?.1;
        let name = shown(input);
        if is_pgn(input, &bytes) {
            let summary = pgn::read_pgn(&bytes, &mut tree).with_context(|| name.clone())?;
            games += summary.games;
            if !args.json {
                writeln!(report, "read {name}: PGN, {} games, {} moves", summary.games, summary.moves)?;
            }
        } else {
            let text = std::str::from_utf8(&bytes).with_context(|| format!("{name}: not UTF-8 text (nor PGN)"))?;
            let n = text::read_lines(text, &mut tree).with_context(|| name.clone())?;
            lines += n;
            if !args.json {
                writeln!(report, "read {name}: {n} lines of moves")?;
            }
        }
    }
    if tree.is_empty() {
        let what = if inputs.len() == 1 { "the input has" } else { "the inputs have" };
        bail!("nothing to build: {what} no move ({} games, {} lines of moves read)", games, lines);
    }
    let (bytes, sizes) = encode(&tree)?;
    write_output(&args.output, &bytes, args.force, &inputs)?;
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let doc = BuildReport { status: "ok", games, lines, sizes, seconds };
        super::common::print_json(&doc)?;
    } else {
        writeln!(report, "wrote {}: {}", shown_out(&args.output), sizes_line(&sizes))?;
    }
    Ok(Outcome::Success)
}

fn shown_out(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "standard output".to_string()
    } else {
        path.display().to_string()
    }
}

fn dump_book(args: &DumpArgs) -> Result<Outcome> {
    check_output(&args.output, args.force, &[&args.file])?;
    let bytes = read_book(&args.file)?;
    let name = shown(&args.file);
    let text = if args.pgn {
        let (_, tree) = decode(&bytes).with_context(|| name.clone())?;
        dump::pgn(&tree, 79)
    } else {
        let raw = chesstool::book::verify::parse(&bytes).with_context(|| name.clone())?;
        let notation = if args.uci { Notation::Uci } else { Notation::San };
        dump::parenthesised(&raw, notation, 100)
            .map_err(|e| chesstool::book::verify::decode_fault(&raw, e))
            .with_context(|| name.clone())?
    };
    write_output(&args.output, text.as_bytes(), args.force, &[&args.file])?;
    Ok(Outcome::Success)
}

#[derive(Serialize)]
struct ProbeMove {
    uci: String,
    san: String,
    play: bool,
}

#[derive(Serialize)]
struct ProbeReport {
    status: &'static str,
    /// The keys: `fen` is the position probed, `moves` the book's moves.
    fen: String,
    moves: Vec<ProbeMove>,
    transposition: bool,
    /// The moves from the start to the first place where the position stands.
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<Vec<String>>,
    /// How many places the position stands at (the text lists a few).
    place_count: usize,
}

/// The most places `book probe` lists (a long line can repeat a position
/// thousands of times; each place's line is built only when it is shown).
const PLACES_SHOWN: usize = 8;

fn probe(args: &ProbeArgs) -> Result<Outcome> {
    let resolved = resolve(&args.fen, &args.moves, false)?;
    let bytes = read_book(&args.file)?;
    let name = shown(&args.file);
    let book = Book::from_bytes(&bytes).with_context(|| name.clone())?;
    // The moves lead down the tree only when they start at the book's start.
    let line = chesstool::book::tree::same_position(&resolved.root, book.root()).then_some(resolved.line.as_slice());
    let pos = resolved.position;
    let found = book.probe(&pos, line).map_err(|e| book.fault(e)).with_context(|| name.clone())?;
    let chess960 = pos.is_chess960();
    let moves: Vec<ProbeMove> = found
        .moves
        .iter()
        .map(|b| ProbeMove { uci: b.mv.to_uci(chess960), san: pos.san(b.mv), play: b.play })
        .collect();
    let line_of = |place: u32| book.line_of(place).map_err(|e| book.fault(e)).with_context(|| name.clone());
    let mut out = std::io::stdout().lock();
    if args.json {
        let path = match found.places.first() {
            Some(&place) => Some(line_of(place)?.iter().map(|m| m.to_uci(false)).collect()),
            None => None,
        };
        let place_count = found.places.len();
        let doc = ProbeReport {
            status: "ok",
            fen: pos.to_fen(),
            moves,
            transposition: found.transposition,
            path,
            place_count,
        };
        super::common::print_json(&doc)?;
        return Ok(Outcome::Success);
    }
    writeln!(out, "position: {}", pos.to_fen())?;
    if moves.is_empty() {
        writeln!(out, "not in the book")?;
        return Ok(Outcome::Success);
    }
    for (m, b) in moves.iter().zip(&found.moves) {
        let mut notes = Vec::new();
        if !m.play {
            notes.push("recognise, do not play".to_string());
        }
        if !b.style.is_empty() {
            notes.push(b.style.names().join(", "));
        }
        let line = format!("{:<8} {:<6} {}", m.san, m.uci, notes.join("; "));
        writeln!(out, "{}", line.trim_end())?;
    }
    let mut places = Vec::new();
    for &place in found.places.iter().take(PLACES_SHOWN) {
        let line = line_of(place)?;
        places.push(if line.is_empty() {
            "the start".to_string()
        } else {
            chesstool::book::tree::format_line_short(book.root(), &line)
        });
    }
    if found.places.len() > PLACES_SHOWN {
        places.push(format!("and {} more", found.places.len() - PLACES_SHOWN));
    }
    let how = if found.transposition { "yes" } else { "no" };
    writeln!(out, "transposition: {how}; the position stands after: {}", places.join(" | "))?;
    Ok(Outcome::Success)
}

#[derive(Serialize)]
struct VerifyReport {
    status: &'static str,
    #[serde(flatten)]
    stats: Statistics,
}

fn verify_book(args: &VerifyArgs) -> Result<Outcome> {
    let bytes = read_book(&args.file)?;
    let name = shown(&args.file);
    let stats = verify(&bytes).with_context(|| name.clone())?;
    let mut out = std::io::stdout().lock();
    if args.json {
        super::common::print_json(&VerifyReport { status: "ok", stats })?;
        return Ok(Outcome::Success);
    }
    writeln!(out, "{name}: ok, every move legal, the tree well formed")?;
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED).set_header(["What", "Count"]);
    let rows: [(&str, String); 12] = [
        ("bytes", stats.bytes.to_string()),
        ("nodes (moves)", stats.nodes.to_string()),
        ("lines", stats.lines.to_string()),
        ("depth (plies)", stats.depth.to_string()),
        ("branching (moves per position with moves)", format!("{:.2}", stats.branching)),
        ("most moves at one place", stats.max_branching.to_string()),
        ("transposition pointers", stats.transpositions.to_string()),
        ("positions with moves at several places", stats.repeated_positions.to_string()),
        ("positions with moves", stats.positions.to_string()),
        ("moves not to play", stats.avoid.to_string()),
        ("index escapes", stats.escapes.to_string()),
        ("style tags", stats.styles.to_string()),
    ];
    for (what, count) in rows {
        table.add_row([what.to_string(), count]);
    }
    writeln!(out, "{table}")?;
    Ok(Outcome::Success)
}

#[derive(Serialize)]
struct ImportReport {
    status: &'static str,
    positions: u64,
    entries: u64,
    below_weight: u64,
    illegal: u64,
    polyglot_bytes: u64,
    /// `pointers` once, from the sizes (the summary counts the same pointers).
    #[serde(flatten)]
    sizes: Sizes,
    seconds: f64,
}

fn import(args: &ImportArgs) -> Result<Outcome> {
    no_json_to_stdout(args.json, &args.output)?;
    check_output(&args.output, args.force, &[&args.file])?;
    let started = Instant::now();
    let name = shown(&args.file);
    let entries = read_polyglot(&args.file).with_context(|| name.clone())?;
    let options = ImportOptions { max_ply: args.max_ply, min_weight: args.min_weight };
    let (tree, summary) = polyglot::import(&entries, options);
    if tree.is_empty() {
        if entries.is_empty() {
            bail!("{name}: nothing to import: the file is empty");
        }
        bail!(
            "{name}: nothing to import: no entry of its {} is a legal move on the line from the start position \
             (with --min-weight {}); not a Polyglot book?",
            plural(entries.len() as u64, "entry", "entries"),
            args.min_weight
        );
    }
    let (book, sizes) = encode(&tree)?;
    write_output(&args.output, &book, args.force, &[&args.file])?;
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let doc = ImportReport {
            status: "ok",
            positions: summary.positions,
            entries: summary.entries,
            below_weight: summary.below_weight,
            illegal: summary.illegal,
            polyglot_bytes: 16 * summary.entries,
            sizes,
            seconds,
        };
        super::common::print_json(&doc)?;
        return Ok(Outcome::Success);
    }
    let mut report = report_stream(&args.output);
    writeln!(
        report,
        "read {name}: {} entries; imported {} positions with {} moves ({} entries below weight {}, {} not legal)",
        entries.len(),
        summary.positions,
        summary.entries,
        summary.below_weight,
        args.min_weight,
        summary.illegal
    )?;
    writeln!(report, "wrote {}: {}", shown_out(&args.output), sizes_line(&sizes))?;
    if sizes.bytes > 0 {
        let ratio = (16 * summary.entries) as f64 / sizes.bytes as f64;
        writeln!(report, "the same moves as Polyglot entries: {} bytes ({ratio:.1}x)", 16 * summary.entries)?;
    }
    Ok(Outcome::Success)
}

#[derive(Serialize)]
struct ExportReport {
    status: &'static str,
    entries: u64,
    bytes: u64,
    positions: u64,
}

fn export(args: &ExportArgs) -> Result<Outcome> {
    no_json_to_stdout(args.json, &args.output)?;
    check_output(&args.output, args.force, &[&args.file])?;
    let bytes = read_book(&args.file)?;
    let name = shown(&args.file);
    let (_, tree) = decode(&bytes).with_context(|| name.clone())?;
    let entries = polyglot::export(&tree);
    let out: Vec<u8> = entries.iter().flat_map(|e| e.to_bytes()).collect();
    write_output(&args.output, &out, args.force, &[&args.file])?;
    let mut positions = 0u64;
    for pair in entries.windows(2) {
        positions += u64::from(pair[0].key != pair[1].key);
    }
    positions += u64::from(!entries.is_empty());
    let doc = ExportReport { status: "ok", entries: entries.len() as u64, bytes: out.len() as u64, positions };
    if args.json {
        super::common::print_json(&doc)?;
    } else {
        writeln!(
            report_stream(&args.output),
            "wrote {}: {} entries ({} bytes) for {} positions",
            shown_out(&args.output),
            doc.entries,
            doc.bytes,
            doc.positions
        )?;
    }
    Ok(Outcome::Success)
}
