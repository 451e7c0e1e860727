//! A child process for an engine: its standard output read line by line on
//! a thread (so every read can time out), the tail of its standard error
//! kept for messages, and the whole process group killed when done.

use super::EngineError;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How much of the engine's standard error to keep for messages.
const STDERR_TAIL: usize = 2000;

pub(crate) struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    /// `Some(line)` per line of standard output, `None` at its end.
    lines: Receiver<Option<String>>,
    eof: bool,
    stderr: Arc<Mutex<String>>,
}

/// What a read within a deadline got.
pub(crate) enum Read1 {
    Line(String),
    Eof,
    Timeout,
}

impl Process {
    /// Starts `words[0]` with the rest of `words` and `args` as arguments.
    pub fn spawn(name: &str, words: &[String], args: &[String]) -> Result<Process, EngineError> {
        let (program, rest) =
            words.split_first().ok_or_else(|| EngineError::Input("empty engine command".to_string()))?;
        let mut cmd = Command::new(program);
        cmd.args(rest).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        // Python engines buffer a piped stdout unless told not to, and would
        // look hung to a UCI conversation.
        cmd.env("PYTHONUNBUFFERED", "1");
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn().map_err(|source| EngineError::Spawn { cmd: name.to_string(), source })?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr_pipe = child.stderr.take().expect("piped stderr");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(Some(line)).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = tx.send(None);
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let tail = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut pipe = stderr_pipe;
            let mut chunk = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                t.push_str(&String::from_utf8_lossy(&chunk[..n]));
                if t.len() > 2 * STDERR_TAIL {
                    let cut = t.len() - STDERR_TAIL;
                    let cut = (cut..t.len()).find(|&i| t.is_char_boundary(i)).unwrap_or(t.len());
                    t.replace_range(..cut, "");
                }
            }
        });
        let stdin = child.stdin.take();
        Ok(Process { child, stdin, lines, eof: false, stderr })
    }

    /// Sends one line; false if the engine no longer reads (it died).
    pub fn send(&mut self, line: &str) -> bool {
        match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|_| stdin.flush()).is_ok(),
            None => false,
        }
    }

    /// Closes the engine's standard input.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line of output, waiting until `deadline` at most.
    pub fn read_line(&mut self, deadline: Instant) -> Read1 {
        if self.eof {
            return Read1::Eof;
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Some(line)) => Read1::Line(line),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                Read1::Eof
            }
            Err(RecvTimeoutError::Timeout) => Read1::Timeout,
        }
    }

    /// The exit status once the process ended (waiting until `deadline`),
    /// described for messages; `None` if it is still running.
    pub fn wait_until(&mut self, deadline: Instant) -> Option<std::process::ExitStatus> {
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// The last line the engine wrote to standard error, for messages.
    pub fn stderr_note(&self) -> String {
        // Give the stderr thread a moment to catch up with a dying engine.
        std::thread::sleep(Duration::from_millis(20));
        let t = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        match t.lines().rev().map(str::trim).find(|l| !l.is_empty()) {
            Some(last) => format!("; its stderr ends with {last:?}"),
            None => String::new(),
        }
    }

    /// Kills the engine and everything it started.
    pub fn kill(&mut self) {
        #[cfg(unix)]
        {
            if let Ok(pid) = i32::try_from(self.child.id()) {
                // SAFETY: kill(2) with a negative pid signals the process
                // group we created at spawn time; it touches no memory.
                unsafe {
                    libc::kill(-pid, libc::SIGKILL);
                }
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `exit status 3`, `killed by signal 6`.
pub(crate) fn describe_status(status: Option<std::process::ExitStatus>) -> String {
    match status {
        None => "closed its output (still running)".to_string(),
        Some(s) => {
            #[cfg(unix)]
            {
                use std::os::unix::process::ExitStatusExt;
                if let Some(sig) = s.signal() {
                    return format!("was killed by signal {sig}");
                }
            }
            match s.code() {
                Some(c) => format!("exited with status {c}"),
                None => s.to_string(),
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.close_stdin();
        if self.wait_until(Instant::now() + Duration::from_millis(200)).is_none() {
            self.kill();
        } else {
            self.kill(); // stray children of the group
        }
    }
}
