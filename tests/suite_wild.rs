//! Suites as real collections hold them: NUL bytes at line ends, CRLF,
//! double spaces, an e.p. square no pawn can use (read as Stockfish reads
//! it, with a note), Shredder-FEN and X-FEN castling, `;D` counts in any
//! order. A line that still cannot be read is listed with its file, line
//! and fault, the run goes on and exits 2 at the end (1 if a count is
//! wrong too); JSON and JUnit list the refused lines.
//!
//! Counts come from the Chess Programming Wiki (start position 20, 400,
//! 8902; Kiwipete 48, 2039), by hand (a lone king on e1: 5 moves) and from
//! the Stockfish-generated lines of suites/chess960.epd.

mod common;

use assert_cmd::Command;
use common::{run_json, TempDir};

fn chesstool() -> Command {
    Command::cargo_bin("chesstool").unwrap()
}

/// A Shredder-FEN line of the shipped Chess960 suite (Stockfish's counts)
/// and its X-FEN twin (`KQkq` naming the outer rooks).
fn chess960_lines() -> (String, String) {
    let text = std::fs::read_to_string(common::suite_path("chess960.epd")).unwrap();
    let line = text.lines().find(|l| !l.starts_with('#')).expect("the suite's first position").to_string();
    let xfen = line.replacen(" HFhf ", " KQkq ", 1);
    assert_ne!(line, xfen, "{line}");
    (line, xfen)
}

/// A wild file: every odd thing at once, and one line that cannot be read.
fn wild_bytes(wrong: bool) -> Vec<u8> {
    let (shredder, xfen) = chess960_lines();
    let mut b = Vec::new();
    b.extend(b"# a collection as found\r\n");
    b.extend(b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D3 8902 ;D1 20 ;D2 400\0\r\n");
    b.extend(b"4k3/8/8/8/8/8/8/4K3  w - e6  0 1 ;D1 5\0\0\n");
    b.extend(b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1 ;D1 20\r\n");
    b.extend(shredder.as_bytes());
    b.extend(b"\0\n");
    b.extend(xfen.as_bytes());
    b.extend(b"\r\n");
    let kiwipete = if wrong { "2040" } else { "2039" };
    b.extend(
        format!("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -  ;D2 {kiwipete} ;D1 48\n").as_bytes(),
    );
    b
}

#[test]
fn a_wild_file_is_read_and_its_one_bad_line_listed() {
    let dir = TempDir::new("wild");
    let path = dir.file("wild.epd", &wild_bytes(false));
    let (code, doc, _) = run_json(chesstool().args(["suite", "--json", "--max-nodes", "200000"]).arg(&path));
    assert_eq!(code, 2, "{doc}");
    assert_eq!(doc["status"], "refused", "{doc}");
    let totals = &doc["totals"];
    assert_eq!(totals["positions"], 5, "{doc}");
    assert_eq!(totals["failed"], 0, "{doc}");
    assert_eq!(totals["refused"], 1, "{doc}");
    assert!(totals["passed"].as_u64().unwrap() >= 8, "{doc}");
    assert!(totals["positions_per_second"].as_f64().unwrap() > 0.0, "{doc}");
    let refused = doc["refused_lines"].as_array().unwrap();
    assert_eq!(refused.len(), 1, "{doc}");
    assert_eq!(refused[0]["line_number"], 4);
    assert!(refused[0]["file"].as_str().unwrap().ends_with("wild.epd"));
    let message = refused[0]["message"].as_str().unwrap();
    assert!(message.contains("rank 1") && message.contains("'X'"), "{message}");
    let notes = doc["notes"].as_array().unwrap();
    let text: Vec<String> = notes.iter().map(|n| format!("{}:{}", n["line_number"], n["note"])).collect();
    assert!(text.iter().any(|n| n.starts_with("3:") && n.contains("e6 dropped")), "{text:?}");
    assert!(text.iter().any(|n| n.starts_with("2:") && n.contains("NUL bytes")), "{text:?}");
}

#[test]
fn the_text_report_names_the_refused_line_and_the_junit_lists_it() {
    let dir = TempDir::new("wild-text");
    let path = dir.file("wild.epd", &wild_bytes(false));
    let xml = dir.0.join("wild.xml");
    let out =
        chesstool().args(["suite", "-q", "--max-nodes", "200000", "--junit"]).arg(&xml).arg(&path).output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(stdout.contains("1 line could not be read, left out:"), "{stdout}");
    assert!(stdout.contains("wild.epd:4: invalid FEN: rank 1"), "{stdout}");
    assert!(stdout.contains("wild.epd:3: e.p. square e6 dropped"), "{stdout}");
    assert!(stderr.contains("error: 1 line could not be read") && stderr.contains("wild.epd:4"), "{stderr}");
    let xml = std::fs::read_to_string(xml).unwrap();
    assert!(xml.contains("name=\"line 4\"") && xml.contains("type=\"refused-line\""), "{xml}");
}

#[test]
fn a_mismatch_wins_over_a_refused_line() {
    let dir = TempDir::new("wild-wrong");
    let path = dir.file("wild.epd", &wild_bytes(true));
    let (code, doc, _) = run_json(chesstool().args(["suite", "--json", "--max-nodes", "200000"]).arg(&path));
    assert_eq!(code, 1, "{doc}");
    assert_eq!(doc["status"], "mismatch");
    assert_eq!(doc["mismatches"][0]["line_number"], 7, "{doc}");
    assert_eq!(doc["refused_lines"].as_array().unwrap().len(), 1);
}

#[test]
fn a_perft_block_and_control_bytes_are_refused_line_by_line() {
    let dir = TempDir::new("wild-perft");
    let text = b"id a\nepd startpos\nperft 1 20\nperft x 400\n\nstartpos ;D1 20\nstartpos ;D1\x01 20\n";
    let path = dir.file("mixed.perft", text);
    let (code, doc, _) = run_json(chesstool().args(["suite", "--json"]).arg(&path));
    assert_eq!(code, 2, "{doc}");
    let lines: Vec<u64> =
        doc["refused_lines"].as_array().unwrap().iter().map(|r| r["line_number"].as_u64().unwrap()).collect();
    assert_eq!(lines, [4, 7], "{doc}");
    assert_eq!(doc["totals"]["passed"], 2, "{doc}");
    // A file that starts with binary bytes is no suite at all.
    let path = dir.file("binary.epd", b"\x01\x02\x03\nstartpos ;D1 20\n");
    let out = chesstool().arg("suite").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1 is not text"));
}

#[test]
fn perft_takes_a_chess960_number() {
    // 518 is the standard start position: the Wiki's 8902 at depth 3.
    let (code, doc, _) = run_json(chesstool().args(["perft", "--chess960", "518", "--depth", "3", "--json"]));
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["nodes"], 8902);
    assert_eq!(doc["root"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    for (args, needle) in [
        (vec!["perft", "--chess960", "960", "--depth", "1"], "is not a Chess960 start position number (0 to 959)"),
        (vec!["perft", "--chess960", "x", "--depth", "1"], "is not a Chess960 start position number"),
        (vec!["perft", "--chess960", "5", "--fen", "startpos", "--depth", "1"], ""),
        (
            vec!["perft", "--chess960", "5", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "--depth", "1"],
            "give one of them",
        ),
    ] {
        let out = chesstool().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        if needle.is_empty() {
            assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
            continue;
        }
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle) && err.lines().filter(|l| l.starts_with("error:")).count() == 1, "{err}");
    }
    // A bare --chess960 still forces Chess960 on --fen.
    let out = chesstool().args(["perft", "--chess960", "--depth", "1", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
}
