//! Every reader of a file or standard input is bounded (issue 34, item 1):
//! fed `/dev/zero`, `/dev/urandom`, a 50 MB line, a 4 GB sparse file,
//! random bytes and an empty file, each command ends with exit 2 within
//! 5 s, with one short error line and no panic. Also the short errors of
//! item 5 and the empty inputs of item 4.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

mod common;

/// The hostile inputs, made once: a 50 MB line, a 4 GB sparse file, 64 KB
/// of random bytes, 1 MB copied from /dev/urandom, an empty file.
struct Inputs {
    dir: PathBuf,
}

fn inputs() -> &'static Inputs {
    static INPUTS: OnceLock<Inputs> = OnceLock::new();
    INPUTS.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("chesstool-bounded-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("line50m"), vec![b'a'; 50 << 20]).unwrap();
        std::fs::File::create(dir.join("sparse4g")).unwrap().set_len(4 << 30).unwrap();
        let mut rng = common::Rng::new(34);
        let random: Vec<u8> = (0..64 << 10).map(|_| rng.below(256) as u8).collect();
        std::fs::write(dir.join("random.bin"), random).unwrap();
        let mut urandom = Vec::new();
        std::io::Read::read_to_end(
            &mut std::io::Read::take(std::fs::File::open("/dev/urandom").unwrap(), 1 << 20),
            &mut urandom,
        )
        .unwrap();
        std::fs::write(dir.join("urandom.bin"), urandom).unwrap();
        std::fs::write(dir.join("empty"), b"").unwrap();
        Inputs { dir }
    })
}

impl Inputs {
    /// Every hostile file, by a name for the messages.
    fn files(&self) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = ["/dev/zero", "/dev/urandom"].iter().map(PathBuf::from).collect();
        files.extend(["line50m", "sparse4g", "random.bin", "urandom.bin", "empty"].map(|f| self.dir.join(f)));
        files
    }
}

/// The commands that read a file: `{}` is the file, `{out}` an output path.
const READERS: &[&str] = &[
    "suite {}",
    "divide --depth 2 --against {}",
    "tictacchess divide --depth 1 --against {}",
    "book build -o {out} {}",
    "book dump {}",
    "book probe {}",
    "book verify {}",
    "book export-polyglot -o {out} {}",
    "book import-polyglot -o {out} {}",
    "magic-search --verify {}",
    "perft --depth 1 --variant x --variant-path {}",
    "perft merge {} {}",
];

/// Runs `chesstool` with `args` (and `stdin`), checking what every hostile
/// input must give: exit 2 in 5 s, one short `error:` line, no panic.
fn check(args: &[String], stdin: Option<&Path>) {
    let started = Instant::now();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_chesstool"));
    cmd.args(args).stdout(Stdio::null()).stderr(Stdio::piped());
    cmd.stdin(match stdin {
        Some(path) => Stdio::from(std::fs::File::open(path).unwrap()),
        None => Stdio::null(),
    });
    let mut child = cmd.spawn().unwrap();
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(stderr).unwrap_or_default());
    let deadline = started + Duration::from_secs(5);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} (stdin {stdin:?}) still runs after 5 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let err = reader.join().unwrap();
    assert_eq!(status.code(), Some(2), "{args:?} (stdin {stdin:?}): {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    let line =
        err.lines().find(|l| l.starts_with("error:")).unwrap_or_else(|| panic!("{args:?}: no error line: {err}"));
    assert!(line.len() < 300, "{args:?}: a {}-byte error line: {line}", line.len());
    let rss = largest_child_rss_kib();
    assert!(rss < 128 << 10, "{args:?} (or another command of these tests) peaked at {rss} KiB");
}

/// The largest resident size of any child waited for so far, in KiB.
fn largest_child_rss_kib() -> i64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    usage.ru_maxrss
}

fn args(command: &str, file: &Path, out: &Path) -> Vec<String> {
    command
        .split(' ')
        .map(|w| match w {
            "{}" => file.display().to_string(),
            "{out}" => out.display().to_string(),
            w => w.to_string(),
        })
        .collect()
}

#[test]
fn every_reader_refuses_hostile_files_quickly() {
    let inputs = inputs();
    let out = inputs.dir.join("out.book");
    for file in inputs.files() {
        for command in READERS {
            check(&args(command, &file, &out), None);
            assert!(!out.exists(), "{command} {file:?} wrote {out:?}");
        }
    }
}

#[test]
fn standard_input_is_bounded_too() {
    let inputs = inputs();
    let out = inputs.dir.join("stdin-out.book");
    let stdin_readers = [
        "suite -",
        "divide --depth 2 --against -",
        "book build -o {out} -",
        "book dump -",
        "book import-polyglot -o {out} -",
    ];
    for file in ["/dev/zero", "/dev/urandom"].iter().map(Path::new).chain([inputs.dir.join("line50m").as_path()]) {
        for command in stdin_readers {
            check(&args(command, Path::new("-"), &out), Some(file));
        }
    }
}

#[test]
fn perft_units_are_bounded() {
    // A unit must be a regular file: the copies and the 50 MB line stand in
    // for the devices; a manifest beside it lists it.
    let inputs = inputs();
    for name in ["line50m", "sparse4g", "random.bin", "urandom.bin", "empty"] {
        let dir = inputs.dir.join(format!("units-{name}"));
        std::fs::create_dir_all(&dir).unwrap();
        let unit = dir.join("unit-0001.txt");
        let _ = std::fs::remove_file(&unit);
        std::os::unix::fs::symlink(inputs.dir.join(name), &unit).unwrap();
        let out = dir.join("out.txt");
        check(&args("perft unit -o {out} {}", &unit, &out), None);
    }
}

#[test]
fn a_tictacchess_table_that_is_not_one_is_refused() {
    for file in inputs().files() {
        let table = file.display().to_string();
        check(&["tictacchess".into(), "solve".into(), "--table".into(), table], None);
    }
}

#[test]
fn binary_garbage_is_named_at_its_line() {
    let dir = &inputs().dir;
    let file = dir.join("binary-line.epd");
    std::fs::write(&file, b"# a suite\n\x00\x01\x02\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_chesstool")).arg("suite").arg(&file).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("line 2 is not text"), "{err}");
    // The 414-character line of issue 34: Latin-1 garbage now ends short.
    let latin = dir.join("latin.epd");
    let mut bytes = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 ".to_vec();
    bytes.extend((0..400).map(|i| 0x80 + (i % 0x7f) as u8));
    bytes.push(b'\n');
    std::fs::write(&latin, bytes).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_chesstool")).arg("suite").arg(&latin).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.lines().all(|l| l.chars().count() < 300), "{err}");
}

#[test]
fn a_long_betza_string_is_quoted_short() {
    let notation = format!("{}!{}", "N".repeat(300), "W".repeat(300));
    let out = Command::new(env!("CARGO_BIN_EXE_chesstool")).args(["betza", "compile", &notation]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("at character 301"), "{err}");
    assert!(err.lines().all(|l| l.chars().count() < 200), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // With --verbose the window and the caret follow the error line; the
    // caret still points at the fault inside the window shown.
    let out = Command::new(env!("CARGO_BIN_EXE_chesstool"))
        .args(["betza", "compile", "--verbose", &notation])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.lines().all(|l| l.chars().count() < 200), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    let column = lines[2].find('^').unwrap();
    assert_eq!(lines[1].chars().nth(column), Some('!'), "{err}");
}

#[test]
fn nothing_from_nothing() {
    let dir = &inputs().dir;
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_chesstool")).args(args).output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let book = dir.join("nothing.book").display().to_string();
    let empty = dir.join("empty").display().to_string();
    let random = dir.join("random.bin").display().to_string();
    let (code, err) = run(&["book", "build", "-o", &book, &empty]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no move"), "{err}");
    let (code, err) = run(&["book", "import-polyglot", "-o", &book, &random]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("nothing to import"), "{err}");
    assert!(!Path::new(&book).exists());
    for command in ["dump", "probe", "verify"] {
        let (code, err) = run(&["book", command, &empty]);
        assert_eq!(code, Some(2), "{command}: {err}");
        assert!(err.contains("the book is empty"), "{command}: {err}");
    }
    let (code, err) = run(&["betza", "compile", ""]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("empty"), "{err}");
    let (code, err) = run(&["betza", "show", "N", "--fen", "8/8/8/8/8/8/8/4K3"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no piece under test"), "{err}");
    // With --square the piece is placed there, as asked.
    let (code, err) = run(&["betza", "show", "N", "--fen", "8/8/8/8/8/8/8/4K3", "--square", "d4"]);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn a_normal_suite_on_standard_input_still_reads() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesstool"))
        .args(["suite", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\r\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
}
