//! `--notation usi`: divides, witnesses, `--moves` and JSON in USI moves
//! and SFEN, the default of a USI run. The engine is Fairy-Stockfish in
//! USI mode told another `variants.ini` than ours (a shogi whose files may
//! hold two pawns, `dropNoDoubledCount = 2`, against the real rule); every
//! move list and SFEN the tests expect is Fairy-Stockfish's, read at run
//! time. Skipped without Fairy-Stockfish (`scripts/build_fairy_stockfish.sh`).

mod variants_support;
use assert_cmd::Command;
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;
use variants_support::fairy_stockfish;

/// Sente to move with a pawn in hand, a pawn on every file.
const SENTE_HAND: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1";
/// Gote holds the pawn: the difference shows one move down.
const GOTE_HAND: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b p 1";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chesstool-usi-notation-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Our rules (two pawns a file) and a wrapper that runs Fairy-Stockfish
/// with the real rule whatever `VariantPath` it is told.
struct Setup {
    dir: PathBuf,
    ours: String,
    engine: String,
}

impl Drop for Setup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn setup(name: &str) -> Option<Setup> {
    let fsf = fairy_stockfish()?;
    let dir = scratch(name);
    let ours = dir.join("ours.ini");
    let theirs = dir.join("theirs.ini");
    std::fs::write(&ours, "[nifu2:shogi]\ndropNoDoubledCount = 2\n").unwrap();
    std::fs::write(&theirs, "[nifu2:shogi]\n").unwrap();
    let script = dir.join("real-rule.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nsed -u 's#^setoption name VariantPath value .*#setoption name VariantPath value {}#' | exec {}\n",
            theirs.display(),
            fsf.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    Some(Setup { ours: ours.display().to_string(), engine: script.display().to_string(), dir })
}

/// Fairy-Stockfish in USI mode with `ini` (`nifu2`; none: shogi), the
/// commands sent, `quit`, all it printed.
fn fsf_usi(ini: &str, commands: &[String]) -> String {
    let mut child = std::process::Command::new(fairy_stockfish().unwrap())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // No file: plain shogi.
    let variant = if ini.is_empty() { "shogi" } else { "nifu2" };
    writeln!(stdin, "usi").unwrap();
    if !ini.is_empty() {
        writeln!(stdin, "setoption name VariantPath value {ini}").unwrap();
    }
    writeln!(stdin, "setoption name USI_Variant value {variant}").unwrap();
    for c in commands {
        writeln!(stdin, "{c}").unwrap();
    }
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap()
}

/// The moves of Fairy-Stockfish's `go perft 1` after `position`.
fn fsf_moves(ini: &str, position: &str) -> Vec<String> {
    let out = fsf_usi(ini, &[format!("position {position}"), "go perft 1".into()]);
    let mut moves: Vec<String> =
        out.lines().filter_map(|l| l.split_once(": ")).filter(|(_, n)| *n == "1").map(|(m, _)| m.into()).collect();
    moves.sort();
    moves
}

/// The `Sfen:` line of Fairy-Stockfish's `d` after `position`.
fn fsf_sfen(ini: &str, position: &str) -> String {
    let out = fsf_usi(ini, &[format!("position {position}"), "d".into()]);
    out.lines().find_map(|l| l.strip_prefix("Sfen: ")).expect("a Sfen: line").trim().to_string()
}

fn chesstool() -> Command {
    let mut cmd = Command::cargo_bin("chesstool").unwrap();
    cmd.timeout(Duration::from_secs(120));
    cmd
}

fn run_json(cmd: &mut Command) -> (i32, Value) {
    let out = cmd.output().unwrap();
    let j = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    });
    (out.status.code().unwrap_or(-1), j)
}

fn strings(v: &Value) -> Vec<String> {
    let mut list: Vec<String> = v.as_array().expect("a list").iter().map(|s| s.as_str().unwrap().into()).collect();
    list.sort();
    list
}

fn divide(s: &Setup, fen: &str) -> Command {
    let mut cmd = chesstool();
    cmd.args(["divide", "--variant", "nifu2", "--variant-path", &s.ours, "--fen", fen, "--depth", "2"]).args([
        "--bisect",
        "--engine-usi",
        &s.engine,
        "--quiet",
    ]);
    cmd
}

/// A USI run prints USI: the drops the real rule forbids are the witness,
/// as `P*5e`, at the root's SFEN as Fairy-Stockfish prints it.
#[test]
fn a_usi_run_prints_its_witness_in_usi_and_sfen() {
    let Some(s) = setup("root") else { return };
    let (code, j) = run_json(divide(&s, SENTE_HAND).arg("--json"));
    assert_eq!((code, j["status"].as_str()), (1, Some("mismatch")), "{j}");
    let w = &j["witness"];
    let ours: Vec<String> = fsf_moves(&s.ours, &format!("sfen {SENTE_HAND}"));
    let drops: Vec<String> = ours.iter().filter(|m| m.starts_with("P*")).cloned().collect();
    assert!(drops.len() > 10 && drops.contains(&"P*5e".to_string()), "{drops:?}");
    assert_eq!(strings(&w["missing"]), drops, "{j}");
    assert_eq!(strings(&w["extra"]), Vec::<String>::new(), "{j}");
    assert_eq!(w["position"].as_str().unwrap(), fsf_sfen(&s.ours, &format!("sfen {SENTE_HAND}")), "{j}");
    assert_eq!(j["root"].as_str().unwrap(), SENTE_HAND, "{j}");
    // The same as text: the table and the witness in USI, no `@` anywhere.
    let out = divide(&s, SENTE_HAND).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("P*5e") && !text.contains('@'), "{text}");
    assert!(text.contains(&format!("position: {SENTE_HAND}")), "{text}");
    // Asked for, Fairy-Stockfish's own notation: `P@e5`, a FEN with a hand.
    let out = divide(&s, SENTE_HAND).args(["--notation", "fsf"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("P@e5") && !text.contains("P*5e"), "{text}");
    assert!(text.contains("[P] w"), "{text}");
}

/// One move down: the path is a USI move Fairy-Stockfish lists at the
/// root, and the witness SFEN is the one it prints after that move.
#[test]
fn a_bisected_path_and_its_position_are_usi_and_sfen() {
    let Some(s) = setup("path") else { return };
    let (code, j) = run_json(divide(&s, GOTE_HAND).arg("--json"));
    assert_eq!((code, j["status"].as_str()), (1, Some("mismatch")), "{j}");
    let w = &j["witness"];
    let path = strings(&w["path"]);
    assert_eq!(path.len(), 1, "{j}");
    assert!(fsf_moves(&s.ours, &format!("sfen {GOTE_HAND}")).contains(&path[0]), "{j}");
    let after = format!("sfen {GOTE_HAND} moves {}", path[0]);
    assert_eq!(w["position"].as_str().unwrap(), fsf_sfen(&s.ours, &after), "{j}");
    let drops: Vec<String> = fsf_moves(&s.ours, &after).into_iter().filter(|m| m.starts_with("P*")).collect();
    assert!(!drops.is_empty());
    assert_eq!(strings(&w["missing"]), drops, "{j}");
}

/// `--moves` in USI, and `--notation usi` with our generator alone: the
/// divide's moves are Fairy-Stockfish's USI moves, with its counts.
#[test]
fn moves_and_our_divide_in_usi() {
    let Some(s) = setup("moves") else { return };
    let (code, j) = run_json(
        chesstool()
            .args(["divide", "--variant", "shogi", "--notation", "usi", "--depth", "2", "--json"])
            .args(["--moves", "7g7f", "3c3d"]),
    );
    assert_eq!(code, 0, "{j}");
    let out = fsf_usi("", &["position startpos moves 7g7f 3c3d".into(), "go perft 2".into()]);
    let fsf: std::collections::BTreeMap<String, u64> = out
        .lines()
        .filter_map(|l| l.split_once(": "))
        .filter_map(|(m, n)| Some((m.to_string(), n.trim().parse().ok()?)))
        .filter(|(m, _)| m.len() >= 4 && (m.as_bytes()[0].is_ascii_digit() || m.contains('*')))
        .collect();
    let ours: std::collections::BTreeMap<String, u64> =
        j["divide"].as_object().expect("a divide").iter().map(|(k, v)| (k.clone(), v.as_u64().unwrap())).collect();
    assert_eq!(strings(&j["moves"]), ["3c3d", "7g7f"], "{j}");
    // The board, side and hands of Fairy-Stockfish's SFEN (positions carry no move number).
    let sfen = fsf_sfen("", "startpos moves 7g7f 3c3d");
    let fields = |t: &str| t.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    assert_eq!(fields(j["position"].as_str().unwrap()), fields(&sfen), "{j}");
    assert_eq!(ours, fsf, "{j}");
    drop(s);
}
