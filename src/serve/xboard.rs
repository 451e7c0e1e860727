//! xboard (CECP protocol 2): `xboard`, `protover 2` and the `feature`
//! lines, `new` (standard chess at its start, as the protocol says),
//! `variant NAME` (`normal`, `fischerandom` for Chess960, the built-ins),
//! `setboard FEN`, `force`, moves bare or after `usermove`, `memory` and
//! `cores`. Errors are `Error (why): COMMAND`, refused moves `Illegal move
//! (why): MOVE`. The commands of a game played in a GUI (clocks, `post`,
//! `random`, ...) are taken and ignored: the engine counts, it does not play.

use super::{game, Engine, Protocol};
use crate::variants::variant::builtin;
use std::io::{self, Write};

/// Commands that a GUI sends and a counting engine has nothing to do with.
const IGNORED: &[&str] = &[
    "force", "accepted", "rejected", "random", "post", "nopost", "hard", "easy", "computer", "level", "st", "sd",
    "time", "otim", "name", "rating", "ics", "result", "draw", ".", "exit", "bk", "hint", "?",
];

impl Engine {
    /// The commands that are not UCI's, and the unknown ones.
    pub(super) fn xboard_command(
        &mut self,
        first: &str,
        rest: &[&str],
        line: &str,
        out: &mut impl Write,
    ) -> io::Result<()> {
        let arg = rest.join(" ");
        match first {
            "xboard" => self.protocol = Protocol::Xboard,
            "protover" => {
                self.protocol = Protocol::Xboard;
                self.features(out)?;
            }
            "new" => self.new_game("chess", false, line, out)?,
            "variant" => match arg.as_str() {
                "normal" => self.new_game("chess", false, line, out)?,
                "fischerandom" => self.new_game("chess", true, line, out)?,
                name => self.new_game(name, false, line, out)?,
            },
            "setboard" => self.set_position(arg, Vec::new(), line, out)?,
            "usermove" => self.user_move(&arg, out)?,
            "memory" => self.set_number(true, &arg, line, out)?,
            "cores" => self.set_number(false, &arg, line, out)?,
            _ if IGNORED.contains(&first) => {}
            _ if self.protocol == Protocol::Xboard && rest.is_empty() && looks_like_move(first) => {
                self.user_move(first, out)?
            }
            _ if self.protocol == Protocol::Xboard => self.error(out, line, "unknown command")?,
            _ => self.error(out, line, &format!("unknown command {line:?}"))?,
        }
        Ok(())
    }

    /// The `feature` lines of `protover 2`, ending in `done=1`.
    fn features(&self, out: &mut impl Write) -> io::Result<()> {
        let others =
            builtin::file().names().into_iter().filter(|n| !["chess", "normal", "fischerandom"].contains(&n.as_str()));
        let variants: Vec<String> =
            ["normal".to_string(), "fischerandom".to_string()].into_iter().chain(others).collect();
        writeln!(out, "feature done=0")?;
        writeln!(out, "feature setboard=1 usermove=1 ping=1 memory=1 smp=1 colors=0 sigint=0 sigterm=0 reuse=1")?;
        writeln!(out, "feature myname=\"chesstool {}\"", env!("CARGO_PKG_VERSION"))?;
        writeln!(out, "feature variants=\"{}\"", variants.join(","))?;
        writeln!(out, "feature done=1")
    }

    /// `new` or `variant NAME`: the game at its start position.
    fn new_game(&mut self, variant: &str, chess960: bool, line: &str, out: &mut impl Write) -> io::Result<()> {
        let settings = game::Settings { variant: variant.to_string(), chess960, usi: false, ..self.settings.clone() };
        self.last_position = None;
        let result =
            if settings == self.settings { self.game.set_position("startpos", &[]) } else { self.rebuild(settings) };
        match result {
            Ok(()) => Ok(()),
            Err(e) => self.error(out, line, &e),
        }
    }

    /// A move played from the current position (kept with the position,
    /// so that a new table or thread count sets it up again).
    fn user_move(&mut self, text: &str, out: &mut impl Write) -> io::Result<()> {
        match self.game.play(text) {
            Ok(()) => {
                let (_, moves) = self.last_position.get_or_insert_with(|| ("startpos".to_string(), Vec::new()));
                moves.push(text.to_string());
                Ok(())
            }
            Err(e) => writeln!(out, "Illegal move ({e}): {text}"),
        }
    }
}

/// Whether a word sent alone reads as a move in coordinates (`e2e4`,
/// `e7e8q`, `P@e4`): xboard sends moves without `usermove` to engines
/// that did not ask for it.
fn looks_like_move(word: &str) -> bool {
    let b = word.as_bytes();
    (3..=10).contains(&b.len())
        && b[0].is_ascii_alphabetic()
        && b.iter().any(u8::is_ascii_digit)
        && b.iter().all(|&c| c.is_ascii_alphanumeric() || b"@+=-".contains(&c))
}
