//! `chesstool engine`: our generator as a UCI, USI and xboard engine on
//! standard input and output, for the tools that expect Stockfish or
//! Fairy-Stockfish as their perft reference (the protocol loop is the
//! library's `serve`).

use super::Outcome;

#[derive(clap::Args, Debug)]
#[command(long_about = "Run our generator as a UCI, USI and xboard engine on standard input and output, \
    for the tools that expect Stockfish or Fairy-Stockfish as their perft reference.\n\n\
    It answers `uci`, `usi` and `xboard`/`protover 2`, `isready`, `ping N`, `setoption name UCI_Variant \
    value NAME` (every built-in variant), `VariantPath`, `UCI_Chess960`, `Threads` (0 = all cores) and \
    `Hash` (MiB, 0 = no table), `position startpos|fen FEN|sfen SFEN [moves ...]`, `go perft N` and \
    xboard's `perft N` in Stockfish's divide layout, `d` (the FEN), and xboard's `new`, `variant`, \
    `setboard`, `force` and moves. A command it cannot carry out gets one error line (`info string \
    error: ...`, in xboard `Error (...): ...`) and it goes on; `quit` or the end of the input ends it.")]
pub struct EngineArgs {}

pub fn run(_args: EngineArgs) -> anyhow::Result<Outcome> {
    let input = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    chesstool::serve::Engine::new().run(input, &mut out)?;
    Ok(Outcome::Success)
}
