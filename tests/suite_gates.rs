//! Gates that mean something (issue 15): a suite that checks nothing is an
//! error, a failing position gets one witness, EPD files are read as people
//! keep them, `.perft` mismatches point at their `perft` line, `--junit`
//! writes well-formed JUnit XML, and no number or broken pipe ends in a panic.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

mod common;
use common::{buggy_engine, TempDir};

fn chesstool() -> Command {
    Command::cargo_bin("chesstool").unwrap()
}

/// Exit 2 with one `error:` line containing `needle`, and no panic.
fn input_error(cmd: &mut Command, needle: &str) {
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with("error: ") && !err.contains("panicked"), "{err}");
    // A refused line is named in the report, the run's one error line on stderr.
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(err.contains(needle) || report.contains(needle), "expected {needle:?} in {err}{report}");
}

#[test]
fn a_suite_that_checks_nothing_is_an_error() {
    let dir = TempDir::new("empty");
    let empty = dir.file("empty.txt", b"");
    let comments = dir.file("comments.epd", b"# nothing here\n\n");
    input_error(chesstool().args(["suite", "/dev/null"]), "nothing to check: the file has no positions");
    input_error(chesstool().arg("suite").arg(&empty), "nothing to check");
    input_error(chesstool().arg("suite").arg(&comments), "nothing to check");
    // An empty file among several is named, not passed over.
    let small = dir.file("small.epd", b"4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5\n");
    let mut cmd = chesstool();
    input_error(cmd.arg("suite").arg(&small).arg(&empty), "nothing to check in ");
    let err = String::from_utf8(cmd.output().unwrap().stderr).unwrap();
    assert!(err.contains("empty.txt: the file has no positions"), "{err}");
    // A `.perft` block without `perft` lines names its `epd` line.
    let perft = dir.file(
        "demo.perft",
        b"id a\nepd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nperft 1 20\n\nid b\nepd 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n",
    );
    input_error(chesstool().args(["suite", "-q"]).arg(&perft), "demo.perft:6: no `perft <depth> <nodes>` lines");
    input_error(
        chesstool().args(["suite", "suites/standard.epd", "--max-depth", "0"]),
        "--max-depth 0 skips every one of the",
    );
    input_error(chesstool().args(["suite", "suites/standard.epd", "--max-nodes", "1"]), "--max-nodes 1");
    // With --json the error is a document too.
    let out = chesstool().args(["suite", "/dev/null", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((j["status"].as_str(), j["error"]["kind"].as_str()), (Some("error"), Some("input")), "{j}");
}

#[test]
fn depths_and_numbers_beyond_the_limits_are_errors() {
    let dir = TempDir::new("limits");
    for (name, line) in [
        ("d99.epd", "startpos ;D99 5\n"),
        ("d100000.epd", "startpos ;D100000 5\n"),
        ("d21.epd", "startpos ;D1 20 ;D21 5\n"),
        ("nodes.epd", "startpos ;D1 184467440737095516150\n"),
    ] {
        let path = dir.file(name, line.as_bytes());
        input_error(chesstool().arg("suite").arg(&path), &format!("{name}:1:"));
    }
    for timeout in ["1e19", "1e300", "inf", "nan", "-1", "0"] {
        input_error(
            chesstool().args(["suite", "suites/standard.epd", "--engine-uci", "x", "--timeout", timeout]),
            "is not a timeout",
        );
        input_error(chesstool().args(["divide", "-d", "1", "--engine-uci", "x", "--timeout", timeout]), "timeout");
    }
    for depth in ["21", "10000", "-1", "0", "99999999999999999999999"] {
        input_error(chesstool().args(["divide", "--depth", depth]), "is not a depth (1 to 20)");
    }
    input_error(chesstool().args(["suite", "suites/standard.epd", "--max-depth", "21"]), "is not a depth (0 to 20)");
    // Options without effect.
    input_error(chesstool().args(["divide", "-d", "1", "--timeout", "5"]), "--timeout has no effect");
    input_error(chesstool().args(["divide", "-d", "1", "--against-format", "weiss"]), "--against-format has no effect");
}

#[test]
fn epd_as_people_keep_it() {
    let dir = TempDir::new("epd");
    let mut bytes = b"\xef\xbb\xbf# perft suite, r\xc3\xa9sum\xc3\xa9 in UTF-8\n".to_vec();
    bytes.extend(b"# and a caf\xe9 in Latin-1\n");
    // Standard four-field EPD with opcodes; counts from the CPW perft page.
    bytes
        .extend(b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 1; id \"start\"; D1 20; D2 400;\n");
    bytes
        .extend(b"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - c0 \"kiwipete\"; D1 48; D2 2039;\n");
    let path = dir.file("people.epd", &bytes);
    let out = chesstool().args(["suite", "--json"]).arg(&path).output().unwrap();
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{j}");
    assert_eq!(j["totals"]["checked"], 4, "{j}");
    // Read from standard input with `-`.
    chesstool().args(["suite", "-"]).write_stdin(bytes).assert().success();
    // A depth listed twice.
    let dup = dir.file("dup.epd", b"startpos ;D1 20 ;D2 400 ;D1 20\n");
    input_error(chesstool().arg("suite").arg(&dup), "depth 1 is given twice");
}

#[test]
fn perft_mismatches_point_at_their_perft_line() {
    let dir = TempDir::new("perft");
    // Start position: perft 2 is 400, not 401 (line 4).
    let path = dir.file(
        "p.perft",
        b"id start\nepd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nperft 1 20\nperft 2 401\n",
    );
    let out = chesstool().args(["suite", "--json"]).arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    let m = &j["mismatches"][0];
    assert_eq!((m["line_number"].as_u64(), m["depth"].as_u64()), (Some(4), Some(2)), "{j}");
    assert_eq!((m["engine"].as_u64(), m["reference"].as_u64()), (Some(400), Some(401)), "{j}");
}

/// issue 15: 76 witness blocks for about 15 failing positions; now one each.
#[test]
fn one_witness_per_failing_position() {
    let out = chesstool()
        .args(["suite", "suites/tricky.epd", "--json", "--max-nodes", "100000", "--engine-uci"])
        .arg(format!("{} --bug ep-pin", buggy_engine().display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mismatches = j["mismatches"].as_array().unwrap();
    let mut positions: Vec<(u64, &str)> = Vec::new();
    let mut witnesses = 0;
    for m in mismatches {
        let key = m["root"].as_str().unwrap();
        if !positions.iter().any(|(_, r)| *r == key) {
            // The first mismatch of a position is its shallowest, and has the witness.
            assert!(m["witness"].is_object(), "{m}");
            positions.push((m["depth"].as_u64().unwrap(), key));
        } else {
            assert!(m.get("witness").is_none(), "{m}");
        }
        if m["witness"].is_object() {
            witnesses += 1;
            // ep-pin: the witness is always an extra e.p. capture that exposes the king.
            let extra = m["witness"]["extra"].as_array().unwrap();
            assert_eq!(extra.len(), 1, "{m}");
            assert!(m["witness"]["hints"][extra[0].as_str().unwrap()].as_str().unwrap().contains("king in check"));
        }
    }
    assert!(positions.len() >= 10, "{} failing positions", positions.len());
    assert_eq!(witnesses, positions.len());
    eprintln!("{} mismatches, {} positions, {} witnesses", mismatches.len(), positions.len(), witnesses);
}

/// A minimal well-formedness check: tags nest, attributes are quoted,
/// entities are the five XML ones or numeric. Returns the element names.
fn xml_elements(xml: &str) -> Vec<String> {
    let body = xml.strip_prefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n").expect("XML declaration");
    let mut stack: Vec<String> = Vec::new();
    let mut names = Vec::new();
    let mut rest = body;
    while let Some(open) = rest.find('<') {
        let text = &rest[..open];
        for (i, _) in text.match_indices('&') {
            let entity = &text[i..text[i..].find(';').map(|e| i + e + 1).expect("entity ends")];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].contains(&entity) || entity.starts_with("&#"),
                "{entity}"
            );
        }
        let close = open + rest[open..].find('>').expect("tag ends");
        let tag = &rest[open + 1..close];
        rest = &rest[close + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name), "closing tag");
            continue;
        }
        let self_closing = tag.ends_with('/');
        let tag = tag.trim_end_matches('/');
        let name = tag.split_whitespace().next().unwrap().to_string();
        assert_eq!(tag[name.len()..].matches('"').count() % 2, 0, "quoted attributes in {tag}");
        assert!(!tag.contains('<'), "{tag}");
        names.push(name.clone());
        if !self_closing {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "unclosed {stack:?}");
    names
}

#[test]
fn junit_has_one_case_per_position_and_depth() {
    let dir = TempDir::new("junit");
    let report = dir.0.join("report.xml");
    let out = chesstool()
        .args(["suite", "suites/standard.epd", "--max-nodes", "100000", "-q", "--junit"])
        .arg(&report)
        .args(["--engine-uci"])
        .arg(format!("{} --bug castle-through-check", buggy_engine().display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let xml = std::fs::read_to_string(&report).unwrap();
    let names = xml_elements(&xml);
    let cases = names.iter().filter(|n| *n == "testcase").count();
    let failures = names.iter().filter(|n| *n == "failure").count();
    let skipped = names.iter().filter(|n| *n == "skipped").count();
    // One test case per count of the file.
    let counts: usize = std::fs::read_to_string("suites/standard.epd")
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.matches(";D").count())
        .sum();
    assert_eq!(cases, counts, "{xml}");
    assert!(failures >= 1 && skipped >= 1, "{xml}");
    assert!(xml.contains("<testsuite name=\"suites/standard.epd\""), "{xml}");
    assert!(xml.contains("first wrong position after"), "the witness is in the failure: {xml}");
}

#[test]
fn multi_file_suites_have_a_totals_row() {
    chesstool()
        .args(["suite", "-q", "suites/standard.epd", "suites/chess960.epd", "--max-nodes", "10000"])
        .assert()
        .success()
        .stdout(predicate::str::contains("│ total"));
}

/// Broken pipes end quietly, exit 0, with every engine gone.
#[test]
fn broken_pipes_end_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command as Process, Stdio};
    let bin = assert_cmd::cargo::cargo_bin("chesstool");
    let engine = format!("{} --bug ep-pin", buggy_engine().display());
    let runs: Vec<Vec<&str>> = vec![
        vec!["divide", "-d", "6"],
        vec!["suite", "suites/tricky.epd", "--max-nodes", "100000", "-q", "--engine-uci", &engine],
        vec!["suite", "suites/tricky.epd", "--max-nodes", "100000", "-q", "--json", "--engine-uci", &engine],
    ];
    for args in runs {
        let mut child = Process::new(&bin).args(&args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        // The reader is gone now (`| head -1`).
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        // A suite prints at the end: all of it may fit in the pipe before the
        // reader goes, and then the run ends as usual (1: mismatches).
        let expected: &[i32] = if args[0] == "divide" { &[0] } else { &[0, 1] };
        assert!(out.status.code().is_some_and(|c| expected.contains(&c)), "{args:?}: {:?} {err}", out.status);
        assert!(!err.contains("panicked") && !err.contains("error"), "{args:?}: {err}");
    }
}
