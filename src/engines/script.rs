//! perftree's script protocol: for each question run `CMD DEPTH "FEN"
//! "MOVES"` (MOVES space-separated, the argument left out when there are
//! none); the script prints `move count` lines, a blank line and the total.
//! Other divide layouts are read too (see `output`).

use super::output::{parse_divide, DivideFormat};
use super::process::{describe_status, Process, Read1};
use super::{Divide, Divider, EngineError, Line};
use std::time::{Duration, Instant};

pub struct ScriptEngine {
    name: String,
    words: Vec<String>,
    timeout: Duration,
    format: DivideFormat,
}

impl ScriptEngine {
    /// `words` is the command split into program and arguments.
    pub fn new(name: &str, words: Vec<String>, timeout: Duration, format: DivideFormat) -> ScriptEngine {
        ScriptEngine { name: name.to_string(), words, timeout, format }
    }
}

impl Divider for ScriptEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn divide(&mut self, line: &Line, depth: u32) -> Result<Divide, EngineError> {
        let deadline = Instant::now() + self.timeout;
        let mut args = vec![depth.to_string(), line.root_fen()];
        let moves = line.uci_moves().join(" ");
        if !moves.is_empty() {
            args.push(moves);
        }
        let request =
            format!("`{} {}`", self.name, args.iter().map(|a| format!("\"{a}\"")).collect::<Vec<_>>().join(" "));
        let mut p = Process::spawn(&self.name, &self.words, &args)?;
        p.close_stdin();
        let mut answer = String::new();
        let mut lines = 0;
        loop {
            match p.read_line(deadline) {
                Read1::Line(l) => {
                    lines += 1;
                    answer.push_str(&l);
                    answer.push('\n');
                }
                Read1::Eof => break,
                Read1::Timeout => {
                    p.kill();
                    let last = answer.lines().last().unwrap_or("").to_string();
                    return Err(EngineError::Timeout {
                        engine: self.name.clone(),
                        request,
                        timeout: self.timeout,
                        last,
                    });
                }
            }
        }
        let status = p.wait_until(deadline.max(Instant::now() + Duration::from_millis(100)));
        match status {
            Some(s) if s.success() => {}
            None => {
                p.kill();
                return Err(EngineError::Timeout {
                    engine: self.name.clone(),
                    request,
                    timeout: self.timeout,
                    last: "(closed its output but did not exit)".to_string(),
                });
            }
            status => {
                return Err(EngineError::Crashed {
                    engine: self.name.clone(),
                    request,
                    status: describe_status(status),
                    lines,
                    stderr: p.stderr_note(),
                })
            }
        }
        parse_divide(&answer, self.format).map_err(|source| EngineError::Garbage {
            engine: self.name.clone(),
            request,
            source,
        })
    }
}
