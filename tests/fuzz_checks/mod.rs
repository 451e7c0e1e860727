//! One check per fuzz target: a function of the input bytes that returns
//! quietly when the input is rejected or read correctly, and panics when a
//! property fails (a parser panicking counts too). The fuzz targets call
//! these, and `tests/fuzz_corpus.rs` replays every corpus file through them
//! on a stable toolchain.

pub mod book;
pub mod divide;
pub mod fen;
pub mod formats;
pub mod tictacchess;
pub mod variants;

/// A target's check of one input.
pub type Check = fn(&[u8]);

/// Every target: its name (the directory of its corpus) and its check.
pub const TARGETS: &[(&str, Check)] = &[
    ("fen", fen::fen),
    ("san_uci", fen::san_uci),
    ("divide", divide::divide),
    ("book_bin", book::book_bin),
    ("book_build", book::book_build),
    ("polyglot", book::polyglot),
    ("suite", formats::suite),
    ("units", formats::units),
    ("magic_file", formats::magic_file),
    ("betza", variants::betza),
    ("variants", variants::variants),
    ("tictacchess", tictacchess::tictacchess),
];

/// The input as text, if it is UTF-8 and small enough to be worth reading
/// (the parsers' callers cap their input; the fuzzer need not test the cap).
fn text(data: &[u8], max: usize) -> Option<&str> {
    if data.len() > max {
        return None;
    }
    std::str::from_utf8(data).ok()
}
