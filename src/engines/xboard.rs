//! An xboard (CECP, Tim Mann's engine-intf protocol 2) engine as a
//! long-lived child process: `xboard`, `protover 2` and its `feature` lines
//! up to `feature done=1` (each accepted), then per question `new`,
//! `variant NAME` for a game other than chess, `force`, `setboard FEN`
//! (left out at the game's start position, which `new` sets up: an engine
//! without `setboard=1` is asked only lines from there), the moves of the
//! line (after `usermove ` where it asked for `usermove=1`), `ping N` and
//! its `pong N` (refusals of the set-up end the question here, quoted), then
//! the perft command and `ping N+1`: the answer is the lines up to its total
//! or to `pong N+1` (see `exchange`).
//!
//! The perft command is `perft {depth}` (Sjeng prints `Raw nodes for depth
//! N: X`), but `perft {depth} 1` for Sjaak II, whose second argument asks
//! for the counts per move; `--perft-command` names another one. Moves are
//! sent in coordinate notation (`e2e4`, `e7e8q`, `P@e4`), which engines
//! with `san=1` read too. Variant names are chesstool's, mapped to xboard's
//! standard ones (`fischerandom` for Chess960) and to the names in the
//! engine's `variants=` list; `--engine-variant` names it where they differ.

use super::exchange::{self, Heard, Question, Verdict, Wait};
use super::output::{no_perft, NoPerft, Skipped};
use super::process::Process;
use super::{Divide, Divider, EngineError, EngineOptions, Line, MissingOption};
use crate::rules::Rules;
use std::sync::Arc;
use std::time::Instant;

/// An xboard engine, started at the first question and kept running.
pub struct XboardEngine<R: Rules> {
    rules: Arc<R>,
    name: String,
    words: Vec<String>,
    process: Option<Process>,
    opts: EngineOptions,
    /// Dead after a crash or a timeout: no more questions.
    failed: bool,
    features: Features,
    /// The number of the last `ping` sent.
    ping: u32,
    /// Lines of its answers skipped as not divide data.
    skipped: Skipped,
}

/// The `feature` lines that matter here, as the engine sent them.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Features {
    setboard: bool,
    usermove: bool,
    ping: bool,
    /// The `variants="..."` list (empty: chess only).
    variants: Vec<String>,
    myname: Option<String>,
}

impl Features {
    /// Takes the `name=value` pairs of one `feature ...` line; returns their
    /// names and whether `done=1` was among them.
    fn take(&mut self, line: &str) -> (Vec<String>, bool) {
        let mut names = Vec::new();
        let mut done = false;
        for (name, value) in feature_pairs(line) {
            let on = value == "1";
            match name.as_str() {
                "setboard" => self.setboard = on,
                "usermove" => self.usermove = on,
                "ping" => self.ping = on,
                "variants" => self.variants = value.split(',').map(|v| v.trim().to_string()).collect(),
                "myname" => self.myname = Some(super::clip(&value)),
                "done" => done = on,
                _ => {}
            }
            names.push(name);
        }
        (names, done)
    }
}

/// The `name=value` pairs of a `feature` line; values may be quoted.
fn feature_pairs(line: &str) -> Vec<(String, String)> {
    let Some(rest) = line.trim().strip_prefix("feature") else { return Vec::new() };
    let mut pairs = Vec::new();
    let mut chars = rest.trim_start().chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let name: String = std::iter::from_fn(|| chars.next_if(|&c| c != '=' && !c.is_whitespace())).collect();
        if name.is_empty() || chars.next_if_eq(&'=').is_none() {
            return pairs;
        }
        let value: String = if chars.next_if_eq(&'"').is_some() {
            let v = std::iter::from_fn(|| chars.next_if(|&c| c != '"')).collect();
            chars.next();
            v
        } else {
            std::iter::from_fn(|| chars.next_if(|c| !c.is_whitespace())).collect()
        };
        pairs.push((name, value));
    }
}

/// xboard's standard name for a chesstool variant, where they differ.
fn standard_name(variant: &str) -> &str {
    match variant {
        "chess" => "normal",
        "chess960" | "fischerrandom" => "fischerandom",
        "threecheck" | "3check" => "3check",
        "antichess" => "suicide",
        "kingofthehill" | "king-of-the-hill" => "kingofthehill",
        "caparandom" => "caparandom",
        other => other,
    }
}

impl<R: Rules> XboardEngine<R> {
    /// `words` is the command split into program and arguments; the engine
    /// is started on the first question.
    pub fn with_options(rules: Arc<R>, name: &str, words: Vec<String>, opts: EngineOptions) -> Self {
        XboardEngine {
            rules,
            name: super::clip(name),
            words,
            process: None,
            opts,
            failed: false,
            features: Features::default(),
            ping: 0,
            skipped: Skipped::default(),
        }
    }

    /// Starts the engine: `xboard`, `protover 2`, the features up to `done=1`.
    fn launch(&mut self, deadline: Instant) -> Result<(), EngineError> {
        let mut p = Process::spawn(&self.words, &[], self.opts.stderr)?;
        exchange::send(&mut p, &self.name, "xboard", "xboard")?;
        exchange::send(&mut p, &self.name, "protover 2", "protover 2")?;
        let mut features = Features::default();
        let mut accepted = Vec::new();
        let name = self.name.clone();
        let wait = Wait {
            engine: &name,
            request: "protover 2",
            token: "feature done=1",
            protocol: "xboard",
            limit: self.opts.handshake(),
            foreign_quiet: None,
        };
        exchange::wait_for(&mut p, &wait, deadline, &mut |l| {
            let t = l.trim();
            if t.starts_with("id name") || t == "uciok" {
                return Heard::Fail(EngineError::Protocol {
                    engine: name.clone(),
                    message: format!("it answered `xboard` with {:?}: is it a UCI engine? try --engine-uci", t),
                });
            }
            let (names, done) = features.take(t);
            accepted.extend(names);
            if done {
                Heard::Token
            } else {
                Heard::Other
            }
        })?;
        for feature in accepted.iter().filter(|f| *f != "done") {
            exchange::send(&mut p, &self.name, &format!("accepted {feature}"), "accepted")?;
        }
        self.features = features;
        self.process = Some(p);
        Ok(())
    }

    /// The perft command for `depth`.
    fn perft_command(&self, depth: u32) -> String {
        let template = match (&self.opts.perft_command, &self.features.myname) {
            (Some(t), _) => t.clone(),
            (None, Some(name)) if name.starts_with("Sjaak") => "perft {depth} 1".to_string(),
            _ => "perft {depth}".to_string(),
        };
        template.replace("{depth}", &depth.to_string())
    }

    /// The `variant` the root needs (`None` for chess), in the engine's
    /// words: refused when its `variants=` list has no name for it.
    fn variant_for(&self, root: &R::Position) -> Result<Option<String>, EngineError> {
        let options = self.rules.uci_options(root);
        let value = |n: &str| options.iter().find(|(o, _)| o == n).map(|(_, v)| v.clone());
        let ours = match (value("UCI_Variant"), value("UCI_Chess960").as_deref()) {
            (Some(v), _) if v != "chess" => v,
            (_, Some("true")) => "chess960".to_string(),
            _ => return Ok(None),
        };
        let offered = &self.features.variants;
        let has = |n: &str| offered.iter().any(|v| v.eq_ignore_ascii_case(n));
        if let Some(given) = &self.opts.engine_variant {
            return Ok(Some(given.clone()));
        }
        for name in [standard_name(&ours), ours.as_str()] {
            if has(name) {
                return Ok(Some(name.to_string()));
            }
        }
        Err(EngineError::Unsupported(Box::new(MissingOption {
            engine: self.name.clone(),
            option: "variants".to_string(),
            value: standard_name(&ours).to_string(),
            offered: Some(offered.clone()),
            script: false,
            protocol: "xboard",
            hint: Some("name the engine's variant with --engine-variant NAME".to_string()),
        })))
    }

    /// Sends `ping N` and reads to `pong N`; a refusal on the way ends it.
    fn sync(&mut self, p: &mut Process, request: &str, deadline: Instant) -> Result<(), EngineError> {
        if !self.features.ping {
            return Ok(());
        }
        self.ping += 1;
        let ping = format!("ping {}", self.ping);
        let pong = format!("pong {}", self.ping);
        exchange::send(p, &self.name, &ping, request)?;
        let name = self.name.clone();
        let limit = self.opts.handshake();
        let wait = Wait { engine: &name, request, token: &pong, protocol: "xboard", limit, foreign_quiet: None };
        exchange::wait_for(p, &wait, deadline, &mut |l| {
            let t = l.trim();
            if t == pong {
                Heard::Token
            } else if refusal(t) {
                Heard::Fail(EngineError::Refused {
                    engine: name.clone(),
                    request: format!("`{}`", super::clip(request)),
                    line: super::clip(t),
                })
            } else {
                Heard::Other
            }
        })
    }

    /// Sets up the position at the end of `line`; returns the commands sent.
    fn set_position(&mut self, p: &mut Process, line: &Line<R>, deadline: Instant) -> Result<String, EngineError> {
        let variant = self.variant_for(&line.root)?;
        let start = self.rules.parse_position("startpos").ok().map(|s| self.rules.position_text(&s));
        let root = line.root_text(&self.rules);
        let mut commands = vec!["new".to_string()];
        commands.extend(variant.map(|v| format!("variant {v}")));
        commands.push("force".to_string());
        // Chess960 is always set up: `new` in `fischerandom` may start a
        // random position of the engine's own.
        let chess960 = self.rules.uci_options(&line.root).iter().any(|(o, v)| o == "UCI_Chess960" && v == "true");
        if chess960 && self.features.setboard || start.as_deref() != Some(root.as_str()) {
            if !self.features.setboard {
                return Err(EngineError::Protocol {
                    engine: self.name.clone(),
                    message: format!(
                        "it has no `setboard` (feature setboard=1 not sent), and {root:?} is not the start position"
                    ),
                });
            }
            commands.push(format!("setboard {root}"));
        }
        let prefix = if self.features.usermove { "usermove " } else { "" };
        commands.extend(line.move_texts(&self.rules).into_iter().map(|m| format!("{prefix}{m}")));
        for c in &commands {
            exchange::send(p, &self.name, c, c)?;
        }
        let sent = commands.join("; ");
        self.sync(p, &sent, deadline)?;
        Ok(sent)
    }

    fn ask(
        &mut self,
        p: &mut Process,
        line: &Line<R>,
        depth: u32,
        deadline: Instant,
        on_move: &(dyn Fn(&str, u64) + Sync),
    ) -> Result<Divide, EngineError> {
        let setup = self.set_position(p, line, deadline)?;
        let command = self.perft_command(depth);
        let request = format!("`{command}` after `{}`", super::clip(&setup));
        let q = Question {
            engine: &self.name,
            request: request.clone(),
            format: self.opts.format,
            depth,
            legal: self.rules.legal_moves(&line.position(&self.rules)).len(),
            timeout: self.opts.timeout,
            handshake: self.opts.handshake(),
            protocol: "xboard",
            command: command.clone(),
            stderr_totals: p.stderr_totals(),
            silence_ends: !self.features.ping,
        };
        exchange::send(p, &self.name, &command, &request)?;
        let pong = if self.features.ping {
            self.ping += 1;
            exchange::send(p, &self.name, &format!("ping {}", self.ping), &request)?;
            Some(format!("pong {}", self.ping))
        } else {
            None
        };
        let given = self.opts.perft_command.is_some();
        let answer = exchange::read_perft(p, &q, deadline, on_move, &mut |l| {
            let t = l.trim();
            if pong.as_deref() == Some(t) {
                return Verdict::Sync;
            }
            if t.starts_with("pong ") {
                return Verdict::Skip;
            }
            if let Some(kind) = no_perft(t) {
                let advice = match (given, kind) {
                    (true, _) => format!("--perft-command {:?} is not its perft command; check its docs", q.command),
                    (false, _) => "name its perft command with --perft-command (e.g. 'divide {depth}')".to_string(),
                };
                return Verdict::Fail(EngineError::NoPerft {
                    engine: q.engine.to_string(),
                    request: q.request.clone(),
                    line: super::clip(t),
                    searched: kind == NoPerft::Searched,
                    advice,
                });
            }
            if refusal(t) {
                return Verdict::Fail(EngineError::Refused {
                    engine: q.engine.to_string(),
                    request: q.request.clone(),
                    line: super::clip(t),
                });
            }
            Verdict::Data
        })?;
        let parsed = exchange::finish(p, &q, &answer)?;
        self.skipped.merge(&parsed.skipped);
        Ok(parsed.divide)
    }
}

/// An xboard engine's refusal: `Error (...): ...`, `Illegal move: ...`,
/// `tellusererror ...`.
fn refusal(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    l.starts_with("error") || l.starts_with("illegal move") || l.starts_with("tellusererror")
}

impl<R: Rules> exchange::Session for XboardEngine<R> {
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

impl<R: Rules> Divider<R> for XboardEngine<R> {
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

    fn check_root(&mut self, root: &R::Position) -> Result<(), EngineError> {
        exchange::session(self, |engine, _, _| engine.variant_for(root).map(|_| ()))
    }

    fn set_timeout(&mut self, timeout: std::time::Duration) {
        self.opts.timeout = timeout;
    }

    fn restart(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
        self.failed = false;
    }

    fn skipped(&self) -> Option<Skipped> {
        Some(self.skipped)
    }
}

impl<R: Rules> Drop for XboardEngine<R> {
    fn drop(&mut self) {
        if let Some(p) = self.process.as_mut() {
            p.send("quit");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_read_with_quoted_values() {
        let mut f = Features::default();
        let (names, done) = f.take(r#"feature ping=1 setboard=1 myname="Sjeng 11.2" variants="normal,crazyhouse""#);
        assert_eq!(names, ["ping", "setboard", "myname", "variants"]);
        assert!(!done && f.ping && f.setboard && !f.usermove);
        assert_eq!(f.myname.as_deref(), Some("Sjeng 11.2"));
        assert_eq!(f.variants, ["normal", "crazyhouse"]);
        assert!(f.take("feature colors=1 done=1").1);
        assert!(feature_pairs("featureless").is_empty());
    }

    #[test]
    fn chesstool_names_map_to_xboard_names() {
        assert_eq!(standard_name("chess960"), "fischerandom");
        assert_eq!(standard_name("crazyhouse"), "crazyhouse");
    }
}
