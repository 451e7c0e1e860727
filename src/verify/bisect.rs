//! Bisection, for any game: from a position where an engine's perft
//! disagrees with a reference, descend move by move to the first position
//! whose move list is wrong. Positions are always given to the engine as the
//! root plus the list of moves from it, never as a new position, so history
//! bugs (castling rights, e.p. squares) show the way they do in games.
//!
//! At each step a missing, extra or repeated move ends the hunt (the
//! depth-1 lists differ there); otherwise the smallest differing subtree is
//! entered.

use super::diff::{diff_divides, DiffError, DivideDiff, Side};
use crate::engines::{Divide, Divider, EngineError, Line};
use crate::rules::Rules;
use std::time::{Duration, Instant};

/// A failure of one side while comparing.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The engine under test failed to answer.
    #[error("{0}")]
    Engine(#[source] EngineError),
    /// The reference engine failed to answer.
    #[error("reference: {0}")]
    Reference(#[source] EngineError),
    /// A divide that cannot be compared. If the side at fault is text the
    /// user gave (a saved divide), an input error that names where in it.
    #[error("{}", match user_text { Some(at) => format!("{at}: {}", error.what()), None => error.to_string() })]
    Diff {
        /// Why the divides cannot be compared (boxed: it is large, and
        /// every `Result` of the hunt carries this type).
        error: Box<DiffError>,
        /// Where the fault is (`paste.txt: line 3`), if the side at fault is
        /// text the user gave.
        user_text: Option<String>,
    },
    /// The depth asked for is more than the game allows.
    #[error("depth {depth} is more than the {max} this game allows")]
    TooDeep {
        /// The depth asked for.
        depth: u32,
        /// The game's maximum depth.
        max: u32,
    },
}

impl VerifyError {
    /// True if an engine (or the reference engine) misbehaved (exit 3);
    /// false for usage or input errors such as an unreadable saved divide or
    /// a command that cannot be started (exit 2).
    pub fn is_engine_failure(&self) -> bool {
        match self {
            VerifyError::Engine(e) | VerifyError::Reference(e) => e.is_engine_failure(),
            VerifyError::Diff { user_text, .. } => user_text.is_none(),
            VerifyError::TooDeep { .. } => false,
        }
    }

    /// True if a side cannot be asked about the root at all (it lacks an
    /// option the root needs): nothing was compared.
    pub fn is_unsupported(&self) -> bool {
        matches!(self, VerifyError::Engine(e) | VerifyError::Reference(e) if e.is_unsupported())
    }

    /// The side at fault (the engine for a depth too deep).
    pub fn side(&self) -> Side {
        match self {
            VerifyError::Engine(_) | VerifyError::TooDeep { .. } => Side::Engine,
            VerifyError::Reference(_) => Side::Reference,
            VerifyError::Diff { error, .. } => error.side(),
        }
    }
}

/// Where the hunt ended.
pub struct Witness<R: Rules> {
    /// The root and the moves from it to the wrong position.
    pub line: Line<R>,
    /// The depth of the divide that showed the difference there.
    pub depth: u32,
    /// How the two divides differ there.
    pub diff: DivideDiff<R::Move>,
    /// Set when the witness is not a plain missing/extra list (an engine
    /// that prints only totals, one whose counts contradict each other).
    pub note: Option<String>,
    /// After a bisection: `Some(true)` if the engine is right about the
    /// witness position given alone (its text, no moves), so the fault is in
    /// making moves or in state kept across them, not in the generator;
    /// `Some(false)` if it is wrong there too; `None` if not asked (no
    /// bisection) or the engine could not answer.
    pub history_dependent: Option<bool>,
    /// After a bisection with a line from the game's start to the root
    /// ([`Checker::origin`]): `Some(true)` if the engine is right about the
    /// witness position reached by all the moves from the start, `Some(false)`
    /// if it is wrong there too; `None` if there is no such line.
    pub from_start: Option<bool>,
}

impl<R: Rules> Clone for Witness<R> {
    fn clone(&self) -> Self {
        Witness {
            line: self.line.clone(),
            depth: self.depth,
            diff: self.diff.clone(),
            note: self.note.clone(),
            history_dependent: self.history_dependent,
            from_start: self.from_start,
        }
    }
}

impl<R: Rules> std::fmt::Debug for Witness<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Witness")
            .field("line", &self.line)
            .field("depth", &self.depth)
            .field("diff", &self.diff)
            .field("note", &self.note)
            .field("history_dependent", &self.history_dependent)
            .field("from_start", &self.from_start)
            .finish()
    }
}

/// The result of comparing (and perhaps bisecting) from one position.
pub struct Report<R: Rules> {
    /// The differences at the starting position, at `root_depth`.
    pub root: DivideDiff<R::Move>,
    /// The depth of `root`: the first that differs, or the depth asked for.
    pub root_depth: u32,
    /// `None` if engine and reference agree.
    pub witness: Option<Witness<R>>,
}

impl<R: Rules> Clone for Report<R> {
    fn clone(&self) -> Self {
        Report { root: self.root.clone(), root_depth: self.root_depth, witness: self.witness.clone() }
    }
}

impl<R: Rules> std::fmt::Debug for Report<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Report")
            .field("root", &self.root)
            .field("root_depth", &self.root_depth)
            .field("witness", &self.witness)
            .finish()
    }
}

/// Where a hunt is, for live progress.
#[derive(Debug, Clone)]
pub struct Step {
    /// The depth about to be compared.
    pub depth: u32,
    /// The moves from the start, in the game's notation.
    pub path: Vec<String>,
    /// Divides asked of the engine under test so far.
    pub engine_calls: u32,
    /// Time spent waiting for the engine under test so far.
    pub engine_wait: Duration,
}

/// A move line of a live answer: which side printed it, the move, its count.
pub type OnLine<'a> = dyn Fn(Side, &str, u64) + Sync + 'a;

/// Called before every comparison.
pub type OnStep<'a> = dyn FnMut(&Step) + 'a;

/// An engine, a reference and how often each was asked.
pub struct Checker<'a, R: Rules> {
    /// The game both sides play.
    pub rules: &'a R,
    /// The engine under test.
    pub engine: &'a mut dyn Divider<R>,
    /// The engine it is compared with (usually `Builtin`).
    pub reference: &'a mut dyn Divider<R>,
    /// How many divides the engine under test was asked for.
    pub engine_calls: u32,
    /// How many divides the reference was asked for.
    pub reference_calls: u32,
    /// Time spent waiting for the engine under test.
    pub engine_wait: Duration,
    /// The longest the engine under test took for one answer.
    pub engine_slowest: Duration,
    /// The line from the game's start (a root given to a run) to the root
    /// of the lines checked next, where one is known: the layer test then
    /// asks the witness position a third way, from the start by moves only.
    pub origin: Option<Line<R>>,
    /// The shallowest depth either side is asked (`--min-depth`; 1 by
    /// default): for an engine that cannot answer shallower, the hunt
    /// stops at this depth and its witness says so.
    pub min_depth: u32,
    on_step: Option<Box<OnStep<'a>>>,
    on_line: Option<&'a OnLine<'a>>,
}

impl<'a, R: Rules> Checker<'a, R> {
    /// A checker with no calls made, no progress callbacks.
    pub fn new(rules: &'a R, engine: &'a mut dyn Divider<R>, reference: &'a mut dyn Divider<R>) -> Checker<'a, R> {
        Checker {
            rules,
            engine,
            reference,
            engine_calls: 0,
            reference_calls: 0,
            engine_wait: Duration::ZERO,
            engine_slowest: Duration::ZERO,
            origin: None,
            min_depth: 1,
            on_step: None,
            on_line: None,
        }
    }

    /// Calls `f` before every comparison (for a progress line).
    pub fn on_step(mut self, f: impl FnMut(&Step) + 'a) -> Self {
        self.on_step = Some(Box::new(f));
        self
    }

    /// Calls `f` with every move line as a side prints it (live output).
    /// Our generator then reports root moves one by one instead of in
    /// parallel, so this is for single divides, not for bisection.
    pub fn on_line(mut self, f: &'a OnLine<'a>) -> Self {
        self.on_line = Some(f);
        self
    }

    /// Divides the end of `line` with both sides and compares.
    pub fn compare(&mut self, line: &Line<R>, depth: u32) -> Result<DivideDiff<R::Move>, VerifyError> {
        if let Some(f) = self.on_step.as_mut() {
            f(&Step {
                depth,
                path: line.move_texts(self.rules),
                engine_calls: self.engine_calls,
                engine_wait: self.engine_wait,
            });
        }
        let (engine, reference) = self.ask_both(line, depth)?;
        diff_divides(self.rules, &line.position(self.rules), &engine, &reference).map_err(|error| {
            let printer = match error.side() {
                Side::Engine => &self.engine,
                Side::Reference => &self.reference,
            };
            VerifyError::Diff { user_text: printer.user_text_at(error.printed()), error: Box::new(error) }
        })
    }

    fn ask_both(&mut self, line: &Line<R>, depth: u32) -> Result<(Divide, Divide), VerifyError> {
        self.engine_calls += 1;
        let started = Instant::now();
        let engine = match self.on_line {
            Some(f) => self.engine.divide_each(line, depth, &|m, n| f(Side::Engine, m, n)),
            None => self.engine.divide(line, depth),
        };
        self.engine_wait += started.elapsed();
        if engine.is_ok() {
            self.engine_slowest = self.engine_slowest.max(started.elapsed());
        }
        let engine = engine.map_err(VerifyError::Engine)?;
        self.reference_calls += 1;
        let reference = match self.on_line {
            Some(f) => self.reference.divide_each(line, depth, &|m, n| f(Side::Reference, m, n)),
            None => self.reference.divide(line, depth),
        };
        let reference = reference.map_err(VerifyError::Reference)?;
        Ok((engine, reference))
    }

    /// Compares at `start` and, if `descend`, hunts down the first wrong
    /// position. The hunt deepens from depth 1 to `depth` and starts at the
    /// first depth that differs: a bug that shows shallower than asked costs
    /// only the shallow calls, one that shows only at `depth` a few percent more.
    pub fn check(&mut self, start: &Line<R>, depth: u32, descend: bool) -> Result<Report<R>, VerifyError> {
        self.check_from(start, if descend { self.min_depth } else { depth }, depth, descend)
    }

    /// As `check`, deepening from `first` (a suite whose shallower counts
    /// passed starts at its shallowest failing depth).
    pub fn check_from(
        &mut self,
        start: &Line<R>,
        first: u32,
        depth: u32,
        descend: bool,
    ) -> Result<Report<R>, VerifyError> {
        let max = self.rules.max_depth();
        if depth > max {
            return Err(VerifyError::TooDeep { depth, max });
        }
        let mut root = DivideDiff::default();
        for d in first.max(self.min_depth).min(depth)..=depth {
            root = self.compare(start, d)?;
            if root.is_match() {
                continue;
            }
            let witness = if descend {
                let mut w = self.bisect(start.clone(), d, root.clone())?;
                w.history_dependent = self.history_check(&w);
                w.from_start = self.start_check(&w);
                if w.from_start.is_none() && w.history_dependent == Some(false) {
                    self.probe_fen_reader(&mut w);
                }
                w
            } else {
                Witness {
                    line: start.clone(),
                    depth: d,
                    diff: root.clone(),
                    note: None,
                    history_dependent: None,
                    from_start: None,
                }
            };
            return Ok(Report { root, root_depth: d, witness: Some(witness) });
        }
        Ok(Report { root, root_depth: depth, witness: None })
    }

    /// Asks once more about the witness position alone: its text with no
    /// moves (a FEN for chess). An engine right there but wrong after the
    /// moves has a history bug. A witness at the start position was asked
    /// that way already.
    fn history_check(&mut self, w: &Witness<R>) -> Option<bool> {
        if w.line.moves.is_empty() {
            return Some(false);
        }
        let text = self.rules.position_text(&w.line.position(self.rules));
        let alone = Line::new(self.rules.parse_position(&text).ok()?);
        self.compare(&alone, w.depth).ok().map(|d| d.is_match())
    }

    /// For a witness the engine gets wrong given alone, with no line from
    /// the start or other FEN to it: a probe position with the same
    /// castling field that has a route (`route::probe`). Wrong about the
    /// probe given alone but right about it by moves, the engine reads that
    /// field wrong: the witness is the FEN reader's, and its note says how
    /// that was shown.
    fn probe_fen_reader(&mut self, w: &mut Witness<R>) {
        let Some((probe, route)) = super::route::probe(self.rules, &w.line.position(self.rules)) else { return };
        let alone = self.compare(&Line::new(probe.clone()), w.depth).ok().filter(|d| !d.is_match());
        if alone.is_none() || !self.compare(&route, w.depth).is_ok_and(|d| d.is_match()) {
            return;
        }
        w.from_start = Some(true);
        let shown = format!(
            "the engine is wrong about {} given as its FEN too, and right about it reached by {} from {}",
            self.rules.position_text(&probe),
            route.move_texts(self.rules).join(" "),
            route.root_text(self.rules)
        );
        w.note = Some(match w.note.take() {
            Some(note) => format!("{note}; {shown}"),
            None => shown,
        });
    }

    /// Asks about the witness position a third way: from the game's start
    /// ([`Checker::origin`]) by all the moves, no FEN but the start's (the
    /// same question as the witness's own when its line starts there); with
    /// no line from the start, by moves from another FEN (`route`).
    fn start_check(&mut self, w: &Witness<R>) -> Option<bool> {
        let Some(origin) = self.origin.clone() else {
            // No line from the start: for a witness the engine gets wrong
            // given alone, a line from another FEN whose reading cannot go
            // wrong the same way, where one is known.
            if w.history_dependent != Some(false) {
                return None;
            }
            let route = super::route::by_moves(self.rules, &w.line.position(self.rules))?;
            // Right that way proves the FEN reader; wrong proves nothing (the
            // other FEN may be misread too).
            return self.compare(&route, w.depth).ok().map(|d| d.is_match()).filter(|&right| right);
        };
        if origin.moves.is_empty() {
            // The witness's line is the line from the start: wrong there
            // (unless it is the start itself: nothing to tell then).
            return (!w.line.moves.is_empty()).then_some(false);
        }
        let mut line = origin;
        line.moves.extend_from_slice(&w.line.moves);
        self.compare(&line, w.depth).ok().map(|d| d.is_match())
    }

    fn bisect(
        &mut self,
        mut line: Line<R>,
        mut depth: u32,
        mut diff: DivideDiff<R::Move>,
    ) -> Result<Witness<R>, VerifyError> {
        loop {
            let witness = |line: Line<R>, depth, diff, note: Option<String>| Witness {
                line,
                depth,
                diff,
                note,
                history_dependent: None,
                from_start: None,
            };
            let floor = self.min_depth.max(1);
            let at_floor = (floor > 1 && depth <= floor)
                .then(|| format!("depth {depth}: the engine is not asked below --min-depth {floor}"));
            if diff.lists_differ() {
                // The move list is wrong here: the shallowest divide that
                // shows it is the witness (a suite's hunt starts deep).
                // An engine that cannot answer shallower keeps the deeper one.
                if depth > floor {
                    if let Some(shallow) = self.compare(&line, floor).ok().filter(DivideDiff::lists_differ) {
                        let note = (floor > 1)
                            .then(|| format!("depth {floor}: the engine is not asked below --min-depth {floor}"));
                        return Ok(witness(line, floor, shallow, note));
                    }
                }
                return Ok(witness(line, depth, diff, at_floor));
            }
            if let Some(note) = at_floor {
                let note = format!("{note}; the moves whose counts differ lead to the wrong position");
                return Ok(witness(line, depth, diff, Some(note)));
            }
            if depth <= 1 {
                let note = if diff.engine_total_only {
                    format!(
                        "the engine prints only totals: {} legal moves here, the reference {}; print a divide to see which",
                        diff.engine_total, diff.reference_total
                    )
                } else {
                    "the same moves, but counts other than 1 at depth 1".to_string()
                };
                return Ok(witness(line, depth, diff, Some(note)));
            }
            let per_move = !diff.engine_total_only && !diff.reference_total_only;
            let mut candidates: Vec<(R::Move, u64)> = if per_move {
                diff.counts.iter().filter_map(|c| c.legal.map(|m| (m, c.reference))).collect()
            } else if !diff.reference_counts.is_empty() {
                diff.reference_counts.clone()
            } else {
                self.rules.legal_moves(&line.position(self.rules)).into_iter().map(|m| (m, 0)).collect()
            };
            if candidates.is_empty() {
                let note = format!(
                    "every move has the same count, but the engine's total {} is not the reference's {} (its total is not the sum of its moves?)",
                    diff.engine_total, diff.reference_total
                );
                return Ok(witness(line, depth, diff, Some(note)));
            }
            // Smallest subtree first; ties in the game's move order of text
            // for reproducible runs.
            let pos = line.position(self.rules);
            let mut keyed: Vec<(u64, String, R::Move)> =
                candidates.drain(..).map(|(m, n)| (n, self.rules.move_text(&pos, m), m)).collect();
            keyed.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
            let mut next = None;
            for (_, _, m) in keyed {
                let child = line.child(m);
                let child_diff = self.compare(&child, depth - 1)?;
                if !child_diff.is_match() {
                    next = Some((child, child_diff));
                    break;
                }
            }
            match next {
                Some((child, child_diff)) => {
                    line = child;
                    depth -= 1;
                    diff = child_diff;
                }
                None => {
                    let note = if per_move {
                        "the engine's counts here disagree with its own divides one move further (hash or state bug?)"
                    } else {
                        "the totals differ here, but every move's subtree agrees one move further"
                    };
                    return Ok(witness(line, depth, diff, Some(note.to_string())));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Chess;
    use crate::engines::Builtin;
    use crate::Position;
    use std::sync::Arc;

    /// Our generator, but blind to en passant.
    struct NoEnPassant;

    impl Divider<Chess> for NoEnPassant {
        fn name(&self) -> String {
            "no-ep".into()
        }

        fn divide(&mut self, line: &Line<Chess>, depth: u32) -> Result<Divide, EngineError> {
            fn count(pos: &Position, depth: u32) -> u64 {
                let moves = pos.legal_moves().iter().copied().filter(|m| !m.is_en_passant()).collect::<Vec<_>>();
                if depth == 1 {
                    return moves.len() as u64;
                }
                moves.iter().map(|&m| count(&pos.play(m), depth - 1)).sum()
            }
            let pos = line.position(&Chess::new());
            let moves: Vec<(String, u64)> = pos
                .legal_moves()
                .iter()
                .filter(|m| !m.is_en_passant())
                .map(|&m| (m.to_uci(false), if depth == 1 { 1 } else { count(&pos.play(m), depth - 1) }))
                .collect();
            Ok(Divide { total: Some(moves.iter().map(|(_, n)| n).sum()), moves, repeated: Vec::new() })
        }
    }

    #[test]
    fn finds_a_missing_en_passant_capture() {
        let chess = Chess::new();
        let mut engine = NoEnPassant;
        let mut reference = Builtin::new(Arc::new(Chess::new()));
        let steps = std::cell::Cell::new(0);
        let mut checker = Checker::new(&chess, &mut engine, &mut reference).on_step(|_| steps.set(steps.get() + 1));
        let start = Line::new(Position::startpos());
        let report = checker.check(&start, 5, true).unwrap();
        let calls = checker.engine_calls;
        drop(checker);
        assert_eq!(steps.get(), calls);
        let w = report.witness.unwrap();
        assert_eq!(w.diff.missing.len(), 1);
        assert!(w.diff.missing[0].hint.as_deref().unwrap_or_default().starts_with("en passant capture of the pawn on"));
        assert!(w.diff.extra.is_empty());
        assert_eq!(w.depth, 1);
        assert!(w.line.position(&chess).ep_square().is_some());
    }

    #[test]
    fn builtin_against_itself_matches() {
        let chess = Chess::new();
        let (mut a, mut b) = (Builtin::new(Arc::new(Chess::new())), Builtin::new(Arc::new(Chess::new())));
        let mut checker = Checker::new(&chess, &mut a, &mut b);
        let report = checker.check(&Line::new(Position::startpos()), 3, true).unwrap();
        assert!(report.witness.is_none() && report.root.is_match());
        assert_eq!(checker.engine_calls, 3);
        let err = checker.check(&Line::new(Position::startpos()), 21, true).unwrap_err();
        assert!(matches!(err, VerifyError::TooDeep { depth: 21, max: 20 }), "{err}");
    }
}
