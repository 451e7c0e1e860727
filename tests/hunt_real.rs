//! The hunt on real engines (issue 33, issue 34 item 6): engines that search
//! on `go perft`, echo commands, divide on stderr, print debug lines and
//! boards among their moves, or stop before their total; history-dependent
//! witnesses; SAN extras in pastes. Each test takes seconds.

use assert_cmd::Command;
use serde_json::Value;
use std::path::PathBuf;
use std::time::{Duration, Instant};

mod common;
use common::buggy_engine;

const START_MOVES: [&str; 20] = [
    "a2a3", "a2a4", "b1a3", "b1c3", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4", "e2e3", "e2e4", "f2f3", "f2f4",
    "g1f3", "g1h3", "g2g3", "g2g4", "h2h3", "h2h4",
];

/// A shell script in a fresh file under the temp dir, executable.
fn script(name: &str, body: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chesstool-hunt-real-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

/// The start position's divide at depth 1 (20 moves, one node each: the
/// published perft(1) = 20), each line as `fmt` makes it.
fn start_divide(fmt: impl Fn(&str) -> String) -> String {
    START_MOVES.iter().map(|m| fmt(m)).collect::<Vec<_>>().join("\n")
}

/// A UCI engine in sh: `uci`, `isready`, and `ON_GO` run on the perft command `go_word`.
fn uci_engine(name: &str, go_word: &str, on_go: &str) -> PathBuf {
    script(
        name,
        &format!(
            "while read -r line; do\n case \"$line\" in\n uci) echo 'id name {name}'; echo uciok;;\n \
             isready) echo readyok;;\n \"{go_word}\"*) {on_go};;\n quit) exit 0;;\n esac\ndone\n"
        ),
    )
}

fn chesstool(args: &[&str]) -> (i32, String, String, f64) {
    let started = Instant::now();
    let out = Command::cargo_bin("chesstool").unwrap().args(args).timeout(Duration::from_secs(60)).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        started.elapsed().as_secs_f64(),
    )
}

#[test]
fn cat_as_a_uci_engine_fails_within_seconds() {
    let (code, _, err, secs) = chesstool(&["divide", "--depth", "2", "--engine-uci", "/bin/cat"]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("echoed `uci` back"), "{err}");
    assert!(secs < 5.0, "{secs} s");
}

#[test]
fn a_search_on_go_perft_ends_the_call_at_once() {
    // Searches without end, never printing bestmove.
    let engine = uci_engine("searcher", "go", "echo 'info depth 1 seldepth 1 score cp 20 nodes 20 pv e2e4'");
    let (code, _, err, secs) =
        chesstool(&["divide", "--depth", "3", "--timeout", "60", "--engine-uci", engine.to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("searched instead of counting") && err.contains("--perft-command"), "{err}");
    assert!(secs < 5.0, "{secs} s");
}

#[test]
fn perft_command_drives_an_engine_whose_perft_is_not_go_perft() {
    let divide = start_divide(|m| format!("{m}: 1"));
    let on_perft = format!("printf '%s\\n\\nNodes searched: 20\\n' '{divide}'");
    let body = format!(
        "while read -r line; do\n case \"$line\" in\n uci) echo uciok;;\n isready) echo readyok;;\n \
         'perft 1') {on_perft};;\n go*) echo \"Unknown command: $line\";;\n esac\ndone\n"
    );
    let engine = script("perft-word", &body);
    let engine = engine.to_str().unwrap();
    let (code, _, err, _) = chesstool(&["divide", "--depth", "1", "--engine-uci", engine]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("does not know the command") && err.contains("Unknown command: go perft 1"), "{err}");
    let (code, out, err, _) =
        chesstool(&["divide", "--depth", "1", "--engine-uci", engine, "--perft-command", "perft {depth}"]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, _, err, _) = chesstool(&["divide", "--depth", "1", "--perft-command", "perft"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_slow_handshake_has_its_own_short_limit() {
    let engine = script("mute", "sleep 30\n");
    let engine = engine.to_str().unwrap();
    let (code, _, err, secs) =
        chesstool(&["divide", "--depth", "1", "--timeout", "60", "--handshake-timeout", "1", "--engine-uci", engine]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("within 1 s") && err.contains("--handshake-timeout"), "{err}");
    assert!(secs < 5.0, "{secs} s");
}

#[test]
fn a_divide_on_stderr_is_named_and_merge_reads_it() {
    let divide = start_divide(|m| format!("{m}: 1"));
    let engine =
        uci_engine("stderr-divider", "go perft", &format!("printf '%s\\n\\nNodes searched: 20\\n' '{divide}' >&2"));
    let engine = engine.to_str().unwrap();
    let (code, _, err, secs) = chesstool(&["divide", "--depth", "1", "--timeout", "60", "--engine-uci", engine]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("20 line(s) like \"a2a3: 1\"") && err.contains("--engine-stderr merge"), "{err}");
    assert!(secs < 5.0, "{secs} s");
    let (code, out, err, _) =
        chesstool(&["divide", "--depth", "1", "--engine-uci", engine, "--engine-stderr", "merge"]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn debug_lines_and_boards_among_the_moves_are_skipped() {
    let mut lines: Vec<String> = START_MOVES.iter().map(|m| format!("{m}: 1")).collect();
    lines.insert(3, "Debug: Move f2f4 has 20 nodes at depth 2".into());
    lines.insert(7, " +---+---+---+---+---+---+---+---+".into());
    lines.insert(8, " | r | n | b | q | k | b | n | r | 8".into());
    lines.insert(9, "   a   b   c   d   e   f   g   h".into());
    let text = lines.join("\n");
    let engine = uci_engine("debugger", "go perft", &format!("printf '%s\\n\\nNodes searched: 20\\n' '{text}'"));
    let (code, out, err, _) = chesstool(&["divide", "--depth", "1", "--engine-uci", engine.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    // The same text pasted.
    let paste = script("debug-paste.txt", &format!("{text}\n\nNodes searched: 20\n"));
    let (code, out, err, _) = chesstool(&["divide", "--depth", "1", "--against", paste.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["skipped_lines"]["debug"], 1, "{out}");
    assert_eq!(json["skipped_lines"]["board"], 3, "{out}");
    // A line that starts like a move but cannot be read is an error with its number.
    let broken = script("broken-paste.txt", "a2a3: 1\na2a4 has one node\n");
    let (code, _, err, _) = chesstool(&["divide", "--depth", "1", "--against", broken.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 3"), "{err}");
}

#[test]
fn a_script_answer_without_its_total_was_cut_off() {
    let engine = script("cut", "echo 'e2e4 1'\necho 'd2d4 1'\n");
    let (code, _, err, _) = chesstool(&["divide", "--depth", "1", "--engine-script", engine.to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("cut off") && err.contains("\"d2d4 1\""), "{err}");
}

fn witness(fen: &str, depth: &str, protocol: &str, bug: &str) -> Value {
    let engine = format!("{} --bug {bug}", buggy_engine().display());
    let flag = format!("--engine-{protocol}");
    let (code, out, err, _) =
        chesstool(&["divide", "--fen", fen, "--depth", depth, "--bisect", "--json", &flag, &engine]);
    assert_eq!(code, 1, "{out}{err}");
    let json: Value = serde_json::from_str(&out).unwrap();
    json["witness"].clone()
}

#[test]
fn history_dependent_bugs_are_named() {
    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    for protocol in ["uci", "script"] {
        let w = witness(KIWIPETE, "4", protocol, "castle-rights-capture");
        assert_eq!(w["history_dependent"], true, "{w}");
        let w = witness("8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 1", "2", protocol, "ep-pin");
        assert_eq!(w["history_dependent"], false, "{w}");
        let w = witness("7k/3p4/8/1N2P3/8/8/8/4K3 b - - 0 1", "3", protocol, "ep-stale");
        assert_eq!(w["history_dependent"], true, "{w}");
        assert_eq!(w["path"][0], "d7d5", "{w}");
    }
    let engine = format!("{} --bug ep-stale", buggy_engine().display());
    let (code, out, _, _) = chesstool(&[
        "divide",
        "--fen",
        "7k/3p4/8/1N2P3/8/8/8/4K3 b - - 0 1",
        "--depth",
        "3",
        "--bisect",
        "--engine-script",
        &engine,
    ]);
    assert_eq!(code, 1);
    assert!(out.contains("make/unmake or incremental state"), "{out}");
}

#[test]
fn san_extras_in_a_paste_are_extra_moves() {
    // White in check from the rook on e8; python-chess lists Kd1 Kd2 Kf1
    // Kf2 Ne4 Nxe8. `Ng8` names the one knight that could go there.
    let fen = "k3r3/8/5N2/8/8/8/8/4K3 w - - 0 1";
    let paste = script("san-paste.txt", "Kd1: 1\nKd2: 1\nKf1: 1\nKf2: 1\nNe4: 1\nNxe8: 1\nNg8: 1\n");
    let (code, out, err, _) =
        chesstool(&["divide", "--fen", fen, "--depth", "1", "--against", paste.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1, "{out}{err}");
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["witness"]["extra"][0], "f6g8", "{out}");
    let hint = json["witness"]["hints"]["f6g8"].as_str().unwrap();
    assert!(hint.contains("does not answer the check from the rook on e8"), "{hint}");
    // SAN naming no piece move stays an input error.
    let paste = script("san-none.txt", "Kd1: 1\nQd5: 1\n");
    let (code, _, err, _) = chesstool(&["divide", "--fen", fen, "--depth", "1", "--against", paste.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
}
