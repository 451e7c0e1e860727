//! Command-line interface: clap definitions and dispatch. Only this module
//! prints or decides exit codes.
//!
//! Exit codes: 0 success, 1 a mismatch was found, 2 usage or input error,
//! 3 an external engine failed.

mod bench;
mod butterfly;
mod common;
mod divide;
mod hunt;
mod magic_search;
mod perft;
mod rotated_dump;
mod suite;
mod tictacchess;

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// Verify chess move generators: exact perft, divide, engine bisection, suites.
#[derive(Parser, Debug)]
#[command(name = "chesstool", version, about, long_about = None, propagate_version = true)]
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
    /// TicTacChess (the 4x4 game of the source documents): perft, divide,
    /// the exact solution of the game, and play against it.
    Tictacchess(tictacchess::TicTacChessArgs),
}

/// What a finished command found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Everything matched.
    Success,
    /// A count or move list disagreed (exit 1).
    Mismatch,
}

/// An external engine crashed, hung or printed garbage (exit 3). Attach it
/// with `anyhow::Error::new(EngineFailure(...))` or `.context(EngineFailure(..))`.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct EngineFailure(pub String);

pub fn main() -> ExitCode {
    chesstool::engines::kill_engines_on_signals();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match run(cli) {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::Mismatch) => ExitCode::from(1),
        Err(err) => {
            if is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            let _ = std::io::stdout().flush();
            eprintln!("error: {err:#}");
            if err.chain().any(|e| e.is::<EngineFailure>()) {
                ExitCode::from(3)
            } else {
                ExitCode::from(2)
            }
        }
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().filter_map(|e| e.downcast_ref::<std::io::Error>()).any(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
}

pub fn run(cli: Cli) -> anyhow::Result<Outcome> {
    match cli.command {
        Command::Divide(args) => divide::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Suite(args) => suite::run(args),
        Command::Bench(args) => bench::run(args),
        Command::ButterflyPlot(args) => butterfly::run(args),
        Command::RotatedDump(args) => rotated_dump::run(args),
        Command::MagicSearch(args) => magic_search::run(args),
        Command::Tictacchess(args) => tictacchess::run(args),
    }
}
