//! Fairy-Stockfish's board games (ataxx, flipello, flipello10, flipersi,
//! clobber, clobber10) against Fairy-Stockfish: divides line for line from
//! the start, from its own random games (`tests/variants/boards_playouts.txt`,
//! made by `scripts/fsf_playouts.py ataxx 3 150 4848 13`,
//! `flipello,flipersi 4 70 4849 7`, `flipello10 2 100 4850 11` and
//! `clobber,clobber10 2 80 4851 6`: late positions near a full board,
//! passes and empty hands among them), from our playouts and from
//! constructed positions, one or more per rule. Every count is
//! Fairy-Stockfish's.

mod variants_support;
use assert_cmd::Command;
use chesstool::variants::variant::builtin;
use predicates::prelude::*;
use variants_support::*;

/// The variants with the depth from their start.
const VARIANTS: &[(&str, u32)] =
    &[("ataxx", 4), ("flipello", 7), ("flipello10", 5), ("flipersi", 7), ("clobber", 4), ("clobber10", 3)];

#[test]
fn board_games_match_fairy_stockfish_from_the_start() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = from_the_start(&mut fsf, VARIANTS, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn board_games_match_fairy_stockfish_on_its_own_games() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = on_fsf_playouts(&mut fsf, "boards_playouts.txt", 2, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn board_games_match_fairy_stockfish_on_our_playouts() {
    let Some(mut fsf) = Fsf::start() else { return };
    // Long games: Ataxx and Othello end at a full board or after passes.
    let plan = Playouts { games: 3, plies: 130, seed: 4800, keep: |ply| ply % 9 == 8, depth: 3 };
    let failures = on_our_playouts(&mut fsf, VARIANTS, &plan, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Constructed positions, one or more per rule: (variant, FEN, depth, rule).
const RULES: &[Rule] = &[
    ("ataxx", "7/7/7/1pp4/7/3p3/P6 w 0 1", 3, "ataxx: a jump (a1c3) next to three enemy stones turns all three"),
    ("ataxx", "7/7/7/7/7/7/PPPPPPp w 0 1", 2, "ataxx: clones onto the neighbours of any own stone, each square once"),
    (
        "ataxx",
        "PPPpppp/ppppppp/ppppppp/ppppppp/ppppppp/ppppppp/pppppp1 w 0 1",
        3,
        "ataxx: a side without a move passes (a7a7)",
    ),
    (
        "ataxx",
        "P1ppppp/ppppppp/ppppppp/ppppppp/ppppppp/ppppppp/ppppppp b 0 1",
        2,
        "ataxx: the move that fills the board ends the game",
    ),
    ("ataxx", "PPPPPPP/PPPPPPP/PPPPPPP/PPPPPPP/PPPPPPP/PPPPPPP/PPPPPPp w 0 1", 1, "ataxx: a full board has no moves"),
    ("ataxx", "p6/7/7/7/7/7/7 w 0 1", 1, "ataxx: a side without stones has no move, not even a pass"),
    ("ataxx", "P6/7/7/7/7/7/7 w 0 1", 2, "ataxx: a side without stones does not end the game for the other"),
    ("ataxx", "7/7/7/7/7/7/p5P[PPp] w 0 1", 2, "ataxx: a hand in the FEN changes nothing (free drops)"),
    (
        "flipello",
        "8/8/3P1P2/3pp3/4pP2/8/8/8[PPPPpppp] w 0 1",
        3,
        "flipello: d4 encloses in three directions at once, all three flip",
    ),
    (
        "flipello",
        "8/8/8/8/8/8/8/pPPPPPP1[PPpp] w 0 1",
        3,
        "flipello: white has no enclosing drop and passes (b1b1), black then takes six",
    ),
    ("flipello", "8/8/8/8/8/8/8/PPPPPPPp w 0 1", 3, "flipello: two passes in a row end the game"),
    ("flipello", "8/8/8/3pP3/3Pp3/8/8/8[pppp] w 0 1", 3, "flipello: a side with an empty hand passes"),
    (
        "flipello",
        "PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPp[Pp] w 0 1",
        1,
        "flipello: a full board ends the game",
    ),
    ("flipello", "8/8/8/8/8/8/8/P6p[Pp] w 0 1", 3, "flipello: an empty start square takes every drop (d4 e4 d5 e5)"),
    (
        "flipello",
        "p7/1P6/8/8/8/8/8/7P[PPPpp] b 0 1",
        2,
        "flipello: a line of several stones flips whole, only up to the first own stone",
    ),
    ("flipello10", "10/10/10/10/4pP4/4Pp4/10/10/10/10[PPpp] w 0 1", 4, "flipello10: the 10x10 start with small hands"),
    ("flipersi", "8/8/8/8/3P4/8/8/8[PPpp] b 0 1", 3, "flipersi: the first stones go on the empty centre squares"),
    ("flipersi", "8/8/8/8/8/8/8/pPPPPPP1[PPpp] w 0 1", 2, "flipersi: no pass, a side without a move has lost"),
    ("clobber", "P1p2/5/5/5/5/5 w 0 1", 1, "clobber: no stone next to an enemy one, no move"),
    ("clobber", "Pp3/pP3/5/5/5/5 b 0 1", 3, "clobber: stones take orthogonally adjacent enemy stones only"),
    ("clobber10", "Pp8/10/10/10/10/10/10/10/10/9p w 0 1", 2, "clobber10: the 10x10 board"),
];

#[test]
fn constructed_board_game_positions_match_fairy_stockfish() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = on_rules(&mut fsf, RULES, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Fairy-Stockfish writes Ataxx without a hand and Othello with its hands;
/// so do we.
#[test]
fn fens_are_written_as_fairy_stockfish_writes_them() {
    let Some(mut fsf) = Fsf::start() else { return };
    for (name, moves) in
        [("ataxx", &["g1e3", "P@f6", "a7c5"][..]), ("flipello", &["P@e3", "P@f5"][..]), ("flipersi", &["P@d4"][..])]
    {
        let v = builtin::load(name).unwrap();
        let mut pos = v.parse_fen(&v.start_fen).unwrap();
        for text in moves {
            let mv = v.tables.legal_moves(&mut pos).into_iter().find(|&m| v.move_text(&pos, m) == *text).unwrap();
            v.tables.play(&mut pos, mv);
        }
        // The clocks aside: chesstool keeps none.
        let fields = |f: &str| f.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
        assert_eq!(fields(&v.fen(&pos)), fields(&fsf.fen_after(name, &v.start_fen, moves)), "{name}");
    }
}

/// Play and take back every move of our playouts: the position comes back
/// whole (stones, hands, passes), and perft by moves agrees with the bits.
#[test]
fn moves_taken_back_restore_the_position() {
    for name in ["ataxx", "flipello", "flipersi"] {
        let v = builtin::load(name).unwrap();
        for fen in playout_positions(&v, 2, 80, 7, |_, _, ply| ply % 5 == 4) {
            let mut pos = v.parse_fen(&fen).unwrap();
            // The piece lists are unordered: the board, hands and passes must come back.
            let state = |p: &chesstool::variants::Position| (v.fen(p), p.cells.clone(), p.passes);
            let before = state(&pos);
            let mut by_moves = 0;
            for mv in v.tables.legal_moves(&mut pos) {
                let played = v.tables.play(&mut pos, mv);
                by_moves += v.tables.count_legal(&mut pos);
                v.tables.unplay(&mut pos, mv, &played);
                assert!(state(&pos) == before, "{name} {fen}: {} not taken back", v.move_text(&pos, mv));
            }
            let counted = chesstool::variants::count::perft::perft(&v, &mut pos, 2);
            assert_eq!(by_moves, counted, "{name} {fen}");
        }
    }
}

fn chesstool() -> Command {
    Command::cargo_bin("chesstool").expect("binary")
}

#[test]
fn bad_board_game_input_is_one_line_and_exit_2() {
    let cases = [
        ("ataxx", "P5p/7/7/7/7/7/p5K w 0 1", "K"),
        ("ataxx", "P5p/7/7/7/7/7/p6P w 0 1", "rank 1"),
        ("flipello", "8/8/8/3pP3/3Pp3/8/8/8[PPx] w 0 1", "hand field"),
        ("flipello", "8/8/8/3pP3/3Pp3/8/8 w 0 1", "ranks"),
        ("clobber", "PpPpP/pPpPp/PpPpP/pPpPp/PpPpP/pPpPp x 0 1", "side to move"),
    ];
    for (name, fen, says) in cases {
        chesstool()
            .args(["perft", "--variant", name, "--depth", "1", "--fen", fen])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says).and(predicate::str::contains("\n").count(1)));
    }
    // A pasted divide with a line whose move cannot be read.
    for (name, paste, says) in [
        ("ataxx", "P@f1: 1\nP@z9: 1\n", "line 2"),
        ("flipello", "P@e3: 1\nQ@a1: 1\n", "Q@a1"),
        ("ataxx", "g1e3: 1\ng1: 1\n", "\"g1\""),
    ] {
        chesstool()
            .args(["divide", "--variant", name, "--depth", "1", "--against", "-"])
            .write_stdin(paste)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says).and(predicate::str::contains("\n").count(1)));
    }
}

#[test]
fn fuzz_bench_and_suite_run_the_board_games_against_fairy_stockfish() {
    let Some(fsf) = fairy_stockfish() else { return };
    let fsf = fsf.to_str().unwrap();
    for &(name, _) in VARIANTS {
        fuzz_and_bench_agree(fsf, name, 60);
        let mut engine = Fsf::start().unwrap();
        let fen = builtin::load(name).unwrap().start_fen;
        let (_, d2) = engine.divide(name, &fen, &[], 2);
        let dir = std::env::temp_dir().join(format!("chesstool-boards-suite-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("suite.epd");
        std::fs::write(&file, format!("{fen} ;D2 {d2}\n")).unwrap();
        chesstool().args(["suite", "--variant", name]).arg(&file).assert().success();
        std::fs::write(&file, format!("{fen} ;D2 {}\n", d2 + 1)).unwrap();
        chesstool().args(["suite", "--variant", name]).arg(&file).assert().code(1);
        let _ = std::fs::remove_dir_all(&dir);
        chesstool()
            .args(["divide", "--variant", name, "--depth", "2", "--engine-uci", fsf])
            .assert()
            .success()
            .stdout(predicate::str::contains("match at depth 2"));
    }
}

/// A pasted divide's wrong moves are named by the stone rule they break,
/// and a missing move by the stones it flips.
#[test]
fn witnesses_name_the_stone_rules() {
    for (name, fen, paste, says) in [
        ("ataxx", "startpos", "P@f1: 1\nP@d4: 1\n", "the drop on d4 touches no own stone"),
        (
            "ataxx",
            "7/7/7/1pp4/7/3p3/P6 w - - 0 1",
            "P@a2: 1\n",
            "a1c3 (the stone on a1 jumps to c3; the stones on d2 b4 c4 flip)",
        ),
        ("flipello", "startpos", "P@e3: 1\nP@d3: 1\n", "the drop on d3 encloses no stone"),
        ("flipello", "startpos", "b1b1: 1\n", "a pass only when there is no other move"),
        (
            "flipello",
            "8/8/8/8/8/8/8/PPPPPPPp w - - 0 1",
            "a1a1: 1\nh1h1: 1\n",
            "h1h1 (the pass is written from White's lowest square: a1a1)",
        ),
        ("flipersi", "8/8/8/8/3P4/8/8/8[PPpp] b - - 0 1", "P@c5: 1\n", "while a start square (e4 d5 e5) is empty"),
        ("flipersi", "8/8/8/8/8/8/8/pPPPPPP1[PPpp] w - - 0 1", "b1b1: 1\n", "White may not pass"),
    ] {
        let mut cmd = chesstool();
        cmd.args(["divide", "--variant", name, "--depth", "1", "--against", "-"]);
        if fen != "startpos" {
            cmd.args(["--fen", fen]);
        }
        cmd.write_stdin(paste).assert().code(1).stdout(predicate::str::contains(says));
    }
}
