//! What one line of an answer is: a move, a total, or something skipped
//! by kind.

use super::tokens::is_move_token;
use super::totals::{depth_total, labelled_total};
use super::DivideFormat;

/// Why a line is not divide data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Skip {
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
pub(super) enum LineKind<'a> {
    Skip(Skip),
    /// A move, its count, and the running sum printed after it if any
    /// (Sjaak's `Nb1-a3  20  20`).
    Move(&'a str, u64, Option<u128>),
    /// A total, and the depth it counts where the line names one.
    Total(u64, Option<u32>),
    Unknown,
}

/// The longest line skipped as prose: no banner, debug line or diagram row
/// is longer, and a longer line is garbage worth naming.
pub(super) const MAX_PROSE: usize = 500;

/// Debug/log lines and board diagrams, which engines print anywhere.
pub(super) fn prose_kind(line: &str) -> Option<Skip> {
    let first: String = line.chars().take_while(char::is_ascii_alphabetic).collect::<String>().to_ascii_lowercase();
    if matches!(first.as_str(), "debug" | "dbg" | "trace" | "log" | "warning" | "warn" | "note" | "verbose") {
        return Some(Skip::Debug);
    }
    is_board_line(line).then_some(Skip::Board)
}

/// A line of a board diagram: a frame (`+---+---+`, `---------`), or cells
/// of single piece letters, dots, rank and file labels (`| r | . | b |`,
/// `8 r n b q k b n r`, `a b c d e f g h`, `rnbqkbnr`, Unicode pieces).
pub(super) fn is_board_line(line: &str) -> bool {
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

/// Reads one line in the given format (`Auto`: the first concrete format
/// that reads it).
pub(super) fn classify(raw: &str, format: DivideFormat) -> LineKind<'_> {
    let (line, common) = classify_common(raw);
    if let Some(kind) = common {
        return kind;
    }
    match format {
        DivideFormat::Auto => DivideFormat::CONCRETE
            .iter()
            .map(|&f| classify_layout(line, f))
            .find(|k| *k != LineKind::Unknown)
            .unwrap_or(LineKind::Unknown),
        f => classify_layout(line, f),
    }
}

/// Each concrete format's reading of one line, for the callers that ask
/// every format in turn (`Auto` for totals or moves only): the checks that
/// do not depend on the format are made once.
pub(super) fn classify_each(raw: &str) -> impl Iterator<Item = LineKind<'_>> {
    let (line, common) = classify_common(raw);
    let layouts = common.is_none().then_some(line);
    common.into_iter().chain(
        layouts.into_iter().flat_map(|line| DivideFormat::CONCRETE.iter().map(move |&f| classify_layout(line, f))),
    )
}

/// The line trimmed, and what it is whatever the format: a blank, a total
/// in a dialect every format reads, UCI chatter, an echoed command.
fn classify_common(raw: &str) -> (&str, Option<LineKind<'_>>) {
    let line = raw.trim().trim_start_matches('\u{feff}').trim_start();
    if line.is_empty() {
        return (line, Some(LineKind::Skip(Skip::Blank)));
    }
    // Before the chatter: `info .result 400 positions` is a total.
    if let Some((n, depth)) = depth_total(line) {
        return (line, Some(LineKind::Total(n, depth)));
    }
    if is_uci_chatter(line) {
        return (line, Some(LineKind::Skip(Skip::Uci)));
    }
    if is_echo(line) {
        return (line, Some(LineKind::Skip(Skip::Echo)));
    }
    if let Some((n, depth)) = labelled_total(line) {
        return (line, Some(LineKind::Total(n, depth)));
    }
    (line, None)
}

/// One trimmed line that no common check read, in a concrete format.
fn classify_layout(line: &str, format: DivideFormat) -> LineKind<'_> {
    let kind = match format {
        DivideFormat::Auto => unreachable!("classify_layout takes a concrete format"),
        // The last colon: a USI square on a board of ten or more files
        // starts with one (`:g:f: 1`).
        DivideFormat::Stockfish => match line.rsplit_once(':') {
            Some((mv, n)) => move_and_count(mv.trim(), n),
            None => LineKind::Unknown,
        },
        DivideFormat::Perftree => match count(line) {
            Some(n) => LineKind::Total(n, None),
            None => match line.split_once(char::is_whitespace) {
                Some((mv, rest)) => move_count_and_sum(mv, rest),
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
        DivideFormat::Total => count(line).map_or(LineKind::Unknown, |n| LineKind::Total(n, None)),
    };
    if kind == LineKind::Unknown && !looks_like_data(line) && is_timing(line) {
        return LineKind::Skip(Skip::Timing);
    }
    kind
}

pub(super) fn move_and_count<'a>(mv: &'a str, n: &str) -> LineKind<'a> {
    match count(n) {
        Some(n) if is_move_token(mv) => LineKind::Move(mv, n, None),
        _ => LineKind::Unknown,
    }
}

/// `e2e4 20`, or with a running sum after the count: `Nc3-b1  42  42`.
fn move_count_and_sum<'a>(mv: &'a str, rest: &str) -> LineKind<'a> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    match words.as_slice() {
        [sum_of, sum] if is_move_token(mv) => match (count(sum_of), count(sum)) {
            (Some(n), Some(sum)) => LineKind::Move(mv, n, Some(u128::from(sum))),
            _ => LineKind::Unknown,
        },
        _ => move_and_count(mv, rest),
    }
}

/// A node count: digits only, perhaps with thousands separators `,` or `_`.
pub(super) fn count(s: &str) -> Option<u64> {
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
pub(super) fn is_move_number(s: &str) -> bool {
    let mut words = s.split_whitespace();
    matches!((words.next(), words.next(), words.next()), (Some(w), Some(n), None) if w.eq_ignore_ascii_case("move") && n.chars().all(|c| c.is_ascii_digit()))
}

/// A line that starts like a divide line: a move (after Weiss's `move N :`)
/// followed by something. Such a line is never skipped as prose.
pub(super) fn looks_like_data(line: &str) -> bool {
    let body = match line.split_once(':') {
        Some((head, rest)) if is_move_number(head.trim()) => rest.trim(),
        _ => line,
    };
    let token = body.split([' ', '\t', ':']).next().unwrap_or("");
    if is_move_token(token) && body.len() > token.len() {
        return true;
    }
    // A word with a square in it and a count after it (`Nb1~a3 1 21`): a
    // move in a notation not read, which must not pass for a banner.
    let next = body[token.len()..].trim_start_matches([' ', '\t', ':', '-']).split_whitespace().next();
    has_square(token) && next.is_some_and(|w| count(w).is_some())
}

/// A letter then a digit (`b1`) or a digit then a letter (USI's `7g`).
fn has_square(token: &str) -> bool {
    token.len() <= 24
        && token.as_bytes().windows(2).any(|w| {
            (w[0].is_ascii_lowercase() && w[1].is_ascii_digit()) || (w[0].is_ascii_digit() && w[1].is_ascii_lowercase())
        })
}

/// `id`, `option`, `uciok`, `readyok`, `info ...`, `bestmove ...`.
pub(super) fn is_uci_chatter(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or("");
    matches!(
        first,
        "id" | "option" | "uciok" | "usiok" | "readyok" | "info" | "bestmove" | "copyprotection" | "registration"
    )
}

/// A command typed to an engine, echoed with or without a prompt:
/// `go perft 3`, `position startpos moves e2e4`, `> uci`, `sf> isready`,
/// `$ ./engine`, `perft 3`.
pub(super) fn is_echo(line: &str) -> bool {
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
pub(super) fn is_timing(line: &str) -> bool {
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
