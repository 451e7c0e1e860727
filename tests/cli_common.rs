//! The command line as one tool: every numeric option range-checked (no
//! number can panic), usage errors in one line with at most one hint, closed
//! pipes ending every command quietly, and the shell completions and man
//! page generated and valid.

use assert_cmd::Command;
use std::io::Read;
use std::process::Stdio;

fn chesstool() -> Command {
    let mut cmd = Command::cargo_bin("chesstool").unwrap();
    cmd.env_remove("RUST_BACKTRACE").env_remove("RUST_LIB_BACKTRACE");
    cmd
}

/// Exit 2, one `error:` line naming `needle` (plus at most one `hint:`), no panic, stdout empty.
fn usage_error(args: &[&str], needle: &str) {
    let out = chesstool().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(lines[0].starts_with("error: ") && lines[0].contains(needle), "{args:?}: {stderr:?}");
    assert!(lines.len() == 1 || (lines.len() == 2 && lines[1].starts_with("hint: ")), "{args:?}: {stderr:?}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn extreme_numbers_are_usage_errors_naming_the_option() {
    for t in ["1e19", "1e300", "inf", "nan", "-1", "0", "604801", "-inf"] {
        usage_error(&["bench", "--against-uci", "stockfish", "--timeout", t], &format!("--timeout: {t} is not"));
    }
    for d in ["-1", "21", "10000", "99999999999999999999999"] {
        usage_error(&["perft", "--depth", d], &format!("--depth: {d} is not a depth (0 to 20)"));
    }
    for h in ["-1", "1048577", "99999999999", "18446744073709551616"] {
        usage_error(&["perft", "--depth", "1", "--hash", h], &format!("--hash: {h} is not"));
        usage_error(&["bench", "--hash", h], &format!("--hash: {h} is not"));
    }
    for n in ["-1", "1025", "100000"] {
        for cmd in [&["perft", "--depth", "1"][..], &["bench"], &["magic-search"]] {
            let args: Vec<&str> = cmd.iter().copied().chain(["--threads", n]).collect();
            usage_error(&args, &format!("--threads: {n}"));
        }
    }
    usage_error(&["bench", "--runs", "0"], "--runs: 0 is not a number of runs (1 to 1000)");
    usage_error(&["bench", "--runs", "4294967296"], "--runs: 4294967296");
    usage_error(&["bench", "--min-time", "1e300"], "--min-time: 1e300");
    usage_error(&["magic-search", "--time-limit", "1e19", "--bits-reduction", "1"], "--time-limit: 1e19");
    usage_error(&["magic-search", "--bench", "0"], "--bench: 0");
    usage_error(&["magic-search", "--bits-reduction", "-1"], "--bits-reduction: -1");
    usage_error(&["magic-search", "--seed", "18446744073709551616"], "--seed: 18446744073709551616");
    usage_error(&["butterfly-plot", "0", "63", "--history", "--depth", "-3"], "--depth: -3");
}

#[test]
fn usage_errors_are_one_line_with_one_hint() {
    usage_error(&["perft"], "missing --depth");
    usage_error(&["perft", "--depth", "3", "--bogus"], "unexpected argument '--bogus'");
    usage_error(&["perft", "--dpth", "3"], "unexpected argument '--dpth'");
    usage_error(&["prft"], "unknown command 'prft'");
    usage_error(&["magic-search", "--piece", "queen"], "--piece: \"queen\" is not one of rook, bishop, both");
    usage_error(&["completions", "powershell"], "\"powershell\" is not one of bash, zsh, fish");
    usage_error(&["bench", "--timeout", "5"], "--timeout has no effect without --against-uci");
    // The suggestion is the hint line.
    let out = chesstool().args(["perft", "--dpth", "3"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).ends_with("\nhint: did you mean --depth?\n"));
    // Help and version are not errors.
    chesstool().args(["perft", "--help"]).assert().success();
    chesstool().arg("--version").assert().success();
}

/// Runs `chesstool ARGS | head -1` in bash: the command's exit code must be 0
/// and its stderr free of panics; head gets the first line.
fn into_head(args: &str) {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let err = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("pipe-stderr-{n}.txt"));
    let bin = assert_cmd::cargo::cargo_bin("chesstool");
    let script =
        format!("'{}' {args} 2>'{}' | head -1 >/dev/null; echo ${{PIPESTATUS[0]}}", bin.display(), err.display());
    let out = std::process::Command::new("bash")
        .args(["-c", &script])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let code = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let stderr = std::fs::read_to_string(&err).unwrap_or_default();
    assert_eq!(code, "0", "chesstool {args} | head -1: exit {code}, stderr {stderr}");
    assert!(!stderr.contains("panicked") && !stderr.contains("error"), "chesstool {args} | head -1: {stderr}");
}

/// Runs with stdout a pipe whose reader is already gone: every write fails
/// at once, and the run must still end quietly with exit 0.
fn into_closed_pipe(args: &[&str]) {
    let bin = assert_cmd::cargo::cargo_bin("chesstool");
    let mut child = std::process::Command::new(bin)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked") && !stderr.contains("error"), "{args:?}: {stderr}");
}

#[test]
fn closed_pipes_end_every_command_quietly() {
    for args in [
        "perft --depth 3",
        "perft --depth 2 --stats",
        "perft --depth 2 --json",
        "bench --quick --runs 1 --min-time 0",
        "magic-search --piece bishop",
        "magic-search --piece bishop --format rust",
        "magic-search --verify data/packed_magics.json",
        "butterfly-plot 0 63",
        "butterfly-plot 0 63 --svg -",
        "butterfly-plot 0 63 --history --depth 2",
        "rotated-dump --square e4",
        "rotated-dump --json",
        "completions bash",
        "man",
    ] {
        into_head(args);
        into_closed_pipe(&args.split(' ').collect::<Vec<_>>());
    }
}

#[test]
fn verify_report_with_many_collisions_into_head() {
    // A file whose squares all share slot 0: thousands of collision lines.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/packed_magics.json");
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for e in v["magics"].as_array_mut().unwrap() {
        e["offset"] = 0.into();
    }
    let bad = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bad_magics.json");
    std::fs::write(&bad, v.to_string()).unwrap();
    let out = chesstool().args(["magic-search", "--verify"]).arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.len() > 1 << 20, "enough output to fill any pipe");
    into_head(&format!("magic-search --verify '{}'", bad.display()));
}

fn have(program: &str) -> bool {
    std::process::Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Writes `text` to a temporary file and runs `check FILE`; false if the checker is missing.
fn check_with(program: &[&str], name: &str, text: &[u8]) -> Option<std::process::Output> {
    if !have(program[0]) {
        return None;
    }
    let file = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&file, text).unwrap();
    Some(std::process::Command::new(program[0]).args(&program[1..]).arg(&file).output().unwrap())
}

#[test]
fn completions_are_generated_and_valid() {
    for (shell, checker, marker) in [
        ("bash", &["bash", "-n"][..], "complete -F _chesstool"),
        ("zsh", &["zsh", "-n"], "#compdef chesstool"),
        ("fish", &["fish", "--no-execute"], "complete -c chesstool"),
    ] {
        let out = chesstool().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        assert!(script.contains(marker), "{shell}: {marker:?} missing");
        for word in ["perft", "magic-search", "depth", "threads", "json"] {
            assert!(script.contains(word), "{shell}: {word} missing");
        }
        match check_with(checker, &format!("chesstool.{shell}"), script.as_bytes()) {
            Some(check) => assert!(check.status.success(), "{shell}: {}", String::from_utf8_lossy(&check.stderr)),
            None => eprintln!("{} not installed: the {shell} script was not syntax-checked", checker[0]),
        }
    }
    // bash: the script loads and completes the subcommands.
    if have("bash") {
        let out = chesstool().args(["completions", "bash"]).output().unwrap();
        let file = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("chesstool-load.bash");
        std::fs::write(&file, &out.stdout).unwrap();
        let script = format!(
            "source '{}'; COMP_WORDS=(chesstool ma); COMP_CWORD=1; _chesstool chesstool ma chesstool; echo ${{COMPREPLY[@]}}",
            file.display()
        );
        let out = std::process::Command::new("bash").args(["-c", &script]).output().unwrap();
        let words = String::from_utf8_lossy(&out.stdout);
        assert!(words.contains("magic-search") && words.contains("man"), "{words}");
    }
}

#[test]
fn the_man_page_renders() {
    let out = chesstool().arg("man").output().unwrap();
    assert!(out.status.success());
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(page.starts_with(".ie") && page.contains(".TH chesstool 1"), "{}", &page[..200]);
    for section in
        [".SH NAME", ".SH COMMANDS", ".SH \"CHESSTOOL PERFT\"", ".SH \"CHESSTOOL MAGIC-SEARCH\"", ".SH \"EXIT STATUS\""]
    {
        assert!(page.contains(section), "{section} missing");
    }
    // groff (which man uses) renders it without a warning.
    match check_with(&["groff", "-man", "-Tutf8", "-ww", "-z"], "chesstool.1", page.as_bytes()) {
        Some(check) => {
            assert!(check.status.success() && check.stderr.is_empty(), "{}", String::from_utf8_lossy(&check.stderr))
        }
        None => eprintln!("groff not installed: the man page was not rendered"),
    }
    if let Some(text) =
        check_with(&["groff", "-man", "-Tascii", "-P-c", "-P-b", "-P-u"], "chesstool-text.1", page.as_bytes())
    {
        let text = String::from_utf8_lossy(&text.stdout);
        assert!(text.contains("--depth <DEPTH>") && text.contains("Depth of the perft in plies"), "{text}");
    }
}
