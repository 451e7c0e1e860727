//! Throws thousands of random strings and randomly mutated FENs at the FEN
//! parser: none may panic. Every one that parses must survive move
//! generation, every move, perft 2 and random games (with the incremental key
//! equal to the key from scratch), and must agree with the slow oracle.

mod common;

use chesstool::perft::perft;
use chesstool::Position;
use common::oracle::check_against_oracle;
use common::Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Characters FENs are made of, plus a few that are not.
const FEN_ALPHABET: &[u8] = b"pnbrqkPNBRQK012345678/ wb-abcdefghABCDEFGH9x ";

fn random_string(rng: &mut Rng) -> String {
    let len = rng.below(90);
    match rng.below(3) {
        // Raw bytes (made valid UTF-8 lossily: the API takes &str).
        0 => String::from_utf8_lossy(&(0..len).map(|_| rng.next_u64() as u8).collect::<Vec<_>>()).into_owned(),
        // FEN-ish characters.
        1 => (0..len).map(|_| *rng.pick(FEN_ALPHABET) as char).collect(),
        // Random unicode scalar values.
        _ => (0..len).filter_map(|_| char::from_u32(rng.below(0x3000) as u32)).collect(),
    }
}

fn mutate(fen: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = fen.chars().collect();
    let rounds = if rng.chance(2) { 1 } else { 1 + rng.below(4) };
    for _ in 0..rounds {
        let i = if chars.is_empty() { 0 } else { rng.below(chars.len()) };
        match rng.below(8) {
            0 if !chars.is_empty() => {
                chars.remove(i);
            }
            1 => chars.insert(i, *rng.pick(FEN_ALPHABET) as char),
            2 if !chars.is_empty() => chars[i] = *rng.pick(FEN_ALPHABET) as char,
            3 if !chars.is_empty() => {
                // Swap two characters.
                let j = rng.below(chars.len());
                chars.swap(i, j);
            }
            4 => {
                // Move a piece letter: swap two board squares' letters.
                if let Some(j) = (0..chars.len()).find(|&j| chars[(i + j) % chars.len()].is_ascii_alphabetic()) {
                    let k = (i + j) % chars.len();
                    chars[k] = *rng.pick(b"pnbrqkPNBRQK") as char;
                }
            }
            5 => {
                // Replace a whole field.
                let s: String = chars.iter().collect();
                let mut fields: Vec<String> = s.split(' ').map(str::to_string).collect();
                let f = rng.below(fields.len());
                fields[f] = rng
                    .pick(&[
                        "w", "b", "-", "KQkq", "HAha", "Kq", "e3", "e6", "d6", "c3", "0", "1", "99", "", "KQkqKQ",
                        "startpos",
                    ])
                    .to_string();
                chars = fields.join(" ").chars().collect();
            }
            6 => {
                // Truncate.
                chars.truncate(i);
            }
            _ => {
                // Duplicate a slice.
                let j = (i + rng.below(10)).min(chars.len());
                let slice: Vec<char> = chars[i.min(j)..j].to_vec();
                for (k, c) in slice.into_iter().enumerate() {
                    chars.insert(j + k, c);
                }
            }
        }
    }
    chars.into_iter().collect()
}

/// Everything a parsed position must survive.
fn exercise(pos: &Position, rng: &mut Rng, input: &str) {
    // The FEN we write parses back to the same position.
    let written = pos.to_fen();
    let again = Position::from_fen(&written)
        .unwrap_or_else(|e| panic!("{input:?} parsed, but its FEN {written:?} does not: {e}"));
    assert_eq!(again, *pos, "{input:?} -> {written:?} reparses differently");
    assert_eq!(pos.key(), pos.compute_key(), "{input:?}");
    let moves = pos.legal_moves();
    assert_eq!(moves.len() as u64, pos.count_legal());
    let mut p2 = 0;
    for &m in moves.iter() {
        let child = pos.play(m);
        assert_eq!(child.key(), child.compute_key(), "{input:?} after {m:?}");
        p2 += child.count_legal();
    }
    assert_eq!(perft(pos, 2), p2, "{input:?}");
    // A short random game.
    let mut p = *pos;
    for _ in 0..20 {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        p = p.play(*rng.pick(moves.as_slice()));
        assert_eq!(p.key(), p.compute_key(), "{input:?} along a random game at {}", p.to_fen());
    }
}

fn seeds() -> Vec<String> {
    let mut fens: Vec<String> = common::all_suites().into_iter().map(|l| l.fen).collect();
    fens.push("startpos".into());
    fens.push("r3k2r/p1ppqb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBPPP/R3K2R w KQkq".into());
    fens
}

/// Runs `f` on `input`, turning a panic into a message that names the input.
fn no_panic(input: &str, f: impl FnOnce()) -> Result<(), String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|e| {
        let msg = e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()));
        format!("{input:?}: {}", msg.unwrap_or_default())
    })
}

fn run(inputs: impl Iterator<Item = String>, rng: &mut Rng, oracle: bool) -> (usize, usize) {
    let (mut total, mut parsed) = (0, 0);
    let mut failures = Vec::new();
    for input in inputs {
        total += 1;
        let result = no_panic(&input, || {
            if let Ok(pos) = Position::from_fen(&input) {
                parsed += 1;
                exercise(&pos, rng, &input);
                if oracle {
                    check_against_oracle(&pos, &format!("mutated FEN {input:?}"));
                }
            }
        });
        if let Err(e) = result {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{} inputs failed:\n{}", failures.len(), failures.join("\n"));
    (total, parsed)
}

#[test]
fn random_strings_never_panic() {
    let mut rng = Rng::new(1);
    let inputs: Vec<String> = (0..20_000).map(|_| random_string(&mut rng)).collect();
    let (total, _) = run(inputs.into_iter(), &mut rng, false);
    assert_eq!(total, 20_000);
}

#[test]
fn mutated_fens_never_panic_and_parsed_ones_are_sound() {
    let mut rng = Rng::new(42);
    let seeds = seeds();
    let mut inputs = Vec::new();
    for _ in 0..30_000 {
        let seed = rng.pick(seeds.as_slice()).clone();
        inputs.push(mutate(&seed, &mut rng));
    }
    let (total, parsed) = run(inputs.into_iter(), &mut rng, true);
    eprintln!("{parsed} of {total} mutated FENs parsed");
    // The mutations must leave a fair share parsable, or the positions
    // after the parser go untested.
    assert!(parsed > total / 20, "only {parsed} of {total} mutated FENs parsed");
}

/// A random board: two kings and a handful of random pieces on random
/// squares, a random side to move, castling field and e.p. square. Most are
/// rejected (side not to move in check, pawns on the back rank, ...); the
/// rest are odd positions no game reaches, which the generator must still
/// get exactly right (multiple checkers, pins everywhere, odd e.p. squares).
fn random_board_fen(rng: &mut Rng) -> String {
    let mut board = [' '; 64];
    let white = rng.chance(2);
    // Sometimes a double push that explains an e.p. square, with a capturer
    // next to it (reserved first so random pieces cannot spoil it).
    let mut ep = "-".to_string();
    if rng.chance(3) {
        let f = rng.below(8);
        let (pushed, passed, from, mine, theirs) = if white { (32, 40, 48, 'P', 'p') } else { (24, 16, 8, 'p', 'P') };
        board[pushed + f] = theirs;
        board[passed + f] = '.';
        board[from + f] = '.';
        for side in [f.wrapping_sub(1), f + 1] {
            if side < 8 && rng.chance(2) {
                board[pushed + side] = mine;
            }
        }
        ep = format!("{}{}", (b'a' + f as u8) as char, if white { 6 } else { 3 });
    }
    let mut place = |c: char, rng: &mut Rng| loop {
        let i = rng.below(64);
        let pawn_on_back_rank = (c == 'P' || c == 'p') && !(8..56).contains(&i);
        if board[i] == ' ' && !pawn_on_back_rank {
            board[i] = c;
            break;
        }
    };
    place('K', rng);
    place('k', rng);
    for _ in 0..rng.below(14) {
        place(*rng.pick(b"PPPPppppNnBbRrQq") as char, rng);
    }
    // Castling rights sometimes get their king and rooks put in place.
    if rng.chance(4) {
        for (rank, k, r) in [(0, 'K', 'R'), (56, 'k', 'r')] {
            if let Some(old) = board.iter().position(|&c| c == k) {
                board[old] = ' ';
            }
            board[rank + 4] = k;
            board[rank] = r;
            board[rank + 7] = r;
        }
    }
    for c in board.iter_mut() {
        if *c == '.' {
            *c = ' ';
        }
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                ' ' => empty += 1,
                c => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c);
                }
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let turn = if white { "w" } else { "b" };
    let castling = if rng.below(10) < 7 {
        "-"
    } else {
        *rng.pick(&["-", "-", "KQkq", "K", "q", "Kk", "HAha", "A", "h", "Bb", "G"])
    };
    format!("{fen} {turn} {castling} {ep} 0 1")
}

#[test]
fn random_boards_that_parse_agree_with_the_oracle() {
    let mut rng = Rng::new(960);
    let inputs: Vec<String> = (0..60_000).map(|_| random_board_fen(&mut rng)).collect();
    let (total, parsed) = run(inputs.into_iter(), &mut rng, true);
    eprintln!("{parsed} of {total} random boards parsed");
    assert!(parsed > 20_000, "only {parsed} of {total} random boards parsed");
}
