//! The `chesstool` binary: parse arguments, run, map the outcome to an exit
//! code. All printing lives here and in `cli/`; the library never prints.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
