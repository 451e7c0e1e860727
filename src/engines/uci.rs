//! A UCI engine as a long-lived child process: `uci`/`uciok`, `isready`/
//! `readyok`, `setoption name N value V` for each of the game's
//! `Rules::uci_options` (chess: `UCI_Chess960`; variants: `VariantPath`,
//! `UCI_Variant`), `position fen ROOT moves ...`, `go perft N`. Banner and
//! `info` lines are skipped; the answer ends at its total line (`Nodes
//! searched: N` and the other totals `output` knows), so engines that print
//! only a total work too. An engine that answers `go perft` with a search
//! (`info depth`, `bestmove`) or an "unknown command" line has no such
//! perft command, and fails at once; `--perft-command` names another one.
//! The handshake has a short deadline of its own (`EngineOptions::handshake`).
//!
//! The engine is believed about what it can do: the options it lists after
//! `uciok` are kept, and a root that needs an option it did not list, or a
//! value not among a `combo` option's `var` values, is refused before
//! anything is sent (`EngineError::Unsupported`; `Divider::check_root` asks
//! up front). The list is asked for again once after setting the options
//! before the missing value, since an option may add values (Fairy-
//! Stockfish's `VariantPath` adds the variants of its file). An answer
//! `No such option` or `Unknown command` to any command ends the call with
//! that line quoted (`EngineError::Refused`).
//! For position checks (`Divider::show`) the engine is sent Stockfish's `d`
//! and its `Fen:` and `Key:` lines are read.
//!
//! The same driver speaks USI (`EngineOptions::usi`, `--engine-usi`): the
//! handshake is `usi`/`usiok`, options are set alike (`setoption name N
//! value V`, `UCI_` names sent as `USI_`: Fairy-Stockfish lists
//! `USI_Variant` in USI mode), the
//! position is `position startpos|sfen ... moves ...` in the game's USI
//! form (`Rules::usi_position`, `Rules::usi_move_text`), and the divide
//! lines (`7g7f: 14`, `P*5e: 3`) are read by the game's `read_move`.

use super::exchange::{self, Heard, Question, Verdict, Wait};
use super::output::{no_perft, refuses, DivideFormat, NoPerft, Skipped};
use super::process::Process;
use super::{Divide, Divider, EngineError, EngineOptions, Line, MissingOption, Shown};
use crate::rules::Rules;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A UCI engine, kept running and started at the first question, kept running, and asked its perft command (`go perft N`) for each divide.
pub struct UciEngine<R: Rules> {
    rules: Arc<R>,
    name: String,
    words: Vec<String>,
    process: Option<Process>,
    opts: EngineOptions,
    /// The value last sent for each UCI option.
    options: HashMap<String, String>,
    /// Dead after a crash or a timeout: no more questions.
    failed: bool,
    /// The options it listed after `uci`, by lower-case name.
    advertised: HashMap<String, Advertised>,
    /// Lines of its answers skipped as not divide data.
    skipped: Skipped,
    /// `readyok` replies still to come for answers read without them.
    stale_readyok: usize,
    /// The last answer was read to its `readyok` and nothing was sent since.
    idle: bool,
}

/// An option as the engine listed it: `option name UCI_Variant type combo
/// default chess var chess var atomic ...`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Advertised {
    /// The values of a `combo` option (empty for other types: any value).
    vars: Vec<String>,
}

/// The name and `var` values of an `option name N type T ...` line.
fn parse_option(line: &str) -> Option<(String, Advertised)> {
    let rest = line.trim().strip_prefix("option")?.trim_start().strip_prefix("name")?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let type_at = words.iter().position(|w| *w == "type")?;
    let name = words[..type_at].join(" ");
    if name.is_empty() {
        return None;
    }
    let mut vars = Vec::new();
    let mut i = type_at + 1;
    while i < words.len() {
        if words[i] == "var" {
            // A value may have spaces: up to the next keyword.
            let end = (i + 1..words.len())
                .find(|&j| matches!(words[j], "var" | "default" | "min" | "max" | "type"))
                .unwrap_or(words.len());
            if end > i + 1 {
                vars.push(words[i + 1..end].join(" "));
            }
            i = end;
        } else {
            i += 1;
        }
    }
    Some((name, Advertised { vars }))
}

impl<R: Rules> UciEngine<R> {
    /// `words` is the command split into program and arguments; the engine
    /// is started on the first question.
    pub fn new(rules: Arc<R>, name: &str, words: Vec<String>, timeout: Duration, format: DivideFormat) -> Self {
        Self::with_options(rules, name, words, EngineOptions::new(timeout, format))
    }

    /// As `new`, with every option.
    pub fn with_options(rules: Arc<R>, name: &str, words: Vec<String>, opts: EngineOptions) -> Self {
        UciEngine {
            rules,
            name: super::clip(name),
            words,
            process: None,
            opts,
            options: HashMap::new(),
            failed: false,
            advertised: HashMap::new(),
            skipped: Skipped::default(),
            stale_readyok: 0,
            idle: false,
        }
    }

    /// Starts the engine; the handshake counts against the first question's time.
    fn launch(&mut self, deadline: Instant) -> Result<(), EngineError> {
        let mut p = Process::spawn(&self.words, &[], self.opts.stderr)?;
        self.idle = false;
        self.ask_options(&mut p, deadline)?;
        self.process = Some(p);
        Ok(())
    }

    /// Sends `uci` and keeps the options listed before `uciok`.
    fn ask_options(&mut self, p: &mut Process, deadline: Instant) -> Result<(), EngineError> {
        let (hello, ok) = if self.opts.usi { ("usi", "usiok") } else { ("uci", "uciok") };
        self.send(p, hello, hello)?;
        let mut advertised = HashMap::new();
        self.wait_for_seeing(p, ok, hello, deadline, &mut |l| {
            if let Some((name, option)) = parse_option(l) {
                advertised.insert(name.to_ascii_lowercase(), option);
            }
        })?;
        self.advertised = advertised;
        Ok(())
    }

    /// Why the engine cannot take `name = value`: `Some(None)` if it did not
    /// list the option, `Some(Some(vars))` if the value is not among its
    /// `var` values. A `false` never sent is not sent at all.
    fn lacks(&self, name: &str, value: &str) -> Option<Option<Vec<String>>> {
        if value == "false" && !self.options.contains_key(name) {
            return None;
        }
        match self.advertised.get(&name.to_ascii_lowercase()) {
            None => Some(None),
            Some(o) if !o.vars.is_empty() && !o.vars.iter().any(|v| v.eq_ignore_ascii_case(value)) => {
                Some(Some(o.vars.clone()))
            }
            Some(_) => None,
        }
    }

    /// Checks `options` against the options the engine listed; when a value
    /// is missing from a list, the options before it are set and the list
    /// asked for again, once (they may add values).
    fn check_options(
        &mut self,
        p: &mut Process,
        options: &[(String, String)],
        deadline: Instant,
    ) -> Result<(), EngineError> {
        let mut asked_again = false;
        let mut i = 0;
        while i < options.len() {
            let (name, value) = &options[i];
            match self.lacks(name, value) {
                None => i += 1,
                Some(Some(_)) if i > 0 && !asked_again => {
                    asked_again = true;
                    self.send_options(p, &options[..i])?;
                    self.ask_options(p, deadline)?;
                }
                Some(offered) => {
                    return Err(EngineError::Unsupported(Box::new(MissingOption {
                        engine: self.name.clone(),
                        option: name.clone(),
                        value: value.clone(),
                        offered,
                        script: false,
                        protocol: self.protocol(),
                        hint: None,
                    })))
                }
            }
        }
        Ok(())
    }

    /// Sends each option whose value differs from the one last sent (a
    /// `false` never sent is not sent); returns the commands sent.
    fn send_options(&mut self, p: &mut Process, options: &[(String, String)]) -> Result<Vec<String>, EngineError> {
        let mut sent = Vec::new();
        for (name, value) in options {
            let last = self.options.get(name);
            if last == Some(value) || (last.is_none() && value == "false") {
                continue;
            }
            let command = format!("setoption name {name} value {value}");
            self.send(p, &command, "setoption")?;
            self.options.insert(name.clone(), value.clone());
            sent.push(command);
        }
        Ok(sent)
    }

    /// The game's options for `root`; a USI engine names them `USI_*` for
    /// `UCI_*` (Fairy-Stockfish lists `USI_Variant` in USI mode) unless it
    /// lists the `UCI_` name (Fairy-Stockfish 11.1, Sjaak II).
    fn game_options(&self, root: &R::Position) -> Vec<(String, String)> {
        let mut options = self.rules.uci_options(root);
        if self.opts.usi {
            for (name, _) in &mut options {
                if let Some(rest) = name.strip_prefix("UCI_") {
                    let usi = format!("USI_{rest}");
                    let listed = |n: &str| self.advertised.contains_key(&n.to_ascii_lowercase());
                    if listed(&usi) || !listed(name) {
                        *name = usi;
                    }
                }
            }
        }
        options
    }

    /// The perft command for `depth`.
    fn perft_command(&self, depth: u32) -> String {
        match &self.opts.perft_command {
            Some(t) => t.replace("{depth}", &depth.to_string()),
            None => format!("go perft {depth}"),
        }
    }

    fn send(&self, p: &mut Process, line: &str, request: &str) -> Result<(), EngineError> {
        exchange::send(p, &self.name, line, request)
    }

    /// Reads until a line equal to `token`, skipping everything else, for
    /// at most the handshake time (`exchange::wait_for`).
    fn wait_for(&mut self, p: &mut Process, token: &str, request: &str, deadline: Instant) -> Result<(), EngineError> {
        self.wait_for_seeing(p, token, request, deadline, &mut |_| {})
    }

    /// As `wait_for`, showing every line before `token` to `seeing`. A
    /// stale `readyok` (of an answer read without it) is skipped; an
    /// xboard engine's reply to `uci` ends the wait at once, with a hint.
    fn wait_for_seeing(
        &mut self,
        p: &mut Process,
        token: &str,
        request: &str,
        deadline: Instant,
        seeing: &mut dyn FnMut(&str),
    ) -> Result<(), EngineError> {
        let hello = request == "uci" || request == "usi";
        let protocol = self.protocol();
        let (name, stale) = (self.name.clone(), &mut self.stale_readyok);
        // An xboard engine prints a banner and ignores `uci`: found out in
        // two seconds, unless the user gave the handshake more time.
        let foreign_quiet = (hello && self.opts.handshake == super::DEFAULT_HANDSHAKE).then_some(FOREIGN_QUIET);
        let limit = self.opts.handshake();
        let wait = Wait { engine: &name, request, token, protocol, limit, foreign_quiet };
        exchange::wait_for(p, &wait, deadline, &mut |l| {
            let t = l.trim();
            if t == token {
                if token == "readyok" && *stale > 0 {
                    *stale -= 1;
                    return Heard::Other;
                }
                return Heard::Token;
            }
            if hello {
                if let Some(e) = xboard_reply(&name, request, t) {
                    return Heard::Fail(e);
                }
            }
            if refuses(l) {
                return Heard::Fail(EngineError::Refused {
                    engine: name.clone(),
                    request: format!("`{request}`"),
                    line: super::clip(t),
                });
            }
            seeing(l);
            if hello && !is_uci_line(t) {
                Heard::Foreign
            } else {
                Heard::Other
            }
        })
    }

    /// Sends the game's options for the root of `line`, waits for `readyok`
    /// (which also drains whatever was left of the previous answer) and
    /// sends `position fen ROOT moves ...`; returns that command.
    fn set_position(&mut self, p: &mut Process, line: &Line<R>, deadline: Instant) -> Result<String, EngineError> {
        let options = self.game_options(&line.root);
        self.check_options(p, &options, deadline)?;
        let sent = self.send_options(p, &options)?;
        // An engine known idle (its last answer read to its `readyok`) that
        // was sent no option needs no `isready` first: one round trip less
        // per question, which is what a suite of small counts waits on.
        if !sent.is_empty() || !std::mem::take(&mut self.idle) {
            self.send(p, "isready", "isready")?;
            // A refusal of an option comes before `readyok`: name the options.
            let request = if sent.is_empty() { "isready".to_string() } else { format!("{}; isready", sent.join("; ")) };
            self.wait_for(p, "readyok", &request, deadline)?;
        }
        let (root, moves) = if self.opts.usi {
            line.usi_texts(&self.rules).ok_or_else(|| EngineError::Protocol {
                engine: self.name.clone(),
                message: format!("{} has no USI form (SFEN and USI moves): use --engine-uci", self.rules.name()),
            })?
        } else {
            (format!("fen {}", line.root_text(&self.rules)), line.move_texts(&self.rules))
        };
        let position = if moves.is_empty() {
            format!("position {root}")
        } else {
            format!("position {root} moves {}", moves.join(" "))
        };
        self.send(p, &position, &format!("`{}`", super::clip(&position)))?;
        Ok(position)
    }

    /// Stockfish's `d` (then `isready`, so that an engine without it ends
    /// the answer too): the `Fen:` and `Key:` lines.
    fn ask_show(&mut self, p: &mut Process, line: &Line<R>, deadline: Instant) -> Result<Shown, EngineError> {
        let position = self.set_position(p, line, deadline)?;
        let request = format!("`d` after `{}`", super::clip(&position));
        self.send(p, "d", &request)?;
        self.send(p, "isready", &request)?;
        let (mut fen, mut key) = (None, None);
        self.wait_for_seeing(p, "readyok", &request, deadline, &mut |l| {
            let l = l.trim();
            if let Some(f) = l.strip_prefix("Fen:") {
                fen = Some(super::clip(f.trim()));
            } else if let Some(k) = l.strip_prefix("Key:") {
                key = Some(super::clip(k.trim()));
            }
        })?;
        match fen {
            Some(fen) => Ok(Shown { fen, key }),
            None => Err(EngineError::Protocol {
                engine: self.name.clone(),
                message: format!("printed no `Fen:` line in its answer to {request} (no Stockfish-style `d`?)"),
            }),
        }
    }

    fn ask(
        &mut self,
        p: &mut Process,
        line: &Line<R>,
        depth: u32,
        deadline: Instant,
        on_move: &(dyn Fn(&str, u64) + Sync),
    ) -> Result<Divide, EngineError> {
        let position = self.set_position(p, line, deadline)?;
        let go = self.perft_command(depth);
        let request = format!("`{go}` after `{}`", super::clip(&position));
        let q = Question {
            engine: &self.name,
            request: request.clone(),
            format: self.opts.format,
            depth,
            legal: self.rules.legal_moves(&line.position(&self.rules)).len(),
            timeout: self.opts.timeout,
            handshake: self.opts.handshake(),
            protocol: self.protocol(),
            command: go.clone(),
            // Counted before `go` is sent: a quick engine's total on stderr
            // may be read before this thread gets here again.
            stderr_totals: p.stderr_totals(),
            silence_ends: true,
        };
        exchange::send(p, &self.name, &go, &request)?;
        // In order: `readyok` once the perft is done (or at once, from an
        // engine that counts on a thread of its own).
        exchange::send(p, &self.name, "isready", &request)?;
        let stale = &mut self.stale_readyok;
        let answer = exchange::read_perft(p, &q, deadline, on_move, &mut |l| {
            let t = l.trim();
            if t == "readyok" {
                if *stale > 0 {
                    *stale -= 1;
                    return Verdict::Skip;
                }
                return Verdict::Sync;
            }
            if let Some(kind) = no_perft(l) {
                return Verdict::Fail(EngineError::NoPerft {
                    engine: q.engine.to_string(),
                    request: q.request.clone(),
                    line: super::clip(t),
                    searched: kind == NoPerft::Searched,
                    advice: no_perft_advice(q.command.as_str(), self.opts.perft_command.is_some(), kind),
                });
            }
            if refuses(l) {
                return Verdict::Fail(EngineError::Refused {
                    engine: q.engine.to_string(),
                    request: q.request.clone(),
                    line: super::clip(t),
                });
            }
            Verdict::Data
        })?;
        if !answer.synced {
            self.stale_readyok += 1;
        }
        let parsed = exchange::finish(p, &q, &answer)?;
        self.idle = answer.synced && self.stale_readyok == 0;
        self.skipped.merge(&parsed.skipped);
        Ok(parsed.divide)
    }

    /// `UCI` or `USI`, for messages.
    fn protocol(&self) -> &'static str {
        if self.opts.usi {
            "USI"
        } else {
            "UCI"
        }
    }
}

/// What to try when the perft command `command` is not the engine's
/// (`given`: the user named it).
fn no_perft_advice(command: &str, given: bool, kind: NoPerft) -> String {
    let script = "or wrap the engine in a script for --engine-script (see the docs)";
    match (given, kind) {
        (false, NoPerft::Searched) => {
            format!("its perft command may be `perft N`: try --perft-command 'perft {{depth}}', {script}")
        }
        (false, NoPerft::Unknown) => {
            format!("name its perft command with --perft-command (e.g. 'perft {{depth}}'), {script}")
        }
        (true, _) => format!("--perft-command {command:?} is not its perft command; check its docs, {script}"),
    }
}

/// After `uci`, how long a program that printed only lines of no UCI
/// engine's (a banner, a board) may stay silent.
const FOREIGN_QUIET: std::time::Duration = std::time::Duration::from_secs(2);

/// A line a UCI or USI engine prints after `uci`: `id`, `option`, `info`.
fn is_uci_line(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or("");
    matches!(first, "id" | "option" | "info" | "uciok" | "usiok" | "copyprotection" | "registration")
}

/// An xboard engine's answer to `uci` (`Error (unknown command): uci`,
/// `Illegal move: uci`, its `feature` lines): an error saying so.
fn xboard_reply(engine: &str, request: &str, line: &str) -> Option<EngineError> {
    let lower = line.to_ascii_lowercase();
    let xboard = lower.starts_with("error (")
        || lower.starts_with("illegal move")
        || lower.starts_with("feature ")
        || lower.starts_with("tellics ");
    xboard.then(|| EngineError::Protocol {
        engine: engine.to_string(),
        message: format!(
            "it answered `{request}` with {:?}: is it an xboard engine? try --engine-xboard",
            super::clip(line)
        ),
    })
}

/// The last line of an answer that is not blank.
pub(crate) fn last_line(answer: &str) -> String {
    answer.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").to_string()
}

impl<R: Rules> exchange::Session for UciEngine<R> {
    fn engine_name(&self) -> String {
        self.name.clone()
    }

    fn timeout(&self) -> std::time::Duration {
        self.opts.timeout
    }

    fn slot(&mut self) -> (&mut Option<Process>, &mut bool) {
        (&mut self.process, &mut self.failed)
    }

    fn start(&mut self, deadline: Instant) -> Result<(), EngineError> {
        self.launch(deadline)
    }
}

impl<R: Rules> Divider<R> for UciEngine<R> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn divide(&mut self, line: &Line<R>, depth: u32) -> Result<Divide, EngineError> {
        self.divide_each(line, depth, &|_, _| {})
    }

    fn divide_each(
        &mut self,
        line: &Line<R>,
        depth: u32,
        on_move: &(dyn Fn(&str, u64) + Sync),
    ) -> Result<Divide, EngineError> {
        exchange::session(self, |engine, p, deadline| engine.ask(p, line, depth, deadline, on_move))
    }

    fn show(&mut self, line: &Line<R>) -> Result<Option<Shown>, EngineError> {
        exchange::session(self, |engine, p, deadline| engine.ask_show(p, line, deadline)).map(Some)
    }

    fn check_root(&mut self, root: &R::Position) -> Result<(), EngineError> {
        exchange::session(self, |engine, p, deadline| {
            let options = engine.game_options(root);
            engine.check_options(p, &options, deadline)
        })
    }

    fn set_timeout(&mut self, timeout: std::time::Duration) {
        self.opts.timeout = timeout;
    }

    fn restart(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
        self.failed = false;
        self.options.clear();
        self.advertised.clear();
        self.stale_readyok = 0;
        self.idle = false;
    }

    fn skipped(&self) -> Option<Skipped> {
        Some(self.skipped)
    }
}

impl<R: Rules> Drop for UciEngine<R> {
    fn drop(&mut self) {
        if let Some(p) = self.process.as_mut() {
            p.send("quit");
        }
    }
}
