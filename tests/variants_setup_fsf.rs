//! Set-up phases played with drops (placement) against Fairy-Stockfish:
//! divides line for line from the start, from our playouts (through the
//! set-up into the game) and from constructed positions (bishops on
//! opposite colours, must-drop in and out of check, no drop left, castling
//! rights gained by a dropped king or rook), and the FEN written as
//! Fairy-Stockfish writes it. Every count is Fairy-Stockfish's.

mod variants_support;
use assert_cmd::Command;
use chesstool::variants::variant::builtin;
use predicates::prelude::*;
use variants_support::*;

/// The set-up variants chesstool runs, with the depth from their start.
const VARIANTS: &[(&str, u32)] = &[("placement", 3), ("koedem", 3)];

#[test]
fn setup_variants_match_fairy_stockfish_from_the_start() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = from_the_start(&mut fsf, VARIANTS, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn setup_variants_match_fairy_stockfish_on_our_playouts() {
    let Some(mut fsf) = Fsf::start() else { return };
    // Through the set-up (the first plies) into the game.
    let plan = Playouts { games: 6, plies: 70, seed: 5100, keep: |ply| ply % 5 == 2, depth: 3 };
    let failures = on_our_playouts(&mut fsf, VARIANTS, &plan, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Constructed positions, one or more per rule: (variant, FEN, depth, rule).
const RULES: &[Rule] = &[
    (
        "placement",
        "8/pppppppp/8/8/8/8/PPPPPPPP/1B6[KQRRBNNkqrrbbnn] w - - 0 1",
        3,
        "the second bishop goes on the other colour",
    ),
    (
        "placement",
        "8/pppppppp/8/8/8/8/PPPPPPPP/RNQ1K1NR[BBkqrrbbnn] w - - 0 1",
        3,
        "two bishops in hand, two light squares left: one bishop drops, then pieces move",
    ),
    (
        "placement",
        "8/pppppppp/8/8/8/8/PPPPPPPP/RQ1K2NR[BBNkqrrbbnn] w - - 0 1",
        3,
        "a knight may not take the last square of a colour the bishops need",
    ),
    ("placement", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R6R[K] w - - 0 1", 3, "a king dropped on e1 gains castling"),
    ("placement", "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K2R[R] w - - 0 1", 3, "a rook dropped in the corner beside the king"),
    ("placement", "4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1", 3, "in check: a drop that blocks is compulsory"),
    ("placement", "4k3/8/8/8/8/8/4r3/4K3[N] w - - 0 1", 3, "in check, no drop helps: the king moves"),
    (
        "placement",
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[N] w - - 0 1",
        3,
        "a piece in hand with no empty square: pieces move",
    ),
    (
        "koedem",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR[KN] w kq - 0 1",
        3,
        "a king in hand must be dropped, not the knight",
    ),
    (
        "koedem",
        "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Q] w KQ - 0 1",
        2,
        "without a king in hand, drops are free",
    ),
    (
        "koedem",
        "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Kk] b KQ - 0 1",
        2,
        "both sides hold a king in hand: Black must drop its own",
    ),
    (
        "koedem",
        "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[K] b KQ - 0 1",
        2,
        "Black has no king; White has both: the game is over",
    ),
    ("koedem", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", 3, "the kings castle as commoners"),
];

#[test]
fn constructed_setup_positions_match_fairy_stockfish() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = on_rules(&mut fsf, RULES, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn setup_fens_are_written_as_fairy_stockfish_writes_them() {
    let Some(mut fsf) = Fsf::start() else { return };
    let mut positions: Vec<(String, String)> =
        RULES.iter().map(|&(v, f, _, _)| (v.to_string(), f.to_string())).collect();
    for &(name, _) in VARIANTS {
        let variant = builtin::load(name).unwrap();
        positions.push((name.to_string(), variant.start_fen.clone()));
        let keep = |_: &_, _: &mut _, ply: usize| ply % 4 == 1;
        positions.extend(playout_positions(&variant, 2, 40, 77, keep).into_iter().map(|f| (name.to_string(), f)));
    }
    fens_match_after_moves(&mut fsf, &positions, 24, |_, _| ());
}

#[test]
fn divide_against_fairy_stockfish_accepts_placement() {
    let Some(fsf) = fairy_stockfish() else {
        assert!(std::env::var_os("CI").is_none(), "Fairy-Stockfish is not built");
        return;
    };
    Command::cargo_bin("chesstool")
        .expect("binary")
        .args(["divide", "--variant", "placement", "--depth", "3"])
        .args(["--engine-uci", fsf.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("match at depth 3"));
}

#[test]
fn fuzz_bench_and_suite_run_the_setup_variants_against_fairy_stockfish() {
    let Some(fsf) = fairy_stockfish() else { return };
    let fsf = fsf.to_str().unwrap();
    for &(name, _) in VARIANTS {
        let out = Command::cargo_bin("chesstool")
            .unwrap()
            .args(["fuzz", "--variant", name, "--engine-uci", fsf, "--positions", "60", "--seed", "3", "--json"])
            .timeout(std::time::Duration::from_secs(300))
            .assert()
            .success();
        let j: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        assert_eq!(j["status"], "ok", "{name}: {j}");
        let out = Command::cargo_bin("chesstool")
            .unwrap()
            .args(["bench", "--variant", name, "--depth", "3", "--runs", "1", "--min-time", "0", "--threads", "1"])
            .args(["--json", "--against-uci", fsf])
            .assert()
            .success();
        let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        assert_eq!(doc["status"], "ok", "{name}: {doc}");
        assert_eq!(doc["rows"][0]["nodes"], doc["rows"][0]["engine_nodes"], "{name}: {doc}");
        // A suite line with Fairy-Stockfish's counts passes, a wrong count fails.
        let mut engine = Fsf::start().unwrap();
        let fen = builtin::load(name).unwrap().start_fen;
        let (_, d2) = engine.divide(name, &fen, &[], 2);
        let dir = std::env::temp_dir().join(format!("chesstool-setup-suite-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("suite.epd");
        std::fs::write(&file, format!("{fen} ;D2 {d2}\n")).unwrap();
        Command::cargo_bin("chesstool").unwrap().args(["suite", "--variant", name]).arg(&file).assert().success();
        std::fs::write(&file, format!("{fen} ;D2 {}\n", d2 + 1)).unwrap();
        Command::cargo_bin("chesstool").unwrap().args(["suite", "--variant", name]).arg(&file).assert().code(1);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
