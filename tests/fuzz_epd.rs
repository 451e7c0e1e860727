//! Throws random bytes, generated suites and mutated suites at the EPD and
//! `.perft` reader (seeded): nothing panics, every error is short and names
//! a line, and a generated suite (EPD with `;D` counts or standard opcodes,
//! `.perft` blocks, comments in UTF-8 and Latin-1, a BOM, CRLF) reads back
//! as exactly the positions and counts it was made of.

mod common;

use chesstool::verify::suite::parse_suite_bytes;
use common::Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};

const FENS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
    "8/8/8/KPp1n2r/8/8/8/7k w - c6",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf -",
];

const ALPHABET: &[u8] = b"rnbqkpRNBQKP12345678/ wb-KQkqDd;\n0123456789#\"idepfthmvcn";

fn check(bytes: &[u8]) {
    let result = catch_unwind(AssertUnwindSafe(|| parse_suite_bytes("f.epd", bytes, 20)));
    match result.unwrap_or_else(|_| panic!("panic on {:?}", String::from_utf8_lossy(bytes))) {
        Ok(entries) => {
            for e in entries {
                assert!(!e.fen.is_empty() && !e.counts.is_empty());
                assert!(e.counts.iter().all(|&(d, _)| d <= 20));
                for (i, (d, _)) in e.counts.iter().enumerate() {
                    assert!(e.counts[..i].iter().all(|(o, _)| o != d), "depth {d} twice");
                }
            }
        }
        Err(e) => {
            let text = e.to_string();
            // About 100 characters of input, some of them escaped.
            assert!(text.starts_with("f.epd:") && text.chars().count() < 1000, "{text}");
        }
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng::new(21);
    for _ in 0..3000 {
        let len = rng.below(400);
        let bytes: Vec<u8> = if rng.chance(2) {
            (0..len).map(|_| rng.next_u64() as u8).collect()
        } else {
            (0..len).map(|_| *rng.pick(ALPHABET)).collect()
        };
        check(&bytes);
    }
}

/// A suite made of known positions and counts.
struct Suite {
    bytes: Vec<u8>,
    /// (position text as it must read back, counts) per position.
    entries: Vec<(String, Vec<(u32, u64)>)>,
}

fn suite(rng: &mut Rng) -> Suite {
    let mut bytes = Vec::new();
    if rng.chance(4) {
        bytes.extend("\u{feff}".as_bytes());
    }
    let newline: &[u8] = if rng.chance(3) { b"\r\n" } else { b"\n" };
    let mut entries = Vec::new();
    for _ in 0..1 + rng.below(6) {
        match rng.below(3) {
            0 => bytes.extend(b"# a comment, r\xc3\xa9sum\xc3\xa9"),
            1 => bytes.extend(b"# a Latin-1 comment: caf\xe9"),
            _ => {}
        }
        bytes.extend(newline);
        let fen = *rng.pick(&FENS);
        let mut depths: Vec<u32> = (0..=20).collect();
        let mut counts = Vec::new();
        for _ in 0..1 + rng.below(5) {
            let d = depths.remove(rng.below(depths.len()));
            counts.push((d, rng.next_u64() >> rng.below(64)));
        }
        let text = match rng.below(3) {
            // FEN with move counters, `;D` counts.
            0 => {
                let mut line = format!("{fen} 0 1");
                for (d, n) in &counts {
                    line.push_str(&format!(" ;D{d} {n}"));
                }
                bytes.extend(line.as_bytes());
                format!("{fen} 0 1")
            }
            // Standard EPD: four fields, opcodes with `;` after each.
            1 => {
                let (h, f) = (rng.below(50), 1 + rng.below(90));
                let mut line = format!("{fen} hmvc {h}; fmvn {f}; id \"pos; {h}\";");
                if fen.ends_with("c6") {
                    line.push_str(" c0 \"e.p. square c6\";");
                }
                for (d, n) in &counts {
                    line.push_str(&format!(" D{d} {n};"));
                }
                bytes.extend(line.as_bytes());
                format!("{fen} {h} {f}")
            }
            // python-chess `.perft` block.
            _ => {
                bytes.extend(format!("id p{}", rng.below(1000)).as_bytes());
                bytes.extend(newline);
                bytes.extend(format!("epd {fen}").as_bytes());
                for (d, n) in &counts {
                    bytes.extend(newline);
                    bytes.extend(format!("perft {d} {n}").as_bytes());
                }
                bytes.extend(newline);
                fen.to_string()
            }
        };
        bytes.extend(newline);
        entries.push((text, counts));
    }
    Suite { bytes, entries }
}

#[test]
fn generated_suites_read_back_exactly() {
    let mut rng = Rng::new(22);
    for _ in 0..2000 {
        let s = suite(&mut rng);
        let text = String::from_utf8_lossy(&s.bytes).into_owned();
        let read = parse_suite_bytes("g.epd", &s.bytes, 20).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let got: Vec<(String, Vec<(u32, u64)>)> = read.into_iter().map(|e| (e.fen, e.counts)).collect();
        assert_eq!(got, s.entries, "{text}");
    }
}

#[test]
fn mutated_suites_never_panic() {
    let mut rng = Rng::new(23);
    for _ in 0..2000 {
        let mut bytes = suite(&mut rng).bytes;
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(bytes.len().max(1));
            match rng.below(4) {
                0 if !bytes.is_empty() => {
                    bytes.remove(i);
                }
                1 => bytes.insert(i.min(bytes.len()), *rng.pick(ALPHABET)),
                2 if !bytes.is_empty() => bytes[i] = rng.next_u64() as u8,
                _ => bytes.extend(b";D99 1"),
            }
        }
        check(&bytes);
    }
}
