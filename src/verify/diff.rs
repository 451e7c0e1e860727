//! Comparing two divides of the same position by meaning, for any game:
//! every printed move is read with `Rules::read_move`; what only the engine
//! lists is extra, what only the reference lists is missing; moves on both
//! sides are compared by count. A printed move that cannot be read at all
//! (no notation fits, ambiguous, SAN that matches no legal move) is an
//! error, never an extra move: only a well-formed move that is not legal
//! there is extra. The game gives the hints that say which rule a wrong
//! move breaks.

use crate::engines::{clip, Divide};
use crate::rules::{Hint, ReadMoveError, Rules, SquareMark};

/// Which side of a comparison printed something.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The engine under test.
    Engine,
    /// The reference engine.
    Reference,
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Side::Engine => "engine",
            Side::Reference => "reference",
        })
    }
}

/// A divide that cannot be compared.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiffError {
    /// A side listed one move twice (under two spellings).
    #[error("the {side} listed {}", self.what())]
    Duplicate {
        /// The side that printed it.
        side: Side,
        /// The move, in the game's notation.
        mv: String,
        /// Its first spelling, as printed.
        first: String,
        /// Its second spelling, as printed.
        second: String,
        /// The position, in the game's text form.
        position: String,
    },
    /// A side printed a move that cannot be read in the position.
    #[error("the {side} printed {}", self.what())]
    Unreadable {
        /// The side that printed it.
        side: Side,
        /// The first move that cannot be read, as printed (clipped).
        text: String,
        /// Why the first unreadable move cannot be read.
        error: ReadMoveError,
        /// The position, in the game's text form.
        position: String,
        /// How many printed moves cannot be read.
        unreadable: usize,
        /// How many moves it printed.
        printed: usize,
    },
}

fn note_on_unreadable(unreadable: usize, printed: usize) -> String {
    if unreadable > 1 && unreadable * 2 >= printed {
        format!(" ({unreadable} of its {printed} moves cannot be read here: was it made for another position?)")
    } else if unreadable > 1 {
        format!(" ({unreadable} of its {printed} moves cannot be read here)")
    } else {
        String::new()
    }
}

impl DiffError {
    /// What is wrong, without naming who printed it: a saved divide's
    /// errors name the file and line instead.
    pub fn what(&self) -> String {
        match self {
            DiffError::Duplicate { mv, first, second, position, .. } => {
                format!("{mv} twice (as {first:?} and {second:?}) in {position}")
            }
            DiffError::Unreadable { error, position, unreadable, printed, .. } => format!(
                "a move that cannot be read in {position}: {error}{}",
                note_on_unreadable(*unreadable, *printed)
            ),
        }
    }

    /// The offending move as printed: the second spelling of a duplicate,
    /// the first move that cannot be read.
    pub fn printed(&self) -> &str {
        match self {
            DiffError::Duplicate { second, .. } => second,
            DiffError::Unreadable { text, .. } => text,
        }
    }

    /// The side that printed the divide.
    pub fn side(&self) -> Side {
        match self {
            DiffError::Duplicate { side, .. } | DiffError::Unreadable { side, .. } => *side,
        }
    }
}

/// A move only the reference lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    /// In the game's notation (`Rules::move_text`).
    pub mv: String,
    /// The reference's count for it.
    pub reference: u64,
    /// What kind of move it is (`en passant capture of the pawn on d5`, `promotion piece missing (knight)`, ...).
    pub hint: Option<String>,
    /// The squares the hint names, for a picture to mark.
    pub marks: Vec<(usize, SquareMark)>,
}

/// A move only the engine lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extra {
    /// In the game's notation: our text for a legal move, else the
    /// canonical form of the illegal one.
    pub mv: String,
    /// The move as the engine printed it.
    pub printed: String,
    /// The engine's count for it.
    pub engine: u64,
    /// True if the move is legal by our generator (the reference left it out).
    pub legal: bool,
    /// Which rule the move breaks (`leaves the king in check`, ...).
    pub hint: Option<String>,
    /// The squares the hint names, for a picture to mark.
    pub marks: Vec<(usize, SquareMark)>,
}

/// A move both list, with different counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountDiff<M> {
    /// The move, in the game's notation.
    pub mv: String,
    /// The move, when it is legal here (to descend into).
    pub legal: Option<M>,
    /// The engine's count.
    pub engine: u64,
    /// The reference's count.
    pub reference: u64,
}

/// The differences between two divides of one position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DivideDiff<M> {
    /// Moves only the reference lists.
    pub missing: Vec<Missing>,
    /// Moves only the engine lists.
    pub extra: Vec<Extra>,
    /// Moves both list, with different counts.
    pub counts: Vec<CountDiff<M>>,
    /// The engine's total (printed, else summed).
    pub engine_total: u64,
    /// The reference's total (printed, else summed).
    pub reference_total: u64,
    /// A side printed only a total, so moves could not be compared.
    pub engine_total_only: bool,
    /// The reference printed only a total.
    pub reference_total_only: bool,
    /// Reference counts of its legal moves, for choosing where to descend.
    pub reference_counts: Vec<(M, u64)>,
}

impl<M> Default for DivideDiff<M> {
    fn default() -> Self {
        DivideDiff {
            missing: Vec::new(),
            extra: Vec::new(),
            counts: Vec::new(),
            engine_total: 0,
            reference_total: 0,
            engine_total_only: false,
            reference_total_only: false,
            reference_counts: Vec::new(),
        }
    }
}

impl<M> DivideDiff<M> {
    /// True if the divides agree: same moves, same counts, same totals.
    pub fn is_match(&self) -> bool {
        self.missing.is_empty()
            && self.extra.is_empty()
            && self.counts.is_empty()
            && self.engine_total == self.reference_total
    }

    /// True if the move lists themselves differ (a witness).
    pub fn lists_differ(&self) -> bool {
        !self.missing.is_empty() || !self.extra.is_empty()
    }
}

/// A printed move with its meaning.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Key<M> {
    Legal(M),
    /// Well formed but not legal here: its canonical text.
    Illegal(String),
}

struct Printed<M> {
    key: Key<M>,
    text: String,
    count: u64,
}

/// Reads every move of a divide; two printings of one move, or a move that
/// cannot be read, are errors.
fn read_all<R: Rules>(
    rules: &R,
    pos: &R::Position,
    d: &Divide,
    side: Side,
) -> Result<Vec<Printed<R::Move>>, DiffError> {
    let position = || clip(&rules.position_text(pos));
    let mut out: Vec<Printed<R::Move>> = Vec::with_capacity(d.moves.len());
    let mut unreadable: Option<(ReadMoveError, String)> = None;
    let mut unreadable_count = 0;
    for (text, n) in &d.moves {
        let key = match rules.read_move(pos, text) {
            Ok(m) => Key::Legal(m),
            Err(ReadMoveError::Illegal { canonical: Some(c), .. }) => Key::Illegal(c),
            Err(e) => {
                unreadable_count += 1;
                unreadable.get_or_insert((e, clip(text)));
                continue;
            }
        };
        if let Some(first) = out.iter().find(|p| p.key == key) {
            let mv = match &key {
                Key::Legal(m) => rules.move_text(pos, *m),
                Key::Illegal(s) => s.clone(),
            };
            return Err(DiffError::Duplicate {
                side,
                mv,
                first: clip(&first.text),
                second: clip(text),
                position: position(),
            });
        }
        out.push(Printed { key, text: text.clone(), count: *n });
    }
    match unreadable {
        Some((error, text)) => Err(DiffError::Unreadable {
            side,
            text,
            error,
            position: position(),
            unreadable: unreadable_count,
            printed: d.moves.len(),
        }),
        None => Ok(out),
    }
}

/// Compares the engine's divide of `pos` with the reference's.
pub fn diff_divides<R: Rules>(
    rules: &R,
    pos: &R::Position,
    engine: &Divide,
    reference: &Divide,
) -> Result<DivideDiff<R::Move>, DiffError> {
    let e = read_all(rules, pos, engine, Side::Engine)?;
    let r = read_all(rules, pos, reference, Side::Reference)?;
    let mut diff = DivideDiff {
        engine_total: engine.nodes(),
        reference_total: reference.nodes(),
        engine_total_only: engine.total_only(),
        reference_total_only: reference.total_only(),
        ..DivideDiff::default()
    };
    let text_of = |k: &Key<R::Move>| match k {
        Key::Legal(m) => rules.move_text(pos, *m),
        Key::Illegal(s) => s.clone(),
    };
    for p in &r {
        if let Key::Legal(m) = p.key {
            diff.reference_counts.push((m, p.count));
        }
    }
    if diff.engine_total_only || diff.reference_total_only {
        return Ok(diff);
    }
    for rp in &r {
        match e.iter().find(|ep| ep.key == rp.key) {
            None => {
                let hint = match rp.key {
                    Key::Legal(m) => rules.missing_hint(pos, m),
                    Key::Illegal(_) => None,
                };
                let (hint, marks) = split_hint(hint);
                diff.missing.push(Missing { mv: text_of(&rp.key), reference: rp.count, hint, marks });
            }
            Some(ep) if ep.count != rp.count => {
                let legal = if let Key::Legal(m) = rp.key { Some(m) } else { None };
                diff.counts.push(CountDiff { mv: text_of(&rp.key), legal, engine: ep.count, reference: rp.count });
            }
            Some(_) => {}
        }
    }
    for ep in &e {
        if !r.iter().any(|rp| rp.key == ep.key) {
            let (legal, hint) = match &ep.key {
                Key::Legal(_) => (true, None),
                Key::Illegal(canonical) => (false, rules.extra_hint(pos, canonical)),
            };
            let (hint, marks) = split_hint(hint);
            let printed = clip(&ep.text);
            diff.extra.push(Extra { mv: text_of(&ep.key), printed, engine: ep.count, legal, hint, marks });
        }
    }
    diff.missing.sort_by(|a, b| a.mv.cmp(&b.mv));
    diff.extra.sort_by(|a, b| a.mv.cmp(&b.mv));
    diff.counts.sort_by(|a, b| a.mv.cmp(&b.mv));
    Ok(diff)
}

/// A hint's words and the squares it names, apart.
fn split_hint(hint: Option<Hint>) -> (Option<String>, Vec<(usize, SquareMark)>) {
    hint.map_or((None, Vec::new()), |h| (Some(h.text), h.marks))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Chess;
    use crate::Position;

    fn divide(moves: &[(&str, u64)]) -> Divide {
        Divide { moves: moves.iter().map(|(m, n)| (m.to_string(), *n)).collect(), total: None }
    }

    #[test]
    fn missing_extra_and_counts_by_meaning() {
        let pos = Position::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let reference = divide(&[("b7b8q", 1), ("b7b8r", 1), ("b7b8b", 1), ("b7b8n", 1), ("e1d1", 1), ("e1e2", 1)]);
        let engine = divide(&[("b7b8Q", 1), ("b7b8R", 1), ("b7b8B", 1), ("Ke1-d1", 2), ("e1e2", 1), ("e1f3", 1)]);
        let d = diff_divides(&Chess::new(), &pos, &engine, &reference).unwrap();
        assert_eq!(d.missing.iter().map(|m| m.mv.as_str()).collect::<Vec<_>>(), ["b7b8n"]);
        assert_eq!(d.missing[0].hint.as_deref(), Some("promotion piece missing (knight)"));
        assert_eq!(d.extra.iter().map(|m| m.mv.as_str()).collect::<Vec<_>>(), ["e1f3"]);
        assert_eq!(d.extra[0].hint.as_deref(), Some("the king cannot move like that"));
        assert_eq!(
            d.counts,
            [CountDiff { mv: "e1d1".into(), legal: pos.parse_uci("e1d1").ok(), engine: 2, reference: 1 }]
        );
    }

    #[test]
    fn same_move_twice_in_two_notations_is_an_error() {
        let pos = Position::startpos();
        let engine = divide(&[("e2e4", 1), ("e4", 1)]);
        let err = diff_divides(&Chess::new(), &pos, &engine, &divide(&[("e2e4", 1)])).unwrap_err();
        assert_eq!(err.side(), Side::Engine);
    }

    #[test]
    fn unreadable_moves_are_errors_not_extra_moves() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/1N1NK3 w - - 0 1").unwrap();
        let reference = divide(&[("b1c3", 1)]);
        // Two knights reach c3: `Nc3` is ambiguous.
        let err = diff_divides(&Chess::new(), &pos, &divide(&[("Nc3", 1)]), &reference).unwrap_err();
        assert!(matches!(err, DiffError::Unreadable { error: ReadMoveError::Ambiguous(_), .. }), "{err}");
        // SAN that matches no legal move: which move was meant is unknown.
        let err = diff_divides(&Chess::new(), &pos, &divide(&[("Qd5", 1)]), &reference).unwrap_err();
        assert!(err.to_string().contains("\"Qd5\""), "{err}");
        // Most moves unreadable: a paste of another position.
        let many = divide(&[("Qd5", 1), ("Qe5", 1), ("Nc3", 1), ("b1a3", 1)]);
        let err = diff_divides(&Chess::new(), &pos, &many, &reference).unwrap_err().to_string();
        assert!(err.contains("3 of its 4 moves") && err.contains("another position"), "{err}");
        // Well formed but illegal: extra, in UCI.
        let d = diff_divides(&Chess::new(), &pos, &divide(&[("Nb1-b3", 1), ("b1c3", 1)]), &reference).unwrap();
        assert_eq!(d.extra[0].mv, "b1b3");
    }
}
