//! Parsers for the divide outputs engines print:
//!
//! | format      | move line                 | total line                 |
//! |-------------|---------------------------|----------------------------|
//! | `stockfish` | `e2e4: 20`                | `Nodes searched: 8902`     |
//! | `perftree`  | `e2e4 20`, `Nb1a3 3193522577` | `8902` (after a blank) |
//! | `weiss`     | `move 1 : a2a3 : 380`     | `Nodes: 8902`, `Total: 8902` |
//! | `dash`      | `a2a3 - 380`              | `Nodes: 8902`, `Total: 8902` |
//! | `total`     | (none)                    | any of the above           |
//!
//! Every format also accepts labelled totals (`Total: N`, `Nodes: N`,
//! `Leaf nodes: N`, `Perft 5: N`), blank lines and UCI `info` lines. The
//! moves stay in the engine's notation; `verify::notation` gives them meaning.

use super::Divide;
use std::fmt;
use std::str::FromStr;

/// Which divide layout to expect.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum DivideFormat {
    /// Try every format, keep the first that reads the whole output.
    #[default]
    Auto,
    Stockfish,
    Perftree,
    Weiss,
    Dash,
    Total,
}

impl DivideFormat {
    pub const CONCRETE: [DivideFormat; 5] =
        [DivideFormat::Stockfish, DivideFormat::Weiss, DivideFormat::Dash, DivideFormat::Perftree, DivideFormat::Total];

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

impl fmt::Display for DivideFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DivideFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<DivideFormat, String> {
        let all = [
            DivideFormat::Auto,
            DivideFormat::Stockfish,
            DivideFormat::Perftree,
            DivideFormat::Weiss,
            DivideFormat::Dash,
            DivideFormat::Total,
        ];
        let s = s.to_ascii_lowercase();
        let alias = match s.as_str() {
            "fairy-stockfish" | "fairy" | "sf" => "stockfish",
            "plain" => "perftree",
            "totals" | "total-only" => "total",
            other => other,
        };
        all.into_iter()
            .find(|f| f.name() == alias)
            .ok_or_else(|| format!("unknown divide format {s:?} (auto, stockfish, perftree, weiss, dash, total)"))
    }
}

/// An output that does not read as a divide.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseOutputError {
    #[error("line {line}: {text:?} is not a {format} divide line")]
    UnknownLine { line: usize, text: String, format: DivideFormat },
    #[error("line {line}: move {mv:?} listed twice (first on line {first})")]
    Duplicate { line: usize, first: usize, mv: String },
    #[error("line {line}: a second total {text:?}")]
    SecondTotal { line: usize, text: String },
    #[error("line {line}: {text:?} after the total")]
    AfterTotal { line: usize, text: String },
    #[error("no moves and no total in the output")]
    Empty,
}

impl ParseOutputError {
    fn line(&self) -> usize {
        match self {
            ParseOutputError::UnknownLine { line, .. }
            | ParseOutputError::Duplicate { line, .. }
            | ParseOutputError::SecondTotal { line, .. }
            | ParseOutputError::AfterTotal { line, .. } => *line,
            ParseOutputError::Empty => 0,
        }
    }
}

/// What one line is.
#[derive(Debug, PartialEq, Eq)]
pub enum LineKind<'a> {
    Skip,
    Move(&'a str, u64),
    Total(u64),
    Unknown,
}

/// Parses a whole divide output. `Auto` picks the first format that reads
/// every line; if none does, the error is the one that got furthest.
pub fn parse_divide(text: &str, format: DivideFormat) -> Result<Divide, ParseOutputError> {
    if format != DivideFormat::Auto {
        return parse_as(text, format);
    }
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
    Err(best.unwrap_or(ParseOutputError::Empty))
}

fn parse_as(text: &str, format: DivideFormat) -> Result<Divide, ParseOutputError> {
    let mut divide = Divide::default();
    let mut first_line: Vec<usize> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let kind = classify(raw, format);
        if divide.total.is_some() && !matches!(kind, LineKind::Skip) {
            return Err(match kind {
                LineKind::Total(_) => ParseOutputError::SecondTotal { line, text: raw.trim().to_string() },
                _ => ParseOutputError::AfterTotal { line, text: raw.trim().to_string() },
            });
        }
        match kind {
            LineKind::Skip => {}
            LineKind::Total(n) => divide.total = Some(n),
            LineKind::Move(mv, n) => {
                if let Some(k) = divide.moves.iter().position(|(m, _)| m == mv) {
                    return Err(ParseOutputError::Duplicate { line, first: first_line[k], mv: mv.to_string() });
                }
                divide.moves.push((mv.to_string(), n));
                first_line.push(line);
            }
            LineKind::Unknown => {
                return Err(ParseOutputError::UnknownLine { line, text: raw.trim().to_string(), format })
            }
        }
    }
    if divide.moves.is_empty() && divide.total.is_none() {
        return Err(ParseOutputError::Empty);
    }
    if format == DivideFormat::Total && divide.total.is_none() {
        return Err(ParseOutputError::Empty);
    }
    Ok(divide)
}

/// True if `line` ends a divide: a total in `format` (any format for `Auto`).
/// The UCI driver stops reading there.
pub fn is_total_line(line: &str, format: DivideFormat) -> bool {
    if format == DivideFormat::Auto {
        return DivideFormat::CONCRETE.iter().any(|&f| matches!(classify(line, f), LineKind::Total(_)));
    }
    matches!(classify(line, format), LineKind::Total(_))
}

/// Reads one line in the given (concrete) format.
pub fn classify(raw: &str, format: DivideFormat) -> LineKind<'_> {
    let line = raw.trim();
    if line.is_empty() || line == "info" || line.starts_with("info ") {
        return LineKind::Skip;
    }
    if let Some(n) = labelled_total(line) {
        return LineKind::Total(n);
    }
    match format {
        DivideFormat::Auto => DivideFormat::CONCRETE
            .iter()
            .map(|&f| classify(raw, f))
            .find(|k| *k != LineKind::Unknown)
            .unwrap_or(LineKind::Unknown),
        DivideFormat::Stockfish => match line.split_once(':') {
            Some((mv, n)) if is_move_token(mv) => count(n).map_or(LineKind::Unknown, |n| LineKind::Move(mv, n)),
            _ => LineKind::Unknown,
        },
        DivideFormat::Perftree => {
            if let Some(n) = count(line) {
                return LineKind::Total(n);
            }
            match line.split_once(char::is_whitespace) {
                Some((mv, n)) if is_move_token(mv) => count(n).map_or(LineKind::Unknown, |n| LineKind::Move(mv, n)),
                _ => LineKind::Unknown,
            }
        }
        DivideFormat::Weiss => {
            let parts: Vec<&str> = line.split(':').map(str::trim).collect();
            match parts.as_slice() {
                [head, mv, n] if is_move_number(head) && is_move_token(mv) => {
                    count(n).map_or(LineKind::Unknown, |n| LineKind::Move(mv, n))
                }
                _ => LineKind::Unknown,
            }
        }
        DivideFormat::Dash => match line.split_once(" - ") {
            Some((mv, n)) if is_move_token(mv.trim()) => {
                count(n).map_or(LineKind::Unknown, |n| LineKind::Move(mv.trim(), n))
            }
            _ => LineKind::Unknown,
        },
        DivideFormat::Total => count(line).map_or(LineKind::Unknown, LineKind::Total),
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

/// `move 1`, `Move 12` (Weiss's numbering).
fn is_move_number(s: &str) -> bool {
    let mut words = s.split_whitespace();
    matches!((words.next(), words.next(), words.next()), (Some(w), Some(n), None) if w.eq_ignore_ascii_case("move") && n.chars().all(|c| c.is_ascii_digit()))
}

/// Looks like a move in some notation: UCI, long algebraic with piece letters
/// or hyphens, SAN, castling. Meaning is checked later.
pub fn is_move_token(s: &str) -> bool {
    let s = s.trim();
    if matches!(s.trim_end_matches(['+', '#']), "O-O" | "O-O-O" | "0-0" | "0-0-0") {
        return true;
    }
    (2..=12).contains(&s.len())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || "-=+#x:()".contains(c))
        && s.chars().any(|c| ('1'..='8').contains(&c))
        && s.chars().any(|c| ('a'..='h').contains(&c))
}

/// `Nodes searched: N`, `Total: N`, `Nodes: N`, `Leaf nodes = N`, `Perft 5: N`.
fn labelled_total(line: &str) -> Option<u64> {
    let (label, n) = line.rsplit_once([':', '='])?;
    let label = label.trim().to_ascii_lowercase();
    let words_ok = label.chars().all(|c| c.is_ascii_alphanumeric() || " ()_-".contains(c));
    let named = ["node", "total", "perft", "leaf", "leaves"]
        .iter()
        .any(|w| label.starts_with(w) || label.contains(&format!(" {w}")));
    if words_ok && named {
        count(n)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(d: &Divide) -> Vec<(&str, u64)> {
        d.moves.iter().map(|(m, n)| (m.as_str(), *n)).collect()
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
    fn unknown_line_names_its_number() {
        let err = parse_divide("a2a3: 380\nb2b3: 420\nhello world\n", DivideFormat::Auto).unwrap_err();
        assert!(matches!(err, ParseOutputError::UnknownLine { line: 3, .. }), "{err}");
        let err = parse_divide("a2a3 380\n", DivideFormat::Stockfish).unwrap_err();
        assert_eq!(err.to_string(), "line 1: \"a2a3 380\" is not a stockfish divide line");
        assert_eq!(parse_divide("", DivideFormat::Auto).unwrap_err(), ParseOutputError::Empty);
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
}
