//! Sittuyin against Fairy-Stockfish: divides line for line from the start
//! (the set-up phase), from Fairy-Stockfish's own random games
//! (`tests/variants/sittuyin_playouts.txt`, made by
//! `scripts/fsf_playouts.py sittuyin 10 130 4700`: through the set-up
//! into the game, biased toward drops and promotions), from our playouts
//! and from constructed positions, one or more per rule. Every count is
//! Fairy-Stockfish's.

mod variants_support;
use chesstool::variants::variant::builtin;
use variants_support::*;

const VARIANTS: &[(&str, u32)] = &[("sittuyin", 3)];

#[test]
fn sittuyin_matches_fairy_stockfish_from_the_start() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = from_the_start(&mut fsf, VARIANTS, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn sittuyin_matches_fairy_stockfish_on_its_own_games() {
    let Some(mut fsf) = Fsf::start() else { return };
    let positions = fsf_playouts("sittuyin_playouts.txt");
    assert!(positions.len() >= 100, "{} positions", positions.len());
    let failures: Vec<String> =
        positions.iter().filter_map(|(name, fen)| check(&mut fsf, name, fen, 3).err()).take(5).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn sittuyin_matches_fairy_stockfish_on_our_playouts() {
    let Some(mut fsf) = Fsf::start() else { return };
    // The set-up takes 32 plies; the kept plies run into the game.
    let plan = Playouts { games: 4, plies: 90, seed: 7300, keep: |ply| ply % 6 == 3, depth: 3 };
    let failures = on_our_playouts(&mut fsf, VARIANTS, &plan, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Constructed positions, one or more per rule: (FEN, depth, rule).
const RULES: &[(&str, u32, &str)] = &[
    ("8/8/4pppp/pppp4/4PPPP/PPPP4/8/4K3[RRkfrrssnn] w - - 0 1", 3, "set-up: the rooks drop on the first rank only"),
    (
        "rrsskfnn/8/4pppp/pppp4/4PPPP/PPPP4/8/SSNKFNN1[RR] w - - 0 1",
        3,
        "set-up: one first-rank square left for two rooks",
    ),
    ("8/8/4pppp/pppp4/4PPPP/PPPP4/8/4K3[RRFSSNNkfrrssnn] b - - 0 1", 2, "set-up: Black drops on its three ranks"),
    ("4k3/8/8/8/8/2P5/8/4K3 w - - 0 1", 4, "the last pawn promotes anywhere, in place or diagonally"),
    ("4k3/8/8/3P4/8/1P6/8/4K3 w - - 0 1", 4, "with two pawns only the one on the promotion squares"),
    ("4k3/8/8/3P4/8/1P6/5F2/4K3 w - - 0 1", 4, "promotionLimit: no promotion while the side has a met"),
    ("4k3/8/4n3/3P4/8/1P6/8/4K3 w - - 0 1", 4, "the new met may attack no enemy piece"),
    ("8/8/8/3P4/2k5/8/P7/4K3 w - - 0 1", 4, "no promotion gives check"),
    ("4k3/8/8/4P3/8/8/8/K3R3 w - - 0 1", 4, "no promotion uncovers a check"),
    ("r7/1P6/8/7k/8/8/8/K7 w - - 0 1", 4, "in check: a diagonal promotion that blocks"),
    ("4k3/8/8/8/3p4/8/1p6/4K3 b - - 0 1", 4, "Black promotes on a1 b2 c3 d4 e4 f3 g2 h1"),
    ("8/6k1/6p1/3s2P1/3npR2/2r5/p2N2F1/3K4 b - - 0 49", 4, "Fairy-Stockfish issue #11's position"),
];

#[test]
fn sittuyin_rules_match_fairy_stockfish_on_constructed_positions() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures: Vec<String> = RULES
        .iter()
        .filter_map(|&(fen, depth, rule)| check(&mut fsf, "sittuyin", fen, depth).err().map(|e| format!("{rule}: {e}")))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Fairy-Stockfish's counts of issue #11's position at depths 1 to 4 (and
/// 10,241,498 at depth 5: `go perft 5`), fixed here without the engine.
#[test]
fn issue_11_counts_stay_fairy_stockfishs() {
    let variant = builtin::load("sittuyin").unwrap();
    let fen = "8/6k1/6p1/3s2P1/3npR2/2r5/p2N2F1/3K4 b - - 0 49";
    for (depth, want) in [(1, 33), (2, 673), (3, 19354)] {
        assert_eq!(our_divide(&variant, fen, depth).1, want, "depth {depth}");
    }
}

#[test]
fn promotions_are_written_as_fairy_stockfish_writes_them() {
    let variant = builtin::load("sittuyin").unwrap();
    let (moves, _) = our_divide(&variant, "4k3/8/8/8/8/2P5/8/4K3 w - - 0 1", 1);
    for m in ["c3c3f", "c3b4f", "c3d2f", "c3c4"] {
        assert!(moves.contains_key(m), "{m} in {:?}", moves.keys());
    }
    assert!(!moves.contains_key("c3c4f"), "no promotion by moving forward");
}

#[test]
fn sittuyin_keys_are_read_and_checked() {
    let e = builtin::load("sittuyin").map(|v| v.start_fen).unwrap();
    assert!(e.starts_with("8/8/4pppp/pppp4/4PPPP/PPPP4/8/8["), "{e}");
    let ini = "[s:makruk]\npieceDrops = true\nsittuyinRookDrop = maybe\n";
    let file = chesstool::variants::variant::user_ini::parse("s.ini", ini).unwrap();
    let err = file.variant("s").map(|_| ()).unwrap_err().to_string();
    assert!(err.contains("sittuyinRookDrop"), "{err}");
}
