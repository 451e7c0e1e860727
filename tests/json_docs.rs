//! docs/json.md is the one place the JSON vocabulary is written down; this
//! holds the code to it. Every ```json block of the file (in any section, so
//! new sections are picked up by themselves) must be one valid document that
//! uses only the keys of the "Keys" table; a block under a line
//! "Command: `chesstool ...`" must have the shape of what that command prints
//! now (same keys, same values except timings and thread counts); and the
//! real `--json` output of every subcommand, on success and on an input
//! error, must use only documented keys.
//!
//! Commands that write files (book build, perft split...) write them under
//! `target/json-docs/` (the examples) and `target/json-runs/` (the runs),
//! which each test empties first, so that the two can run at once.

use assert_cmd::Command;
use serde_json::Value;
use std::collections::BTreeSet;

const DOC: &str = include_str!("../docs/json.md");

/// Keys whose values vary from run to run or machine to machine.
const VARYING: &[&str] = &["seconds", "mnps", "threads", "engine_seconds", "ratio", "geometric_mean_ratio"];

struct Vocabulary {
    keys: BTreeSet<String>,
    /// Keys whose value is an object keyed by data (moves, board names), not by documented keys.
    maps: BTreeSet<String>,
}

/// The keys of the "## Keys" table: every `name` in a row's first cell.
fn vocabulary() -> Vocabulary {
    let section = DOC.split("\n## Keys\n").nth(1).expect("docs/json.md has a ## Keys section");
    let table = section.split("\n## ").next().unwrap();
    let (mut keys, mut maps) = (BTreeSet::new(), BTreeSet::new());
    for row in table.lines().filter(|l| l.starts_with("| `")) {
        let mut cells = row.split(" | ");
        let first = cells.next().unwrap();
        let meaning = cells.collect::<Vec<_>>().join(" | ");
        for name in first.split('`').skip(1).step_by(2) {
            keys.insert(name.to_string());
            if meaning.contains("keyed by") {
                maps.insert(name.to_string());
            }
        }
    }
    assert!(keys.len() > 20, "the Keys table was not read: {keys:?}");
    Vocabulary { keys, maps }
}

/// Every key in `value` that the vocabulary lacks, with where it is.
fn undocumented(value: &Value, vocabulary: &Vocabulary, at: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                let here = format!("{at}.{key}");
                if !vocabulary.keys.contains(key) {
                    out.push(here.clone());
                }
                if vocabulary.maps.contains(key) {
                    // Keyed by data: look inside the values only.
                    if let Value::Object(inner) = v {
                        inner.values().for_each(|x| undocumented(x, vocabulary, &here, out));
                    }
                } else {
                    undocumented(v, vocabulary, &here, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|x| undocumented(x, vocabulary, &format!("{at}[]"), out)),
        _ => {}
    }
}

/// (section, command line if given, block text) for every ```json block.
fn examples() -> Vec<(String, Option<String>, String)> {
    let mut out = Vec::new();
    let (mut section, mut command) = (String::new(), None);
    let mut lines = DOC.lines();
    while let Some(line) = lines.next() {
        if let Some(name) = line.strip_prefix("## ") {
            section = name.to_string();
        }
        if line == "```json" {
            let block: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
            out.push((section.clone(), command.take(), block.join("\n")));
            continue;
        }
        command = line.strip_prefix("Command: `chesstool ").and_then(|c| c.strip_suffix('`')).map(str::to_string);
    }
    out
}

/// Splits a command line like a shell.
fn words(line: &str) -> Vec<String> {
    chesstool::engines::split_command(line).unwrap_or_else(|| panic!("unbalanced quotes in {line}"))
}

/// Empties (creates) a scratch directory below the checkout for the files
/// that the commands of one test write.
fn scratch(dir: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    if path.exists() {
        std::fs::remove_dir_all(&path).unwrap();
    }
    std::fs::create_dir_all(&path).unwrap();
}

fn run(args: &[String]) -> Value {
    let out =
        Command::cargo_bin("chesstool").unwrap().args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{args:?}: not one JSON document ({e}):\n{text}"))
}

/// The same keys everywhere, and the same values except the varying ones.
fn same_shape(doc: &Value, real: &Value, at: &str, out: &mut Vec<String>) {
    match (doc, real) {
        (Value::Object(a), Value::Object(b)) => {
            let (ka, kb): (BTreeSet<_>, BTreeSet<_>) = (a.keys().collect(), b.keys().collect());
            if ka != kb {
                out.push(format!("{at}: keys {ka:?} in the document, {kb:?} now"));
            }
            for (k, v) in a {
                if let Some(w) = b.get(k) {
                    if !VARYING.contains(&k.as_str()) {
                        same_shape(v, w, &format!("{at}.{k}"), out);
                    }
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            a.iter().zip(b).enumerate().for_each(|(i, (x, y))| same_shape(x, y, &format!("{at}[{i}]"), out))
        }
        (a, b) if a != b => out.push(format!("{at}: {a} in the document, {b} now")),
        _ => {}
    }
}

#[test]
fn every_example_is_one_document_with_documented_keys() {
    let vocabulary = vocabulary();
    let examples = examples();
    assert!(examples.len() >= 10, "{} examples", examples.len());
    for (section, _, text) in &examples {
        let value: Value =
            serde_json::from_str(text).unwrap_or_else(|e| panic!("## {section}: not valid JSON ({e}):\n{text}"));
        assert!(value.get("status").is_some_and(Value::is_string), "## {section}: no status:\n{text}");
        let mut bad = Vec::new();
        undocumented(&value, &vocabulary, "", &mut bad);
        assert!(bad.is_empty(), "## {section}: undocumented keys {bad:?}");
    }
}

#[test]
fn every_command_has_a_section_with_an_example() {
    let sections: BTreeSet<String> = examples().into_iter().map(|e| e.0).collect();
    let commands = [
        "Errors",
        "perft",
        "bench",
        "magic-search",
        "butterfly-plot",
        "rotated-dump",
        "divide",
        "suite",
        "moves",
        "book",
        "betza",
        "perft and divide --variant",
        "perft split, unit, merge",
        "tictacchess",
    ];
    for command in commands {
        assert!(sections.contains(command), "docs/json.md has no example under ## {command}");
    }
}

#[test]
fn examples_are_what_the_commands_print() {
    scratch("target/json-docs");
    for (section, command, text) in examples() {
        let Some(command) = command else { continue };
        let doc: Value = serde_json::from_str(&text).unwrap();
        let real = run(&words(&command));
        let mut diffs = Vec::new();
        same_shape(&doc, &real, "", &mut diffs);
        assert!(diffs.is_empty(), "## {section}: `chesstool {command}` now prints another document: {diffs:#?}");
    }
}

/// Runs that must print documents with documented keys only: every
/// subcommand on success and on an input error (sections of other
/// subcommands add theirs here).
const RUNS: &[&[&str]] = &[
    &["perft", "--depth", "2", "--json"],
    &["perft", "--depth", "1", "--stats", "--moves", "e4", "--json"],
    &["perft", "--depth", "1", "--moves", "e2e5", "--json"],
    &["perft", "--depth", "1", "--hash", "99", "--stats", "--json"],
    &["bench", "--quick", "--runs", "1", "--min-time", "0", "--threads", "1", "--json"],
    &["bench", "--against-uci", "/nonexistent/engine", "--json"],
    &["bench", "--timeout", "1e300", "--json"],
    &["magic-search", "--piece", "rook", "--json"],
    &["magic-search", "--verify", "/nonexistent/magics.json", "--json"],
    &["magic-search", "--verify", "data/packed_magics.json", "--piece", "rook", "--json"],
    &["butterfly-plot", "0", "63", "--json"],
    &["butterfly-plot", "a1", "h8", "--history", "--depth", "1", "--json"],
    &["butterfly-plot", "a1", "i9", "--json"],
    &["rotated-dump", "--square", "E4", "--json"],
    &["rotated-dump", "--fen", "8/8 w - - 0 1", "--json"],
    &["fuzz", "--positions", "5", "--json"],
    &["fuzz", "--engine-uci", "/nonexistent/engine", "--positions", "5", "--json"],
    &["moves", "--moves", "e4", "e5", "Nf3", "--json"],
    &["moves", "--fen", "8/8/8 w - - 0 1", "--json"],
    // The book runs in order: build, then read what was built.
    &["book", "build", "tests/data/book/repertoire.pgn", "-o", "target/json-runs/rep.book", "--json"],
    &["book", "build", "tests/data/book/lines.txt", "-o", "target/json-runs/lines.book", "--json"],
    &["book", "build", "/nonexistent/games.pgn", "-o", "target/json-runs/none.book", "--json"],
    &["book", "probe", "target/json-runs/rep.book", "--moves", "d4", "d5", "--json"],
    &["book", "probe", "target/json-runs/rep.book", "--fen", "8/8 w - - 0 1", "--json"],
    &["book", "verify", "target/json-runs/rep.book", "--json"],
    &["book", "verify", "tests/data/book/lines.txt", "--json"],
    &["book", "export-polyglot", "target/json-runs/rep.book", "-o", "target/json-runs/rep.bin", "--json"],
    &["book", "export-polyglot", "tests/data/book/lines.txt", "-o", "target/json-runs/bad.bin", "--json"],
    &["book", "import-polyglot", "target/json-runs/rep.bin", "-o", "target/json-runs/back.book", "--json"],
    &["book", "import-polyglot", "tests/data/book/lines.txt", "-o", "target/json-runs/bad.book", "--json"],
    &["betza", "compile", "RmasR", "--json"],
    &["betza", "compile", "R(", "--json"],
    &["betza", "show", "caK", "--fen", "8/5x2/4x3/4T3/8/8/8/8 w - - 0 1", "--json"],
    &["betza", "show", "N", "--board", "10x10", "--square", "k1", "--json"],
    &["perft", "--variant", "chiral6", "--variant-path", "tests/variants/fairy.ini", "--depth", "2", "--json"],
    &[
        "perft",
        "--variant",
        "mini5",
        "--variant-path",
        "tests/variants/fairy.ini",
        "--moves",
        "z9z8",
        "--depth",
        "1",
        "--json",
    ],
    &["divide", "--variant", "lame8", "--variant-path", "tests/variants/fairy.ini", "--depth", "2", "--json"],
    &["divide", "--variant", "mini5", "--variant-path", "/nonexistent/variants.ini", "--depth", "1", "--json"],
    &["variant", "list", "--json"],
    &["perft", "--variant", "capablanca", "--depth", "2", "--json"],
    // The distributed perft runs in order: split, both units, merge.
    &[
        "perft",
        "split",
        "--depth",
        "3",
        "--split-ply",
        "2",
        "--unit-size",
        "300",
        "-o",
        "target/json-runs/split",
        "--json",
    ],
    &["perft", "split", "--depth", "3", "--split-ply", "1", "-o", "target/json-runs/split", "--json"],
    &["perft", "unit", "target/json-runs/split/unit-000000.txt", "-o", "target/json-runs/split/0.out", "--json"],
    &["perft", "unit", "target/json-runs/split/unit-000001.txt", "-o", "target/json-runs/split/1.out", "--json"],
    &["perft", "unit", "target/json-runs/split/unit-000009.txt", "-o", "target/json-runs/split/9.out", "--json"],
    &[
        "perft",
        "merge",
        "target/json-runs/split/manifest.json",
        "target/json-runs/split/0.out",
        "target/json-runs/split/1.out",
        "--json",
    ],
    &["perft", "merge", "/nonexistent/manifest.json", "target/json-runs/split/0.out", "--json"],
    &["tictacchess", "perft", "--depth", "3", "--json"],
    &["tictacchess", "perft", "--pos", "4/4/4 PNBRpnbr w", "--depth", "1", "--json"],
    &["tictacchess", "divide", "--depth", "2", "--moves", "N@b2", "--json"],
    &["tictacchess", "divide", "--depth", "1", "--moves", "N@b2", "n@b2", "--json"],
    // Not solve without a table (a minute, 1.3 GB): a foreign table is an error at once.
    &["tictacchess", "solve", "--table", "data/packed_magics.json", "--json"],
];

#[test]
fn real_output_uses_documented_keys() {
    scratch("target/json-runs");
    let vocabulary = vocabulary();
    for args in RUNS {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let value = run(&args);
        let mut bad = Vec::new();
        undocumented(&value, &vocabulary, "", &mut bad);
        assert!(bad.is_empty(), "{args:?}: undocumented keys {bad:?}");
        let status = value["status"].as_str().unwrap_or_default();
        assert!(["ok", "mismatch", "error"].contains(&status), "{args:?}: status {status:?}");
        if status == "error" {
            let kind = value["error"]["kind"].as_str().unwrap_or_default();
            assert!(["usage", "input", "engine", "internal"].contains(&kind), "{args:?}: {value}");
            assert!(value["error"]["message"].as_str().is_some_and(|m| !m.contains('\n')), "{args:?}: {value}");
        }
    }
}

/// All keys of a document, at any depth.
fn all_keys(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                out.insert(k.clone());
                all_keys(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|x| all_keys(x, out)),
        _ => {}
    }
}

/// The backticked words of `text` that look like JSON keys (`skipped_lines`).
fn named_keys(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        .filter(|w| !["true", "false", "null"].contains(w))
        .map(str::to_string)
        .collect()
}

/// Keys a paragraph of docs/json.md names for another mode than the
/// example it introduces (section, key, why).
const NAMED_ELSEWHERE: &[(&str, &str, &str)] = &[
    ("bench", "engine", "the rows of a bench with --against-uci"),
    ("bench", "engine_seconds", "the rows of a bench with --against-uci"),
    ("bench", "ratio", "the rows of a bench with --against-uci"),
    ("bench", "engine_command", "a bench with --against-uci"),
    ("bench", "geometric_mean_ratio", "a bench with --against-uci"),
    ("suite", "engine", "a suite with an engine"),
    ("suite", "reference", "a suite with an engine"),
    ("suite", "line_number", "a suite with an engine"),
    ("suite", "witness", "a failing position of a suite with an engine"),
    ("suite", "note", "a failing position of a suite with an engine"),
    ("fuzz", "root", "a fuzz run that found something"),
    ("fuzz", "witness", "a fuzz run that found something"),
    ("fuzz", "position_check", "a failed position check"),
    ("fuzz", "findings", "a fuzz run that found something"),
    ("fuzz", "variant", "fuzz --variant"),
    ("tictacchess", "divide", "a command name, not a key"),
];

/// The words around a ```json example name only keys that the example has
/// (or that the paragraph names for another mode, listed above): a paragraph
/// that says `skipped` where the program prints `skipped_lines` fails.
#[test]
fn the_keys_a_paragraph_names_are_in_its_example() {
    let vocabulary = vocabulary();
    let (mut section, mut paragraph, mut code) = (String::new(), String::new(), false);
    let mut wrong = Vec::new();
    let mut lines = DOC.lines();
    while let Some(line) = lines.next() {
        if let Some(name) = line.strip_prefix("## ") {
            section = name.to_string();
            paragraph.clear();
        } else if line == "```json" {
            let block: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
            let Ok(doc) = serde_json::from_str::<Value>(&block.join("\n")) else { continue };
            let mut keys = BTreeSet::new();
            all_keys(&doc, &mut keys);
            for key in named_keys(&paragraph) {
                let elsewhere = NAMED_ELSEWHERE.iter().any(|(s, k, _)| section.starts_with(s) && *k == key);
                if vocabulary.keys.contains(&key) && !keys.contains(&key) && !elsewhere {
                    wrong.push(format!("## {section}: `{key}` is named but the example has no such key"));
                }
            }
            paragraph.clear();
        } else if line.starts_with("```") {
            code = !code;
        } else if !code {
            // The prose since the last example or heading.
            paragraph.push_str(line);
            paragraph.push(' ');
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A guide page that says which JSON key holds something names a key that
/// the command's documents have (docs/json.md's examples of its section).
#[test]
fn the_guide_names_the_json_keys_the_program_prints() {
    let sections = examples();
    let pages: &[(&str, &str, &[&str])] = &[
        ("docs/divide.md", include_str!("../docs/divide.md"), &["divide"]),
        ("docs/perft-and-bench.md", include_str!("../docs/perft-and-bench.md"), &["perft", "bench"]),
        ("docs/formats/pasted-divide.md", include_str!("../docs/formats/pasted-divide.md"), &["divide"]),
    ];
    let mut checked = 0;
    for (page, text, of) in pages {
        let mut keys = BTreeSet::new();
        for (_, _, block) in sections.iter().filter(|(s, _, _)| of.iter().any(|o| s == o)) {
            if let Ok(doc) = serde_json::from_str::<Value>(block) {
                all_keys(&doc, &mut keys);
            }
        }
        for line in text.lines().filter(|l| l.contains("JSON")) {
            for key in named_keys(line) {
                let elsewhere = NAMED_ELSEWHERE.iter().any(|(s, k, _)| of.contains(s) && *k == key);
                assert!(
                    keys.contains(&key) || elsewhere,
                    "{page}: {line:?} names `{key}`, which no {of:?} document of docs/json.md has"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 5, "only {checked} keys checked");
}
