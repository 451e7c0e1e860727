//! `chesstool tictacchess play`: a person plays the solved game in the
//! terminal. The engine always knows the exact value (from `--table FILE`,
//! or a solve at start-up) and says why its move is best.

use super::{oracle, PosArgs};
use crate::cli::Outcome;
use anyhow::{anyhow, bail, Context, Result};
use chesstool::tictacchess::rules::line_name;
use chesstool::tictacchess::solve::Value;
use chesstool::tictacchess::{Color, Move, Position, Square};
use std::io::{BufRead, Read, Write};

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Your side: `w` (you move first from the start) or `b`.
    #[arg(long, default_value = "w", value_parser = ["w", "b"])]
    pub side: String,
    #[command(flatten)]
    pub position: PosArgs,
    /// The solved table: probed if the file exists, else solved and written.
    ///
    /// Without it the game is solved at start-up, which takes minutes.
    #[arg(long, value_name = "FILE")]
    pub table: Option<std::path::PathBuf>,
    /// Worker threads (0 = all cores).
    ///
    /// For a solve.
    #[arg(short = 't', long, value_name = "THREADS", default_value_t = 0, value_parser = crate::cli::common::threads_arg)]
    pub threads: usize,
    /// No progress on standard error.
    ///
    /// A bar shows while solving.
    #[arg(short, long)]
    pub quiet: bool,
}

fn board_text(pos: &Position) -> String {
    let mut s = String::from("  +---+---+---+---+\n");
    for rank in (0..4).rev() {
        s.push_str(&format!("{} |", rank + 1));
        for file in 0..4 {
            s.push_str(&format!(" {} |", pos.letter_at(Square::new(file, rank)).unwrap_or(' ')));
        }
        s.push_str("\n  +---+---+---+---+\n");
    }
    s.push_str("    a   b   c   d\n");
    let hand = pos.hand_text();
    let white: String = hand.chars().filter(char::is_ascii_uppercase).collect();
    let black: String = hand.chars().filter(char::is_ascii_lowercase).collect();
    let none = |h: String| if h.is_empty() { "-".to_string() } else { h };
    s.push_str(&format!("in hand: White {}  Black {}\n", none(white), none(black)));
    s
}

fn describe(v: Value) -> String {
    match v {
        Value::Win(d) => format!("a win in {d} plies"),
        Value::Loss(0) => "lost".to_string(),
        Value::Loss(d) => format!("a loss in {d} plies"),
        Value::Draw => "a draw".to_string(),
    }
}

/// Why the chosen move is best, given every move's value for the mover.
fn why(chosen: Move, value: Value, moves: &[(Move, Value)]) -> String {
    let others = moves.len() - 1;
    let worse = moves.iter().filter(|&&(_, v)| v.score() < value.score()).count();
    match value {
        Value::Win(1) => format!("{chosen} completes a line: it wins at once"),
        Value::Win(d) => format!(
            "{chosen} wins in {d} plies whatever you do; {worse} of the other {others} moves win slower or not at all"
        ),
        Value::Draw => format!("{chosen} holds the draw; {worse} of the other {others} moves would lose"),
        Value::Loss(d) => format!("every move loses; {chosen} lasts longest (you win in {} plies at best)", d - 1),
    }
}

/// The longest input line read: a move is a few characters, and a stream
/// without line ends (`< /dev/zero`) must not fill the memory.
const MAX_INPUT_LINE: usize = 4096;

/// Line `number` of `input` without its line end; `None` at the end.
fn next_line(input: &mut impl BufRead, number: usize) -> Result<Option<String>> {
    let mut buf = Vec::new();
    let read = input
        .take(MAX_INPUT_LINE as u64 + 1)
        .read_until(b'\n', &mut buf)
        .with_context(|| format!("standard input line {number}"))?;
    if read == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
    } else if buf.len() > MAX_INPUT_LINE {
        bail!("standard input line {number}: longer than {MAX_INPUT_LINE} bytes");
    }
    String::from_utf8(buf).map(Some).map_err(|e| {
        anyhow!("standard input line {number}: not UTF-8 text (byte {})", e.utf8_error().valid_up_to() + 1)
    })
}

pub fn run(args: PlayArgs) -> Result<Outcome> {
    let you = if args.side == "w" { Color::White } else { Color::Black };
    let mut pos = args.position.resolve()?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "TicTacChess: four of your pieces on one rank, file or long diagonal wins.")?;
    writeln!(out, "Moves: drops like N@b2 (piece letter in capitals), moves like b1c3. `quit` ends.")?;
    writeln!(out, "Loading the solved game...")?;
    out.flush()?;
    let (oracle, source) = oracle(args.table.as_deref(), args.threads, args.quiet)?;
    writeln!(out, "(values from the {source})\n")?;
    let mut stdin = std::io::stdin().lock();
    let mut line_number = 0;
    loop {
        writeln!(out, "{}", board_text(&pos))?;
        if let Some(winner) = pos.winner() {
            let who = if winner == you { "You win" } else { "I win" };
            writeln!(out, "{who}: {} has four in a line ({}).", winner.name(), line_name(&pos, winner))?;
            writeln!(out, "Result: {}", if winner == Color::White { "1-0" } else { "0-1" })?;
            return Ok(Outcome::Success);
        }
        let value = oracle.value(&pos)?;
        let mover = pos.turn();
        writeln!(out, "{} to move: {} for {}.", mover.name(), describe(value), mover.name())?;
        if mover == you {
            write!(out, "your move> ")?;
            out.flush()?;
            line_number += 1;
            let Some(line) = next_line(&mut stdin, line_number)? else {
                writeln!(out, "\n(end of input: game abandoned)")?;
                return Ok(Outcome::Success);
            };
            let text = line.trim().to_string();
            if text == "quit" || text == "q" {
                writeln!(out, "Game abandoned.")?;
                return Ok(Outcome::Success);
            }
            match pos.parse_move(&text) {
                Ok(m) => {
                    let after = oracle.value(&pos.play(m))?.before();
                    if after.score() < value.score() {
                        writeln!(out, "You play {m}: now {} for you.\n", describe(after))?;
                    } else {
                        writeln!(out, "You play {m}: a best move.\n")?;
                    }
                    pos = pos.play(m);
                }
                Err(e) => writeln!(out, "Not a legal move: {e}\n")?,
            }
        } else {
            let moves: Vec<(Move, Value)> = oracle.children(&pos)?.into_iter().map(|(m, v)| (m, v.before())).collect();
            let Some(&(best, v)) = moves.iter().max_by_key(|(m, v)| (v.score(), std::cmp::Reverse(m.to_string())))
            else {
                bail!("no legal move in {pos}");
            };
            writeln!(out, "I play {best}: {}.\n", why(best, v, &moves))?;
            pos = pos.play(best);
        }
    }
}
