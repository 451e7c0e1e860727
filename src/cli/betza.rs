//! `chesstool betza compile|show`: the leg code of a Betza string, and the
//! moves of a piece on a board.

use super::common::{check_output, clip, write_output_file, ForceArg};
use super::Outcome;
use anyhow::{anyhow, Result};
use chesstool::variants::betza::{
    self,
    compile::{flag_words, range_text, row_comment},
    BetzaError,
};
use chesstool::variants::hunt::betza_show::{show, Shown};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct BetzaArgs {
    #[command(subcommand)]
    pub command: BetzaCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum BetzaCommand {
    /// Compile XBetza to leg code and print its (flags, step, range, skip) rows.
    Compile {
        /// The piece in XBetza notation, e.g. 'RmasR'.
        notation: String,
        /// Print one JSON document instead of text (see `chesstool docs json`).
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        verbose: VerboseArg,
    },
    /// Show where a piece moves on a board (no royal rule).
    Show {
        /// The piece in XBetza notation.
        notation: String,
        /// Board size, files x ranks (default 8x8; up to 16x16).
        #[arg(long, value_name = "WxH", value_parser = parse_board)]
        board: Option<(u8, u8)>,
        /// The piece's square (default: the centre, e5 on 8x8).
        #[arg(long, value_name = "SQ")]
        square: Option<String>,
        /// A board in FEN: t/T is the piece, x/X wazirs, k/K kings.
        #[arg(long, value_name = "FEN", allow_hyphen_values = true)]
        fen: Option<String>,
        /// Also write an SVG picture to FILE (`-` is standard output).
        ///
        /// The board with the piece's moves.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        #[command(flatten)]
        force: ForceArg,
        /// Print one JSON document instead of text (see `chesstool docs json`).
        ///
        /// {"origin": "e5", "moves": [{"to": "e7", "captures": ["e6"]}, ...]}.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        verbose: VerboseArg,
    },
}

/// `--verbose` of the Betza commands.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct VerboseArg {
    /// After an error in the notation, show it with a caret under the fault.
    #[arg(long)]
    verbose: bool,
}

fn parse_board(s: &str) -> Result<(u8, u8), String> {
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(|| format!("{s:?} is not WxH (e.g. 10x10)"))?;
    let n = |t: &str| t.parse::<u8>().ok().filter(|n| (1..=16).contains(n));
    match (n(w), n(h)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err(format!("{s:?}: files and ranks from 1 to 16")),
    }
}

/// An empty notation is a piece without moves: refused, not compiled to nothing.
fn not_empty(notation: &str) -> Result<()> {
    if notation.trim().is_empty() {
        return Err(super::usage_error(
            "NOTATION: the Betza string is empty (give a piece, e.g. 'N' or 'RmasR')",
            None,
        ));
    }
    Ok(())
}

/// The error in one line; with `--verbose`, the notation and a caret under
/// the fault follow it.
fn betza_error(e: BetzaError, verbose: VerboseArg) -> anyhow::Error {
    if verbose.verbose {
        anyhow::Error::new(super::WithPicture { message: e.to_string(), picture: e.caret() })
    } else {
        anyhow!("{e}")
    }
}

#[derive(Serialize)]
struct RowJson {
    row: usize,
    flags: String,
    step: [i8; 2],
    range: String,
    skip: u16,
    leg: u8,
    comment: String,
}

impl BetzaArgs {
    /// Whether the run answers with one JSON document on stdout.
    pub fn json(&self) -> bool {
        match &self.command {
            BetzaCommand::Compile { json, .. } | BetzaCommand::Show { json, .. } => *json,
        }
    }
}

pub fn run(args: BetzaArgs) -> Result<Outcome> {
    run_command(args)
}

fn run_command(args: BetzaArgs) -> Result<Outcome> {
    let mut out = std::io::stdout().lock();
    match args.command {
        BetzaCommand::Compile { notation, json, verbose } => {
            not_empty(&notation)?;
            let compiled = betza::compile(&notation).map_err(|e| betza_error(e, verbose))?;
            if compiled.code.is_empty() {
                return Err(anyhow!("betza \"{}\": no move (nothing to compile)", clip(&notation)));
            }
            for w in &compiled.warnings {
                eprintln!("warning: {w}");
            }
            let code = &compiled.code;
            if json {
                let rows: Vec<RowJson> = code
                    .iter()
                    .enumerate()
                    .map(|(i, r)| RowJson {
                        row: i + 1,
                        flags: flag_words(r.flags),
                        step: [r.step.0, r.step.1],
                        range: range_text(r.range),
                        skip: r.skip,
                        leg: r.depth + 1,
                        comment: row_comment(code, i),
                    })
                    .collect();
                #[derive(Serialize)]
                struct Doc<'a> {
                    status: &'static str,
                    notation: &'a str,
                    rows: Vec<RowJson>,
                    warnings: &'a [String],
                }
                let doc = Doc { status: "ok", notation: &notation, rows, warnings: &compiled.warnings };
                super::common::print_json(&doc)?;
            } else {
                let width = code.iter().map(|r| flag_words(r.flags).len()).max().unwrap_or(4) + 1;
                for (i, r) in code.iter().enumerate() {
                    let head = format!(
                        "{:>3}. ({:<width$} ({},{}), {:>3}, {:>3})",
                        i + 1,
                        format!("{},", flag_words(r.flags)),
                        r.step.0,
                        r.step.1,
                        range_text(r.range),
                        r.skip,
                    );
                    writeln!(out, "{head:<width2$} // {}", row_comment(code, i), width2 = width + 28)?;
                }
                writeln!(out, "{} rows; flags 0 ends the list", code.len())?;
            }
            Ok(Outcome::Success)
        }
        BetzaCommand::Show { notation, board, square, fen, svg, force, json, verbose } => {
            check_output("--svg", svg.as_deref(), force.force, &[])?;
            not_empty(&notation)?;
            if let Err(e) = betza::parse(&notation) {
                return Err(betza_error(e, verbose));
            }
            if let (Some((w, h)), Some(f)) = (board, fen.as_deref()) {
                let ranks = f.split_whitespace().next().unwrap_or("").split('/').count();
                if ranks != h as usize {
                    return Err(anyhow!("--board {w}x{h} disagrees with --fen ({ranks} ranks)"));
                }
            }
            let (w, h) = board.unwrap_or((8, 8));
            let shown = show(&notation, w, h, square.as_deref(), fen.as_deref()).map_err(|e| anyhow!("{e}"))?;
            if let (Some((bw, _)), true) = (board, fen.is_some()) {
                if bw != shown.variant.geometry.width {
                    return Err(anyhow!(
                        "--board {bw}x{h} disagrees with --fen ({} files)",
                        shown.variant.geometry.width
                    ));
                }
            }
            if let Some(path) = &svg {
                write_output_file("--svg", path, draw_svg(&shown).as_bytes(), force.force, &[])?;
            }
            let g = &shown.variant.geometry;
            if json {
                #[derive(Serialize)]
                struct Doc<'a> {
                    status: &'static str,
                    /// The keys: `origin` is the piece's square, `moves` where it goes.
                    origin: String,
                    moves: &'a [chesstool::variants::hunt::betza_show::ShownMove],
                }
                let doc = Doc { status: "ok", origin: g.name(shown.origin), moves: &shown.moves };
                super::common::print_json(&doc)?;
            } else {
                write_text(&mut out, &shown, &notation)?;
            }
            Ok(Outcome::Success)
        }
    }
}

fn symbol(shown: &Shown, sq: usize) -> char {
    let cell = shown.position.cells[sq];
    if sq == shown.origin {
        return '@';
    }
    let m = shown.marks[sq];
    if cell != 0 {
        let letter = shown.variant.pieces[chesstool::variants::board::cell_kind(cell)].letter;
        let letter =
            if chesstool::variants::board::cell_side(cell) == 0 { letter } else { letter.to_ascii_lowercase() };
        return if m.victim && m.captures {
            '#'
        } else if m.victim {
            'v'
        } else if m.captures {
            'c'
        } else {
            letter
        };
    }
    match (m.moves, m.captures) {
        (true, true) => '*',
        (true, false) => 'm',
        (false, true) if m.victim => '#',
        (false, true) => 'c',
        (false, false) if m.victim => 'v',
        _ => '.',
    }
}

fn write_text(out: &mut impl Write, shown: &Shown, notation: &str) -> Result<()> {
    let g = &shown.variant.geometry;
    writeln!(out, "{notation} on {} ({}x{} board)", g.name(shown.origin), g.width, g.height)?;
    for rank in (0..g.height).rev() {
        let row: Vec<String> = (0..g.width).map(|f| symbol(shown, g.cell(f, rank)).to_string()).collect();
        writeln!(out, "{:>3} {}", rank + 1, row.join(" "))?;
    }
    let files: Vec<String> = (0..g.width).map(|f| ((b'a' + f) as char).to_string()).collect();
    writeln!(out, "    {}", files.join(" "))?;
    writeln!(out, "@ the piece  m move only  c capture only  * both  v locust victim  # victim and capture target")?;
    writeln!(out, "{} distinct moves", shown.moves.len())?;
    Ok(())
}

fn draw_svg(shown: &Shown) -> String {
    let g = &shown.variant.geometry;
    let s = 40;
    let (w, h) = (g.width as usize * s + 20, g.height as usize * s + 20);
    let mut svg =
        format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\">\n");
    let fill = |file: u8, rank: u8| {
        let sq = g.cell(file, rank);
        let m = shown.marks[sq];
        if sq == shown.origin {
            Some("#5b8def")
        } else if m.victim {
            Some("#a05ad0")
        } else if m.moves && m.captures {
            Some("#f0a030")
        } else if m.moves {
            Some("#7cc47c")
        } else if m.captures {
            Some("#e06060")
        } else {
            None
        }
    };
    super::hunt::picture::board_squares(&mut svg, (g.width, g.height), 1, (20, 0), s, fill);
    for sq in g.squares() {
        let (file, rank) = g.coords(sq);
        let c = symbol(shown, sq);
        if c != '.' {
            let (x, y) = (20 + file as usize * s, (g.height - 1 - rank) as usize * s);
            svg.push_str(&format!(
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"20\">{}</text>\n",
                x + s / 2,
                y + s / 2 + 7,
                c
            ));
        }
    }
    svg.push_str("</svg>\n");
    svg
}
