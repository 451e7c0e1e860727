//! Engines that fail to answer, in `fuzz`. A crash, a hang or an
//! unreadable answer is a finding of its own, not the end of the run: the
//! engine is restarted and asked again (`--retries`), and the walk goes on.
//! An engine that answers when asked again failed at random (threads, a
//! race); one that fails every time fails on the line itself, and is asked
//! the line's end position alone once, to tell the position from the moves.

use crate::engines::{EngineError, Line};
use crate::rules::Rules;
use crate::verify::bisect::{Checker, VerifyError};
use crate::verify::diff::Side;
use std::time::Duration;

/// How an engine failed to answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FailureKind {
    /// It exited or died: the status as the system reported it.
    Crash(String),
    /// No complete answer within the time limit (it was killed).
    Hang,
    /// An answer that cannot be read as a divide.
    Unreadable,
}

impl FailureKind {
    /// The kind of an engine error.
    pub fn of(e: &VerifyError) -> FailureKind {
        match e {
            VerifyError::Engine(EngineError::Crashed { status, .. }) => FailureKind::Crash(status.clone()),
            VerifyError::Engine(EngineError::Timeout { .. }) => FailureKind::Hang,
            _ => FailureKind::Unreadable,
        }
    }

    /// A short name for JSON: `crash`, `hang`, `unreadable`.
    pub fn name(&self) -> &'static str {
        match self {
            FailureKind::Crash(_) => "crash",
            FailureKind::Hang => "hang",
            FailureKind::Unreadable => "unreadable",
        }
    }

    /// What the engine did, for a cause: `crashes (exit status: 101)`.
    pub fn text(&self) -> String {
        match self {
            FailureKind::Crash(status) => format!("crashes ({status})"),
            FailureKind::Hang => "hangs (no complete answer in time; killed)".to_string(),
            FailureKind::Unreadable => "gives an answer that cannot be read".to_string(),
        }
    }
}

/// A line the engine failed to answer about.
pub struct FailureFinding<R: Rules> {
    /// The line asked.
    pub line: Line<R>,
    /// The depth asked.
    pub depth: u32,
    /// How it failed (the last attempt).
    pub kind: FailureKind,
    /// The last failure's message: the request, the status or the last
    /// line, the tail of the engine's standard error.
    pub message: String,
    /// Times the engine was asked (1 + the retries used).
    pub attempts: u32,
    /// An attempt after a restart answered: the engine fails at random, not
    /// on this line.
    pub at_random: bool,
    /// For a line with moves that failed every time: whether the engine
    /// also fails on its end position given alone (`None`: not asked).
    pub alone: Option<bool>,
}

impl<R: Rules> FailureFinding<R> {
    /// The finding's cause, one per kind of failure.
    pub fn cause(&self) -> String {
        if self.at_random {
            format!("engine failure at random: it {} now and then, and answers when asked again", self.kind.text())
        } else {
            format!("engine failure: it {}", self.kind.text())
        }
    }

    /// The part of the engine the failure points to, in a line.
    pub fn layer(&self) -> String {
        match (self.at_random, self.alone) {
            (true, _) => "not this position: asked again after a restart, the engine answered (threads, a race, \
                          uninitialised memory?)"
                .to_string(),
            (false, Some(true)) => "the position itself: the engine fails on it given alone (its FEN) too".to_string(),
            (false, Some(false)) => "the moves: the engine answers about the position given alone (its FEN), \
                                     and fails only after the moves (make/unmake or state kept across moves)"
                .to_string(),
            (false, None) => "this line: it failed every time it was asked".to_string(),
        }
    }

    /// `position`, `after-moves`, `at-random` or `line`, for JSON.
    pub fn layer_name(&self) -> &'static str {
        match (self.at_random, self.alone) {
            (true, _) => "at-random",
            (false, Some(true)) => "position",
            (false, Some(false)) => "after-moves",
            (false, None) => "line",
        }
    }
}

/// What asking a question with retries gave.
pub struct Asked<T> {
    /// The answer, unless every attempt failed.
    pub answer: Option<T>,
    /// The failures before the answer (or all of them), in order.
    pub failures: Vec<VerifyError>,
    /// Every failure was a time limit that the answer, when it came,
    /// overran: the engine is slow, not hanging, and no finding.
    pub only_slow: bool,
}

/// The time an answer may take when the user set no `--timeout`: ten times
/// the engine's slowest answer so far, at least `MIN_LIMIT` and at most
/// `MAX_LIMIT`, doubled for each attempt after a time-out. A hang costs
/// seconds of the budget, not the ten minutes of the default `--timeout`.
pub fn adaptive_limit(slowest: Duration, attempt: u32) -> Duration {
    let base = (slowest * 10).clamp(MIN_LIMIT, MAX_LIMIT);
    (base * 2u32.saturating_pow(attempt)).min(MAX_LIMIT)
}

/// The shortest time limit chosen by itself.
pub const MIN_LIMIT: Duration = Duration::from_secs(10);

/// The longest time limit chosen by itself (the default `--timeout`).
pub const MAX_LIMIT: Duration = Duration::from_secs(600);

/// True if `e` is the engine under test failing to answer (a crash, a hang,
/// an answer that cannot be read), as opposed to the reference failing or
/// a usage error.
pub fn is_engine_failure(e: &VerifyError) -> bool {
    match e {
        VerifyError::Engine(e) => e.is_engine_failure(),
        VerifyError::Diff { error, user_text: None } => error.side() == Side::Engine,
        _ => false,
    }
}

/// Asks `question` up to `1 + retries` times, restarting the engine after
/// each failure; with `adaptive`, the time limit of each attempt comes
/// from `adaptive_limit`.
pub fn ask<R: Rules, T>(
    checker: &mut Checker<'_, R>,
    retries: u32,
    adaptive: bool,
    mut question: impl FnMut(&mut Checker<'_, R>) -> Result<T, VerifyError>,
) -> Result<Asked<T>, VerifyError> {
    let mut failures = Vec::new();
    let mut first_limit = None;
    for attempt in 0..=retries {
        let limit = adaptive_limit(checker.engine_slowest, attempt);
        if adaptive {
            checker.engine.set_timeout(limit);
        }
        match question(checker) {
            Ok(answer) => {
                let only_slow = adaptive
                    && failures.iter().all(|f| FailureKind::of(f) == FailureKind::Hang)
                    && first_limit.is_some_and(|l| checker.engine_slowest >= l);
                return Ok(Asked { answer: Some(answer), failures, only_slow });
            }
            Err(e) if is_engine_failure(&e) => {
                checker.engine.restart();
                if FailureKind::of(&e) == FailureKind::Hang {
                    first_limit.get_or_insert(limit);
                }
                failures.push(e);
            }
            Err(e) => return Err(e),
        }
    }
    Ok(Asked { answer: None, failures, only_slow: false })
}

/// The finding of a question that failed: at random when it was answered
/// in the end; else a line of no moves blames its position, and for a line
/// with moves that did not hang, the line's end is asked alone once (a
/// crash there too blames the position, an answer the moves).
pub fn finding<R: Rules, T>(
    checker: &mut Checker<'_, R>,
    line: &Line<R>,
    depth: u32,
    asked: &Asked<T>,
) -> Option<FailureFinding<R>> {
    let last = asked.failures.last()?;
    let kind = FailureKind::of(last);
    let at_random = asked.answer.is_some();
    let alone = if at_random {
        None
    } else if line.moves.is_empty() {
        Some(true)
    } else if kind == FailureKind::Hang {
        // A hang costs its time limit: not asked again.
        None
    } else {
        let alone = Line::new(line.position(checker.rules));
        match checker.compare(&alone, depth) {
            Ok(_) => Some(false),
            Err(e) if is_engine_failure(&e) => {
                checker.engine.restart();
                Some(true)
            }
            Err(_) => None,
        }
    };
    Some(FailureFinding {
        line: line.clone(),
        depth,
        kind,
        message: last.to_string(),
        attempts: asked.failures.len() as u32 + u32::from(at_random),
        at_random,
        alone,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_grows_with_the_engine_and_each_retry() {
        assert_eq!(adaptive_limit(Duration::ZERO, 0), MIN_LIMIT);
        assert_eq!(adaptive_limit(Duration::from_secs(3), 0), Duration::from_secs(30));
        assert_eq!(adaptive_limit(Duration::from_secs(3), 1), Duration::from_secs(60));
        assert_eq!(adaptive_limit(Duration::from_secs(100), 3), MAX_LIMIT);
    }
}
