//! `chesstool butterfly-plot`: Hartmann's butterfly diagram.

use super::Outcome;
use anyhow::Context;
use chesstool::tools::butterfly::{self, Labels, SquareRange};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ButterflyArgs {
    /// First square of the range (0..=63 or a name such as d1).
    #[arg(allow_hyphen_values = true)]
    pub from: String,
    /// Last square of the range (0..=63 or a name such as e8); at least FROM.
    #[arg(allow_hyphen_values = true)]
    pub to: String,
    /// Label the axes with square names instead of numbers.
    #[arg(long)]
    pub names: bool,
    /// Also write an SVG picture to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Show history counters instead: how often each from-to pair occurs
    /// over every legal move of the perft tree of --fen to --depth, as a heat map.
    #[arg(long, requires = "depth")]
    pub history: bool,
    /// Position for --history (FEN; default: the start position).
    #[arg(long, value_name = "FEN", requires = "history")]
    pub fen: Option<String>,
    /// Depth of the perft tree for --history (1..=8).
    #[arg(long, value_name = "N", requires = "history")]
    pub depth: Option<u32>,
    /// With --history, print the counts as JSON.
    #[arg(long, requires = "history")]
    pub json: bool,
}

/// A square given as a number 0..=63 or a name such as `e4`.
pub(crate) fn parse_square_number(text: &str) -> anyhow::Result<u32> {
    if let Some(sq) = chesstool::board::Square::parse(text) {
        return Ok(sq as u32);
    }
    text.parse::<u32>()
        .ok()
        .filter(|n| *n <= 63)
        .with_context(|| format!("invalid square '{text}': expected 0..=63 or a name such as e4"))
}

pub fn run(args: ButterflyArgs) -> anyhow::Result<Outcome> {
    let from = parse_square_number(&args.from)?;
    let to = parse_square_number(&args.to)?;
    let range = SquareRange::new(from, to)?;
    let labels = if args.names { Labels::Names } else { Labels::Numbers };
    if args.history {
        return run_history(&args, range, labels);
    }
    let text = butterfly::diagram(range, labels);
    if let Some(path) = &args.svg {
        write_output(path, &butterfly::svg(range, None))?;
    }
    if args.svg.as_deref() != Some(std::path::Path::new("-")) {
        print_text(&text)?;
    }
    Ok(Outcome::Success)
}

fn run_history(args: &ButterflyArgs, range: SquareRange, labels: Labels) -> anyhow::Result<Outcome> {
    let depth = args.depth.unwrap_or(0);
    if !(1..=8).contains(&depth) {
        anyhow::bail!("--depth {depth} is out of range (1..=8)");
    }
    let pos = match &args.fen {
        Some(fen) => chesstool::position::Position::from_fen(fen)
            // Formatted here, not chained: the FEN error's text already names its cause.
            .map_err(|e| anyhow::anyhow!("bad --fen '{fen}': {e}"))?,
        None => chesstool::position::Position::startpos(),
    };
    let history = butterfly::perft_history(&pos, depth);
    if let Some(path) = &args.svg {
        write_output(path, &butterfly::svg(range, Some(&history)))?;
    }
    if args.svg.as_deref() == Some(std::path::Path::new("-")) {
        return Ok(Outcome::Success);
    }
    if args.json {
        let mut value = butterfly::history_json(&history, range);
        value["fen"] = pos.to_fen().into();
        value["depth"] = depth.into();
        print_text(&format!("{}\n", serde_json::to_string_pretty(&value)?))?;
    } else {
        print_text(&butterfly::heat_map(&history, range, labels))?;
    }
    Ok(Outcome::Success)
}

/// Writes `text` to `path`, or to standard output for `-`.
pub(crate) fn write_output(path: &std::path::Path, text: &str) -> anyhow::Result<()> {
    if path.as_os_str() == "-" {
        print_text(text)
    } else {
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
    }
}

/// Prints to standard output, passing write errors (such as a broken pipe) up.
pub(crate) fn print_text(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}
