//! Every `--help`, side by side: an option means the same wherever it
//! appears, so it has one metavariable and one summary line (`-h`) across
//! all subcommands; details that belong to one subcommand go in the long
//! help (`--help`) below the summary. A kind of value has one metavariable
//! (`<DEPTH>`, `<THREADS>`, `<MB>`, `<SECONDS>`, `<SEED>`). Each exception
//! is listed here with its reason. `scripts/help_dump.py` prints the same
//! comparison for reading.

mod common;

use assert_cmd::Command;
use common::command_paths;
use std::collections::BTreeMap;

/// One option as a help page shows it.
#[derive(Debug, Clone)]
struct Opt {
    name: String,
    metavar: String,
    summary: String,
}

fn help(path: &[String], flag: &str) -> String {
    let out = Command::cargo_bin("chesstool").unwrap().args(path).arg(flag).output().unwrap();
    assert!(out.status.success(), "chesstool {} {flag} failed", path.join(" "));
    String::from_utf8(out.stdout).unwrap()
}

/// Removes the `[default: ..]` and `[possible values: ..]` clap appends.
fn without_brackets(text: &str) -> String {
    let mut s = text.trim().to_string();
    while s.ends_with(']') {
        match s.rfind(" [") {
            Some(at) => s.truncate(at),
            None => break,
        }
    }
    s.trim().to_string()
}

/// The options of a page: `-x, --name <META>  summary` (the summary may
/// stand on the next lines).
fn options(page: &str) -> Vec<Opt> {
    let lines: Vec<&str> = page.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        let t = if t.len() > 4 && t.starts_with('-') && t.as_bytes()[2] == b',' { t[4..].trim_start() } else { t };
        let Some(rest) = t.strip_prefix("--") else { continue };
        let name_end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).unwrap_or(rest.len());
        let name = rest[..name_end].to_string();
        let mut rest = &rest[name_end..];
        let mut metavar = String::new();
        if let Some(r) = rest.strip_prefix(" <") {
            let end = r.find('>').unwrap();
            metavar = r[..end].to_string();
            rest = r[end + 1..].trim_start_matches("...");
        }
        let mut summary = rest.trim().to_string();
        if summary.is_empty() {
            summary = lines[i + 1..]
                .iter()
                .take_while(|l| !l.trim().is_empty() && !l.trim_start().starts_with('-'))
                .map(|l| l.trim())
                .next()
                .unwrap_or("")
                .to_string();
        }
        if name != "help" && name != "version" {
            found.push(Opt { name, metavar, summary: without_brackets(&summary) });
        }
    }
    found
}

/// (option, command) pairs whose metavariable may differ, and why.
const OWN_METAVAR: &[(&str, &str, &str)] = &[
    ("output", "perft split", "a directory, not a file"),
    ("svg", "suite", "a directory: one picture per failure"),
    ("chess960", "perft", "an optional start position number"),
    ("chess960", "perft split", "an optional start position number"),
    ("chess960", "divide", "an optional start position number"),
];

/// (option, command) pairs whose summary may differ, and why.
const OWN_SUMMARY: &[(&str, &str, &str)] = &[
    ("output", "perft split", "a directory of units, not one file"),
    ("chess960", "perft", "also takes a start position's number"),
    ("chess960", "perft split", "also takes a start position's number"),
    ("chess960", "divide", "also takes a start position's number"),
    ("output", "perft unit", "the results file, resumed, never standard output"),
    ("fen", "betza show", "a board with the piece marked t/T, not a position to play from"),
    ("variant", "bench", "bench times several variants, comma-separated"),
    ("square", "rotated-dump", "a square to show the tables of"),
    ("square", "magic-search", "the one square to search or check"),
    ("square", "betza show", "the piece's square"),
    ("svg", "suite", "a directory of pictures, one per failing entry"),
    ("chess960", "suite", "the user's word that the --engine-script plays Chess960; no position is changed"),
    ("chess960", "fuzz", "the user's word that the --engine-script plays Chess960; no root is changed"),
    ("retries", "fuzz", "a failure is a finding either way; an answer on a retry tells a failure at random"),
    (
        "retries",
        "tictacchess fuzz",
        "a failure is a finding either way; an answer on a retry tells a failure at random",
    ),
];

/// One metavariable per kind of value, whatever the option's name.
const KINDS: &[(&[&str], &str)] = &[
    (&["depth", "max-depth"], "DEPTH"),
    (&["threads"], "THREADS"),
    (&["hash", "memory"], "MB"),
    (&["timeout", "min-time", "time-limit"], "SECONDS"),
    (&["seed", "zobrist-seed"], "SEED"),
    (&["fen"], "FEN"),
    (&["moves"], "MOVE"),
    (&["engine-uci", "engine-script", "reference-uci", "reference-script", "against-uci"], "CMD"),
];

fn exempt(list: &[(&str, &str, &str)], name: &str, command: &str) -> bool {
    list.iter().any(|&(n, c, _)| n == name && c == command)
}

#[test]
fn every_option_has_one_metavariable_and_one_summary() {
    let mut by_name: BTreeMap<String, Vec<(String, Opt)>> = BTreeMap::new();
    let paths = command_paths();
    assert!(paths.len() > 20, "the walk found {} commands", paths.len());
    for path in &paths {
        for opt in options(&help(path, "-h")) {
            by_name.entry(opt.name.clone()).or_default().push((path.join(" "), opt));
        }
    }
    let mut faults = Vec::new();
    for (name, uses) in &by_name {
        let check = |what: &str, key: fn(&Opt) -> &str, own: &[(&str, &str, &str)], faults: &mut Vec<String>| {
            let kept: Vec<&(String, Opt)> = uses.iter().filter(|(c, _)| !exempt(own, name, c)).collect();
            if let Some((first_cmd, first)) = kept.first() {
                for (cmd, opt) in &kept[1..] {
                    if key(opt) != key(first) {
                        faults.push(format!(
                            "--{name}: {what} {:?} in `{cmd}`, {:?} in `{first_cmd}`",
                            key(opt),
                            key(first)
                        ));
                    }
                }
            }
        };
        check("metavariable", |o| &o.metavar, OWN_METAVAR, &mut faults);
        check("summary", |o| &o.summary, OWN_SUMMARY, &mut faults);
        for (names, meta) in KINDS {
            if names.contains(&name.as_str()) {
                for (cmd, opt) in uses {
                    if opt.metavar != *meta && !exempt(OWN_METAVAR, name, cmd) {
                        faults.push(format!("--{name} in `{cmd}`: <{}> where its kind is <{meta}>", opt.metavar));
                    }
                }
            }
        }
    }
    assert!(faults.is_empty(), "help texts disagree:\n{}", faults.join("\n"));
}

#[test]
fn the_help_of_a_subcommand_does_not_speak_of_another() {
    // Shared argument groups once carried words meant for one of their users.
    for (path, foreign) in [
        (&["perft"][..], "bench takes"),
        (&["divide"][..], "bench takes"),
        (&["suite"][..], "bench takes"),
        (&["tictacchess", "perft"][..], "divide"),
    ] {
        let path: Vec<String> = path.iter().map(|s| s.to_string()).collect();
        let page = help(&path, "--help");
        assert!(!page.contains(foreign), "`chesstool {} --help` says {foreign:?}:\n{page}", path.join(" "));
    }
    let page = help(&["tictacchess".to_string(), "divide".to_string()], "--help");
    assert!(page.contains("1 to 20"), "tictacchess divide's depth starts at 1:\n{page}");
    let page = help(&["bench".to_string()], "--help");
    assert!(page.contains("comma-separated"), "bench --variant takes several:\n{page}");
}

#[test]
fn the_parser_reads_both_layouts() {
    let page = "Options:\n  -d, --depth <DEPTH>  Depth of the perft in plies [default: 0]\n      --seed <SEED>\n          Seed of the generator\n\n          More.\n      --json  Print one JSON document\n";
    let opts = options(page);
    let got: Vec<(&str, &str, &str)> =
        opts.iter().map(|o| (o.name.as_str(), o.metavar.as_str(), o.summary.as_str())).collect();
    assert_eq!(
        got,
        [
            ("depth", "DEPTH", "Depth of the perft in plies"),
            ("seed", "SEED", "Seed of the generator"),
            ("json", "", "Print one JSON document")
        ]
    );
}
