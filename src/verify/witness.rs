//! What `fuzz` does with a witness before it reports it: the shortest line
//! that still shows the engine wrong, the layer of the engine at fault, and
//! a cause, so that one run can tell its distinct bugs apart.

use super::bisect::{Checker, VerifyError, Witness};
use super::diff::DivideDiff;
use crate::engines::Line;
use crate::rules::Rules;
use std::collections::BTreeSet;

/// The part of an engine that a witness blames, from the witness position
/// asked three ways: as the root and the moves (the witness itself), as its
/// FEN alone, and from the game's start by the moves, where that line is
/// known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// Wrong about the position given alone (and from the start, where
    /// asked): the move generator.
    MoveGenerator,
    /// Wrong about the position given as its FEN, right when it is reached
    /// from the start by moves: reading the FEN.
    FenReader,
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
            Fault::FenReader => {
                "the FEN reader (wrong about the position given as its FEN, right when it is reached by moves)"
                    .to_string()
            }
            Fault::MakeMove => "make/unmake (right about the position alone, wrong after the moves)".to_string(),
            Fault::PositionCommand(what) => format!("the `position ... moves` command: {what}"),
        }
    }

    /// A short name for JSON: `movegen`, `fen-reader`, `make-move`, `position-command`.
    pub fn name(&self) -> &'static str {
        match self {
            Fault::MoveGenerator => "movegen",
            Fault::FenReader => "fen-reader",
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

/// The layer at fault, from the three answers. Wrong about the position
/// alone: the move generator, or the FEN reader when the engine is right
/// from the start by moves. Right alone: a history-dependent witness whose
/// engine list is exactly our list for the other side to move, or for a
/// position earlier on the line, blames the engine's reading of `position
/// ... moves`, and so does one right from the start by moves (only the
/// root's FEN with moves after it goes wrong); else make/unmake.
pub fn fault<R: Rules>(rules: &R, w: &Witness<R>) -> Fault {
    match (w.history_dependent, w.from_start) {
        (Some(true), _) => {}
        (Some(false), Some(true)) => return Fault::FenReader,
        _ => return Fault::MoveGenerator,
    }
    if w.depth == 1 && w.diff.lists_differ() {
        if let Some((_, what)) = explaining_position(rules, w) {
            return Fault::PositionCommand(what);
        }
    }
    if w.from_start == Some(true) && !w.line.moves.is_empty() {
        return Fault::PositionCommand(
            "it is right about the position from its FEN alone and from the start by moves, wrong only from \
             the root's FEN with the moves after it (does it read the moves before the position?)"
                .to_string(),
        );
    }
    Fault::MakeMove
}

/// The position the engine answered for instead of the witness's (the
/// other side to move, or a position earlier on the line), with the words
/// that say which: its list is that position's list, give or take junk
/// moves that are legal in neither (`explained_by`).
pub fn explaining_position<R: Rules>(rules: &R, w: &Witness<R>) -> Option<(R::Position, String)> {
    let pos = w.line.position(rules);
    let listed = engine_list(rules, &pos, &w.diff);
    let list_of = |p: &R::Position| -> BTreeSet<String> {
        rules.legal_moves(p).into_iter().map(|m| rules.move_text(p, m)).collect()
    };
    let ours = list_of(&pos);
    if let Some(other) = rules.with_other_side_to_move(&pos) {
        if explained_by(&listed, &list_of(&other), &ours) {
            return Some((other, "it lists the moves of the other side".to_string()));
        }
    }
    let mut earlier = w.line.root.clone();
    let n = w.line.moves.len();
    for (i, &m) in w.line.moves.iter().enumerate() {
        if explained_by(&listed, &list_of(&earlier), &ours) {
            let back = n - i;
            let plies = if back == 1 { "1 ply".to_string() } else { format!("{back} plies") };
            return Some((
                earlier,
                format!("it lists the moves of the position {plies} before, as if the last moves were not played"),
            ));
        }
        earlier = rules.play(&earlier, m);
    }
    None
}

/// Whether the engine's list `listed` is the list `other` of another
/// position, give or take junk: exactly, or holding at least four fifths
/// of `other`'s moves and sharing more with it than with our list `ours`
/// (an engine that answers for the wrong position also lists moves legal
/// in neither, as a king capture or a pawn onto its own piece).
fn explained_by(listed: &BTreeSet<String>, other: &BTreeSet<String>, ours: &BTreeSet<String>) -> bool {
    if listed == other {
        return true;
    }
    let with_other = listed.intersection(other).count();
    let with_ours = listed.intersection(ours).count();
    with_other > 0 && with_other * 5 >= other.len() * 4 && with_other > with_ours
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

/// The cause of a witness, for telling a run's bugs apart: one
/// explanation, one cause. A layer other than the move generator is the
/// cause by itself (one position-command fault, one FEN reader, one
/// make/unmake, whatever moves each shows wrong); for the move generator,
/// the rule the differences break, without the squares and pieces that
/// differ from one position to the next. A move the engine prints in
/// another form than ours (with a promotion it must not have, or without
/// one it needs: `a6a7q` for `a6a7`, `a7a8` for `a7a8q`) is named by the
/// rule both hints are about, whichever pawn showed it.
pub fn cause<R: Rules>(w: &Witness<R>, fault: &Fault) -> String {
    match fault {
        Fault::PositionCommand(_) => {
            return "position command: the engine answers for another position than the one sent".to_string()
        }
        Fault::FenReader => return "FEN reader: wrong about a position given as its FEN, right by moves".to_string(),
        Fault::MakeMove => return "make/unmake: right about a position given alone, wrong after moves".to_string(),
        Fault::MoveGenerator => {}
    }
    if !w.diff.repeated.is_empty() {
        "a move listed twice".to_string()
    } else if let Some(rule) = misprinted_rule(&w.diff) {
        rule
    } else if let Some(m) = w.diff.missing.first() {
        format!("missing {}", rule_of(m.hint.as_deref().unwrap_or("move")))
    } else if let Some(e) = w.diff.extra.first() {
        format!("extra {}", rule_of(e.hint.as_deref().unwrap_or("move")))
    } else {
        "wrong counts".to_string()
    }
}

/// The rules of every hint of a witness (`rule_of`), to tell whether two
/// witnesses break the same rules.
pub fn rules_of<R: Rules>(w: &Witness<R>) -> BTreeSet<String> {
    let missing = w.diff.missing.iter().filter_map(|m| m.hint.as_deref());
    let extra = w.diff.extra.iter().filter_map(|e| e.hint.as_deref());
    missing.chain(extra).map(rule_of).collect()
}

/// The rule of a move that is missing in our form and extra in the
/// engine's, the two differing only by a last letter (a promotion or
/// gating suffix): `promotion in the wrong place` when a hint of the pair
/// speaks of promotion.
fn misprinted_rule<M>(diff: &DivideDiff<M>) -> Option<String> {
    let pairs = |a: &str, b: &str| a.len() == b.len() + 1 && a.starts_with(b);
    let hints = diff.missing.iter().flat_map(|m| {
        diff.extra
            .iter()
            .filter(|e| pairs(&m.mv, &e.mv) || pairs(&e.mv, &m.mv))
            .map(move |e| [m.hint.as_deref().unwrap_or(""), e.hint.as_deref().unwrap_or("")])
    });
    let mut paired = false;
    for [missing, extra] in hints {
        if missing.contains("promot") || extra.contains("promot") {
            return Some(
                "promotion in the wrong place (moves listed with a promotion they must not have, or without one they need)"
                    .to_string(),
            );
        }
        paired = true;
    }
    paired.then(|| "moves listed with a suffix they must not have, or without one they need".to_string())
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

    use crate::verify::diff::{Extra, Missing};

    fn missing(mv: &str, hint: &str) -> Missing {
        Missing { mv: mv.into(), reference: 1, hint: Some(hint.into()), marks: Vec::new() }
    }

    fn extra(mv: &str, hint: &str) -> Extra {
        Extra { mv: mv.into(), printed: mv.into(), engine: 1, legal: false, hint: Some(hint.into()), marks: Vec::new() }
    }

    /// A promotion rank off by one: the same rule whichever pawn shows it.
    #[test]
    fn a_move_printed_in_another_form_is_named_by_its_rule() {
        let seventh: DivideDiff<()> = DivideDiff {
            missing: vec![missing("a7a8q", "promotion piece missing (queen)")],
            extra: vec![extra("a7a8", "promotion piece missing (a pawn reaching a8 on the last rank must promote)")],
            ..DivideDiff::default()
        };
        let sixth: DivideDiff<()> = DivideDiff {
            missing: vec![missing("a6a7", "pawn move out of check")],
            extra: vec![extra("a6a7q", "promotes where no promotion is possible (a7 is not on the last rank)")],
            ..DivideDiff::default()
        };
        let a = misprinted_rule(&seventh).unwrap();
        assert_eq!(Some(&a), misprinted_rule(&sixth).as_ref());
        assert!(a.starts_with("promotion in the wrong place"), "{a}");
        // Missing underpromotions alone are another rule.
        let under: DivideDiff<()> =
            DivideDiff { missing: vec![missing("a7a8n", "promotion piece missing (knight)")], ..DivideDiff::default() };
        assert_eq!(misprinted_rule(&under), None);
    }

    fn set(moves: &str) -> BTreeSet<String> {
        moves.split_whitespace().map(str::to_string).collect()
    }

    /// Another position's list explains the engine's, with junk beside it,
    /// but never a list that is ours with moves left out.
    #[test]
    fn another_positions_list_explains_the_engines_give_or_take_junk() {
        let ours = set("a2a3 a2a4 b1c3 b1a3 g1f3 g1h3");
        let theirs = set("a7a6 a7a5 b8c6 b8a6 g8f6 g8h6");
        assert!(explained_by(&theirs, &theirs, &ours));
        let with_junk = set("a7a6 a7a5 b8c6 b8a6 g8f6 e8e7 e8d7 e8f7");
        assert!(explained_by(&with_junk, &theirs, &ours));
        let too_little = set("a7a6 e8e7 e8d7 e8f7");
        assert!(!explained_by(&too_little, &theirs, &ours));
        let ours_short = set("a2a3 a2a4 b1c3 b1a3 g1f3");
        assert!(!explained_by(&ours_short, &ours, &ours));
        assert!(!explained_by(&ours_short, &theirs, &ours));
    }

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
