//! A UCI engine as a long-lived child process: `uci`/`uciok`, `isready`/
//! `readyok`, `setoption name UCI_Chess960 value true` for Chess960,
//! `position fen F moves ...`, `go perft N`. Banner and `info` lines are
//! skipped; the answer ends at its total line (`Nodes searched: N` and the
//! other totals `output` knows), so engines that print only a total work too.

use super::output::{is_total_line, parse_divide, DivideFormat};
use super::process::{describe_status, Process, Read1};
use super::{Divide, Divider, EngineError, Line};
use std::time::{Duration, Instant};

pub struct UciEngine {
    name: String,
    words: Vec<String>,
    process: Option<Process>,
    timeout: Duration,
    format: DivideFormat,
    /// The UCI_Chess960 value last sent.
    chess960: bool,
    /// Dead after a crash or a timeout: no more questions.
    failed: bool,
}

impl UciEngine {
    /// `words` is the command split into program and arguments; the engine
    /// is started on the first question.
    pub fn new(name: &str, words: Vec<String>, timeout: Duration, format: DivideFormat) -> UciEngine {
        UciEngine { name: name.to_string(), words, process: None, timeout, format, chess960: false, failed: false }
    }

    /// Starts the engine; the handshake counts against the first question's time.
    fn start(&mut self, deadline: Instant) -> Result<(), EngineError> {
        let mut p = Process::spawn(&self.name, &self.words, &[])?;
        self.send(&mut p, "uci", "uci")?;
        self.wait_for(&mut p, "uciok", "uci", deadline)?;
        self.process = Some(p);
        Ok(())
    }

    fn send(&self, p: &mut Process, line: &str, request: &str) -> Result<(), EngineError> {
        if p.send(line) {
            return Ok(());
        }
        let status = p.wait_until(Instant::now() + Duration::from_millis(500));
        Err(EngineError::Crashed {
            engine: self.name.clone(),
            request: format!("`{request}`"),
            status: describe_status(status),
            lines: 0,
            stderr: p.stderr_note(),
        })
    }

    /// Reads until a line equal to `token`, skipping everything else.
    fn wait_for(&self, p: &mut Process, token: &str, request: &str, deadline: Instant) -> Result<(), EngineError> {
        let mut seen = 0;
        let mut last = String::new();
        loop {
            match p.read_line(deadline) {
                Read1::Line(l) if l.trim() == token => return Ok(()),
                Read1::Line(l) => {
                    seen += 1;
                    last = l;
                }
                Read1::Eof => return Err(self.crashed(p, request, seen)),
                Read1::Timeout => {
                    p.kill();
                    return Err(EngineError::Timeout {
                        engine: self.name.clone(),
                        request: format!("`{request}` (waiting for {token})"),
                        timeout: self.timeout,
                        last,
                    });
                }
            }
        }
    }

    fn crashed(&self, p: &mut Process, request: &str, lines: usize) -> EngineError {
        let status = p.wait_until(Instant::now() + Duration::from_millis(500));
        EngineError::Crashed {
            engine: self.name.clone(),
            request: format!("`{request}`"),
            status: describe_status(status),
            lines,
            stderr: p.stderr_note(),
        }
    }

    fn ask(&mut self, p: &mut Process, line: &Line, depth: u32, deadline: Instant) -> Result<Divide, EngineError> {
        if line.chess960() != self.chess960 {
            let value = line.chess960();
            self.send(p, &format!("setoption name UCI_Chess960 value {value}"), "setoption")?;
            self.chess960 = value;
        }
        // `isready` also drains whatever was left from the previous answer.
        self.send(p, "isready", "isready")?;
        self.wait_for(p, "readyok", "isready", deadline)?;
        let moves = line.uci_moves();
        let position = if moves.is_empty() {
            format!("position fen {}", line.root_fen())
        } else {
            format!("position fen {} moves {}", line.root_fen(), moves.join(" "))
        };
        let go = format!("go perft {depth}");
        let request = format!("{go} after {position}");
        self.send(p, &position, &request)?;
        self.send(p, &go, &request)?;
        let mut answer = String::new();
        let mut lines = 0;
        loop {
            match p.read_line(deadline) {
                Read1::Line(l) => {
                    lines += 1;
                    answer.push_str(&l);
                    answer.push('\n');
                    if is_total_line(&l, self.format) {
                        break;
                    }
                }
                Read1::Eof => return Err(self.crashed(p, &request, lines)),
                Read1::Timeout => {
                    p.kill();
                    let last = answer.lines().last().unwrap_or("").to_string();
                    return Err(EngineError::Timeout {
                        engine: self.name.clone(),
                        request: format!("`{request}`"),
                        timeout: self.timeout,
                        last,
                    });
                }
            }
        }
        parse_divide(&answer, self.format).map_err(|source| EngineError::Garbage {
            engine: self.name.clone(),
            request: format!("`{request}`"),
            source,
        })
    }
}

impl Divider for UciEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn divide(&mut self, line: &Line, depth: u32) -> Result<Divide, EngineError> {
        if self.failed {
            return Err(EngineError::Protocol {
                engine: self.name.clone(),
                message: "engine failed earlier".to_string(),
            });
        }
        let deadline = Instant::now() + self.timeout;
        if self.process.is_none() {
            if let Err(e) = self.start(deadline) {
                self.failed = true;
                return Err(e);
            }
        }
        let mut p = self.process.take().expect("started");
        let result = self.ask(&mut p, line, depth, deadline);
        if result.is_ok() {
            self.process = Some(p);
        } else {
            self.failed = true;
        }
        result
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        if let Some(p) = self.process.as_mut() {
            p.send("quit");
        }
    }
}
