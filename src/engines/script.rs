//! perftree's script protocol: for each question run `CMD DEPTH "POSITION"
//! "MOVES"` (the root in the game's text form, MOVES space-separated, the
//! argument left out when there are none); the script prints `move count`
//! lines, a blank line and the total. Other divide layouts are read too (see
//! `output`), but every answer must end with a total: without one it was cut
//! off. Every answer has the whole timeout, the first one too (a cold JVM
//! may take long to print its first line). An answer that cannot be read
//! is quoted with the script's exit status and the tail of its stderr. Answers are held to the rules of every answer
//! (`output::read_answer_at`: among them, the total is the sum of the moves).
//!
//! A script cannot advertise what it plays: a root that needs a UCI option
//! set (`Rules::uci_options`, a value other than `false`) is refused
//! unless the user vouched for that option (`EngineOptions::vouched`).

use super::output::{move_line, no_perft, read_answer_at, DivideFormat, NoPerft, Skipped};
use super::process::{describe_status, Budget, Process, Read1, MAX_LINE};
use super::uci::last_line;
use super::{Divide, Divider, EngineError, EngineOptions, Line, MissingOption};
use crate::rules::Rules;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// An engine run as a perftree-style script: one process per divide, the position on its command line.
pub struct ScriptEngine<R: Rules> {
    rules: Arc<R>,
    name: String,
    words: Vec<String>,
    opts: EngineOptions,
    /// Lines of its answers skipped as not divide data.
    skipped: Skipped,
}

impl<R: Rules> ScriptEngine<R> {
    /// `words` is the command split into program and arguments.
    pub fn new(rules: Arc<R>, name: &str, words: Vec<String>, timeout: Duration, format: DivideFormat) -> Self {
        Self::with_options(rules, name, words, EngineOptions::new(timeout, format))
    }

    /// As `new`, with every option (`perft_command` is UCI's only).
    pub fn with_options(rules: Arc<R>, name: &str, words: Vec<String>, opts: EngineOptions) -> Self {
        ScriptEngine { rules, name: super::clip(name), words, opts, skipped: Skipped::default() }
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

    fn set_timeout(&mut self, timeout: std::time::Duration) {
        self.opts.timeout = timeout;
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
        let started = Instant::now();
        let deadline = started + self.opts.timeout;
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
        let mut p = Process::spawn(&self.words, &args, self.opts.stderr)?;
        p.close_stdin();
        let mut answer = String::new();
        let mut lines = 0;
        loop {
            let read = p.read_line(deadline);
            match read {
                Read1::Line(l) => {
                    if let Some(what) = budget.take(&l, &note) {
                        p.kill();
                        return Err(self.fail(&request)(what));
                    }
                    if let Some(kind) = no_perft(&l) {
                        p.kill();
                        let line = super::clip(l.trim());
                        let searched = kind == NoPerft::Searched;
                        let advice = if searched {
                            "the script must count (perft), not search: see the docs for the protocol"
                        } else {
                            "the program it runs has no such perft command: see the docs for the protocol"
                        };
                        return Err(EngineError::NoPerft {
                            engine: self.name.clone(),
                            request,
                            line,
                            searched,
                            advice: advice.to_string(),
                        });
                    }
                    lines += 1;
                    if let Some((mv, n)) = move_line(&l, self.opts.format) {
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
                    let last = if lines == 0 { "(nothing)".to_string() } else { super::clip(&last_line(&answer)) };
                    return Err(EngineError::Timeout {
                        engine: self.name.clone(),
                        request,
                        timeout: self.opts.timeout,
                        last,
                        stderr: p.stderr_note(),
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
                    timeout: self.opts.timeout,
                    last: "(closed its output but did not exit)".to_string(),
                    stderr: p.stderr_note(),
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
        let stderr = p.answer_note();
        let parsed = read_answer_at(&answer, self.opts.format, depth).map_err(|source| EngineError::Garbage {
            source: Box::new(source),
            engine: self.name.clone(),
            request: request.clone(),
            stderr: stderr.clone(),
        })?;
        self.skipped.merge(&parsed.skipped);
        let divide = parsed.divide;
        // Move lines but no total: the output stopped before its end.
        if divide.total.is_none() {
            return Err(EngineError::Truncated {
                engine: self.name.clone(),
                request,
                last: super::clip(&last_line(&answer)),
                stderr,
            });
        }
        Ok(divide)
    }

    fn check_root(&mut self, root: &R::Position) -> Result<(), EngineError> {
        for (option, value) in self.rules.uci_options(root) {
            if value == "false" || self.opts.vouched.iter().any(|v| v.eq_ignore_ascii_case(&option)) {
                continue;
            }
            return Err(EngineError::Unsupported(Box::new(MissingOption {
                engine: self.name.clone(),
                option,
                value,
                offered: None,
                script: true,
                protocol: "UCI",
                hint: self.opts.vouch_hint.clone(),
            })));
        }
        Ok(())
    }

    fn skipped(&self) -> Option<Skipped> {
        Some(self.skipped)
    }
}
