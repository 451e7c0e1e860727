//! The handshake's `id` and `option` lines, and `setoption`.

use super::{game, Engine, Protocol};
use std::io::{self, Write};

/// The most threads `Threads` takes.
const MAX_THREADS: usize = 1024;
/// The largest `Hash` in MiB (1 TiB, as `--hash`).
const MAX_HASH_MB: usize = 1 << 20;

impl Engine {
    /// `uci` or `usi`: the names, the options, `uciok`/`usiok`. A USI
    /// session counts shogi unless a variant was set, as Fairy-Stockfish.
    pub(super) fn hello(&mut self, usi: bool, out: &mut impl Write) -> io::Result<()> {
        self.protocol = if usi { Protocol::Usi } else { Protocol::Uci };
        if usi != self.settings.usi {
            let mut settings = self.settings.clone();
            settings.usi = usi;
            if !self.variant_set {
                settings.variant = if usi { "shogi" } else { "chess" }.to_string();
            }
            if let Err(e) = self.rebuild(settings) {
                self.error(out, if usi { "usi" } else { "uci" }, &e)?;
            }
        }
        writeln!(out, "id name chesstool {}", env!("CARGO_PKG_VERSION"))?;
        writeln!(out, "id author the chesstool developers")?;
        let names = game::variant_names(&self.settings.variant_path)
            .unwrap_or_else(|_| game::variant_names("").unwrap_or_default());
        let vars: String = names.iter().map(|n| format!(" var {n}")).collect();
        let prefix = if usi { "USI" } else { "UCI" };
        writeln!(out, "option name {prefix}_Variant type combo default {}{vars}", self.settings.variant)?;
        writeln!(out, "option name VariantPath type string default <empty>")?;
        writeln!(out, "option name UCI_Chess960 type check default false")?;
        writeln!(out, "option name Threads type spin default 0 min 0 max {MAX_THREADS}")?;
        writeln!(out, "option name Hash type spin default 0 min 0 max {MAX_HASH_MB}")?;
        writeln!(out, "{}", if usi { "usiok" } else { "uciok" })
    }

    /// `setoption name NAME value VALUE`: the option is taken only if the
    /// game it makes can be built (a known variant, a readable file, a
    /// table that fits); otherwise one error line and nothing changes.
    pub(super) fn set_option(&mut self, line: &str, out: &mut impl Write) -> io::Result<()> {
        let Some((name, value)) = parse_setoption(line) else {
            return self.error(out, line, "setoption: expected setoption name NAME value VALUE");
        };
        let mut settings = self.settings.clone();
        let lower = name.to_ascii_lowercase();
        let taken = match lower.as_str() {
            "uci_variant" | "usi_variant" => {
                settings.variant = value.clone();
                Ok(())
            }
            "variantpath" => {
                settings.variant_path = if value == "<empty>" { String::new() } else { value.clone() };
                game::variant_names(&settings.variant_path).map(|_| ())
            }
            "uci_chess960" | "usi_chess960" => match value.to_ascii_lowercase().as_str() {
                on @ ("true" | "false") => {
                    settings.chess960 = on == "true";
                    Ok(())
                }
                _ => Err(format!("{name}: {value:?} is neither true nor false")),
            },
            "threads" => number(&name, &value, MAX_THREADS).map(|n| settings.threads = n),
            "hash" => number(&name, &value, MAX_HASH_MB).map(|n| settings.hash_mb = n),
            _ => Err(format!("no such option {name:?}")),
        };
        let result = taken.and_then(|()| {
            if settings == self.settings {
                return Ok(());
            }
            self.rebuild(settings).map_err(|e| format!("{name}: {e}"))
        });
        match result {
            Ok(()) => {
                if lower.ends_with("_variant") {
                    self.variant_set = true;
                }
                Ok(())
            }
            Err(e) => self.error(out, line, &e),
        }
    }

    /// Sets the hash table (xboard's `memory N`) or the threads (`cores N`).
    pub(super) fn set_number(&mut self, hash: bool, value: &str, line: &str, out: &mut impl Write) -> io::Result<()> {
        let (name, max) = if hash { ("memory", MAX_HASH_MB) } else { ("cores", MAX_THREADS) };
        let mut settings = self.settings.clone();
        let result = number(name, value, max).and_then(|n| {
            if hash {
                settings.hash_mb = n;
            } else {
                settings.threads = n;
            }
            self.rebuild(settings)
        });
        match result {
            Ok(()) => Ok(()),
            Err(e) => self.error(out, line, &e),
        }
    }
}

/// A whole number from 0 to `max`.
fn number(name: &str, value: &str, max: usize) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!("{name}: {value:?} is not a number from 0 to {max}")),
    }
}

/// The name and value of `setoption name NAME [value VALUE]` (both may
/// have spaces; the value is empty when missing).
fn parse_setoption(line: &str) -> Option<(String, String)> {
    let mut words = line.split_whitespace();
    if words.next() != Some("setoption") || words.next() != Some("name") {
        return None;
    }
    let words: Vec<&str> = words.collect();
    let at = words.iter().position(|w| *w == "value").unwrap_or(words.len());
    let name = words[..at].join(" ");
    let value = words.get(at + 1..).unwrap_or_default().join(" ");
    (!name.is_empty()).then_some((name, value))
}
