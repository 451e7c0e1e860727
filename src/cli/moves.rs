//! `chesstool moves`: the legal moves of a position in our generator's order
//! (the order opening books store as indices), with UCI and SAN.

use super::Outcome;
use anyhow::{anyhow, Context, Result};
use chesstool::chess::notation::read_move as resolve_move;
use chesstool::{Move, Position};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Table};
use serde::Serialize;
use std::io::Write;

#[derive(clap::Args, Debug)]
pub struct MovesArgs {
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
    /// Treat the position as Chess960 (otherwise recognised from the castling field).
    #[arg(long)]
    pub chess960: bool,
    /// Print one JSON document instead of text (see `chesstool docs json`).
    #[arg(long)]
    pub json: bool,
}

/// A root position, the moves played from it and the position after them.
pub struct Resolved {
    pub root: Position,
    pub line: Vec<Move>,
    pub position: Position,
}

/// Reads `--fen` and `--moves` (UCI or SAN, each checked for legality).
pub fn resolve(fen: &str, moves: &[String], chess960: bool) -> Result<Resolved> {
    let mut root = Position::from_fen(fen).with_context(|| format!("--fen {fen:?}"))?;
    if chess960 {
        root.set_chess960(true);
    }
    let mut position = root;
    let mut line = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let mv = resolve_move(&position, text).map_err(|e| anyhow!("--moves: move {} {text:?}: {e}", i + 1))?;
        line.push(mv);
        position = position.play(mv);
    }
    Ok(Resolved { root, line, position })
}

#[derive(Serialize)]
struct LegalMove {
    index: usize,
    uci: String,
    san: String,
}

#[derive(Serialize)]
struct Report {
    status: &'static str,
    root: String,
    moves: Vec<String>,
    position: String,
    legal_moves: Vec<LegalMove>,
}

pub fn run(args: MovesArgs) -> Result<Outcome> {
    let resolved = resolve(&args.fen, &args.moves, args.chess960)?;
    let pos = resolved.position;
    let chess960 = pos.is_chess960();
    let legal: Vec<LegalMove> = pos
        .legal_moves()
        .iter()
        .enumerate()
        .map(|(index, &m)| LegalMove { index, uci: m.to_uci(chess960), san: pos.san(m) })
        .collect();
    let mut out = std::io::stdout().lock();
    if args.json {
        let played = resolved.line.iter().map(|m| m.to_uci(chess960)).collect();
        let report = Report {
            status: "ok",
            root: resolved.root.to_fen(),
            moves: played,
            position: pos.to_fen(),
            legal_moves: legal,
        };
        super::common::print_json(&report)?;
        return Ok(Outcome::Success);
    }
    writeln!(out, "Position: {}", pos.to_fen())?;
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED).set_header(["Index", "UCI", "SAN"]);
    for m in &legal {
        table.add_row([m.index.to_string(), m.uci.clone(), m.san.clone()]);
    }
    if !legal.is_empty() {
        writeln!(out, "{table}")?;
    }
    let status = if !legal.is_empty() {
        ""
    } else if pos.is_check() {
        " (checkmate)"
    } else {
        " (stalemate)"
    };
    writeln!(out, "{} legal moves{status}", legal.len())?;
    Ok(Outcome::Success)
}
