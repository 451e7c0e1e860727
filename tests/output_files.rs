//! Output files are never silently overwritten: every option that writes a
//! file (`book build|dump|import-polyglot|export-polyglot -o`, `betza show
//! --svg`, `butterfly-plot --svg`, `magic-search -o`, `suite --junit`)
//! refuses a file that is also one of the command's inputs (even with
//! `--force`) and an existing file without `--force`, with exit 2 and one
//! `error:` line, leaving the file as it was; `--force` replaces it.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn chesstool() -> Command {
    Command::cargo_bin("chesstool").unwrap()
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/book").join(name)
}

/// A fresh scratch directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("output_files").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn copy(from: &Path, dir: &Path, name: &str) -> PathBuf {
    let to = dir.join(name);
    std::fs::copy(from, &to).unwrap();
    to
}

/// Runs chesstool with `args`; expects exit 2 and one `error:` line, returns it.
fn refused(args: &[&std::ffi::OsStr]) -> String {
    let out = chesstool().args(args).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("error: ") && err.lines().count() == 1, "{args:?}: {err}");
    err
}

fn succeeds(args: &[&std::ffi::OsStr]) {
    let out = chesstool().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// `args` as OS strings (paths and words mixed).
macro_rules! args {
    ($($a:expr),* $(,)?) => { &[$(std::ffi::OsStr::new($a)),*] };
}

/// No temporary file is left beside the outputs.
fn no_temporaries(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        assert!(!name.contains(".tmp-"), "left behind: {name}");
    }
}

/// The sweep's cases: each book subcommand given its own input as `-o`.
#[test]
fn an_output_that_is_an_input_is_refused_even_with_force() {
    let dir = scratch("same");
    let pgn = copy(&data("repertoire.pgn"), &dir, "src.pgn");
    let original = std::fs::read(&pgn).unwrap();
    for force in [&[][..], &["--force"][..]] {
        let mut args: Vec<&std::ffi::OsStr> = args!["book", "build", &pgn, "-o", &pgn].to_vec();
        args.extend(force.iter().map(std::ffi::OsStr::new));
        let err = refused(&args);
        assert!(err.contains("-o") && err.contains("src.pgn: is also an input"), "{err}");
        assert_eq!(std::fs::read(&pgn).unwrap(), original, "the PGN is untouched");
    }
    // Another name for the same file: a path through `..`, a hard link, a symbolic link.
    let sub = dir.join("sub");
    std::fs::create_dir(&sub).unwrap();
    let dotted = sub.join("../src.pgn");
    let hard = dir.join("hard.pgn");
    std::fs::hard_link(&pgn, &hard).unwrap();
    let soft = dir.join("soft.pgn");
    std::os::unix::fs::symlink(&pgn, &soft).unwrap();
    for other in [&dotted, &hard, &soft] {
        let err = refused(args!["book", "build", &pgn, "-o", other, "--force"]);
        assert!(err.contains("is also an input"), "{other:?}: {err}");
    }
    assert_eq!(std::fs::read(&pgn).unwrap(), original);

    let book = dir.join("s.book");
    succeeds(args!["book", "build", &pgn, "-o", &book]);
    let book_bytes = std::fs::read(&book).unwrap();
    let err = refused(args!["book", "dump", &book, "-o", &book, "--force"]);
    assert!(err.contains("s.book: is also an input"), "{err}");
    let err = refused(args!["book", "export-polyglot", &book, "-o", &book, "--force"]);
    assert!(err.contains("s.book: is also an input"), "{err}");
    assert_eq!(std::fs::read(&book).unwrap(), book_bytes, "the book is untouched");

    let bin = dir.join("x.bin");
    succeeds(args!["book", "export-polyglot", &book, "-o", &bin]);
    let bin_bytes = std::fs::read(&bin).unwrap();
    let err = refused(args!["book", "import-polyglot", &bin, "-o", &bin, "--force"]);
    assert!(err.contains("x.bin: is also an input"), "{err}");
    assert_eq!(std::fs::read(&bin).unwrap(), bin_bytes, "the Polyglot book is untouched");

    // Standard input is an input too: `book dump - -o s.book < s.book`.
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("chesstool"))
        .args(args!["book", "dump", "-", "-o", &book, "--force"])
        .stdin(std::fs::File::open(&book).unwrap())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("s.book: is also an input"), "{err}");
    assert_eq!(std::fs::read(&book).unwrap(), book_bytes);
    no_temporaries(&dir);
}

#[test]
fn an_existing_book_needs_force() {
    let dir = scratch("book");
    let keep = dir.join("keep.book");
    std::fs::write(&keep, b"precious").unwrap();
    let lines = data("lines.txt");
    let err = refused(args!["book", "build", "-o", &keep, &lines]);
    assert!(err.contains("-o") && err.contains("keep.book: the file exists (--force replaces it)"), "{err}");
    assert_eq!(std::fs::read(&keep).unwrap(), b"precious");
    // The check comes before the work: even a bad input is not read first.
    let err = refused(args!["book", "build", "-o", &keep, "/nonexistent/lines.txt"]);
    assert!(err.contains("the file exists"), "{err}");

    succeeds(args!["book", "build", "-o", &keep, &lines, "--force"]);
    let fresh = dir.join("fresh.book");
    succeeds(args!["book", "build", "-o", &fresh, &lines]);
    assert_eq!(std::fs::read(&keep).unwrap(), std::fs::read(&fresh).unwrap(), "--force wrote the book");

    let dumped = dir.join("dump.txt");
    std::fs::write(&dumped, b"precious").unwrap();
    refused(args!["book", "dump", &fresh, "-o", &dumped]);
    let bin = dir.join("keep.bin");
    std::fs::write(&bin, b"precious").unwrap();
    refused(args!["book", "export-polyglot", &fresh, "-o", &bin]);
    succeeds(args!["book", "export-polyglot", &fresh, "-o", &dir.join("new.bin")]);
    refused(args!["book", "import-polyglot", &dir.join("new.bin"), "-o", &keep]);
    assert_eq!(std::fs::read(&dumped).unwrap(), b"precious");
    assert_eq!(std::fs::read(&bin).unwrap(), b"precious");
    succeeds(args!["book", "dump", &fresh, "-o", &dumped, "--force"]);
    assert!(std::fs::read_to_string(&dumped).unwrap().contains("e4"));

    // A device is written to, not replaced: no --force needed.
    succeeds(args!["book", "build", &lines, "-o", "/dev/null"]);
    // A directory is never an output.
    let err = refused(args!["book", "build", &lines, "-o", &dir, "--force"]);
    assert!(err.contains("is a directory"), "{err}");
    no_temporaries(&dir);
}

#[test]
fn force_through_a_symbolic_link_replaces_the_target_and_keeps_the_link() {
    let dir = scratch("link");
    let target = dir.join("target.book");
    std::fs::write(&target, b"old").unwrap();
    let link = dir.join("link.book");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    refused(args!["book", "build", &data("lines.txt"), "-o", &link]);
    succeeds(args!["book", "build", &data("lines.txt"), "-o", &link, "--force"]);
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_ne!(std::fs::read(&target).unwrap(), b"old");
    no_temporaries(&dir);
}

#[test]
fn svg_magic_and_junit_files_need_force() {
    let dir = scratch("tools");
    let keep = dir.join("keep.txt");
    let reset = || std::fs::write(&keep, b"precious").unwrap();
    reset();
    let cases: [&[&std::ffi::OsStr]; 3] = [
        args!["betza", "show", "N", "--svg", &keep],
        args!["butterfly-plot", "0", "63", "--svg", &keep],
        args!["magic-search", "--piece", "rook", "--square", "a1", "--format", "json", "-o", &keep],
    ];
    for args in cases {
        let err = refused(args);
        assert!(err.contains("keep.txt: the file exists (--force replaces it)"), "{args:?}: {err}");
        assert_eq!(std::fs::read(&keep).unwrap(), b"precious", "{args:?}");
        let mut forced = args.to_vec();
        forced.push(std::ffi::OsStr::new("--force"));
        succeeds(&forced);
        assert_ne!(std::fs::read(&keep).unwrap(), b"precious", "{args:?}");
        reset();
    }

    let epd = dir.join("one.epd");
    std::fs::write(&epd, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n").unwrap();
    let err = refused(args!["suite", &epd, "--junit", &keep]);
    assert!(err.contains("--junit") && err.contains("the file exists"), "{err}");
    let err = refused(args!["suite", &epd, "--junit", &epd, "--force"]);
    assert!(err.contains("--junit") && err.contains("one.epd: is also an input"), "{err}");
    assert!(std::fs::read_to_string(&epd).unwrap().contains(";D2 400"), "the suite is untouched");
    succeeds(args!["suite", &epd, "--junit", &keep, "--force", "-q"]);
    assert!(std::fs::read_to_string(&keep).unwrap().contains("<testsuite"));
    no_temporaries(&dir);
}

#[test]
fn force_without_a_file_has_no_effect() {
    let cases: [&[&std::ffi::OsStr]; 6] = [
        args!["book", "dump", "x.book", "--force"],
        args!["book", "build", "x.pgn", "-o", "-", "--force"],
        args!["betza", "show", "N", "--force"],
        args!["butterfly-plot", "0", "63", "--force"],
        args!["magic-search", "--piece", "rook", "--square", "a1", "--force"],
        args!["suite", "x.epd", "--force"],
    ];
    for args in cases {
        let err = refused(args);
        assert!(err.contains("--force has no effect without"), "{args:?}: {err}");
    }
}
