//! The Janggi family (janggi, janggicasual, janggimodern,
//! janggitraditional) and supply (xiangqi with drops) against
//! Fairy-Stockfish: divides line for line from the start, from its own
//! random games (`tests/variants/janggi_playouts.txt`, made by
//! `scripts/fsf_playouts.py janggi,janggicasual,janggimodern,janggitraditional,supply 3 50 4848`,
//! 14 positions per variant), from our playouts and from constructed
//! positions, one or more per rule. Every count is Fairy-Stockfish's.

mod variants_support;
use assert_cmd::Command;
use predicates::prelude::*;
use variants_support::*;

/// The variants with the depth from their start (depth 4 of janggi
/// reaches bikjang: the e-file opens after two soldier steps).
const VARIANTS: &[(&str, u32)] =
    &[("janggi", 4), ("janggicasual", 4), ("janggimodern", 3), ("janggitraditional", 3), ("supply", 3)];

#[test]
fn janggi_variants_match_fairy_stockfish_from_the_start() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = from_the_start(&mut fsf, VARIANTS, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn janggi_variants_match_fairy_stockfish_on_its_own_games() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = on_fsf_playouts(&mut fsf, "janggi_playouts.txt", 3, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn janggi_variants_match_fairy_stockfish_on_our_playouts() {
    let Some(mut fsf) = Fsf::start() else { return };
    let plan = Playouts { games: 3, plies: 100, seed: 4848, keep: |ply| ply % 10 == 9, depth: 2 };
    let failures = on_our_playouts(&mut fsf, VARIANTS, &plan, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Constructed positions, one or more per rule: (variant, FEN, depth, rule).
const RULES: &[Rule] = &[
    (
        "janggi",
        "4k4/9/9/9/9/9/9/9/5K3/3R5 w - - 0 1",
        3,
        "palace diagonal: the chariot on d1 slides to f3 over an empty e2",
    ),
    ("janggi", "4k4/9/9/9/9/9/9/9/4P4/3R1K3 w - - 0 1", 2, "palace diagonal: the chariot on d1 is blocked at e2"),
    (
        "janggi",
        "3k5/9/9/9/9/9/3r5/9/9/4K4 b - - 0 1",
        2,
        "palace diagonal: a black chariot outside the palace has no diagonal",
    ),
    (
        "janggi",
        "3k5/9/9/9/9/9/9/5r3/9/4K4 w - - 0 1",
        2,
        "palace diagonal: a chariot on f3 checks the king on d1? no: the king on e1 is not on its line",
    ),
    (
        "janggi",
        "3k5/9/9/9/9/9/9/5r3/9/3K5 w - - 0 1",
        2,
        "palace diagonal: a chariot on f3 checks the king on d1 along the line",
    ),
    (
        "janggi",
        "3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1",
        2,
        "palace diagonal: guards step along the lines from e2, not from d1's neighbour e1",
    ),
    (
        "janggi",
        "9/4P4/3k5/9/9/9/9/9/9/4K4 w - - 0 1",
        2,
        "palace diagonal: a soldier on e9 steps forward to d10 and f10",
    ),
    (
        "janggi",
        "4k4/3P5/9/9/9/9/9/9/9/4K4 w - - 0 1",
        2,
        "palace diagonal: a soldier on d9 has no diagonal (not on the lines)",
    ),
    ("janggi", "5k3/9/9/9/9/9/9/5N3/4P4/3C1K3 w - - 0 1", 2, "palace diagonal: the cannon on d1 hops e2 to f3"),
    (
        "janggi",
        "5k3/9/9/9/9/9/9/5n3/4C4/3C1K3 w - - 0 1",
        2,
        "palace diagonal: the cannon on d1 may not hop the cannon on e2",
    ),
    (
        "janggi",
        "4k4/9/9/9/9/9/9/5c3/4P4/3CK4 w - - 0 1",
        2,
        "palace diagonal: the cannon on d1 may not take the cannon on f3",
    ),
    ("janggi", "3k5/9/9/9/9/9/9/9/9/C1C1RK3 w - - 0 1", 2, "cannon over a cannon refused"),
    ("janggi", "4k4/9/9/9/c8/9/9/9/P8/C3K4 w - - 0 1", 2, "a cannon may not take a cannon"),
    ("janggi", "4k4/9/9/9/r8/9/9/9/P8/C3K4 w - - 0 1", 2, "a cannon screen: over the soldier to take the chariot"),
    ("janggi", "4k4/4p4/9/9/9/9/9/9/9/4CK3 b - - 0 1", 2, "a cannon checks over one screen"),
    ("janggi", "4k4/4c4/9/9/9/9/9/9/9/4CK3 b - - 0 1", 2, "a cannon does not check over a cannon"),
    ("janggi", "4k4/9/9/9/9/9/9/2p6/2N6/5K3 w - - 0 1", 2, "a horse blocked at its leg"),
    ("janggi", "4k4/9/9/9/9/9/9/9/2p6/2B2K3 w - - 0 1", 2, "an elephant blocked at its first cell"),
    ("janggi", "4k4/9/9/9/9/9/3p5/9/2B6/5K3 w - - 0 1", 2, "an elephant blocked at its second cell"),
    ("janggi", "4k4/9/9/9/9/9/9/9/9/4K3r w - - 0 1", 2, "a pass in check is refused"),
    ("janggi", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", 3, "bikjang: only the pass keeps the facing, and ends the game"),
    ("janggi", "4k4/9/9/9/9/9/9/9/9/4K3r w - - 0 1", 3, "bikjang: the pass is legal even in check"),
    (
        "janggicasual",
        "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        3,
        "janggicasual: no bikjang, facing generals are a plain position",
    ),
    ("janggimodern", "4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1", 3, "janggimodern: the soldier may leave the file"),
    (
        "janggitraditional",
        "4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1",
        3,
        "janggitraditional: the soldier stepping off the file makes bikjang",
    ),
    ("janggi", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", 4, "two passes end the game"),
    ("supply", "4k4/9/9/9/9/9/9/9/9/3K5[R] w - - 0 1", 2, "supply: no drop may give check"),
    ("supply", "4k4/9/9/9/9/9/9/9/9/3K5[pba] b - - 0 1", 2, "supply: bound pieces drop where they could stand"),
    ("supply", "3k5/9/9/9/9/9/9/9/9/3CK4[P] w - - 0 1", 2, "supply: a drop that screens a cannon's check is refused"),
    (
        "supply",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB1R[NABP] w - - 0 1",
        2,
        "supply: drops of every kind with the start position",
    ),
];

#[test]
fn constructed_janggi_positions_match_fairy_stockfish() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = on_rules(&mut fsf, RULES, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Bad input: a one-line error naming what is wrong, exit 2.
#[test]
fn bad_janggi_input_is_one_line_and_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["perft", "--variant", "janggi", "--depth", "1", "--fen", "4k4/9/9/9/4K4/9/9/9/9/9 w - - 0 1"],
            "the white king on e6 is outside its region (mobilityRegionWhiteKing)",
        ),
        (
            &["perft", "--variant", "janggi", "--depth", "1", "--fen", "4k4/9/9/9/9/9/9/9/9/A3K4 w - - 0 1"],
            "the white wazir on a1 is outside its region (mobilityRegionWhiteWazir)",
        ),
        (&["perft", "--variant", "janggi", "--depth", "1", "--fen", "4k4/9/9/9/9/9/9/9/9/4K5 w - - 0 1"], "rank 1"),
        (&["perft", "--variant", "supply", "--depth", "1", "--fen", "4k4/9/9/9/9/9/9/9/9/4K4[X] w - - 0 1"], "hand"),
        (&["perft", "--variant", "janggi", "--depth", "1", "--moves", "e2e2", "z9z9"], "move 2 \"z9z9\""),
    ];
    for (args, says) in cases {
        Command::cargo_bin("chesstool")
            .unwrap()
            .args(*args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(*says).and(predicate::str::contains("\n").count(1)));
    }
    // A pasted divide with a pass that is no move: well formed (two squares
    // and a letter), so an extra move of the engine's, a finding (exit 1).
    let path = std::env::temp_dir().join(format!("chesstool-janggi-{}.txt", std::process::id()));
    std::fs::write(&path, "a1a2: 5\ne2e2e: 3\n").unwrap();
    Command::cargo_bin("chesstool")
        .unwrap()
        .args(["divide", "--variant", "janggi", "--depth", "2", "--against", path.to_str().unwrap()])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("e2e2e").and(predicate::str::contains("extra")));
    let _ = std::fs::remove_file(&path);
}

/// A fuzz root kept from an earlier game is the position as the engine is
/// sent it: seed 4848 once reused a position right after a pass with its
/// pass remembered, so the next pass "ended the game" for us alone.
#[test]
fn fuzz_roots_forget_the_pass_a_fen_cannot_carry() {
    let Some(fsf) = fairy_stockfish() else { return };
    Command::cargo_bin("chesstool")
        .unwrap()
        .args(["fuzz", "--variant", "janggi", "--seed", "4848", "--depth", "1", "--positions", "10000", "--quiet"])
        .args(["--engine-uci", fsf.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("no difference in 10000 positions"));
}
