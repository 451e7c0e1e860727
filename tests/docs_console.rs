//! The console examples of the README and the user guide hold the code to
//! what it prints, as tests/json_docs.rs does for docs/json.md.
//!
//! In every ```console block of the pages below, a line starting `$ ` is a
//! command (a line ending in ` \` goes on in the next line) and the lines up
//! to the next command are what it prints, standard output and standard
//! error together. A line `...` stands for any number of lines. The commands
//! of a page run in order, each in `sh` with the built `chesstool` first on
//! PATH, in a scratch directory of its own (`target/docs-console/PAGE/`) that
//! sees the checkout's `suites/`, `tests/` and `data/`; so a block may use
//! the files an earlier block of the same page wrote. The test engines of
//! `examples/` are named as a release build has them
//! (`./target/release/examples/buggy_engine`); the test runs its own build.
//!
//! Output is compared after a normalisation that lets timings and table
//! widths vary: every decimal number (`0.345`) reads as `#`, and spaces and
//! the horizontal lines of tables are dropped. A block that is slow, needs an
//! engine or varies in other ways is written ```console,ignore and only read.
//!
//! The table of built-in variants in docs/variants.md is held to what
//! `chesstool variant list --json` prints, row by row.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The pages whose console examples are run (docs/json.md has its own test).
const PAGES: &[&str] = &[
    "README.md",
    "docs/README.md",
    "docs/perft-and-bench.md",
    "docs/divide.md",
    "docs/engine.md",
    "docs/suite.md",
    "docs/variants.md",
    "docs/tictacchess.md",
    "docs/book.md",
    "docs/distributed.md",
    "docs/tools.md",
    "docs/fuzz.md",
    "docs/formats/epd.md",
    "docs/formats/pasted-divide.md",
    "docs/formats/variants-ini.md",
    "docs/formats/book.md",
    "docs/formats/tictacchess.md",
    "docs/formats/work-units.md",
];

/// Directories of the checkout that the examples read.
const SHARED: &[&str] = &["suites", "tests", "data"];

/// One command of a page and the output the page shows for it.
struct Example {
    line: usize,
    command: String,
    expected: Vec<String>,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(page: &str) -> String {
    std::fs::read_to_string(root().join(page)).unwrap_or_else(|e| panic!("{page}: {e}"))
}

/// The examples of the tested ```console blocks of `text`, in order, and
/// how many blocks were marked `ignore`.
fn examples(text: &str) -> (Vec<Example>, usize) {
    let (mut out, mut ignored) = (Vec::<Example>::new(), 0);
    let mut lines = text.lines().enumerate();
    while let Some((_, line)) = lines.next() {
        // A block may be indented (inside a list item): its lines lose that indent.
        let indent = line.len() - line.trim_start().len();
        let Some(info) = line.trim_start().strip_prefix("```console") else { continue };
        let tested = !info.contains("ignore");
        ignored += usize::from(!tested);
        let mut current: Option<Example> = None;
        let mut continued = false;
        for (number, line) in lines.by_ref() {
            let line = line.get(indent..).filter(|_| line[..indent].trim().is_empty()).unwrap_or(line.trim_start());
            if line.starts_with("```") {
                break;
            }
            if !tested {
                continue;
            }
            if continued {
                let example = current.as_mut().expect("a continued command");
                let part = line.trim_start();
                continued = part.ends_with(" \\");
                example.command.push(' ');
                example.command.push_str(part.trim_end_matches(" \\"));
            } else if let Some(command) = line.strip_prefix("$ ") {
                out.extend(current.take());
                continued = command.ends_with(" \\");
                let command = command.trim_end_matches(" \\").to_string();
                current = Some(Example { line: number + 1, command, expected: Vec::new() });
            } else if let Some(example) = current.as_mut() {
                example.expected.push(line.to_string());
            } else {
                panic!("line {}: output before any `$ ` command in a tested console block", number + 1);
            }
        }
        out.extend(current.take());
    }
    (out, ignored)
}

/// The line as compared: decimals as `#`, no spaces, no horizontal rules.
fn normal(line: &str) -> String {
    let (mut out, mut chars) = (String::new(), line.chars().peekable());
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let mut number = c.to_string();
            while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit() || **d == '.') {
                number.push(d);
                chars.next();
            }
            let decimal = number.trim_end_matches('.');
            if decimal.contains('.') {
                out.push('#');
                out.push_str(&number[decimal.len()..]);
            } else {
                out.push_str(&number);
            }
        } else if !c.is_whitespace() && !"─═┈╌".contains(c) {
            out.push(c);
        }
    }
    out
}

/// Whether `actual` has the lines of `expected`, where `...` matches any run of lines.
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => (0..=actual.len()).any(|skip| matches(rest, &actual[skip..])),
        Some((first, rest)) => {
            actual.split_first().is_some_and(|(a, more)| normal(first) == normal(a) && matches(rest, more))
        }
    }
}

/// An empty scratch directory for a page, with the shared directories linked in.
fn scratch(page: &str) -> PathBuf {
    let dir = root().join("target/docs-console").join(page.replace('/', "_"));
    if dir.exists() {
        std::fs::remove_dir_all(&dir).unwrap();
    }
    std::fs::create_dir_all(&dir).unwrap();
    for shared in SHARED {
        std::os::unix::fs::symlink(root().join(shared), dir.join(shared)).unwrap();
    }
    dir
}

/// Where the pages' commands find the test engines of `examples/`.
const EXAMPLES: &str = "target/release/examples/";

/// The directory of this build's example engines (built if missing).
fn examples_dir() -> PathBuf {
    common::example("ttc_engine");
    common::example("buggy_engine").parent().unwrap().to_path_buf()
}

/// Standard output and standard error of `command` run in `dir`, as lines.
fn run(command: &str, dir: &Path) -> Vec<String> {
    let engines = format!("{}/", examples_dir().display());
    let command = command.replace(&format!("./{EXAMPLES}"), EXAMPLES).replace(EXAMPLES, &engines);
    let bin = Path::new(env!("CARGO_BIN_EXE_chesstool")).parent().unwrap().to_path_buf();
    let path = std::env::join_paths(
        std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1\n{command}"))
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect()
}

#[test]
fn console_examples_print_what_the_pages_show() {
    let (mut ran, mut ignored, mut failures) = (0, 0, Vec::new());
    for page in PAGES {
        let (examples, skipped) = examples(&read(page));
        ignored += skipped;
        if examples.is_empty() {
            continue;
        }
        let dir = scratch(page);
        for example in examples {
            let actual = run(&example.command, &dir);
            ran += 1;
            if !matches(&example.expected, &actual) {
                failures.push(format!(
                    "{page}:{}: $ {}\n--- the page shows:\n{}\n--- it prints:\n{}\n",
                    example.line,
                    example.command,
                    example.expected.join("\n"),
                    actual.join("\n")
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {ran} console examples differ:\n\n{}", failures.len(), failures.join("\n"));
    // The guide shows most commands for real: a test that ran nothing would prove nothing.
    assert!(ran >= 40, "only {ran} console examples ran ({ignored} blocks ignored)");
}

#[test]
fn the_normalisation_keeps_what_matters() {
    assert_eq!(normal("Nodes: 119060324  Time: 0.345 s"), normal("Nodes: 119060324  Time: 12.5 s"));
    assert_ne!(normal("Nodes: 119060324"), normal("Nodes: 119060325"));
    assert_eq!(normal("│ a ┆  0.05 │"), normal("│ a ┆ 10.25 │"));
    assert_eq!(normal("perft(3) = 8902."), "perft(3)=8902.");
    let lines = |s: &[&str]| s.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(matches(&lines(&["a", "...", "d"]), &lines(&["a", "b", "c", "d"])));
    assert!(matches(&lines(&["a", "...", "d"]), &lines(&["a", "d"])));
    assert!(!matches(&lines(&["a", "...", "d"]), &lines(&["a", "b"])));
    assert!(!matches(&lines(&["a"]), &lines(&["a", "b"])));
}

/// The anchors of a markdown page's headings, as GitHub makes them:
/// lower case, punctuation dropped, spaces as hyphens.
fn anchors(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| {
            let title = l.trim_start_matches('#').trim().to_lowercase();
            title
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
                .collect::<String>()
                .replace(' ', "-")
        })
        .collect()
}

#[test]
fn every_page_of_the_guide_exists_and_its_links_resolve() {
    for page in PAGES {
        let text = read(page);
        let base = root().join(page).parent().unwrap().to_path_buf();
        for target in text.split("](").skip(1).filter_map(|rest| rest.split(')').next()) {
            let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
            if file.contains("://") || file.starts_with("mailto:") {
                continue;
            }
            let path = if file.is_empty() { root().join(page) } else { base.join(file) };
            assert!(path.exists(), "{page}: the link ({target}) leads nowhere");
            if !anchor.is_empty() && path.extension().is_some_and(|e| e == "md") {
                let target_text = std::fs::read_to_string(&path).unwrap();
                assert!(
                    anchors(&target_text).iter().any(|a| a == anchor),
                    "{page}: no heading for the link ({target})"
                );
            }
        }
    }
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    let text =
        "# The hunt: your engine against a reference\n## Pasting an engine's output\n## perft split, unit, merge\n";
    assert_eq!(
        anchors(text),
        ["the-hunt-your-engine-against-a-reference", "pasting-an-engines-output", "perft-split-unit-merge"]
    );
}

/// The rows of the built-in table of docs/variants.md: (name, board), in order.
fn builtin_rows(page: &str) -> Vec<(String, String)> {
    let section = page.split("\n## Built-in variants\n").nth(1).expect("docs/variants.md has ## Built-in variants");
    let section = section.split("\n#").next().unwrap();
    section
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|row| {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            (cells[1].trim_matches('`').to_string(), cells[2].to_string())
        })
        .collect()
}

#[test]
fn the_variants_page_lists_every_builtin_as_variant_list_does() {
    let out = Command::new(env!("CARGO_BIN_EXE_chesstool")).args(["variant", "list", "--json"]).output().unwrap();
    assert!(out.status.success(), "variant list --json failed");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let listed: Vec<(String, String)> = doc["variants"]
        .as_array()
        .expect("a variants array")
        .iter()
        .map(|v| (v["name"].as_str().unwrap().to_string(), v["board"].as_str().unwrap().to_string()))
        .collect();
    assert!(listed.len() >= 40, "variant list names only {} variants", listed.len());
    // One row per built-in, with its board, sorted as `variant list` prints them.
    let page = builtin_rows(&read("docs/variants.md"));
    let missing: Vec<_> = listed.iter().filter(|row| !page.contains(row)).collect();
    let extra: Vec<_> = page.iter().filter(|row| !listed.contains(row)).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "docs/variants.md, ## Built-in variants: rows missing {missing:?}, rows that `variant list` lacks {extra:?}"
    );
    assert_eq!(page, listed, "docs/variants.md: the built-ins in the order `chesstool variant list` prints them");
}
