//! perftree's script protocol: for each question run `CMD DEPTH "POSITION"
//! "MOVES"` (the root in the game's text form, MOVES space-separated, the
//! argument left out when there are none); the script prints `move count`
//! lines, a blank line and the total. Other divide layouts are read too (see
//! `output`).

use super::output::{move_line, parse_divide, DivideFormat};
use super::process::{describe_status, Budget, Process, Read1, MAX_LINE};
use super::{Divide, Divider, EngineError, Line};
use crate::rules::Rules;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub struct ScriptEngine<R: Rules> {
    rules: Arc<R>,
    name: String,
    words: Vec<String>,
    timeout: Duration,
    format: DivideFormat,
}

impl<R: Rules> ScriptEngine<R> {
    /// `words` is the command split into program and arguments.
    pub fn new(rules: Arc<R>, name: &str, words: Vec<String>, timeout: Duration, format: DivideFormat) -> Self {
        ScriptEngine { rules, name: name.to_string(), words, timeout, format }
    }

    fn fail(&self, request: &str) -> impl Fn(String) -> EngineError + '_ {
        let request = request.to_string();
        move |what| EngineError::Flood { engine: self.name.clone(), request: request.clone(), what }
    }
}

impl<R: Rules> Divider<R> for ScriptEngine<R> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn divide(&mut self, line: &Line<R>, depth: u32) -> Result<Divide, EngineError> {
        self.divide_each(line, depth, &|_, _| {})
    }

    fn divide_each(
        &mut self,
        line: &Line<R>,
        depth: u32,
        on_move: &(dyn Fn(&str, u64) + Sync),
    ) -> Result<Divide, EngineError> {
        let deadline = Instant::now() + self.timeout;
        let mut args = vec![depth.to_string(), line.root_text(&self.rules)];
        let moves = line.move_texts(&self.rules).join(" ");
        if !moves.is_empty() {
            args.push(moves);
        }
        let shown = args.iter().map(|a| format!("\"{a}\"")).collect::<Vec<_>>().join(" ");
        let request = format!("`{} {}`", self.name, super::clip(&shown));
        let legal = self.rules.legal_moves(&line.position(&self.rules)).len();
        let mut budget = Budget::for_moves(legal);
        let note = format!(" (the position has {legal} legal moves)");
        let mut p = Process::spawn(&self.words, &args)?;
        p.close_stdin();
        let mut answer = String::new();
        let mut lines = 0;
        loop {
            match p.read_line(deadline) {
                Read1::Line(l) => {
                    if let Some(what) = budget.take(&l, &note) {
                        p.kill();
                        return Err(self.fail(&request)(what));
                    }
                    lines += 1;
                    if let Some((mv, n)) = move_line(&l, self.format) {
                        on_move(mv, n);
                    }
                    answer.push_str(&l);
                    answer.push('\n');
                }
                Read1::Eof => break,
                Read1::TooLong(start) => {
                    p.kill();
                    let what =
                        format!("a line longer than {} KiB (starting {:?})", MAX_LINE >> 10, super::clip(&start));
                    return Err(self.fail(&request)(what));
                }
                Read1::Timeout => {
                    p.kill();
                    let last = answer.lines().last().unwrap_or("").to_string();
                    return Err(EngineError::Timeout {
                        engine: self.name.clone(),
                        request,
                        timeout: self.timeout,
                        last: super::clip(&last),
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
