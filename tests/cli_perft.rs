//! `chesstool perft` end to end: output format, JSON, --stats, --moves, and
//! every bad-input path (exit 2, one `error:` line on stderr, no panic).
//! Node counts are the Chess Programming Wiki's published ones.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn chesstool() -> Command {
    let mut cmd = Command::cargo_bin("chesstool").unwrap();
    cmd.env_remove("RUST_BACKTRACE").env_remove("RUST_LIB_BACKTRACE");
    cmd
}

fn stdout_of(args: &[&str]) -> String {
    let out = chesstool().args(args).assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

fn json_of(args: &[&str]) -> Value {
    let text = stdout_of(args);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not one JSON object ({e}): {text}"))
}

/// Runs with the arguments and checks: exit code 2, stderr is exactly one
/// line starting with `error:` that contains every needle, nothing on stdout,
/// no panic or backtrace.
fn input_error(args: &[&str], needles: &[&str]) {
    let out = chesstool().args(args).assert().code(2).get_output().clone();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(stderr.starts_with("error: "), "{args:?}: stderr {stderr:?}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: stderr is not one line: {stderr:?}");
    assert!(!stderr.contains("panicked") && !stderr.contains("backtrace"), "{args:?}: {stderr}");
    for n in needles {
        assert!(stderr.contains(n), "{args:?}: stderr should mention {n:?}: {stderr:?}");
    }
    assert!(out.stdout.is_empty(), "{args:?}: stdout {:?}", String::from_utf8_lossy(&out.stdout));
}

/// A usage error: exit 2, one `error:` line (plus at most one `hint:`
/// line), the needle in it, nothing on stdout, no panic.
fn usage_error(args: &[&str], needle: &str) {
    let out = chesstool().args(args).assert().code(2).get_output().clone();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(stderr.starts_with("error: "), "{args:?}: {stderr:?}");
    assert!(lines.len() == 1 || (lines.len() == 2 && lines[1].starts_with("hint: ")), "{args:?}: {stderr:?}");
    assert!(stderr.contains(needle), "{args:?}: {stderr:?}");
    assert!(!stderr.contains("panicked") && !stderr.contains("backtrace"), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}: stdout {:?}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn perft_depth_4_last_line() {
    let out = stdout_of(&["perft", "--depth", "4"]);
    let last = out.lines().last().unwrap();
    let re = regex_lite(last);
    assert_eq!(re, Some(197_281), "last line: {last:?}");
}

/// Parses `Nodes: N  Time: T s  Speed: X Mnps` exactly; returns N.
fn regex_lite(line: &str) -> Option<u64> {
    let rest = line.strip_prefix("Nodes: ")?;
    let (nodes, rest) = rest.split_once("  Time: ")?;
    let (time, rest) = rest.split_once(" s  Speed: ")?;
    let speed = rest.strip_suffix(" Mnps")?;
    time.parse::<f64>().ok()?;
    speed.parse::<f64>().ok()?;
    nodes.parse().ok()
}

#[test]
fn perft_positions_of_the_wiki() {
    for (fen, depth, nodes) in [
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "3", 97_862),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "4", 43_238),
        ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", "3", 9_467),
        ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", "3", 62_379),
    ] {
        let out = stdout_of(&["perft", "--fen", fen, "--depth", depth, "--quiet"]);
        assert_eq!(regex_lite(out.lines().last().unwrap()), Some(nodes), "{fen}");
    }
    // Depth 0 is the root alone; --threads 1 gives the same counts.
    assert_eq!(regex_lite(stdout_of(&["perft", "--depth", "0"]).lines().last().unwrap()), Some(1));
    assert_eq!(
        regex_lite(stdout_of(&["perft", "--depth", "3", "--threads", "1"]).lines().last().unwrap()),
        Some(8_902)
    );
}

#[test]
fn perft_json_fields() {
    let v = json_of(&["perft", "--depth", "3", "--json"]);
    assert_eq!(v["depth"], 3);
    assert_eq!(v["nodes"], 8_902);
    assert!(v["seconds"].as_f64().is_some_and(|s| s >= 0.0), "{v}");
    assert_eq!(v["status"], "ok");
    assert_eq!(v["moves"], serde_json::json!([]));
    assert_eq!(v["root"], v["position"]);
    assert!(v.get("stats").is_none(), "no stats without --stats: {v}");
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let v = json_of(&["perft", "--fen", fen, "--depth", "2", "--json"]);
    assert_eq!(v["root"], fen);
    assert_eq!(v["nodes"], 2_039);
}

#[test]
fn perft_json_root_is_a_fen_not_the_startpos_keyword() {
    // Without --fen the report must still say which position was counted.
    let v = json_of(&["perft", "--depth", "1", "--json"]);
    assert_eq!(v["root"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "{v}");
}

#[test]
fn perft_stats_json_matches_the_wiki() {
    // CPW Perft Results, initial position, depths 1-4.
    let v = json_of(&["perft", "--depth", "4", "--stats", "--json"]);
    assert_eq!(v["nodes"], 197_281);
    let rows = v["stats"].as_array().expect("stats array");
    assert_eq!(rows.len(), 5, "depths 0 to 4");
    let want =
        [(0, 1, 0, 0, 0), (1, 20, 0, 0, 0), (2, 400, 0, 0, 0), (3, 8_902, 34, 12, 0), (4, 197_281, 1_576, 469, 8)];
    for (row, (depth, nodes, captures, checks, mates)) in rows.iter().zip(want) {
        assert_eq!(row["depth"], depth, "{row}");
        assert_eq!(row["nodes"], nodes, "{row}");
        assert_eq!(row["captures"], captures, "{row}");
        assert_eq!(row["checks"], checks, "{row}");
        assert_eq!(row["checkmates"], mates, "{row}");
        for key in ["en_passants", "castles", "promotions", "discovery_checks", "double_checks"] {
            assert_eq!(row[key], 0, "{key} in {row}");
        }
    }
    // Kiwipete depth 2: 1 e.p., 91 castles, 3 checks.
    let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let v = json_of(&["perft", "--fen", kiwi, "--depth", "2", "--stats", "--json"]);
    let d2 = &v["stats"][2];
    assert_eq!((d2["nodes"].as_u64(), d2["captures"].as_u64()), (Some(2_039), Some(351)));
    assert_eq!(
        (d2["en_passants"].as_u64(), d2["castles"].as_u64(), d2["checks"].as_u64()),
        (Some(1), Some(91), Some(3))
    );
}

/// With `--hash`, perft tells how full the table got: a 1 MiB table is
/// nearly full after perft 7 of the start position (far more positions than
/// its 126,976 entries), nearly empty after perft 2 (one store at most);
/// without a table there is no such line or field.
#[test]
fn perft_tells_how_full_the_hash_table_got() {
    let filled = |depth: &str| {
        let v = json_of(&["perft", "--depth", depth, "--hash", "1", "-t", "2", "--json"]);
        v["hash_filled"].as_f64().unwrap_or_else(|| panic!("no hash_filled: {v}"))
    };
    assert!(filled("7") > 0.9, "perft 7 fills a 1 MiB table");
    assert!(filled("2") < 0.01, "perft 2 stores at most the root");
    let text = stdout_of(&["perft", "--depth", "6", "--hash", "1"]);
    let last = text.lines().last().unwrap_or_default();
    assert!(last.starts_with("Hash: 1 MiB, ") && last.ends_with("% of the entries in use"), "{text}");
    assert!(json_of(&["perft", "--depth", "3", "--json"]).get("hash_filled").is_none());
    assert!(!stdout_of(&["perft", "--depth", "3"]).contains("Hash:"));
}

/// `--stats` with `--hash` and two threads: Kiwipete's depth-4 row as the
/// Chess Programming Wiki and The Grand Chess Tree publish it.
#[test]
fn perft_stats_with_hash_and_threads_is_the_published_row() {
    let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    for threads in ["1", "2"] {
        let v = json_of(&["perft", "--fen", kiwi, "--depth", "4", "--stats", "--hash", "16", "-t", threads, "--json"]);
        assert_eq!(v["hash_mb"], 16, "{v}");
        let d4 = &v["stats"][4];
        let published = [
            // The Wiki.
            ("nodes", 4_085_603),
            ("captures", 757_163),
            ("en_passants", 1_929),
            ("castles", 128_013),
            ("promotions", 15_172),
            ("checks", 25_523),
            ("discovery_checks", 42),
            ("double_checks", 6),
            ("checkmates", 43),
            // The Grand Chess Tree.
            ("direct_checks", 25_432),
            ("single_discovered_checks", 42),
            ("direct_discovered_checks", 6),
            ("double_discovered_checks", 0),
            ("total_checks", 25_480),
            ("direct_mates", 43),
            ("single_discovered_mates", 0),
            ("direct_discovered_mates", 0),
            ("double_discovered_mates", 0),
            ("total_mates", 43),
        ];
        for (key, want) in published {
            assert_eq!(d4[key], want, "{key} with {threads} threads: {d4}");
        }
    }
}

#[test]
fn perft_stats_table_text() {
    let out = stdout_of(&["perft", "--depth", "3", "--stats"]);
    for header in [
        "Depth",
        "Nodes",
        "Captures",
        "E.p.",
        "Castles",
        "Promotions",
        "Checks",
        "Discovery checks",
        "Double checks",
        "Checkmates",
    ] {
        assert!(out.contains(header), "missing {header:?}:\n{out}");
    }
    for header in ["Direct", "Single", "discovered", "Total", "mates"] {
        assert!(out.contains(header), "missing {header:?}:\n{out}");
    }
    assert!(out.contains("8902"), "{out}");
    assert_eq!(regex_lite(out.lines().last().unwrap()), Some(8_902), "{out}");
}

#[test]
fn perft_moves() {
    // Counts from python-chess: 29 moves after 1.e4 e5; 600 at depth 2 after 1.e4.
    let out = stdout_of(&["perft", "--moves", "e2e4", "e7e5", "--depth", "1"]);
    assert!(out.contains("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"), "{out}");
    assert_eq!(regex_lite(out.lines().last().unwrap()), Some(29));
    let v = json_of(&["perft", "--moves", "e2e4", "--depth", "2", "--json"]);
    assert_eq!(v["nodes"], 600);
    assert_eq!(v["moves"], serde_json::json!(["e2e4"]));
    // Castling in both notations, from Kiwipete.
    let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let a = stdout_of(&["perft", "--fen", kiwi, "--moves", "e1g1", "--depth", "1"]);
    let b = stdout_of(&["perft", "--fen", kiwi, "--moves", "e1h1", "--depth", "1"]);
    assert_eq!(a.lines().next(), b.lines().next());
    assert!(a.contains("R4RK1 b kq - 1 1"), "{a}");
}

#[test]
fn bad_fens_exit_2_with_one_line() {
    input_error(&["perft", "--fen", "", "--depth", "1"], &["empty"]);
    input_error(
        &["perft", "--fen", "r3k2r/p1ppqb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBPPP/R3K2R w KQkq", "--depth", "1"],
        &["rank 7", "7 squares"],
    );
    input_error(
        &["perft", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "--depth", "1"],
        &["9 ranks"],
    );
    input_error(&["perft", "--fen", "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", "--depth", "1"], &["castling", "rook"]);
    input_error(
        &["perft", "--fen", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", "--depth", "1"],
        &["en passant", "e4"],
    );
    input_error(&["perft", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "--depth", "1"], &["side to move"]);
    input_error(&["perft", "--fen", "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "--depth", "1"], &["not to move", "check"]);
    input_error(&["perft", "--fen", "\u{1}\u{7f}\u{fffd}é€ xyz", "--depth", "1"], &["FEN"]);
    input_error(&["perft", "--fen", "-", "--depth", "1"], &[]);
}

#[test]
fn random_byte_fens_exit_2_without_panic() {
    // A seeded stream of byte strings (valid UTF-8 after lossy conversion,
    // as the shell would pass them), no newlines.
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    for _ in 0..25 {
        let bytes: Vec<u8> = (0..1 + x as usize % 40)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x as u8).max(1)
            })
            .filter(|&b| b != b'\n' && b != b'\r')
            .collect();
        let fen = String::from_utf8_lossy(&bytes).into_owned();
        if fen.trim().is_empty() || fen.trim() == "startpos" {
            continue;
        }
        input_error(&["perft", "--fen", &fen, "--depth", "1"], &["--fen"]);
    }
}

#[test]
fn bad_moves_exit_2_with_one_line() {
    input_error(&["perft", "--moves", "e2e5", "--depth", "1"], &["e2e5", "not legal"]);
    input_error(&["perft", "--moves", "e2e4", "e2e4", "--depth", "1"], &["e2e4"]);
    input_error(&["perft", "--moves", "xyz", "--depth", "1"], &["xyz"]);
}

#[test]
fn bad_args_are_usage_errors() {
    usage_error(&["perft"], "--depth");
    usage_error(&["perft", "--depth"], "--depth");
    usage_error(&["perft", "--depth", "x"], "--depth: x is not a depth (0 to 20)");
    usage_error(&["perft", "--depth", "-1"], "--depth: -1 is not a depth (0 to 20)");
    usage_error(&["perft", "--depth", "3", "--threads", "many"], "many");
    usage_error(&["perft", "--depth", "3", "--no-such-flag"], "--no-such-flag");
    usage_error(&["no-such-command"], "no-such-command");
    usage_error(&["perft", "--depth", "3", "--threads", "-1"], "--threads: -1");
    usage_error(&["perft", "--depth", "3", "--hash", "-5"], "--hash: -5");
    // No subcommand: clap prints the help to stderr and exits 2.
    let out = chesstool().assert().code(2).get_output().clone();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn absurd_depth_is_an_input_error() {
    input_error(&["perft", "--depth", "99"], &["99"]);
}

#[test]
fn non_utf8_argument_is_an_error_not_a_panic() {
    #[cfg(unix)]
    {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        let out = chesstool()
            .args(["perft", "--depth", "1", "--fen"])
            .arg(OsStr::from_bytes(b"\xff\xfe rnbqkbnr"))
            .assert()
            .code(2)
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with("error:") && !stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn chess960_flag_switches_castling_notation() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    // With --chess960, king-takes-rook is the notation and the FEN is Shredder.
    let out = stdout_of(&["perft", "--fen", fen, "--chess960", "--moves", "e1h1", "--depth", "1"]);
    assert!(out.contains("r3k2r/8/8/8/8/8/8/R4RK1 b ha - 1 1"), "{out}");
    let out = stdout_of(&["perft", "--fen", "startpos", "--depth", "2", "--quiet"]);
    assert!(out.ends_with(" Mnps\n"), "{out}");
    assert!(predicate::str::contains("Nodes: 400").eval(&out));
}

#[test]
fn hash_table_too_large_is_an_error_naming_the_option() {
    // Larger than any machine's memory (the second one overflows a byte
    // count): refused by the range check or by the allocation, in one line.
    for mb in ["99999999999", "18446744073709551615"] {
        for cmd in [&["perft", "--depth", "1"][..], &["divide", "--depth", "1"], &["suite", "suites/standard.epd"]] {
            let args: Vec<&str> = cmd.iter().copied().chain(["--hash", mb]).collect();
            input_error(&args, &["--hash", mb]);
        }
    }
}

/// Regression: 100000 threads made thread creation fail with a panic.
#[test]
fn absurd_thread_count_is_a_usage_error() {
    usage_error(&["perft", "--depth", "1", "--threads", "100000"], "more than the 1024 allowed");
}

/// Regression: a bad FEN in a suite printed its message twice.
#[test]
fn suite_fen_error_names_the_line_once() {
    let dir = std::env::temp_dir().join(format!("chesstool-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.epd");
    std::fs::write(&path, "startpos ;D1 20\n8/8/8 w - - ;D1 1\n").unwrap();
    let out = chesstool().args(["suite", path.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    // The run goes on past the line: one error line on stderr, the reason once in the report.
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("bad.epd:2"), "{stderr}");
    assert!(stdout.contains("bad.epd:2:") && stdout.matches("ranks").count() == 1, "{stdout}");
}

#[test]
fn depth_0_stats_is_the_root_row() {
    // The Chess Programming Wiki's tables begin with depth 0: one node, nothing else.
    let v = json_of(&["perft", "--depth", "0", "--stats", "--json"]);
    assert_eq!(v["nodes"], 1);
    let rows = v["stats"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{v}");
    assert_eq!(
        (rows[0]["depth"].as_u64(), rows[0]["nodes"].as_u64(), rows[0]["captures"].as_u64()),
        (Some(0), Some(1), Some(0))
    );
    let out = stdout_of(&["perft", "--depth", "0", "--stats"]);
    assert!(out.lines().any(|l| l.starts_with("│ 0 ") && l.contains("┆     1 ┆")), "{out}");
}

#[test]
fn moves_take_uci_or_san() {
    // python-chess: 1.e4 e5 2.Nf3 leaves 27 black moves and 779 positions at depth 2.
    let san = json_of(&["perft", "--moves", "e4", "e5", "Nf3", "--depth", "2", "--json"]);
    let uci = json_of(&["perft", "--moves", "e2e4", "e7e5", "g1f3", "--depth", "2", "--json"]);
    assert_eq!(san["nodes"], 779);
    assert_eq!(san["moves"], serde_json::json!(["e2e4", "e7e5", "g1f3"]), "moves come out in UCI");
    assert_eq!(san["position"], uci["position"]);
    input_error(
        &["perft", "--moves", "e4", "e5", "Nf9", "--depth", "1"],
        &["--moves: move 3 \"Nf9\"", "UCI like e2e4, or SAN"],
    );
    input_error(&["perft", "--moves", "e4", "Ke2", "--depth", "1"], &["--moves: move 2 \"Ke2\"", "not legal"]);
}

#[test]
fn an_unquoted_fen_gets_a_hint() {
    let out = chesstool()
        .args(["perft", "--fen", "8/8/8/8/8/8/8/K1k5", "w", "-", "-", "0", "1", "--depth", "2"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr,
        "error: unexpected argument 'w'\nhint: a FEN has spaces: quote it, e.g. --fen \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"\n"
    );
}

#[test]
fn json_failures_are_one_error_document() {
    for (args, kind, needle) in [
        (&["perft", "--depth", "1", "--fen", "8/8 w - - 0 1", "--json"][..], "input", "--fen"),
        (&["perft", "--depth", "-1", "--json"], "usage", "--depth: -1"),
        (&["perft", "--json", "--bogus"], "usage", "--bogus"),
        (&["perft", "--depth", "1", "--moves", "e2e5", "--json"], "input", "--moves"),
    ] {
        let out = chesstool().args(args).assert().code(2).get_output().clone();
        let text = String::from_utf8(out.stdout).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{args:?}: {e}: {text}"));
        assert_eq!(v["status"], "error", "{args:?}");
        assert_eq!(v["error"]["kind"], kind, "{args:?}: {v}");
        assert!(v["error"]["message"].as_str().unwrap().contains(needle), "{args:?}: {v}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with("error: ") && stderr.contains(needle), "{args:?}: {stderr}");
    }
}
