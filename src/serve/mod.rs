//! Our generator behind UCI, USI and xboard (`chesstool engine`): a
//! long-lived process that stands wherever Stockfish or Fairy-Stockfish
//! stands as a perft reference. It answers the handshakes (`uci`, `usi`,
//! `xboard` and `protover 2`), `isready`, `ping N`, `setoption` for
//! `UCI_Variant` (every built-in), `VariantPath`, `UCI_Chess960`, `Threads`
//! and `Hash`, `position startpos|fen|sfen ... moves ...`, `go perft N`
//! and xboard's `perft N` in Stockfish's divide layout (`e2e4: 20` lines, a
//! blank line, `Nodes searched: N`, a blank line), `d` (the `Fen:` line),
//! and xboard's `new`, `variant`, `setboard`, `force` and moves. A command
//! it cannot carry out gets one error line (`info string error: ...`, in
//! xboard `Error (...): ...`) and the loop goes on; `quit` and the end of
//! the input end it.
//!
//! The loop reads any `BufRead` and writes any `Write`, so that tests drive
//! it without a process; the binary hands it standard input and output.

pub mod game;
mod options;
mod xboard;

#[cfg(test)]
mod tests;

use game::{Game, Settings};
use std::io::{self, BufRead, Write};

/// The longest command line read; a longer one is refused whole.
const LINE_LIMIT: usize = 1 << 20;

/// The first line printed, before any command (perftree reads one line
/// of banner from Stockfish before it asks anything).
pub fn banner() -> String {
    format!("chesstool {} by the chesstool developers", env!("CARGO_PKG_VERSION"))
}

/// The protocol the other side speaks, known from its handshake (UCI
/// until told otherwise, as Stockfish takes `position` and `go perft`
/// without `uci`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Protocol {
    Uci,
    Usi,
    Xboard,
}

/// The engine's state between commands.
pub struct Engine {
    protocol: Protocol,
    settings: Settings,
    /// Whether `UCI_Variant` was set (a `usi` handshake then keeps it
    /// instead of switching to shogi, as Fairy-Stockfish does).
    variant_set: bool,
    game: Box<dyn Game>,
    /// The last `position` (root, moves), set up again when only the
    /// threads or the hash table change.
    last_position: Option<(String, Vec<String>)>,
}

/// Whether the loop goes on after a command.
enum Next {
    Continue,
    Quit,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine at the start position of standard chess.
    pub fn new() -> Engine {
        let settings = Settings::default();
        let game = game::build(&settings).expect("standard chess needs no file, table or pool");
        Engine { protocol: Protocol::Uci, settings, variant_set: false, game, last_position: None }
    }

    /// Reads commands from `input` until `quit` or its end, answering on
    /// `out` (flushed after every command). Only a failed read or write ends
    /// it early.
    pub fn run(&mut self, mut input: impl BufRead, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "{}", banner())?;
        out.flush()?;
        let mut buf = Vec::new();
        loop {
            buf.clear();
            let n = io::Read::take(&mut input, LINE_LIMIT as u64).read_until(b'\n', &mut buf)?;
            if n == 0 {
                return Ok(());
            }
            if n == LINE_LIMIT && buf.last() != Some(&b'\n') {
                skip_line(&mut input)?;
                self.error(out, "", &format!("a command line longer than {LINE_LIMIT} bytes"))?;
                out.flush()?;
                continue;
            }
            let line = String::from_utf8_lossy(&buf);
            let next = self.command(line.trim(), out)?;
            out.flush()?;
            if let Next::Quit = next {
                return Ok(());
            }
        }
    }

    /// Carries out one command line.
    fn command(&mut self, line: &str, out: &mut impl Write) -> io::Result<Next> {
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else { return Ok(Next::Continue) };
        let rest: Vec<&str> = words.collect();
        match first {
            "quit" => return Ok(Next::Quit),
            "uci" | "usi" => self.hello(first == "usi", out)?,
            "isready" => writeln!(out, "readyok")?,
            "ping" => writeln!(out, "pong {}", rest.join(" "))?,
            "setoption" => self.set_option(line, out)?,
            "position" => self.position(&rest, out)?,
            "go" => self.go(&rest, out)?,
            "perft" => self.perft_words(&rest, out)?,
            "d" => match self.game.position_text() {
                Ok(text) => writeln!(out, "Fen: {text}")?,
                Err(e) => self.error(out, line, &e)?,
            },
            "ucinewgame" | "usinewgame" | "stop" | "ponderhit" | "debug" | "register" | "gameover" => {}
            _ => self.xboard_command(first, &rest, line, out)?,
        }
        Ok(Next::Continue)
    }

    /// One error line in the protocol's form; `command` is the line at fault.
    fn error(&self, out: &mut impl Write, command: &str, message: &str) -> io::Result<()> {
        match self.protocol {
            Protocol::Xboard => writeln!(out, "Error ({message}): {command}"),
            Protocol::Uci | Protocol::Usi => writeln!(out, "info string error: {message}"),
        }
    }

    /// `position startpos|fen FEN|sfen SFEN [moves M...]`.
    fn position(&mut self, words: &[&str], out: &mut impl Write) -> io::Result<()> {
        let line = format!("position {}", words.join(" "));
        let split = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
        let (head, moves) = (&words[..split], words.get(split + 1..).unwrap_or_default());
        let root = match head {
            ["startpos"] => "startpos".to_string(),
            ["fen", fen @ ..] if !fen.is_empty() => fen.join(" "),
            ["sfen", sfen @ ..] if !sfen.is_empty() => format!("sfen {}", sfen.join(" ")),
            _ => return self.error(out, &line, "position: expected startpos, fen FEN or sfen SFEN, then moves M..."),
        };
        self.set_position(root, moves.iter().map(|m| m.to_string()).collect(), &line, out)
    }

    /// Sets the position, remembering it; an error unsets it.
    fn set_position(&mut self, root: String, moves: Vec<String>, line: &str, out: &mut impl Write) -> io::Result<()> {
        let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
        let result = self.game.set_position(&root, &texts);
        self.last_position = Some((root, moves));
        match result {
            Ok(()) => Ok(()),
            Err(e) => self.error(out, line, &e),
        }
    }

    /// `go perft N`; other searches are not ours to do.
    fn go(&mut self, words: &[&str], out: &mut impl Write) -> io::Result<()> {
        let line = format!("go {}", words.join(" "));
        match words.iter().position(|w| *w == "perft") {
            Some(i) => self.perft(words.get(i + 1).copied(), &line, out),
            None => self.error(out, &line, "chesstool engine only counts: go perft N"),
        }
    }

    /// `perft N` (xboard, and any protocol).
    fn perft_words(&mut self, words: &[&str], out: &mut impl Write) -> io::Result<()> {
        let line = format!("perft {}", words.join(" "));
        self.perft(words.first().copied(), &line, out)
    }

    /// The divide of the current position in Stockfish's layout.
    fn perft(&mut self, depth: Option<&str>, line: &str, out: &mut impl Write) -> io::Result<()> {
        let max = self.game.max_depth();
        let Some(text) = depth else { return self.error(out, line, "perft needs a depth") };
        let depth = match text.parse::<u32>() {
            Ok(d) if d <= max => d,
            _ => return self.error(out, line, &format!("{text:?} is not a depth (0 to {max})")),
        };
        let lines = match self.game.divide(depth) {
            Ok(lines) => lines,
            Err(e) => return self.error(out, line, &e),
        };
        for (mv, n) in &lines {
            writeln!(out, "{mv}: {n}")?;
        }
        let total = if depth == 0 { 1 } else { lines.iter().fold(0u64, |a, (_, n)| a.saturating_add(*n)) };
        writeln!(out)?;
        writeln!(out, "Nodes searched: {total}")?;
        writeln!(out)
    }

    /// Builds the game for `settings`; on success it replaces the current
    /// one (at its start position, or at the last position where only the
    /// threads or the hash table changed). On failure nothing changes.
    fn rebuild(&mut self, settings: Settings) -> Result<(), String> {
        let game = game::build(&settings)?;
        let same_game = Settings { threads: 0, hash_mb: 0, ..settings.clone() }
            == Settings { threads: 0, hash_mb: 0, ..self.settings.clone() };
        self.game = game;
        self.settings = settings;
        if !same_game {
            self.last_position = None;
        }
        if let Some((root, moves)) = &self.last_position {
            let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
            // The same rules read it as before (an error already told).
            let _ = self.game.set_position(root, &texts);
        }
        Ok(())
    }
}

/// Reads and drops the rest of an over-long line.
fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    let mut sink = Vec::new();
    loop {
        sink.clear();
        let n = io::Read::take(&mut *input, LINE_LIMIT as u64).read_until(b'\n', &mut sink)?;
        if n == 0 || sink.last() == Some(&b'\n') {
            return Ok(());
        }
    }
}
