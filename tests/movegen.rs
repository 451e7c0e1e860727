//! Legal move generation against a slow oracle, perft against the suites
//! (Stockfish counts), the perft variants against each other, UCI parsing,
//! and the incremental Zobrist key.
//!
//! The oracle (`common/oracle.rs`) shares nothing with `src/movegen` or
//! `Position::play`: it keeps its own mailbox, builds pseudo-legal moves with
//! the ray walker `chesstool::attacks::reference` and its own leaper steps,
//! plays each move on its own board and keeps it if the king is then not
//! attacked.

mod common;

use chesstool::perft::{divide, perft, perft_fast_parallel, perft_full};
use chesstool::{Move, Position, Role};
use common::oracle::{check_against_oracle, Board};
use common::{Rng, SuiteLine};
use std::collections::BTreeSet;

fn suite_positions() -> Vec<(String, Position)> {
    common::all_suites()
        .into_iter()
        .map(|l| (format!("suites/{}:{}", l.file, l.line), Position::from_fen(&l.fen).expect("suite FEN parses")))
        .collect()
}

// ---- (a) generation == oracle ------------------------------------------------

#[test]
fn oracle_agrees_on_every_suite_position_and_its_children() {
    for (ctx, pos) in suite_positions() {
        check_against_oracle(&pos, &ctx);
        for &m in pos.legal_moves().iter() {
            check_against_oracle(&pos.play(m), &format!("{ctx} after {m:?}"));
        }
    }
}

/// The oracle is only as good as its own rules: it must reproduce the
/// Stockfish counts of the suites at depth 1 and 2 on its own.
#[test]
fn oracle_itself_matches_stockfish_at_depths_1_and_2() {
    fn oracle_perft(b: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        b.legal().iter().map(|&m| oracle_perft(&b.play(m), depth - 1)).sum()
    }
    for line in common::all_suites() {
        let board = Board::from_position(&Position::from_fen(&line.fen).unwrap());
        for &(depth, expected) in line.counts.iter().filter(|(d, _)| *d <= 2) {
            assert_eq!(
                oracle_perft(&board, depth),
                expected,
                "oracle: suites/{}:{} depth {depth}",
                line.file,
                line.line
            );
        }
    }
}

/// A random walk from `start`, returning every position on the way.
fn random_game(start: Position, rng: &mut Rng, plies: usize) -> Vec<Position> {
    let mut out = vec![start];
    let mut pos = start;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        // Prefer special moves a little so castling, e.p. and promotion occur.
        let special: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| m.is_castling() || m.is_en_passant() || m.promotion_role().is_some())
            .collect();
        let m = if !special.is_empty() && rng.chance(2) { *rng.pick(&special) } else { *rng.pick(moves.as_slice()) };
        pos = pos.play(m);
        out.push(pos);
    }
    out
}

#[test]
fn oracle_agrees_along_seeded_random_games() {
    let mut rng = Rng::new(2024);
    let starts: Vec<Position> = suite_positions().into_iter().map(|(_, p)| p).collect();
    let (mut n, mut castles, mut eps, mut promotions, mut checks) = (0, 0, 0, 0, 0);
    for game in 0..150 {
        let start = if game % 3 == 0 { Position::startpos() } else { *rng.pick(&starts) };
        for (ply, pos) in random_game(start, &mut rng, 60).iter().enumerate() {
            check_against_oracle(pos, &format!("random game {game} ply {ply}"));
            n += 1;
            let moves = pos.legal_moves();
            castles += moves.iter().filter(|m| m.is_castling()).count();
            eps += moves.iter().filter(|m| m.is_en_passant()).count();
            promotions += moves.iter().filter(|m| m.promotion_role().is_some()).count();
            checks += pos.checkers().any() as usize;
        }
    }
    // The walk must have met the moves that are hard to get right.
    assert!(n > 3000, "only {n} positions");
    assert!(
        castles > 100 && eps > 20 && promotions > 100 && checks > 200,
        "castles {castles}, e.p. {eps}, promotions {promotions}, checks {checks}"
    );
}

// ---- hand-picked positions whose move counts are textbook ---------------------

fn legal_uci(fen: &str) -> BTreeSet<String> {
    let pos = Position::from_fen(fen).unwrap();
    pos.legal_moves().iter().map(|m| m.to_uci(pos.is_chess960())).collect()
}

#[test]
fn en_passant_rank_pin_both_pawns_leave_the_rank() {
    // White king a5, pawns b5/c5 side by side after c7c5, black rook h5:
    // b5xc6 e.p. would expose the king along rank 5.
    let moves = legal_uci("8/8/8/KPp4r/8/8/8/7k w - c6 0 2");
    assert!(!moves.contains("b5c6"), "{moves:?}");
    // Without the rook the capture is legal.
    assert!(legal_uci("8/8/8/KPp5/8/8/8/7k w - c6 0 2").contains("b5c6"));
}

#[test]
fn en_passant_resolves_check_by_the_pushed_pawn() {
    // d7d5 gives check to the king on e4 (the pawn on d5 attacks e4):
    // e5xd6 e.p. removes the checker.
    let moves = legal_uci("7k/8/8/3pP3/4K3/8/8/8 w - d6 0 2");
    assert!(moves.contains("e5d6"), "e.p. captures the checking pawn: {moves:?}");
    // The capturer pinned on the h8-c3 diagonal: e5xd6 leaves the pin line.
    let moves = legal_uci("7K/8/8/3pP3/8/2b5/8/7k w - d6 0 2");
    assert!(!moves.contains("e5d6"), "{moves:?}");
    // Pinned on the c7-g3 diagonal: e5xd6 stays on the line, so it is legal.
    let moves = legal_uci("8/2K5/8/3pP3/8/6b1/8/7k w - d6 0 2");
    assert!(moves.contains("e5d6"), "{moves:?}");
}

#[test]
fn castling_through_into_and_out_of_check() {
    // Rook on f8 attacks f1: no king-side castling; queen side fine.
    let m = legal_uci("3k1r2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(!m.contains("e1g1") && m.contains("e1c1"), "{m:?}");
    // g1 attacked: castling into check.
    let m = legal_uci("3k2r1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(!m.contains("e1g1") && m.contains("e1c1"), "{m:?}");
    // In check: no castling at all.
    let m = legal_uci("3kr3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(!m.contains("e1g1") && !m.contains("e1c1"), "{m:?}");
    // b1 attacked does not stop queen-side castling (the king does not pass b1).
    let m = legal_uci("1r1k4/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(m.contains("e1c1"), "{m:?}");
}

#[test]
fn chess960_castling_with_king_or_rook_not_moving() {
    // King on g1, rook on h1: castling moves only the rook (to f1).
    let pos = Position::from_fen("6kr/8/8/8/8/8/8/6KR w Hh - 0 1").unwrap();
    let castle = pos.parse_uci("g1h1").unwrap();
    assert!(castle.is_castling());
    let after = pos.play(castle);
    assert_eq!(after.to_fen(), "6kr/8/8/8/8/8/8/5RK1 b h - 1 1");
    // Rook already on d1, king on e1: castling queen side moves only the king.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/3RK3 w D - 0 1").unwrap();
    let castle = pos.parse_uci("e1d1").unwrap();
    assert!(castle.is_castling());
    assert_eq!(pos.play(castle).to_fen(), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
    // ... but not while the black rook on d8 attacks d1, which the king crosses.
    let pos = Position::from_fen("3rk3/8/8/8/8/8/8/3RK3 w D - 0 1").unwrap();
    assert!(pos.parse_uci("e1d1").is_err());
    // King b1, rook d1: the rook is on the king's h-side, so castling takes
    // the king to g1 and the rook to f1.
    let pos = Position::from_fen("1k5r/8/8/8/8/8/8/1K1R4 w Dh - 0 1").unwrap();
    let castle = pos.parse_uci("b1d1").unwrap();
    assert!(castle.is_castling());
    assert_eq!(pos.play(castle).to_fen(), "1k5r/8/8/8/8/8/8/5RK1 b h - 1 1");
    // A rook behind the castling rook on the back rank pins the king's
    // landing square: a1 rook, castling rook b1, king c1 -> king lands on c1
    // (stays) and the b1 rook goes to d1, opening a1-c1.
    let pos = Position::from_fen("7k/8/8/8/8/8/8/rRK5 w B - 0 1").unwrap();
    assert!(pos.legal_moves().iter().all(|m| !m.is_castling()), "{:?}", pos.legal_moves());
}

// ---- (b) perft == perft_full == perft_fast_parallel ----------------------------------

#[test]
fn bulk_full_and_parallel_perft_agree() {
    for (i, line) in common::all_suites().iter().enumerate().filter(|(i, _)| i % 8 == 0) {
        let pos = Position::from_fen(&line.fen).unwrap();
        for &(depth, expected) in line.counts.iter().filter(|(_, n)| *n <= 200_000) {
            let bulk = perft(&pos, depth);
            assert_eq!(bulk, expected, "perft {} depth {depth} (line {i})", line.fen);
            assert_eq!(perft_full(&pos, depth), bulk, "perft_full {} depth {depth}", line.fen);
            assert_eq!(perft_fast_parallel(&pos, depth, None), bulk, "perft_fast_parallel {} depth {depth}", line.fen);
            let split: u64 = divide(&pos, depth).iter().map(|(_, n)| n).sum();
            assert_eq!(split, bulk, "divide {} depth {depth}", line.fen);
        }
    }
    // The parallel split only kicks in from depth 4 on; check one deeper run.
    let kiwi = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    assert_eq!(perft_fast_parallel(&kiwi, 4, None), 4_085_603); // CPW Perft Results, position 2
    assert_eq!(perft(&Position::startpos(), 0), 1);
    assert_eq!(perft_fast_parallel(&Position::startpos(), 0, None), 1);
    assert_eq!(perft_full(&Position::startpos(), 0), 1);
}

// ---- (c) the suites at every depth up to a node cap ------------------------

/// Depths whose Stockfish count is at most this are replayed: 1873 of the
/// 1879 counts, 1.37e9 nodes in all, including the start position to depth 6
/// (119060324) and Kiwipete to depth 5 (193690690). Measured: about 10 s on
/// 2 cores with the test profile (opt-level 3).
const NODE_CAP: u64 = 200_000_000;

/// Replays every (line, depth) whose count is at most `cap`; returns the
/// mismatches and the number of counts checked.
fn replay(lines: &[SuiteLine], cap: u64) -> (Vec<String>, usize) {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    let checked = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(line) = lines.get(i) else { break };
                let pos = Position::from_fen(&line.fen).unwrap();
                for &(depth, expected) in line.counts.iter().filter(|(_, n)| *n <= cap) {
                    let got = perft(&pos, depth);
                    checked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if got != expected {
                        failures.lock().unwrap().push(format!(
                            "suites/{}:{}: {} depth {depth}: expected {expected}, got {got}",
                            line.file, line.line, line.fen
                        ));
                    }
                }
            });
        }
    });
    (failures.into_inner().unwrap(), checked.into_inner())
}

#[test]
fn suites_match_stockfish_up_to_the_node_cap() {
    let mut checked = 0;
    for name in common::SUITES {
        let lines = common::read_suite(name);
        let (failures, n) = replay(&lines, NODE_CAP);
        assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
        checked += n;
    }
    assert!(checked >= 1800, "only {checked} counts replayed");
}

#[test]
#[ignore = "deep: every count of every suite (billions of nodes)"]
fn suites_match_stockfish_at_every_depth() {
    for name in common::SUITES {
        let lines = common::read_suite(name);
        let (failures, _) = replay(&lines, u64::MAX);
        assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
    }
}

// ---- (d) UCI ------------------------------------------------------------------

#[test]
fn uci_castling_both_notations_in_standard_chess() {
    let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let short = pos.parse_uci("e1g1").unwrap();
    assert_eq!(pos.parse_uci("e1h1").unwrap(), short);
    assert!(short.is_castling());
    assert_eq!(short.to_uci(false), "e1g1");
    let long = pos.parse_uci("e1c1").unwrap();
    assert_eq!(pos.parse_uci("e1a1").unwrap(), long);
    assert_eq!(long.to_uci(false), "e1c1");
    assert_eq!(pos.play(short).to_fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    let black = pos.play(long);
    assert_eq!(black.parse_uci("e8h8").unwrap(), black.parse_uci("e8g8").unwrap());
    // d8 is attacked by the rook on d1: no long castling in either notation.
    assert!(black.parse_uci("e8c8").is_err() && black.parse_uci("e8a8").is_err());
    assert_eq!(black.play(black.parse_uci("e8g8").unwrap()).to_fen(), "r4rk1/8/8/8/8/8/8/2KR3R w - - 2 2");
    // Standard chess never prints king-takes-rook.
    let printed: BTreeSet<String> = pos.legal_moves().iter().map(|m| m.to_uci(pos.is_chess960())).collect();
    assert!(printed.contains("e1g1") && printed.contains("e1c1"));
    assert!(!printed.contains("e1h1") && !printed.contains("e1a1"));
}

#[test]
fn uci_chess960_output_is_king_takes_rook() {
    let pos = Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BN1KR w Hhf - 2 9").unwrap();
    assert!(pos.is_chess960());
    let printed: BTreeSet<String> = pos.legal_moves().iter().map(|m| m.to_uci(true)).collect();
    assert!(printed.contains("g1h1"), "{printed:?}");
    let castle = pos.parse_uci("g1h1").unwrap();
    assert!(castle.is_castling());
    assert_eq!(pos.play(castle).to_fen(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRK1 b hf - 3 9");
    // The suite's Chess960 positions print every castling move as king takes rook.
    for line in common::read_suite("chess960.epd") {
        let pos = Position::from_fen(&line.fen).unwrap();
        for m in pos.legal_moves().iter().filter(|m| m.is_castling()) {
            let uci = m.to_uci(pos.is_chess960());
            assert_eq!(&uci[2..4], m.to().to_string(), "{}", line.fen);
            assert_eq!(pos.role_at(m.to()), Some(Role::Rook));
            assert_eq!(pos.parse_uci(&uci).unwrap(), *m);
        }
    }
    // --chess960 on a standard FEN switches the notation.
    let mut pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    pos.set_chess960(true);
    let printed: BTreeSet<String> = pos.legal_moves().iter().map(|m| m.to_uci(pos.is_chess960())).collect();
    assert!(printed.contains("e1h1") && printed.contains("e1a1") && !printed.contains("e1g1"), "{printed:?}");
}

#[test]
fn uci_chess960_king_step_onto_the_castling_square_is_a_king_move() {
    // King f1, rook h1, g1 empty: f1g1 is the king's step, f1h1 castles.
    let pos = Position::from_fen("5k1r/8/8/8/8/8/8/5K1R w Hh - 0 1").unwrap();
    let step = pos.parse_uci("f1g1").unwrap();
    assert!(!step.is_castling());
    assert!(pos.parse_uci("f1h1").unwrap().is_castling());
}

#[test]
fn uci_promotion_letter_either_case() {
    let pos = Position::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    for (lower, upper, role) in [
        ("b7b8q", "b7b8Q", Role::Queen),
        ("b7b8r", "b7b8R", Role::Rook),
        ("b7b8b", "b7b8B", Role::Bishop),
        ("b7b8n", "b7b8N", Role::Knight),
    ] {
        let m = pos.parse_uci(lower).unwrap();
        assert_eq!(m.promotion_role(), Some(role));
        assert_eq!(pos.parse_uci(upper).unwrap(), m);
        assert_eq!(m.to_uci(false), lower);
    }
    // A promotion needs its letter, and a normal move must not have one.
    assert!(pos.parse_uci("b7b8").is_err());
    assert!(pos.parse_uci("e1e2q").is_err());
    assert!(pos.parse_uci("b7b8k").is_err());
    assert!(pos.parse_uci("b7b8p").is_err());
}

#[test]
fn uci_illegal_and_malformed_moves_are_errors() {
    let pos = Position::startpos();
    for bad in ["e2e5", "e1g1", "e7e5", "a1a1", "g1g3", "e1e2"] {
        let e = pos.parse_uci(bad).unwrap_err().to_string();
        assert!(e.contains(bad) && e.contains("not legal"), "{bad}: {e}");
        assert!(!e.contains('\n'));
    }
    for bad in ["", "e2", "e2e", "e2e4e4", "i2i4", "e9e4", "e2-e4", "éé", "e2e4€", "0000"] {
        let e = pos.parse_uci(bad).unwrap_err().to_string();
        assert!(!e.contains('\n'), "{bad}: {e}");
    }
    assert_eq!(
        pos.play_uci_moves(["e2e4", "e7e5", "g1f3"]).unwrap().to_fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    assert!(pos.play_uci_moves(["e2e4", "e2e4"]).is_err());
}

// ---- (e) Zobrist ----------------------------------------------------------------

#[test]
fn incremental_key_equals_key_from_scratch_after_every_suite_move() {
    for (ctx, pos) in suite_positions() {
        assert_eq!(pos.key(), pos.compute_key(), "{ctx}");
        for &m in pos.legal_moves().iter() {
            let child = pos.play(m);
            assert_eq!(child.key(), child.compute_key(), "{ctx} after {m:?}");
            for &m2 in child.legal_moves().iter() {
                let grandchild = child.play(m2);
                assert_eq!(grandchild.key(), grandchild.compute_key(), "{ctx} after {m:?} {m2:?}");
            }
        }
    }
}

#[test]
fn key_is_a_function_of_the_position() {
    // Transpositions reach the same key; castling rights, side to move and
    // e.p. squares change it.
    let start = Position::startpos();
    let back = start.play_uci_moves(["g1f3", "g8f6", "f3g1", "f6g8"]).unwrap();
    assert_eq!(back.key(), start.key());
    let a = start.play_uci_moves(["e2e4", "e7e5", "g1f3"]).unwrap();
    let b = start.play_uci_moves(["g1f3", "e7e5", "e2e4"]).unwrap();
    assert_eq!(a.key(), b.key());
    let rook_out_and_back = start.play_uci_moves(["g1f3", "g8f6", "h1g1", "h8g8", "g1h1", "g8h8"]).unwrap();
    assert_ne!(
        rook_out_and_back.key(),
        Position::from_fen("rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 6 4").unwrap().key()
    );
    assert_eq!(
        rook_out_and_back.key(),
        Position::from_fen("rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w Qq - 6 4").unwrap().key()
    );
    let w = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    let b = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 0 1").unwrap();
    assert_ne!(w.key(), b.key());
}
