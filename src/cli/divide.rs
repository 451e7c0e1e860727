//! `chesstool divide`: per-move perft counts of our generator in Stockfish's
//! format.

use super::Outcome;
use crate::engines::{Builtin, Divider, Line};
use crate::Position;
use anyhow::Context;
use std::collections::BTreeMap;
use std::io::Write;

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
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The root position and the moves played from it, as given on the command line.
pub(crate) fn resolve_line(fen: &str, moves: &[String], chess960: bool) -> anyhow::Result<Line> {
    let mut root = Position::from_fen(fen).with_context(|| format!("--fen {fen:?}"))?;
    if chess960 {
        root.set_chess960(true);
    }
    let mut line = Line::new(root);
    let mut pos = root;
    for text in moves {
        let m = pos
            .parse_uci(text)
            .with_context(|| format!("--moves: {text:?}"))?;
        line.moves.push(m);
        pos = pos.play(m);
    }
    Ok(line)
}

pub fn run(args: DivideArgs) -> anyhow::Result<Outcome> {
    let line = resolve_line(&args.fen, &args.moves, args.chess960)?;
    run_builtin(&line, args.depth, args.json)
}

/// Our generator alone: Stockfish's format, moves sorted by their UCI text.
fn run_builtin(line: &Line, depth: u32, json: bool) -> anyhow::Result<Outcome> {
    let divide = Builtin.divide(line, depth)?;
    let moves: BTreeMap<String, u64> = divide.moves.iter().cloned().collect();
    let nodes = divide.nodes();
    let text = if json {
        #[derive(serde::Serialize)]
        struct Json<'a> {
            fen: String,
            depth: u32,
            moves: &'a BTreeMap<String, u64>,
            nodes: u64,
        }
        let j = Json {
            fen: line.position().to_fen(),
            depth,
            moves: &moves,
            nodes,
        };
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

fn print(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}
