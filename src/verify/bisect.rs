//! Bisection: from a position where an engine's perft disagrees with a
//! reference, descend move by move to the first position whose move list is
//! wrong. Positions are always given to the engine as the root plus the list
//! of moves from it, never as a new FEN, so history bugs (castling rights,
//! e.p. squares) show the way they do in games.
//!
//! At each step a missing or extra move ends the hunt (the depth-1 lists
//! differ there); otherwise the smallest differing subtree is entered.

use super::diff::{diff_divides, DiffError, DivideDiff, Side};
use crate::engines::{Divide, Divider, EngineError, Line};
use crate::Move;

/// A failure of one side while comparing.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error("{0}")]
    Engine(#[source] EngineError),
    #[error("reference: {0}")]
    Reference(#[source] EngineError),
    #[error(transparent)]
    Diff(#[from] DiffError),
}

impl VerifyError {
    /// True if an engine (or the reference engine) misbehaved; false for
    /// usage or input errors such as an unreadable saved divide.
    pub fn is_engine_failure(&self) -> bool {
        match self {
            VerifyError::Engine(e) | VerifyError::Reference(e) => e.is_engine_failure(),
            VerifyError::Diff(_) => true,
        }
    }

    pub fn side(&self) -> Side {
        match self {
            VerifyError::Engine(_) => Side::Engine,
            VerifyError::Reference(_) => Side::Reference,
            VerifyError::Diff(d) => d.side(),
        }
    }
}

/// Where the hunt ended.
#[derive(Debug, Clone)]
pub struct Witness {
    /// The root and the moves from it to the wrong position.
    pub line: Line,
    /// The depth of the divide that showed the difference there.
    pub depth: u32,
    pub diff: DivideDiff,
    /// Set when the witness is not a plain missing/extra list (an engine
    /// that prints only totals, one whose counts contradict each other).
    pub note: Option<String>,
}

/// The result of comparing (and perhaps bisecting) from one position.
#[derive(Debug, Clone)]
pub struct Report {
    /// The differences at the starting position, at `root_depth`.
    pub root: DivideDiff,
    /// The depth of `root`: the first that differs, or the depth asked for.
    pub root_depth: u32,
    /// `None` if engine and reference agree.
    pub witness: Option<Witness>,
}

/// An engine, a reference and how often each was asked.
pub struct Checker<'a> {
    pub engine: &'a mut dyn Divider,
    pub reference: &'a mut dyn Divider,
    pub engine_calls: u32,
    pub reference_calls: u32,
}

impl<'a> Checker<'a> {
    pub fn new(engine: &'a mut dyn Divider, reference: &'a mut dyn Divider) -> Checker<'a> {
        Checker { engine, reference, engine_calls: 0, reference_calls: 0 }
    }

    /// Divides the end of `line` with both sides and compares.
    pub fn compare(&mut self, line: &Line, depth: u32) -> Result<DivideDiff, VerifyError> {
        let (engine, reference) = self.ask_both(line, depth)?;
        Ok(diff_divides(&line.position(), &engine, &reference)?)
    }

    fn ask_both(&mut self, line: &Line, depth: u32) -> Result<(Divide, Divide), VerifyError> {
        self.engine_calls += 1;
        let engine = self.engine.divide(line, depth).map_err(VerifyError::Engine)?;
        self.reference_calls += 1;
        let reference = self.reference.divide(line, depth).map_err(VerifyError::Reference)?;
        Ok((engine, reference))
    }

    /// Compares at `start` and, if `descend`, hunts down the first wrong position.
    /// Compares at `start` and, if `descend`, hunts down the first wrong
    /// position. The hunt deepens from depth 1 to `depth` and starts at the
    /// first depth that differs: a bug that shows shallower than asked costs
    /// only the shallow calls, one that shows only at `depth` a few percent more.
    pub fn check(&mut self, start: &Line, depth: u32, descend: bool) -> Result<Report, VerifyError> {
        let first = if descend { 1 } else { depth };
        let mut root = DivideDiff::default();
        for d in first..=depth {
            root = self.compare(start, d)?;
            if root.is_match() {
                continue;
            }
            let witness = if descend {
                self.bisect(start.clone(), d, root.clone())?
            } else {
                Witness { line: start.clone(), depth: d, diff: root.clone(), note: None }
            };
            return Ok(Report { root, root_depth: d, witness: Some(witness) });
        }
        Ok(Report { root, root_depth: depth, witness: None })
    }

    fn bisect(&mut self, mut line: Line, mut depth: u32, mut diff: DivideDiff) -> Result<Witness, VerifyError> {
        loop {
            let witness = |line: Line, depth, diff, note: Option<String>| Witness { line, depth, diff, note };
            if diff.lists_differ() {
                return Ok(witness(line, depth, diff, None));
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
            let mut candidates: Vec<(Move, u64)> = if per_move {
                diff.counts.iter().filter_map(|c| c.mv.map(|m| (m, c.reference))).collect()
            } else if !diff.reference_counts.is_empty() {
                diff.reference_counts.clone()
            } else {
                line.position().legal_moves().iter().map(|&m| (m, 0)).collect()
            };
            if candidates.is_empty() {
                let note = format!(
                    "every move has the same count, but the engine's total {} is not the reference's {} (its total is not the sum of its moves?)",
                    diff.engine_total, diff.reference_total
                );
                return Ok(witness(line, depth, diff, Some(note)));
            }
            // Smallest subtree first; ties in UCI order for reproducible runs.
            candidates.sort_by_key(|&(m, n)| (n, m.to_uci(line.chess960())));
            let mut next = None;
            for &(m, _) in &candidates {
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
    use crate::engines::Builtin;
    use crate::Position;

    /// Our generator, but blind to en passant.
    struct NoEnPassant;

    impl Divider for NoEnPassant {
        fn name(&self) -> String {
            "no-ep".into()
        }

        fn divide(&mut self, line: &Line, depth: u32) -> Result<Divide, EngineError> {
            fn count(pos: &Position, depth: u32) -> u64 {
                let moves = pos.legal_moves().iter().copied().filter(|m| !m.is_en_passant()).collect::<Vec<_>>();
                if depth == 1 {
                    return moves.len() as u64;
                }
                moves.iter().map(|&m| count(&pos.play(m), depth - 1)).sum()
            }
            let pos = line.position();
            let moves: Vec<(String, u64)> = pos
                .legal_moves()
                .iter()
                .filter(|m| !m.is_en_passant())
                .map(|&m| (m.to_uci(false), if depth == 1 { 1 } else { count(&pos.play(m), depth - 1) }))
                .collect();
            Ok(Divide { total: Some(moves.iter().map(|(_, n)| n).sum()), moves })
        }
    }

    #[test]
    fn finds_a_missing_en_passant_capture() {
        let mut engine = NoEnPassant;
        let mut reference = Builtin::default();
        let mut checker = Checker::new(&mut engine, &mut reference);
        let start = Line::new(Position::startpos());
        let report = checker.check(&start, 5, true).unwrap();
        let w = report.witness.unwrap();
        assert_eq!(w.diff.missing.len(), 1);
        assert_eq!(w.diff.missing[0].hint.as_deref(), Some("en passant capture"));
        assert!(w.diff.extra.is_empty());
        assert_eq!(w.depth, 1);
        assert!(w.line.position().ep_square().is_some());
    }

    #[test]
    fn builtin_against_itself_matches() {
        let (mut a, mut b) = (Builtin::default(), Builtin::default());
        let mut checker = Checker::new(&mut a, &mut b);
        let report = checker.check(&Line::new(Position::startpos()), 3, true).unwrap();
        assert!(report.witness.is_none() && report.root.is_match());
        assert_eq!(checker.engine_calls, 3);
    }
}
