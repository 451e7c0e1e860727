//! `chesstool butterfly-plot`: Hartmann's butterfly diagram.

use super::common::{check_output, is_stdio, print_json, print_text, write_output_file, ForceArg, LazyProgress};
use super::{no_effect, usage_error, Outcome};
use chesstool::board::Square;
use chesstool::position::Position;
use chesstool::tools::butterfly::{self, Counts, History, Labels, SquareRange};
use rayon::prelude::*;
use serde::Serialize;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ButterflyArgs {
    /// First square of the range: a name (d1 or D1) or a square number 0 to
    /// 63 (a1 = 0, h8 = 63), as the C program takes it.
    #[arg(allow_hyphen_values = true)]
    pub from: String,
    /// Last square of the range, as FROM; at least FROM.
    #[arg(allow_hyphen_values = true)]
    pub to: String,
    /// Label the axes with square names instead of numbers (the text diagram).
    #[arg(long)]
    pub names: bool,
    /// Also write an SVG picture to FILE (`-` is standard output).
    ///
    /// The diagram; with `-`, instead of the text.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    #[command(flatten)]
    pub force: ForceArg,
    /// Show history counters instead: how often each from-to pair occurs
    /// over every legal move of the perft tree of --fen to --depth, as a heat map.
    #[arg(long)]
    pub history: bool,
    /// The root position: FEN, X-FEN or Shredder-FEN, or `startpos`.
    ///
    /// With --history: the root of the perft tree (default `startpos`).
    #[arg(long, value_name = "FEN", allow_hyphen_values = true)]
    pub fen: Option<String>,
    /// Depth of the perft in plies.
    ///
    /// With --history: the depth of the tree whose moves are counted (1 to 8;
    /// 6 takes seconds, 8 hours).
    #[arg(long, value_name = "DEPTH", value_parser = history_depth_arg)]
    pub depth: Option<u32>,
    /// Print one JSON document instead of text (see `chesstool docs json`).
    ///
    /// The move counts, or with --history every pair's count.
    #[arg(long)]
    pub json: bool,
    /// No progress on standard error.
    ///
    /// Only with --history, which shows a bar on a terminal after the first second.
    #[arg(short, long)]
    pub quiet: bool,
}

fn history_depth_arg(s: &str) -> Result<u32, String> {
    super::common::integer_in(s, 1, 8, "a history depth").map(|n| n as u32)
}

/// A square given as a name in either case (`e4`, `E4`) or the C program's
/// number 0 to 63.
fn parse_square_number(what: &str, text: &str) -> anyhow::Result<u32> {
    if let Some(sq) = Square::parse(&text.trim().to_ascii_lowercase()) {
        return Ok(sq as u32);
    }
    text.trim().parse::<u32>().ok().filter(|n| *n <= 63).ok_or_else(|| {
        usage_error(
            format!("{what}: \"{}\" is not a square (0 to 63, or a name such as e4)", super::common::clip(text)),
            None,
        )
    })
}

impl ButterflyArgs {
    /// Options that change nothing in this combination are usage errors.
    fn check_combination(&self) -> anyhow::Result<()> {
        let svg_on_stdout = self.svg.as_deref().is_some_and(is_stdio);
        if svg_on_stdout && self.json {
            return Err(usage_error("--svg - cannot be used with --json: both are written to standard output", None));
        }
        if self.names && (self.json || svg_on_stdout) {
            return Err(no_effect("--names", "without the text diagram (it labels the text's axes)"));
        }
        if !self.history {
            for (option, given) in
                [("--fen", self.fen.is_some()), ("--depth", self.depth.is_some()), ("--quiet", self.quiet)]
            {
                if given {
                    return Err(no_effect(option, "without --history"));
                }
            }
        } else if self.depth.is_none() {
            return Err(usage_error("--history needs --depth N (1 to 8)", None));
        }
        Ok(())
    }
}

pub fn run(args: ButterflyArgs) -> anyhow::Result<Outcome> {
    args.check_combination()?;
    check_output("--svg", args.svg.as_deref(), args.force.force, &[])?;
    let from = parse_square_number("FROM", &args.from)?;
    let to = parse_square_number("TO", &args.to)?;
    let range = SquareRange::new(from, to).map_err(|e| usage_error(e.to_string(), None))?;
    let labels = if args.names { Labels::Names } else { Labels::Numbers };
    if args.history {
        return run_history(&args, range, labels);
    }
    if let Some(path) = &args.svg {
        write_output_file("--svg", path, butterfly::svg(range, None).as_bytes(), args.force.force, &[])?;
    }
    if args.json {
        let counts = Counts::of(range);
        print_json(&DiagramJson {
            status: "ok",
            range: RangeJson::of(range),
            rook_moves: counts.rook,
            bishop_moves: counts.bishop,
            knight_moves: counts.knight,
            total_moves: counts.total(),
        })?;
    } else if !args.svg.as_deref().is_some_and(is_stdio) {
        print_text(&butterfly::diagram(range, labels))?;
    }
    Ok(Outcome::Success)
}

#[derive(Serialize)]
struct RangeJson {
    from: String,
    to: String,
}

impl RangeJson {
    fn of(range: SquareRange) -> RangeJson {
        RangeJson { from: Square::new(range.from()).to_string(), to: Square::new(range.to()).to_string() }
    }
}

#[derive(Serialize)]
struct DiagramJson {
    status: &'static str,
    range: RangeJson,
    rook_moves: u32,
    bishop_moves: u32,
    knight_moves: u32,
    total_moves: u32,
}

#[derive(Serialize)]
struct HistoryJson {
    status: &'static str,
    root: String,
    depth: u32,
    range: RangeJson,
    moves_counted: u64,
    pairs: Vec<PairJson>,
}

#[derive(Serialize)]
struct PairJson {
    from: String,
    to: String,
    count: u64,
}

fn run_history(args: &ButterflyArgs, range: SquareRange, labels: Labels) -> anyhow::Result<Outcome> {
    let depth = args.depth.expect("checked: --history has --depth");
    let fen = args.fen.as_deref().unwrap_or("startpos");
    let pos = Position::from_fen(fen).map_err(|e| anyhow::anyhow!("--fen \"{}\": {e}", super::common::clip(fen)))?;
    let history = history_with_progress(&pos, depth, args.quiet || args.json);
    if let Some(path) = &args.svg {
        let svg = butterfly::svg(range, Some(&history));
        write_output_file("--svg", path, svg.as_bytes(), args.force.force, &[])?;
    }
    if args.json {
        let pairs = range
            .squares()
            .flat_map(|a| range.squares().map(move |b| (Square::new(a), Square::new(b))))
            .filter_map(|(a, b)| {
                let count = history.get(a, b);
                (count > 0).then(|| PairJson { from: a.to_string(), to: b.to_string(), count })
            })
            .collect();
        print_json(&HistoryJson {
            status: "ok",
            root: pos.to_fen(),
            depth,
            range: RangeJson::of(range),
            moves_counted: history.total(),
            pairs,
        })?;
    } else if !args.svg.as_deref().is_some_and(is_stdio) {
        print_text(&butterfly::heat_map(&history, range, labels))?;
    }
    Ok(Outcome::Success)
}

/// The history of the perft tree: the root's own moves, then each child's
/// tree apart (in parallel), so that a bar can follow.
fn history_with_progress(pos: &Position, depth: u32, quiet: bool) -> History {
    let mut history = butterfly::perft_history(pos, 1);
    if depth == 1 {
        return history;
    }
    let children: Vec<Position> = pos.legal_moves().iter().map(|&m| pos.play(m)).collect();
    let progress = LazyProgress::new(children.len() as u64, "history", quiet);
    let below: Vec<History> = children
        .par_iter()
        .map(|child| {
            let h = butterfly::perft_history(child, depth - 1);
            progress.inc();
            h
        })
        .collect();
    progress.finish();
    for h in &below {
        history.merge(h);
    }
    history
}
