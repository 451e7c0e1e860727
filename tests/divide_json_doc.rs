//! docs/json.md documents the JSON of `divide` and `suite` by example: each
//! example is a command (in a `console` block, `$ chesstool ...`) and the
//! document it printed. This runs every command of the `## divide` and
//! `## suite` sections and checks that today's document has the same shape:
//! the same keys at every level, the same kinds of values, the same status
//! and exit code.

use serde_json::Value;
use std::path::PathBuf;

mod common;
use common::buggy_engine;

struct Example {
    command: String,
    json: Value,
}

/// The examples of one `## name` section of docs/json.md.
fn examples(section: &str) -> Vec<Example> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/json.md");
    let text = std::fs::read_to_string(path).expect("docs/json.md");
    let start = text.find(&format!("\n## {section}\n")).unwrap_or_else(|| panic!("no ## {section}"));
    let body = &text[start + 1..];
    let body = &body[..body[3..].find("\n## ").map_or(body.len(), |e| e + 3)];
    let mut out = Vec::new();
    let mut command = None;
    let mut lines = body.lines();
    while let Some(line) = lines.next() {
        if let Some(cmd) = line.strip_prefix("$ chesstool ") {
            command = Some(cmd.to_string());
        }
        if line == "```json" {
            let json: String = lines.by_ref().take_while(|l| *l != "```").collect::<Vec<_>>().join("\n");
            let json = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{section}: bad JSON ({e}): {json}"));
            out.push(Example { command: command.take().expect("a command before each JSON block"), json });
        }
    }
    out
}

/// Same keys everywhere, same kinds of values (numbers may be integers or
/// floats as long as both are numbers); arrays by their first element.
fn same_shape(doc: &Value, got: &Value, path: &str) {
    match (doc, got) {
        (Value::Object(a), Value::Object(b)) => {
            let ka: Vec<&String> = a.keys().collect();
            let kb: Vec<&String> = b.keys().collect();
            assert_eq!(ka, kb, "keys at {path}");
            for (k, v) in a {
                same_shape(v, &b[k], &format!("{path}.{k}"));
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            assert_eq!(a.is_empty(), b.is_empty(), "array at {path}");
            if let (Some(x), Some(y)) = (a.first(), b.first()) {
                same_shape(x, y, &format!("{path}[0]"));
            }
        }
        (Value::Number(_), Value::Number(_)) | (Value::String(_), Value::String(_)) => {}
        (Value::Bool(_), Value::Bool(_)) | (Value::Null, Value::Null) => {}
        _ => panic!("{path}: documented {doc}, got {got}"),
    }
}

fn check(section: &str) {
    let examples = examples(section);
    assert!(examples.len() >= 3, "{section}: {} examples", examples.len());
    for ex in examples {
        let command = ex.command.replace("buggy_engine", &buggy_engine().display().to_string());
        let words = chesstool::engines::split_command(&command).expect("balanced quotes");
        let out = assert_cmd::Command::cargo_bin("chesstool")
            .unwrap()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(words)
            .output()
            .unwrap();
        let got: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{command}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
        same_shape(&ex.json, &got, &ex.command);
        assert_eq!(ex.json["status"], got["status"], "{command}");
        let code = match got["status"].as_str() {
            Some("ok") => 0,
            Some("mismatch") => 1,
            _ if got["error"]["kind"] == "engine" => 3,
            _ => 2,
        };
        assert_eq!(out.status.code(), Some(code), "{command}");
    }
}

#[test]
fn divide_json_is_as_documented() {
    check("divide");
}

#[test]
fn suite_json_is_as_documented() {
    check("suite");
}
