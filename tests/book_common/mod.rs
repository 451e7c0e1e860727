//! Helpers of the book and move-order tests: the independent tools they
//! compare against (python-chess, Debian's `polyglot`, the gnuchess book).
//! Where a tool is missing the test says so and passes, except under CI
//! (`CI` set), where `.ci/run` installs them and a missing tool fails.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn missing(what: &str) -> Option<PathBuf> {
    if std::env::var_os("CI").is_some() {
        panic!("{what} is missing, but CI installs it (.ci/run)");
    }
    eprintln!("note: skipping, {what} is not installed");
    None
}

/// `python3` if it can `import chess`.
pub fn python_chess() -> Option<PathBuf> {
    let ok = Command::new("python3")
        .args(["-c", "import chess, chess.polyglot"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        Some(PathBuf::from("python3"))
    } else {
        missing("python-chess (pip install chess)")
    }
}

/// Debian's `polyglot` (in /usr/games).
pub fn polyglot() -> Option<PathBuf> {
    for dir in ["/usr/games", "/usr/bin", "/usr/local/bin"] {
        let path = Path::new(dir).join("polyglot");
        if path.exists() {
            return Some(path);
        }
    }
    missing("polyglot (apt-get install polyglot)")
}

/// The book of Debian's `gnuchess-book`.
pub fn gnuchess_book() -> Option<PathBuf> {
    let path = PathBuf::from("/usr/share/games/gnuchess/book.bin");
    if path.exists() {
        Some(path)
    } else {
        missing("/usr/share/games/gnuchess/book.bin (apt-get install gnuchess-book)")
    }
}

/// Runs a Python script (with python-chess) on `input`; returns stdout.
pub fn run_python(script: &str, args: &[&str], input: &str) -> String {
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "python failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// A fresh scratch directory under the target directory.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
