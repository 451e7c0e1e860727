//! docs/engines.md held to what it promises: every chesstool command line
//! in its tables runs against the real engine it names (Debian's packages in
//! /usr/games) or our test engine, and ends as the page says: exit 0 for the
//! table of families, exit 1 with the witness for the findings.
//!
//! Without an engine the rows that need it are skipped with a note; under
//! CI (`CI` set) they fail instead, since .ci/run installs them.

mod common;

use std::path::Path;
use std::process::Command;

/// The engines the page names, as Debian installs them.
const ENGINES: &[&str] = &["stockfish", "ethereal-chess", "sjeng", "sjaakii"];

/// The commands of the page, each with the line it stands on: the
/// backquoted `chesstool ...` spans of table rows and list items.
fn commands(page: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in page.lines().enumerate() {
        let mut rest = line;
        while let Some(start) = rest.find("`chesstool ") {
            let tail = &rest[start + 1..];
            let Some(end) = tail.find('`') else { break };
            out.push((i + 1, tail[..end].to_string()));
            rest = &tail[end + 1..];
        }
    }
    out
}

/// The Debian engine a command drives, if any.
fn engine_of(command: &str) -> Option<&'static str> {
    command.split_whitespace().find_map(|w| ENGINES.iter().copied().find(|e| w.trim_matches('\'') == *e))
}

fn present(engine: &str) -> bool {
    Path::new("/usr/games").join(engine).exists()
}

#[test]
fn every_command_of_the_engines_guide_runs_as_the_page_says() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("docs/engines.md")).unwrap();
    let commands = commands(&page);
    assert!(commands.len() >= 8, "docs/engines.md lists too few commands: {commands:?}");
    let bin = Path::new(env!("CARGO_BIN_EXE_chesstool")).parent().unwrap().to_path_buf();
    let buggy = common::buggy_engine().display().to_string();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut skipped = Vec::new();
    for (line, command) in &commands {
        if let Some(engine) = engine_of(command).filter(|e| !present(e)) {
            skipped.push(format!("line {line}: no /usr/games/{engine}"));
            continue;
        }
        let shell = command.replace("./target/release/examples/buggy_engine", &buggy);
        let out = Command::new("sh").arg("-c").arg(&shell).current_dir(root).env("PATH", &path).output().unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        let finding = command.contains("--bisect") && command.contains("losers");
        let expected = if finding { 1 } else { 0 };
        assert_eq!(
            out.status.code(),
            Some(expected),
            "docs/engines.md line {line}: `{command}` exited {:?}\n{stdout}\n{stderr}",
            out.status
        );
        if finding {
            assert!(stdout.contains("path:     f2f4 e7e5"), "line {line}: {stdout}");
        }
    }
    if !skipped.is_empty() {
        assert!(std::env::var_os("CI").is_none(), "engines missing under CI: {skipped:?}");
        eprintln!("note: skipping, {}", skipped.join("; "));
    }
}

#[test]
fn a_bare_engine_name_is_found_in_usr_games() {
    if !present("sjeng") {
        assert!(std::env::var_os("CI").is_none(), "no /usr/games/sjeng under CI");
        eprintln!("note: skipping, no /usr/games/sjeng");
        return;
    }
    // Root's PATH has no /usr/games: the name is found there all the same.
    let out = common::chesstool_with(&["divide", "--depth", "2", "--engine-xboard", "sjeng"], 60)
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    // 400: the published perft(2) of the start position.
    assert!(stdout.contains("400"), "{stdout}");
}
