//! Comparing two divides of the same position by meaning, for any game:
//! every printed move is read with `Rules::read_move`; what only the engine
//! lists is extra, what only the reference lists is missing; moves on both
//! sides are compared by count. A printed move that cannot be read at all
//! (no notation fits, ambiguous, SAN that matches no legal move) is an
//! error, never an extra move: only a well-formed move that is not legal
//! there is extra (a coordinate move such as `e4e4f` or `d7d8q` is well
//! formed on any board that has its squares). The game gives the hints that
//! say which rule a wrong move breaks. A move the engine lists twice (the
//! same text, or two spellings of one move) is a finding of its own; a move
//! that is not legal, printed with the count 0, is a note: it adds nothing
//! to the total.

use crate::engines::{clip, Divide};
use crate::rules::{BoardView, Hint, ReadMoveError, Rules, SquareMark};

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
    /// The reference listed one move twice (under two spellings). The
    /// engine under test doing so is a finding ([`Repeated`]), not an error.
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

/// A move the engine lists more than once: the same text again, or
/// another spelling of the same move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repeated {
    /// In the game's notation.
    pub mv: String,
    /// Each printing as printed (clipped), the first first.
    pub printed: Vec<String>,
    /// The count of each printing.
    pub counts: Vec<u64>,
    /// `listed twice` (with the spellings when they differ).
    pub hint: String,
}

impl Repeated {
    fn hint_of(printed: &[String]) -> String {
        let times = match printed.len() {
            2 => "twice".to_string(),
            3 => "three times".to_string(),
            n => format!("{n} times"),
        };
        if printed.iter().all(|p| *p == printed[0]) {
            format!("listed {times}")
        } else {
            let spellings: Vec<String> = printed.iter().map(|p| format!("{p:?}")).collect();
            format!("listed {times}, as {}", spellings.join(" and "))
        }
    }
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
    /// Moves the engine lists more than once.
    pub repeated: Vec<Repeated>,
    /// Moves that are not legal here, printed by the engine with the count
    /// 0 (a generator of pseudo-legal moves that prints them all): they add
    /// nothing to the total, so they are a note, not a difference.
    pub zero_count: Vec<Extra>,
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
            repeated: Vec::new(),
            zero_count: Vec::new(),
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
            && self.repeated.is_empty()
            && self.engine_total == self.reference_total
    }

    /// True if the move lists themselves differ (a witness): a move missing,
    /// extra or listed twice.
    pub fn lists_differ(&self) -> bool {
        !self.missing.is_empty() || !self.extra.is_empty() || !self.repeated.is_empty()
    }

    /// The note on moves printed with the count 0 that are not legal, if
    /// any: `the engine prints 2 moves that are not legal here with the
    /// count 0 (e1c1, e2e5): they add nothing to its total`.
    pub fn zero_count_note(&self) -> Option<String> {
        let n = self.zero_count.len();
        if n == 0 {
            return None;
        }
        let mut shown: Vec<&str> = self.zero_count.iter().take(8).map(|x| x.mv.as_str()).collect();
        if n > shown.len() {
            shown.push("...");
        }
        let moves = if n == 1 { "a move that is not legal" } else { "moves that are not legal" };
        let count = if n == 1 { String::new() } else { format!("{n} ") };
        Some(format!(
            "the engine prints {count}{moves} here with the count 0 ({}): they add nothing to its total",
            shown.join(", ")
        ))
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

/// Every move of a divide read, and the moves it printed more than once.
struct ReadDivide<M> {
    printed: Vec<Printed<M>>,
    repeated: Vec<Repeated>,
}

/// Reads every move of a divide. A move that cannot be read is an error; a
/// move printed again (the same text, or another spelling) is a finding of
/// the engine under test, an error of the reference.
fn read_all<R: Rules>(rules: &R, pos: &R::Position, d: &Divide, side: Side) -> Result<ReadDivide<R::Move>, DiffError> {
    let position = || clip(&rules.position_text(pos));
    let mut out = ReadDivide { printed: Vec::with_capacity(d.moves.len()), repeated: Vec::new() };
    let mut unreadable: Option<(ReadMoveError, String)> = None;
    let mut unreadable_count = 0;
    let text_of = |k: &Key<R::Move>| match k {
        Key::Legal(m) => rules.move_text(pos, *m),
        Key::Illegal(s) => s.clone(),
    };
    for (text, n) in d.moves.iter().chain(&d.repeated) {
        let key = match read_key(rules, pos, text) {
            Ok(key) => key,
            Err(e) => {
                unreadable_count += 1;
                unreadable.get_or_insert((e, clip(text)));
                continue;
            }
        };
        let Some(first) = out.printed.iter().find(|p| p.key == key) else {
            out.printed.push(Printed { key, text: text.clone(), count: *n });
            continue;
        };
        let mv = text_of(&key);
        if side == Side::Reference {
            return Err(DiffError::Duplicate {
                side,
                mv,
                first: clip(&first.text),
                second: clip(text),
                position: position(),
            });
        }
        match out.repeated.iter_mut().find(|r| r.mv == mv) {
            Some(r) => {
                r.printed.push(clip(text));
                r.counts.push(*n);
            }
            None => out.repeated.push(Repeated {
                mv,
                printed: vec![clip(&first.text), clip(text)],
                counts: vec![first.count, *n],
                hint: String::new(),
            }),
        }
    }
    for r in &mut out.repeated {
        r.hint = Repeated::hint_of(&r.printed);
    }
    match unreadable {
        Some((error, text)) => Err(DiffError::Unreadable {
            side,
            text,
            error,
            position: position(),
            unreadable: unreadable_count,
            printed: d.moves.len() + d.repeated.len(),
        }),
        None => Ok(out),
    }
}

/// A printed move's meaning: a legal move, or a well-formed illegal one by
/// its canonical text. A coordinate move the game's reader does not know
/// (`e4e4f`: a promotion letter no piece of the game has) is still well
/// formed when both squares are on the board.
fn read_key<R: Rules>(rules: &R, pos: &R::Position, text: &str) -> Result<Key<R::Move>, ReadMoveError> {
    match rules.read_move(pos, text) {
        Ok(m) => Ok(Key::Legal(m)),
        Err(ReadMoveError::Illegal { canonical: Some(c), .. }) => Ok(Key::Illegal(c)),
        Err(e @ (ReadMoveError::Syntax(_) | ReadMoveError::Illegal { canonical: None, .. })) => {
            let view = rules.board_view(pos);
            match view.as_ref().and_then(|v| coordinate_move(v, text)) {
                Some(c) => Ok(Key::Illegal(c.text())),
                None => Err(e),
            }
        }
        Err(e) => Err(e),
    }
}

/// A move written as two squares and perhaps one letter (`e4e4f`,
/// `d7d8q`, `a9-a10`), with the squares on the board.
struct CoordinateMove {
    from: usize,
    to: usize,
    from_name: String,
    to_name: String,
    suffix: Option<char>,
}

impl CoordinateMove {
    fn text(&self) -> String {
        let suffix = self.suffix.map(|c| c.to_ascii_lowercase().to_string()).unwrap_or_default();
        format!("{}{}{suffix}", self.from_name, self.to_name)
    }
}

fn coordinate_move(view: &BoardView, text: &str) -> Option<CoordinateMove> {
    let t = text.trim();
    let square_end = |s: &str| {
        let mut chars = s.char_indices();
        let (_, file) = chars.next()?;
        if !file.is_ascii_lowercase() {
            return None;
        }
        let end = chars.find(|(_, c)| !c.is_ascii_digit()).map_or(s.len(), |(i, _)| i);
        (end > 1 && end <= 3).then_some(end)
    };
    let a = square_end(t)?;
    let (from_name, rest) = t.split_at(a);
    let rest = rest.strip_prefix(['-', 'x']).unwrap_or(rest);
    let b = square_end(rest)?;
    let (to_name, suffix) = rest.split_at(b);
    let suffix = suffix.strip_prefix('=').unwrap_or(suffix);
    let mut letters = suffix.chars();
    let letter = letters.next();
    if letters.next().is_some() || letter.is_some_and(|c| !c.is_ascii_alphabetic()) {
        return None;
    }
    Some(CoordinateMove {
        from: view.parse_square(from_name)?,
        to: view.parse_square(to_name)?,
        from_name: from_name.to_string(),
        to_name: to_name.to_string(),
        suffix: letter,
    })
}

/// Why a coordinate move is not a move here, from the board alone, for a
/// game whose own hints say nothing: `no piece of the side to move on e4`,
/// `no pawn on d7 can promote`, `the knight on e4 stays on e4`.
fn board_hint(view: &BoardView, text: &str) -> Option<Hint> {
    let m = coordinate_move(view, text)?;
    let ours = |c: char| c.is_ascii_uppercase() == view.white_to_move;
    let piece = view.squares.get(m.from).copied().flatten();
    let name = |c: char| piece_name(c.to_ascii_lowercase());
    let hint = match (piece, m.suffix) {
        (Some(p), Some(_)) if ours(p) && !p.eq_ignore_ascii_case(&'p') => {
            format!("no pawn on {} can promote: the {} there is not a pawn", m.from_name, name(p))
        }
        (Some(p), Some(_)) if !ours(p) => {
            format!("no pawn on {} can promote: the piece there is the other side's", m.from_name)
        }
        (None, Some(_)) => format!("no pawn on {} can promote: {} is empty", m.from_name, m.from_name),
        (None, None) => format!("no piece of the side to move on {}", m.from_name),
        (Some(p), None) if !ours(p) => format!("no piece of the side to move on {}", m.from_name),
        (Some(p), _) if m.from == m.to => {
            format!("the {} on {} moves nowhere (from and to are the same square)", name(p), m.from_name)
        }
        (Some(_), Some(c)) => format!("promotes to {c:?}, a piece this game has no promotion to"),
        (Some(p), None) => format!("the {} on {} cannot move to {}", name(p), m.from_name, m.to_name),
    };
    let hint = Hint::new(hint);
    Some(if piece.is_none() { hint.mark(m.from, SquareMark::Empty) } else { hint })
}

fn piece_name(letter: char) -> String {
    match letter {
        'p' => "pawn".to_string(),
        'n' => "knight".to_string(),
        'b' => "bishop".to_string(),
        'r' => "rook".to_string(),
        'q' => "queen".to_string(),
        'k' => "king".to_string(),
        c => format!("piece {}", c.to_ascii_uppercase()),
    }
}

/// Compares the engine's divide of `pos` with the reference's.
pub fn diff_divides<R: Rules>(
    rules: &R,
    pos: &R::Position,
    engine: &Divide,
    reference: &Divide,
) -> Result<DivideDiff<R::Move>, DiffError> {
    let ReadDivide { printed: e, repeated } = read_all(rules, pos, engine, Side::Engine)?;
    let r = read_all(rules, pos, reference, Side::Reference)?.printed;
    let mut diff = DivideDiff {
        repeated,
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
                Key::Illegal(canonical) => (
                    false,
                    rules
                        .extra_hint(pos, canonical)
                        .or_else(|| rules.board_view(pos).and_then(|v| board_hint(&v, canonical))),
                ),
            };
            let (hint, marks) = split_hint(hint);
            let printed = clip(&ep.text);
            let extra = Extra { mv: text_of(&ep.key), printed, engine: ep.count, legal, hint, marks };
            if !legal && ep.count == 0 {
                diff.zero_count.push(extra);
            } else {
                diff.extra.push(extra);
            }
        }
    }
    diff.zero_count.sort_by(|a, b| a.mv.cmp(&b.mv));
    diff.repeated.sort_by(|a, b| a.mv.cmp(&b.mv));
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
        Divide { moves: moves.iter().map(|(m, n)| (m.to_string(), *n)).collect(), ..Divide::default() }
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
    fn a_move_listed_twice_is_a_finding_of_the_engine_and_an_error_of_the_reference() {
        let pos = Position::startpos();
        let engine = divide(&[("e2e4", 1), ("e4", 1)]);
        let d = diff_divides(&Chess::new(), &pos, &engine, &divide(&[("e2e4", 1)])).unwrap();
        assert!(d.lists_differ() && !d.is_match());
        assert_eq!(d.repeated.len(), 1);
        assert_eq!(d.repeated[0].mv, "e2e4");
        assert_eq!(d.repeated[0].hint, "listed twice, as \"e2e4\" and \"e4\"");
        // The same text again: the parser keeps it apart, in `repeated`.
        let mut engine = divide(&[("e2e4", 1)]);
        engine.repeated.push(("e2e4".into(), 1));
        let d = diff_divides(&Chess::new(), &pos, &engine, &divide(&[("e2e4", 1)])).unwrap();
        assert_eq!(d.repeated[0].hint, "listed twice");
        assert_eq!(d.repeated[0].counts, [1, 1]);
        let err =
            diff_divides(&Chess::new(), &pos, &divide(&[("e2e4", 1)]), &divide(&[("e2e4", 1), ("e4", 1)])).unwrap_err();
        assert_eq!(err.side(), Side::Reference);
    }

    #[test]
    fn well_formed_coordinate_moves_that_are_not_moves_are_extra_with_a_hint() {
        let pos = Position::startpos();
        let reference = divide(&[("e2e4", 1)]);
        let d = diff_divides(&Chess::new(), &pos, &divide(&[("e2e4", 1), ("e4e4f", 1)]), &reference).unwrap();
        assert_eq!(d.extra[0].mv, "e4e4f");
        assert_eq!(d.extra[0].hint.as_deref(), Some("no pawn on e4 can promote: e4 is empty"));
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4KN2 w - - 0 1").unwrap();
        let view = Chess::new().board_view(&pos).unwrap();
        let hint = |t: &str| board_hint(&view, t).map(|h| h.text);
        assert_eq!(hint("f1f1f").as_deref(), Some("no pawn on f1 can promote: the knight there is not a pawn"));
        assert_eq!(hint("d7d8q").as_deref(), Some("no pawn on d7 can promote: d7 is empty"));
        assert_eq!(hint("e8e7q").as_deref(), Some("no pawn on e8 can promote: the piece there is the other side's"));
        assert_eq!(hint("f1f1").as_deref(), Some("the knight on f1 moves nowhere (from and to are the same square)"));
        assert!(hint("e1e9").is_none() && hint("Nf3").is_none() && hint("e1e2qq").is_none());
    }

    #[test]
    fn moves_that_are_not_legal_printed_with_0_are_a_note() {
        let pos = Position::startpos();
        let reference = divide(&[("e2e4", 1), ("d2d4", 1)]);
        let engine = divide(&[("e2e4", 1), ("e1e2", 0), ("d2d4", 1)]);
        let d = diff_divides(&Chess::new(), &pos, &engine, &reference).unwrap();
        assert!(d.is_match(), "{d:?}");
        assert_eq!(d.zero_count.len(), 1);
        let note = d.zero_count_note().unwrap();
        assert!(note.contains("a move that is not legal here with the count 0 (e1e2)"), "{note}");
        // A legal move with 0 is a count difference.
        let engine = divide(&[("e2e4", 0), ("d2d4", 1)]);
        assert!(!diff_divides(&Chess::new(), &pos, &engine, &reference).unwrap().is_match());
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
