//! `fuzz`'s findings as text, as the JSON document and as JUnit XML. A
//! move-list finding is the witness of `divide --bisect` (`WitnessJson`),
//! so both commands report it the same way.

use crate::cli::common::plural;
use crate::cli::hunt::junit::{self, Case, CaseResult};
use crate::cli::hunt::report::{witness_text, WitnessJson};
use crate::cli::hunt::EngineCalls;
use chesstool::engines::Line;
use chesstool::rules::Rules;
use chesstool::verify::fuzz::{FailureFinding, Finding, Found, PositionFinding, PositionProblem, Summary};
use chesstool::verify::witness::Fault;
use serde::Serialize;

/// A failed position check, in the vocabulary's words.
#[derive(Serialize, Debug, Clone)]
pub struct PositionCheckJson {
    /// `fen`, `key-after-take-back` or `key-transposition`.
    pub check: &'static str,
    pub path: Vec<String>,
    pub position: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine_fen: Option<String>,
    /// The FEN fields that differ, each `NAME: engine X, ours Y`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub earlier_key: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub earlier_path: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taken_back: Option<String>,
}

impl PositionCheckJson {
    pub fn new<R: Rules>(rules: &R, f: &PositionFinding<R>) -> PositionCheckJson {
        let mut doc = PositionCheckJson {
            check: "fen",
            path: f.line.move_texts(rules),
            position: rules.position_text(&f.line.position(rules)),
            engine_fen: None,
            fields: Vec::new(),
            key: None,
            earlier_key: None,
            earlier_path: None,
            taken_back: None,
        };
        match &f.problem {
            PositionProblem::Fen { printed, differences } => {
                doc.engine_fen = Some(printed.clone());
                doc.fields = differences.clone();
            }
            PositionProblem::Key { key, earlier_key, earlier, taken_back } => {
                doc.check = if taken_back.is_some() { "key-after-take-back" } else { "key-transposition" };
                doc.key = Some(key.clone());
                doc.earlier_key = Some(earlier_key.clone());
                doc.earlier_path = Some(earlier.move_texts(rules));
                let pos = f.line.position(rules);
                doc.taken_back = taken_back.map(|m| rules.move_text(&pos, m));
            }
        }
        doc
    }

    /// The finding as labelled lines.
    pub fn text(&self) -> String {
        let path = |p: &[String]| if p.is_empty() { "(the root)".to_string() } else { p.join(" ") };
        let mut t = format!("path:        {}\nposition:    {}\n", path(&self.path), self.position);
        if let Some(fen) = &self.engine_fen {
            t.push_str(&format!("engine's FEN: {fen}\n"));
            for d in &self.fields {
                t.push_str(&format!("  {d}\n"));
            }
        }
        if let (Some(key), Some(earlier)) = (&self.key, &self.earlier_key) {
            match &self.taken_back {
                Some(m) => {
                    t.push_str(&format!("key:         {key} after {m} was played and taken back; {earlier} before\n"))
                }
                None => t.push_str(&format!(
                    "key:         {key}; {earlier} for the same position by the moves {}\n",
                    path(self.earlier_path.as_deref().unwrap_or_default())
                )),
            }
        }
        t
    }
}

/// A line the engine failed to answer about, in the vocabulary's words.
#[derive(Serialize, Debug, Clone)]
pub struct FailureJson {
    /// `crash`, `hang` or `unreadable`.
    pub kind: &'static str,
    /// `at-random` (answered when asked again), `position` (fails on the
    /// position alone too), `after-moves` (only after the moves), `line`.
    pub layer: &'static str,
    pub path: Vec<String>,
    pub position: String,
    pub depth: u32,
    pub attempts: u32,
    /// The engine's error: the request, the status or last line, the tail of its standard error.
    pub message: String,
}

impl FailureJson {
    pub fn new<R: Rules>(rules: &R, f: &FailureFinding<R>) -> FailureJson {
        FailureJson {
            kind: f.kind.name(),
            layer: f.layer_name(),
            path: f.line.move_texts(rules),
            position: rules.position_text(&f.line.position(rules)),
            depth: f.depth,
            attempts: f.attempts,
            message: f.message.clone(),
        }
    }

    /// The failure as labelled lines.
    fn text<R: Rules>(&self, f: &FailureFinding<R>) -> String {
        let path = if self.path.is_empty() { "(the root)".to_string() } else { self.path.join(" ") };
        let asked = plural(u64::from(self.attempts), "time", "times");
        format!(
            "path:        {path}\nposition:    {}\ndepth:       {} (asked {asked})\nthe engine:  {}\n",
            self.position,
            self.depth,
            self.message.replace('\n', "\n             "),
        ) + &format!("blames:      {}\n", f.layer())
    }
}

/// The run's one JSON document. `root`, `witness` and `position_check`
/// are the first finding's, as before `--keep-going`; `findings` has them all.
#[derive(Serialize)]
pub struct FuzzJson {
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    pub seed: u64,
    pub depth: u32,
    /// Why this depth (`as given (--depth)`, or the rule of the automatic
    /// depth with the first root's perft); a rerun with `--depth` repeats it.
    pub depth_reason: String,
    /// `--min-depth`, when above 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_depth: Option<u32>,
    /// The signal that ended the run early (`SIGTERM`, `SIGINT`): the
    /// report covers the positions compared before it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interrupted: Option<String>,
    pub positions: u64,
    pub games: u64,
    pub positions_per_second: f64,
    pub engine: EngineCalls,
    /// Seconds spent waiting for the engine.
    pub engine_seconds: f64,
    /// The run stopped because the engine failed on line after line.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub gave_up: bool,
    /// The motif cases looked at (three games in four until each was), when there were any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motif_cases: Option<MotifCasesJson>,
    /// The root of the walk where something was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub witness: Option<WitnessJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position_check: Option<PositionCheckJson>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<FoundJson>,
    /// The roots skipped because a side cannot take them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped_roots: Option<SkippedRoots>,
    pub seconds: f64,
}

/// One distinct finding of a run.
#[derive(Serialize)]
pub struct FoundJson {
    /// The cause, in a few words.
    pub cause: String,
    /// Positions that showed this cause.
    pub count: u64,
    /// `movegen`, `fen-reader`, `make-move` or `position-command` (move findings).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fault: Option<&'static str>,
    /// The layer at fault in a sentence (the text report's `at fault:`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    /// Plies of the walk when found, and of the shortened witness.
    pub walk_plies: usize,
    pub witness_plies: usize,
    pub root: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub witness: Option<WitnessJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position_check: Option<PositionCheckJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<FailureJson>,
}

impl FoundJson {
    fn new<R: Rules>(rules: &R, f: &Found<R>) -> FoundJson {
        let (mut witness, mut position_check, mut failure) = (None, None, None);
        match &f.finding {
            Finding::Moves(w) => witness = Some(WitnessJson::new(rules, w)),
            Finding::Position(p) => position_check = Some(PositionCheckJson::new(rules, p)),
            Finding::Failure(x) => failure = Some(FailureJson::new(rules, x)),
        }
        FoundJson {
            cause: f.cause.clone(),
            count: f.count,
            fault: f.fault.as_ref().map(Fault::name),
            explanation: f.fault.as_ref().map(Fault::text),
            walk_plies: f.walk_plies,
            witness_plies: f.finding.plies(),
            root: f.finding.line().root_text(rules),
            witness,
            position_check,
            failure,
        }
    }
}

/// Roots skipped because the engine (or the reference) lacks an option they
/// need (`UCI_Chess960`): how many, of how many, and why (each reason once).
#[derive(Serialize, Debug, Default, Clone)]
pub struct SkippedRoots {
    pub count: usize,
    pub of: usize,
    pub reasons: Vec<String>,
}

impl SkippedRoots {
    /// One more root skipped for `reason`.
    pub fn add(&mut self, reason: String) {
        self.count += 1;
        if !self.reasons.contains(&reason) {
            self.reasons.push(reason);
        }
    }

    /// The note of the text report.
    pub fn note(&self) -> String {
        format!("note: skipped {} of the {} roots, never compared: {}", self.count, self.of, self.reasons.join("; "))
    }
}

/// How many motif cases a run looked at.
#[derive(Serialize)]
pub struct MotifCasesJson {
    pub looked: usize,
    pub of: usize,
    /// The budget ended before every case was looked at once.
    pub cut_short: bool,
}

/// Positions per second of a run (0 for an instant one).
pub fn speed<R: Rules>(s: &Summary<R>) -> f64 {
    let secs = s.elapsed.as_secs_f64();
    if secs > 0.0 {
        s.positions as f64 / secs
    } else {
        0.0
    }
}

impl FuzzJson {
    pub fn new<R: Rules>(rules: &R, seed: u64, s: &Summary<R>, engine: EngineCalls) -> FuzzJson {
        let findings: Vec<FoundJson> = s.found.iter().map(|f| FoundJson::new(rules, f)).collect();
        let (root, witness, position_check) = match findings.first() {
            None => (None, None, None),
            Some(f) => (Some(f.root.clone()), f.witness.clone(), f.position_check.clone()),
        };
        FuzzJson {
            status: match (s.found.is_empty(), s.interrupted) {
                _ if s.engine_failed() => "engine-failure",
                (false, _) => "mismatch",
                (true, true) => "interrupted",
                (true, false) => "ok",
            },
            variant: rules.variant(),
            seed,
            depth: s.depth.depth,
            depth_reason: s.depth.reason.clone(),
            min_depth: None,
            interrupted: None,
            positions: s.positions,
            games: s.games,
            positions_per_second: (speed(s) * 10.0).round() / 10.0,
            engine,
            engine_seconds: (s.engine_wait.as_secs_f64() * 1000.0).round() / 1000.0,
            gave_up: s.gave_up,
            motif_cases: (s.sweep.of > 0).then_some(MotifCasesJson {
                looked: s.sweep.looked,
                of: s.sweep.of,
                cut_short: s.sweep.cut_short,
            }),
            root,
            witness,
            position_check,
            findings,
            skipped_roots: None,
            seconds: s.elapsed.as_secs_f64(),
        }
    }
}

/// The headline: what was found, after how much work, with the seed:
/// `1 difference after 22 positions (1 game): the engine's moves differ
/// from ours (0.02 s, 1100 positions/s, seed 7)`.
pub fn headline<R: Rules>(seed: u64, s: &Summary<R>) -> String {
    let (found, what) = match (s.found.len(), s.first()) {
        (0, _) => ("no difference in".to_string(), ""),
        (1, Some(Finding::Position(_))) => {
            ("1 difference after".to_string(), ": the engine's position differs from ours")
        }
        (1, Some(Finding::Failure(_))) => ("1 engine failure after".to_string(), ": the engine failed to answer"),
        (1, _) => ("1 difference after".to_string(), ": the engine's moves differ from ours"),
        (n, _) => (format!("{n} findings with distinct causes after"), ""),
    };
    format!(
        "{found} {} ({}){what} ({:.2} s, {:.0} positions/s, seed {seed})",
        plural(s.positions, "position", "positions"),
        plural(s.games, "game", "games"),
        s.elapsed.as_secs_f64(),
        speed(s)
    )
}

/// Where the time went: positions, engine calls, the depth and why, the
/// engine's share of the time.
pub fn budget_line<R: Rules>(s: &Summary<R>) -> String {
    let share = s.engine_wait.as_secs_f64() / s.elapsed.as_secs_f64().max(1e-9) * 100.0;
    format!(
        "checked:     {} by {} at depth {} ({}); {:.0}% of the time in the engine",
        plural(s.positions, "position", "positions"),
        plural(u64::from(s.engine_calls), "engine call", "engine calls"),
        s.depth.depth,
        s.depth.reason,
        share.min(100.0)
    )
}

/// The note of a run whose budget ended before every motif case was
/// looked at once.
pub fn sweep_note<R: Rules>(s: &Summary<R>) -> String {
    format!(
        "note: the budget ended after {} of the {} motif cases (each is looked at once, three games in four); a longer --seconds covers them all",
        s.sweep.looked, s.sweep.of
    )
}

/// The note of a run that gave up on its engine.
pub fn gave_up_note() -> String {
    format!(
        "gave up: the engine failed on {} lines in a row, each after its retries; the report covers what came before",
        chesstool::verify::fuzz::GIVE_UP
    )
}

/// Every finding as text (empty when there is none).
pub fn findings_text<R: Rules>(rules: &R, s: &Summary<R>) -> String {
    let many = s.found.len() > 1;
    let mut out = String::new();
    for (i, f) in s.found.iter().enumerate() {
        if many {
            out.push_str(&format!("\nfinding {} of {}:\n", i + 1, s.found.len()));
        }
        out.push_str(&finding_text(rules, f));
    }
    out
}

/// One finding as text: its cause, the layer at fault, the lengths, then
/// the witness as `divide --bisect` prints it.
fn finding_text<R: Rules>(rules: &R, f: &Found<R>) -> String {
    let root = |line: &Line<R>| format!("root:        {}\n", line.root_text(rules));
    let seen = if f.count > 1 { format!(" (seen {} times)", f.count) } else { String::new() };
    let mut out = format!("cause:       {}{seen}\n", f.cause);
    if let Some(fault) = &f.fault {
        out.push_str(&format!("at fault:    {}\n", fault.text()));
    }
    match &f.finding {
        Finding::Moves(w) => {
            out.push_str(&format!(
                "walk:        {} from the root; witness: {}\n",
                plural(f.walk_plies as u64, "ply", "plies"),
                plural(w.line.moves.len() as u64, "ply", "plies")
            ));
            out.push_str(&format!("{}first wrong position:\n{}", root(&w.line), witness_text(rules, w, "  ")));
        }
        Finding::Position(p) => {
            out.push_str(&format!("{}{}", root(&p.line), PositionCheckJson::new(rules, p).text()));
        }
        Finding::Failure(x) => {
            out.push_str(&format!("{}{}", root(&x.line), FailureJson::new(rules, x).text(x)));
        }
    }
    out
}

/// The run as a JUnit report: one test case per finding (one passed case
/// when nothing was found).
pub fn junit_xml<R: Rules>(rules: &R, seed: u64, s: &Summary<R>) -> String {
    let case = |name: String, result| Case { name, order: (0, 0), seconds: s.elapsed.as_secs_f64(), result };
    let mut cases: Vec<Case> = s
        .found
        .iter()
        .map(|f| {
            let result = CaseResult::Failed { message: headline(seed, s), details: finding_text(rules, f) };
            case(format!("fuzz seed {seed}: {}", f.cause), result)
        })
        .collect();
    if cases.is_empty() {
        cases.push(case(format!("fuzz seed {seed}, {} positions", s.positions), CaseResult::Passed));
    }
    junit::xml(&[junit::Suite { name: format!("chesstool fuzz ({})", rules.name()), cases }])
}
