//! Bad input: exit 2 and one line naming the place (game and move of a PGN,
//! line of a text file, byte offset and line of moves of a book), and with
//! `--json` the error document on stdout. A book of one 40,000-ply line
//! probes and fails with output of bounded size.

mod book_common;

use assert_cmd::Command;
use chesstool::book::format::{ext, CLOSE, OPEN};
use chesstool::Position;
use std::path::Path;

fn chesstool() -> Command {
    Command::cargo_bin("chesstool").unwrap()
}

/// Runs chesstool, expects exit 2 and one `error:` line; returns it.
fn fails(args: &[&str]) -> String {
    let out = chesstool().args(args).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

fn index(pos: &Position, uci: &str) -> u8 {
    let m = pos.parse_uci(uci).unwrap();
    pos.legal_moves().iter().position(|&x| x == m).unwrap() as u8
}

/// `1. e4 e5` as a book: e4 with its line, e5 ending it.
fn e4_e5() -> Vec<u8> {
    let start = Position::startpos();
    let after = start.play(start.parse_uci("e2e4").unwrap());
    vec![index(&start, "e2e4"), CLOSE | index(&after, "e7e5")]
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn illegal_move_in_pgn_names_game_and_move() {
    let dir = book_common::scratch("book_errors_pgn");
    let pgn = write(&dir, "bad.pgn", b"[Event \"a\"]\n1. e4 e5 *\n\n[Event \"b\"]\n1. d4 d5\n2. c4 Nf6 3. Bxh7 *\n");
    let err = fails(&["book", "build", &pgn, "-o", &dir.join("x.book").to_string_lossy()]);
    assert!(err.contains("bad.pgn: game 2, move 3. \"Bxh7\" (line 6): \"Bxh7\" is not legal here"), "{err}");
    assert!(!dir.join("x.book").exists(), "no book is written on error");
    let text = write(&dir, "bad.txt", b"e4 e5\nd4 d5 c4 Qxh2\n");
    let err = fails(&["book", "build", &text, "-o", "-"]);
    assert!(err.contains("bad.txt: line 2, move 2... \"Qxh2\""), "{err}");
    let unclosed = write(&dir, "open.pgn", b"1. e4 (1. d4 d5 *\n");
    let err = fails(&["book", "build", &unclosed, "-o", "-"]);
    assert!(err.contains("game 1") && err.contains("not closed"), "{err}");
}

#[test]
fn truncated_and_malformed_books_name_the_byte() {
    let dir = book_common::scratch("book_errors_book");
    let good = e4_e5();
    let truncated = write(&dir, "cut.book", &good[..1]);
    for cmd in [&["book", "verify"][..], &["book", "dump"], &["book", "probe"], &["book", "export-polyglot"]] {
        let mut args: Vec<&str> = cmd.to_vec();
        args.push(&truncated);
        if cmd[1] == "export-polyglot" {
            args.extend(["-o", "-"]);
        }
        let err = fails(&args);
        assert!(err.contains("cut.book: byte 1 (line: 1. e4): the book is truncated"), "{err}");
    }
    // An index the position does not have.
    let bad_index = write(&dir, "index.book", &[CLOSE | 40]);
    let err = fails(&["book", "verify", &bad_index]);
    assert!(
        err.contains("byte 0 (line: the start): move index 40 does not exist: the position has 20 legal moves"),
        "{err}"
    );
    // A pointer past the end.
    let start = Position::startpos();
    let e4 = index(&start, "e2e4");
    let after = start.play(start.parse_uci("e2e4").unwrap());
    let past = write(&dir, "past.book", &[e4, ext::POINTER16, 0x01, 0x00, index(&after, "e7e5")]);
    let err = fails(&["book", "verify", &past]);
    assert!(
        err.contains("byte 1 (line: 1. e4 e5): transposition pointer to byte 256, past the end of the book"),
        "{err}"
    );
    // A pointer to a node that reaches another position.
    let d4 = index(&start, "d2d4");
    let after_d4 = start.play(start.parse_uci("d2d4").unwrap());
    let other = [OPEN | e4, CLOSE | index(&after, "e7e5"), d4, ext::POINTER16, 0, 0, index(&after_d4, "d7d5")];
    let err = fails(&["book", "verify", &write(&dir, "other.book", &other)]);
    assert!(
        err.contains("byte 3 (line: 1. d4 d5): transposition pointer to byte 0, which reaches another position"),
        "{err}"
    );
    // Trailing bytes, reserved codes.
    let err = fails(&["book", "verify", &write(&dir, "trail.book", &[CLOSE | e4, 0])]);
    assert!(err.contains("byte 1") && err.contains("after the end of the tree"), "{err}");
    let err = fails(&["book", "verify", &write(&dir, "code.book", &[0xC7, CLOSE | e4])]);
    assert!(err.contains("byte 0") && err.contains("unknown extension code 0xc7"), "{err}");
}

#[test]
fn polyglot_length_must_be_a_multiple_of_16() {
    let dir = book_common::scratch("book_errors_polyglot");
    let bin = write(&dir, "short.bin", &[0u8; 33]);
    let err = fails(&["book", "import-polyglot", &bin, "-o", "-"]);
    assert!(err.contains("short.bin: 33 bytes is not a multiple of 16"), "{err}");
    let err = fails(&["book", "import-polyglot", &dir.join("missing.bin").to_string_lossy(), "-o", "-"]);
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn json_failures_print_the_error_document() {
    let dir = book_common::scratch("book_errors_json");
    let truncated = write(&dir, "cut.book", &e4_e5()[..1]);
    for args in [
        vec!["book", "probe", truncated.as_str(), "--json"],
        vec!["book", "verify", truncated.as_str(), "--json"],
        vec!["book", "probe", truncated.as_str(), "--moves", "e4", "Ke7x", "--json"],
    ] {
        let out = chesstool().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["status"], "error", "{args:?}");
        assert_eq!(doc["error"]["kind"], "input");
        let message = doc["error"]["message"].as_str().unwrap();
        assert!(!message.contains('\n'));
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.trim_end(), format!("error: {message}"));
    }
    // --json with the book on standard output is refused.
    let pgn = write(&dir, "a.pgn", b"1. e4 *\n");
    let out = chesstool().args(["book", "build", &pgn, "-o", "-", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `Nf3 Nf6 Ng1 Ng8` 10,000 times: 40,000 plies, 40,000 bytes, and the
/// start position stands at the start and after every fourth ply.
fn knight_shuffle_book(dir: &Path) -> String {
    let pgn = format!("[Event \"x\"]\n{} *\n", vec!["Nf3 Nf6 Ng1 Ng8"; 10_000].join(" "));
    let pgn = write(dir, "lin.pgn", pgn.as_bytes());
    let book = dir.join("lin.book").to_string_lossy().to_string();
    let out = chesstool().args(["book", "build", &pgn, "-o", &book]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::metadata(&book).unwrap().len(), 40_000);
    book
}

/// Regression: probing listed every place with its whole line (10,001
/// lines of up to 40,000 plies: minutes and 1.4 GB). Now the first 8, each
/// shortened, then the count of the rest; JSON counts them all.
#[test]
fn a_position_at_thousands_of_places_probes_in_bounded_output() {
    let dir = book_common::scratch("book_errors_places");
    let book = knight_shuffle_book(&dir);
    let out = chesstool().args(["book", "probe", &book]).timeout(std::time::Duration::from_secs(60)).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.len() < 2_000, "{} bytes: {}", text.len(), text.chars().take(2_000).collect::<String>());
    let places = text.lines().last().unwrap();
    // 10,001 places: the start and after plies 4, 8, ..., 40,000.
    assert!(places.ends_with("| and 9993 more"), "{places}");
    assert!(places.contains(": the start | 1. Nf3 Nf6 2. Ng1 Ng8 | "), "{places}");
    assert!(
        places.contains("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 … 12. Ng1 Ng8 13. Nf3 Nf6 14. Ng1 Ng8 (28 plies)"),
        "{places}"
    );

    let out = chesstool().args(["book", "probe", &book, "--moves", "Nf3", "--json"]).output().unwrap();
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(out.stdout.len() < 2_000, "{doc}");
    // After Nf3: plies 1, 5, ..., 39,997.
    assert_eq!(doc["place_count"], 10_000, "{doc}");
    assert_eq!(doc["path"], serde_json::json!(["g1f3"]), "{doc}");
}

/// Regression: a fault deep in a long line printed the whole line, 40,000
/// plies on one line; now its ends and its length.
#[test]
fn a_fault_at_the_end_of_a_long_line_names_it_shortened() {
    let dir = book_common::scratch("book_errors_long_fault");
    let mut bytes = std::fs::read(knight_shuffle_book(&dir)).unwrap();
    let last = bytes.len() - 1;
    bytes[last] = CLOSE | 62; // no position has 63 legal moves here
    let bad = write(&dir, "bad.book", &bytes);
    for command in ["verify", "probe", "dump"] {
        let err = fails(&["book", command, &bad]);
        assert!(err.len() < 400, "{command}: {} bytes: {}", err.len(), err.chars().take(400).collect::<String>());
        assert!(err.contains("byte 39999 (line: 1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 … "), "{command}: {err}");
        assert!(err.contains("20000. Ng1 (39999 plies)): move index 62 does not exist"), "{command}: {err}");
    }
    let cut = write(&dir, "cut.book", &bytes[..last]);
    let err = fails(&["book", "verify", &cut]);
    assert!(err.len() < 400 && err.contains("20000. Ng1 (39999 plies)): the book is truncated"), "{err}");
}
