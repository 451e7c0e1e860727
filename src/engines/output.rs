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

use super::{clip, Divide};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

/// Which divide layout to expect.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum DivideFormat {
    /// Try every format, keep the first that reads the whole output.
    #[default]
    Auto,
    /// `e2e4: 20` lines (Stockfish, Fairy-Stockfish).
    Stockfish,
    /// `e2e4 20` lines, a blank line and the total (perftree).
    Perftree,
    /// `move 1 : e2e4 : 20` lines (Weiss, VICE).
    Weiss,
    /// `e2e4 - 20` lines.
    Dash,
    /// A total alone, no per-move counts.
    Total,
}

impl DivideFormat {
    /// Every format but `Auto`, in the order `Auto` tries them.
    pub const CONCRETE: [DivideFormat; 5] =
        [DivideFormat::Stockfish, DivideFormat::Weiss, DivideFormat::Dash, DivideFormat::Perftree, DivideFormat::Total];

    /// The format's name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            DivideFormat::Auto => "auto",
            DivideFormat::Stockfish => "stockfish",
            DivideFormat::Perftree => "perftree",
            DivideFormat::Weiss => "weiss",
            DivideFormat::Dash => "dash",
            DivideFormat::Total => "total",
        }
    }
}

impl DivideFormat {
    /// The layout of a move line, for messages: `` `e2e4: 20` ``; for
    /// `Auto`, every layout read.
    pub fn layouts(self) -> &'static str {
        match self {
            DivideFormat::Auto => {
                "the layouts read are `e2e4: 20`, `e2e4 20`, `move 1 : e2e4 : 20`, `e2e4 - 20`, \
                 each with a total line, or a total alone"
            }
            DivideFormat::Stockfish => "the layout is `e2e4: 20` and `Nodes searched: N`",
            DivideFormat::Perftree => "the layout is `e2e4 20`, a blank line and the total",
            DivideFormat::Weiss => "the layout is `move 1 : e2e4 : 20` and a total line",
            DivideFormat::Dash => "the layout is `e2e4 - 20` and `Total: N`",
            DivideFormat::Total => "the layout is a total alone (`Nodes searched: N`, `N`)",
        }
    }
}

impl fmt::Display for DivideFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DivideFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<DivideFormat, String> {
        let lower = s.to_ascii_lowercase();
        let alias = match lower.as_str() {
            "fairy-stockfish" | "fairy" | "sf" => "stockfish",
            "plain" => "perftree",
            "vice" => "weiss",
            "totals" | "total-only" => "total",
            other => other,
        };
        std::iter::once(DivideFormat::Auto).chain(DivideFormat::CONCRETE).find(|f| f.name() == alias).ok_or_else(|| {
            format!("unknown divide format {:?} (auto, stockfish, perftree, weiss, dash, total)", clip(s))
        })
    }
}

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
            | ParseOutputError::AfterTotal { line, .. } => *line,
            ParseOutputError::Empty { .. } | ParseOutputError::TotalNotSum { .. } => 0,
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
    /// A UTF-8 byte-order mark at the start.
    pub bom: bool,
}

impl Skipped {
    /// Lines skipped other than blank ones.
    pub fn lines(&self) -> usize {
        self.banner + self.uci + self.echo + self.timing + self.debug + self.board + self.prose
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

/// Why a line is not divide data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Skip {
    Blank,
    Banner,
    Uci,
    Echo,
    Timing,
    Debug,
    Board,
    Prose,
}

/// What one line is.
#[derive(Debug, PartialEq, Eq)]
enum LineKind<'a> {
    Skip(Skip),
    Move(&'a str, u64),
    Total(u64),
    Unknown,
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
    if format != DivideFormat::Auto {
        return parse_as(text, format).map_err(|mut e| {
            if let (ParseOutputError::UnknownLine { hint, .. }, Ok(other)) = (&mut e, parse_auto(text)) {
                *hint = Some(format!("the whole text reads as {} output", other.format));
            }
            e
        });
    }
    parse_auto(text)
}

fn parse_auto(text: &str) -> Result<ParsedOutput, ParseOutputError> {
    let mut best: Option<ParseOutputError> = None;
    for f in DivideFormat::CONCRETE {
        match parse_as(text, f) {
            Ok(d) => return Ok(d),
            Err(e) => {
                if best.as_ref().is_none_or(|b| e.line() > b.line()) {
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
    let parsed = parse_output(text, format)?;
    let divide = &parsed.divide;
    if let (Some(total), false) = (divide.total, divide.moves.is_empty()) {
        let sum = divide.moves.iter().map(|(_, n)| u128::from(*n)).sum::<u128>();
        if u128::from(total) != sum {
            return Err(ParseOutputError::TotalNotSum { total, sum, moves: divide.moves.len() });
        }
    }
    Ok(parsed)
}

/// More move lines than this is no divide: chess has at most 218 moves, the
/// largest variants a few thousand. It bounds the work on a pasted flood.
pub const MAX_MOVE_LINES: usize = 10_000;

fn parse_as(text: &str, format: DivideFormat) -> Result<ParsedOutput, ParseOutputError> {
    let mut divide = Divide::default();
    let mut skipped = Skipped::default();
    // Each move's first line, to name it when the move comes again.
    let mut first_line: HashMap<&str, usize> = HashMap::new();
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => {
            skipped.bom = true;
            rest
        }
        None => text,
    };
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        let kind = match classify(raw, format) {
            // A line that does not start like divide data is skipped, by
            // kind: debug lines and boards anywhere, other prose before the
            // first move (a banner), after the total (a trailer) or in
            // between. A bare number between moves is not prose: which
            // move it counts is unknown, so it stays an error.
            LineKind::Unknown
                if !looks_like_data(trimmed) && count(trimmed).is_none() && trimmed.len() <= MAX_PROSE =>
            {
                LineKind::Skip(match prose_kind(trimmed) {
                    Some(k) => k,
                    None if first_line.is_empty() && divide.total.is_none() => Skip::Banner,
                    None if divide.total.is_some() => Skip::Timing,
                    None => Skip::Prose,
                })
            }
            kind => kind,
        };
        match kind {
            LineKind::Skip(k) => skipped.add(k),
            LineKind::Total(n) => {
                if divide.total.is_some() {
                    return Err(ParseOutputError::SecondTotal { line, text: clip(trimmed) });
                }
                divide.total = Some(n);
            }
            LineKind::Move(mv, n) => {
                if divide.total.is_some() {
                    return Err(ParseOutputError::AfterTotal { line, text: clip(trimmed) });
                }
                if let Some(&first) = first_line.get(mv) {
                    return Err(ParseOutputError::Duplicate { line, first, mv: clip(mv) });
                }
                if divide.moves.len() == MAX_MOVE_LINES {
                    return Err(ParseOutputError::TooManyMoves { line });
                }
                divide.moves.push((mv.to_string(), n));
                first_line.insert(mv, line);
            }
            LineKind::Unknown => {
                return Err(ParseOutputError::UnknownLine { line, text: clip(trimmed), format, hint: None })
            }
        }
    }
    if divide.moves.is_empty() && divide.total.is_none() {
        return Err(ParseOutputError::Empty { skipped: skipped.lines() });
    }
    Ok(ParsedOutput { divide, skipped, format })
}

/// The longest line skipped as prose: no banner, debug line or diagram row
/// is longer, and a longer line is garbage worth naming.
const MAX_PROSE: usize = 500;

/// Debug/log lines and board diagrams, which engines print anywhere.
fn prose_kind(line: &str) -> Option<Skip> {
    let first: String = line.chars().take_while(char::is_ascii_alphabetic).collect::<String>().to_ascii_lowercase();
    if matches!(first.as_str(), "debug" | "dbg" | "trace" | "log" | "warning" | "warn" | "note" | "verbose") {
        return Some(Skip::Debug);
    }
    is_board_line(line).then_some(Skip::Board)
}

/// A line of a board diagram: a frame (`+---+---+`, `---------`), or cells
/// of single piece letters, dots, rank and file labels (`| r | . | b |`,
/// `8 r n b q k b n r`, `a b c d e f g h`, `rnbqkbnr`, Unicode pieces).
fn is_board_line(line: &str) -> bool {
    let frame = |c: char| "+-|=_".contains(c);
    if line.chars().count() >= 3 && line.chars().all(|c| frame(c) || c == ' ') {
        return true;
    }
    let piece = |c: char| "prnbqkPRNBQK.*".contains(c) || !c.is_ascii();
    let cells: Vec<&str> = line.split(|c: char| c == '|' || c.is_whitespace()).filter(|t| !t.is_empty()).collect();
    let cell = |t: &&str| {
        let mut chars = t.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => piece(c) || c.is_ascii_digit() || ('a'..='h').contains(&c),
            // A compact row of eight squares, perhaps with its rank.
            _ => t.chars().count() <= 9 && t.chars().all(|c| piece(c) || c.is_ascii_digit()),
        }
    };
    let row = cells.len() <= 2 && cells.iter().any(|t| t.chars().count() == 8);
    !cells.is_empty() && (cells.len() >= 4 || line.contains('|') || row) && cells.iter().all(cell)
}

/// True if `line` ends a divide: a total in `format` (any format for `Auto`).
/// The UCI driver stops reading there.
pub fn is_total_line(line: &str, format: DivideFormat) -> bool {
    if format == DivideFormat::Auto {
        return DivideFormat::CONCRETE.iter().any(|&f| matches!(classify(line, f), LineKind::Total(_)));
    }
    matches!(classify(line, format), LineKind::Total(_))
}

/// The move and count of a move line in `format` (any format for `Auto`):
/// what live output shows as an engine prints.
pub fn move_line(line: &str, format: DivideFormat) -> Option<(&str, u64)> {
    let formats: &[DivideFormat] = if format == DivideFormat::Auto { &DivideFormat::CONCRETE } else { &[format] };
    formats.iter().find_map(|&f| match classify(line, f) {
        LineKind::Move(mv, n) => Some((mv, n)),
        _ => None,
    })
}

/// Why an answer to a perft command shows the engine has no such command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoPerft {
    /// `info depth`, `info score`, `bestmove`: it started a search.
    Searched,
    /// `Unknown command: go perft 3` and the like.
    Unknown,
}

/// How a line shows an engine without the perft command it was sent:
/// search output (`info depth 1 ...`, `info score ...`, `bestmove e2e4`) or
/// an "unknown command" line. `info string` and `info nodes` lines are not
/// search output: engines print them while counting too.
pub fn no_perft(line: &str) -> Option<NoPerft> {
    let l = line.trim().to_ascii_lowercase();
    let mut words = l.split_whitespace();
    let first = words.next().unwrap_or("");
    if first == "bestmove" {
        return Some(NoPerft::Searched);
    }
    if first == "info" {
        let searching = l.split_whitespace().any(|w| matches!(w, "depth" | "score" | "pv" | "seldepth" | "multipv"));
        let string = words.next() == Some("string");
        return (searching && !string).then_some(NoPerft::Searched);
    }
    ["unknown command", "unrecognized command", "unrecognised command", "unknown token", "invalid command"]
        .iter()
        .any(|p| l.contains(p))
        .then_some(NoPerft::Unknown)
}

/// True if `line` refuses a command: `No such option: X`, `Unknown
/// command: ...` and the like. Engines print it in place of an answer.
pub fn refuses(line: &str) -> bool {
    let l = line.trim().to_ascii_lowercase();
    [
        "no such option",
        "unknown option",
        "unsupported option",
        "unknown command",
        "unrecognized command",
        "unrecognised command",
        "invalid command",
    ]
    .iter()
    .any(|p| l.starts_with(p) || l.starts_with(&format!("error: {p}")) || l.starts_with(&format!("info string {p}")))
}

/// True if `line` shows an engine without perft (see `no_perft`).
pub fn says_no_perft(line: &str) -> bool {
    no_perft(line).is_some()
}

/// Reads one line in the given (concrete) format.
fn classify(raw: &str, format: DivideFormat) -> LineKind<'_> {
    let line = raw.trim().trim_start_matches('\u{feff}').trim_start();
    if line.is_empty() {
        return LineKind::Skip(Skip::Blank);
    }
    if is_uci_chatter(line) {
        return LineKind::Skip(Skip::Uci);
    }
    if is_echo(line) {
        return LineKind::Skip(Skip::Echo);
    }
    if let Some(n) = labelled_total(line) {
        return LineKind::Total(n);
    }
    let kind = match format {
        DivideFormat::Auto => DivideFormat::CONCRETE
            .iter()
            .map(|&f| classify(raw, f))
            .find(|k| *k != LineKind::Unknown)
            .unwrap_or(LineKind::Unknown),
        // The last colon: a USI square on a board of ten or more files
        // starts with one (`:g:f: 1`).
        DivideFormat::Stockfish => match line.rsplit_once(':') {
            Some((mv, n)) => move_and_count(mv.trim(), n),
            None => LineKind::Unknown,
        },
        DivideFormat::Perftree => match count(line) {
            Some(n) => LineKind::Total(n),
            None => match line.split_once(char::is_whitespace) {
                Some((mv, n)) => move_and_count(mv, n),
                None => LineKind::Unknown,
            },
        },
        DivideFormat::Weiss => {
            let parts: Vec<&str> = line.split(':').map(str::trim).collect();
            match parts.as_slice() {
                [head, mv, n] if is_move_number(head) => move_and_count(mv, n),
                _ => LineKind::Unknown,
            }
        }
        DivideFormat::Dash => match line.split_once(" - ") {
            Some((mv, n)) => move_and_count(mv.trim(), n),
            None => LineKind::Unknown,
        },
        DivideFormat::Total => count(line).map_or(LineKind::Unknown, LineKind::Total),
    };
    if kind == LineKind::Unknown && !looks_like_data(line) && is_timing(line) {
        return LineKind::Skip(Skip::Timing);
    }
    kind
}

fn move_and_count<'a>(mv: &'a str, n: &str) -> LineKind<'a> {
    match count(n) {
        Some(n) if is_move_token(mv) => LineKind::Move(mv, n),
        _ => LineKind::Unknown,
    }
}

/// A node count: digits only, perhaps with thousands separators `,` or `_`.
fn count(s: &str) -> Option<u64> {
    let s = s.trim();
    if s.is_empty()
        || !s.starts_with(|c: char| c.is_ascii_digit())
        || !s.chars().all(|c| c.is_ascii_digit() || c == ',' || c == '_')
    {
        return None;
    }
    s.chars().filter(char::is_ascii_digit).collect::<String>().parse().ok()
}

/// `move 1`, `Move 12` (Weiss's and VICE's numbering).
fn is_move_number(s: &str) -> bool {
    let mut words = s.split_whitespace();
    matches!((words.next(), words.next(), words.next()), (Some(w), Some(n), None) if w.eq_ignore_ascii_case("move") && n.chars().all(|c| c.is_ascii_digit()))
}

/// Looks like a move in some notation of some game: UCI (`e2e4`, `a10a9`),
/// long algebraic with piece letters or hyphens, SAN, drops (`N@b2`),
/// castling, USI (`7g7f`, `P*5e`, `:g:f` on ten files). It needs a square
/// (a letter followed by a digit, or USI's digit followed by a letter);
/// meaning is checked later, by the game.
pub fn is_move_token(s: &str) -> bool {
    let s = s.trim();
    if matches!(s.trim_end_matches(['+', '#']), "O-O" | "O-O-O" | "0-0" | "0-0-0") {
        return true;
    }
    let b = s.as_bytes();
    let usi_file = |c: u8| c.is_ascii_digit() || matches!(c, b':' | b';' | b'<');
    let usi_square = |i: usize| b.len() >= i + 2 && usi_file(b[i]) && b[i + 1].is_ascii_lowercase();
    // USI: two squares (`7g7f`) or a drop (`P*5e`).
    let usi_move = usi_square(0) && usi_square(2);
    let usi_drop = b.len() >= 2 && b[0].is_ascii_uppercase() && b[1] == b'*' && usi_square(2);
    // `:`, `;` and `<` only as a USI file (never a trailing colon: `e2e4:`).
    let usi_file_at = |i: usize| (usi_move && (i == 0 || i == 2)) || (usi_drop && i == 2);
    (2..=16).contains(&b.len())
        && b.iter().enumerate().all(|(i, &c)| {
            c.is_ascii_alphanumeric()
                || b"-=+#()@*'!?".contains(&c)
                || (b":;<".contains(&c) && usi_file_at(i))
                // Between two parts of one move: Fairy-Stockfish's locust
                // legs and walls (`d1a1,a1b1`).
                || (c == b',' && i > 0 && i + 1 < b.len())
        })
        && (usi_move || usi_drop || b.windows(2).any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_digit()))
}

/// A line that starts like a divide line: a move (after Weiss's `move N :`)
/// followed by something. Such a line is never skipped as prose.
fn looks_like_data(line: &str) -> bool {
    let body = match line.split_once(':') {
        Some((head, rest)) if is_move_number(head.trim()) => rest.trim(),
        _ => line,
    };
    let token = body.split([' ', '\t', ':']).next().unwrap_or("");
    is_move_token(token) && body.len() > token.len()
}

/// `id`, `option`, `uciok`, `readyok`, `info ...`, `bestmove ...`.
fn is_uci_chatter(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or("");
    matches!(
        first,
        "id" | "option" | "uciok" | "usiok" | "readyok" | "info" | "bestmove" | "copyprotection" | "registration"
    )
}

/// A command typed to an engine, echoed with or without a prompt:
/// `go perft 3`, `position startpos moves e2e4`, `> uci`, `sf> isready`,
/// `$ ./engine`, `perft 3`.
fn is_echo(line: &str) -> bool {
    let mut words = line.split_whitespace().peekable();
    let Some(&first) = words.peek() else { return false };
    if first.ends_with(['>', '$', '%']) {
        // After a prompt anything is a command.
        return true;
    }
    let words: Vec<&str> = words.collect();
    match words.as_slice() {
        ["uci" | "isready" | "ucinewgame" | "quit" | "stop" | "ponderhit"] => true,
        ["position", "startpos" | "fen", ..] | ["go", ..] | ["setoption", "name", ..] => true,
        ["perft" | "divide" | "perftree", n] => n.chars().all(|c| c.is_ascii_digit()),
        _ => false,
    }
}

/// Timing, speed, depth and status lines: `Time: 5 ms`, `Depth 3`, `LPS :
/// 1780400`, `: 742000 nps`, `Perft complete:`, `Starting Test To Depth:3`.
fn is_timing(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    if lower.starts_with(':') {
        return true;
    }
    let first: String = lower.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    const WORDS: [&str; 19] = [
        "time",
        "elapsed",
        "duration",
        "took",
        "speed",
        "nps",
        "lps",
        "knps",
        "mnps",
        "depth",
        "perft",
        "timing",
        "seconds",
        "starting",
        "running",
        "performing",
        "searching",
        "done",
        "finished",
    ];
    WORDS.contains(&first.as_str())
        || lower.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| matches!(w, "nps" | "knps" | "mnps" | "lps"))
}

/// `Nodes searched: N`, `Total: N`, `Nodes: N`, `Leaf nodes = N`, `Leaves:
/// N`, `Perft 5: N`, `perft(5) = N (0.1 s)`, `Perft Complete : N nodes
/// visited in 12ms`, `N nodes`.
fn labelled_total(line: &str) -> Option<u64> {
    for (i, c) in line.char_indices() {
        if c != ':' && c != '=' {
            continue;
        }
        let label = line[..i].trim().to_ascii_lowercase();
        let rest = line[i + 1..].trim_start();
        let digits = rest.find(|c: char| !(c.is_ascii_digit() || c == ',' || c == '_')).unwrap_or(rest.len());
        let tail = &rest[digits..];
        let words_ok = !label.is_empty() && label.chars().all(|c| c.is_ascii_alphanumeric() || " ()_-".contains(c));
        let named = ["node", "total", "perft", "leaf", "leaves"]
            .iter()
            .any(|w| label.starts_with(w) || label.contains(&format!(" {w}")));
        let tail_ok = tail.is_empty() || tail.starts_with([' ', '\t', ',', '(', ';']);
        if words_ok && named && tail_ok {
            if let Some(n) = count(rest[..digits].trim_end_matches([',', '_'])) {
                return Some(n);
            }
        }
        // Only the first separator can introduce the count.
        break;
    }
    // `8902 nodes`, `8902 leaf nodes`.
    let mut words = line.split_whitespace();
    let (n, unit) = (words.next()?, words.next()?);
    let unit = unit.to_ascii_lowercase();
    if matches!(unit.as_str(), "nodes" | "leaves" | "leaf") {
        return count(n);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(d: &Divide) -> Vec<(&str, u64)> {
        d.moves.iter().map(|(m, n)| (m.as_str(), *n)).collect()
    }

    fn auto(text: &str) -> ParsedOutput {
        parse_output(text, DivideFormat::Auto).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }

    #[test]
    fn stockfish_with_info_lines() {
        let out = "info string NNUE evaluation using nn.nnue enabled\na2a3: 380\nb1c3: 440\n\nNodes searched: 820\n\n";
        let d = parse_divide(out, DivideFormat::Auto).unwrap();
        assert_eq!(moves(&d), [("a2a3", 380), ("b1c3", 440)]);
        assert_eq!(d.total, Some(820));
    }

    #[test]
    fn perftree_weiss_dash_piece_letters_and_totals() {
        let d = parse_divide("e2e4 20\na7b8Q 3\n\n23\n", DivideFormat::Auto).unwrap();
        assert_eq!((moves(&d), d.total), (vec![("e2e4", 20), ("a7b8Q", 3)], Some(23)));
        let d = parse_divide("move 1 : a2a3 : 380\nmove 2 : b2b3 : 420\n\nNodes: 800\n", DivideFormat::Auto).unwrap();
        assert_eq!((moves(&d), d.total), (vec![("a2a3", 380), ("b2b3", 420)], Some(800)));
        let d = parse_divide("a2a3 - 380\nO-O - 7\nTotal: 387\n", DivideFormat::Auto).unwrap();
        assert_eq!(moves(&d), [("a2a3", 380), ("O-O", 7)]);
        let d = parse_divide("Nb1a3 3193522577\nNg1-f3 12\n", DivideFormat::Auto).unwrap();
        assert_eq!((moves(&d), d.total), (vec![("Nb1a3", 3193522577), ("Ng1-f3", 12)], None));
        let d = parse_divide("Nodes searched: 197281\n", DivideFormat::Auto).unwrap();
        assert!(d.total_only() && d.nodes() == 197281);
        let d = parse_divide("197281\n", DivideFormat::Total).unwrap();
        assert_eq!(d.total, Some(197281));
        let d = parse_divide("Perft 4: 197,281\n", DivideFormat::Auto).unwrap();
        assert_eq!(d.total, Some(197281));
    }

    #[test]
    fn every_total_line_form() {
        for (line, n) in [
            ("Nodes searched: 8902", 8902),
            ("Nodes searched  : 8902", 8902),
            ("Total: 8902", 8902),
            ("Total nodes: 8902", 8902),
            ("Nodes: 8902", 8902),
            ("Leaf nodes = 8902", 8902),
            ("Leaves: 8902", 8902),
            ("Perft 3: 8,902", 8902),
            ("perft(3) = 8902 ( 0.000 sec)", 8902),
            ("Perft Complete : 8902 nodes visited in 12ms", 8902),
            ("8902 nodes", 8902),
            ("Nodes: 8902, time: 3 ms", 8902),
        ] {
            assert!(is_total_line(line, DivideFormat::Auto), "{line}");
            assert_eq!(auto(&format!("e2e4: {n}\n{line}\n")).divide.total, Some(n), "{line}");
        }
    }

    #[test]
    fn pastes_as_people_paste_them() {
        // A whole Stockfish session with echoes, a BOM and CRLF line ends.
        let paste = "\u{feff}> uci\r\nStockfish 15.1 by the Stockfish developers (see AUTHORS file)\r\n\
            id name Stockfish 15.1\r\noption name Hash type spin default 16 min 1 max 33554432\r\nuciok\r\n\
            isready\r\nreadyok\r\nposition startpos\r\ngo perft 2\r\ne2e4: 20\r\nd2d4: 20\r\n\r\n\
            Nodes searched: 40\r\nTime: 5 ms\r\n";
        let p = auto(paste);
        assert_eq!(moves(&p.divide), [("e2e4", 20), ("d2d4", 20)]);
        assert_eq!(p.divide.total, Some(40));
        assert_eq!((p.skipped.banner, p.skipped.uci, p.skipped.echo, p.skipped.timing), (1, 4, 4, 1));
        assert!(p.skipped.bom);
        assert_eq!(
            p.skipped.describe().unwrap(),
            "1 banner, 4 UCI chatter, 4 command echo, 1 timing/depth, a byte-order mark"
        );
        // VICE/Weiss with its header and speed lines.
        let vice = "Starting Test To Depth:2\nmove 1 : e2e4 : 20\nmove 2 : d2d4 : 20\n\n\
            Perft Complete : 40 nodes visited in 12ms\n               : 3333 nps\n";
        let p = auto(vice);
        assert_eq!((p.divide.total, p.format, p.skipped.timing), (Some(40), DivideFormat::Weiss, 2));
        let weiss =
            "move 1 : e2e4 : 20\nmove 2 : d2d4 : 20\n\nPerft complete:\nTime  : 5ms\nLeaves: 40\nLPS   : 8000\n";
        assert_eq!(auto(weiss).divide.total, Some(40));
        assert_eq!(auto("Depth 3\ne2e4 20\n\n20\n").skipped.timing, 1);
    }

    #[test]
    fn unknown_line_names_its_number() {
        let err = parse_divide("a2a3: 380\nb2b3: 420\nc2c3 is 420\n", DivideFormat::Auto).unwrap_err();
        assert!(matches!(err, ParseOutputError::UnknownLine { line: 3, .. }), "{err}");
        let err = parse_divide("a2a3 380\n", DivideFormat::Stockfish).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1: \"a2a3 380\" is not a stockfish divide line (the layout is `e2e4: 20` and `Nodes searched: N`; \
             the whole text reads as perftree output)"
        );
        assert_eq!(parse_divide("", DivideFormat::Auto).unwrap_err(), ParseOutputError::Empty { skipped: 0 });
        // Looks like data but cannot be read: never skipped, even first.
        let err = parse_divide("e2e4: twenty\nd2d4: 20\n", DivideFormat::Auto).unwrap_err();
        assert!(matches!(err, ParseOutputError::UnknownLine { line: 1, .. }), "{err}");
    }

    #[test]
    fn a_forced_format_that_does_not_fit_is_an_error_naming_the_right_one() {
        let sf = "e2e4: 20\nd2d4: 20\n\nNodes searched: 40\n";
        let err = parse_output(sf, DivideFormat::Perftree).unwrap_err();
        assert!(err.to_string().contains("reads as stockfish output"), "{err}");
    }

    #[test]
    fn debug_lines_and_boards_among_the_moves_are_skipped_by_kind() {
        let text = "Debug: starting perft\n +---+---+---+\n | r | . | k |\n 8 r n b q k b n r\n   a b c d e f g h\n\
            a2a3: 380\nDebug: Move f2f4 has 20 nodes at depth 2\nrnbqkbnr\nMoves: 2\nb2b3: 420\n\nNodes searched: 800\n";
        let p = auto(text);
        assert_eq!(moves(&p.divide), [("a2a3", 380), ("b2b3", 420)]);
        assert_eq!((p.skipped.debug, p.skipped.board, p.skipped.prose), (2, 5, 1), "{:?}", p.skipped);
        assert!(p.skipped.describe().unwrap().contains("2 debug, 5 board diagram, 1 other prose"));
        // Starts like a move but cannot be read: an error with its number.
        let err = parse_divide("a2a3: 380\nDebug: x\nb2b3 has 420\n", DivideFormat::Auto).unwrap_err();
        assert!(matches!(err, ParseOutputError::UnknownLine { line: 3, .. }), "{err}");
        // A bare number between moves is not prose.
        let err = parse_divide("a2a3: 380\n420\nb2b3: 420\n", DivideFormat::Stockfish).unwrap_err();
        assert!(matches!(err, ParseOutputError::UnknownLine { line: 2, .. }), "{err}");
    }

    #[test]
    fn one_reading_for_every_source() {
        // The script: refused by the one rule, wherever it comes from.
        let err = read_answer("e2e4 5\nd2d4 5\n\n11\n", DivideFormat::Auto).unwrap_err();
        assert_eq!(err, ParseOutputError::TotalNotSum { total: 11, sum: 10, moves: 2 });
        assert_eq!(err.rule(), "total-is-sum");
        assert_eq!(err.to_string(), "the total 11 is not the sum of the 2 moves above it (10)");
        assert!(read_answer("e2e4 5\nd2d4 5\n\n10\n", DivideFormat::Auto).is_ok());
        // No total: the moves are summed; a total alone is a total.
        assert!(read_answer("e2e4 5\nd2d4 5\n", DivideFormat::Auto).is_ok());
        assert!(read_answer("Nodes searched: 400\n", DivideFormat::Auto).is_ok());
        // A line no layout reads names every layout.
        let err = read_answer("e2e4 5\ne2e4 has 5\n", DivideFormat::Auto).unwrap_err();
        assert!(err.to_string().contains("is not a divide line (the layouts read are `e2e4: 20`"), "{err}");
        assert_eq!(err.rule(), "divide-line");
    }

    #[test]
    fn refusals_are_recognised() {
        assert!(refuses("No such option: UCI_Variant"));
        assert!(refuses("Unknown command: 'foo'. Type help for more information."));
        assert!(!refuses("info string variant atomic"));
        assert!(!refuses("e2e4: 20"));
    }

    #[test]
    fn duplicates_and_second_totals_are_errors() {
        let err = parse_divide("a2a3: 1\nb2b3: 1\na2a3: 1\n", DivideFormat::Auto).unwrap_err();
        assert_eq!(err, ParseOutputError::Duplicate { line: 3, first: 1, mv: "a2a3".into() });
        let err = parse_divide("a2a3: 1\n\nNodes searched: 1\nNodes searched: 1\n", DivideFormat::Auto).unwrap_err();
        assert!(matches!(err, ParseOutputError::SecondTotal { line: 4, .. }));
    }

    #[test]
    fn total_lines_end_uci_answers() {
        assert!(is_total_line("Nodes searched: 20", DivideFormat::Auto));
        assert!(!is_total_line("e2e4: 20", DivideFormat::Auto));
        assert!(!is_total_line("info depth 1", DivideFormat::Auto));
        assert_eq!("Fairy-Stockfish".parse::<DivideFormat>(), Ok(DivideFormat::Stockfish));
    }

    #[test]
    fn engines_without_perft_are_recognised() {
        assert!(says_no_perft("bestmove e2e4 ponder e7e5"));
        assert!(says_no_perft("Unknown command: 'go perft 2'. Type help for more information."));
        assert!(says_no_perft("Unknown command: go perft 2"));
        assert!(!says_no_perft("e2e4: 20"));
        assert!(!says_no_perft("info string NNUE evaluation using nn-ad9b42354671.nnue enabled"));
        assert_eq!(no_perft("info depth 1 seldepth 1 multipv 1 score cp 20 nodes 20 pv e2e4"), Some(NoPerft::Searched));
        assert_eq!(no_perft("info score cp 13 depth 2"), Some(NoPerft::Searched));
        assert_eq!(no_perft("info string depth of the perft: 3"), None);
        assert_eq!(no_perft("info nodes 8902 time 3"), None);
        assert_eq!(no_perft("Unknown command: go perft 3"), Some(NoPerft::Unknown));
    }

    #[test]
    fn moves_of_other_games_are_tokens_too() {
        for t in ["a10a9", "N@b2", "e7e8=Q", "O-O-O", "b1c3", "Nxe5+", "P@e4", "7g7f", "P*5e", "8h2b+", ":g:f"] {
            assert!(is_move_token(t), "{t}");
        }
        for t in ["Stockfish", "15.1", "e2e4:", "", "5ms", "(see", "7g7f:", "e2:e4"] {
            assert!(!is_move_token(t), "{t}");
        }
    }
}
