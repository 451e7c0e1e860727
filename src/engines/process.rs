//! A child process for an engine, supervised: its standard output is read
//! on a thread into a small bounded queue (an engine that floods blocks on
//! its pipe instead of filling our memory), lines are cut at `MAX_LINE`
//! bytes, every read has a deadline that holds however fast the engine
//! prints, the tail of its standard error is kept for messages, and its whole
//! process group is killed when done (see `signals` for chesstool's own end).

use super::stderr::{StderrLog, StderrMode};
use super::{signals, EngineError};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest line an engine may print (bytes, without the newline).
pub(crate) const MAX_LINE: usize = 64 * 1024;

/// Lines waiting to be read; with `MAX_LINE` this bounds the queue to 4 MiB.
const QUEUE: usize = 64;

/// How often a read that waits checks whether the engine has exited.
const EXIT_POLL: Duration = Duration::from_millis(50);

pub(crate) struct Process {
    child: Child,
    pgid: i32,
    stdin: Option<ChildStdin>,
    lines: Receiver<Chunk>,
    eof: bool,
    stderr: Arc<Mutex<StderrLog>>,
}

/// What the reader thread passes on.
enum Chunk {
    Line(String),
    /// A line longer than `MAX_LINE`: its start. Reading stops there.
    TooLong(String),
    Eof,
}

/// What a read within a deadline got.
pub(crate) enum Read1 {
    Line(String),
    Eof,
    Timeout,
    /// A line over `MAX_LINE` bytes (its first characters).
    TooLong(String),
}

/// Limits on one answer: no divide needs more lines than its moves plus
/// some chatter, nor megabytes of text.
pub(crate) struct Budget {
    lines: usize,
    bytes: usize,
    max_lines: usize,
    max_bytes: usize,
}

impl Budget {
    /// Room for `moves` move lines plus 1000 lines of chatter, in 4 MiB. At
    /// least 10,000 moves are allowed for: an engine that reads a variant's
    /// rules differently (Amazons with arrows where we have none) can list
    /// thousands of moves where we have 80, and that is a mismatch to show,
    /// not garbage.
    pub fn for_moves(moves: usize) -> Budget {
        Budget { lines: 0, bytes: 0, max_lines: 1000 + 2 * moves.max(10_000), max_bytes: 4 << 20 }
    }

    /// Counts a line; `Some(reason)` once the answer is past every sane bound.
    pub fn take(&mut self, line: &str, moves_note: &str) -> Option<String> {
        self.lines += 1;
        self.bytes += line.len() + 1;
        if self.lines > self.max_lines {
            Some(format!("more than {} lines{moves_note}", self.max_lines))
        } else if self.bytes > self.max_bytes {
            Some(format!("more than {} MiB of output", self.max_bytes >> 20))
        } else {
            None
        }
    }
}

impl Process {
    /// Starts `words[0]` with the rest of `words` and `args` as arguments,
    /// in a process group of its own; with `StderrMode::Merge` its standard
    /// error is read as output too.
    pub fn spawn(words: &[String], args: &[String], mode: StderrMode) -> Result<Process, EngineError> {
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
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::process::CommandExt;
            // SAFETY: getpid before the fork; prctl, getppid and _exit in the
            // child are async-signal-safe and allocate nothing.
            let parent = unsafe { libc::getpid() };
            unsafe {
                cmd.pre_exec(move || {
                    // The kernel kills the engine if the thread that started
                    // it dies (chesstool killed by SIGKILL); if chesstool is
                    // already gone, do not start at all.
                    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                    if libc::getppid() != parent {
                        libc::_exit(1);
                    }
                    Ok(())
                });
            }
        }
        let mut child = cmd.spawn().map_err(|source| EngineError::Spawn { program: super::clip(program), source })?;
        let pgid = i32::try_from(child.id()).unwrap_or(0);
        signals::register(pgid);
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr_pipe = child.stderr.take().expect("piped stderr");
        let (tx, lines) = mpsc::sync_channel(QUEUE);
        let stderr = Arc::new(Mutex::new(StderrLog::default()));
        match mode {
            StderrMode::Keep => {
                std::thread::spawn(move || read_lines(stdout, tx, true));
                let log = Arc::clone(&stderr);
                std::thread::spawn(move || super::stderr::keep(stderr_pipe, log));
            }
            StderrMode::Merge => {
                // Two writers: the end of output is when both have hung up
                // (the channel disconnects), not the first one's end.
                let tx2 = tx.clone();
                std::thread::spawn(move || read_lines(stdout, tx, false));
                std::thread::spawn(move || read_lines(stderr_pipe, tx2, false));
            }
        }
        let stdin = child.stdin.take();
        Ok(Process { child, pgid, stdin, lines, eof: false, stderr })
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

    /// The next line of output, waiting until `deadline` at most. Past the
    /// deadline this is `Timeout` even if lines are waiting, so an engine
    /// that prints without end still runs out of time.
    ///
    /// The end of output is also the end of the engine itself: a program
    /// that exits while a child of its own keeps the pipe open (a shell
    /// script's background job) has ended all the same.
    pub fn read_line(&mut self, deadline: Instant) -> Read1 {
        if self.eof {
            return Read1::Eof;
        }
        loop {
            let now = Instant::now();
            if now >= deadline {
                return Read1::Timeout;
            }
            let slice = (deadline - now).min(EXIT_POLL);
            match self.lines.recv_timeout(slice) {
                Ok(chunk) => return self.take(chunk),
                Err(RecvTimeoutError::Disconnected) => return self.take(Chunk::Eof),
                Err(RecvTimeoutError::Timeout) => {
                    if matches!(self.child.try_wait(), Ok(Some(_))) {
                        // It has exited: what it wrote is in the pipe already.
                        return match self.lines.recv_timeout(EXIT_POLL) {
                            Ok(chunk) => self.take(chunk),
                            Err(_) => self.take(Chunk::Eof),
                        };
                    }
                }
            }
        }
    }

    fn take(&mut self, chunk: Chunk) -> Read1 {
        match chunk {
            Chunk::Line(line) => Read1::Line(line),
            Chunk::TooLong(start) => {
                self.eof = true;
                Read1::TooLong(start)
            }
            Chunk::Eof => {
                self.eof = true;
                Read1::Eof
            }
        }
    }

    /// The exit status once the process ended (waiting until `deadline`);
    /// `None` if it is still running.
    pub fn wait_until(&mut self, deadline: Instant) -> Option<std::process::ExitStatus> {
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// What the engine wrote to standard error, for messages (see `StderrLog::note`).
    pub fn stderr_note(&self) -> String {
        // Give the stderr thread a moment to catch up with a dying engine.
        std::thread::sleep(Duration::from_millis(20));
        self.stderr.lock().unwrap_or_else(|e| e.into_inner()).note()
    }

    /// For a message about an answer that cannot be read: how the engine
    /// ended if it has (`; it exited with status 1`) and its stderr's tail.
    pub fn answer_note(&mut self) -> String {
        let status = match self.child.try_wait() {
            Ok(Some(s)) => format!("; it {}", describe_status(Some(s))),
            _ => String::new(),
        };
        format!("{status}{}", self.stderr_note())
    }

    /// How many divide totals the engine has written to standard error.
    pub fn stderr_totals(&self) -> usize {
        self.stderr.lock().unwrap_or_else(|e| e.into_inner()).totals()
    }

    /// Kills the engine and everything it started.
    pub fn kill(&mut self) {
        #[cfg(unix)]
        if self.pgid > 0 {
            // SAFETY: kill(2) with a negative pid signals the process group
            // we created at spawn time; it touches no memory.
            unsafe {
                libc::kill(-self.pgid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        signals::unregister(self.pgid);
    }
}

/// The reader thread: lines of at most `MAX_LINE` bytes into the queue; it
/// blocks while the queue is full and ends when the queue is dropped. With
/// `send_eof` it says so at the end; else its hanging up is the end.
fn read_lines(stdout: impl Read, tx: mpsc::SyncSender<Chunk>, send_eof: bool) {
    let mut reader = BufReader::with_capacity(MAX_LINE, stdout);
    let mut line: Vec<u8> = Vec::new();
    loop {
        let buf = match reader.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(buf) => buf,
        };
        let (used, complete) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        line.extend_from_slice(&buf[..used]);
        reader.consume(used);
        if line.len() > MAX_LINE + 1 {
            let start = String::from_utf8_lossy(&line[..64]).into_owned();
            let _ = tx.send(Chunk::TooLong(start));
            return;
        }
        if complete {
            if tx.send(Chunk::Line(text_of(&line))).is_err() {
                return;
            }
            line.clear();
        }
    }
    // A last line without a newline (a script's `printf 8902`, or an engine
    // that died in the middle of a line) is passed on as it is.
    if !line.is_empty() && tx.send(Chunk::Line(text_of(&line))).is_err() {
        return;
    }
    if send_eof {
        let _ = tx.send(Chunk::Eof);
    }
}

fn text_of(line: &[u8]) -> String {
    String::from_utf8_lossy(line).trim_end_matches(['\n', '\r']).to_string()
}

/// `exited with status 3`, `was killed by signal 6`.
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
        // A well-behaved engine gets a moment to quit; then the group is
        // killed either way (stray children of the engine).
        let _ = self.wait_until(Instant::now() + Duration::from_millis(200));
        self.kill();
    }
}
