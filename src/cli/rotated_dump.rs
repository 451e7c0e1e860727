//! `chesstool rotated-dump`: FUSc#'s four occupancy boards, and for one square
//! the rotated lookups checked against the magic ones.

use super::common::{print_err, print_json, print_text};
use super::Outcome;
use chesstool::attacks::rotated::{RotatedBoards, Rotation};
use chesstool::position::Position;
use chesstool::tools::rotated_dump::{dump_boards, row_tokens, SquareReport};
use serde::Serialize;

#[derive(clap::Args, Debug)]
pub struct RotatedDumpArgs {
    /// The root position: FEN, X-FEN or Shredder-FEN, or `startpos`.
    ///
    /// The position to dump.
    #[arg(long, value_name = "FEN", default_value = "startpos", allow_hyphen_values = true)]
    pub fen: String,
    /// Also show the byte patterns and rook/bishop/queen attacks of this square
    /// (a name such as e4 or E4), from the rotated tables, the magic lookup and
    /// the reference; a disagreement is exit 1.
    #[arg(long, value_name = "SQ")]
    pub square: Option<String>,
    /// Print one JSON document instead of text (see `chesstool docs json`).
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct DumpJson {
    status: &'static str,
    root: String,
    boards: BoardsJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    square: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    patterns: Option<Vec<PatternJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    attacks: Option<Vec<AttackJson>>,
}

/// The four boards in the paper's order.
#[derive(Serialize)]
struct BoardsJson {
    normal: BoardJson,
    l90: BoardJson,
    a1h8: BoardJson,
    a8h1: BoardJson,
}

#[derive(Serialize)]
struct BoardJson {
    /// The board as a 64-bit number in hex.
    bitboard: String,
    /// The rows in the appendix's order, squares and `|` edge marks separated by spaces.
    rows: Vec<String>,
    occupied_by_bit: Vec<String>,
}

#[derive(Serialize)]
struct PatternJson {
    board: &'static str,
    line: &'static str,
    byte: u8,
    byte_value: u8,
    squares: Vec<String>,
}

#[derive(Serialize)]
struct AttackJson {
    piece: &'static str,
    rotated: String,
    magic_lookup: String,
    reference: String,
    agree: bool,
}

fn hex(v: u64) -> String {
    format!("{v:#018x}")
}

pub fn run(args: RotatedDumpArgs) -> anyhow::Result<Outcome> {
    let square = match &args.square {
        Some(text) => Some(super::common::parse_square("--square", text)?),
        None => None,
    };
    let pos = Position::from_fen(&args.fen)
        .map_err(|e| anyhow::anyhow!("--fen \"{}\": {e}", super::common::clip(&args.fen)))?;
    let boards = RotatedBoards::from_occupied(pos.occupied());
    let report = square.map(|sq| SquareReport::new(&boards, sq));
    if args.json {
        let status = if report.as_ref().is_none_or(SquareReport::agrees) { "ok" } else { "mismatch" };
        print_json(&DumpJson {
            status,
            root: pos.to_fen(),
            boards: BoardsJson {
                normal: board_json(&boards, Rotation::Normal),
                l90: board_json(&boards, Rotation::L90),
                a1h8: board_json(&boards, Rotation::A1h8),
                a8h1: board_json(&boards, Rotation::A8h1),
            },
            square: report.as_ref().map(|r| r.square.to_string()),
            patterns: report.as_ref().map(|r| {
                r.patterns
                    .iter()
                    .map(|p| PatternJson {
                        board: p.rotation.name(),
                        line: p.line,
                        byte: p.byte,
                        byte_value: p.value,
                        squares: p.squares.clone(),
                    })
                    .collect()
            }),
            attacks: report.as_ref().map(|r| {
                r.attacks
                    .iter()
                    .map(|a| AttackJson {
                        piece: a.piece,
                        rotated: hex(a.rotated.0),
                        magic_lookup: hex(a.magic.0),
                        reference: hex(a.reference.0),
                        agree: a.agrees(),
                    })
                    .collect()
            }),
        })?;
    } else {
        let mut text = dump_boards(&boards);
        if let Some(report) = &report {
            text.push('\n');
            text.push_str(&report.to_text());
        }
        print_text(&text)?;
    }
    match report {
        Some(report) if !report.agrees() => {
            print_err(&format!("rotated and magic attacks disagree on {}\n", report.square));
            Ok(Outcome::Mismatch)
        }
        _ => Ok(Outcome::Success),
    }
}

/// One board: its value, its rows in the appendix's order, and the square of each set bit.
fn board_json(boards: &RotatedBoards, rotation: Rotation) -> BoardJson {
    BoardJson {
        bitboard: hex(boards.board(rotation)),
        rows: (0..8).map(|row| row_tokens(rotation, row).join(" ")).collect(),
        occupied_by_bit: (0..64)
            .filter(|bit| boards.board(rotation) >> bit & 1 != 0)
            .map(|bit| rotation.square(bit).to_string())
            .collect(),
    }
}
