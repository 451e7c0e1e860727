//! Perft suites, for any game: EPD lines (`FEN ;D1 20 ;D2 400`, or the
//! standard four-field EPD with opcodes, `FEN4 hmvc 0; fmvn 1; D1 20;`) and
//! python-chess's `.perft` blocks (`id`, `epd`, `perft D N` lines), read into
//! one shape. Positions stay text here; the runner reads them with the
//! game's `Rules::parse_position` before any work starts.
//!
//! Files are read as people keep them: a UTF-8 byte-order mark is skipped,
//! a line that is not UTF-8 is read as Latin-1 (comments in old files),
//! standard EPD opcodes (`id`, `hmvc`, `fmvn`, `c0`, `bm`, ...) are accepted.
//! A depth listed twice for one position, or deeper than the game allows, is
//! an error naming its line.

use crate::engines::clip;

/// One position of a suite with its expected counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteEntry {
    /// `file:line` where the position is given.
    pub origin: String,
    /// The position's `id`, if the suite gives one.
    pub id: Option<String>,
    /// The position as text (FEN for chess), with `hmvc`/`fmvn` filled in
    /// as fields five and six where a four-field EPD gave them.
    pub fen: String,
    /// (depth, expected nodes), in the order given.
    pub counts: Vec<(u32, u64)>,
    /// The line of each count, in the same order (a `.perft` block has one
    /// line per count).
    pub count_lines: Vec<usize>,
}

impl SuiteEntry {
    /// The line that gives the count at `depth` (the position's own line if
    /// there is no such count).
    pub fn count_line(&self, depth: u32) -> usize {
        self.counts
            .iter()
            .position(|&(d, _)| d == depth)
            .and_then(|i| self.count_lines.get(i).copied())
            .unwrap_or_else(|| self.line())
    }

    /// The line where the position is given.
    pub fn line(&self) -> usize {
        self.origin.rsplit(':').next().and_then(|l| l.parse().ok()).unwrap_or(0)
    }

    fn push_count(&mut self, depth: u32, nodes: u64, line: usize) -> Result<(), String> {
        if let Some(i) = self.counts.iter().position(|&(d, _)| d == depth) {
            return Err(format!(
                "depth {depth} is given twice for this position (first on line {})",
                self.count_lines[i]
            ));
        }
        self.counts.push((depth, nodes));
        self.count_lines.push(line);
        Ok(())
    }
}

/// Why a suite cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// A line that does not parse.
    #[error("{file}:{line}: {message}")]
    Syntax {
        /// The suite file's name.
        file: String,
        /// The 1-based line number.
        line: usize,
        /// What is wrong with the line.
        message: String,
    },
}

/// Reads a suite with depths up to `crate::perft::MAX_DEPTH`.
pub fn parse_suite(file: &str, text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    parse_suite_for(file, text, crate::perft::MAX_DEPTH)
}

/// Reads a suite from raw bytes: a BOM is skipped, lines that are not UTF-8
/// are read as Latin-1.
pub fn parse_suite_bytes(file: &str, bytes: &[u8], max_depth: u32) -> Result<Vec<SuiteEntry>, SuiteError> {
    let text = decode(bytes);
    parse_suite_for(file, &text, max_depth)
}

/// UTF-8 where it is, Latin-1 line by line where it is not; a UTF-8
/// byte-order mark is dropped first (a Latin-1 comment on the first line
/// must not turn it into three letters).
fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    if let Ok(text) = std::str::from_utf8(bytes) {
        return text.to_string();
    }
    let mut text = String::with_capacity(bytes.len());
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        match std::str::from_utf8(line) {
            Ok(s) => text.push_str(s),
            Err(_) => text.extend(line.iter().map(|&b| b as char)),
        }
    }
    text
}

/// Reads a suite; the format is recognised per line (`id`/`epd`/`perft`
/// keywords start a python-chess block, anything else is an EPD line).
/// Depths above `max_depth` are errors.
pub fn parse_suite_for(file: &str, text: &str, max_depth: u32) -> Result<Vec<SuiteEntry>, SuiteError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut entries: Vec<SuiteEntry> = Vec::new();
    let mut block: Option<SuiteEntry> = None;
    let syntax = |line: usize, message: String| SuiteError::Syntax { file: clip(file), line, message };
    let new_entry = |line_no: usize, id: Option<String>| SuiteEntry {
        origin: format!("{}:{line_no}", clip(file)),
        id,
        fen: String::new(),
        counts: Vec::new(),
        count_lines: Vec::new(),
    };
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            if line.is_empty() {
                if let Some(b) = block.take() {
                    entries.push(finish_block(file, b)?);
                }
            }
            continue;
        }
        let (keyword, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match keyword {
            "id" => {
                if let Some(b) = block.take() {
                    entries.push(finish_block(file, b)?);
                }
                block = Some(new_entry(line_no, Some(clip(rest))));
            }
            "epd" => {
                let b = block.get_or_insert_with(|| new_entry(line_no, None));
                if !b.fen.is_empty() {
                    return Err(syntax(
                        line_no,
                        "second `epd` line in one block (separate blocks with a blank line)".into(),
                    ));
                }
                b.fen = rest.to_string();
                b.origin = format!("{}:{line_no}", clip(file));
            }
            "perft" => {
                let b = block.as_mut().ok_or_else(|| syntax(line_no, "`perft` line before any `epd` line".into()))?;
                let mut parts = rest.split_whitespace();
                let bad =
                    || syntax(line_no, format!("bad perft line \"{}\", expected `perft DEPTH NODES`", clip(line)));
                let (Some(depth), Some(nodes), None) = (parts.next(), parts.next(), parts.next()) else {
                    return Err(bad());
                };
                let depth = parse_depth(depth, max_depth).map_err(|m| syntax(line_no, m))?;
                let nodes = parse_nodes(nodes).map_err(|m| syntax(line_no, m))?;
                b.push_count(depth, nodes, line_no).map_err(|m| syntax(line_no, m))?;
            }
            _ => {
                let mut entry = new_entry(line_no, None);
                parse_epd_line(&mut entry, line, line_no, max_depth).map_err(|m| syntax(line_no, m))?;
                entries.push(entry);
            }
        }
    }
    if let Some(b) = block.take() {
        entries.push(finish_block(file, b)?);
    }
    Ok(entries)
}

fn finish_block(file: &str, b: SuiteEntry) -> Result<SuiteEntry, SuiteError> {
    if b.fen.is_empty() {
        return Err(SuiteError::Syntax { file: clip(file), line: b.line(), message: "block has no `epd` line".into() });
    }
    if b.counts.is_empty() {
        let message = "no `perft <depth> <nodes>` lines for this `epd` line".into();
        return Err(SuiteError::Syntax { file: clip(file), line: b.line(), message });
    }
    Ok(b)
}

/// A depth from 0 to `max`.
fn parse_depth(text: &str, max: u32) -> Result<u32, String> {
    match text.parse::<u64>() {
        Ok(d) if d <= u64::from(max) => Ok(d as u32),
        _ => Err(format!("\"{}\" is not a depth (0 to {max})", clip(text))),
    }
}

/// A node count, 0 to 2^64 - 1, perhaps with `,` or `_` separators.
fn parse_nodes(text: &str) -> Result<u64, String> {
    let digits: String = text.chars().filter(|&c| c != ',' && c != '_').collect();
    match digits.parse::<u64>() {
        Ok(n) if text.starts_with(|c: char| c.is_ascii_digit()) => Ok(n),
        _ => Err(format!("\"{}\" is not a node count (0 to {})", clip(text), u64::MAX)),
    }
}

/// The standard EPD opcodes (PGN standard, section 16.2.5); they carry no
/// perft counts and are accepted and ignored, but for `id`, `hmvc` and `fmvn`.
const EPD_OPCODES: [&str; 25] = [
    "acd",
    "acn",
    "acs",
    "am",
    "bm",
    "ce",
    "dm",
    "draw_accept",
    "draw_claim",
    "draw_offer",
    "draw_reject",
    "eco",
    "fmvn",
    "hmvc",
    "id",
    "nic",
    "noop",
    "pm",
    "pv",
    "rc",
    "resign",
    "sm",
    "tcgs",
    "tcri",
    "tcsi",
];

/// An operation name: `D<depth>`, a standard opcode, `c0`-`c9`, `v0`-`v9`.
fn is_opcode(word: &str) -> bool {
    let b = word.as_bytes();
    let numbered = |prefix: u8| b.len() == 2 && b[0] == prefix && b[1].is_ascii_digit();
    EPD_OPCODES.contains(&word)
        || numbered(b'c')
        || numbered(b'v')
        || (b.len() >= 2 && b[0] == b'D' && b[1..].iter().all(u8::is_ascii_digit))
}

/// Splits at `;` outside double quotes.
fn split_operations(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// `FEN ;D1 20 ;D2 400`, or `FEN4 hmvc 0; fmvn 1; D1 20;`.
fn parse_epd_line(entry: &mut SuiteEntry, line: &str, line_no: usize, max_depth: u32) -> Result<(), String> {
    let mut parts = split_operations(line).into_iter();
    let head = parts.next().unwrap_or("");
    // The position is the words before the first opcode: standard EPD puts
    // the first operation right after the four fields, without a `;`.
    let words: Vec<&str> = head.split_whitespace().collect();
    let starts_ops = |i: usize| {
        // `c0`-`c9` and `v0`-`v9` take a quoted string; without one, `c6`
        // is an en passant square.
        let numbered = matches!(words[i].as_bytes(), [b'c' | b'v', d] if d.is_ascii_digit());
        is_opcode(words[i]) && (!numbered || words.get(i + 1).is_some_and(|w| w.starts_with('"')))
    };
    let split = (1..words.len()).find(|&i| starts_ops(i)).unwrap_or(words.len());
    let position = &words[..split];
    let first_op = words[split..].join(" ");
    let (mut hmvc, mut fmvn) = (None, None);
    let ops = std::iter::once(first_op.as_str()).chain(parts);
    for op in ops {
        let op = op.trim();
        if op.is_empty() {
            continue;
        }
        let (name, value) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
        let value = value.trim();
        if let Some(depth) = name.strip_prefix('D') {
            let depth = parse_depth(depth, max_depth).map_err(|e| format!("{name}: {e}"))?;
            let nodes = parse_nodes(value).map_err(|e| format!("{name}: {e}"))?;
            entry.push_count(depth, nodes, line_no)?;
        } else if name == "id" {
            entry.id = Some(clip(value.trim_matches('"')));
        } else if name == "hmvc" || name == "fmvn" {
            let n: u32 = value.parse().map_err(|_| format!("{name}: \"{}\" is not a move number", clip(value)))?;
            *(if name == "hmvc" { &mut hmvc } else { &mut fmvn }) = Some(n);
        } else if !is_opcode(name) {
            return Err(format!(
                "unknown EPD operation {:?}, expected `;D<depth> <nodes>` or a standard opcode (id, hmvc, fmvn, c0, ...)",
                clip(op)
            ));
        }
    }
    let mut fen = position.join(" ");
    if (hmvc.is_some() || fmvn.is_some()) && position.len() == 4 {
        fen = format!("{fen} {} {}", hmvc.unwrap_or(0), fmvn.unwrap_or(1));
    }
    if fen.is_empty() {
        return Err("no position before the counts".into());
    }
    entry.fen = fen;
    if entry.counts.is_empty() {
        return Err("no `;D<depth> <nodes>` counts on this line".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_epd_and_perft_blocks() {
        let text = "# comment\nstartpos ;D1 20 ;D2 400\n\nid x\nepd 8/8/8/8/8/8/8/K6k w - -\nperft 1 3\nperft 2 9\n";
        let entries = parse_suite("t", text).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].counts, vec![(1, 20), (2, 400)]);
        assert_eq!(entries[1].id.as_deref(), Some("x"));
        assert_eq!(entries[1].counts, vec![(1, 3), (2, 9)]);
        assert_eq!(entries[1].origin, "t:5");
        assert_eq!((entries[1].count_line(1), entries[1].count_line(2)), (6, 7));
    }

    #[test]
    fn standard_epd_with_opcodes_bom_and_latin1() {
        let mut bytes = "\u{feff}# r\u{e9}sum\u{e9}\n".as_bytes().to_vec();
        bytes.extend(b"# caf\xe9 (Latin-1)\n");
        bytes.extend(
            b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 3; fmvn 7; id \"start; pos\"; D1 20; D2 400;\n",
        );
        bytes.extend(b"4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5 ;c0 \"kings\" ;bm Kd2\n");
        // `c6` here is the en passant square, `c0 "..."` a comment.
        bytes.extend(b"8/8/8/KPp1n2r/8/8/8/7k w - c6 c0 \"e.p.\"; D1 5;\n");
        let entries = parse_suite_bytes("s.epd", &bytes, 20).unwrap();
        assert_eq!(entries.len(), 3);
        assert_eq!(entries[2].fen, "8/8/8/KPp1n2r/8/8/8/7k w - c6");
        assert_eq!(entries[0].fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3 7");
        assert_eq!(entries[0].id.as_deref(), Some("start; pos"));
        assert_eq!(entries[0].counts, vec![(1, 20), (2, 400)]);
        assert_eq!(entries[1].counts, vec![(1, 5)]);
    }

    #[test]
    fn errors_name_the_line() {
        let err = parse_suite("s.epd", "startpos ;D1 20\nstartpos ;D1 x\n").unwrap_err();
        assert!(err.to_string().starts_with("s.epd:2:"), "{err}");
        let err = parse_suite("p.perft", "perft 1 20\n").unwrap_err();
        assert!(err.to_string().starts_with("p.perft:1:"), "{err}");
        let err = parse_suite("s.epd", "startpos ;D1 20 ;D1 20\n").unwrap_err();
        assert!(err.to_string().contains("depth 1 is given twice"), "{err}");
        let err = parse_suite("p.perft", "id a\nepd startpos\nperft 1 20\nperft 1 20\n").unwrap_err();
        assert!(err.to_string().starts_with("p.perft:4:") && err.to_string().contains("twice"), "{err}");
        for deep in ["startpos ;D21 5", "startpos ;D100000 5", "startpos ;D99999999999999999999 5"] {
            let err = parse_suite("s.epd", deep).unwrap_err().to_string();
            assert!(err.contains("is not a depth (0 to 20)"), "{err}");
        }
        let err = parse_suite("s.epd", "startpos ;D1 99999999999999999999\n").unwrap_err().to_string();
        assert!(err.contains("not a node count"), "{err}");
        let err = parse_suite("s.epd", "startpos ;xyz 3\n").unwrap_err().to_string();
        assert!(err.contains("unknown EPD operation"), "{err}");
        // A block with no `perft` line names its `epd` line, at the end of
        // the file and before the next block alike.
        let lone = "id b\nepd 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n";
        for text in
            [format!("id a\nepd startpos\nperft 1 20\n\n{lone}"), format!("{lone}\nid a\nepd startpos\nperft 1 20\n")]
        {
            let err = parse_suite("p.perft", &text).unwrap_err().to_string();
            let line = if text.starts_with("id a") { 6 } else { 2 };
            assert!(err.starts_with(&format!("p.perft:{line}: no `perft")), "{err}");
        }
        let huge = format!("startpos ;{} 3\n", "q".repeat(1_000_000));
        assert!(parse_suite("s.epd", &huge).unwrap_err().to_string().len() < 400);
    }
}
