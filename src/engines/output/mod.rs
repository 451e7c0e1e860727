//! Parsers for the divide outputs engines print, and for such outputs as
//! people paste them:
//!
//! | format      | move line                     | total line                   |
//! |-------------|-------------------------------|------------------------------|
//! | `stockfish` | `e2e4: 20`                    | `Nodes searched: 8902`       |
//! | `perftree`  | `e2e4 20`, `Nb1a3 3193522577` | `8902` (after a blank)       |
//! | `weiss`     | `move 1 : a2a3 : 380`         | `Perft Complete : 8902 nodes visited in 12ms`, `Leaves: 8902` |
//! | `dash`      | `a2a3 - 380`                  | `Nodes: 8902`, `Total: 8902` |
//! | `total`     | (none)                        | any of the above             |
//!
//! Every format also accepts the labelled totals (`Total: N`, `Nodes: N`,
//! `Leaf nodes: N`, `Perft 5: N`, `perft(5) = N`, `N nodes`) and skips what
//! is clearly not divide data, counting it by kind (`Skipped`): blank lines,
//! a byte-order mark, UCI chatter (`id`, `option`, `uciok`, `readyok`,
//! `info`, `bestmove`), command echoes with or without a prompt (`go perft
//! 3`, `> position startpos`), timing and depth lines (`Time: 5 ms`, `Depth
//! 3`, `: 742000 nps`), and banner lines before the first move. A line that
//! looks like divide data (it starts with a move) but cannot be read is
//! still an error with its line number. The moves stay in the engine's
//! notation here; the game's `Rules::read_move` gives them meaning.

mod chatter;
mod format;
mod lines;
mod parse;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_dialects;
mod tokens;
mod totals;

pub use chatter::{no_perft, refuses, says_no_perft, NoPerft};
pub use format::DivideFormat;
pub use tokens::is_move_token;

use super::{clip, Divide};
use lines::{classify, classify_each, LineKind, Skip};
use parse::parse_as;

/// An output that does not read as a divide.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseOutputError {
    /// A line the format cannot read (`Auto`: no format reads it).
    #[error("line {line}: {text:?} is not a{} divide line ({}{})", if *format == DivideFormat::Auto { String::new() } else { format!(" {format}") }, format.layouts(), hint.as_ref().map(|h| format!("; {h}")).unwrap_or_default())]
    UnknownLine {
        /// The 1-based number of the offending output line.
        line: usize,
        /// The line's text.
        text: String,
        /// The format that was tried.
        format: DivideFormat,
        /// What the line looks like, if known.
        hint: Option<String>,
    },
    /// A move listed twice.
    #[error("line {line}: move {mv:?} listed twice (first on line {first})")]
    Duplicate {
        /// The 1-based number of the offending output line.
        line: usize,
        /// The line where it was first listed.
        first: usize,
        /// The move, as printed.
        mv: String,
    },
    /// More move lines than any position has moves.
    #[error("line {line}: more than {MAX_MOVE_LINES} move lines (no position has that many moves)")]
    TooManyMoves {
        /// The 1-based number of the offending output line.
        line: usize,
    },
    /// A second total line.
    #[error("line {line}: a second total {text:?}")]
    SecondTotal {
        /// The 1-based number of the offending output line.
        line: usize,
        /// The line's text.
        text: String,
    },
    /// A line after the total.
    #[error("line {line}: {text:?} after the total")]
    AfterTotal {
        /// The 1-based number of the offending output line.
        line: usize,
        /// The line's text.
        text: String,
    },
    /// The total printed is not the sum of the moves printed above it.
    #[error("the total {total} is not the sum of the {moves} moves above it ({sum})")]
    TotalNotSum {
        /// The total printed.
        total: u64,
        /// The sum of the move counts.
        sum: u128,
        /// How many moves were printed.
        moves: usize,
    },
    /// A running sum printed after a move's count that is not the sum of
    /// the counts so far (Sjaak II's `perft N 1`).
    #[error("line {line}: {text:?} prints the running sum {printed}, but the counts so far sum to {sum}")]
    RunningSum {
        /// The 1-based number of the offending output line.
        line: usize,
        /// The line's text.
        text: String,
        /// The running sum printed.
        printed: u128,
        /// The sum of the counts up to this line.
        sum: u128,
    },
    /// Totals of other depths only: the engine counted other depths than
    /// the one asked.
    #[error("no total for depth {depth} in the output (it has totals for depth {})", seen.iter().map(u32::to_string).collect::<Vec<_>>().join(", "))]
    NoDepth {
        /// The depth asked.
        depth: u32,
        /// The depths whose totals were printed, in order.
        seen: Vec<u32>,
    },
    /// Neither a move nor a total in the whole output.
    #[error("no moves and no total in the output{}", if *skipped > 0 { format!(" ({skipped} line(s) skipped as not divide data)") } else { String::new() })]
    Empty {
        /// How many lines were skipped as not divide data.
        skipped: usize,
    },
}

impl ParseOutputError {
    fn line(&self) -> usize {
        match self {
            ParseOutputError::UnknownLine { line, .. }
            | ParseOutputError::Duplicate { line, .. }
            | ParseOutputError::TooManyMoves { line }
            | ParseOutputError::SecondTotal { line, .. }
            | ParseOutputError::AfterTotal { line, .. }
            | ParseOutputError::RunningSum { line, .. } => *line,
            ParseOutputError::Empty { .. }
            | ParseOutputError::TotalNotSum { .. }
            | ParseOutputError::NoDepth { .. } => 0,
        }
    }

    /// The name of the rule the text broke, as JSON error documents give it
    /// (`error.rule`, docs/formats/answers.md).
    pub fn rule(&self) -> &'static str {
        match self {
            ParseOutputError::UnknownLine { .. } => "divide-line",
            ParseOutputError::Duplicate { .. } => "move-once",
            ParseOutputError::TooManyMoves { .. } => "move-lines-bounded",
            ParseOutputError::SecondTotal { .. } => "one-total",
            ParseOutputError::AfterTotal { .. } => "total-last",
            ParseOutputError::TotalNotSum { .. } => "total-is-sum",
            ParseOutputError::RunningSum { .. } => "running-sum",
            ParseOutputError::NoDepth { .. } => "depth-asked",
            ParseOutputError::Empty { .. } => "moves-or-total",
        }
    }
}

/// Lines skipped as not divide data, by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Skipped {
    /// Blank lines.
    pub blank: usize,
    /// Text before the first move that does not look like divide data.
    pub banner: usize,
    /// `id`, `option`, `uciok`, `readyok`, `info`, `bestmove`.
    pub uci: usize,
    /// Commands echoed with or without a prompt (`go perft 3`, `> uci`).
    pub echo: usize,
    /// Timing, speed and depth lines, and prose after the total.
    pub timing: usize,
    /// Debug and log lines among the moves (`Debug: Move f2f4 has 20 nodes`).
    pub debug: usize,
    /// Board diagrams (`+---+---+`, `| r | n | b |`, `8 r n b q k b n r`).
    pub board: usize,
    /// Other prose among the moves, totals in other words (`Moves: 20`).
    pub prose: usize,
    /// Move and total lines of other depths' blocks (iterations 1..N).
    pub other_depth: usize,
    /// A UTF-8 byte-order mark at the start.
    pub bom: bool,
}

impl Skipped {
    /// Lines skipped other than blank ones.
    pub fn lines(&self) -> usize {
        self.banner + self.uci + self.echo + self.timing + self.debug + self.board + self.prose + self.other_depth
    }

    /// `3 banner, 24 UCI chatter, 2 command echo, 1 timing` (empty kinds
    /// left out), or `None` if nothing but blank lines was skipped.
    pub fn describe(&self) -> Option<String> {
        let kinds = [
            (self.banner, "banner"),
            (self.uci, "UCI chatter"),
            (self.echo, "command echo"),
            (self.timing, "timing/depth"),
            (self.debug, "debug"),
            (self.board, "board diagram"),
            (self.prose, "other prose"),
            (self.other_depth, "of other depths"),
        ];
        let mut parts: Vec<String> =
            kinds.iter().filter(|(n, _)| *n > 0).map(|(n, what)| format!("{n} {what}")).collect();
        if self.bom {
            parts.push("a byte-order mark".to_string());
        }
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// Adds the counts of `other` (the skipped lines of several answers).
    pub fn merge(&mut self, other: &Skipped) {
        self.blank += other.blank;
        self.banner += other.banner;
        self.uci += other.uci;
        self.echo += other.echo;
        self.timing += other.timing;
        self.debug += other.debug;
        self.board += other.board;
        self.prose += other.prose;
        self.other_depth += other.other_depth;
        self.bom |= other.bom;
    }

    fn add(&mut self, kind: Skip) {
        match kind {
            Skip::Blank => self.blank += 1,
            Skip::Banner => self.banner += 1,
            Skip::Uci => self.uci += 1,
            Skip::Echo => self.echo += 1,
            Skip::Timing => self.timing += 1,
            Skip::Debug => self.debug += 1,
            Skip::Board => self.board += 1,
            Skip::Prose => self.prose += 1,
        }
    }
}

/// A divide read from text, with what was skipped on the way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedOutput {
    /// The moves and total read.
    pub divide: Divide,
    /// The lines skipped, by kind.
    pub skipped: Skipped,
    /// The format that read it (the one asked for, or the one `Auto` found).
    pub format: DivideFormat,
}

/// Parses a whole divide output (see `parse_output`).
pub fn parse_divide(text: &str, format: DivideFormat) -> Result<Divide, ParseOutputError> {
    parse_output(text, format).map(|p| p.divide)
}

/// Parses a whole divide output. `Auto` picks the first format that reads
/// every line; if none does, the error is the one that got furthest. When a
/// format was forced and fails on text that another format reads, the
/// error says which.
pub fn parse_output(text: &str, format: DivideFormat) -> Result<ParsedOutput, ParseOutputError> {
    parse_output_at(text, format, None)
}

/// `parse_output` knowing the asked depth, if any: of several blocks (an
/// engine's iterations), the one of that depth; without it, the last.
fn parse_output_at(text: &str, format: DivideFormat, depth: Option<u32>) -> Result<ParsedOutput, ParseOutputError> {
    if format != DivideFormat::Auto {
        return parse_as(text, format, depth).map_err(|mut e| {
            if let (ParseOutputError::UnknownLine { hint, .. }, Ok(other)) = (&mut e, parse_auto(text, depth)) {
                *hint = Some(format!("the whole text reads as {} output", other.format));
            }
            e
        });
    }
    parse_auto(text, depth)
}

fn parse_auto(text: &str, depth: Option<u32>) -> Result<ParsedOutput, ParseOutputError> {
    let mut best: Option<ParseOutputError> = None;
    for f in DivideFormat::CONCRETE {
        match parse_as(text, f, depth) {
            Ok(d) => return Ok(d),
            Err(e) => {
                // Furthest first; at one line, a broken rule over "no layout".
                let unknown = |e: &ParseOutputError| matches!(e, ParseOutputError::UnknownLine { .. });
                if best
                    .as_ref()
                    .is_none_or(|b| e.line() > b.line() || (e.line() == b.line() && unknown(b) && !unknown(&e)))
                {
                    best = Some(e);
                }
            }
        }
    }
    Err(match best {
        // No layout reads the line: say so, with every layout read.
        Some(ParseOutputError::UnknownLine { line, text, hint, .. }) => {
            ParseOutputError::UnknownLine { line, text, format: DivideFormat::Auto, hint }
        }
        other => other.unwrap_or(ParseOutputError::Empty { skipped: 0 }),
    })
}

/// Reads an answer by the rules every answer is held to, whoever printed it
/// (a UCI engine, a script, a paste): the layout (`parse_output`), each move
/// once, at most one total and nothing after it, and a total equal to the
/// sum of the moves above it (a layout without a total is summed instead).
pub fn read_answer(text: &str, format: DivideFormat) -> Result<ParsedOutput, ParseOutputError> {
    read_answer_depth(text, format, None)
}

/// As `read_answer`, knowing the asked `depth`: of an engine that prints
/// iterations 1..N (Sjaak II's depth tables), only the block of the asked
/// depth is the answer; totals of other depths only are an error.
pub fn read_answer_at(text: &str, format: DivideFormat, depth: u32) -> Result<ParsedOutput, ParseOutputError> {
    read_answer_depth(text, format, Some(depth))
}

fn read_answer_depth(text: &str, format: DivideFormat, depth: Option<u32>) -> Result<ParsedOutput, ParseOutputError> {
    let parsed = parse_output_at(text, format, depth)?;
    let divide = &parsed.divide;
    if let (Some(total), false) = (divide.total, divide.moves.is_empty()) {
        let sum = divide.moves.iter().map(|(_, n)| u128::from(*n)).sum::<u128>();
        // A move printed twice may be counted in the total once or twice.
        let again = divide.repeated.iter().map(|(_, n)| u128::from(*n)).sum::<u128>();
        if u128::from(total) != sum && u128::from(total) != sum + again {
            return Err(ParseOutputError::TotalNotSum { total, sum, moves: divide.moves.len() });
        }
    }
    Ok(parsed)
}

/// More move lines than this is no divide: chess has at most 218 moves, the
/// largest variants a few thousand. It bounds the work on a pasted flood.
pub const MAX_MOVE_LINES: usize = 10_000;

/// The total a line prints in `format` (any format for `Auto`), and the
/// depth it names if it names one.
pub(crate) fn total_of(line: &str, format: DivideFormat) -> Option<(u64, Option<u32>)> {
    let total = |kind| match kind {
        LineKind::Total(n, depth) => Some((n, depth)),
        _ => None,
    };
    match format {
        DivideFormat::Auto => classify_each(line).find_map(total),
        f => total(classify(line, f)),
    }
}

/// True if `line` ends a divide whatever the depth asked: a total in
/// `format` (any format for `Auto`). An iteration's line (a depth table's
/// ` 1  20  0.00  338983.05nps`, `Depth 1: 20 nodes searched.`) is not
/// one: a deeper iteration may follow (see `ends_answer`).
pub fn is_total_line(line: &str, format: DivideFormat) -> bool {
    total_of(line, format).is_some() && totals::depth_total(line.trim()).is_none_or(|(_, depth)| depth.is_none())
}

/// The move and count of a move line in `format` (any format for `Auto`):
/// what live output shows as an engine prints.
pub fn move_line(line: &str, format: DivideFormat) -> Option<(&str, u64)> {
    let a_move = |kind| match kind {
        LineKind::Move(mv, n, _) => Some((mv, n)),
        _ => None,
    };
    match format {
        DivideFormat::Auto => classify_each(line).find_map(a_move),
        f => a_move(classify(line, f)),
    }
}

/// True when `line` is the total of the asked `depth` in any dialect: a
/// total that names no depth (`Nodes searched: 2039`), or one that names
/// this depth (` 2  2039  0.00  4021696.25nps`, `Raw nodes for depth 2:
/// 2039`, `Perft 2: 2039`); a total of another depth does not end it. The
/// drivers stop reading there.
pub fn ends_answer(line: &str, format: DivideFormat, depth: u32) -> bool {
    total_of(line, format).is_some_and(|(_, named)| named.is_none_or(|d| d == depth))
}
