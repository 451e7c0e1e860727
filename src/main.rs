//! The `chesstool` binary: parse arguments, run, map the outcome to an exit code.

use std::process::ExitCode;

fn main() -> ExitCode {
    chesstool::cli::main()
}
