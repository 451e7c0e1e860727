//! What `divide` and `suite` share: the engine options and how they become
//! dividers for any game, the limits on what the user types, the root
//! position and moves, errors with their exit codes and JSON error
//! documents, reports of differences and witnesses (`report`), and live
//! feedback on stderr (`live`).

pub mod junit;
pub mod live;
pub mod report;

use super::EngineFailure;
use anyhow::Context;
use chesstool::engines::find::resolve_program;
use chesstool::engines::{clip, split_command, Builtin, DivideFormat, Divider, Line, ScriptEngine, UciEngine};
use chesstool::rules::{ReadMoveError, Rules};
use chesstool::verify::bisect::VerifyError;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

/// The longest `--timeout`: a week.
pub const MAX_TIMEOUT: f64 = 604_800.0;

/// The default `--timeout` (the vocabulary's one default everywhere).
pub const DEFAULT_TIMEOUT: f64 = 600.0;

/// How to reach the engine under test and the reference.
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
    /// The engine under test, a UCI program answering `go perft N` (a command line, quoted like a shell).
    #[arg(long, value_name = "CMD", conflicts_with = "engine_script")]
    pub engine_uci: Option<String>,
    /// The engine under test, a perftree-style script run as `CMD DEPTH "FEN" "MOVES"`.
    #[arg(long, value_name = "CMD")]
    pub engine_script: Option<String>,
    /// The reference: `builtin` (our generator, the default).
    #[arg(long, value_name = "NAME", default_value = "builtin", value_parser = ["builtin"])]
    pub reference: String,
    /// A UCI reference instead of ours (`stockfish` is looked up on PATH, then at /usr/games/stockfish).
    #[arg(long, value_name = "CMD", conflicts_with = "reference_script")]
    pub reference_uci: Option<String>,
    /// A perftree-style script as the reference.
    #[arg(long, value_name = "CMD")]
    pub reference_script: Option<String>,
    /// Seconds each engine call may take before the engine is killed (more than 0, at most 604800) [default: 600].
    #[arg(long, value_name = "SECONDS", value_parser = timeout_arg, allow_negative_numbers = true)]
    pub timeout: Option<f64>,
}

impl EngineArgs {
    pub fn has_engine(&self) -> bool {
        self.engine_uci.is_some() || self.engine_script.is_some()
    }

    pub fn has_reference_engine(&self) -> bool {
        self.reference_uci.is_some() || self.reference_script.is_some()
    }

    fn timeout(&self) -> Duration {
        Duration::from_secs_f64(self.timeout.unwrap_or(DEFAULT_TIMEOUT))
    }

    /// Options that do nothing without an engine are usage errors;
    /// `against` is true when a saved divide stands for the engine.
    pub fn check_usage(&self, against: bool) -> anyhow::Result<()> {
        if self.timeout.is_some() && !self.has_engine() && !self.has_reference_engine() {
            return Err(usage("--timeout has no effect without --engine-uci, --engine-script or a reference engine"));
        }
        if self.has_reference_engine() && !self.has_engine() && !against {
            return Err(usage("a reference needs an engine to compare: --engine-uci, --engine-script or --against"));
        }
        Ok(())
    }

    /// The engine under test (`None` if none was given), reading its output
    /// as `format`.
    pub fn engine<R: Rules + 'static>(
        &self,
        rules: &Arc<R>,
        format: DivideFormat,
    ) -> anyhow::Result<Option<Box<dyn Divider<R>>>> {
        let timeout = self.timeout();
        Ok(match (&self.engine_uci, &self.engine_script) {
            (Some(cmd), _) => {
                let words = command_words(cmd, "--engine-uci")?;
                Some(Box::new(UciEngine::new(Arc::clone(rules), cmd, words, timeout, format)))
            }
            (_, Some(cmd)) => {
                let words = command_words(cmd, "--engine-script")?;
                Some(Box::new(ScriptEngine::new(Arc::clone(rules), cmd, words, timeout, format)))
            }
            _ => None,
        })
    }

    /// The reference: our generator unless a reference engine was given.
    pub fn reference<R: Rules + 'static>(&self, rules: &Arc<R>) -> anyhow::Result<Box<dyn Divider<R>>> {
        let timeout = self.timeout();
        let auto = DivideFormat::Auto;
        Ok(match (&self.reference_uci, &self.reference_script) {
            (Some(cmd), _) => {
                let words = command_words(cmd, "--reference-uci")?;
                Box::new(UciEngine::new(Arc::clone(rules), cmd, words, timeout, auto))
            }
            (_, Some(cmd)) => {
                let words = command_words(cmd, "--reference-script")?;
                Box::new(ScriptEngine::new(Arc::clone(rules), cmd, words, timeout, auto))
            }
            _ => Box::new(Builtin::new(Arc::clone(rules))),
        })
    }
}

/// Splits a command line; a bare `stockfish` is looked up where Debian puts it.
fn command_words(cmd: &str, flag: &str) -> anyhow::Result<Vec<String>> {
    let words = split_command(cmd).ok_or_else(|| usage(&format!("{flag} {:?}: unbalanced quotes", clip(cmd))))?;
    if words.is_empty() {
        return Err(usage(&format!("{flag}: empty command")));
    }
    resolve_program(words).map_err(|e| anyhow::anyhow!("{flag}: {e}"))
}

/// Parses `--timeout`: seconds, more than 0 and at most a week.
pub fn timeout_arg(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x > 0.0 && x <= MAX_TIMEOUT => Ok(x),
        _ => Err(format!("{:?} is not a timeout in seconds (more than 0, at most {MAX_TIMEOUT})", clip(s))),
    }
}

/// Parses a depth from 1 (0 with `allow_zero`) to `chesstool::perft::MAX_DEPTH`.
pub fn depth_in(s: &str, allow_zero: bool) -> Result<u32, String> {
    let max = chesstool::perft::MAX_DEPTH;
    let min = u32::from(!allow_zero);
    match s.trim().parse::<i128>() {
        Ok(d) if (i128::from(min)..=i128::from(max)).contains(&d) => Ok(d as u32),
        _ => Err(format!("{:?} is not a depth ({min} to {max})", clip(s))),
    }
}

/// `--depth` of divide: 1 to 20.
pub fn divide_depth_arg(s: &str) -> Result<u32, String> {
    depth_in(s, false)
}

/// `--max-depth` of suite: 0 to 20.
pub fn max_depth_arg(s: &str) -> Result<u32, String> {
    depth_in(s, true)
}

/// A usage error: exit 2, and `"kind": "usage"` in a JSON error document.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Usage(pub String);

pub fn usage(message: &str) -> anyhow::Error {
    anyhow::Error::new(Usage(message.to_string()))
}

/// The root position and the moves played from it, as given on the command
/// line (each move in any notation the game reads: UCI, long algebraic, SAN).
pub fn resolve_line<R: Rules>(rules: &R, fen: &str, moves: &[String]) -> anyhow::Result<Line<R>> {
    let root = rules.parse_position(fen).map_err(|e| anyhow::anyhow!("--fen {:?}: {}", clip(fen), clip_message(&e)))?;
    let mut line: Line<R> = Line::new(root);
    let mut pos = line.root.clone();
    for (i, text) in moves.iter().enumerate() {
        let m = rules.read_move(&pos, text).map_err(|e| {
            anyhow::anyhow!(
                "--moves: move {} {:?}: {} in {}",
                i + 1,
                clip(text),
                move_problem(&e),
                rules.position_text(&pos)
            )
        })?;
        line.moves.push(m);
        pos = rules.play(&pos, m);
    }
    Ok(line)
}

/// What is wrong with a move, without repeating it.
fn move_problem(e: &ReadMoveError) -> &'static str {
    match e {
        ReadMoveError::Syntax(_) => "not a move in any notation we know (UCI like e2e4, or SAN like Nf3)",
        ReadMoveError::Ambiguous(_) => "ambiguous (several legal moves fit it)",
        ReadMoveError::Illegal { .. } => "not legal",
    }
}

/// A message from elsewhere (a FEN error quoting its field) cut to a sane length.
pub fn clip_message(e: &dyn std::fmt::Display) -> String {
    let text = e.to_string();
    if text.chars().count() <= 300 {
        return text;
    }
    let head: String = text.chars().take(300).collect();
    format!("{head}...")
}

/// A comparison failure as an error with the right exit code: engine
/// failures (3) carry `EngineFailure`, input errors (2) do not.
pub fn verify_error(e: VerifyError) -> anyhow::Error {
    if e.is_engine_failure() {
        anyhow::Error::new(EngineFailure(e.to_string()))
    } else {
        anyhow::anyhow!("{e}")
    }
}

/// The JSON error document of the vocabulary, for a failed `--json` run.
pub fn error_document(err: &anyhow::Error, extra: Option<(&str, serde_json::Value)>) -> serde_json::Value {
    let kind = if err.chain().any(|e| e.is::<EngineFailure>()) {
        "engine"
    } else if err.chain().any(|e| e.is::<Usage>()) {
        "usage"
    } else {
        "input"
    };
    let mut doc = serde_json::json!({
        "status": "error",
        "error": {"kind": kind, "message": format!("{err:#}")},
    });
    if let Some((key, value)) = extra {
        doc[key] = value;
    }
    doc
}

/// Writes one pretty-printed JSON document and a newline.
pub fn write_json(out: &mut impl Write, value: &impl serde::Serialize) -> anyhow::Result<()> {
    writeln!(out, "{}", serde_json::to_string_pretty(value)?)?;
    out.flush()?;
    Ok(())
}

/// `1 engine call`, `7 engine calls`.
pub fn plural(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Reads a file, or standard input for `-`, naming it for messages.
pub fn read_input(path: &std::path::Path) -> anyhow::Result<(String, Vec<u8>)> {
    use std::io::Read;
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes).context("cannot read standard input")?;
        Ok(("standard input".to_string(), bytes))
    } else {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", clip(&name)))?;
        Ok((name, bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_the_user_types_are_range_checked() {
        assert_eq!(timeout_arg("2.5"), Ok(2.5));
        assert_eq!(timeout_arg("604800"), Ok(604_800.0));
        for bad in ["0", "-1", "1e19", "1e300", "inf", "nan", "NaN", "-inf", "two", "", "604800.5"] {
            assert!(timeout_arg(bad).is_err(), "{bad}");
        }
        assert_eq!(divide_depth_arg("20"), Ok(20));
        for bad in ["0", "-1", "21", "10000", "99999999999999999999999999", "1e3", "x"] {
            assert!(divide_depth_arg(bad).is_err(), "{bad}");
        }
        assert_eq!(max_depth_arg("0"), Ok(0));
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1u32, "engine call", "engine calls"), "1 engine call");
        assert_eq!(plural(7u32, "engine call", "engine calls"), "7 engine calls");
    }
}
