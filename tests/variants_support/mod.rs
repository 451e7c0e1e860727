//! Shared by the variant tests: Fairy-Stockfish over a real pipe, and our
//! divide in its text form.
#![allow(dead_code)]

use chesstool::variants::board::{Position, NO_SQUARE};
use chesstool::variants::count::perft;
use chesstool::variants::variant::user_ini;
use chesstool::variants::Variant;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

pub fn ini_path() -> String {
    format!("{}/tests/variants/fairy.ini", env!("CARGO_MANIFEST_DIR"))
}

pub fn load(name: &str) -> Variant {
    user_ini::load(&ini_path(), name).unwrap_or_else(|e| panic!("{e}"))
}

/// The Fairy-Stockfish binary: `$FAIRY_STOCKFISH`, then the place
/// `scripts/build_fairy_stockfish.sh` installs it.
pub fn fairy_stockfish() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("FAIRY_STOCKFISH") {
        let p = PathBuf::from(p);
        return p.is_file().then_some(p);
    }
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/fairy-stockfish/fairy-stockfish");
    p.is_file().then_some(p)
}

/// Fairy-Stockfish, one process for many questions.
pub struct Fsf {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Fsf {
    /// `None` (and a note on stderr) when the binary is not built; CI builds it.
    pub fn start() -> Option<Fsf> {
        Fsf::start_with(&ini_path())
    }

    /// Fairy-Stockfish reading the variants of `ini`.
    pub fn start_with(ini: &str) -> Option<Fsf> {
        let Some(path) = fairy_stockfish() else {
            assert!(
                std::env::var_os("CI").is_none(),
                "Fairy-Stockfish is not built: run scripts/build_fairy_stockfish.sh"
            );
            eprintln!("skipping: Fairy-Stockfish not built (scripts/build_fairy_stockfish.sh)");
            return None;
        };
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start Fairy-Stockfish");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut fsf = Fsf { child, stdin, stdout };
        fsf.send("uci");
        fsf.read_until("uciok");
        fsf.send(&format!("setoption name VariantPath value {ini}"));
        Some(fsf)
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write to Fairy-Stockfish");
        self.stdin.flush().expect("flush");
    }

    fn read_until(&mut self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("read from Fairy-Stockfish");
            assert!(n > 0, "Fairy-Stockfish closed its output");
            let line = line.trim_end().to_string();
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Fairy-Stockfish's FEN (its `d` command) of `fen` after `moves`.
    pub fn fen_after(&mut self, variant: &str, fen: &str, moves: &[&str]) -> String {
        self.send(&format!("setoption name UCI_Variant value {variant}"));
        self.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        self.send("d");
        let lines = self.read_until("Fen: ");
        lines.last().and_then(|l| l.strip_prefix("Fen: ")).expect("a Fen line").to_string()
    }

    /// The pieces giving check (Fairy-Stockfish's `d`: its `Checkers:`
    /// line, empty when none) in `fen` after `moves`.
    pub fn checkers(&mut self, variant: &str, fen: &str, moves: &[&str]) -> String {
        self.send(&format!("setoption name UCI_Variant value {variant}"));
        self.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        self.send("d");
        let lines = self.read_until("Checkers:");
        lines.last().and_then(|l| l.strip_prefix("Checkers:")).expect("a Checkers line").trim().to_string()
    }

    /// Fairy-Stockfish's divide: move -> count, and the total.
    pub fn divide(&mut self, variant: &str, fen: &str, moves: &[&str], depth: u32) -> (BTreeMap<String, u64>, u64) {
        self.send(&format!("setoption name UCI_Variant value {variant}"));
        let moves = if moves.is_empty() { String::new() } else { format!(" moves {}", moves.join(" ")) };
        self.send(&format!("position fen {fen}{moves}"));
        self.send(&format!("go perft {depth}"));
        let mut map = BTreeMap::new();
        let mut total = 0;
        for line in self.read_until("Nodes searched") {
            if let Some(n) = line.strip_prefix("Nodes searched: ") {
                total = n.trim().parse().expect("a count");
            } else if let Some((mv, n)) = line.split_once(": ") {
                if let Ok(n) = n.trim().parse() {
                    map.insert(mv.to_string(), n);
                }
            }
        }
        (map, total)
    }
}

impl Drop for Fsf {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Our divide with Fairy-Stockfish's move text.
pub fn our_divide(variant: &Variant, fen: &str, depth: u32) -> (BTreeMap<String, u64>, u64) {
    let pos = variant.parse_fen(fen).unwrap_or_else(|e| panic!("{e}"));
    let mut map = BTreeMap::new();
    let mut total = 0;
    for (mv, n) in perft::divide(variant, &pos, depth) {
        assert!(map.insert(variant.move_text(&pos, mv), n).is_none(), "a move listed twice");
        total += n;
    }
    (map, total)
}

/// Compares our divide with Fairy-Stockfish's; panics with the differences.
pub fn compare(fsf: &mut Fsf, name: &str, fen: &str, depth: u32) -> u64 {
    let variant = load(name);
    let ours = our_divide(&variant, fen, depth);
    let theirs = fsf.divide(name, fen, &[], depth);
    if ours != theirs {
        panic!(
            "{name} {fen} depth {depth}: ours {} Fairy-Stockfish {}: {}",
            ours.1,
            theirs.1,
            differences(&ours, &theirs)
        );
    }
    ours.1
}

/// The moves where two divides differ, in words.
pub fn differences(ours: &(BTreeMap<String, u64>, u64), theirs: &(BTreeMap<String, u64>, u64)) -> String {
    let mut diffs = Vec::new();
    for (mv, n) in &theirs.0 {
        match ours.0.get(mv) {
            None => diffs.push(format!("missing {mv} ({n})")),
            Some(m) if m != n => diffs.push(format!("{mv}: ours {m}, Fairy-Stockfish {n}")),
            _ => {}
        }
    }
    for mv in ours.0.keys().filter(|m| !theirs.0.contains_key(*m)) {
        diffs.push(format!("extra {mv}"));
    }
    diffs.join("; ")
}

/// A small deterministic generator for random playouts.
pub struct Lcg(pub u64);
impl Lcg {
    /// A number below `n`.
    pub fn next(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

/// Positions from seeded random games, those `keep` picks after each ply
/// (our generator only picks them; both generators count them).
pub fn playout_positions(
    variant: &Variant,
    games: usize,
    plies: usize,
    seed: u64,
    mut keep: impl FnMut(&Variant, &mut Position, usize) -> bool,
) -> Vec<String> {
    let mut rng = Lcg(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = variant.parse_fen(&variant.start_fen).unwrap();
        for ply in 0..plies {
            let moves = variant.tables.legal_moves(&mut pos);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.next(moves.len())];
            variant.tables.play(&mut pos, mv);
            // A game won by blowing up the king (atomic) ends on a
            // position without it, which FEN readers refuse: not kept.
            let kingless = variant.royal.is_some()
                && pos.royal.iter().zip(variant.royal_optional).any(|(&r, optional)| r == NO_SQUARE && !optional);
            if (keep(variant, &mut pos, ply) || ply + 1 == plies) && !kingless {
                out.push(variant.fen(&pos));
            }
        }
    }
    out
}

/// Our divide of the built-in `name` against Fairy-Stockfish's; `Err` names
/// the differences (or our panic) unless `excused` accepts them as a known,
/// documented disagreement.
pub fn check_excused(
    fsf: &mut Fsf,
    name: &str,
    fen: &str,
    depth: u32,
    excused: impl FnOnce(&mut Fsf, &Variant) -> bool,
) -> Result<u64, String> {
    let variant = chesstool::variants::variant::builtin::load(name).map_err(|e| e.to_string())?;
    let ours = std::panic::catch_unwind(|| our_divide(&variant, fen, depth))
        .map_err(|_| format!("{name} {fen} depth {depth}: our generator panicked"))?;
    let theirs = fsf.divide(name, fen, &[], depth);
    if ours != theirs && !excused(fsf, &variant) {
        return Err(format!(
            "{name} {fen} depth {depth}: ours {} Fairy-Stockfish {}: {}",
            ours.1,
            theirs.1,
            differences(&ours, &theirs)
        ));
    }
    Ok(ours.1)
}

/// [`check_excused`] with nothing excused.
pub fn check(fsf: &mut Fsf, name: &str, fen: &str, depth: u32) -> Result<u64, String> {
    check_excused(fsf, name, fen, depth, |_, _| false)
}

/// Positions of Fairy-Stockfish's own random games, `variant|FEN` lines of
/// `tests/variants/<file>` (made by `scripts/fsf_playouts.py`).
pub fn fsf_playouts(file: &str) -> Vec<(String, String)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/variants").join(file);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter_map(|l| l.split_once('|').map(|(v, f)| (v.to_string(), f.to_string())))
        .collect()
}

/// A check of one position: [`check`], or one that excuses something.
pub type Check<'a> = &'a mut dyn FnMut(&mut Fsf, &str, &str, u32) -> Result<u64, String>;

/// Every `(variant, depth)` from its start position; the failures.
pub fn from_the_start(fsf: &mut Fsf, variants: &[(&str, u32)], check: Check) -> Vec<String> {
    variants
        .iter()
        .filter_map(|&(name, depth)| {
            let start = chesstool::variants::variant::builtin::load(name).unwrap().start_fen;
            check(fsf, name, &start, depth).err()
        })
        .collect()
}

/// Seeded random games of our own: how many games, how many plies, the
/// first seed (one more per variant) and which plies to keep.
pub struct Playouts {
    pub games: usize,
    pub plies: usize,
    pub seed: u64,
    pub keep: fn(usize) -> bool,
    pub depth: u32,
}

/// Every variant on our playouts at `plan.depth`; the first failure of each.
pub fn on_our_playouts(fsf: &mut Fsf, variants: &[(&str, u32)], plan: &Playouts, check: Check) -> Vec<String> {
    let mut failures = Vec::new();
    for (i, &(name, _)) in variants.iter().enumerate() {
        let variant = chesstool::variants::variant::builtin::load(name).unwrap();
        let keep = |_: &Variant, _: &mut Position, ply: usize| (plan.keep)(ply);
        for fen in playout_positions(&variant, plan.games, plan.plies, plan.seed + i as u64, keep) {
            if let Err(e) = check(fsf, name, &fen, plan.depth) {
                failures.push(e);
                break;
            }
        }
    }
    failures
}

/// Fairy-Stockfish's own games of `tests/variants/<file>` ([`fsf_playouts`]),
/// one ply deeper (3) on every `deeper`-th line and 2 on the others; the
/// failures.
pub fn on_fsf_playouts(fsf: &mut Fsf, file: &str, deeper: usize, check: Check) -> Vec<String> {
    fsf_playouts(file)
        .iter()
        .enumerate()
        .filter_map(|(i, (name, fen))| check(fsf, name, fen, if i % deeper == 0 { 3 } else { 2 }).err())
        .collect()
}

/// A constructed position: (variant, FEN, depth, the rule it shows).
pub type Rule = (&'static str, &'static str, u32, &'static str);

/// Every constructed position; the failures, each led by its rule.
pub fn on_rules(fsf: &mut Fsf, rules: &[Rule], check: Check) -> Vec<String> {
    rules
        .iter()
        .filter_map(|&(name, fen, depth, rule)| check(fsf, name, fen, depth).err().map(|e| format!("{rule}: {e}")))
        .collect()
}

/// `fuzz` (`positions` positions from seed 3) and `bench --depth 3` of the
/// built-in `name` against Fairy-Stockfish at `fsf`: both must agree with it.
pub fn fuzz_and_bench_agree(fsf: &str, name: &str, positions: u32) {
    let run = |args: &[&str]| -> serde_json::Value {
        let out = assert_cmd::Command::cargo_bin("chesstool")
            .expect("binary")
            .args(args)
            .args(["--variant", name, "--json"])
            .timeout(std::time::Duration::from_secs(300))
            .assert()
            .success();
        serde_json::from_slice(&out.get_output().stdout).expect("JSON")
    };
    let fuzz = run(&["fuzz", "--engine-uci", fsf, "--positions", &positions.to_string(), "--seed", "3"]);
    assert_eq!(fuzz["status"], "ok", "{name}: {fuzz}");
    let bench =
        run(&["bench", "--against-uci", fsf, "--depth", "3", "--runs", "1", "--min-time", "0", "--threads", "1"]);
    assert_eq!(bench["status"], "ok", "{name}: {bench}");
    assert_eq!(bench["rows"][0]["nodes"], bench["rows"][0]["engine_nodes"], "{name}: {bench}");
}

/// Our FEN's first three fields (board, side, castling or hand) of each
/// `(variant, FEN)` and after each of its first `take` legal moves, in the
/// order of `first` (captures, drops, gates first: they change the hands
/// and marks), are Fairy-Stockfish's.
pub fn fens_match_after_moves<K: Ord>(
    fsf: &mut Fsf,
    positions: &[(String, String)],
    take: usize,
    first: impl Fn(&Position, &chesstool::variants::Move) -> K,
) {
    let first3 = |f: &str| f.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    for (name, fen) in positions {
        let variant = chesstool::variants::variant::builtin::load(name).expect("a built-in");
        let mut pos = variant.parse_fen(fen).expect("a FEN of ours");
        assert_eq!(first3(&variant.fen(&pos)), first3(&fsf.fen_after(name, fen, &[])), "{name} {fen}");
        let mut moves = variant.tables.legal_moves(&mut pos);
        moves.sort_by_key(|m| first(&pos, m));
        for mv in moves.into_iter().take(take) {
            let text = variant.move_text(&pos, mv);
            let mut next = pos.clone();
            variant.tables.play(&mut next, mv);
            let theirs = fsf.fen_after(name, fen, &[&text]);
            assert_eq!(first3(&variant.fen(&next)), first3(&theirs), "{name} {fen} after {text}");
        }
    }
}
