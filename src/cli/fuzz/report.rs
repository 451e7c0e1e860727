//! `fuzz`'s findings as text, as the JSON document and as JUnit XML. A
//! move-list finding is the witness of `divide --bisect` (`WitnessJson`),
//! so both commands report it the same way.

use crate::cli::hunt::junit::{self, Case, CaseResult};
use crate::cli::hunt::report::{witness_text, WitnessJson};
use crate::cli::hunt::EngineCalls;
use chesstool::engines::Line;
use chesstool::rules::Rules;
use chesstool::verify::fuzz::{Finding, PositionFinding, PositionProblem, Summary};
use serde::Serialize;

/// A failed position check, in the vocabulary's words.
#[derive(Serialize, Debug)]
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

/// The run's one JSON document.
#[derive(Serialize)]
pub struct FuzzJson {
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    pub seed: u64,
    pub depth: u32,
    pub positions: u64,
    pub games: u64,
    pub positions_per_second: f64,
    pub engine: EngineCalls,
    /// The root of the walk where something was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub witness: Option<WitnessJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position_check: Option<PositionCheckJson>,
    /// The roots skipped because a side cannot take them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped_roots: Option<SkippedRoots>,
    pub seconds: f64,
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
    pub fn new<R: Rules>(rules: &R, seed: u64, depth: u32, s: &Summary<R>, engine: EngineCalls) -> FuzzJson {
        let (root, witness, position_check) = match &s.finding {
            None => (None, None, None),
            Some(Finding::Moves(w)) => (Some(w.line.root_text(rules)), Some(WitnessJson::new(rules, w)), None),
            Some(Finding::Position(f)) => (Some(f.line.root_text(rules)), None, Some(PositionCheckJson::new(rules, f))),
        };
        FuzzJson {
            status: if s.finding.is_some() { "mismatch" } else { "ok" },
            variant: rules.variant(),
            seed,
            depth,
            positions: s.positions,
            games: s.games,
            positions_per_second: (speed(s) * 10.0).round() / 10.0,
            engine,
            root,
            witness,
            position_check,
            skipped_roots: None,
            seconds: s.elapsed.as_secs_f64(),
        }
    }
}

/// The headline: what was found, after how much work, with the seed.
pub fn headline<R: Rules>(seed: u64, s: &Summary<R>) -> String {
    let what = match &s.finding {
        None => "no difference",
        Some(Finding::Moves(_)) => "the engine's moves differ from ours",
        Some(Finding::Position(_)) => "the engine's position differs from ours",
    };
    format!(
        "{what} in {} positions of {} games ({:.2} s, {:.0} positions/s, seed {seed})",
        s.positions,
        s.games,
        s.elapsed.as_secs_f64(),
        speed(s)
    )
}

/// The finding as text (empty when there is none).
pub fn finding_text<R: Rules>(rules: &R, s: &Summary<R>) -> String {
    let root = |line: &Line<R>| format!("root:        {}\n", line.root_text(rules));
    match &s.finding {
        None => String::new(),
        Some(Finding::Moves(w)) => format!("{}first wrong position:\n{}", root(&w.line), witness_text(rules, w, "  ")),
        Some(Finding::Position(f)) => format!("{}{}", root(&f.line), PositionCheckJson::new(rules, f).text()),
    }
}

/// The run as a JUnit report: one test case, failed with the finding.
pub fn junit_xml<R: Rules>(rules: &R, seed: u64, s: &Summary<R>) -> String {
    let result = match &s.finding {
        None => CaseResult::Passed,
        Some(_) => CaseResult::Failed { message: headline(seed, s), details: finding_text(rules, s) },
    };
    let case = Case {
        name: format!("fuzz seed {seed}, {} positions", s.positions),
        order: (0, 0),
        seconds: s.elapsed.as_secs_f64(),
        result,
    };
    junit::xml(&[junit::Suite { name: format!("chesstool fuzz ({})", rules.name()), cases: vec![case] }])
}
