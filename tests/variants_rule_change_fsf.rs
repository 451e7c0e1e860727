//! A rule changed in a `variants.ini` section, against Fairy-Stockfish:
//! with the same file the engine matches; an engine that plays the
//! built-in's rule instead (`tests/tools/variant_path_swap.py`) is caught by
//! `divide --bisect` and by `fuzz`, down to one position whose hint names
//! the rule. The counts compared are Fairy-Stockfish's own.

mod variants_support;
use assert_cmd::Command;
use predicates::prelude::*;
use variants_support::fairy_stockfish;

const OURS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/variants/rule_change.ini");
const THEIRS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/variants/rule_change_engine.ini");
const SWAP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tools/variant_path_swap.py");

/// `chesstool ARGS --variant NAME --variant-path rule_change.ini --engine-uci
/// ENGINE`, where ENGINE reads the built-in's rules when `swapped`.
fn against(fsf: &std::path::Path, swapped: bool, variant: &str, args: &[&str]) -> assert_cmd::assert::Assert {
    let engine = if swapped { format!("python3 {SWAP} {} {THEIRS}", fsf.display()) } else { fsf.display().to_string() };
    Command::cargo_bin("chesstool")
        .unwrap()
        .args(args)
        .args(["--variant", variant, "--variant-path", OURS, "--engine-uci", &engine, "--quiet"])
        .assert()
}

/// `divide --bisect` at `depth`: a match with the same rules, and with the
/// engine's own the first wrong position and the hint `why`.
fn bisected(variant: &str, depth: &str, position: &str, why: &str) {
    let Some(fsf) = fairy_stockfish() else { return };
    let divide = ["divide", "--depth", depth, "--bisect"];
    against(&fsf, false, variant, &divide)
        .success()
        .stdout(predicate::str::contains(format!("match at depth {depth}")));
    against(&fsf, true, variant, &divide)
        .code(1)
        .stdout(predicate::str::contains(format!("position: {position}")).and(predicate::str::contains(why)));
}

#[test]
fn facing_generals_allowed_in_a_xiangqi_section() {
    bisected(
        "xq",
        "5",
        "rnb1kabnr/4a4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4A4/RNBK1ABNR b - - 0 1",
        "missing:  e10d10 (after it the generals face each other on the d-file, which this variant allows",
    );
}

#[test]
fn janggi_without_bikjang() {
    bisected(
        "jg",
        "3",
        "rnba1abnr/9/1c1k3c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/3K5/RNBA1ABNR w - - 0 1",
        "this variant has no bikjang (bikjangRule = false)",
    );
}

#[test]
fn amazons_leaving_a_wall_behind_against_an_arrow_shooting_engine() {
    // The engine lists 2176 arrow moves where we have 80: a mismatch to
    // show, not an answer too long to read.
    bisected(
        "amz",
        "2",
        "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3 w - - 0 1",
        "a4a1,a1a2 (the wall goes on the square left (a4), not on a2)",
    );
}

#[test]
fn a_duck_kept_on_its_owners_half() {
    bisected(
        "dk",
        "2",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "a2a3,a3a5 (no wall may go on a5 (wallingRegion))",
    );
}

#[test]
fn fuzz_finds_the_changed_rules_too() {
    let Some(fsf) = fairy_stockfish() else { return };
    for (variant, why) in [("xq", "generals face each other"), ("dk", "no wall may go on")] {
        let fuzz = ["fuzz", "--seed", "7", "--depth", "1", "--positions", "3000"];
        against(&fsf, false, variant, &["fuzz", "--seed", "7", "--depth", "1", "--positions", "200"]).success();
        against(&fsf, true, variant, &fuzz).code(1).stdout(predicate::str::contains(why));
    }
}

/// A variant run looks at its rules' motif cases first: an engine that
/// drops a second pawn on a file is caught within the first five positions
/// (the `drop` case's line), at any seed.
#[test]
fn fuzz_looks_at_the_variants_drop_cases_first() {
    let Some(fsf) = fairy_stockfish() else { return };
    for seed in ["1", "2", "3"] {
        let fuzz = ["fuzz", "--seed", seed, "--depth", "1", "--positions", "5"];
        against(&fsf, false, "sg", &fuzz).success();
        against(&fsf, true, "sg", &fuzz).code(1).stdout(predicate::str::contains("a second unpromoted pawn on the"));
    }
}
