//! Bounded reading of every input: files and standard input are read here,
//! with a cap on each line and on the whole input, so that `/dev/zero`, a
//! mistyped path to a disk image or a flood on a pipe ends at once with an
//! error naming the input, the line and the cap, instead of filling memory.
//!
//! Each format has its caps ([`Caps`]), generous for real use. Text is also
//! checked for bytes no text file holds (NUL and the other control bytes but
//! tab, line and page ends), so binary garbage is named at its line. Engine
//! output is read elsewhere (`engines/`), bounded by its supervisor.
//!
//! [`quote`] is the one helper that quotes offending input in a message.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

const KIB: u64 = 1 << 10;
const MIB: u64 = 1 << 20;

/// The caps of one input format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// What the input is, for messages (`PGN`, `a perft suite`).
    pub what: &'static str,
    /// The longest line, in bytes without its end.
    pub line: u64,
    /// The largest input, in bytes.
    pub total: u64,
}

/// EPD and `.perft` suites: a line is a FEN and its counts.
pub const SUITE: Caps = Caps { what: "a perft suite", line: 64 * KIB, total: 64 * MIB };
/// PGN and plain lines of moves for `book build` (a game may be one line).
pub const PGN: Caps = Caps { what: "PGN or move lines", line: MIB, total: 256 * MIB };
/// A saved or pasted divide (`--against`): one line per move.
pub const DIVIDE: Caps = Caps { what: "a saved divide", line: 64 * KIB, total: 16 * MIB };
/// `variants.ini` (`--variant-path`).
pub const VARIANTS_INI: Caps = Caps { what: "variants.ini", line: 64 * KIB, total: 16 * MIB };
/// A magic file for `magic-search --verify` (JSON, perhaps on one line).
pub const MAGIC: Caps = Caps { what: "a magic file", line: 4 * MIB, total: 16 * MIB };
/// A work unit, a unit's results, and a manifest (JSON, perhaps on one line).
pub const UNITS: Caps = Caps { what: "a work unit", line: 16 * MIB, total: 1024 * MIB };
/// A book in Thompson's tree format (binary: only the size is capped). Its
/// 24-bit transposition pointers reach 16 MiB; a byte is a move, so this is
/// millions of moves (and parsing costs about 20 bytes of memory a byte).
pub const BOOK: Caps = Caps { what: "a book", line: u64::MAX, total: 16 * MIB };
/// A Polyglot `.bin` book (binary: only the size is capped).
pub const POLYGLOT: Caps = Caps { what: "a Polyglot book", line: u64::MAX, total: 512 * MIB };
/// A binary input whose size cannot be known before reading it (standard
/// input, a pipe, a device) is read up to this many bytes at most, so that
/// `/dev/zero` is refused without first filling the memory with it.
pub const STREAM_BINARY: u64 = 32 * MIB;

/// What went wrong reading an input.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("cannot read {name}: {error}")]
    /// The input could not be opened or read.
    Io {
        /// The input's name (a path, or standard input).
        name: String,
        /// The operating system's error.
        error: std::io::Error,
    },
    #[error("{name}: line {line} is longer than {} (the cap for a line of {what})", size(*.cap))]
    /// A line is longer than the cap for its kind of input.
    LongLine {
        /// The input's name.
        name: String,
        /// The 1-based number of the long line.
        line: u64,
        /// The cap on a line, in bytes.
        cap: u64,
        /// What kind of input this is, as the caps name it.
        what: &'static str,
    },
    #[error("{name}: larger than {} (the cap for {what}){how}", size(*.cap))]
    /// The input is larger than the cap for its kind of input.
    TooLarge {
        /// The input's name.
        name: String,
        /// The cap on the whole input, in bytes.
        cap: u64,
        /// What kind of input this is, as the caps name it.
        what: &'static str,
        /// Extra advice appended to the message (may be empty).
        how: &'static str,
    },
    #[error("{name}: line {line} is not text: it holds the byte {byte:#04x} (binary data?)")]
    /// A text input holds a control byte, as binary data does.
    Binary {
        /// The input's name.
        name: String,
        /// The 1-based number of the line holding the byte.
        line: u64,
        /// The offending byte.
        byte: u8,
    },
    #[error("{name}: line {line} is not UTF-8 text (column {column})")]
    /// A line of a text input is not valid UTF-8.
    NotUtf8 {
        /// The input's name.
        name: String,
        /// The 1-based number of the invalid line.
        line: u64,
        /// The 1-based byte column where the invalid UTF-8 starts.
        column: usize,
    },
}

impl InputError {
    /// The message without the input's name in front (for a caller that
    /// names the input itself).
    pub fn reason(&self) -> String {
        let text = self.to_string();
        let name = match self {
            InputError::Io { .. } => return text,
            InputError::LongLine { name, .. }
            | InputError::TooLarge { name, .. }
            | InputError::Binary { name, .. }
            | InputError::NotUtf8 { name, .. } => name,
        };
        text.strip_prefix(&format!("{name}: ")).map_or_else(|| text.clone(), str::to_string)
    }
}

/// A byte size for people: `64 KiB`, `256 MiB`, `1234 bytes`.
pub fn size(bytes: u64) -> String {
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= KIB && bytes.is_multiple_of(KIB) {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// The most characters of offending input that a message quotes.
pub const QUOTE_CHARS: usize = 100;

/// At most about [`QUOTE_CHARS`] characters of `text` (whole characters,
/// `...` when cut), control characters escaped (`\n`, `\u{0}`) and counted
/// as escaped: what any error message may quote of the offending input.
pub fn quote(text: &str) -> String {
    let mut out = String::new();
    let mut shown = 0;
    for c in text.chars() {
        let escaped: String = if c.is_control() { c.escape_debug().collect() } else { c.to_string() };
        shown += escaped.chars().count();
        if shown > QUOTE_CHARS {
            out.push_str("...");
            break;
        }
        out.push_str(&escaped);
    }
    out
}

/// [`quote`] of bytes that may not be text: invalid UTF-8 is shown as `\xNN`.
pub fn quote_bytes(bytes: &[u8]) -> String {
    // Never look at more than a few bytes per character shown.
    let head = &bytes[..bytes.len().min(QUOTE_CHARS * 4 + 4)];
    let mut text = String::new();
    for chunk in head.utf8_chunks() {
        text.push_str(chunk.valid());
        for b in chunk.invalid() {
            text.push_str(&format!("\\x{b:02x}"));
        }
        if text.chars().count() > QUOTE_CHARS {
            break;
        }
    }
    let quoted = quote(&text);
    if head.len() < bytes.len() && !quoted.ends_with("...") {
        quoted + "..."
    } else {
        quoted
    }
}

/// True for the bytes that no text holds: control bytes other than tab,
/// line feed, vertical tab, form feed and carriage return, and DEL.
fn is_binary(b: u8) -> bool {
    (b < 0x20 && !(0x09..=0x0d).contains(&b)) || b == 0x7f
}

/// An input opened for bounded reading: a file or any reader (standard input).
pub struct Input<'a> {
    name: String,
    reader: Box<dyn Read + 'a>,
    /// The size of a regular file, known before reading.
    size: Option<u64>,
}

impl<'a> Input<'a> {
    /// Opens a file; its name in messages is its path.
    pub fn open(path: &Path) -> Result<Input<'static>, InputError> {
        let name = quote(&path.display().to_string());
        let io = |error| InputError::Io { name: name.clone(), error };
        let file = File::open(path).map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        if meta.is_dir() {
            return Err(io(std::io::Error::other("it is a directory")));
        }
        let size = meta.is_file().then_some(meta.len());
        Ok(Input { name, reader: Box::new(file), size })
    }

    /// Any reader (standard input), named `name` in messages.
    pub fn from_reader(name: &str, reader: impl Read + 'a) -> Input<'a> {
        Input { name: quote(name), reader: Box::new(reader), size: None }
    }

    /// The input's name in messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A file known to be over the cap is refused before any reading (a
    /// sparse 4 GB file ends at once).
    fn check_size(&self, caps: &Caps) -> Result<(), InputError> {
        match self.size {
            Some(n) if n > caps.total => Err(self.too_large(caps.total, caps.what, "")),
            _ => Ok(()),
        }
    }

    /// The cap of a binary input, and how it came (a stream's is lower).
    fn binary_cap(&self, caps: &Caps) -> (u64, &'static str) {
        match self.size {
            None if caps.total > STREAM_BINARY => (STREAM_BINARY, " when read from standard input, a pipe or a device"),
            _ => (caps.total, ""),
        }
    }

    fn too_large(&self, cap: u64, what: &'static str, how: &'static str) -> InputError {
        InputError::TooLarge { name: self.name.clone(), cap, what, how }
    }

    /// The lines of a text input, one at a time, each checked against the caps.
    pub fn lines(self, caps: Caps) -> Result<Lines<'a>, InputError> {
        self.check_size(&caps)?;
        Ok(Lines {
            name: self.name,
            reader: BufReader::with_capacity(64 * KIB as usize, self.reader),
            caps,
            number: 0,
            read: 0,
            line: Vec::new(),
            text_only: true,
        })
    }

    /// The whole text, as bytes (for readers that decode Latin-1 themselves):
    /// every line within the caps, no binary bytes.
    pub fn text_bytes(self, caps: Caps) -> Result<Vec<u8>, InputError> {
        let mut lines = self.lines(caps)?;
        let mut all = Vec::new();
        while lines.next_raw()? {
            all.extend_from_slice(&lines.line);
        }
        Ok(all)
    }

    /// The whole text, which must be UTF-8: every line within the caps.
    pub fn text(self, caps: Caps) -> Result<String, InputError> {
        let name = self.name.clone();
        let bytes = self.text_bytes(caps)?;
        String::from_utf8(bytes).map_err(|e| {
            let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = valid.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
            let column = valid.len() - valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1) + 1;
            InputError::NotUtf8 { name, line, column }
        })
    }

    /// The whole binary input, within `caps.total`; one whose size cannot be
    /// known first (a pipe, a device) within [`STREAM_BINARY`] too.
    pub fn binary(mut self, caps: Caps) -> Result<Vec<u8>, InputError> {
        self.check_size(&caps)?;
        let (cap, how) = self.binary_cap(&caps);
        // The whole capacity up front: pages are touched only as bytes arrive,
        // and the vector never doubles past the cap.
        let expected = self.size.map_or(cap, |n| n.min(cap));
        let mut bytes = Vec::with_capacity(expected as usize + 1);
        let name = self.name.clone();
        (&mut self.reader).take(cap + 1).read_to_end(&mut bytes).map_err(|error| InputError::Io { name, error })?;
        if bytes.len() as u64 > cap {
            return Err(self.too_large(cap, caps.what, how));
        }
        Ok(bytes)
    }
}

impl Input<'_> {
    /// The whole binary input in pieces of `piece` bytes (the last may be
    /// shorter), each handed to `each` and dropped: for a reader that keeps
    /// less than the bytes (Polyglot entries), within the caps of [`Input::binary`].
    pub fn binary_pieces<E: From<InputError>>(
        mut self,
        caps: Caps,
        piece: usize,
        mut each: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        self.check_size(&caps)?;
        let (cap, how) = self.binary_cap(&caps);
        let mut buf = vec![0u8; piece.max(1)];
        let mut read: u64 = 0;
        loop {
            let mut filled = 0;
            while filled < buf.len() {
                match self.reader.read(&mut buf[filled..]) {
                    Ok(0) => break,
                    Ok(n) => filled += n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(error) => return Err(InputError::Io { name: self.name.clone(), error }.into()),
                }
            }
            read += filled as u64;
            if read > cap {
                return Err(self.too_large(cap, caps.what, how).into());
            }
            if filled == 0 {
                return Ok(());
            }
            each(&buf[..filled])?;
            if filled < buf.len() {
                return Ok(());
            }
        }
    }
}

/// The lines of a text input (see [`Input::lines`]).
pub struct Lines<'a> {
    name: String,
    reader: BufReader<Box<dyn Read + 'a>>,
    caps: Caps,
    /// The number of the last line read (1 for the first).
    number: u64,
    /// Bytes read so far.
    read: u64,
    /// The last line read, with its end.
    line: Vec<u8>,
    /// Whether a byte no text holds ends the reading (see [`Lines::keeping_control_bytes`]).
    text_only: bool,
}

impl Lines<'_> {
    /// The input's name in messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The number of the last line read (1 for the first).
    pub fn number(&self) -> u64 {
        self.number
    }

    /// Lines that hold bytes no text holds (NUL, other control bytes) are
    /// handed on instead of ending the reading, for a reader that judges
    /// each line itself (suites from the wild end lines with NUL bytes).
    pub fn keeping_control_bytes(mut self) -> Self {
        self.text_only = false;
        self
    }

    /// The next line's number and raw bytes with its end; `None` at the end.
    pub fn next_bytes(&mut self) -> Result<Option<(u64, &[u8])>, InputError> {
        Ok(self.next_raw()?.then_some((self.number, self.line.as_slice())))
    }

    /// The current line (`self.number`) is over the cap.
    fn long_line(&self) -> InputError {
        InputError::LongLine { name: self.name.clone(), line: self.number, cap: self.caps.line, what: self.caps.what }
    }

    /// Reads the next line into `self.line` (with its end); false at the end.
    fn next_raw(&mut self) -> Result<bool, InputError> {
        self.line.clear();
        let io = |name: &str, error| InputError::Io { name: name.to_string(), error };
        loop {
            let chunk = self.reader.fill_buf().map_err(|e| io(&self.name, e))?;
            if chunk.is_empty() {
                break;
            }
            let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            let number = self.number + 1;
            if let Some(&byte) = chunk[..take].iter().find(|&&b| self.text_only && is_binary(b)) {
                return Err(InputError::Binary { name: self.name.clone(), line: number, byte });
            }
            self.line.extend_from_slice(&chunk[..take]);
            self.reader.consume(take);
            self.read += take as u64;
            if self.read > self.caps.total {
                let (name, cap, what) = (self.name.clone(), self.caps.total, self.caps.what);
                return Err(InputError::TooLarge { name, cap, what, how: "" });
            }
            let content = self.line.len() as u64 - u64::from(done);
            // A CR before the LF is the line's end, not its content.
            let content = content - u64::from(done && self.line.ends_with(b"\r\n"));
            if content > self.caps.line && (done || content > self.caps.line + 1) {
                self.number = number;
                return Err(self.long_line());
            }
            if done {
                break;
            }
        }
        if self.line.is_empty() {
            return Ok(false);
        }
        self.number += 1;
        // A last line without an end may not keep the CR allowance above.
        if !self.line.ends_with(b"\n") && self.line.len() as u64 > self.caps.line {
            return Err(self.long_line());
        }
        Ok(true)
    }

    /// The next line's number (1 for the first) and text with its end,
    /// which must be UTF-8; `None` at the end of the input.
    pub fn next_with_end(&mut self) -> Result<Option<(u64, &str)>, InputError> {
        if !self.next_raw()? {
            return Ok(None);
        }
        match std::str::from_utf8(&self.line) {
            Ok(text) => Ok(Some((self.number, text))),
            Err(e) => {
                Err(InputError::NotUtf8 { name: self.name.clone(), line: self.number, column: e.valid_up_to() + 1 })
            }
        }
    }

    /// The next line's number and text without its end (`\n` or `\r\n`).
    pub fn next_line(&mut self) -> Result<Option<(u64, &str)>, InputError> {
        Ok(self.next_with_end()?.map(|(n, text)| {
            let text = text.strip_suffix('\n').unwrap_or(text);
            (n, text.strip_suffix('\r').unwrap_or(text))
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caps(line: u64, total: u64) -> Caps {
        Caps { what: "a test", line, total }
    }

    fn text(input: &[u8], caps: Caps) -> Result<String, InputError> {
        Input::from_reader("t", input).text(caps)
    }

    #[test]
    fn text_within_the_caps_is_read_as_it_is() {
        let input = "a\r\nbb\n\nccc";
        assert_eq!(text(input.as_bytes(), caps(3, 100)).unwrap(), input);
        assert_eq!(text(b"", caps(3, 100)).unwrap(), "");
    }

    #[test]
    fn a_long_line_is_named_with_its_number_and_the_cap() {
        let e = text(b"ok\nfour\n", caps(3, 100)).unwrap_err().to_string();
        assert_eq!(e, "t: line 2 is longer than 3 bytes (the cap for a line of a test)");
        // The line end does not count, a last line without one neither.
        assert!(text(b"abc\r\nabc", caps(3, 100)).is_ok());
        assert!(text(b"abcd", caps(3, 100)).is_err());
    }

    #[test]
    fn a_large_input_is_refused_at_the_cap() {
        let e = text(b"a\nb\nc\n", caps(3, 5)).unwrap_err().to_string();
        assert_eq!(e, "t: larger than 5 bytes (the cap for a test)");
        let e = Input::from_reader("t", &[0u8; 10][..]).binary(caps(0, 9)).unwrap_err();
        assert!(matches!(e, InputError::TooLarge { cap: 9, .. }));
        assert_eq!(Input::from_reader("t", &[7u8; 9][..]).binary(caps(0, 9)).unwrap().len(), 9);
    }

    #[test]
    fn an_endless_stream_ends_at_a_cap() {
        let zero = std::io::repeat(0);
        let e = Input::from_reader("zero", zero).text(caps(1 << 20, 1 << 30)).unwrap_err();
        assert!(matches!(e, InputError::Binary { line: 1, byte: 0, .. }), "{e}");
        let a = std::io::repeat(b'a');
        let e = Input::from_reader("a", a).text(caps(1 << 20, 1 << 30)).unwrap_err();
        assert!(matches!(e, InputError::LongLine { line: 1, .. }), "{e}");
        let e = Input::from_reader("zero", std::io::repeat(0)).binary(caps(0, 1 << 40)).unwrap_err();
        assert!(e.to_string().contains("32 MiB"), "{e}");
    }

    #[test]
    fn binary_pieces_are_handed_on_within_the_cap() {
        let mut seen = Vec::new();
        let input = Input::from_reader("t", &[1u8, 2, 3, 4, 5][..]);
        input
            .binary_pieces::<InputError>(caps(0, 5), 2, |p| {
                seen.push(p.to_vec());
                Ok(())
            })
            .unwrap();
        assert_eq!(seen, [vec![1, 2], vec![3, 4], vec![5]]);
        let input = Input::from_reader("zero", std::io::repeat(0));
        let e = input.binary_pieces::<InputError>(caps(0, 1 << 40), 1 << 20, |_| Ok(())).unwrap_err();
        assert!(matches!(e, InputError::TooLarge { cap: STREAM_BINARY, .. }), "{e}");
    }

    #[test]
    fn binary_and_latin1_bytes_are_named_at_their_line() {
        let e = text(b"a\nb\x00\n", caps(10, 100)).unwrap_err().to_string();
        assert_eq!(e, "t: line 2 is not text: it holds the byte 0x00 (binary data?)");
        let e = text(b"a\nb\nca\xe9\n", caps(10, 100)).unwrap_err().to_string();
        assert_eq!(e, "t: line 3 is not UTF-8 text (column 3)");
        assert_eq!(Input::from_reader("t", &b"caf\xe9\n"[..]).text_bytes(caps(10, 100)).unwrap(), b"caf\xe9\n");
    }

    #[test]
    fn lines_are_numbered_without_their_ends() {
        let mut lines = Input::from_reader("t", &b"a\r\nb\n\nc"[..]).lines(caps(5, 100)).unwrap();
        let mut seen = Vec::new();
        while let Some((number, line)) = lines.next_line().unwrap() {
            seen.push((number, line.to_string()));
        }
        assert_eq!(seen, [(1, "a".into()), (2, "b".into()), (3, "".into()), (4, "c".into())]);
    }

    #[test]
    fn quote_is_short_and_escapes_controls() {
        assert_eq!(quote("e4 e5"), "e4 e5");
        assert_eq!(quote("a\nb\0"), "a\\nb\\0");
        let long = quote(&"é".repeat(600));
        assert_eq!(long.chars().count(), QUOTE_CHARS + 3);
        assert_eq!(quote_bytes(b"ab\xff\x00"), "ab\\xff\\0");
        let garbage: Vec<u8> = (0..10_000u32).map(|i| (i * 7919 % 251) as u8).collect();
        assert!(quote_bytes(&garbage).chars().count() <= QUOTE_CHARS + 3);
    }
}
