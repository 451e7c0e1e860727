//! What an engine writes to standard error, kept for messages: a bounded
//! tail, how many lines, and how many of them read as divide lines (an
//! engine that prints its divide on stderr looks silent on stdout), or the
//! lines themselves for `--engine-stderr merge`.

use super::output::{is_total_line, move_line, DivideFormat};
use std::io::Read;
use std::sync::{Arc, Mutex};

/// How much of the engine's standard error to keep for messages.
const TAIL: usize = 2000;

/// The longest stderr line looked at whole; the rest of a longer one is cut.
const LINE_CAP: usize = 1024;

/// What to do with an engine's standard error.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum StderrMode {
    /// Keep a tail for messages (the default).
    #[default]
    Keep,
    /// Read its lines as output, like standard output.
    Merge,
}

impl std::str::FromStr for StderrMode {
    type Err = String;
    fn from_str(s: &str) -> Result<StderrMode, String> {
        match s.to_ascii_lowercase().as_str() {
            "keep" => Ok(StderrMode::Keep),
            "merge" => Ok(StderrMode::Merge),
            _ => Err(format!("unknown stderr mode {:?} (keep, merge)", super::clip(s))),
        }
    }
}

/// A summary of an engine's standard error.
#[derive(Debug, Default)]
pub(crate) struct StderrLog {
    tail: String,
    lines: usize,
    move_lines: usize,
    /// The first line that reads as a divide line.
    sample: Option<String>,
    /// Lines that read as a divide's total.
    totals: usize,
    /// The line being read (up to `LINE_CAP` bytes).
    partial: Vec<u8>,
}

impl StderrLog {
    fn push(&mut self, bytes: &[u8]) {
        self.tail.push_str(&String::from_utf8_lossy(bytes));
        if self.tail.len() > 2 * TAIL {
            let cut = self.tail.len() - TAIL;
            let cut = (cut..self.tail.len()).find(|&i| self.tail.is_char_boundary(i)).unwrap_or(self.tail.len());
            self.tail.replace_range(..cut, "");
        }
        for &b in bytes {
            if b == b'\n' {
                self.end_line();
            } else if self.partial.len() < LINE_CAP {
                self.partial.push(b);
            }
        }
    }

    fn end_line(&mut self) {
        let line = String::from_utf8_lossy(&self.partial).trim().to_string();
        self.partial.clear();
        if line.is_empty() {
            return;
        }
        self.lines += 1;
        if is_total_line(&line, DivideFormat::Auto) {
            self.totals += 1;
        }
        if move_line(&line, DivideFormat::Auto).is_some() {
            self.move_lines += 1;
            self.sample.get_or_insert(line);
        }
    }

    /// How many lines read as a divide's total so far.
    pub fn totals(&self) -> usize {
        self.totals
    }

    /// `; the engine wrote 20 lines like "e2e4: 20" to stderr (...)`, or
    /// the last line it wrote there; empty if it wrote nothing.
    pub fn note(&self) -> String {
        let mut lines = self.lines;
        let mut move_lines = self.move_lines;
        let mut sample = self.sample.clone();
        // A last line without a newline counts too.
        let last_partial = String::from_utf8_lossy(&self.partial).trim().to_string();
        if !last_partial.is_empty() {
            lines += 1;
            if move_line(&last_partial, DivideFormat::Auto).is_some() {
                move_lines += 1;
                sample.get_or_insert(last_partial);
            }
        }
        if let Some(sample) = sample {
            return format!(
                "; the engine wrote {move_lines} line(s) like {:?} to stderr ({lines} line(s) in all): \
                 if that is its divide, add --engine-stderr merge",
                super::clip(&sample)
            );
        }
        // The last three lines: a traceback's last line alone rarely says where.
        let mut last: Vec<String> =
            self.tail.lines().rev().map(str::trim).filter(|l| !l.is_empty()).take(3).map(super::clip).collect();
        last.reverse();
        match last.as_slice() {
            [] => String::new(),
            [one] => format!("; its stderr ({lines} line(s)) ends with {one:?}"),
            more => {
                let quoted: Vec<String> = more.iter().map(|l| format!("{l:?}")).collect();
                format!("; its stderr ({lines} line(s)) ends with {}", quoted.join(" / "))
            }
        }
    }
}

/// The stderr thread of `Keep`: feeds the log until the pipe closes.
pub(crate) fn keep(mut pipe: impl Read, log: Arc<Mutex<StderrLog>>) {
    let mut chunk = [0u8; 4096];
    while let Ok(n) = pipe.read(&mut chunk) {
        if n == 0 {
            break;
        }
        log.lock().unwrap_or_else(|e| e.into_inner()).push(&chunk[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_divide_on_stderr_is_named() {
        let mut log = StderrLog::default();
        log.push(b"debug: starting\ne2e4: 20\nd2d4: 20\n");
        log.push(b"\nNodes searched: 40");
        let note = log.note();
        assert!(note.contains("2 line(s) like \"e2e4: 20\"") && note.contains("4 line(s) in all"), "{note}");
        assert!(note.contains("--engine-stderr merge"), "{note}");
        let mut log = StderrLog::default();
        log.push(b"warning: no book\nsegfault here\n");
        assert_eq!(log.note(), "; its stderr (2 line(s)) ends with \"warning: no book\" / \"segfault here\"");
        assert_eq!(StderrLog::default().note(), "");
    }
}
