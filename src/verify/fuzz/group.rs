//! One bug, one finding: findings that one explanation covers are counted
//! under it. A FEN reader fault is told from a move-generator fault only
//! where the witness can also be reached by moves from the game's start;
//! a witness from a root no moves lead to (a motif case, a given FEN) that
//! breaks the rules a proven FEN-reader witness breaks is the same fault.
//! An engine that fails at random may fail on every retry of one line too:
//! with a failure at random of the same kind, that is no failure of the line.

use super::{Finding, Found};
use crate::rules::Rules;
use crate::verify::witness::{self, Fault};

/// Counts the move-generator findings that may be the FEN reader's (their
/// witness was not asked from the start) and break a rule of the run's
/// FEN-reader finding under that finding, which keeps the first place of
/// the two.
pub fn merge_fen_reader<R: Rules>(found: &mut Vec<Found<R>>) {
    let Some(reader) = found.iter().position(|f| f.fault == Some(Fault::FenReader)) else { return };
    let Finding::Moves(proven) = &found[reader].finding else { return };
    let rules = witness::rules_of(proven);
    let ambiguous = |f: &Found<R>| match (&f.finding, &f.fault) {
        (Finding::Moves(w), Some(Fault::MoveGenerator)) => {
            w.from_start.is_none() && !witness::rules_of(w).is_disjoint(&rules)
        }
        _ => false,
    };
    let covered: Vec<bool> = found.iter().map(ambiguous).collect();
    // The reader's finding moves up to the place of the first it covers.
    let place = covered.iter().position(|&c| c).filter(|&p| p < reader).unwrap_or(reader);
    let merged: u64 = found.iter().zip(&covered).filter(|(_, &c)| c).map(|(f, _)| f.count).sum();
    let mut reader_finding = found.remove(reader);
    reader_finding.count += merged;
    let mut kept: Vec<Found<R>> = found
        .drain(..)
        .zip(covered.iter().enumerate().filter(|&(i, _)| i != reader).map(|(_, c)| *c))
        .filter(|(_, c)| !c)
        .map(|(f, _)| f)
        .collect();
    let place = place - covered[..place].iter().filter(|&&c| c).count();
    kept.insert(place, reader_finding);
    *found = kept;
}

/// Counts the failures on a line under the run's failure at random of the
/// same kind (the retries of a line failed at random too).
pub fn merge_at_random<R: Rules>(found: &mut Vec<Found<R>>) {
    let random_kind = |f: &Found<R>| match &f.finding {
        Finding::Failure(x) if x.at_random => Some(x.kind.clone()),
        _ => None,
    };
    let kinds: Vec<_> = found.iter().filter_map(random_kind).collect();
    for kind in kinds {
        let covered = |f: &Found<R>| matches!(&f.finding, Finding::Failure(x) if !x.at_random && x.kind == kind);
        let merged: u64 = found.iter().filter(|f| covered(f)).map(|f| f.count).sum();
        found.retain(|f| !covered(f));
        if let Some(random) = found.iter_mut().find(|f| random_kind(f).as_ref() == Some(&kind)) {
            random.count += merged;
        }
    }
}
