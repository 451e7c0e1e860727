//! The Xiangqi family (xiangqi, minixiangqi, manchu) against
//! Fairy-Stockfish: divides line for line from the start, from its own
//! random games (`tests/variants/xiangqi_playouts.txt`, made by
//! `scripts/fsf_playouts.py xiangqi,minixiangqi,manchu 6 90 4848`, 18
//! distinct positions per variant), from our playouts and from constructed
//! positions, one or more per rule. Every count is Fairy-Stockfish's.

mod variants_support;
use assert_cmd::Command;
use predicates::prelude::*;
use variants_support::*;

/// The variants with the depth from their start.
const VARIANTS: &[(&str, u32)] = &[("xiangqi", 3), ("minixiangqi", 4), ("manchu", 4)];

#[test]
fn xiangqi_variants_match_fairy_stockfish_from_the_start() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = from_the_start(&mut fsf, VARIANTS, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn xiangqi_variants_match_fairy_stockfish_on_its_own_games() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = on_fsf_playouts(&mut fsf, "xiangqi_playouts.txt", 3, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn xiangqi_variants_match_fairy_stockfish_on_our_playouts() {
    let Some(mut fsf) = Fsf::start() else { return };
    let plan = Playouts { games: 3, plies: 100, seed: 480, keep: |ply| ply % 10 == 9, depth: 2 };
    let failures = on_our_playouts(&mut fsf, VARIANTS, &plan, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Constructed positions, one or more per rule: (variant, FEN, depth, rule).
const RULES: &[Rule] = &[
    ("xiangqi", "4k4/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1", 3, "flying general: the horse between the generals is pinned"),
    ("xiangqi", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", 2, "flying general: no king step onto the open d-file"),
    ("xiangqi", "3k5/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1", 3, "flying general: black may not step onto the e-file"),
    ("xiangqi", "4k4/9/4r4/9/9/4P4/9/4C4/9/3K5 w - - 0 1", 2, "a cannon takes across the river over one screen"),
    ("xiangqi", "4k4/4a4/9/9/9/9/9/4C4/9/3K5 b - - 0 1", 2, "a cannon checks over a screen: moving it answers"),
    ("xiangqi", "4k4/9/9/9/9/9/4p4/4N4/9/3K5 w - - 0 1", 2, "a horse blocked at its leg"),
    ("xiangqi", "4k4/9/9/9/9/9/3p5/4B4/9/3K5 w - - 0 1", 2, "an elephant blocked at its eye"),
    ("xiangqi", "4k4/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1", 2, "an elephant does not cross the river"),
    ("xiangqi", "4k4/9/9/9/2P6/9/4P4/9/9/3K5 w - - 0 1", 2, "soldiers: forward before the river, sideways after"),
    ("xiangqi", "3k5/9/9/4p4/9/2p6/9/9/9/4K4 b - - 0 1", 2, "black soldiers before and after the river"),
    ("xiangqi", "3k2P2/9/9/9/9/9/9/9/9/4K4 w - - 0 1", 2, "a soldier on the last rank steps sideways only"),
    ("xiangqi", "5k3/9/9/9/9/9/9/3A5/9/4K4 w - - 0 1", 2, "an advisor stays in the palace"),
    ("xiangqi", "4k4/9/9/9/9/9/9/3K5/9/9 w - - 0 1", 2, "the general stays in the palace"),
    ("manchu", "4k4/9/9/9/9/9/9/9/9/M2K5 w - - 0 1", 2, "manchu: the banner moves as rook, cannon and horse"),
    ("minixiangqi", "3k3/7/7/7/7/3P3/2K4 w - - 0 1", 2, "minixiangqi: soldiers step sideways from the start"),
    ("minixiangqi", "3k3/7/7/3N3/7/7/3K3 w - - 0 1", 3, "minixiangqi: the flying general pins"),
    ("minixiangqi", "2k4/7/7/7/7/p6/3K3 b - - 0 1", 3, "minixiangqi: the palace is c1-e3 and c5-e7"),
];

#[test]
fn constructed_xiangqi_positions_match_fairy_stockfish() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = on_rules(&mut fsf, RULES, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Fairy-Stockfish reads both FENs (and counts moves from them); they are
/// not Xiangqi positions, and chesstool refuses them (docs/variants.md).
#[test]
fn a_general_outside_the_palace_or_facing_the_other_is_refused() {
    for (fen, says) in [
        ("4k4/9/9/9/4K4/9/9/9/9/9 w - - 0 1", "the white king on e6 is outside its region (mobilityRegionWhiteKing)"),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "the generals face each other on the e-file (flyingGeneral)"),
        ("4k4/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1", ""),
        ("4k4/9/9/9/9/9/9/9/9/3KB4 w - - 0 1", ""),
        ("2Bk5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "the white elephant on c10 is outside its region"),
    ] {
        let run = Command::cargo_bin("chesstool")
            .unwrap()
            .args(["perft", "--variant", "xiangqi", "--fen", fen, "--depth", "1"])
            .assert();
        if says.is_empty() {
            run.success();
        } else {
            run.code(2).stderr(predicate::str::contains(says).and(predicate::str::contains("\n").count(1)));
        }
    }
}
