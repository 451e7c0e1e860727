//! Command-line interface: clap definitions and dispatch. Only this module
//! prints or decides exit codes.
//!
//! Exit codes: 0 success, 1 a mismatch was found, 2 usage or input error,
//! 3 an external engine failed.

mod bench;
mod betza;
mod book;
mod butterfly;
mod common;
mod divide;
mod docs;
mod engine;
mod examples;
mod fuzz;
mod hunt;
mod magic_search;
mod moves;
mod perft;
mod perft_dist;
mod rotated_dump;
mod suite;
mod tictacchess;
mod usage;
mod variant;
mod variant_list;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// Verify chess move generators: exact perft, divide, the hunt for the wrong move, suites, fuzzing.
#[derive(Parser, Debug)]
#[command(name = "chesstool", version, about, long_about = None, propagate_version = true)]
#[command(after_help = "Exit codes: 0 success, 1 a mismatch was found, 2 usage or input error, 3 an engine failed.")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Per-move perft counts in Stockfish's format; with an engine, diff its
    /// divide against a reference and with --bisect hunt down the wrong move.
    Divide(divide::DivideArgs),
    /// Count the leaf nodes of the legal move tree (our generator), with
    /// optional statistics columns.
    Perft(perft::PerftArgs),
    /// Run perft suites (EPD `FEN ;D1 20 ;D2 400` lines or python-chess
    /// `.perft` blocks) and report every count that differs (exit 1).
    Suite(suite::SuiteArgs),
    /// Find an engine's bug without knowing where: seeded random games
    /// biased toward the rare rules, every position's move list compared
    /// with ours, the first difference bisected (exit 1).
    Fuzz(fuzz::FuzzArgs),
    /// Time our perft on five standard positions (counts checked against the
    /// published ones), optionally side by side with a UCI engine's `go perft`.
    Bench(bench::BenchArgs),
    /// Print Hartmann's butterfly diagram of from-to square pairs (byte for
    /// byte as the C program of the Butterfly Boards page), or a history heat map.
    ButterflyPlot(butterfly::ButterflyArgs),
    /// Dump FUSc#'s rotated occupancy boards (normal, l90, a1h8, a8h1) in the
    /// paper's layout; with --square, check rotated against magic attacks.
    RotatedDump(rotated_dump::RotatedDumpArgs),
    /// Find magic numbers for rook and bishop attacks, verified against the
    /// reference for every occupancy; or check a magic file with --verify.
    MagicSearch(magic_search::MagicSearchArgs),
    /// Print a shell completion script (bash, zsh or fish) on standard output.
    Completions(docs::CompletionsArgs),
    /// Print the manual page (roff) on standard output: `chesstool man | man -l -`.
    Man(docs::ManArgs),
    /// The legal moves of a position in our generator's order (the indices
    /// books store), with UCI and SAN.
    Moves(moves::MovesArgs),
    /// Opening books in Thompson's one-byte-per-move tree: build, dump,
    /// probe, verify, and Polyglot import and export.
    Book(book::BookArgs),
    /// XBetza fairy pieces: compile to leg code, or show a piece's moves on a board.
    Betza(betza::BetzaArgs),
    /// TicTacChess (a 4x4 game with drops, won by four in a line): perft,
    /// divide, the exact solution of the game, and play against it.
    Tictacchess(tictacchess::TicTacChessArgs),
    /// Fairy-Stockfish's built-in variants that `--variant NAME` selects.
    Variant(variant_list::VariantCmdArgs),
    /// Our generator as a UCI, USI and xboard engine on standard input and
    /// output (`go perft N` in Stockfish's layout), a perft reference for
    /// the tools that run Stockfish.
    Engine(engine::EngineArgs),
    /// Print a page of the user guide (built in): `chesstool docs divide`;
    /// without a page, the list of pages.
    Docs(docs::DocsArgs),
}

impl Command {
    /// Whether the run's answer is one JSON document on stdout (`--json`,
    /// or magic-search's `--format json` to stdout).
    fn json(&self) -> bool {
        match self {
            Command::Divide(a) => a.json,
            Command::Perft(a) => a.json || a.action.as_ref().is_some_and(|x| x.json()),
            Command::Suite(a) => a.json,
            Command::Fuzz(a) => a.walk.json,
            Command::Bench(a) => a.json,
            Command::ButterflyPlot(a) => a.json,
            Command::RotatedDump(a) => a.json,
            Command::MagicSearch(a) => a.json_on_stdout(),
            Command::Moves(a) => a.json,
            Command::Book(a) => a.json(),
            Command::Betza(a) => a.json(),
            Command::Tictacchess(a) => a.json(),
            Command::Variant(a) => a.json(),
            Command::Completions(_) | Command::Man(_) | Command::Docs(_) | Command::Engine(_) => false,
        }
    }
}

/// What a finished command found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Everything matched.
    Success,
    /// A count or move list disagreed (exit 1).
    Mismatch,
    /// The report is done but incomplete: an engine failed on part of it
    /// (exit 3; `suite` goes on after an engine failure).
    EngineFailure,
    /// The report is done, but lines of the input could not be read and
    /// were left out (exit 2; `suite` lists them).
    Refused,
}

/// An external engine crashed, hung or printed garbage (exit 3). Attach it
/// with `anyhow::Error::new(EngineFailure(...))` or `.context(EngineFailure(..))`.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct EngineFailure(pub String);

/// An answer that broke one of the rules every answer is held to
/// (docs/formats/answers.md): an engine failure (exit 3) when an engine
/// printed it, an input error (exit 2) when the user gave it (a paste). JSON
/// error documents name the rule (`error.rule`).
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct BrokenRule {
    pub message: String,
    pub rule: &'static str,
    /// True if an engine broke it (exit 3).
    pub engine: bool,
}

/// A bad or pointless combination of arguments (exit 2, JSON kind `usage`),
/// with at most one hint line. Build it with [`usage_error`].
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct UsageError {
    pub message: String,
    pub hint: Option<String>,
}

/// An error with a picture that `--verbose` asked for (the Betza string
/// with a caret under the fault): the message is the one error line, the
/// picture follows it on stderr.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct WithPicture {
    pub message: String,
    pub picture: String,
}

/// Our own failure, not the input's (exit 2, JSON kind `internal`): a thread
/// pool that cannot start, a value that cannot be serialised.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Internal(pub String);

/// A usage error: `--option: why` (and an optional hint line).
pub fn usage_error(message: impl Into<String>, hint: Option<String>) -> anyhow::Error {
    anyhow::Error::new(UsageError { message: message.into(), hint })
}

/// The usage error for an option that does nothing in this combination.
pub fn no_effect(option: &str, why: &str) -> anyhow::Error {
    usage_error(format!("{option} has no effect {why}"), None)
}

/// The kinds of failure of the JSON error document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    Usage,
    Input,
    Engine,
    Internal,
}

impl ErrorKind {
    pub fn of(err: &anyhow::Error) -> ErrorKind {
        let engine_rule =
            |e: &(dyn std::error::Error + 'static)| e.downcast_ref::<BrokenRule>().is_some_and(|b| b.engine);
        if err.chain().any(|e| e.is::<EngineFailure>() || engine_rule(e)) {
            ErrorKind::Engine
        } else if err.chain().any(|e| e.is::<UsageError>()) {
            ErrorKind::Usage
        } else if err.chain().any(|e| e.is::<Internal>()) {
            ErrorKind::Internal
        } else {
            ErrorKind::Input
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Usage => "usage",
            ErrorKind::Input => "input",
            ErrorKind::Engine => "engine",
            ErrorKind::Internal => "internal",
        }
    }

    fn exit_code(self) -> u8 {
        if self == ErrorKind::Engine {
            3
        } else {
            2
        }
    }
}

/// `{"status": "error", "error": {"kind": ..., "message": ...}}` on stdout,
/// unless the run already printed its document.
fn print_error_document(kind: &str, message: &str) {
    if common::json_printed() {
        return;
    }
    #[derive(serde::Serialize)]
    struct Doc<'a> {
        status: &'a str,
        error: Error<'a>,
    }
    #[derive(serde::Serialize)]
    struct Error<'a> {
        kind: &'a str,
        message: &'a str,
    }
    let doc = Doc { status: "error", error: Error { kind, message } };
    if let Ok(text) = serde_json::to_string_pretty(&doc) {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}

/// The whole command line as clap sees it. An option that takes one value
/// takes it even when it starts with `-` (`--depth -1`, `--timeout -inf`),
/// so that the option's own range check names the option and the value,
/// where clap would call `-1` an unexpected argument.
pub fn command() -> clap::Command {
    let mut cmd = Cli::command();
    let names: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
    cmd = with_force_help(cmd);
    cmd = examples::with_examples(cmd);
    cmd = cmd.mut_subcommand("bench", bench::with_own_help);
    cmd = cmd.mut_subcommand("tictacchess", tictacchess::with_own_help);
    for name in names {
        cmd = cmd.mut_subcommand(name, |sub| {
            sub.mut_args(|arg| {
                // Not for an optional value (`--chess960 [N]`): there a
                // following option is an option.
                let one_value = arg.get_num_args().is_none_or(|n| n.max_values() == 1 && n.min_values() == 1);
                if arg.get_action().takes_values() && one_value && !arg.is_positional() {
                    arg.allow_hyphen_values(true)
                } else {
                    arg
                }
            })
        });
    }
    cmd
}

/// `--force`'s long help names the outputs it applies to in each command
/// (`suite`: `--junit` and `--svg`), here and in every subcommand below.
fn with_force_help(mut cmd: clap::Command) -> clap::Command {
    let names: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
    for name in names {
        cmd = cmd.mut_subcommand(name, with_force_help);
    }
    let has = |cmd: &clap::Command, long: &str| cmd.get_arguments().any(|a| a.get_long() == Some(long));
    if !has(&cmd, "force") {
        return cmd;
    }
    let outputs: Vec<String> =
        ["output", "junit", "svg"].iter().filter(|n| has(&cmd, n)).map(|n| format!("--{n}")).collect();
    let applies = match outputs.as_slice() {
        [] => return cmd,
        [one] => format!("Applies to {one}"),
        [rest @ .., last] => format!("Applies to {} and {last}", rest.join(", ")),
    };
    let dir = if cmd.get_name() == "suite" { " (each picture in the directory)" } else { "" };
    cmd.mut_arg("force", |a| a.long_help(format!("Replace the output file if it exists.\n\n{applies}{dir}.")))
}

pub fn main() -> ExitCode {
    chesstool::engines::kill_engines_on_signals();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let cmd = command();
    if let Some(message) = usage::option_taken_as_value(&cmd, &args) {
        return usage::report_message(&message, &args);
    }
    let parsed = cmd.try_get_matches_from(&args).and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return usage::report_clap_error(e, &args),
    };
    let json = cli.command.json();
    if json {
        // A panic is our bug: the document still comes, of kind "internal".
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            print_error_document("internal", &format!("internal error: {info}").replace('\n', " "));
            previous(info);
        }));
    }
    match run(cli) {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::Mismatch) => ExitCode::from(1),
        Ok(Outcome::EngineFailure) => ExitCode::from(3),
        Ok(Outcome::Refused) => ExitCode::from(2),
        Err(err) => {
            if is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            let kind = ErrorKind::of(&err);
            let message = without_repeats(&format!("{err:#}").replace('\n', " "));
            if json {
                print_error_document(kind.name(), &message);
            }
            let _ = std::io::stdout().flush();
            let hint = err.chain().find_map(|e| e.downcast_ref::<UsageError>()).and_then(|u| u.hint.clone());
            usage::print_error(&message, hint.as_deref());
            if let Some(p) = err.chain().find_map(|e| e.downcast_ref::<WithPicture>()) {
                eprintln!("{}", p.picture);
            }
            ExitCode::from(kind.exit_code())
        }
    }
}

/// `a: a: why` as `a: why`: a context that names the file (or option) that
/// the error inside it names already (`/dev/zero: /dev/zero: larger than ...`).
fn without_repeats(message: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in message.split(": ") {
        if parts.last() != Some(&part) {
            parts.push(part);
        }
    }
    parts.join(": ")
}

/// A write to a closed pipe (`chesstool ... | head -1`): the reader has what it wanted.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().filter_map(|e| e.downcast_ref::<std::io::Error>()).any(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
}

pub fn run(cli: Cli) -> anyhow::Result<Outcome> {
    match cli.command {
        Command::Divide(args) => divide::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Suite(args) => suite::run(args),
        Command::Fuzz(args) => fuzz::run(args),
        Command::Bench(args) => bench::run(args),
        Command::ButterflyPlot(args) => butterfly::run(args),
        Command::RotatedDump(args) => rotated_dump::run(args),
        Command::MagicSearch(args) => magic_search::run(args),
        Command::Completions(args) => docs::completions(args),
        Command::Man(args) => docs::man(args),
        Command::Moves(args) => moves::run(args),
        Command::Book(args) => book::run(args),
        Command::Betza(args) => betza::run(args),
        Command::Tictacchess(args) => tictacchess::run(args),
        Command::Variant(args) => variant_list::run(args),
        Command::Engine(args) => engine::run(args),
        Command::Docs(args) => docs::docs(args),
    }
}
