//! One question to a long-lived engine and the reading of its answer, for
//! every protocol (UCI and USI in `uci`, xboard in `xboard`): the perft
//! command is followed by the protocol's synchronisation (`isready`, `ping
//! N`), so the end of an answer is known, never guessed by waiting.
//!
//! The answer ends at the total line of the asked depth. When the sync
//! reply comes first, a whole answer (every legal move, or moves then a
//! line that is no move) is read after a short quiet spell; a part of one
//! or nothing waits a few seconds more: a threaded engine answers `isready`
//! at once and prints later, and from its first line after the sync its
//! answer ends at its total. Nothing at all after those seconds is a perft
//! command the engine ignored. An engine that answers no sync but goes
//! silent after a whole answer is read after a few seconds too; totals of
//! smaller depths (an engine printing every iteration) are no end.

use super::output::{ends_answer, move_line, read_answer_at, total_of, DivideFormat, ParsedOutput};
use super::process::{describe_status, Budget, Process, Read1, MAX_LINE};
use super::EngineError;
use std::time::{Duration, Instant};

/// How often a wait looks at the engine's standard error.
const STDERR_POLL: Duration = Duration::from_millis(250);

/// After the sync reply that follows a whole answer, how long more lines may take.
const QUIET: Duration = Duration::from_millis(600);

/// After a sync reply before any answer, how long until the perft command
/// counts as ignored.
const NOTHING: Duration = Duration::from_secs(3);

/// How long an engine may stay silent after what reads as a whole answer.
const SILENT: Duration = Duration::from_secs(3);

/// True when `line` is the total of the asked depth, in any dialect.
fn ends(line: &str, format: DivideFormat, depth: u32) -> bool {
    ends_answer(line, format, depth)
}

/// A question being answered: who, what, and what its answer holds.
pub(crate) struct Question<'a> {
    /// The engine's name.
    pub engine: &'a str,
    /// The request, for messages (`` `go perft 3` after `position ...` ``).
    pub request: String,
    /// The layout of the answer.
    pub format: DivideFormat,
    /// The asked depth.
    pub depth: u32,
    /// The legal moves of the position asked about (ours).
    pub legal: usize,
    /// The whole answer's time limit (for messages).
    pub timeout: Duration,
    /// The time to wait for the sync reply once the total is in.
    pub handshake: Duration,
    /// The protocol's name (`UCI`, `USI`, `xboard`), for messages.
    pub protocol: &'static str,
    /// The perft command as sent, for messages.
    pub command: String,
    /// The divide totals on the engine's stderr before the command was
    /// sent (`Process::stderr_totals`): a quick engine's may be there
    /// before the answer is read.
    pub stderr_totals: usize,
    /// Whether silence after a whole answer ends it: not for an engine
    /// whose sync reply is sure to come (xboard's `pong`).
    pub silence_ends: bool,
}

/// How an answer was read: its lines, and whether the sync reply was seen.
pub(crate) struct Answer {
    /// The answer's lines (up to its total), each with its newline.
    pub text: String,
    /// False if the engine never answered the sync (it may yet: a stale
    /// reply for the next exchange to skip).
    pub synced: bool,
}

/// What the protocol makes of one line of an answer.
pub(crate) enum Verdict {
    /// A line of the answer.
    Data,
    /// The reply to the sync command.
    Sync,
    /// A line to drop (a stale sync reply).
    Skip,
    /// The engine refused or cannot answer: the error to end with.
    Fail(EngineError),
}

/// Reads the answer to the perft command just sent (the sync command sent
/// after it), showing each move line to `on_move`; `judge` says what each
/// line is. Returns the answer's lines up to its total or, without a total,
/// up to the end found by the sync reply or by silence.
pub(crate) fn read_perft(
    p: &mut Process,
    q: &Question<'_>,
    deadline: Instant,
    on_move: &(dyn Fn(&str, u64) + Sync),
    judge: &mut dyn FnMut(&str) -> Verdict,
) -> Result<Answer, EngineError> {
    let stderr_totals = q.stderr_totals;
    let mut budget = Budget::for_moves(q.legal);
    let note = format!(" (the position has {} legal moves)", q.legal);
    let mut text = String::new();
    let (mut lines, mut moves) = (0usize, 0usize);
    let mut synced = false;
    // The last line that is neither blank nor chatter, and if it is a move.
    let mut last: Option<(String, bool)> = None;
    // When silence ends the answer: after the sync reply, or after a whole answer.
    let mut quiet_until: Option<Instant> = None;
    // Totals of smaller depths seen (an engine that prints every iteration).
    let mut iterations = 0;
    let mut threaded = false;
    loop {
        let wait_until = quiet_until.map_or(deadline, |q| q.min(deadline));
        let read = p.read_line(wait_until.min(Instant::now() + STDERR_POLL));
        if matches!(read, Read1::Timeout) {
            let now = Instant::now();
            if quiet_until.is_some_and(|t| now >= t) {
                break;
            }
            if now < deadline {
                if p.stderr_totals() > stderr_totals && moves == 0 {
                    p.kill();
                    return Err(EngineError::Protocol {
                        engine: q.engine.to_string(),
                        message: format!(
                            "no answer to {} on standard output, but a divide total on standard error{}",
                            q.request,
                            p.stderr_note()
                        ),
                    });
                }
                continue;
            }
        }
        match read {
            Read1::Line(l) => {
                if let Some(what) = budget.take(&l, &note) {
                    p.kill();
                    return Err(flood(q.engine, &q.request, what));
                }
                match judge(&l) {
                    Verdict::Fail(e) => {
                        p.kill();
                        return Err(e);
                    }
                    Verdict::Skip => continue,
                    Verdict::Sync => {
                        synced = true;
                        // A whole answer is over; a part may be a threaded
                        // engine's, still printing; nothing may be a
                        // perft command it ignored.
                        let grace =
                            if reads_whole(moves, q.legal, last.as_ref()) || iterations > 0 { QUIET } else { NOTHING };
                        quiet_until = Some(Instant::now() + grace);
                        continue;
                    }
                    Verdict::Data => {}
                }
                lines += 1;
                let mv = move_line(&l, q.format);
                if let Some((m, n)) = mv {
                    on_move(m, n);
                    moves += 1;
                }
                // The total the line prints, and the depth it names if any
                // (read once: every line of every answer comes here).
                let total = total_of(&l, q.format);
                let done = total.is_some_and(|(_, named)| named.is_none_or(|d| d == q.depth));
                text.push_str(&l);
                text.push('\n');
                if done {
                    if !synced {
                        synced = wait_sync(p, q, judge, deadline);
                    }
                    return Ok(Answer { text, synced });
                }
                // The total of a smaller depth (Sjaak's `perft N 1` prints
                // each iteration's divide) is no end.
                let iteration = total.is_some_and(|(_, named)| named.is_some_and(|d| (1..q.depth).contains(&d)));
                if iteration {
                    // The moves of the asked depth are still to come.
                    moves = 0;
                    last = None;
                    iterations += 1;
                } else if !l.trim().is_empty() && !is_chatter(&l) {
                    last = Some((l.clone(), mv.is_some()));
                }
                // A line after the sync reply: the engine counts on a thread
                // of its own, and its answer ends with its total (or silence).
                threaded |= synced;
                quiet_until =
                    if (q.silence_ends || threaded) && !iteration && reads_whole(moves, q.legal, last.as_ref()) {
                        Some(Instant::now() + SILENT)
                    } else {
                        None
                    };
            }
            Read1::Eof => return Err(crashed(p, q.engine, &q.request, lines, &super::uci::last_line(&text))),
            Read1::TooLong(start) => return Err(too_long(p, q.engine, &q.request, &start)),
            Read1::Timeout => {
                p.kill();
                return Err(EngineError::Timeout {
                    engine: q.engine.to_string(),
                    request: q.request.clone(),
                    timeout: q.timeout,
                    last: super::clip(&super::uci::last_line(&text)),
                    stderr: p.stderr_note(),
                });
            }
        }
    }
    if last.is_none() && iterations == 0 {
        p.kill();
        return Err(silent(q, synced));
    }
    Ok(Answer { text, synced })
}

/// An engine that printed nothing for its perft command.
fn silent(q: &Question<'_>, synced: bool) -> EngineError {
    let how = if synced {
        format!("it answered the {} sync at once and printed nothing else", q.protocol)
    } else {
        "it printed nothing".to_string()
    };
    let advice = if q.command.starts_with("go perft") {
        "its perft command may be `perft N`: try --perft-command 'perft {depth}'"
    } else {
        "name its perft command with --perft-command (e.g. 'perft {depth}')"
    };
    EngineError::NoPerft {
        engine: q.engine.to_string(),
        request: q.request.clone(),
        line: format!("(nothing: {how})"),
        searched: false,
        advice: advice.to_string(),
    }
}

/// Moves then a line that is no move (`Perft done.`, a total in words
/// chesstool does not read), or every legal move: what is left to come is
/// at most a total.
fn reads_whole(moves: usize, legal: usize, last: Option<&(String, bool)>) -> bool {
    match last {
        Some((_, false)) => moves > 0,
        Some((_, true)) => legal > 0 && moves >= legal,
        None => false,
    }
}

/// `info ...` and the like: lines an engine prints while it counts.
fn is_chatter(line: &str) -> bool {
    let l = line.trim_start();
    l.starts_with("info ") || l.starts_with('#') || l.starts_with("tellics")
}

/// After the total: reads up to the sync reply, for at most the handshake
/// time; false if it did not come (the engine answers no sync while busy).
fn wait_sync(p: &mut Process, q: &Question<'_>, judge: &mut dyn FnMut(&str) -> Verdict, deadline: Instant) -> bool {
    let until = deadline.min(Instant::now() + q.handshake);
    loop {
        match p.read_line(until) {
            Read1::Line(l) => {
                if matches!(judge(&l), Verdict::Sync) {
                    return true;
                }
            }
            _ => return false,
        }
    }
}

/// Reads a finished answer: a total of its own, the sum of its moves when
/// nothing follows them, and an error naming the line where a line that is
/// no move stands where the total should be.
pub(crate) fn finish(p: &mut Process, q: &Question<'_>, answer: &Answer) -> Result<ParsedOutput, EngineError> {
    let parsed = read_answer_at(&answer.text, q.format, q.depth);
    let last = answer.text.lines().rev().map(str::trim).find(|l| !l.is_empty() && !is_chatter(l)).unwrap_or("");
    let unended = !last.is_empty() && move_line(last, q.format).is_none() && !ends(last, q.format, q.depth);
    if unended && parsed.as_ref().map_or(true, |p| p.divide.total.is_none()) {
        return Err(EngineError::Unended {
            engine: q.engine.to_string(),
            request: q.request.clone(),
            last: super::clip(last),
            stderr: p.answer_note(),
        });
    }
    parsed.map_err(|source| EngineError::Garbage {
        engine: q.engine.to_string(),
        request: q.request.clone(),
        source: Box::new(source),
        stderr: p.answer_note(),
    })
}

/// A long-lived engine: a process started at the first question, dead
/// after a failure (no more questions until `Divider::restart`).
pub(crate) trait Session: Sized {
    /// The engine's name.
    fn engine_name(&self) -> String;
    /// The longest one question may take.
    fn timeout(&self) -> Duration;
    /// The process slot and the failed flag.
    fn slot(&mut self) -> (&mut Option<Process>, &mut bool);
    /// Starts the process (into the slot) and does the handshake.
    fn start(&mut self, deadline: Instant) -> Result<(), EngineError>;
}

/// Runs `f` on the engine's process, starting it first; a failure leaves
/// the engine dead, but a root it cannot take (`is_unsupported`) leaves it
/// sound.
pub(crate) fn session<E: Session, T>(
    e: &mut E,
    f: impl FnOnce(&mut E, &mut Process, Instant) -> Result<T, EngineError>,
) -> Result<T, EngineError> {
    if *e.slot().1 {
        return Err(EngineError::Protocol { engine: e.engine_name(), message: "engine failed earlier".to_string() });
    }
    let deadline = Instant::now() + e.timeout();
    if e.slot().0.is_none() {
        if let Err(err) = e.start(deadline) {
            *e.slot().1 = true;
            return Err(err);
        }
    }
    let mut p = e.slot().0.take().expect("started");
    let result = f(e, &mut p, deadline);
    if result.as_ref().is_ok() || result.as_ref().is_err_and(EngineError::is_unsupported) {
        *e.slot().0 = Some(p);
    } else {
        *e.slot().1 = true;
    }
    result
}

/// After an echo of the request, how long a real engine may take to answer.
const ECHO_GRACE: Duration = Duration::from_secs(1);

/// Lines of a handshake or a drain: engines list their options
/// (Fairy-Stockfish its variants), but not without end.
const HANDSHAKE_LINES: usize = 10_000;

/// A short wait for one reply (`uciok`, `readyok`, `feature done=1`, `pong N`).
pub(crate) struct Wait<'a> {
    /// The engine's name.
    pub engine: &'a str,
    /// The command answered, as sent.
    pub request: &'a str,
    /// The reply waited for, for messages.
    pub token: &'a str,
    /// The protocol's name, for messages.
    pub protocol: &'static str,
    /// The longest the wait may take.
    pub limit: Duration,
    /// With lines heard, none of them the protocol's (`Heard::Foreign`):
    /// the silence after which the program is taken for another protocol's
    /// (an xboard engine's banner, then nothing, after `uci`).
    pub foreign_quiet: Option<Duration>,
}

/// What a line heard during a `Wait` is.
pub(crate) enum Heard {
    /// The reply waited for.
    Token,
    /// A line of the protocol, to read past.
    Other,
    /// A line that is none of the protocol's (a banner), to read past.
    Foreign,
    /// A line that ends the wait with an error.
    Fail(EngineError),
}

/// Reads until `hear` says a line is the reply, for at most `w.limit`. A
/// program that echoes the request back (`/bin/cat`) gets one more second
/// to show it is an engine after all.
pub(crate) fn wait_for(
    p: &mut Process,
    w: &Wait<'_>,
    deadline: Instant,
    hear: &mut dyn FnMut(&str) -> Heard,
) -> Result<(), EngineError> {
    let (engine, request, token) = (w.engine, w.request, w.token);
    let mut seen = 0;
    let mut last = String::new();
    let mut deadline = deadline.min(Instant::now() + w.limit);
    let mut echoed = false;
    let quoted = format!("`{request}`");
    // Lines heard, and whether all of them were foreign.
    let mut foreign = false;
    loop {
        let quiet = w.foreign_quiet.filter(|_| foreign).map(|q| Instant::now() + q);
        let read = p.read_line(quiet.map_or(deadline, |q| q.min(deadline)));
        if matches!(read, Read1::Timeout) && quiet.is_some_and(|q| q < deadline) {
            p.kill();
            return Err(EngineError::Protocol {
                engine: engine.to_string(),
                message: format!(
                    "it printed {seen} line(s) after `{request}`, none of them {}'s (the last: {:?}), then \
                     nothing for {} s: is it an xboard engine? try --engine-xboard (for a slow {0} engine, \
                     give --handshake-timeout)",
                    w.protocol,
                    super::clip(last.trim()),
                    w.foreign_quiet.unwrap_or_default().as_secs_f64()
                ),
            });
        }
        match read {
            Read1::Line(l) if l.trim() == request && !echoed && l.trim() != token => {
                echoed = true;
                foreign = false;
                deadline = deadline.min(Instant::now() + ECHO_GRACE);
                seen += 1;
                last = l;
            }
            Read1::Line(l) => match hear(&l) {
                Heard::Token => return Ok(()),
                Heard::Fail(e) => {
                    p.kill();
                    return Err(e);
                }
                heard @ (Heard::Other | Heard::Foreign) => {
                    foreign = matches!(heard, Heard::Foreign) && (foreign || seen == 0);
                    seen += 1;
                    if !l.trim().is_empty() {
                        last = l;
                    }
                    if seen > HANDSHAKE_LINES {
                        p.kill();
                        return Err(flood(
                            engine,
                            &quoted,
                            format!("more than {HANDSHAKE_LINES} lines without {token}"),
                        ));
                    }
                }
            },
            Read1::Eof => return Err(crashed(p, engine, &quoted, seen, &last)),
            Read1::TooLong(start) => return Err(too_long(p, engine, &quoted, &start)),
            Read1::Timeout => {
                p.kill();
                if echoed {
                    return Err(EngineError::Protocol {
                        engine: engine.to_string(),
                        message: format!(
                            "echoed `{request}` back and never answered {token}: is it a {} engine? \
                             (a perftree-style script goes with --engine-script)",
                            w.protocol
                        ),
                    });
                }
                let hint = match request {
                    "uci" | "usi" => "; an xboard engine? try --engine-xboard",
                    _ => "",
                };
                return Err(EngineError::Timeout {
                    engine: engine.to_string(),
                    request: format!("`{request}` (waiting for {token}; see --handshake-timeout{hint})"),
                    timeout: w.limit,
                    last: super::clip(&last),
                    stderr: p.stderr_note(),
                });
            }
        }
    }
}

/// A sent line; an engine that no longer reads has died.
pub(crate) fn send(p: &mut Process, engine: &str, line: &str, request: &str) -> Result<(), EngineError> {
    if p.send(line) {
        return Ok(());
    }
    let status = p.wait_until(Instant::now() + Duration::from_millis(500));
    Err(EngineError::Crashed {
        engine: engine.to_string(),
        request: format!("`{request}`"),
        status: describe_status(status),
        lines: 0,
        stderr: p.stderr_note(),
    })
}

/// The engine ended while answering `request`.
pub(crate) fn crashed(p: &mut Process, engine: &str, request: &str, lines: usize, last: &str) -> EngineError {
    let status = p.wait_until(Instant::now() + Duration::from_millis(500));
    let mut stderr = p.stderr_note();
    if !last.is_empty() {
        stderr = format!("; its last line was {:?}{stderr}", super::clip(last));
    }
    EngineError::Crashed {
        engine: engine.to_string(),
        request: request.to_string(),
        status: describe_status(status),
        lines,
        stderr,
    }
}

/// Output past every bound.
pub(crate) fn flood(engine: &str, request: &str, what: String) -> EngineError {
    EngineError::Flood { engine: engine.to_string(), request: request.to_string(), what }
}

/// A line over `MAX_LINE` bytes (the engine is killed).
pub(crate) fn too_long(p: &mut Process, engine: &str, request: &str, start: &str) -> EngineError {
    p.kill();
    flood(engine, request, format!("a line longer than {} KiB (starting {:?})", MAX_LINE >> 10, super::clip(start)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_answer_is_every_move_or_moves_then_a_number() {
        assert!(reads_whole(3, 20, Some(&("Nodes per second: 5".to_string(), false))));
        assert!(!reads_whole(3, 20, Some(&("e2e4: 1".to_string(), true))));
        assert!(reads_whole(20, 20, Some(&("e2e4: 1".to_string(), true))));
        assert!(reads_whole(3, 20, Some(&("Perft done.".to_string(), false))));
        assert!(!reads_whole(0, 20, Some(&("banner 2".to_string(), false))));
        assert!(!reads_whole(0, 20, None));
    }
}
