//! Throws random text, generated pastes with random noise and mutated
//! pastes at the divide-output parser (seeded, so every run is the same):
//! nothing panics, every error is short, and a paste made of known moves
//! plus banners, UCI chatter, echoes, blank lines, CRLF, a BOM and timing
//! lines reads back as exactly those moves and that total, with the noise
//! counted by kind.

mod common;

use chesstool::engines::{parse_output, DivideFormat, ParsedOutput};
use common::Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};

const FORMATS: [DivideFormat; 6] = [
    DivideFormat::Auto,
    DivideFormat::Stockfish,
    DivideFormat::Perftree,
    DivideFormat::Weiss,
    DivideFormat::Dash,
    DivideFormat::Total,
];

const ALPHABET: &[u8] = b"abcdefgh12345678 :-=\n\r\t0123456789NBRQKnbrqkO#+xMoveNodsarchTtl(),_";

fn random_text(rng: &mut Rng) -> String {
    let len = rng.below(300);
    match rng.below(3) {
        0 => String::from_utf8_lossy(&(0..len).map(|_| rng.next_u64() as u8).collect::<Vec<_>>()).into_owned(),
        1 => (0..len).map(|_| *rng.pick(ALPHABET) as char).collect(),
        _ => (0..len).filter_map(|_| char::from_u32(rng.below(0x3000) as u32)).collect(),
    }
}

/// Parses in every format, checking the invariants of whatever is read.
fn parse_everywhere(text: &str) {
    for format in FORMATS {
        let result = catch_unwind(AssertUnwindSafe(|| parse_output(text, format)));
        let result = result.unwrap_or_else(|_| panic!("panic on {text:?} as {format}"));
        match result {
            Ok(p) => {
                let d = &p.divide;
                assert!(!d.moves.is_empty() || d.total.is_some(), "{text:?}");
                for (i, (m, _)) in d.moves.iter().enumerate() {
                    assert!(d.moves[..i].iter().all(|(o, _)| o != m), "{m} twice in {text:?}");
                    assert!(chesstool::engines::output::is_move_token(m), "{m:?} in {text:?}");
                }
            }
            // About 100 characters of input, some of them escaped.
            Err(e) => assert!(e.to_string().chars().count() < 1000, "long error for {text:?}: {e}"),
        }
    }
}

#[test]
fn random_text_never_panics() {
    let mut rng = Rng::new(15);
    for _ in 0..3000 {
        parse_everywhere(&random_text(&mut rng));
    }
}

fn square(rng: &mut Rng) -> String {
    format!("{}{}", (b'a' + rng.below(8) as u8) as char, 1 + rng.below(8))
}

/// A made-up divide: distinct UCI-shaped moves and counts.
fn moves(rng: &mut Rng) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = Vec::new();
    for _ in 0..1 + rng.below(40) {
        let mut m = format!("{}{}", square(rng), square(rng));
        if rng.chance(10) {
            m.push(*rng.pick(&['q', 'r', 'b', 'n', 'Q', 'N']));
        }
        let n = if rng.chance(20) { rng.next_u64() >> rng.below(64) } else { rng.below(100_000) as u64 };
        if !out.iter().any(|(o, _)| *o == m) {
            out.push((m, n));
        }
    }
    out
}

/// What was put in, to compare with what is read.
struct Paste {
    text: String,
    moves: Vec<(String, u64)>,
    total: u64,
    banner: usize,
    uci: usize,
    echo: usize,
    timing: usize,
}

fn paste(rng: &mut Rng) -> Paste {
    let moves = moves(rng);
    let total = moves.iter().fold(0u64, |a, (_, n)| a.wrapping_add(*n));
    let format = rng.below(4);
    let mut lines: Vec<String> = Vec::new();
    let (mut banner, mut uci, mut echo, mut timing) = (0, 0, 0, 0);
    if rng.chance(2) {
        lines.push("Stockfish 15.1 by the Stockfish developers (see AUTHORS file)".into());
        banner += 1;
    }
    for _ in 0..rng.below(3) {
        lines.push(
            rng.pick(&["id name Engine 1.0", "option name Hash type spin default 16", "uciok", "readyok"]).to_string(),
        );
        uci += 1;
    }
    for _ in 0..rng.below(3) {
        let prompt = *rng.pick(&["", "> ", "engine> ", "$ "]);
        lines.push(format!("{prompt}{}", rng.pick(&["position startpos", "go perft 3", "isready", "uci"])));
        echo += 1;
    }
    if rng.chance(3) {
        lines.push(rng.pick(&["Depth 3", "Starting Test To Depth:3"]).to_string());
        timing += 1;
    }
    for (i, (m, n)) in moves.iter().enumerate() {
        if rng.chance(8) {
            lines.push("info string NNUE evaluation enabled".into());
            uci += 1;
        }
        if rng.chance(10) {
            lines.push(String::new());
        }
        lines.push(match format {
            0 => format!("{m}: {n}"),
            1 => format!("{m} {n}"),
            2 => format!("move {} : {m} : {n}", i + 1),
            _ => format!("{m} - {n}"),
        });
    }
    lines.push(String::new());
    lines.push(match (format, rng.below(4)) {
        (1, 0) => total.to_string(),
        (2, 0) => format!("Perft Complete : {total} nodes visited in 12ms"),
        (_, 1) => format!("Total: {total}"),
        (_, 2) => format!("{total} nodes"),
        _ => format!("Nodes searched: {total}"),
    });
    if rng.chance(3) {
        lines.push(rng.pick(&["Time: 5 ms", "               : 742000 nps", "Speed: 12.5 Mnps"]).to_string());
        timing += 1;
    }
    let newline = if rng.chance(3) { "\r\n" } else { "\n" };
    let mut text = lines.join(newline) + newline;
    if rng.chance(4) {
        text.insert(0, '\u{feff}');
    }
    Paste { text, moves, total, banner, uci, echo, timing }
}

#[test]
fn noisy_pastes_read_back_exactly() {
    let mut rng = Rng::new(16);
    for _ in 0..3000 {
        let p = paste(&mut rng);
        let read: ParsedOutput =
            parse_output(&p.text, DivideFormat::Auto).unwrap_or_else(|e| panic!("{e}\n{}", p.text));
        assert_eq!(read.divide.moves, p.moves, "{}", p.text);
        assert_eq!(read.divide.total, Some(p.total), "{}", p.text);
        let s = read.skipped;
        assert_eq!((s.banner, s.uci, s.echo, s.timing), (p.banner, p.uci, p.echo, p.timing), "{}", p.text);
        assert_eq!(s.bom, p.text.starts_with('\u{feff}'));
    }
}

#[test]
fn mutated_pastes_never_panic() {
    let mut rng = Rng::new(17);
    for _ in 0..2000 {
        let mut chars: Vec<char> = paste(&mut rng).text.chars().collect();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(chars.len().max(1));
            match rng.below(4) {
                0 if !chars.is_empty() => {
                    chars.remove(i);
                }
                1 => chars.insert(i.min(chars.len()), *rng.pick(ALPHABET) as char),
                2 if !chars.is_empty() => chars[i] = *rng.pick(ALPHABET) as char,
                _ if !chars.is_empty() => {
                    let j = rng.below(chars.len());
                    chars.swap(i, j);
                }
                _ => {}
            }
        }
        parse_everywhere(&chars.into_iter().collect::<String>());
    }
}
