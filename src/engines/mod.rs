//! Anything that can divide: our generator, a UCI engine, a perftree-style
//! script, a saved divide output. A query is always a root position plus a
//! list of moves played from it, never a new FEN, so that engines with
//! history bugs (castling rights, e.p. squares) are asked the way they fail.

pub mod builtin;
pub mod file;
pub mod find;
pub mod output;
mod process;
pub mod script;
pub mod uci;

pub use builtin::Builtin;
pub use file::SavedDivide;
pub use output::{parse_divide, DivideFormat, ParseOutputError};
pub use script::ScriptEngine;
pub use uci::UciEngine;

use crate::{Move, Position};
use std::time::Duration;

/// A position to ask about: a root and the moves played from it.
#[derive(Clone, Debug)]
pub struct Line {
    pub root: Position,
    pub moves: Vec<Move>,
}

impl Line {
    pub fn new(root: Position) -> Line {
        Line { root, moves: Vec::new() }
    }

    pub fn chess960(&self) -> bool {
        self.root.is_chess960()
    }

    /// The root in FEN (Shredder-FEN castling for Chess960).
    pub fn root_fen(&self) -> String {
        self.root.to_fen()
    }

    /// The moves in UCI, castling written the way the variant expects
    /// (`e1g1` in standard chess, `e1h1` in Chess960).
    pub fn uci_moves(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.to_uci(self.chess960())).collect()
    }

    /// The position at the end of the line (the moves are ours, so legal).
    pub fn position(&self) -> Position {
        self.moves.iter().fold(self.root, |pos, &m| pos.play(m))
    }

    /// The line extended by one move.
    pub fn child(&self, m: Move) -> Line {
        let mut moves = self.moves.clone();
        moves.push(m);
        Line { root: self.root, moves }
    }
}

/// A divide as an engine printed it: moves in the engine's own notation, in
/// its order, with their counts, and the total if it printed one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Divide {
    pub moves: Vec<(String, u64)>,
    pub total: Option<u64>,
}

impl Divide {
    /// The printed total, else the sum of the move counts.
    pub fn nodes(&self) -> u64 {
        self.total.unwrap_or_else(|| self.moves.iter().map(|(_, n)| n).sum())
    }

    /// True if only a total was printed (no per-move counts).
    pub fn total_only(&self) -> bool {
        self.moves.is_empty() && self.total.is_some()
    }
}

/// Why an engine could not answer.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("cannot start {cmd:?}: {source}")]
    Spawn { cmd: String, source: std::io::Error },
    #[error("{engine}: no complete answer to {request} within {secs} s (killed); last line: {last:?}", secs = .timeout.as_secs_f64())]
    Timeout { engine: String, request: String, timeout: Duration, last: String },
    #[error("{engine}: {status} while answering {request} after {lines} line(s) of output{stderr}")]
    Crashed { engine: String, request: String, status: String, lines: usize, stderr: String },
    #[error("{engine}: unreadable answer to {request}: {source}")]
    Garbage { engine: String, request: String, source: ParseOutputError },
    #[error("{engine}: listed move {mv:?} twice in its answer to {request}")]
    Duplicate { engine: String, request: String, mv: String },
    #[error("{engine}: {message}")]
    Protocol { engine: String, message: String },
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// Not the engine's fault: bad input (an unreadable saved divide, a
    /// question a saved divide cannot answer).
    #[error("{0}")]
    Input(String),
}

impl EngineError {
    /// True if the engine misbehaved (as opposed to a usage or input error).
    pub fn is_engine_failure(&self) -> bool {
        !matches!(self, EngineError::Input(_))
    }
}

/// Anything that can divide.
pub trait Divider {
    /// A short name for messages (`builtin`, the engine command, the file).
    fn name(&self) -> String;

    /// Per-move counts and total at `depth` for the position at the end of `line`.
    fn divide(&mut self, line: &Line, depth: u32) -> Result<Divide, EngineError>;
}

/// Splits a command line into words like a POSIX shell does for quoting
/// (single quotes, double quotes with backslash escapes, backslashes); no
/// expansion of any kind.
pub fn split_command(cmd: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => word.push(c),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            c @ ('"' | '\\' | '$' | '`') => word.push(c),
                            '\n' => {}
                            c => {
                                word.push('\\');
                                word.push(c);
                            }
                        },
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next()? {
                    '\n' => {}
                    c => word.push(c),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Some(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_command_quotes_like_a_shell() {
        assert_eq!(split_command("a b  c").unwrap(), ["a", "b", "c"]);
        assert_eq!(split_command(r#"sh -c 'echo "hi there"'"#).unwrap(), ["sh", "-c", "echo \"hi there\""]);
        assert_eq!(split_command(r#"x "a\"b" c\ d ''"#).unwrap(), ["x", "a\"b", "c d", ""]);
        assert_eq!(split_command("'open"), None);
    }

    #[test]
    fn line_plays_its_moves() {
        let root = Position::startpos();
        let e4 = root.parse_uci("e2e4").unwrap();
        let line = Line::new(root).child(e4);
        assert_eq!(line.uci_moves(), ["e2e4"]);
        assert_eq!(line.position(), root.play(e4));
    }
}
