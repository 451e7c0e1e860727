//! Differences and witnesses, as text and as the JSON of the vocabulary
//! (`witness: {path, position, depth, missing, extra, hints}`), for any game.

use chesstool::engines::Line;
use chesstool::rules::Rules;
use chesstool::verify::bisect::Witness;
use chesstool::verify::diff::DivideDiff;
use chesstool::verify::witness::{self, Fault};
use comfy_table::{presets::UTF8_FULL_CONDENSED, CellAlignment, Table};
use serde::Serialize;
use std::collections::BTreeMap;

/// One differing move: the two sides' counts (`null` where a side lacks it).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct DiffRow {
    #[serde(rename = "move")]
    pub mv: String,
    pub engine: Option<u64>,
    pub reference: Option<u64>,
}

/// Every differing move of a divide, sorted by move.
pub fn diff_rows<M>(d: &DivideDiff<M>) -> Vec<DiffRow> {
    let mut rows: Vec<DiffRow> = d
        .counts
        .iter()
        .map(|c| DiffRow { mv: c.mv.clone(), engine: Some(c.engine), reference: Some(c.reference) })
        .collect();
    rows.extend(d.missing.iter().map(|m| DiffRow { mv: m.mv.clone(), engine: None, reference: Some(m.reference) }));
    rows.extend(d.extra.iter().map(|x| DiffRow { mv: x.mv.clone(), engine: Some(x.engine), reference: None }));
    rows.sort_by(|a, b| a.mv.cmp(&b.mv));
    rows
}

/// The comparison at the start position: depth, totals, differing moves.
#[derive(Serialize, Debug)]
pub struct ComparisonJson {
    pub depth: u32,
    pub engine: u64,
    pub reference: u64,
    pub differences: Vec<DiffRow>,
}

impl ComparisonJson {
    pub fn new<M>(depth: u32, d: &DivideDiff<M>) -> ComparisonJson {
        ComparisonJson { depth, engine: d.engine_total, reference: d.reference_total, differences: diff_rows(d) }
    }
}

/// Where a bisection ended, in the vocabulary's shape.
#[derive(Serialize, Debug, Clone)]
pub struct WitnessJson {
    pub path: Vec<String>,
    pub position: String,
    pub depth: u32,
    pub missing: Vec<String>,
    pub extra: Vec<String>,
    /// Moves the engine listed more than once (each also has a hint).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub repeated: Vec<String>,
    /// Why each missing, extra or repeated move is wrong, where the game can tell.
    pub hints: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// After a bisection: true if the engine is right about `position` given
    /// alone (no moves), so the bug is in make/unmake or incremental state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history_dependent: Option<bool>,
    /// After a bisection with a line from the game's start: true if the
    /// engine is right about `position` reached from the start by moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_start: Option<bool>,
    /// After a bisection: the layer at fault (`movegen`, `fen-reader`,
    /// `make-move`, `position-command`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layer: Option<&'static str>,
    /// The `history:` line: the layer and why.
    #[serde(skip)]
    pub history: Option<String>,
}

/// The `history:` line of a bisected witness: what the three questions
/// (the root and the moves, the FEN alone, the start and the moves)
/// answered, and the layer that follows.
fn history_line<R: Rules>(rules: &R, w: &Witness<R>) -> Option<(Fault, String)> {
    w.history_dependent?;
    let fault = witness::fault(rules, w);
    let from_start = match w.from_start {
        Some(true) => ", but right when it is reached by moves from another position",
        Some(false) => ", and when it is reached by moves from another position",
        _ => "",
    };
    let text = match &fault {
        Fault::MoveGenerator if w.line.moves.is_empty() && w.from_start.is_none() => return None,
        Fault::MoveGenerator => {
            let wrong = if w.line.moves.is_empty() { "given as its FEN" } else { "given alone (its FEN) too" };
            let unsure = if w.from_start.is_none() {
                " (no line of moves from the start was asked, and a FEN reader that reads this FEN wrong would look the same)"
            } else {
                ""
            };
            format!(
                "the engine is wrong about this position {wrong}{from_start}: the move generator is at fault{unsure}"
            )
        }
        Fault::FenReader => "the engine is wrong about this position given as its FEN, but right when it is reached \
             by moves (from the game's start, or from a FEN of the same position with every castling right or \
             before its double push): the fault is in reading the FEN (castling rights, e.p. square, side to \
             move), not in the move generator"
            .to_string(),
        Fault::MakeMove => format!(
            "the engine is right about this position given alone (no moves), but wrong after the moves{from_start}: \
             the fault is in make/unmake or incremental state (castling rights, e.p. square, hash, piece lists), \
             not in the move generator{}",
            if w.from_start.is_none() && !w.line.moves.is_empty() {
                " (or in reading the root's FEN: no line of moves from the start was asked)"
            } else {
                ""
            }
        ),
        Fault::PositionCommand(what) => format!(
            "the engine is right about this position given alone (no moves), but wrong after the moves: the fault \
             is in how it takes the position and its moves (`position ... moves`), not in make/unmake: {what}"
        ),
    };
    Some((fault, text))
}

/// A position-command witness's hints, in the words of its explanation
/// (the engine answered for another position), not of the rules its moves
/// break in the position sent: a missing move is missing because of it, an
/// extra move is that position's; only junk legal in neither keeps its hint.
fn explained_hints<R: Rules>(rules: &R, w: &Witness<R>, hints: &mut BTreeMap<String, String>) {
    let Some((other, _)) = witness::explaining_position(rules, w) else { return };
    let theirs: Vec<String> = rules.legal_moves(&other).into_iter().map(|m| rules.move_text(&other, m)).collect();
    for m in &w.diff.missing {
        hints.insert(m.mv.clone(), "not listed: the engine answered for another position".to_string());
    }
    for x in &w.diff.extra {
        if theirs.contains(&x.mv) {
            hints.insert(x.mv.clone(), "a move of the position the engine answered for".to_string());
        } else if let Some(h) = &x.hint {
            hints.insert(x.mv.clone(), format!("legal in neither position: {h}"));
        }
    }
}

impl WitnessJson {
    pub fn new<R: Rules>(rules: &R, w: &Witness<R>) -> WitnessJson {
        let mut hints = BTreeMap::new();
        for m in &w.diff.missing {
            if let Some(h) = &m.hint {
                hints.insert(m.mv.clone(), h.clone());
            }
        }
        for x in &w.diff.extra {
            if let Some(h) = &x.hint {
                hints.insert(x.mv.clone(), h.clone());
            }
        }
        for r in &w.diff.repeated {
            hints.insert(r.mv.clone(), r.hint.clone());
        }
        let note = match (w.note.clone(), w.diff.zero_count_note()) {
            (Some(a), Some(b)) => Some(format!("{a}; {b}")),
            (a, b) => a.or(b),
        };
        let history = history_line(rules, w);
        if let Some((Fault::PositionCommand(_), _)) = &history {
            explained_hints(rules, w, &mut hints);
        }
        WitnessJson {
            path: w.line.move_texts(rules),
            position: rules.position_text(&w.line.position(rules)),
            depth: w.depth,
            missing: w.diff.missing.iter().map(|m| m.mv.clone()).collect(),
            extra: w.diff.extra.iter().map(|x| x.mv.clone()).collect(),
            repeated: w.diff.repeated.iter().map(|r| r.mv.clone()).collect(),
            hints,
            note,
            history_dependent: w.history_dependent,
            from_start: w.from_start,
            layer: history.as_ref().map(|(f, _)| f.name()),
            history: history.map(|(_, text)| text),
        }
    }

    /// The witness as labelled lines, each indented by `indent`.
    pub fn text(&self, indent: &str, diff_table: Option<Table>) -> String {
        let list = |moves: &[String]| {
            if moves.is_empty() {
                return "(none)".to_string();
            }
            moves
                .iter()
                .map(|m| match self.hints.get(m) {
                    Some(h) => format!("{m} ({h})"),
                    None => m.clone(),
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let path = if self.path.is_empty() { "(none: the root itself)".to_string() } else { self.path.join(" ") };
        let mut text = String::new();
        text.push_str(&format!("{indent}path:     {path}\n"));
        text.push_str(&format!("{indent}position: {}\n", self.position));
        text.push_str(&format!("{indent}depth:    {}\n", self.depth));
        text.push_str(&format!("{indent}missing:  {}\n", list(&self.missing)));
        text.push_str(&format!("{indent}extra:    {}\n", list(&self.extra)));
        if !self.repeated.is_empty() {
            text.push_str(&format!("{indent}repeated: {}\n", list(&self.repeated)));
        }
        if let Some(note) = &self.note {
            text.push_str(&format!("{indent}note:     {note}\n"));
        }
        if let Some(history) = &self.history {
            text.push_str(&format!("{indent}history:  {history}\n"));
        }
        if let Some(table) = diff_table {
            text.push_str(&format!("{table}\n"));
        }
        text
    }
}

/// The differing moves as a table: move, engine, reference, difference.
pub fn diff_table<M>(d: &DivideDiff<M>) -> Table {
    diff_table_named(d, "engine")
}

/// The same table, with the side under test named `under_test` (`pasted`
/// for a pasted divide).
pub fn diff_table_named<M>(d: &DivideDiff<M>, under_test: &str) -> Table {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    let mut side = under_test.to_string();
    if let Some(first) = side.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    table.set_header(vec!["Move", side.as_str(), "Reference", "Difference"]);
    let num = |n: Option<u64>| n.map_or("-".to_string(), |n| n.to_string());
    for row in diff_rows(d) {
        let difference = match (row.engine, row.reference) {
            (Some(e), Some(r)) => format!("{:+}", i128::from(e) - i128::from(r)),
            (None, _) => "missing".to_string(),
            (_, None) => "extra".to_string(),
        };
        table.add_row(vec![row.mv.clone(), num(row.engine), num(row.reference), difference]);
    }
    for i in 1..3 {
        table.column_mut(i).expect("four columns").set_cell_alignment(CellAlignment::Right);
    }
    table
}

/// The witness with the table of its counts when its lists agree but counts do not.
pub fn witness_text<R: Rules>(rules: &R, w: &Witness<R>, indent: &str) -> String {
    let table = (!w.diff.lists_differ() && !w.diff.counts.is_empty()).then(|| diff_table(&w.diff));
    WitnessJson::new(rules, w).text(indent, table) + &super::picture::witness_diagram(rules, w, indent)
}

/// `variant` (for a variant), `root`, `moves` and `position` of the
/// vocabulary for a line.
#[derive(Serialize, Debug)]
pub struct LineJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    pub root: String,
    pub moves: Vec<String>,
    pub position: String,
}

impl LineJson {
    pub fn new<R: Rules>(rules: &R, line: &Line<R>) -> LineJson {
        LineJson {
            variant: rules.variant(),
            root: line.root_text(rules),
            moves: line.move_texts(rules),
            position: rules.position_text(&line.position(rules)),
        }
    }
}
