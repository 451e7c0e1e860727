//! `chesstool rotated-dump`: the appendix layout square by square, and the
//! `--square` attacks against an independent ray walker.

use assert_cmd::Command;
use predicates::prelude::*;

/// Appendix 6.1 of the FUSc# paper (source document 001), top row first.
const APPENDIX: [(&str, [&str; 8]); 4] = [
    (
        "normal",
        [
            "a8 b8 c8 d8 e8 f8 g8 h8",
            "a7 b7 c7 d7 e7 f7 g7 h7",
            "a6 b6 c6 d6 e6 f6 g6 h6",
            "a5 b5 c5 d5 e5 f5 g5 h5",
            "a4 b4 c4 d4 e4 f4 g4 h4",
            "a3 b3 c3 d3 e3 f3 g3 h3",
            "a2 b2 c2 d2 e2 f2 g2 h2",
            "a1 b1 c1 d1 e1 f1 g1 h1",
        ],
    ),
    (
        "l90",
        [
            "a8 a7 a6 a5 a4 a3 a2 a1",
            "b8 b7 b6 b5 b4 b3 b2 b1",
            "c8 c7 c6 c5 c4 c3 c2 c1",
            "d8 d7 d6 d5 d4 d3 d2 d1",
            "e8 e7 e6 e5 e4 e3 e2 e1",
            "f8 f7 f6 f5 f4 f3 f2 f1",
            "g8 g7 g6 g5 g4 g3 g2 g1",
            "h8 h7 h6 h5 h4 h3 h2 h1",
        ],
    ),
    (
        "a1h8",
        [
            "a8 | b1 c2 d3 e4 f5 g6 h7",
            "a7 b8 | c1 d2 e3 f4 g5 h6",
            "a6 b7 c8 | d1 e2 f3 g4 h5",
            "a5 b6 c7 d8 | e1 f2 g3 h4",
            "a4 b5 c6 d7 e8 | f1 g2 h3",
            "a3 b4 c5 d6 e7 f8 | g1 h2",
            "a2 b3 c4 d5 e6 f7 g8 | h1",
            "a1 b2 c3 d4 e5 f6 g7 h8",
        ],
    ),
    (
        "a8h1",
        [
            "a8 b7 c6 d5 e4 f3 g2 h1",
            "a7 b6 c5 d4 e3 f2 g1 | h8",
            "a6 b5 c4 d3 e2 f1 | g8 h7",
            "a5 b4 c3 d2 e1 | f8 g7 h6",
            "a4 b3 c2 d1 | e8 f7 g6 h5",
            "a3 b2 c1 | d8 e7 f6 g5 h4",
            "a2 b1 | c8 d7 e6 f5 g4 h3",
            "a1 | b8 c7 d6 e5 f4 g3 h2",
        ],
    ),
];

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn run(args: &[&str]) -> String {
    let out = Command::cargo_bin("chesstool").unwrap().arg("rotated-dump").args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Square index from a name such as `e4`.
fn index(name: &str) -> u32 {
    let b = name.as_bytes();
    (b[0] - b'a') as u32 + 8 * (b[1] - b'1') as u32
}

/// The occupied squares of a FEN's board field, computed here without the library.
fn occupancy(fen: &str) -> u64 {
    let mut occ = 0u64;
    for (i, rank) in fen.split(' ').next().unwrap().split('/').enumerate() {
        let mut file = 0;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d;
            } else {
                occ |= 1 << ((7 - i as u32) * 8 + file);
                file += 1;
            }
        }
    }
    occ
}

#[test]
fn boards_are_laid_out_as_the_appendix_square_by_square() {
    for fen in [KIWIPETE, "8/8/8/8/8/8/8/K6k w - - 0 1", "startpos"] {
        let text = run(&["--fen", fen]);
        let occ = occupancy(if fen == "startpos" { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" } else { fen });
        let lines: Vec<&str> = text.lines().collect();
        for (name, rows) in APPENDIX {
            let title = lines
                .iter()
                .position(|l| l.starts_with(&format!("{name} = 0x")))
                .unwrap_or_else(|| panic!("no {name} board in\n{text}"));
            let value = u64::from_str_radix(lines[title].split("0x").nth(1).unwrap(), 16).unwrap();
            let mut rebuilt = 0u64;
            for (row, want) in rows.iter().enumerate() {
                let line = lines[title + 1 + row];
                // The names, exactly as the appendix prints them.
                assert!(line.starts_with(want), "{name} row {row}: {line:?}");
                // Then the same row as bits, with the edge mark in the same place.
                let rest = &line[want.len()..];
                let bits: Vec<&str> = rest.split_whitespace().take(want.split(' ').count()).collect();
                let names: Vec<&str> = want.split(' ').collect();
                let mut col = 0;
                for (token, bit) in names.iter().zip(&bits) {
                    if *token == "|" {
                        assert_eq!(*bit, "|", "{name} row {row}");
                        continue;
                    }
                    let occupied = occ >> index(token) & 1 == 1;
                    assert_eq!(*bit == "1", occupied, "{name} {token}");
                    if occupied {
                        // Square at picture (row, col) is bit (7 - row) * 8 + col.
                        rebuilt |= 1 << ((7 - row) * 8 + col);
                    }
                    col += 1;
                }
            }
            assert_eq!(value, rebuilt, "{name} value for {fen}");
        }
    }
}

/// An independent ray walker.
fn slide(sq: u32, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut att = 0;
    for (df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            att |= 1u64 << (r * 8 + f);
            if occ >> (r * 8 + f) & 1 == 1 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    att
}

#[test]
fn square_attacks_agree_with_an_independent_walker() {
    let rook = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let bishop = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    for fen in [KIWIPETE, "startpos", "4k3/8/8/3q4/8/8/8/4K3 w - - 0 1"] {
        let occ = occupancy(if fen == "startpos" { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" } else { fen });
        for sq in ["a1", "e4", "h8", "d5", "b7", "g2", "c6", "h1"] {
            let text = run(&["--fen", fen, "--square", sq]);
            let s = index(sq);
            let want = [
                ("rook", slide(s, occ, &rook)),
                ("bishop", slide(s, occ, &bishop)),
                ("queen", slide(s, occ, &rook) | slide(s, occ, &bishop)),
            ];
            for (piece, set) in want {
                let line = text.lines().find(|l| l.starts_with(piece) && l.contains("rotated")).unwrap();
                let expect = format!("{set:#018x}");
                assert_eq!(line.matches(&expect).count(), 3, "{fen} {sq}: {line}");
                assert!(line.ends_with("agree"), "{line}");
            }
        }
    }
}

#[test]
fn json_has_boards_and_square() {
    let text = run(&["--fen", KIWIPETE, "--square", "e4", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["boards"]["a1h8"]["rows"][0], "a8 | b1 c2 d3 e4 f5 g6 h7");
    assert_eq!(v["boards"]["normal"]["bitboard"], format!("{:#018x}", occupancy(KIWIPETE)));
    assert_eq!((v["status"].as_str(), v["square"].as_str()), (Some("ok"), Some("e4")));
    assert!(v["attacks"].as_array().unwrap().iter().all(|a| a["agree"] == true), "{v}");
    assert_eq!(v["patterns"][1]["board"], "l90");
    assert_eq!(v["root"], KIWIPETE);
    // The boards in the paper's order.
    let names: Vec<&String> = v["boards"].as_object().unwrap().keys().collect();
    assert_eq!(names.len(), 4);
    assert!(text.find("\"normal\"").unwrap() < text.find("\"a8h1\"").unwrap());
}

fn usage_error(args: &[&str], message: &str) {
    Command::cargo_bin("chesstool")
        .unwrap()
        .arg("rotated-dump")
        .args(args)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::starts_with("error: ").and(predicate::str::contains(message)))
        .stderr(predicate::function(|s: &str| s.lines().count() == 1));
}

#[test]
fn bad_input_is_a_usage_error() {
    usage_error(&["--square", "z9"], "--square: \"z9\" is not a square");
    usage_error(&["--square", "64"], "--square: \"64\" is not a square");
    usage_error(&["--fen", "8/8/8 w - - 0 1"], "--fen \"8/8/8 w - - 0 1\"");
    // Kiwipete with a garbled e.p. field.
    usage_error(&["--fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -x"], "--fen");
    // The middlegame FEN as printed (corrupted) in the FUSc# paper, section 3.2.2.
    usage_error(&["--fen", "r3k2r/p1ppqb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBPPP/R3K2R w KQkq"], "rank 7 has 7 squares");
}
