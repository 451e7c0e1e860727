//! Perft suites, for any game: EPD lines (`FEN ;D1 20 ;D2 400`, or the
//! standard four-field EPD with opcodes, `FEN4 hmvc 0; fmvn 1; D1 20;`) and
//! python-chess's `.perft` blocks (`id`, `epd`, `perft D N` lines), read into
//! one shape. Positions stay text here; the runner reads them with the
//! game's `Rules::parse_position` before any work starts.
//!
//! Files are read as real collections hold them: a UTF-8 byte-order mark
//! is skipped, a line that is not UTF-8 is read as Latin-1 (comments in old
//! files), NUL bytes (C writers end lines with them) are read as blanks, CRLF
//! and runs of blanks are line ends and separators, standard EPD opcodes
//! (`id`, `hmvc`, `fmvn`, `c0`, `bm`, ...) are accepted, counts come in any
//! order. A line that still cannot be read (a depth listed twice for one
//! position, or deeper than the game allows, a count that is no number, a
//! control byte) is refused with its number and the reason, and the reading
//! goes on ([`SuiteRead::refused`]); only a file that is not text at all is
//! an error.

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

/// Why a suite cannot be read at all.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// A line that does not parse (the strict readers: the first refused line).
    #[error("{file}:{line}: {message}")]
    Syntax {
        /// The suite file's name.
        file: String,
        /// The 1-based line number.
        line: usize,
        /// What is wrong with the line.
        message: String,
    },
    /// A file that is not text: a control byte before any position, or in
    /// more lines than hold positions.
    #[error("{file}: line {line} is not text: it holds the byte 0x{byte:02x} (binary data?)")]
    NotText {
        /// The suite file's name.
        file: String,
        /// The 1-based line number.
        line: usize,
        /// The first byte no text holds.
        byte: u8,
    },
}

/// A line that could not be read: the suite runs without it and the run
/// says so at the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong with it (the field, the character).
    pub message: String,
}

/// A remark on how a line was read (NUL bytes read as blanks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadNote {
    /// The 1-based line number.
    pub line: usize,
    /// The remark.
    pub note: String,
}

/// A suite as read: its positions, the lines refused, the remarks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SuiteRead {
    /// The positions read, in the file's order.
    pub entries: Vec<SuiteEntry>,
    /// The lines that could not be read, in the file's order.
    pub refused: Vec<Refused>,
    /// How odd lines were read.
    pub notes: Vec<ReadNote>,
}

/// Lines refused for control bytes past which a file counts as binary, when
/// they outnumber the positions read.
const BINARY_LINES: usize = 64;

/// Reads a suite line by line as real collections hold it: NUL bytes (line
/// ends of C writers) read as blanks, CRLF, a BOM, Latin-1 lines. A line
/// that cannot be read is refused and the reading goes on; only a file that
/// is not text ends it.
pub struct SuiteReader {
    file: String,
    max_depth: u32,
    block: Option<SuiteEntry>,
    read: SuiteRead,
    /// Lines with NUL bytes, and the first of them.
    nul_lines: (usize, usize),
    binary_lines: usize,
}

impl SuiteReader {
    /// A reader for `file` (its name in messages) with depths up to `max_depth`.
    pub fn new(file: &str, max_depth: u32) -> SuiteReader {
        SuiteReader {
            file: clip(file),
            max_depth,
            block: None,
            read: SuiteRead::default(),
            nul_lines: (0, 0),
            binary_lines: 0,
        }
    }

    /// Reads line `line_no` (raw bytes, its end included or not).
    pub fn line(&mut self, line_no: usize, raw: &[u8]) -> Result<(), SuiteError> {
        let raw = if line_no == 1 { raw.strip_prefix(b"\xef\xbb\xbf").unwrap_or(raw) } else { raw };
        if raw.contains(&0) {
            self.nul_lines.0 += 1;
            if self.nul_lines.1 == 0 {
                self.nul_lines.1 = line_no;
            }
        }
        if let Some(column) = raw.iter().position(|&b| is_control(b)) {
            let byte = raw[column];
            self.binary_lines += 1;
            let nothing_yet = self.read.entries.is_empty() && self.block.is_none();
            if nothing_yet || (self.binary_lines > BINARY_LINES && self.binary_lines > self.read.entries.len()) {
                return Err(SuiteError::NotText { file: self.file.clone(), line: line_no, byte });
            }
            let message = format!("the byte 0x{byte:02x} at column {} is not text", column + 1);
            self.refuse(line_no, message);
            return Ok(());
        }
        let text = match std::str::from_utf8(raw) {
            Ok(s) => s.replace('\0', " "),
            Err(_) => raw.iter().map(|&b| if b == 0 { ' ' } else { b as char }).collect(),
        };
        self.text_line(line_no, text.trim());
        Ok(())
    }

    /// Ends the reading: the last block, the notes.
    pub fn finish(mut self) -> SuiteRead {
        self.end_block();
        let (count, first) = self.nul_lines;
        if count > 0 {
            let note = match count {
                1 => "NUL bytes read as blanks (on this line)".to_string(),
                n => format!("NUL bytes read as blanks (on {n} lines, the first this one)"),
            };
            self.read.notes.insert(0, ReadNote { line: first, note });
        }
        self.read.refused.sort_by_key(|r| r.line);
        self.read
    }

    fn refuse(&mut self, line: usize, message: String) {
        self.read.refused.push(Refused { line, message });
    }

    fn new_entry(&self, line_no: usize, id: Option<String>) -> SuiteEntry {
        SuiteEntry {
            origin: format!("{}:{line_no}", self.file),
            id,
            fen: String::new(),
            counts: Vec::new(),
            count_lines: Vec::new(),
        }
    }

    /// The `.perft` block read so far becomes a position, or a refused line.
    fn end_block(&mut self) {
        let Some(b) = self.block.take() else { return };
        if b.fen.is_empty() {
            self.refuse(b.line(), "block has no `epd` line".into());
        } else if b.counts.is_empty() {
            self.refuse(b.line(), "no `perft <depth> <nodes>` lines for this `epd` line".into());
        } else {
            self.read.entries.push(b);
        }
    }

    fn text_line(&mut self, line_no: usize, line: &str) {
        if line.is_empty() {
            self.end_block();
            return;
        }
        if line.starts_with('#') {
            return;
        }
        let (keyword, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match keyword {
            "id" => {
                self.end_block();
                self.block = Some(self.new_entry(line_no, Some(clip(rest))));
            }
            "epd" => {
                if self.block.as_ref().is_some_and(|b| !b.fen.is_empty()) {
                    let message = "second `epd` line in one block (separate blocks with a blank line)";
                    return self.refuse(line_no, message.into());
                }
                let origin = format!("{}:{line_no}", self.file);
                let fresh = self.new_entry(line_no, None);
                let b = self.block.get_or_insert(fresh);
                b.fen = rest.split_whitespace().collect::<Vec<_>>().join(" ");
                b.origin = origin;
            }
            "perft" => {
                let max_depth = self.max_depth;
                let Some(b) = self.block.as_mut() else {
                    return self.refuse(line_no, "`perft` line before any `epd` line".into());
                };
                if let Err(message) = perft_line(b, rest, line_no, max_depth) {
                    let message = message
                        .unwrap_or_else(|| format!("bad perft line \"{}\", expected `perft DEPTH NODES`", clip(line)));
                    self.refuse(line_no, message);
                }
            }
            _ => {
                let mut entry = self.new_entry(line_no, None);
                match parse_epd_line(&mut entry, line, line_no, self.max_depth) {
                    Ok(()) => self.read.entries.push(entry),
                    Err(message) => self.refuse(line_no, message),
                }
            }
        }
    }
}

/// True for the bytes no text holds but NUL (read as a blank): other control
/// bytes than tab, line feed, vertical tab, form feed and carriage return, and DEL.
fn is_control(b: u8) -> bool {
    (b != 0 && b < 0x20 && !(0x09..=0x0d).contains(&b)) || b == 0x7f
}

/// `perft DEPTH NODES` into the block; `Err(None)` when it is not of that form.
fn perft_line(b: &mut SuiteEntry, rest: &str, line_no: usize, max_depth: u32) -> Result<(), Option<String>> {
    let mut parts = rest.split_whitespace();
    let (Some(depth), Some(nodes), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(None);
    };
    let depth = parse_depth(depth, max_depth).map_err(Some)?;
    let nodes = parse_nodes(nodes).map_err(Some)?;
    b.push_count(depth, nodes, line_no).map_err(Some)
}

/// Reads a suite with depths up to `crate::perft::MAX_DEPTH`; the first
/// line that cannot be read is an error.
pub fn parse_suite(file: &str, text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    parse_suite_for(file, text, crate::perft::MAX_DEPTH)
}

/// Reads a suite from raw bytes (see [`SuiteReader`]); the first line that
/// cannot be read is an error.
pub fn parse_suite_bytes(file: &str, bytes: &[u8], max_depth: u32) -> Result<Vec<SuiteEntry>, SuiteError> {
    strict(file, read_suite_bytes(file, bytes, max_depth)?)
}

/// Reads a suite from raw bytes, refusing the lines that cannot be read.
pub fn read_suite_bytes(file: &str, bytes: &[u8], max_depth: u32) -> Result<SuiteRead, SuiteError> {
    let mut reader = SuiteReader::new(file, max_depth);
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        reader.line(i + 1, line)?;
    }
    Ok(reader.finish())
}

/// Reads a suite; the format is recognised per line (`id`/`epd`/`perft`
/// keywords start a python-chess block, anything else is an EPD line).
/// Depths above `max_depth` are errors, as is the first line that cannot be read.
pub fn parse_suite_for(file: &str, text: &str, max_depth: u32) -> Result<Vec<SuiteEntry>, SuiteError> {
    strict(file, read_suite_bytes(file, text.as_bytes(), max_depth)?)
}

fn strict(file: &str, read: SuiteRead) -> Result<Vec<SuiteEntry>, SuiteError> {
    match read.refused.into_iter().next() {
        Some(r) => Err(SuiteError::Syntax { file: clip(file), line: r.line, message: r.message }),
        None => Ok(read.entries),
    }
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
    fn wild_lines_are_read_and_bad_ones_refused() {
        let mut bytes = b"startpos ;D2 400 ;D1 20\0\r\n".to_vec();
        bytes.extend(b"startpos ;D1 x\n");
        bytes.extend(b"4k3/8/8/8/8/8/8/4K3  w  -  -  0 1 ;D1 5\0\0\n");
        bytes.extend(b"startpos ;D1\x01 20\n");
        let read = read_suite_bytes("w.epd", &bytes, 20).unwrap();
        assert_eq!(read.entries.len(), 2);
        assert_eq!(read.entries[0].counts, vec![(2, 400), (1, 20)]);
        assert_eq!(read.entries[1].fen, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        let refused: Vec<usize> = read.refused.iter().map(|r| r.line).collect();
        assert_eq!(refused, [2, 4]);
        assert!(read.refused[1].message.contains("0x01 at column 13"), "{:?}", read.refused);
        assert_eq!(read.notes[0].line, 1);
        assert!(read.notes[0].note.contains("2 lines"), "{:?}", read.notes);
        // Control bytes before any position: not a suite at all.
        let err = read_suite_bytes("b.epd", b"# x\n\x02\x03\nstartpos ;D1 20\n", 20).unwrap_err();
        assert_eq!(err.to_string(), "b.epd: line 2 is not text: it holds the byte 0x02 (binary data?)");
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
