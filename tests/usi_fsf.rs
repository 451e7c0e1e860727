//! The shogi world's conventions against Fairy-Stockfish in its USI mode:
//! SFEN written and read as its `d` prints it (`Fen:` and `Sfen:` lines) on
//! playout positions with hands; `--engine-usi` divides that match, and
//! that find the drop a `variants.ini` rule changes; pasted divides in USI
//! notation; hostile USI engines; bad SFENs. Every count is Fairy-
//! Stockfish's, read at run time.

mod common;
mod variants_support;
use assert_cmd::Command;
use chesstool::variants::variant::builtin;
use common::{alive, hostile_engine};
use predicates::prelude::*;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::time::{Duration, Instant};
use variants_support::{fairy_stockfish, playout_positions};

/// The variants with hands chesstool runs today.
const HANDS: &[&str] = &[
    "crazyhouse",
    "loop",
    "chessgi",
    "bughouse",
    "pocketknight",
    "capahouse",
    "placement",
    "koedem",
    "seirawan",
    "shouse",
    "dragon",
    "shogi",
    "minishogi",
    "judkins",
    "gorogoro",
    "mini",
    "checkshogi",
    "okisakishogi",
    "yarishogi",
    "euroshogi",
    "torishogi",
    "dobutsu",
    "kyotoshogi",
    "micro",
];

/// Fairy-Stockfish in USI mode.
struct Usi {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Usi {
    fn start() -> Option<Usi> {
        let path = fairy_stockfish()?;
        let mut child = std::process::Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start Fairy-Stockfish");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut usi = Usi { child, stdin, stdout };
        usi.send("usi");
        usi.read_until("usiok");
        Some(usi)
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn read_until(&mut self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "Fairy-Stockfish closed its output");
            let line = line.trim_end().to_string();
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Its `Fen:` and `Sfen:` lines for `position ARG` (`fen ...`, `sfen ...`).
    fn show(&mut self, variant: &str, position: &str) -> (String, String) {
        self.send(&format!("setoption name USI_Variant value {variant}"));
        self.send(&format!("position {position}"));
        self.send("d");
        let lines = self.read_until("Sfen: ");
        let fen = lines.iter().rev().find_map(|l| l.strip_prefix("Fen: ")).expect("a Fen line").to_string();
        let sfen = lines.last().unwrap().strip_prefix("Sfen: ").unwrap().to_string();
        (fen, sfen)
    }
}

impl Drop for Usi {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The fields of a FEN up to the clocks (positions carry no move count).
fn without_clocks(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    fields[..fields.len() - 2].join(" ")
}

/// The fields of an SFEN but the move number.
fn without_number(sfen: &str) -> String {
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    fields[..3].join(" ")
}

#[test]
fn sfen_round_trips_against_fairy_stockfish() {
    let Some(mut usi) = Usi::start() else { return };
    let mut checked = 0;
    let mut failures = Vec::new();
    for (i, &name) in HANDS.iter().chain(&["chess"]).enumerate() {
        let variant = builtin::load(name).unwrap();
        for fen in playout_positions(&variant, 2, 60, 470 + i as u64, |_, _, ply| ply % 7 == 6) {
            let pos = variant.parse_fen(&fen).unwrap();
            let (their_fen, their_sfen) = usi.show(name, &format!("fen {fen}"));
            // Written: as its `Sfen:` line.
            if variant.sfen(&pos) != their_sfen {
                failures.push(format!("{name} {fen}: ours {} Fairy-Stockfish {their_sfen}", variant.sfen(&pos)));
            }
            // Read: its SFEN is the position of its FEN, castling and e.p.
            // aside (SFEN has neither).
            let back = variant.parse_sfen(&their_sfen).unwrap_or_else(|e| panic!("{name} {their_sfen}: {e}"));
            let (sfen_fen, _) = usi.show(name, &format!("sfen {their_sfen}"));
            if without_clocks(&variant.fen(&back)) != without_clocks(&sfen_fen) {
                failures.push(format!("{name} {their_sfen}: ours {} Fairy-Stockfish {sfen_fen}", variant.fen(&back)));
            }
            let _ = their_fen;
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 30, "{checked} positions");
}

#[test]
fn sfen_with_hands_is_the_position_fairy_stockfish_reads() {
    let Some(mut usi) = Usi::start() else { return };
    let variant = builtin::load("crazyhouse").unwrap();
    for sfen in [
        "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR b Pp 5",
        "4k3/1P6/8/8/8/8/8/4K3 w QRr2p 6",
        "r3k2r/8/8/8/8/8/8/R3K2R b 2P10pn 1",
    ] {
        let (fen, their_sfen) = usi.show("crazyhouse", &format!("sfen {sfen}"));
        let ours = variant.parse_sfen(sfen).unwrap();
        assert_eq!(without_clocks(&variant.fen(&ours)), without_clocks(&fen), "{sfen}");
        assert_eq!(without_number(&variant.sfen(&ours)), without_number(&their_sfen), "{sfen}");
    }
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chesstool-usi-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn fsf_cmd() -> Option<String> {
    fairy_stockfish().map(|p| p.display().to_string())
}

fn chesstool() -> Command {
    let mut cmd = Command::cargo_bin("chesstool").unwrap();
    cmd.timeout(Duration::from_secs(120));
    cmd
}

#[test]
fn divide_with_engine_usi_matches_fairy_stockfish() {
    let Some(fsf) = fsf_cmd() else { return };
    for args in [
        vec!["--variant", "crazyhouse", "--depth", "3"],
        // An SFEN root with hands (FEN elsewhere, `sfen` word optional).
        vec![
            "--variant",
            "crazyhouse",
            "--depth",
            "2",
            "--fen",
            "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR b Pp 5",
        ],
        vec!["--variant", "crazyhouse", "--depth", "2", "--fen", "sfen 4k3/1P6/8/8/8/8/8/4K3 w QRr2p 6"],
        // A FEN root with castling rights goes as `position fen`.
        vec!["--variant", "crazyhouse", "--depth", "2", "--fen", "r3k2r/8/8/8/8/8/8/R3K2R[Pn] w KQkq - 0 1"],
        vec!["--variant", "capahouse", "--depth", "2"],
        vec!["--variant", "chess", "--depth", "3", "--fen", "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1"],
        // Shogi in its own notation: the SFEN start, `8h2b+` (the bishop
        // trade that promotes) and pawn drops such as `P*5e` in hand.
        vec![
            "--variant",
            "shogi",
            "--depth",
            "2",
            "--fen",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        ],
        vec![
            "--variant",
            "shogi",
            "--depth",
            "2",
            "--fen",
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
        ],
        vec![
            "--variant",
            "shogi",
            "--depth",
            "2",
            "--fen",
            "lnsgkgsnl/1r7/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5",
        ],
        vec!["--variant", "minishogi", "--depth", "3"],
    ] {
        chesstool().arg("divide").args(&args).args(["--engine-usi", &fsf]).assert().code(0);
    }
}

#[test]
fn suite_and_fuzz_run_with_engine_usi() {
    let Some(fsf) = fsf_cmd() else { return };
    let Some(mut usi) = Usi::start() else { return };
    let sfen = "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR b Pp 5";
    usi.send("setoption name USI_Variant value crazyhouse");
    usi.send(&format!("position sfen {sfen}"));
    usi.send("go perft 2");
    let total = usi.read_until("Nodes searched").last().unwrap().trim_start_matches("Nodes searched: ").to_string();
    let dir = scratch("suite");
    let suite = dir.join("house.epd");
    std::fs::write(&suite, format!("{sfen} ;D2 {total}\n")).unwrap();
    chesstool().args(["suite", "--variant", "crazyhouse", "--engine-usi", &fsf]).arg(&suite).assert().code(0);
    chesstool()
        .args(["fuzz", "--variant", "crazyhouse", "--engine-usi", &fsf, "--positions", "20", "--seed", "7"])
        .args(["--depth", "2"])
        .assert()
        .code(0);
}

/// A wrapper that runs Fairy-Stockfish with another variants.ini than the
/// one it is told (so that it plays a rule ours does not).
fn wrapper(dir: &Path, fsf: &str, ini: &Path) -> String {
    let script = dir.join("other-rules.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nsed -u 's#^setoption name VariantPath value .*#setoption name VariantPath value {}#' | exec {fsf}\n",
            ini.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script.display().to_string()
}

#[test]
fn engine_usi_finds_a_changed_drop_rule() {
    let Some(fsf) = fsf_cmd() else { return };
    let dir = scratch("rule");
    let ours = dir.join("ours.ini");
    let theirs = dir.join("theirs.ini");
    std::fs::write(&ours, "[usihouse:crazyhouse]\nfirstRankPawnDrops = true\n").unwrap();
    std::fs::write(&theirs, "[usihouse:crazyhouse]\n").unwrap();
    let engine = wrapper(&dir, &fsf, &theirs);
    let ours = ours.display().to_string();
    // Through the real engine (the same file): a match.
    chesstool()
        .args(["divide", "--variant", "usihouse", "--variant-path", &ours, "--depth", "2"])
        .args(["--fen", "4k3/8/8/8/8/8/8/R3K3 b P 1", "--engine-usi", &fsf])
        .assert()
        .code(0);
    // Through the wrapper: the drop on the first rank, found and named.
    chesstool()
        .args(["divide", "--variant", "usihouse", "--variant-path", &ours, "--depth", "2"])
        .args(["--fen", "4k3/8/8/8/8/8/8/R3K3 b P 1", "--engine-usi", &engine])
        .assert()
        .code(1)
        // In USI, the default of a USI run: b1 is 7h, a1 is 8h.
        .stdout(predicate::str::contains("P*7h").or(predicate::str::contains("P*8h")));
}

#[test]
fn a_pasted_divide_in_usi_notation_is_read() {
    let Some(mut usi) = Usi::start() else { return };
    usi.send("setoption name USI_Variant value crazyhouse");
    usi.send("position sfen rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR b Pp 5");
    usi.send("go perft 2");
    let answer = usi.read_until("Nodes searched").join("\n");
    assert!(answer.contains("P*5e: "), "{answer}");
    let dir = scratch("pasted");
    let pasted = dir.join("usi.txt");
    std::fs::write(&pasted, &answer).unwrap();
    let fen = "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR b Pp 5";
    chesstool()
        .args(["divide", "--variant", "crazyhouse", "--depth", "2", "--fen", fen, "--against"])
        .arg(&pasted)
        .assert()
        .code(0);
    // A drop onto an occupied square (5h is d1, the queen's): an extra move, named.
    let total: u64 = answer.lines().find_map(|l| l.strip_prefix("Nodes searched: ")).unwrap().trim().parse().unwrap();
    let with_extra =
        answer.replace(&format!("Nodes searched: {total}"), &format!("P*5h: 30\nNodes searched: {}", total + 30));
    std::fs::write(&pasted, with_extra).unwrap();
    chesstool()
        .args(["divide", "--variant", "crazyhouse", "--depth", "2", "--fen", fen, "--against"])
        .arg(&pasted)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("P@d1").and(predicate::str::contains("d1 in the way")));
}

#[test]
fn bad_sfen_exits_2_naming_the_field() {
    for (sfen, needle) in [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b 0P 1", "hand"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b P2 1", "hand"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b 99P 1", "hand"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b X 1", "X"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x - 1", "side"),
        ("sfen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1 9", "fields"),
    ] {
        chesstool()
            .args(["perft", "--variant", "crazyhouse", "--depth", "1", "--fen", sfen])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("SFEN").and(predicate::str::contains(needle)));
    }
    // No USI form without a variant.
    chesstool()
        .args(["divide", "--depth", "1", "--engine-usi", "/bin/cat"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--engine-usi needs a --variant"));
    // A hand on a variant without hands.
    chesstool()
        .args(["perft", "--variant", "chess", "--depth", "1", "--fen"])
        .arg("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b P 1")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("hand"));
}

#[test]
fn hostile_usi_engines_exit_3_and_leave_nothing_behind() {
    let engine = hostile_engine();
    let dir = scratch("hostile");
    for (mode, needle) in
        [("flood", "garbage in answer"), ("dies-mid-line", "while answering"), ("slow-start", "usiok")]
    {
        let pids = dir.join(format!("{mode}.pids"));
        let started = Instant::now();
        let out = chesstool()
            .env("HOSTILE_PIDFILE", &pids)
            .args(["divide", "--variant", "crazyhouse", "--depth", "2", "--timeout", "2"])
            .args(["--engine-usi", &format!("{} --mode {mode} --child", engine.display())])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{mode}: {stderr}");
        assert!(started.elapsed() < Duration::from_secs(5), "{mode}: {:?}", started.elapsed());
        assert!(stderr.contains(needle), "{mode}: {stderr}");
        std::thread::sleep(Duration::from_millis(300));
        let text = std::fs::read_to_string(&pids).unwrap_or_default();
        for pid in text.lines().filter_map(|l| l.trim().parse::<i32>().ok()) {
            assert!(!alive(pid), "{mode}: {pid} still running");
        }
    }
}
