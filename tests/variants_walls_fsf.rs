//! The walling built-ins (amazons, duck, snailtrail, joust, isolation,
//! isolation7x7) against Fairy-Stockfish: divides line for line, with
//! Fairy-Stockfish's `d1a1,a1b1` moves, from the start, from its own random
//! games (`tests/variants/walls_playouts.txt`, made by
//! `scripts/fsf_playouts.py amazons,duck,snailtrail,joust,isolation,isolation7x7 3 70 4849`),
//! from our playouts and from constructed positions, one or more per rule;
//! then the bad inputs: a walling move without its wall square, a move onto
//! a wall, a wall written wrongly in a FEN. Every count is Fairy-Stockfish's.

mod variants_support;
use assert_cmd::Command;
use predicates::prelude::*;
use variants_support::*;

/// The variants with the depth from their start (amazons' and duck's third
/// ply is 8.4e9 and 2.5e8 leaves: seconds to minutes for Fairy-Stockfish).
const VARIANTS: &[(&str, u32)] =
    &[("amazons", 2), ("duck", 2), ("snailtrail", 6), ("joust", 5), ("isolation", 3), ("isolation7x7", 3)];

/// The depth for a position of `name` from a playout.
fn playout_depth(name: &str) -> u32 {
    if matches!(name, "amazons" | "duck") {
        2
    } else {
        3
    }
}

#[test]
fn walling_variants_match_fairy_stockfish_from_the_start() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = from_the_start(&mut fsf, VARIANTS, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn walling_variants_match_fairy_stockfish_on_its_own_games() {
    let Some(mut fsf) = Fsf::start() else { return };
    let games = fsf_playouts("walls_playouts.txt");
    assert!(games.len() >= 60, "{} positions", games.len());
    let failures: Vec<String> =
        games.iter().filter_map(|(name, fen)| check(&mut fsf, name, fen, playout_depth(name)).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn walling_variants_match_fairy_stockfish_on_our_playouts() {
    let Some(mut fsf) = Fsf::start() else { return };
    let plan = Playouts { games: 2, plies: 80, seed: 4848, keep: |ply| ply % 10 == 9, depth: 2 };
    let failures = on_our_playouts(&mut fsf, VARIANTS, &plan, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Constructed positions, one or more per rule: (variant, FEN, depth, rule).
const RULES: &[Rule] = &[
    ("amazons", "9q/10/10/10/10/10/10/10/1q8/Q9 w - - 0 1", 2, "an arrow shot back through the square just left"),
    ("amazons", "9q/10/10/10/10/10/10/2*7/1q8/Q1*7 w - - 0 1", 2, "an arrow stops at a wall and at a piece"),
    ("amazons", "9q/10/10/10/10/10/10/10/**8/Q*8 w - - 0 1", 1, "a queen walled in has no move: the mover loses"),
    ("amazons", "9q/10/10/10/10/10/10/10/**8/Q*7Q w - - 0 1", 2, "a walled-in queen beside a free one"),
    ("duck", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", 2, "the duck placed after a capture (on the square left)"),
    ("duck", "4k3/8/8/8/4*3/8/4P3/4K3 w - - 0 1", 2, "the duck blocks a pawn's double step and must move"),
    ("duck", "rnbqkbnr/pppppppp/8/8/4*3/2*5/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 2, "two ducks in the FEN: both lifted"),
    ("duck", "4k3/p7/8/8/8/8/8/4R1K1 w - - 0 1", 2, "the king captured ends the game (no check)"),
    ("duck", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 2, "castling, the duck anywhere but on the king's path"),
    ("duck", "r3k2r/8/8/8/8/8/8/R3K*1R w KQkq - 0 1", 2, "the duck in the castling path"),
    ("duck", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", 2, "en passant, the duck on the square of the captured pawn"),
    ("duck", "r3k3/1P6/8/8/8/8/8/4K2R w Kq - 0 1", 2, "promotions, each with every duck square"),
    ("duck", "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", 3, "a double step with the duck on the square passed: no e.p."),
    ("duck", "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1", 2, "stalemate is no game end: a king in check may stay"),
    ("snailtrail", "6p/7/7/7/7/**5/P*5 w - - 0 1", 1, "a snail boxed in by its trail has no move"),
    ("snailtrail", "6p/7/7/2*4/1*P*3/2*4/7 w - - 0 1", 4, "a trail blocking the straight steps"),
    ("joust", "8/8/8/4n3/3N4/8/2*5/8 w - - 0 1", 4, "a knight's trail: the square left is walled"),
    ("isolation", "3p2/6/6/6/6/6/**4/2P**1 w - - 0 1", 2, "isolation's removed squares block the king step"),
    ("isolation", "6/6/6/6/6/6/2p3/2P3 w - - 0 1", 2, "isolation: c1 and d8 never become walls"),
    ("isolation7x7", "7/7/7/7/7/2***2/2*P*2 w - - 0 1", 1, "isolation7x7: a piece boxed in loses"),
    ("isolation7x7", "3p3/7/7/7/7/7/3P3 b - - 0 1", 2, "isolation7x7 with black to move"),
];

#[test]
fn constructed_walling_positions_match_fairy_stockfish() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = on_rules(&mut fsf, RULES, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn chesstool() -> Command {
    Command::cargo_bin("chesstool").expect("binary")
}

/// One line on stderr, exit 2, naming what is wrong.
fn refused(args: &[&str], says: &str) {
    chesstool()
        .args(args)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(says).and(predicate::str::contains("\n").count(1)));
}

#[test]
fn a_walling_move_without_its_wall_square_or_onto_a_wall_is_refused() {
    let perft = ["perft", "--variant", "amazons", "--depth", "1"];
    refused(&[&perft[..], &["--moves", "d1a1"]].concat(), "\"d1a1\" has no wall square");
    refused(&[&perft[..], &["--moves", "d1a1,b1c1"]].concat(), "the part after the comma must be the destination");
    refused(&[&perft[..], &["--moves", "d1a1,a1z9"]].concat(), "the part after the comma");
    let walled = "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q*1Q3 w - - 0 1";
    refused(&[&perft[..], &["--fen", walled, "--moves", "d1e1,e1e2"]].concat(), "goes onto e1, a wall");
    refused(&[&perft[..], &["--fen", walled, "--moves", "d1c1,c1e1"]].concat(), "goes onto e1, a wall");
    // Well formed but not legal: the arrow crosses the queen on g1.
    refused(&[&perft[..], &["--moves", "d1e1,e1h1"]].concat(), "not legal");
}

#[test]
fn walls_written_wrongly_in_a_fen_name_the_rank() {
    for (name, fen, says) in [
        ("amazons", "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q*Q3 w - - 0 1", "rank 1 has 9 squares, expected 10"),
        ("amazons", "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q**Q4 w - - 0 1", "rank 1 has 11 squares"),
        ("duck", "rnbqkbnr/pppppppp/8/8/4*4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 4 has 9 squares"),
        ("duck", "rnbqkbnr/pppppppp/8/8/4^3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 4"),
        ("isolation", "3p2/6/6/6/6/6/6/2P2k w - - 0 1", "rank 1: 'k' is not a piece of isolation"),
    ] {
        refused(&["perft", "--variant", name, "--depth", "1", "--fen", fen], says);
    }
}

#[test]
fn a_pasted_divide_with_a_walling_move_lacking_its_wall_names_the_line() {
    let dir = std::env::temp_dir().join(format!("chesstool-walls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let paste = dir.join("divide.txt");
    std::fs::write(&paste, "d1a1,a1b1: 1\nd1a1: 1\n").unwrap();
    let against = ["divide", "--variant", "amazons", "--depth", "1", "--against", paste.to_str().unwrap()];
    refused(&against, "line 2");
    refused(&against, "\"d1a1\" has no wall square");
    // The same move twice is a fact about the engine: a witness, exit 1.
    std::fs::write(&paste, "d1a1,a1b1: 1\nd1a1,a1b1: 1\n").unwrap();
    chesstool().args(against).assert().code(1).stdout(predicate::str::contains("d1a1,a1b1 (listed twice)"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn divide_prints_the_wall_square_and_the_hunt_finds_a_missing_wall() {
    let out = chesstool().args(["divide", "--variant", "amazons", "--depth", "1"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(text.lines().filter(|l| l.contains(',') && l.ends_with(": 1")).count(), 2176);
    assert!(text.contains("d1a1,a1b1: 1"), "{text}");
    // A divide that misses the arrows shot back to d1: named as arrows.
    let dir = std::env::temp_dir().join(format!("chesstool-walls-hunt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let paste = dir.join("divide.txt");
    let lines: Vec<&str> = text.lines().filter(|l| l.contains(',') && !l.ends_with("d1: 1")).collect();
    std::fs::write(&paste, lines.join("\n")).unwrap();
    chesstool()
        .args(["divide", "--variant", "amazons", "--depth", "1", "--against", paste.to_str().unwrap()])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("d1a1,a1d1").and(predicate::str::contains("an arrow shot from a1 to d1")));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fuzz_bench_and_suite_run_a_walling_variant_against_fairy_stockfish() {
    let Some(fsf) = fairy_stockfish() else { return };
    let fsf = fsf.to_str().unwrap();
    for name in ["snailtrail", "isolation7x7"] {
        fuzz_and_bench_agree(fsf, name, 30);
    }
}
