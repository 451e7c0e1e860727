//! Seirawan gating (seirawan, shouse) and dragon's back-rank drops against Fairy-Stockfish: divides line
//! for line from the start, from our playouts and from constructed
//! positions (gating on castling onto the king's and the rook's square,
//! gating after the last piece left the hand, a pinned piece's gate), and
//! the castling field's gates written as Fairy-Stockfish writes them.
//! Every count is Fairy-Stockfish's.

mod variants_support;
use assert_cmd::Command;
use chesstool::rules::Rules;
use chesstool::variants::hunt::VariantRules;
use chesstool::variants::variant::builtin;
use predicates::prelude::*;
use variants_support::*;

/// The gating variants chesstool runs, with the depth from their start.
const VARIANTS: &[(&str, u32)] = &[("seirawan", 3), ("shouse", 3), ("dragon", 3)];

#[test]
fn gating_variants_match_fairy_stockfish_from_the_start() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = from_the_start(&mut fsf, VARIANTS, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn gating_variants_match_fairy_stockfish_on_our_playouts() {
    let Some(mut fsf) = Fsf::start() else { return };
    // Early positions keep most gates; later ones have emptied hands.
    let plan = Playouts { games: 4, plies: 80, seed: 4700, keep: |ply| ply % 7 == 3, depth: 2 };
    let failures = on_our_playouts(&mut fsf, VARIANTS, &plan, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Constructed positions, one or more per rule: (variant, FEN, depth, rule).
const RULES: &[Rule] = &[
    (
        "seirawan",
        "r3k2r/8/8/8/8/8/8/R3K2R[HEhe] w KQkq - 0 1",
        3,
        "castling gates onto the king's or the rook's square",
    ),
    ("seirawan", "r3k2r/8/8/8/8/8/8/R3K2R[H] w KQkq - 0 1", 3, "gating the last piece: the gates close"),
    ("seirawan", "r3k2r/8/8/8/8/8/8/R3K2R[e] b KQkq - 0 1", 3, "Black's one piece, castling both ways"),
    ("seirawan", "4k3/8/8/8/8/8/8/4KB1r[H] w F - 0 1", 3, "a pinned bishop does not gate (Fairy-Stockfish's legal)"),
    ("seirawan", "4k3/8/8/8/8/8/8/r3K3[H] w E - 0 1", 3, "a king in check gates as it steps away"),
    ("seirawan", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", 2, "empty hands: no gates"),
    (
        "seirawan",
        "r3k2r/1P6/8/8/8/8/8/R3K2R[HEhe] w KQBCDFGkqbcdfg - 0 1",
        2,
        "promotions to the hawk and elephant, a gate captured",
    ),
    ("shouse", "r3k2r/8/8/3p4/4P3/8/8/R3K2R[HEhe] w KQkq - 0 1", 2, "drops and gates, a capture into the hand"),
    ("shouse", "r3k2r/8/8/8/8/8/8/R3K2R[PH] w KQkq - 0 1", 3, "a pawn in hand is not gated on the first rank"),
    (
        "dragon",
        "r3k2r/1P6/8/8/8/8/8/R3K2R[Dd] w KQkq - 0 1",
        3,
        "dragon: drops on the back rank, promotion to the dragon",
    ),
    ("dragon", "4k3/8/8/8/8/8/8/r3K3[D] w - - 0 1", 3, "dragon: a drop on the back rank blocks a check"),
];

#[test]
fn constructed_gating_positions_match_fairy_stockfish() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = on_rules(&mut fsf, RULES, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn gates_are_written_as_fairy_stockfish_writes_them() {
    let Some(mut fsf) = Fsf::start() else { return };
    let mut positions: Vec<(String, String)> =
        RULES.iter().map(|&(v, f, _, _)| (v.to_string(), f.to_string())).collect();
    for &(name, _) in VARIANTS {
        let variant = builtin::load(name).unwrap();
        positions.push((name.to_string(), variant.start_fen.clone()));
        let keep = |_: &_, _: &mut _, ply: usize| ply % 9 == 4;
        positions.extend(playout_positions(&variant, 2, 40, 99, keep).into_iter().map(|f| (name.to_string(), f)));
    }
    // Gating moves and castling first: they change the gates.
    fens_match_after_moves(&mut fsf, &positions, 16, |pos, m| {
        (m.gate == 0, m.from != m.to && pos.cells[m.to as usize] == 0)
    });
}

#[test]
fn the_hunt_reads_gating_moves() {
    let variant = builtin::load("seirawan").unwrap();
    let rules = VariantRules::new(variant, "seirawan");
    let pos = rules.parse_position("r3k2r/8/8/8/8/8/8/R3K2R[HEhe] w KQkq - 0 1").unwrap();
    for text in ["e1g1h", "h1e1e", "a1e1h", "e1c1e", "a1a5h", "e1e2"] {
        let mv = rules.read_move(&pos, text).unwrap_or_else(|_| panic!("{text} is legal"));
        assert_eq!(rules.move_text(&pos, mv), text);
    }
    for text in ["e1g1q", "b1c3e", "h1g1z"] {
        assert!(rules.read_move(&pos, text).is_err(), "{text}");
        let _ = rules.extra_hint(&pos, text);
    }
    let next = rules.play(&pos, rules.read_move(&pos, "h1e1h").unwrap());
    // Fairy-Stockfish's `d` after h1e1h (the clocks aside: ours are not kept).
    let text = rules.position_text(&next);
    assert_eq!(text.rsplitn(3, ' ').nth(2), Some("r3k2r/8/8/8/8/8/8/R4RKH[Eeh] b Akq -"));
}

#[test]
fn divide_against_fairy_stockfish_accepts_seirawan() {
    let Some(fsf) = fairy_stockfish() else {
        assert!(std::env::var_os("CI").is_none(), "Fairy-Stockfish is not built");
        return;
    };
    Command::cargo_bin("chesstool")
        .expect("binary")
        .args(["divide", "--variant", "seirawan", "--depth", "3"])
        .args(["--engine-uci", fsf.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("match at depth 3"));
}
