//! What `fuzz` does with a witness before it reports it: the shortest line
//! that still shows the engine wrong, the layer of the engine at fault, and
//! a cause, so that one run can tell its distinct bugs apart.

use super::bisect::{Checker, VerifyError, Witness};
use super::diff::DivideDiff;
use crate::engines::Line;
use crate::rules::Rules;
use std::collections::BTreeSet;

/// The part of an engine that a witness blames.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// Wrong about the position given alone: the move generator.
    MoveGenerator,
    /// Right about the position alone, wrong after moves: making or
    /// unmaking moves, or state kept across them.
    MakeMove,
    /// Its answer after `position ... moves` lists the moves of another
    /// position: how it reads that command (the words say which position).
    PositionCommand(String),
}

impl Fault {
    /// One line for reports.
    pub fn text(&self) -> String {
        match self {
            Fault::MoveGenerator => "the move generator (wrong about the position given alone)".to_string(),
            Fault::MakeMove => "make/unmake (right about the position alone, wrong after the moves)".to_string(),
            Fault::PositionCommand(what) => format!("the `position ... moves` command: {what}"),
        }
    }

    /// A short name for JSON: `movegen`, `make-move`, `position-command`.
    pub fn name(&self) -> &'static str {
        match self {
            Fault::MoveGenerator => "movegen",
            Fault::MakeMove => "make-move",
            Fault::PositionCommand(_) => "position-command",
        }
    }
}

/// The line `line` with its root replaced by the position `plies` moves in,
/// read back from its text (as an engine receives a root).
fn suffix<R: Rules>(rules: &R, line: &Line<R>, plies: usize) -> Option<Line<R>> {
    let mut pos = line.root.clone();
    for &m in &line.moves[..plies] {
        pos = rules.play(&pos, m);
    }
    let root = rules.parse_position(&rules.position_text(&pos)).ok()?;
    Some(Line { root, moves: line.moves[plies..].to_vec() })
}

/// The shortest witness of the same bug: the position alone when the
/// engine is wrong there too, else the shortest tail of the line (the
/// position some moves before, given as text, and the moves from there)
/// from which the engine is still wrong at the witness's depth.
pub fn shorten<R: Rules>(checker: &mut Checker<'_, R>, w: Witness<R>) -> Result<Witness<R>, VerifyError> {
    let n = w.line.moves.len();
    if n == 0 {
        return Ok(w);
    }
    // Tails of 0, 1, 2, ... moves; the tail of 0 only when the bisection
    // found the engine wrong about the position alone.
    let first = if w.history_dependent == Some(false) { 0 } else { 1 };
    for len in first..n {
        let Some(line) = suffix(checker.rules, &w.line, n - len) else { continue };
        let diff = checker.compare(&line, w.depth)?;
        if !diff.is_match() {
            let history_dependent = Some(len > 0);
            return Ok(Witness { line, diff, history_dependent, ..w });
        }
    }
    Ok(w)
}

/// The layer at fault. A history-dependent witness whose engine list is
/// exactly our list for the other side to move, or for a position earlier
/// on the line, blames the engine's reading of `position ... moves`.
pub fn fault<R: Rules>(rules: &R, w: &Witness<R>) -> Fault {
    if w.history_dependent != Some(true) {
        return Fault::MoveGenerator;
    }
    if w.depth != 1 || !w.diff.lists_differ() {
        return Fault::MakeMove;
    }
    let pos = w.line.position(rules);
    let listed = engine_list(rules, &pos, &w.diff);
    let list_of = |p: &R::Position| -> BTreeSet<String> {
        rules.legal_moves(p).into_iter().map(|m| rules.move_text(p, m)).collect()
    };
    if let Some(other) = rules.with_other_side_to_move(&pos) {
        if list_of(&other) == listed {
            return Fault::PositionCommand("it lists the moves of the other side".to_string());
        }
    }
    let mut earlier = w.line.root.clone();
    let n = w.line.moves.len();
    for (i, &m) in w.line.moves.iter().enumerate() {
        if list_of(&earlier) == listed {
            let back = n - i;
            let plies = if back == 1 { "1 ply".to_string() } else { format!("{back} plies") };
            return Fault::PositionCommand(format!(
                "it lists the moves of the position {plies} before, as if the last moves were not played"
            ));
        }
        earlier = rules.play(&earlier, m);
    }
    Fault::MakeMove
}

/// The engine's move list at `pos`, from ours and the differences.
fn engine_list<R: Rules>(rules: &R, pos: &R::Position, diff: &DivideDiff<R::Move>) -> BTreeSet<String> {
    let mut list: BTreeSet<String> = rules.legal_moves(pos).into_iter().map(|m| rules.move_text(pos, m)).collect();
    for missing in &diff.missing {
        list.remove(&missing.mv);
    }
    for extra in &diff.extra {
        list.insert(extra.mv.clone());
    }
    list
}

/// The cause of a witness, for telling a run's bugs apart: the layer, then
/// whether a move is missing or extra and the rule its hint names, without
/// the squares and pieces that differ from one position to the next.
pub fn cause<R: Rules>(w: &Witness<R>, fault: &Fault) -> String {
    if let Fault::PositionCommand(what) = fault {
        return format!("position command: {what}");
    }
    let layer = match fault {
        Fault::MakeMove => "after moves: ",
        _ => "",
    };
    let what = if let Some(m) = w.diff.missing.first() {
        format!("missing {}", rule_of(m.hint.as_deref().unwrap_or("move")))
    } else if let Some(e) = w.diff.extra.first() {
        format!("extra {}", rule_of(e.hint.as_deref().unwrap_or("move")))
    } else {
        "wrong counts".to_string()
    };
    format!("{layer}{what}")
}

/// A hint's rule: its words up to the first detail (`:`, `;`, `,`, ` on `,
/// ` from the `, ` by the `, ` with the `), without a
/// one-word parenthesis (`(rook)`) and squares.
fn rule_of(hint: &str) -> String {
    let end = [":", ";", ",", " on ", " from the ", " by the ", " at ", " with the "]
        .iter()
        .filter_map(|cut| hint.find(cut))
        .min()
        .unwrap_or(hint.len());
    let mut rule = &hint[..end];
    if let Some(open) = rule.find(" (") {
        if !rule[open + 2..].trim_end_matches(')').contains(' ') {
            rule = &rule[..open];
        }
    }
    let words: Vec<&str> = rule
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .filter(|w| !w.is_empty() && !is_square(w))
        .collect();
    words.join(" ")
}

fn is_square(word: &str) -> bool {
    let mut chars = word.chars();
    matches!(chars.next(), Some('a'..='p')) && {
        let rest: String = chars.collect();
        !rest.is_empty() && rest.len() <= 2 && rest.chars().all(|c| c.is_ascii_digit())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_of_hints_drop_the_details() {
        assert_eq!(
            rule_of(
                "leaves the king in check (en passant capture: the capturing pawn is pinned, from the queen on d6)"
            ),
            "leaves the king in check en passant capture"
        );
        assert_eq!(rule_of("castles through d8, attacked by the knight on c6"), "castles through");
        assert_eq!(rule_of("en passant capture"), "en passant capture");
        assert_eq!(rule_of("no piece of the side to move on e2"), "no piece of the side to move");
        assert_eq!(rule_of("promotion piece missing (rook)"), "promotion piece missing");
        assert_eq!(rule_of("en passant capture of the pawn on d6"), "en passant capture of the pawn");
        assert_eq!(rule_of("castling kingside with the rook on h1"), "castling kingside");
        assert_eq!(
            rule_of("leaves the king in check (the piece is pinned by the bishop on h8)"),
            "leaves the king in check the piece is pinned"
        );
        assert!(is_square("h10") && is_square("a1") && !is_square("a") && !is_square("and"));
    }
}
