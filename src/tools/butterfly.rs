//! Dap Hartmann's butterfly boards (ICCA Journal 1988): the 64 x 64 sheet of
//! (from, to) square pairs, each marked by the kind of move that can join
//! them. [`diagram`] prints it byte for byte as the C program on the Chess
//! Programming Wiki's "Butterfly Boards" page does; [`History`] counts the
//! from-to pairs of a perft tree, the table's real use as history counters.

use crate::board::Square;
use crate::movegen::Move;
use crate::position::Position;
use std::fmt::Write;

/// What joins a from-square to a to-square, tested in the C program's order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Same rank (`-`): a rook move.
    Rank,
    /// Same file (`|`): a rook move.
    File,
    /// Same a1-h8 diagonal (`/`): a bishop move.
    Diagonal,
    /// Same a8-h1 anti-diagonal (`\`): a bishop move.
    AntiDiagonal,
    /// A knight's distance (`~`).
    Knight,
    /// No piece moves so, or the two squares are the same (`#`).
    Invalid,
}

impl Cell {
    /// The cell between `from` and `to` (square numbers 0..64).
    pub const fn of(from: u8, to: u8) -> Cell {
        if from == to {
            return Cell::Invalid;
        }
        let (r1, r2) = ((from >> 3) as i32, (to >> 3) as i32);
        let (f1, f2) = ((from & 7) as i32, (to & 7) as i32);
        if r1 == r2 {
            Cell::Rank
        } else if f1 == f2 {
            Cell::File
        } else if f1 - r1 == f2 - r2 {
            Cell::Diagonal
        } else if f1 + r1 == f2 + r2 {
            Cell::AntiDiagonal
        } else if (f2 - f1).abs() + (r2 - r1).abs() == 3 {
            Cell::Knight
        } else {
            Cell::Invalid
        }
    }

    /// The character the C program prints for this cell.
    pub const fn symbol(self) -> char {
        match self {
            Cell::Rank => '-',
            Cell::File => '|',
            Cell::Diagonal => '/',
            Cell::AntiDiagonal => '\\',
            Cell::Knight => '~',
            Cell::Invalid => '#',
        }
    }

    /// A short name of the move kind (for legends and JSON).
    pub const fn name(self) -> &'static str {
        match self {
            Cell::Rank => "rank",
            Cell::File => "file",
            Cell::Diagonal => "diagonal",
            Cell::AntiDiagonal => "anti-diagonal",
            Cell::Knight => "knight",
            Cell::Invalid => "invalid",
        }
    }
}

/// A range `from..=to` of square numbers, checked: `0 <= from <= to <= 63`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SquareRange {
    from: u8,
    to: u8,
}

/// A range that is not `0 <= FROM <= TO <= 63`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RangeError {
    /// A square number past 63.
    #[error("square number {0} is out of range (0..=63)")]
    OutOfBoard(u32),
    /// The range runs backwards.
    #[error("FROM ({from}) is greater than TO ({to})")]
    Reversed {
        /// The first square number.
        from: u8,
        /// The last square number.
        to: u8,
    },
}

impl SquareRange {
    /// The range `from..=to`, checked.
    pub fn new(from: u32, to: u32) -> Result<SquareRange, RangeError> {
        for n in [from, to] {
            if n > 63 {
                return Err(RangeError::OutOfBoard(n));
            }
        }
        let (from, to) = (from as u8, to as u8);
        if from > to {
            return Err(RangeError::Reversed { from, to });
        }
        Ok(SquareRange { from, to })
    }

    /// The whole board, 0..=63.
    pub const FULL: SquareRange = SquareRange { from: 0, to: 63 };

    /// The first square number.
    pub fn from(self) -> u8 {
        self.from
    }

    /// The last square number.
    pub fn to(self) -> u8 {
        self.to
    }

    /// How many squares the range holds.
    pub fn len(self) -> usize {
        (self.to - self.from) as usize + 1
    }

    /// Never true: a range holds at least one square.
    pub fn is_empty(self) -> bool {
        false
    }

    /// The square numbers of the range, in order.
    pub fn squares(self) -> impl Iterator<Item = u8> + Clone {
        self.from..=self.to
    }
}

/// How many cells of each kind a diagram holds.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    /// Rank and file cells (rook moves).
    pub rook: u32,
    /// Diagonal cells (bishop moves).
    pub bishop: u32,
    /// Knight cells.
    pub knight: u32,
}

impl Counts {
    /// The counts of a diagram of `range`.
    pub fn of(range: SquareRange) -> Counts {
        let mut counts = Counts::default();
        for sq1 in range.squares() {
            for sq2 in range.squares() {
                match Cell::of(sq1, sq2) {
                    Cell::Rank | Cell::File => counts.rook += 1,
                    Cell::Diagonal | Cell::AntiDiagonal => counts.bishop += 1,
                    Cell::Knight => counts.knight += 1,
                    Cell::Invalid => {}
                }
            }
        }
        counts
    }

    /// Rook, bishop and knight cells together.
    pub fn total(self) -> u32 {
        self.rook + self.bishop + self.knight
    }
}

/// How the axes of a diagram are labelled.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Labels {
    /// Square numbers, as the C program prints them.
    Numbers,
    /// Square names (file letters over rank digits; `d1` after each row).
    Names,
}

/// The diagram as text. With `Labels::Numbers` it is byte for byte what the
/// C program's `butterflyBoard(from, to)` prints.
pub fn diagram(range: SquareRange, labels: Labels) -> String {
    let mut out = String::new();
    write_header(&mut out, range, labels);
    for sq1 in range.squares() {
        for sq2 in range.squares() {
            out.push(Cell::of(sq1, sq2).symbol());
        }
        write_row_label(&mut out, sq1, labels);
    }
    let counts = Counts::of(range);
    // `writeln!` into a String cannot fail.
    let _ = writeln!(out, "rook moves {:4}", counts.rook);
    let _ = writeln!(out, "bishop moves {:4}", counts.bishop);
    let _ = writeln!(out, "knight moves {:4}", counts.knight);
    let _ = writeln!(out, "total moves {:4}", counts.total());
    out
}

/// The two header lines: tens over units, or file letters over rank digits.
fn write_header(out: &mut String, range: SquareRange, labels: Labels) {
    for sq in range.squares() {
        out.push(match labels {
            Labels::Numbers if sq % 10 != 0 => ' ',
            Labels::Numbers => (b'0' + sq / 10) as char,
            Labels::Names => Square::new(sq).file().char(),
        });
    }
    out.push('\n');
    for sq in range.squares() {
        out.push(match labels {
            Labels::Numbers => (b'0' + sq % 10) as char,
            Labels::Names => Square::new(sq).rank().char(),
        });
    }
    out.push('\n');
}

fn write_row_label(out: &mut String, sq: u8, labels: Labels) {
    let _ = match labels {
        Labels::Numbers => writeln!(out, " {sq:2}"),
        Labels::Names => writeln!(out, " {}", Square::new(sq)),
    };
}

/// History counters: how often each (from, to) pair occurred.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    counts: Box<[[u64; 64]; 64]>,
}

impl Default for History {
    fn default() -> History {
        History { counts: Box::new([[0; 64]; 64]) }
    }
}

impl History {
    /// Counts `n` moves from `from` to `to`.
    pub fn add(&mut self, from: Square, to: Square, n: u64) {
        self.counts[from.index()][to.index()] += n;
    }

    /// The moves counted from `from` to `to`.
    pub fn get(&self, from: Square, to: Square) -> u64 {
        self.counts[from.index()][to.index()]
    }

    /// The sum over every pair.
    pub fn total(&self) -> u64 {
        self.counts.iter().flatten().sum()
    }

    /// The largest count inside `range` x `range`.
    pub fn max_in(&self, range: SquareRange) -> u64 {
        let mut max = 0;
        for a in range.squares() {
            for b in range.squares() {
                max = max.max(self.counts[a as usize][b as usize]);
            }
        }
        max
    }

    /// Merges another table into this one.
    pub fn merge(&mut self, other: &History) {
        for (row, other_row) in self.counts.iter_mut().zip(other.counts.iter()) {
            for (c, o) in row.iter_mut().zip(other_row) {
                *c += o;
            }
        }
    }
}

/// The history table of a perft tree: every legal move at every ply down to
/// `depth` counted once per occurrence under its (from, to) pair. Castling is
/// counted under the king's real destination (g- or c-file), not the rook's
/// square of the king-takes-rook encoding. Root moves run in parallel on the
/// current rayon pool.
pub fn perft_history(pos: &Position, depth: u32) -> History {
    use rayon::prelude::*;
    if depth == 0 {
        return History::default();
    }
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    moves
        .par_iter()
        .map(|&m| {
            let mut h = History::default();
            h.add(m.from(), destination(m), 1);
            walk(&pos.play(m), depth - 1, &mut h);
            h
        })
        .reduce(History::default, |mut a, b| {
            a.merge(&b);
            a
        })
}

fn destination(m: Move) -> Square {
    if m.is_castling() {
        m.castling_king_target()
    } else {
        m.to()
    }
}

fn walk(pos: &Position, depth: u32, h: &mut History) {
    if depth == 0 {
        return;
    }
    for &m in pos.legal_moves().iter() {
        h.add(m.from(), destination(m), 1);
        if depth > 1 {
            walk(&pos.play(m), depth - 1, h);
        }
    }
}

/// Text shades from empty to hottest.
pub const SHADES: &[u8] = b" .:-=+*%@";

/// The shade index (0..SHADES.len()) of `count` on a logarithmic scale up to
/// `max`; any non-zero count gets at least the first visible shade.
pub fn shade(count: u64, max: u64) -> usize {
    if count == 0 || max == 0 {
        return 0;
    }
    let top = (SHADES.len() - 1) as f64;
    let level = ((count as f64).ln_1p() / (max as f64).ln_1p() * top).ceil();
    (level as usize).clamp(1, SHADES.len() - 1)
}

/// The history table as a text heat map in the diagram's layout: one shade
/// character per cell, the same header lines and row labels, and a legend.
pub fn heat_map(history: &History, range: SquareRange, labels: Labels) -> String {
    let mut out = String::new();
    write_header(&mut out, range, labels);
    let max = history.max_in(range);
    for sq1 in range.squares() {
        for sq2 in range.squares() {
            let count = history.counts[sq1 as usize][sq2 as usize];
            out.push(SHADES[shade(count, max)] as char);
        }
        write_row_label(&mut out, sq1, labels);
    }
    let shown: u64 = range
        .squares()
        .flat_map(|a| range.squares().map(move |b| (a, b)))
        .map(|(a, b)| history.counts[a as usize][b as usize])
        .sum();
    let pairs = range
        .squares()
        .flat_map(|a| range.squares().map(move |b| (a, b)))
        .filter(|&(a, b)| history.counts[a as usize][b as usize] > 0)
        .count();
    let _ = writeln!(out, "moves counted {:12}", history.total());
    let _ = writeln!(out, "moves shown   {shown:12}");
    let _ = writeln!(out, "pairs used    {pairs:12}");
    let _ = writeln!(out, "hottest pair  {max:12}");
    let _ =
        writeln!(out, "shades (log scale, low to high): '{}'", std::str::from_utf8(&SHADES[1..]).unwrap_or_default());
    out
}

/// The JSON form of a history table: every non-zero pair inside `range`.
pub fn history_json(history: &History, range: SquareRange) -> serde_json::Value {
    let mut pairs = Vec::new();
    for a in range.squares() {
        for b in range.squares() {
            let count = history.counts[a as usize][b as usize];
            if count > 0 {
                pairs.push(serde_json::json!({
                    "from": Square::new(a).to_string(),
                    "to": Square::new(b).to_string(),
                    "from_index": a,
                    "to_index": b,
                    "count": count,
                }));
            }
        }
    }
    serde_json::json!({
        "range": { "from": range.from, "to": range.to },
        "total": history.total(),
        "pairs": pairs,
    })
}

const CELL: usize = 12;
const MARGIN: usize = 34;

fn fill(cell: Cell) -> &'static str {
    match cell {
        Cell::Rank => "#4e79a7",
        Cell::File => "#76b7b2",
        Cell::Diagonal => "#e15759",
        Cell::AntiDiagonal => "#f28e2b",
        Cell::Knight => "#59a14f",
        Cell::Invalid => "#2b2b2b",
    }
}

/// A colour on a white-to-red scale for shade `level` of `SHADES.len()`.
fn heat_fill(level: usize) -> String {
    if level == 0 {
        return "#ffffff".to_string();
    }
    let t = level as f64 / (SHADES.len() - 1) as f64;
    let g = (235.0 * (1.0 - t)) as u8 + 20;
    let b = (200.0 * (1.0 - t)) as u8 + 10;
    format!("#ff{g:02x}{b:02x}")
}

/// An SVG picture: the diagram's cells coloured by move kind, or with a
/// history table, by count; square names on both axes.
pub fn svg(range: SquareRange, history: Option<&History>) -> String {
    let n = range.len();
    let size = MARGIN + n * CELL;
    let legend_h = 40;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="monospace" font-size="9">"#,
        w = size + 4,
        h = size + legend_h
    );
    let title = match history {
        Some(h) => format!("history counts, {} moves", h.total()),
        None => {
            let c = Counts::of(range);
            format!(
                "butterfly board {}-{}: rook {} bishop {} knight {} total {}",
                range.from,
                range.to,
                c.rook,
                c.bishop,
                c.knight,
                c.total()
            )
        }
    };
    let _ = writeln!(out, "<title>{title}</title>");
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    for (i, sq) in range.squares().enumerate() {
        let name = Square::new(sq);
        let pos = MARGIN + i * CELL + CELL / 2;
        // Column labels (to-square) on top, written upwards; row labels (from-square) on the left.
        let _ = writeln!(
            out,
            r#"<text x="{pos}" y="{y}" text-anchor="middle" transform="rotate(-90 {pos} {y})" dominant-baseline="middle">{name}</text>"#,
            y = MARGIN - 12
        );
        let _ = writeln!(
            out,
            r#"<text x="{x}" y="{pos}" text-anchor="end" dominant-baseline="middle">{name}</text>"#,
            x = MARGIN - 4
        );
    }
    let max = history.map_or(0, |h| h.max_in(range));
    for (i, sq1) in range.squares().enumerate() {
        for (j, sq2) in range.squares().enumerate() {
            let cell = Cell::of(sq1, sq2);
            let (color, tip) = match history {
                Some(h) => {
                    let count = h.counts[sq1 as usize][sq2 as usize];
                    (heat_fill(shade(count, max)), format!("{count}"))
                }
                None => (fill(cell).to_string(), cell.name().to_string()),
            };
            let _ = writeln!(
                out,
                r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{color}" stroke="white" stroke-width="0.5"><title>{a}-{b}: {tip}</title></rect>"#,
                x = MARGIN + j * CELL,
                y = MARGIN + i * CELL,
                a = Square::new(sq1),
                b = Square::new(sq2),
            );
        }
    }
    // Legend.
    let y = size + 14;
    let entries: Vec<(String, String)> = match history {
        Some(_) => (1..SHADES.len())
            .map(|l| (heat_fill(l), if l == 1 { "few".into() } else { String::new() }))
            .chain([(heat_fill(SHADES.len() - 1), format!("most ({max})"))])
            .collect(),
        None => [Cell::Rank, Cell::File, Cell::Diagonal, Cell::AntiDiagonal, Cell::Knight, Cell::Invalid]
            .iter()
            .map(|&c| (fill(c).to_string(), format!("{} {}", c.symbol(), c.name())))
            .collect(),
    };
    let mut x = 4;
    for (color, label) in entries {
        let _ = writeln!(
            out,
            r#"<rect x="{x}" y="{y}" width="10" height="10" fill="{color}" stroke="black" stroke-width="0.3"/>"#
        );
        let label = label.replace('&', "&amp;").replace('<', "&lt;");
        let _ = writeln!(out, r#"<text x="{}" y="{}">{label}</text>"#, x + 13, y + 9);
        x += 16 + 6 * label.len();
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_board_counts_are_hartmanns() {
        let c = Counts::of(SquareRange::FULL);
        assert_eq!((c.rook, c.bishop, c.knight, c.total()), (896, 560, 336, 1792));
    }

    #[test]
    fn ranges_are_checked() {
        assert!(SquareRange::new(0, 63).is_ok());
        assert!(SquareRange::new(5, 5).is_ok());
        assert_eq!(SquareRange::new(0, 64), Err(RangeError::OutOfBoard(64)));
        assert_eq!(SquareRange::new(9, 3), Err(RangeError::Reversed { from: 9, to: 3 }));
    }

    #[test]
    fn the_documents_single_butterfly() {
        // d1..e2 (3..=12) is the single shape of the document's first figure.
        let text = diagram(SquareRange::new(3, 12).unwrap(), Labels::Names);
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows[0], "defghabcde");
        assert_eq!(rows[1], "1111122222");
        assert_eq!(rows[2], "#----#~\\|/ d1");
        assert_eq!(rows[11], "/|\\~#----# e2");
    }

    #[test]
    fn history_sums_to_the_perft_counts() {
        let pos = Position::startpos();
        // 20 + 400 + 8902 moves on plies 1-3.
        let h = perft_history(&pos, 3);
        assert_eq!(h.total(), 20 + 400 + 8902);
        // 1.Nf3, and on ply 3 after any first move but Nf3, Nh3 and f3 (17 x 20).
        assert_eq!(h.get(Square::G1, Square::F3), 1 + 17 * 20);
    }

    #[test]
    fn castling_counts_under_the_kings_destination() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let h = perft_history(&pos, 1);
        assert_eq!(h.get(Square::E1, Square::G1), 1);
        assert_eq!(h.get(Square::E1, Square::C1), 1);
        assert_eq!(h.get(Square::E1, Square::H1), 0);
    }

    #[test]
    fn shades_grow_with_counts() {
        assert_eq!(shade(0, 100), 0);
        assert_eq!(shade(1, 1_000_000), 1);
        assert_eq!(shade(100, 100), SHADES.len() - 1);
        assert!(shade(10, 100) <= shade(50, 100));
    }
}
