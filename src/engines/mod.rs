//! Anything that can divide, for any game (`R: Rules`): our generator, a UCI
//! engine, a perftree-style script, a saved divide output. A query is always
//! a root position plus a list of moves played from it, never a new
//! position, so that engines with history bugs (castling rights, e.p.
//! squares) are asked the way they fail.
//!
//! Engines are other people's programs and are supervised as such (see
//! `process`): every answer has a deadline that holds whatever they print,
//! output is bounded in line length and volume, and the process group is
//! killed when it is no longer needed, also when chesstool is killed by a
//! signal (`signals`).

pub mod builtin;
mod exchange;
pub mod file;
pub mod find;
pub mod output;
mod process;
pub mod script;
pub mod signals;
pub mod stderr;
pub mod uci;
pub mod xboard;

pub use builtin::Builtin;
pub use file::SavedDivide;
pub use output::{parse_divide, parse_output, read_answer, DivideFormat, ParseOutputError, ParsedOutput, Skipped};
pub use script::ScriptEngine;
pub use signals::kill_engines_on_signals;
pub use stderr::StderrMode;
pub use uci::UciEngine;
pub use xboard::XboardEngine;

use crate::rules::Rules;
use std::time::Duration;

/// The default handshake timeout: `uci` -> `uciok`, `isready` -> `readyok`,
/// a script's first line. Engines answer these at once; a wrong command (a
/// program that is no engine, `/bin/cat`) should not cost the perft timeout.
pub const DEFAULT_HANDSHAKE: Duration = Duration::from_secs(10);

/// How to run an engine: the time limits, the divide layout, what to do
/// with its standard error and, for UCI, its perft command.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// The longest one answer may take (a perft can take long).
    pub timeout: Duration,
    /// The longest a handshake may take (at most `timeout`): `uci` ->
    /// `uciok`, `isready` -> `readyok`, xboard's `feature done=1` and
    /// `pong N` after setting up a position.
    pub handshake: Duration,
    /// The layout of the divide it prints.
    pub format: DivideFormat,
    /// UCI only: the perft command, with `{depth}` for the depth
    /// (`go perft {depth}` when `None`).
    pub perft_command: Option<String>,
    /// What to do with the engine's standard error.
    pub stderr: StderrMode,
    /// The engine speaks USI rather than UCI (`usi`/`usiok`, `position
    /// startpos|sfen ...`, moves in USI notation): `--engine-usi`.
    pub usi: bool,
    /// Scripts only, which cannot advertise options: the UCI options the
    /// user vouches the script plays (the game chosen on the command line,
    /// `--chess960`). A root that needs another option set is refused
    /// (`EngineError::Unsupported`).
    pub vouched: Vec<String>,
    /// xboard only: the `variant` name to send where the engine's name for
    /// the game is not chesstool's nor xboard's standard one
    /// (`--engine-variant`).
    pub engine_variant: Option<String>,
    /// Scripts only: how the user vouches for an option, for the message
    /// (`give --chess960 if the script plays Chess960`).
    pub vouch_hint: Option<String>,
}

impl EngineOptions {
    /// `timeout` and `format`, defaults for the rest.
    pub fn new(timeout: Duration, format: DivideFormat) -> EngineOptions {
        EngineOptions {
            timeout,
            handshake: DEFAULT_HANDSHAKE,
            format,
            perft_command: None,
            stderr: StderrMode::Keep,
            usi: false,
            vouched: Vec::new(),
            engine_variant: None,
            vouch_hint: None,
        }
    }

    /// The handshake limit: never more than the answer's.
    pub fn handshake(&self) -> Duration {
        self.handshake.min(self.timeout)
    }
}

/// A position to ask about: a root and the moves played from it.
pub struct Line<R: Rules> {
    /// The position the line starts from.
    pub root: R::Position,
    /// The moves played from the root, in order.
    pub moves: Vec<R::Move>,
}

impl<R: Rules> Clone for Line<R> {
    fn clone(&self) -> Line<R> {
        Line { root: self.root.clone(), moves: self.moves.clone() }
    }
}

impl<R: Rules> std::fmt::Debug for Line<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Line").field("root", &self.root).field("moves", &self.moves).finish()
    }
}

impl<R: Rules> Line<R> {
    /// The line of no moves: the root itself.
    pub fn new(root: R::Position) -> Line<R> {
        Line { root, moves: Vec::new() }
    }

    /// The root in the game's text form (FEN for chess).
    pub fn root_text(&self, rules: &R) -> String {
        rules.position_text(&self.root)
    }

    /// The moves as engines read them, each written in the position before it.
    pub fn move_texts(&self, rules: &R) -> Vec<String> {
        let mut pos = self.root.clone();
        let mut texts = Vec::with_capacity(self.moves.len());
        for &m in &self.moves {
            texts.push(rules.move_text(&pos, m));
            pos = rules.play(&pos, m);
        }
        texts
    }

    /// The root and moves as a USI engine reads them (`startpos` or `sfen
    /// ...`, then `7g7f`, `P*5e`); `None` for a game without a USI form.
    pub fn usi_texts(&self, rules: &R) -> Option<(String, Vec<String>)> {
        let root = rules.usi_position(&self.root)?;
        let mut pos = self.root.clone();
        let mut texts = Vec::with_capacity(self.moves.len());
        for &m in &self.moves {
            texts.push(rules.usi_move_text(&pos, m)?);
            pos = rules.play(&pos, m);
        }
        Some((root, texts))
    }

    /// The position at the end of the line (the moves are ours, so legal).
    pub fn position(&self, rules: &R) -> R::Position {
        self.moves.iter().fold(self.root.clone(), |pos, &m| rules.play(&pos, m))
    }

    /// The line extended by one move.
    pub fn child(&self, m: R::Move) -> Line<R> {
        let mut moves = Vec::with_capacity(self.moves.len() + 1);
        moves.extend_from_slice(&self.moves);
        moves.push(m);
        Line { root: self.root.clone(), moves }
    }
}

/// A divide as an engine printed it: moves in the engine's own notation, in
/// its order, with their counts, and the total if it printed one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Divide {
    /// Each move as printed, with its count, in the printed order.
    pub moves: Vec<(String, u64)>,
    /// The total line's count, if the engine printed one.
    pub total: Option<u64>,
    /// Moves printed again with the same text, in the printed order (not in
    /// `moves`): a fact about the engine, reported as a finding.
    pub repeated: Vec<(String, u64)>,
}

impl Divide {
    /// The printed total, else the sum of the move counts (saturating: the
    /// counts come from other programs).
    pub fn nodes(&self) -> u64 {
        self.total.unwrap_or_else(|| self.sum())
    }

    /// The sum of the move counts (saturating).
    pub fn sum(&self) -> u64 {
        self.moves.iter().fold(0u64, |acc, (_, n)| acc.saturating_add(*n))
    }

    /// True if only a total was printed (no per-move counts). A total of 0
    /// is a whole divide: no moves (a game that is over).
    pub fn total_only(&self) -> bool {
        self.moves.is_empty() && self.total.is_some_and(|n| n > 0)
    }
}

/// Why an engine could not answer.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// Not the engine's fault but the command line's: exit 2, naming the path.
    #[error("cannot start {program:?}: {source}")]
    Spawn {
        /// The program that could not be started.
        program: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The engine gave no complete answer in time and was killed.
    #[error("{engine}: no complete answer to {request} within {secs} s (killed); last line: {last:?}{stderr}", secs = .timeout.as_secs_f64())]
    Timeout {
        /// The engine's name.
        engine: String,
        /// The request it was answering.
        request: String,
        /// The time limit it overran.
        timeout: Duration,
        /// The last line it printed.
        last: String,
        /// The tail of its standard error, for the message (empty if none).
        stderr: String,
    },
    /// The engine exited or died while answering.
    #[error("{engine}: {status} while answering {request} after {lines} line(s) of output{stderr}")]
    Crashed {
        /// The engine's name.
        engine: String,
        /// The request it was answering.
        request: String,
        /// How it ended (exit code or signal).
        status: String,
        /// How many lines of output it printed before.
        lines: usize,
        /// The tail of its standard error, for the message (empty if none).
        stderr: String,
    },
    /// The engine's answer does not read as a divide.
    #[error("{engine}: unreadable answer to {request}: {source}{stderr}")]
    Garbage {
        /// The engine's name.
        engine: String,
        /// The request it was answering.
        request: String,
        /// Why the answer could not be read.
        source: Box<ParseOutputError>,
        /// The tail of its standard error, for the message (empty if none).
        stderr: String,
    },
    /// The answer stopped before its end: no total line (perftree's blank
    /// line and total, UCI's `Nodes searched`).
    #[error("{engine}: the answer to {request} was cut off: it has no total line; the last line received was {last:?}{stderr}")]
    Truncated {
        /// The engine's name.
        engine: String,
        /// The request it was answering.
        request: String,
        /// The last line received.
        last: String,
        /// The tail of its standard error, for the message (empty if none).
        stderr: String,
    },
    /// The engine went quiet after what reads as a whole answer (its moves,
    /// its sync reply) whose last line is no move and no total chesstool
    /// reads.
    #[error("{engine}: the answer to {request} has no total line chesstool reads: it ended (the engine went quiet) with {last:?}; if that line is its total, it is in a layout chesstool does not read: name the layout with --against-format, or wrap the engine in a script for --engine-script; if the engine prints its divide with another command, name it with --perft-command{stderr}")]
    Unended {
        /// The engine's name.
        engine: String,
        /// The request it was answering.
        request: String,
        /// The answer's last line.
        last: String,
        /// The tail of its standard error, for the message (empty if none).
        stderr: String,
    },
    /// Output no divide can explain: a line over `MAX_LINE` bytes, or far
    /// more lines or bytes than the position has moves (killed).
    #[error("{engine}: garbage in answer to {request}: {what} (killed)")]
    Flood {
        /// The engine's name.
        engine: String,
        /// The request it was answering.
        request: String,
        /// What was too long or too much.
        what: String,
    },
    /// Answered the perft command with a search (`info depth`, `bestmove`)
    /// or an "unknown command" line; `advice` says what to try.
    #[error("{engine}: does not support perft: {what} (it answered {request} with {line:?}); {advice}", what = if *.searched { "it searched instead of counting" } else { "it does not know the command" })]
    NoPerft {
        /// The engine's name.
        engine: String,
        /// The request it was answering.
        request: String,
        /// The line that showed it.
        line: String,
        /// True if it searched instead of counting.
        searched: bool,
        /// What to try instead.
        advice: String,
    },
    /// The engine listed a move twice in one answer.
    #[error("{engine}: listed move {mv:?} twice in its answer to {request}")]
    Duplicate {
        /// The engine's name.
        engine: String,
        /// The request it was answering.
        request: String,
        /// The move listed twice, as printed.
        mv: String,
    },
    /// The engine broke the protocol (a missing or wrong reply).
    #[error("{engine}: {message}")]
    Protocol {
        /// The engine's name.
        engine: String,
        /// What went wrong.
        message: String,
    },
    /// The engine cannot be asked about this root: it did not advertise a
    /// UCI option the game needs there (`Rules::uci_options`), or not the
    /// value needed among its `var` values; a script, which cannot
    /// advertise, was not vouched for it. Nothing was compared.
    #[error("{0}")]
    Unsupported(Box<MissingOption>),
    /// The engine refused a command: it answered `No such option` or
    /// `Unknown command` (quoted).
    #[error("{engine}: refused {request}: it answered {line:?}")]
    Refused {
        /// The engine's name.
        engine: String,
        /// The commands it was answering.
        request: String,
        /// Its answer.
        line: String,
    },
    /// Text the user gave (a saved or pasted divide) broke a rule of
    /// answers (an input error, exit 2).
    #[error("{name}: {source}{}", hint.as_ref().map(|h| format!("; {h}")).unwrap_or_default())]
    BadText {
        /// The file's name.
        name: String,
        /// The rule it broke.
        source: Box<ParseOutputError>,
        /// What may have happened.
        hint: Option<String>,
    },
    /// An input or output error talking to the engine.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// Not the engine's fault: bad input (an unreadable saved divide, a
    /// question a saved divide cannot answer).
    #[error("{0}")]
    Input(String),
}

impl EngineError {
    /// True if the engine misbehaved (exit 3), as opposed to a usage or
    /// input error (exit 2: a saved divide that cannot be read, a command
    /// that cannot be started).
    pub fn is_engine_failure(&self) -> bool {
        !matches!(self, EngineError::Input(_) | EngineError::Spawn { .. } | EngineError::BadText { .. })
    }

    /// True if the engine cannot be asked about a root (nothing was asked;
    /// the engine itself is sound).
    pub fn is_unsupported(&self) -> bool {
        matches!(self, EngineError::Unsupported(_))
    }

    /// The rule of answers that was broken, by name (docs/formats/
    /// answers.md), if the error is an answer that broke one.
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            EngineError::Garbage { source, .. } | EngineError::BadText { source, .. } => Some(source.rule()),
            EngineError::Truncated { .. } | EngineError::Unended { .. } => Some("total-required"),
            EngineError::Duplicate { .. } => Some("move-once"),
            EngineError::Unsupported(_) => Some("option-advertised"),
            EngineError::Refused { .. } => Some("command-accepted"),
            _ => None,
        }
    }
}

/// What an engine lacks to be asked about a root (`EngineError::Unsupported`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingOption {
    /// The engine's name.
    pub engine: String,
    /// The option the root needs (`UCI_Variant`).
    pub option: String,
    /// The value it needs (`atomic`).
    pub value: String,
    /// The values the engine offers for it (a `combo`'s `var` list), `None`
    /// if it has no such option.
    pub offered: Option<Vec<String>>,
    /// True for a script (it cannot advertise).
    pub script: bool,
    /// The protocol whose option it is (`UCI`, `USI`, `xboard`).
    pub protocol: &'static str,
    /// How the user vouches for a script, if known.
    pub hint: Option<String>,
}

impl std::fmt::Display for MissingOption {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let m = self;
        f.write_str(&unsupported_message(
            &m.engine,
            &m.option,
            &m.value,
            m.offered.as_deref(),
            m.script,
            m.protocol,
            m.hint.as_deref(),
        ))
    }
}

/// The most values an `Unsupported` message lists.
const MAX_OFFERED: usize = 12;

fn unsupported_message(
    engine: &str,
    option: &str,
    value: &str,
    offered: Option<&[String]>,
    script: bool,
    protocol: &str,
    hint: Option<&str>,
) -> String {
    if script {
        let hint = hint.map(|h| format!(" ({h})")).unwrap_or_default();
        return format!(
            "{engine}: a script cannot advertise UCI options, and this position needs {option} = {value}, \
             which the command line did not vouch for{hint}"
        );
    }
    let hint = hint.map(|h| format!("; {h}")).unwrap_or_default();
    let hello = if protocol == "USI" { "usi" } else { "uci" };
    match offered {
        None => format!(
            "{engine}: has no {protocol} option {option} (this position needs {option} = {value}; \
             the engine did not list it after `{hello}`){hint}"
        ),
        Some(values) => {
            let mut shown: Vec<&str> = values.iter().take(MAX_OFFERED).map(String::as_str).collect();
            let more = values.len().saturating_sub(MAX_OFFERED);
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            if shown.is_empty() {
                shown.push("nothing");
            }
            format!(
                "{engine}: its {protocol} option {option} does not offer {value:?} (it offers {}{more}){hint}",
                shown.join(", ")
            )
        }
    }
}

/// Anything that can divide positions of the game `R`.
pub trait Divider<R: Rules> {
    /// A short name for messages (`builtin`, the engine command, the file).
    fn name(&self) -> String;

    /// Per-move counts and total at `depth` for the position at the end of `line`.
    fn divide(&mut self, line: &Line<R>, depth: u32) -> Result<Divide, EngineError>;

    /// As `divide`, calling `on_move` with each move and count as soon as it
    /// is known (our generator as each subtree is counted, an engine as it
    /// prints each line), for live output.
    fn divide_each(
        &mut self,
        line: &Line<R>,
        depth: u32,
        on_move: &(dyn Fn(&str, u64) + Sync),
    ) -> Result<Divide, EngineError> {
        let divide = self.divide(line, depth)?;
        for (m, n) in &divide.moves {
            on_move(m, *n);
        }
        Ok(divide)
    }

    /// `Some(where)` if the answers are text the user gave (a saved divide):
    /// what cannot be read there is an input error, not an engine failure,
    /// and is reported at the line that holds `printed` (`paste.txt: line 3`).
    fn user_text_at(&self, _printed: &str) -> Option<String> {
        None
    }

    /// Whether the engine can be asked about lines from `root`: `Err` of
    /// `EngineError::Unsupported` when it lacks a UCI option the game needs
    /// there (`Rules::uci_options`), another error if it cannot even start.
    /// Every divider but a UCI engine or a script can be asked anything.
    fn check_root(&mut self, _root: &R::Position) -> Result<(), EngineError> {
        Ok(())
    }

    /// Forgets a failed engine: the next question starts it anew (a suite
    /// goes on after an engine failure).
    fn restart(&mut self) {}

    /// Sets how long each answer may take from now on (`fuzz` widens it as
    /// it learns how slow the engine is). Dividers that never wait ignore it.
    fn set_timeout(&mut self, _timeout: Duration) {}

    /// The lines skipped in the engine's answers so far as not divide data,
    /// by kind (`None` if the divider reads no text).
    fn skipped(&self) -> Option<Skipped> {
        None
    }

    /// The position at the end of `line` as the engine prints it
    /// (Stockfish's `d`); `None` for engines that have no such command.
    fn show(&mut self, _line: &Line<R>) -> Result<Option<Shown>, EngineError> {
        Ok(None)
    }
}

/// A position as an engine printed it: the `Fen:` and `Key:` lines of `d`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shown {
    /// The position as printed on the `Fen:` line.
    pub fen: String,
    /// The hash key as printed (`Key: 8F8F01D4562F59FB`), if it printed one.
    pub key: Option<String>,
}

pub use crate::rules::clip;

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
    use crate::chess::Chess;
    use crate::Position;

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
        let line: Line<Chess> = Line::new(root).child(e4);
        assert_eq!(line.move_texts(&Chess::new()), ["e2e4"]);
        assert_eq!(line.position(&Chess::new()), root.play(e4));
    }

    #[test]
    fn a_total_of_zero_is_a_whole_divide() {
        // A game that is over: no moves, and no "only totals" to bisect by.
        assert!(!Divide { total: Some(0), ..Divide::default() }.total_only());
        assert!(Divide { total: Some(24), ..Divide::default() }.total_only());
    }

    #[test]
    fn clip_keeps_whole_characters() {
        assert_eq!(clip("short"), "short");
        let long = "é".repeat(500);
        let clipped = clip(&long);
        assert_eq!(clipped.chars().count(), 103);
        assert!(clipped.ends_with("..."));
    }

    #[test]
    fn sums_saturate() {
        let d = Divide { moves: vec![("a".into(), u64::MAX), ("b".into(), 5)], ..Divide::default() };
        assert_eq!(d.nodes(), u64::MAX);
    }
}
