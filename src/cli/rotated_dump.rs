//! `chesstool rotated-dump`: FUSc#'s four occupancy boards, and for one square
//! the rotated lookups checked against the magic ones.

use super::Outcome;
use anyhow::Context;
use chesstool::attacks::rotated::RotatedBoards;
use chesstool::board::Square;
use chesstool::position::Position;
use chesstool::tools::rotated_dump::{boards_json, dump_boards, SquareReport};

#[derive(clap::Args, Debug)]
pub struct RotatedDumpArgs {
    /// Position to dump (FEN; default: the start position).
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// Also show the byte patterns and rook/bishop/queen attacks of this square
    /// (e.g. e4), from the rotated tables and from the magic lookup.
    #[arg(long, value_name = "SQ")]
    pub square: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: RotatedDumpArgs) -> anyhow::Result<Outcome> {
    let square = match &args.square {
        Some(text) => Some(
            Square::parse(text.trim())
                .with_context(|| format!("unknown square '{text}', expected a name such as e4"))?,
        ),
        None => None,
    };
    let pos = match &args.fen {
        Some(fen) => Position::from_fen(fen)
            // Formatted here, not chained: the FEN error's text already names its cause.
            .map_err(|e| anyhow::anyhow!("bad --fen '{fen}': {e}"))?,
        None => Position::startpos(),
    };
    let boards = RotatedBoards::from_occupied(pos.occupied());
    let report = square.map(|sq| SquareReport::new(&boards, sq));
    if args.json {
        let mut value = serde_json::json!({ "fen": pos.to_fen(), "boards": boards_json(&boards) });
        if let Some(report) = &report {
            value["square"] = report.to_json();
        }
        super::butterfly::print_text(&format!("{}\n", serde_json::to_string_pretty(&value)?))?;
    } else {
        let mut text = dump_boards(&boards);
        if let Some(report) = &report {
            text.push('\n');
            text.push_str(&report.to_text());
        }
        super::butterfly::print_text(&text)?;
    }
    match report {
        Some(report) if !report.agrees() => {
            eprintln!("rotated and magic attacks disagree on {}", report.square);
            Ok(Outcome::Mismatch)
        }
        _ => Ok(Outcome::Success),
    }
}
