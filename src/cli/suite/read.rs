//! Reading the suite files of a run: every line read or refused (with what
//! is wrong), the positions read as the game's reference engine reads them,
//! and the report's list of the refused lines and the remarks.

use super::super::common::{open_input, plural};
use super::super::hunt::clip_message;
use chesstool::rules::Rules;
use chesstool::verify::suite::{SuiteEntry, SuiteReader};
use serde::Serialize;
use std::path::PathBuf;

/// A suite file read and checked: its name, its positions, the lines it
/// refused and the remarks on how lines were read.
pub struct SuiteFile<R: Rules> {
    pub name: String,
    pub entries: Vec<(SuiteEntry, R::Position)>,
    pub refused: Vec<Remark>,
    pub notes: Vec<Remark>,
}

/// A line of a suite file that was refused (`message`) or read with a
/// remark (`note`).
#[derive(Debug, Clone)]
pub struct Remark {
    pub file: String,
    pub line_number: usize,
    pub text: String,
}

/// A refused line as the JSON lists it.
#[derive(Serialize)]
pub struct RefusedJson<'a> {
    pub file: &'a str,
    pub line_number: usize,
    pub message: &'a str,
}

/// A remark as the JSON lists it.
#[derive(Serialize)]
pub struct NoteJson<'a> {
    pub file: &'a str,
    pub line_number: usize,
    pub note: &'a str,
}

/// Reads every file (`-`: standard input) and every position before any
/// work; a line that cannot be read (its counts, its position) is refused
/// and the reading goes on.
pub fn read_suites<R: Rules>(rules: &R, files: &[PathBuf]) -> anyhow::Result<Vec<SuiteFile<R>>> {
    let mut suites = Vec::new();
    for path in files {
        let input = open_input(path)?;
        let name = input.name().to_string();
        let mut lines = input.lines(chesstool::input::SUITE)?.keeping_control_bytes();
        let mut reader = SuiteReader::new(&name, rules.max_depth());
        while let Some((number, bytes)) = lines.next_bytes()? {
            reader.line(number as usize, bytes)?;
        }
        let read = reader.finish();
        // One file alone gets `nothing_to_check`; among several, an empty
        // one is likely the wrong file and must not pass unnoticed.
        if read.entries.is_empty() && read.refused.is_empty() && files.len() > 1 {
            anyhow::bail!("nothing to check in {name}: the file has no positions");
        }
        let mut suite = SuiteFile { name, entries: Vec::new(), refused: Vec::new(), notes: Vec::new() };
        let line = |name: &str, line_number: usize, text: String| Remark { file: name.to_string(), line_number, text };
        for r in read.refused {
            suite.refused.push(line(&suite.name, r.line, r.message));
        }
        for n in read.notes {
            suite.notes.push(line(&suite.name, n.line, n.note));
        }
        for entry in read.entries {
            match rules.parse_suite_position(&entry.fen) {
                Ok((pos, note)) => {
                    if let Some(note) = note {
                        suite.notes.push(line(&suite.name, entry.line(), note));
                    }
                    suite.entries.push((entry, pos));
                }
                Err(e) => suite.refused.push(line(&suite.name, entry.line(), clip_message(&e))),
            }
        }
        suite.refused.sort_by_key(|r| r.line_number);
        suite.notes.sort_by_key(|r| r.line_number);
        suites.push(suite);
    }
    Ok(suites)
}

/// Lines of the text report shown of a long list of refused lines or notes.
const REMARKS_SHOWN: usize = 20;

/// The refused lines and the notes on how lines were read, for the text
/// report (the first few of each; the JSON and JUnit list them all).
pub fn read_remarks(refused: &[&Remark], notes: &[&Remark]) -> String {
    let mut text = String::new();
    let more = |n: usize| {
        if n > REMARKS_SHOWN {
            format!("... and {} more (--json and --junit list them all)\n", n - REMARKS_SHOWN)
        } else {
            String::new()
        }
    };
    if !refused.is_empty() {
        let head = plural(refused.len() as u64, "line", "lines");
        text.push_str(&format!("\n{head} could not be read, left out:\n"));
        for r in refused.iter().take(REMARKS_SHOWN) {
            text.push_str(&format!("{}:{}: {}\n", r.file, r.line_number, r.text));
        }
        text.push_str(&more(refused.len()));
    }
    if !notes.is_empty() {
        text.push('\n');
        for n in notes.iter().take(REMARKS_SHOWN) {
            text.push_str(&format!("note: {}:{}: {}\n", n.file, n.line_number, n.text));
        }
        text.push_str(&more(notes.len()));
    }
    text
}
