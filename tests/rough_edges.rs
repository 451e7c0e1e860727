//! The rough edges a new user met (issue 45), each as that user meets it:
//! a command line, its exit code, and what it prints.

mod common;

use assert_cmd::Command;
use common::{buggy_engine, TempDir};

fn chesstool() -> Command {
    let mut cmd = Command::cargo_bin("chesstool").unwrap();
    cmd.env_remove("RUST_BACKTRACE").env_remove("RUST_LIB_BACKTRACE").env_remove("COLUMNS");
    cmd
}

/// (exit code, stdout, stderr).
fn run(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

#[test]
fn fuzz_says_how_many_differences_after_how_many_positions_and_games() {
    let engine = format!("{} --bug ep-pin", buggy_engine().display());
    let (code, out, err) =
        run(chesstool().args(["fuzz", "--engine-uci", &engine, "--positions", "3000", "--seed", "1"]));
    assert_eq!(code, 1, "{out}{err}");
    let headline = out.lines().next().unwrap_or_default();
    let words: Vec<&str> = headline.split(' ').collect();
    assert_eq!(&words[..3], ["1", "difference", "after"], "{headline}");
    let positions: u64 = words[3].parse().unwrap();
    let games: u64 = words[5].trim_start_matches('(').parse().unwrap();
    let position_word = if positions == 1 { "position" } else { "positions" };
    let game_word = if games == 1 { "game)" } else { "games)" };
    assert!(words[4] == position_word && words[6].starts_with(game_word), "{headline}");
    assert!(headline.contains("): the engine's moves differ from ours ("), "{headline}");
    // Nothing found: no difference, in the same words.
    let (code, out, _) = run(chesstool().args([
        "fuzz",
        "--engine-uci",
        &buggy_engine().display().to_string(),
        "--positions",
        "40",
        "--seed",
        "1",
    ]));
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("no difference in 40 positions ("), "{out}");
}

#[test]
fn castling_through_an_attacked_square_names_and_marks_the_square_and_the_attacker() {
    let engine = format!("{} --bug castle-through-check", buggy_engine().display());
    let fen = "r3k2r/p1ppqpb1/bnN1pnp1/3P4/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 1 1";
    let (code, out, err) =
        run(chesstool().args(["divide", "--depth", "1", "--fen", fen, "--engine-uci", &engine, "-q"]));
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("extra:    e8c8 (castles through d8, attacked by the knight on c6)"), "{out}");
    assert!(out.contains("c6 attacking piece") && out.contains("d8 attacked square"), "{out}");
}

#[test]
fn a_variant_hint_is_a_sentence_that_names_the_blocking_piece() {
    // A paste that lists a rook move through its own pawn.
    let dir = TempDir::new("variant-hint");
    let paste = dir.file("paste.txt", b"a1a3: 1\n\nNodes searched: 1\n");
    let (code, out, err) = run(chesstool().args([
        "divide",
        "--variant",
        "chess",
        "--fen",
        "4k3/8/8/8/8/8/P7/R3K3 w - - 0 1",
        "--depth",
        "1",
        "--against",
        paste.to_str().unwrap(),
    ]));
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("a1a3 (the path is blocked on a2 by a pawn)"), "{out}");
    assert!(!out.contains("rook R (R)"), "{out}");
}

#[test]
fn a_file_error_names_the_file_once() {
    let dir = TempDir::new("file-once");
    let out = dir.0.join("x.book");
    let (code, _, err) = run(chesstool().args(["book", "import-polyglot", "/dev/zero", "-o", out.to_str().unwrap()]));
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.matches("/dev/zero").count(), 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn the_readme_bench_example_says_seconds_or_minutes() {
    let readme = include_str!("../README.md");
    let benches: Vec<&str> = readme.lines().filter(|l| l.starts_with("chesstool bench")).collect();
    assert!(!benches.is_empty());
    for line in benches {
        assert!(line.contains("--quick") || line.contains("# minutes"), "{line}: slow without saying so");
    }
}

#[test]
fn suite_force_names_both_outputs_it_replaces() {
    let (code, out, _) = run(chesstool().args(["suite", "--help"]));
    assert_eq!(code, 0);
    assert!(out.contains("Applies to --junit and --svg"), "{out}");
}

#[test]
fn a_fen_error_is_one_line_worded_the_same_with_and_without_variant_chess() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "hello",
    ];
    for fen in fens {
        let (code, _, plain) = run(chesstool().args(["perft", "--depth", "1", "--fen", fen]));
        let (vcode, _, variant) = run(chesstool().args(["perft", "--depth", "1", "--variant", "chess", "--fen", fen]));
        assert_eq!((code, vcode), (2, 2), "{fen}: {plain}{variant}");
        assert_eq!(plain, variant, "{fen}: worded differently");
        assert_eq!(plain.lines().count(), 1, "{plain}");
        assert_eq!(plain.matches(fen).count(), 1, "{fen}: quoted other than once: {plain}");
    }
}

#[test]
fn an_empty_variant_name_is_asked_for() {
    for name in ["", " "] {
        let (code, out, err) = run(chesstool().args(["perft", "--depth", "1", "--variant", name]));
        assert_eq!(code, 2, "{out}{err}");
        assert!(err.starts_with("error: --variant: a variant name is required"), "{err}");
    }
}

#[test]
fn an_option_where_a_value_belongs_is_a_usage_error() {
    let (code, out, err) = run(chesstool().args(["perft", "--depth", "--json"]));
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.starts_with("error: --depth needs a value, and --json is an option"), "{err}");
    assert!(!out.contains("\"nodes\""), "a perft ran: {out}");
    // A value that starts with `-` is still the option's to judge.
    let (code, _, err) = run(chesstool().args(["perft", "--depth", "-1"]));
    assert_eq!(code, 2);
    assert!(err.contains("--depth: -1 is not a depth"), "{err}");
}

#[test]
fn variant_list_fits_the_width_and_wraps_descriptions() {
    let width = |columns: &str| {
        let (code, out, _) = run(chesstool().args(["variant", "list"]).env("COLUMNS", columns));
        assert_eq!(code, 0);
        let widest = out.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        (widest, out.lines().count())
    };
    let (narrow, narrow_lines) = width("60");
    let (wide, wide_lines) = width("200");
    assert!(narrow <= 60, "{narrow} columns at COLUMNS=60");
    assert!(narrow_lines > wide_lines, "the descriptions did not wrap: {narrow_lines} lines, {wide_lines} wide");
    assert!(wide <= 200);
}
