//! What `divide` and `suite` share: the engine options and how they become
//! dividers for any game, the limits on what the user types, the root
//! position and moves, errors with their exit codes and JSON error
//! documents, reports of differences and witnesses (`report`), and live
//! feedback on stderr (`live`).

pub mod junit;
pub mod live;
pub mod picture;
pub mod report;

use super::common::{move_problem, timeout_arg, DEFAULT_TIMEOUT};
use super::{usage_error, BrokenRule, EngineFailure, ErrorKind};
use chesstool::engines::find::resolve_program;
use chesstool::engines::{
    clip, split_command, Builtin, DivideFormat, Divider, EngineError, EngineOptions, Line, ScriptEngine, StderrMode,
    UciEngine, XboardEngine,
};
use chesstool::rules::Rules;
use chesstool::verify::bisect::VerifyError;
use std::sync::Arc;
use std::time::Duration;

/// How to reach the engine under test and the reference.
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
    /// The engine under test, a UCI program answering `go perft N` (a command line, quoted like a shell).
    #[arg(long, value_name = "CMD", conflicts_with_all = ["engine_script", "engine_usi", "engine_xboard"])]
    pub engine_uci: Option<String>,
    /// The engine under test, a USI program answering `go perft N` (`position sfen ...`, moves `7g7f`, `P*5e`; variants only).
    #[arg(long, value_name = "CMD", conflicts_with_all = ["engine_script", "engine_xboard"])]
    pub engine_usi: Option<String>,
    /// The engine under test, an xboard (CECP) program answering `perft N` (Sjeng, Sjaak II: `setboard`, `usermove`, `ping`).
    #[arg(long, value_name = "CMD", conflicts_with = "engine_script")]
    pub engine_xboard: Option<String>,
    /// The --engine-xboard engine's name for the variant (`variant NAME`), where it is neither chesstool's nor xboard's standard one.
    #[arg(long, value_name = "NAME")]
    pub engine_variant: Option<String>,
    /// The engine under test, a perftree-style script run as `CMD DEPTH "FEN" "MOVES"`.
    #[arg(long, value_name = "CMD")]
    pub engine_script: Option<String>,
    /// The reference: `builtin` (our generator, the default).
    #[arg(long, value_name = "NAME", default_value = "builtin", value_parser = ["builtin"])]
    pub reference: String,
    /// A UCI reference instead of ours (`stockfish` is looked up on PATH, then at /usr/games/stockfish).
    #[arg(long, value_name = "CMD", conflicts_with_all = ["reference_script", "reference_xboard"])]
    pub reference_uci: Option<String>,
    /// An xboard engine as the reference (`perft N`).
    #[arg(long, value_name = "CMD", conflicts_with = "reference_script")]
    pub reference_xboard: Option<String>,
    /// A perftree-style script as the reference.
    #[arg(long, value_name = "CMD")]
    pub reference_script: Option<String>,
    /// Seconds each engine answer may take before the engine is killed (more than 0, at most 604800) [default: 600].
    #[arg(long, value_name = "SECONDS", value_parser = timeout_arg, allow_negative_numbers = true)]
    pub timeout: Option<f64>,
    /// Seconds an engine may take for its handshake (`uci` -> `uciok`, `isready` -> `readyok`, xboard's `feature done=1`, `pong`) [default: 10].
    #[arg(long, value_name = "SECONDS", value_parser = timeout_arg, allow_negative_numbers = true)]
    pub handshake_timeout: Option<f64>,
    /// The --engine-uci (or --engine-usi) engine's perft command, `{depth}` standing for the depth (e.g. 'perft {depth}') [default: 'go perft {depth}'].
    #[arg(long, value_name = "TEMPLATE")]
    pub perft_command: Option<String>,
    /// The standard error of the engine under test: `keep` (its tail is quoted when an answer is missing or unreadable) or `merge` (read as output, for engines that print their divide there) [default: keep].
    #[arg(long, value_name = "MODE", value_parser = parse_stderr_mode)]
    pub engine_stderr: Option<StderrMode>,
}

fn parse_stderr_mode(s: &str) -> Result<StderrMode, String> {
    s.parse()
}

impl EngineArgs {
    pub fn has_engine(&self) -> bool {
        self.engine_uci.is_some()
            || self.engine_usi.is_some()
            || self.engine_xboard.is_some()
            || self.engine_script.is_some()
    }

    /// The command of the engine under test, whichever protocol it speaks.
    pub fn engine_command(&self) -> Option<&str> {
        [&self.engine_uci, &self.engine_usi, &self.engine_xboard, &self.engine_script]
            .into_iter()
            .find_map(|c| c.as_deref())
    }

    pub fn has_reference_engine(&self) -> bool {
        self.reference_uci.is_some() || self.reference_xboard.is_some() || self.reference_script.is_some()
    }

    /// The options of the engine under test (`reference`: false) or of a
    /// reference engine; `vouched` the UCI options a script is taken to play.
    fn options(&self, format: DivideFormat, reference: bool, vouched: Vec<String>) -> EngineOptions {
        let mut opts = EngineOptions::new(Duration::from_secs_f64(self.timeout.unwrap_or(DEFAULT_TIMEOUT)), format);
        opts.vouched = vouched;
        opts.vouch_hint = Some("give --chess960 if the script plays Chess960".to_string());
        if let Some(h) = self.handshake_timeout {
            opts.handshake = Duration::from_secs_f64(h);
        }
        if !reference {
            opts.perft_command.clone_from(&self.perft_command);
            opts.stderr = self.engine_stderr.unwrap_or_default();
            opts.engine_variant.clone_from(&self.engine_variant);
        }
        opts
    }

    /// Options that do nothing without an engine are usage errors;
    /// `against` is true when a saved divide stands for the engine.
    pub fn check_usage(&self, against: bool) -> anyhow::Result<()> {
        if self.timeout.is_some() && !self.has_engine() && !self.has_reference_engine() {
            return Err(usage(
                "--timeout has no effect without an engine (--engine-uci, --engine-xboard, ...) or a reference engine",
            ));
        }
        if self.handshake_timeout.is_some() && !self.has_engine() && !self.has_reference_engine() {
            return Err(usage(
                "--handshake-timeout has no effect without an engine (--engine-uci, --engine-xboard, ...) or a reference engine",
            ));
        }
        if let Some(t) = &self.perft_command {
            if self.engine_uci.is_none() && self.engine_usi.is_none() && self.engine_xboard.is_none() {
                return Err(usage(
                    "--perft-command has no effect without --engine-uci, --engine-usi or --engine-xboard \
                     (a script is run as it is)",
                ));
            }
            if !t.contains("{depth}") || t.trim().is_empty() || t.contains('\n') {
                return Err(usage(&format!(
                    "--perft-command {:?}: a one-line command with {{depth}} for the depth (e.g. 'perft {{depth}}')",
                    clip(t)
                )));
            }
        }
        if self.engine_variant.is_some() && self.engine_xboard.is_none() {
            return Err(usage("--engine-variant has no effect without --engine-xboard"));
        }
        if self.engine_stderr.is_some() && !self.has_engine() {
            return Err(usage("--engine-stderr has no effect without an engine (--engine-uci, --engine-xboard, ...)"));
        }
        if self.has_reference_engine() && !self.has_engine() && !against {
            return Err(usage(
                "a reference needs an engine to compare: --engine-uci, --engine-usi, --engine-xboard, \
                 --engine-script or --against",
            ));
        }
        Ok(())
    }

    /// The engine under test (`None` if none was given), reading its output
    /// as `format`; `chess960`: the user vouches that a script plays
    /// Chess960 (`--chess960`).
    pub fn engine<R: Rules + 'static>(
        &self,
        rules: &Arc<R>,
        format: DivideFormat,
        chess960: bool,
    ) -> anyhow::Result<Option<Box<dyn Divider<R>>>> {
        let mut opts = self.options(format, false, vouched(&**rules, chess960));
        if let Some(cmd) = &self.engine_usi {
            if rules.variant().is_none() {
                return Err(usage(&format!(
                    "--engine-usi needs a --variant: {} has no USI form (SFEN, USI moves); use --engine-uci",
                    rules.name()
                )));
            }
            let words = command_words(cmd, "--engine-usi")?;
            opts.usi = true;
            return Ok(Some(Box::new(UciEngine::with_options(Arc::clone(rules), cmd, words, opts))));
        }
        if let Some(cmd) = &self.engine_xboard {
            let words = command_words(cmd, "--engine-xboard")?;
            return Ok(Some(Box::new(XboardEngine::with_options(Arc::clone(rules), cmd, words, opts))));
        }
        Ok(match (&self.engine_uci, &self.engine_script) {
            (Some(cmd), _) => {
                let words = command_words(cmd, "--engine-uci")?;
                Some(Box::new(UciEngine::with_options(Arc::clone(rules), cmd, words, opts)))
            }
            (_, Some(cmd)) => {
                let words = command_words(cmd, "--engine-script")?;
                Some(Box::new(ScriptEngine::with_options(Arc::clone(rules), cmd, words, opts)))
            }
            _ => None,
        })
    }

    /// The reference: our generator unless a reference engine was given.
    pub fn reference<R: Rules + 'static>(&self, rules: &Arc<R>, chess960: bool) -> anyhow::Result<Box<dyn Divider<R>>> {
        let opts = self.options(DivideFormat::Auto, true, vouched(&**rules, chess960));
        if let Some(cmd) = &self.reference_xboard {
            let words = command_words(cmd, "--reference-xboard")?;
            return Ok(Box::new(XboardEngine::with_options(Arc::clone(rules), cmd, words, opts)));
        }
        Ok(match (&self.reference_uci, &self.reference_script) {
            (Some(cmd), _) => {
                let words = command_words(cmd, "--reference-uci")?;
                Box::new(UciEngine::with_options(Arc::clone(rules), cmd, words, opts))
            }
            (_, Some(cmd)) => {
                let words = command_words(cmd, "--reference-script")?;
                Box::new(ScriptEngine::with_options(Arc::clone(rules), cmd, words, opts))
            }
            _ => Box::new(Builtin::new(Arc::clone(rules))),
        })
    }
}

/// The UCI options a script is taken to play: those the game chosen on the
/// command line needs at its start (`--variant`: `UCI_Variant`,
/// `VariantPath`), and `UCI_Chess960` with `--chess960`. Scripts cannot
/// advertise; roots that need another option are refused.
fn vouched<R: Rules>(rules: &R, chess960: bool) -> Vec<String> {
    let mut names: Vec<String> = match rules.parse_position("startpos") {
        Ok(start) => rules.uci_options(&start).into_iter().filter(|(_, v)| v != "false").map(|(n, _)| n).collect(),
        Err(_) => Vec::new(),
    };
    if chess960 {
        names.push("UCI_Chess960".to_string());
    }
    names
}

/// Asks both sides whether they can take lines from `root`
/// (`Divider::check_root`): an error for which `is_unsupported` holds if one
/// lacks an option the root needs, another if one failed to start.
pub fn root_support<R: Rules>(
    engine: &mut dyn Divider<R>,
    reference: &mut dyn Divider<R>,
    root: &R::Position,
) -> Result<(), VerifyError> {
    engine.check_root(root).map_err(VerifyError::Engine)?;
    reference.check_root(root).map_err(VerifyError::Reference)
}

/// An engine's failure as an error with the right exit code and, for an
/// answer that broke a rule, the rule's name.
pub fn engine_error(e: EngineError) -> anyhow::Error {
    verify_error(VerifyError::Engine(e))
}

/// Splits a command line; a bare `stockfish` is looked up where Debian puts it.
fn command_words(cmd: &str, flag: &str) -> anyhow::Result<Vec<String>> {
    let words = split_command(cmd).ok_or_else(|| usage(&format!("{flag} \"{}\": unbalanced quotes", clip(cmd))))?;
    if words.is_empty() {
        return Err(usage(&format!("{flag}: empty command")));
    }
    resolve_program(words).map_err(|e| anyhow::anyhow!("{flag}: {e}"))
}

/// A usage error: exit 2, and `"kind": "usage"` in a JSON error document.
pub fn usage(message: &str) -> anyhow::Error {
    usage_error(message, None)
}

/// The root position and the moves played from it, as given on the command
/// line (each move in any notation the game reads: UCI, long algebraic, SAN).
pub fn resolve_line<R: Rules>(rules: &R, fen: &str, moves: &[String]) -> anyhow::Result<Line<R>> {
    let root =
        rules.parse_position(fen).map_err(|e| anyhow::anyhow!("--fen \"{}\": {}", clip(fen), clip_message(&e)))?;
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
    let rule = match &e {
        VerifyError::Engine(x) | VerifyError::Reference(x) => x.rule(),
        _ => None,
    };
    if let Some(rule) = rule {
        return anyhow::Error::new(BrokenRule { message: e.to_string(), rule, engine: e.is_engine_failure() });
    }
    if e.is_engine_failure() {
        anyhow::Error::new(EngineFailure(e.to_string()))
    } else {
        anyhow::anyhow!("{e}")
    }
}

/// The JSON error document of the vocabulary, for a failed `--json` run:
/// `{"status": "error", "error": {"kind", "message"}}`, and perhaps one more
/// key of context (`engine`: the engine and how often it was asked).
#[derive(serde::Serialize)]
pub struct ErrorDocument {
    status: &'static str,
    error: ErrorBody,
    #[serde(flatten)]
    extra: serde_json::Map<String, serde_json::Value>,
}

#[derive(serde::Serialize)]
struct ErrorBody {
    kind: &'static str,
    message: String,
    /// The rule of answers that was broken (docs/formats/answers.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<&'static str>,
}

/// An engine and how often it was asked: `{"name", "calls"}`.
#[derive(serde::Serialize, Debug, Clone)]
pub struct EngineCalls {
    pub name: String,
    pub calls: u32,
}

impl EngineCalls {
    /// As the `engine` key of an error document.
    pub fn context(&self) -> (String, serde_json::Value) {
        ("engine".to_string(), serde_json::json!({"name": self.name, "calls": self.calls}))
    }
}

pub fn error_document(err: &anyhow::Error, extra: Option<(&str, serde_json::Value)>) -> ErrorDocument {
    let kind = ErrorKind::of(err).name();
    ErrorDocument {
        status: "error",
        error: ErrorBody {
            kind,
            message: format!("{err:#}"),
            rule: err.chain().find_map(|e| e.downcast_ref::<BrokenRule>()).map(|b| b.rule),
        },
        extra: extra.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
    }
}

/// True if the error is a closed stdout (`| head`): the run ends quietly.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().filter_map(|e| e.downcast_ref::<std::io::Error>()).any(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
}

/// Writes the run's one pretty-printed JSON document (through `print_json`,
/// so that `main` prints no second one).
pub fn write_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    super::common::print_json(value)
}

/// Ends chesstool by `signal` (exit status "killed by signal N", as a
/// shell or `timeout` expects), once the report is out.
pub fn exit_by_signal(signal: i32) -> ! {
    chesstool::engines::signals::kill_all_engines();
    #[cfg(unix)]
    // SAFETY: restoring the default action and raising the signal ends the
    // process; nothing is left to clean up but what the kernel does.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
    std::process::exit(128 + signal)
}
