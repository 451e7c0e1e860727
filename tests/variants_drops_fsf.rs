//! Hands and drops (crazyhouse and its family) against Fairy-Stockfish:
//! divides line for line from the start, from positions of Fairy-Stockfish's
//! own random games (`tests/variants/drops_playouts.txt`: 110-ply games
//! played with its move lists, biased toward drops and promotions), from our
//! playouts and from constructed positions; FENs with hands and `~` marks as
//! it writes them; bad hands refused. Every count is Fairy-Stockfish's.

mod variants_support;
use assert_cmd::Command;
use chesstool::rules::Rules;
use chesstool::variants::hunt::VariantRules;
use chesstool::variants::variant::builtin;
use predicates::prelude::*;
use variants_support::*;

/// The drop variants chesstool runs, with the depth from their start.
const VARIANTS: &[(&str, u32)] =
    &[("crazyhouse", 4), ("loop", 4), ("chessgi", 4), ("bughouse", 4), ("pocketknight", 3), ("capahouse", 3)];

#[test]
fn drop_variants_match_fairy_stockfish_from_the_start() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = from_the_start(&mut fsf, VARIANTS, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn drop_variants_match_fairy_stockfish_on_its_own_games() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = on_fsf_playouts(&mut fsf, "drops_playouts.txt", 3, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn drop_variants_match_fairy_stockfish_on_our_playouts() {
    let Some(mut fsf) = Fsf::start() else { return };
    let plan = Playouts { games: 3, plies: 100, seed: 47, keep: |ply| ply % 11 == 10, depth: 2 };
    let failures = on_our_playouts(&mut fsf, VARIANTS, &plan, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Constructed positions, one or more per rule: (variant, FEN, depth, rule).
const RULES: &[Rule] = &[
    ("crazyhouse", "r3k2r/pPp2ppp/8/3Q~4/8/8/P1PP1PPP/R3K2R[QRBNPqrbnp] w KQkq - 0 1", 2, "full hands, promoted queen"),
    ("crazyhouse", "4k3/8/8/8/3q4/8/8/R~3K3[n] b - - 0 1", 3, "a promoted rook captured goes to the hand as a pawn"),
    ("loop", "4k3/8/8/8/3q4/8/8/R~3K3[n] b - - 0 1", 3, "loop: it goes to the hand as a rook"),
    ("chessgi", "4k3/8/8/8/3q4/8/8/R~3K3[n] b - - 0 1", 3, "chessgi: a rook, and pawns dropped on rank 1"),
    ("crazyhouse", "4k3/8/8/8/8/8/8/r3K3[PN] w - - 0 1", 3, "a check on the first rank: no pawn drop blocks it"),
    ("chessgi", "4k3/8/8/8/8/8/8/r3K3[PN] w - - 0 1", 3, "chessgi: a pawn drop on rank 1 blocks it"),
    ("crazyhouse", "4k3/4r3/8/8/8/8/8/4K3[PN] w - - 0 1", 3, "drops that block a check on the file"),
    ("crazyhouse", "4k3/8/8/8/1b6/8/8/r3K3[QP] w - - 0 1", 3, "double check: no drop helps"),
    ("crazyhouse", "4k3/8/8/8/3p4/8/8/4K3[P] w - - 0 1", 4, "a pawn dropped on rank 2 steps two, taken en passant"),
    (
        "capahouse",
        "r3k4r/10/10/4A~5/10/10/10/R3K4R[ACac] w KQkq - 0 1",
        2,
        "capahouse: archbishops and chancellors in hand",
    ),
    ("pocketknight", "r3k2r/8/8/8/8/8/8/R3K2R[Nn] w KQkq - 0 1", 3, "pocket knights beside castling"),
    (
        "bughouse",
        "r3k2r/ppp2ppp/8/3pP3/8/8/PPP2PPP/R3K2R[QNqn] w KQkq d6 0 1",
        3,
        "bughouse: captures stay out of the hand",
    ),
    ("crazyhouse", "1r2k3/P7/8/8/8/8/8/4K3[] w - - 0 1", 4, "a promotion marks the piece; its capture gives a pawn"),
    ("loop", "1r2k3/P7/8/8/8/8/8/4K3[] w - - 0 1", 4, "loop: its capture gives the promoted piece"),
    ("crazyhouse", "4k3/8/8/8/8/8/1q6/Q~3K3[] b - - 0 1", 3, "a promoted queen taken next to the king"),
    ("crazyhouse", "r1bqk2r/pppp1Npp/2n2n2/2b1p3/2B1P3/8/PPPP1PPP/RNBQK2R[P] b KQkq - 0 5", 3, "in check with a hand"),
    ("crazyhouse", "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5N2/PPPP1PPP/RNBQKB1R/Pp w KQkq d6 0 3", 3, "the hand as a ninth rank"),
];

#[test]
fn constructed_drop_positions_match_fairy_stockfish() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = on_rules(&mut fsf, RULES, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fens_with_hands_are_written_as_fairy_stockfish_writes_them() {
    let Some(mut fsf) = Fsf::start() else { return };
    let mut positions: Vec<(String, String)> = fsf_playouts("drops_playouts.txt").into_iter().step_by(4).collect();
    positions.extend(RULES.iter().map(|&(v, f, _, _)| (v.to_string(), f.to_string())));
    // Captures, promotions and drops first: they change the hands and marks.
    fens_match_after_moves(&mut fsf, &positions, 12, |pos, m| (m.promo == 0, pos.cells[m.to as usize] == 0));
}

#[test]
fn the_hunt_reads_and_explains_drops_without_panicking() {
    let variant = builtin::load("crazyhouse").unwrap();
    let rules = VariantRules::new(variant, "crazyhouse");
    let pos = rules.parse_position("4k3/8/8/8/8/8/8/r3K3[PNq] w - - 0 1").unwrap();
    let mv = rules.read_move(&pos, "N@b1").expect("a legal drop");
    assert_eq!(rules.move_text(&pos, mv), "N@b1");
    assert!(rules.read_move(&pos, "n@b1").is_ok(), "drops read in either case");
    for text in ["P@b1", "P@e8", "Q@d4", "N@e1", "X@e4", "P@z9"] {
        assert!(rules.read_move(&pos, text).is_err(), "{text}");
        let _ = rules.extra_hint(&pos, text);
    }
    let _ = rules.missing_hint(&pos, mv);
    let _ = rules.walk_weight(&pos, mv);
    let next = rules.play(&pos, mv);
    assert_eq!(rules.position_text(&next), "4k3/8/8/8/8/8/8/rN2K3[Pq] b - - 0 1");
}

fn chesstool() -> Command {
    Command::cargo_bin("chesstool").expect("binary")
}

#[test]
fn bad_hands_are_one_line_errors_naming_the_field() {
    let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    let cases = [
        ("crazyhouse", format!("{board}[X] w KQkq - 0 1"), "hand field [X]: 'X' is not a piece of crazyhouse"),
        ("crazyhouse", format!("{board}[K] w KQkq - 0 1"), "hand field [K]: the royal piece"),
        ("chess", format!("{board}[P] w KQkq - 0 1"), "hand field [P]: chess has no hands"),
        ("crazyhouse", format!("{board}[3P] w KQkq - 0 1"), "hand field [3P]: counts are not FEN"),
        ("crazyhouse", format!("{board}[P w KQkq - 0 1"), "hand field [P: no closing ']'"),
    ];
    for (name, fen, message) in cases {
        chesstool()
            .args(["perft", "--variant", name, "--depth", "1", "--fen", &fen])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message).and(predicate::function(|s: &str| s.lines().count() == 1)));
    }
}

#[test]
fn divide_against_fairy_stockfish_and_perft_accept_crazyhouse() {
    let Some(fsf) = fairy_stockfish() else {
        assert!(std::env::var_os("CI").is_none(), "Fairy-Stockfish is not built");
        return;
    };
    let fen = "r1bqkbnr/pPpppppp/8/8/8/8/PPPP1PPP/RNBQKBNR[PNbqP] w KQkq - 0 1";
    chesstool()
        .args(["divide", "--variant", "crazyhouse", "--fen", fen, "--depth", "2"])
        .args(["--engine-uci", fsf.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("match at depth 2"));
    // 8902: Fairy-Stockfish's go perft 3 of the crazyhouse start (no drops yet).
    chesstool()
        .args(["perft", "--variant", "crazyhouse", "--depth", "3"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Nodes: 8902 "));
}

#[test]
fn drops_in_a_variant_without_pawns_match_fairy_stockfish() {
    let ini = format!("{}/tests/variants/drops.ini", env!("CARGO_MANIFEST_DIR"));
    let Some(mut fsf) = Fsf::start_with(&ini) else { return };
    let variant = chesstool::variants::variant::user_ini::load(&ini, "mini5house").unwrap();
    // The start, and positions with pieces in hand (captures to the hand at depth 3 and more).
    for (fen, depth) in [
        (variant.start_fen.clone(), 5),
        ("c1gk1/2w2/5/1H3/WK2C[Hw] w - - 0 1".to_string(), 3),
        ("chgk1/5/2W2/5/1KG1C[Hw] b - - 0 1".to_string(), 3),
    ] {
        let ours = our_divide(&variant, &fen, depth);
        let theirs = fsf.divide("mini5house", &fen, &[], depth);
        assert_eq!(ours, theirs, "{fen} depth {depth}: {}", differences(&ours, &theirs));
    }
}

/// Shogi's one-pawn-a-file drop rule in a section without piece
/// promotions (a crazyhouse section): Fairy-Stockfish's counts, 48 moves
/// where crazyhouse has 53 (no pawn drop on e3 to e7).
#[test]
fn a_crazyhouse_section_with_one_pawn_a_file_matches_fairy_stockfish() {
    let ini = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/variants/drop_rules.ini");
    let Some(mut fsf) = Fsf::start_with(ini) else { return };
    let variant = chesstool::variants::variant::user_ini::load(ini, "nifuhouse").unwrap();
    for (fen, depth) in [
        ("4k3/8/8/8/8/8/4P3/4K3[P] w - - 0 1", 1),
        ("4k3/4r3/8/8/8/8/4P3/4K3[Pp] b - - 0 1", 3),
        ("r1bqkbnr/ppp2ppp/2n5/3pp3/4P3/5N2/PPPP1PPP/RNBQKB1R[Pp] w KQkq - 0 4", 3),
    ] {
        let (ours, theirs) = (our_divide(&variant, fen, depth), fsf.divide("nifuhouse", fen, &[], depth));
        assert_eq!(ours, theirs, "{fen} depth {depth}: {}", differences(&ours, &theirs));
        if depth == 1 {
            assert_eq!(theirs.1, 48, "Fairy-Stockfish's count");
        }
    }
}
