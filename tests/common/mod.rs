//! Helpers shared by the integration tests: the EPD perft suites, a tiny
//! seeded PRNG (no extra crates), the test engines and temporary directories.
#![allow(dead_code)]

pub mod oracle;

use std::path::PathBuf;
use std::sync::OnceLock;

/// One line of a `suites/*.epd` file: `FEN ;D1 n ;D2 n ...`.
#[derive(Debug, Clone)]
pub struct SuiteLine {
    pub file: &'static str,
    pub line: usize,
    pub fen: String,
    /// (depth, nodes) in file order.
    pub counts: Vec<(u32, u64)>,
}

pub const SUITES: [&str; 4] = ["standard.epd", "tricky.epd", "chess960.epd", "random.epd"];

pub fn suite_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("suites").join(name)
}

/// Parses one suite file; panics (with the line) on a malformed line, since
/// the suites are part of the repository.
pub fn read_suite(name: &'static str) -> Vec<SuiteLine> {
    let text = std::fs::read_to_string(suite_path(name)).unwrap_or_else(|e| panic!("cannot read suites/{name}: {e}"));
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim().to_string();
        let counts = parts
            .map(|p| {
                let p = p.trim();
                let (d, n) = p.split_once(' ').unwrap_or_else(|| panic!("suites/{name}:{}: bad field {p:?}", i + 1));
                let d: u32 = d
                    .strip_prefix('D')
                    .and_then(|d| d.parse().ok())
                    .unwrap_or_else(|| panic!("suites/{name}:{}: bad depth {d:?}", i + 1));
                let n: u64 = n.trim().parse().unwrap_or_else(|_| panic!("suites/{name}:{}: bad count {n:?}", i + 1));
                (d, n)
            })
            .collect();
        out.push(SuiteLine { file: name, line: i + 1, fen, counts });
    }
    assert!(!out.is_empty(), "suites/{name} has no positions");
    out
}

pub fn all_suites() -> Vec<SuiteLine> {
    SUITES.iter().flat_map(|s| read_suite(s)).collect()
}

/// xorshift64* — small, seeded, good enough to pick moves and bytes.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform-ish in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The example engine with injectable bugs, next to the test binary (`cargo
/// test` builds examples); built on demand when a single test target was asked for.
pub fn buggy_engine() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| example("buggy_engine"))
}

/// The buggy engine as one command line, with its arguments (`--bug NAME`, ...).
pub fn buggy_engine_cmd(args: &str) -> String {
    format!("{} {args}", buggy_engine().display())
}

/// `chesstool ARGS`, killed after `seconds`.
pub fn chesstool_with(args: &[&str], seconds: u64) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("chesstool").unwrap();
    cmd.args(args).timeout(std::time::Duration::from_secs(seconds));
    cmd
}

/// Every command path of `chesstool --help`, from the top (`[]`) down,
/// parents before children.
pub fn command_paths() -> Vec<Vec<String>> {
    let mut paths = vec![Vec::new()];
    let mut i = 0;
    while i < paths.len() {
        let out = assert_cmd::Command::cargo_bin("chesstool").unwrap().args(&paths[i]).arg("--help").output().unwrap();
        assert!(out.status.success(), "chesstool {} --help failed", paths[i].join(" "));
        for name in subcommands(&String::from_utf8(out.stdout).unwrap()) {
            let mut path = paths[i].clone();
            path.push(name);
            paths.push(path);
        }
        i += 1;
    }
    paths
}

/// The subcommands a `--help` page lists (not `help`).
fn subcommands(page: &str) -> Vec<String> {
    let mut inside = false;
    let mut names = Vec::new();
    for line in page.lines() {
        if line.starts_with("Commands:") {
            inside = true;
        } else if inside && line.starts_with("  ") && !line.trim().is_empty() {
            let name = line.split_whitespace().next().unwrap();
            if name != "help" {
                names.push(name.to_string());
            }
        } else {
            inside = false;
        }
    }
    names
}

/// The engines that misbehave on purpose (examples/hostile_engine.rs).
pub fn hostile_engine() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| example("hostile_engine"))
}

/// An example binary of this crate, built in the test's profile if missing.
pub fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let profile_dir = exe.parent().and_then(|d| d.parent()).expect("target/<profile>/deps");
    let path = profile_dir.join("examples").join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    if !path.exists() {
        let mut cargo = std::process::Command::new(env!("CARGO"));
        cargo.args(["build", "--quiet", "--example", name]);
        if profile_dir.ends_with("release") {
            cargo.arg("--release");
        }
        assert!(cargo.status().expect("cargo runs").success(), "cannot build examples/{name}");
    }
    path
}

/// A fresh directory under the system's temp dir for one test's files,
/// removed when dropped (the test's name in it, and a counter so that two
/// tests of one process never share it).
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("chesstool-test-{}-{n}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// Writes `bytes` to `name` in the directory; its path.
    pub fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs a command that prints one JSON document on stdout: (exit code, the
/// document, seconds taken); panics with both outputs if it is not JSON.
pub fn run_json(cmd: &mut assert_cmd::Command) -> (i32, serde_json::Value, f64) {
    let started = std::time::Instant::now();
    let out = cmd.output().unwrap();
    let seconds = started.elapsed().as_secs_f64();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    });
    (out.status.code().unwrap_or(-1), json, seconds)
}

/// True while `pid` is a live process (a zombie is dead: it only waits to be reaped).
pub fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => false,
        Ok(stat) => {
            let state = stat.rsplit_once(") ").and_then(|(_, rest)| rest.chars().next());
            !matches!(state, Some('Z' | 'X') | None)
        }
    }
}
