//! The witness as a picture: an SVG drawing of the first wrong position
//! (`--svg`) and a small text diagram for the terminal, for any game that
//! gives a `BoardView` (chess, variants up to 16x16, TicTacChess with its
//! hands). Missing moves are green solid arrows with filled heads, extra
//! moves red dashed arrows with open heads; the check, pin and e.p. squares
//! are outlined; a legend names every move with its hint.

use super::junit::escape;
use crate::cli::common::{check_output, write_output_file, ForceArg};
use chesstool::rules::{BoardView, MoveSquares, Rules, SquareMark};
use chesstool::verify::bisect::Witness;
use std::fmt::Write;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// `--svg FILE` and `--force` of `divide`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct PictureArgs {
    /// Also write an SVG picture to FILE (`-` is standard output).
    ///
    /// The first wrong position: the board, the side to move, missing moves as green solid arrows, extra moves as red dashed arrows, checks, pins and the e.p. square outlined (`-` writes it instead of the report).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    #[command(flatten)]
    pub force: ForceArg,
}

impl PictureArgs {
    /// Refuses the output before any work (an existing file without
    /// `--force`, an input, `--svg -` with `--json`, `--svg` without an engine).
    pub fn check(&self, hunting: bool, json: bool, inputs: &[&Path]) -> anyhow::Result<()> {
        if let Some(path) = &self.svg {
            if !hunting {
                return Err(super::usage(
                    "--svg needs an engine to compare: --engine-uci, --engine-script or --against",
                ));
            }
            if json && crate::cli::common::is_stdio(path) {
                return Err(super::usage("--svg - and --json both want standard output: give --svg a file"));
            }
        }
        check_output("--svg", self.svg.as_deref(), self.force.force, inputs)
    }

    /// True when the picture replaces the text report on standard output.
    pub fn to_stdout(&self) -> bool {
        self.svg.as_deref().is_some_and(crate::cli::common::is_stdio)
    }

    /// Writes the witness's picture, if `--svg` was given; a run without a
    /// witness writes none and says so on stderr (unless `quiet`).
    pub fn write<R: Rules>(
        &self,
        rules: &R,
        w: Option<&Witness<R>>,
        quiet: bool,
        inputs: &[&Path],
    ) -> anyhow::Result<()> {
        let Some(path) = &self.svg else { return Ok(()) };
        match w.and_then(|w| Picture::of_witness(rules, w)) {
            Some(p) => write_output_file("--svg", path, p.svg().as_bytes(), self.force.force, inputs),
            None => {
                if !quiet {
                    let why = if w.is_some() { "this game cannot be drawn" } else { "no wrong position was found" };
                    // A closed stderr must not end the run.
                    let _ = writeln!(std::io::stderr(), "note: --svg: nothing drawn, {why}");
                }
                Ok(())
            }
        }
    }
}

/// `suite --svg DIR`: refused without an engine (no witnesses to draw), as
/// `-`, or when DIR is a file; created when missing.
pub fn check_dir(dir: Option<&Path>, hunting: bool) -> anyhow::Result<()> {
    let Some(dir) = dir else { return Ok(()) };
    if !hunting {
        return Err(super::usage("--svg needs an engine to draw its wrong positions: --engine-uci or --engine-script"));
    }
    if crate::cli::common::is_stdio(dir) {
        return Err(super::usage("--svg DIR: a directory for one picture per failing position, not `-`"));
    }
    let shown = chesstool::rules::clip(&dir.display().to_string());
    if dir.exists() && !dir.is_dir() {
        return Err(super::usage(&format!("--svg {shown}: not a directory")));
    }
    std::fs::create_dir_all(dir).map_err(|e| anyhow::anyhow!("--svg {shown}: cannot create the directory: {e}"))
}

/// The picture of a suite's failing position: `DIR/STEM-lineN.svg` after
/// the suite file's name (`stdin` for standard input).
pub fn suite_path(dir: &Path, suite: &str, line: usize) -> PathBuf {
    let stem = match Path::new(suite).file_stem().and_then(|s| s.to_str()) {
        Some(s) if suite != "-" && !s.is_empty() => s.to_string(),
        _ => "stdin".to_string(),
    };
    dir.join(format!("{stem}-line{line}.svg"))
}

/// Writes one witness's picture to `path` (nothing for a game that cannot be drawn).
pub fn write_one<R: Rules>(
    path: &Path,
    rules: &R,
    w: &Witness<R>,
    force: bool,
    inputs: &[&Path],
) -> anyhow::Result<()> {
    match Picture::of_witness(rules, w) {
        Some(p) => write_output_file("--svg", path, p.svg().as_bytes(), force, inputs),
        None => Ok(()),
    }
}

/// The board diagram of a witness for a text report (empty for a game
/// that cannot be drawn).
pub fn witness_diagram<R: Rules>(rules: &R, w: &Witness<R>, indent: &str) -> String {
    Picture::of_witness(rules, w).map_or_else(String::new, |p| p.diagram(indent))
}

/// Light and dark squares (also `betza show --svg`).
pub const LIGHT: &str = "#f0d9b5";
pub const DARK: &str = "#b58863";
/// A palace square (Xiangqi, Janggi).
const PALACE: &str = "#e3c58a";
const MISSING: &str = "#1a9641";
const EXTRA: &str = "#d7191c";

/// A move of the witness: its text, the hint, where it goes on the board.
#[derive(Debug, Clone)]
pub struct Drawn {
    pub text: String,
    pub hint: Option<String>,
    pub squares: Option<MoveSquares>,
}

/// What the picture shows of a witness.
#[derive(Debug, Clone)]
pub struct Picture {
    pub view: BoardView,
    /// The position's text (FEN).
    pub position: String,
    /// The moves from the root, in the game's notation.
    pub path: Vec<String>,
    pub depth: u32,
    pub missing: Vec<Drawn>,
    pub extra: Vec<Drawn>,
    pub note: Option<String>,
    /// Missing and extra moves past `MAX_DRAWN`, left out of the picture.
    pub left_out: (usize, usize),
}

/// Moves drawn (and their squares marked) per list: an Amazons witness can
/// have two thousand, which would mark every square and fill the legend.
const MAX_DRAWN: usize = 24;

impl Picture {
    /// The picture of a witness; `None` if the game cannot be drawn.
    pub fn of_witness<R: Rules>(rules: &R, w: &Witness<R>) -> Option<Picture> {
        let pos = w.line.position(rules);
        let mut view = rules.board_view(&pos)?;
        // The squares the hints name, marked as the position's checks and pins are.
        let (missing, extra) = (w.diff.missing.iter().take(MAX_DRAWN), w.diff.extra.iter().take(MAX_DRAWN));
        let named = missing.clone().flat_map(|m| &m.marks).chain(extra.clone().flat_map(|x| &x.marks));
        view.marks.extend(named.filter(|(sq, _)| *sq < view.squares.len()));
        view.marks.sort();
        view.marks.dedup();
        let missing = missing
            .map(|m| Drawn { text: m.mv.clone(), hint: m.hint.clone(), squares: rules.move_squares(&pos, &m.mv) })
            .collect();
        let extra = extra
            .map(|x| Drawn {
                text: x.mv.clone(),
                hint: x.hint.clone(),
                squares: rules.move_squares(&pos, &x.mv).or_else(|| rules.move_squares(&pos, &x.printed)),
            })
            .collect();
        Some(Picture {
            view,
            position: rules.position_text(&pos),
            path: w.line.move_texts(rules),
            depth: w.depth,
            missing,
            extra,
            note: w.note.clone(),
            left_out: (w.diff.missing.len().saturating_sub(MAX_DRAWN), w.diff.extra.len().saturating_sub(MAX_DRAWN)),
        })
    }

    /// The board as text, one rank a line, White at the bottom: pieces by
    /// their letters (upper case White), `.` for an empty square, a marked
    /// square (check, pin, e.p.) in parentheses; then the side to move, the
    /// hands and what each mark means. Every line starts with `indent`.
    pub fn diagram(&self, indent: &str) -> String {
        let v = &self.view;
        let mut text = String::new();
        let files: String = (0..v.files).map(|f| format!(" {} ", (b'a' + f) as char)).collect();
        let _ = writeln!(text, "{indent}    {}", files.trim_end());
        for rank in (0..v.ranks).rev() {
            let mut row = String::new();
            for file in 0..v.files {
                let sq = v.square(file, rank);
                let c = v.squares[sq].unwrap_or(if v.palace.contains(&sq) { '+' } else { '.' });
                if v.marks_of(sq).is_empty() {
                    let _ = write!(row, " {c} ");
                } else {
                    let _ = write!(row, "({c})");
                }
            }
            let _ = writeln!(text, "{indent}{:>3} {}", rank + v.first_rank, row.trim_end());
        }
        let side = if v.white_to_move { "White" } else { "Black" };
        let mut status = format!("{side} to move");
        if let Some([white, black]) = &v.hands {
            let hand = |h: &[char]| if h.is_empty() { "-".to_string() } else { h.iter().collect() };
            let _ = write!(status, "; in hand: White {}, Black {}", hand(white), hand(black));
        }
        let _ = writeln!(text, "{indent}    {status}");
        if let Some(regions) = regions_note(v, "+") {
            let _ = writeln!(text, "{indent}    {regions}");
        }
        let marks = self.mark_list();
        if !marks.is_empty() {
            let _ = writeln!(text, "{indent}    ( ): {}", marks.join(", "));
        }
        text
    }

    /// `e1 king in check` for every marked square, in board order.
    fn mark_list(&self) -> Vec<String> {
        let v = &self.view;
        let mut marked: Vec<usize> = v.marks.iter().map(|m| m.0).collect();
        marked.sort();
        marked.dedup();
        marked
            .iter()
            .map(|&sq| {
                let names: Vec<&str> = v.marks_of(sq).iter().map(|m| m.name()).collect();
                format!("{} {}", v.name(sq), names.join(" and "))
            })
            .collect()
    }

    /// The SVG document.
    pub fn svg(&self) -> String {
        let v = &self.view;
        let longest = v.files.max(v.ranks) as usize;
        let cell = (560 / longest).clamp(30, 60);
        let layout = Layout::new(v, cell);
        let mut legend: Vec<LegendLine> = Vec::new();
        for (drawn, kind) in
            self.missing.iter().map(|d| (d, Kind::Missing)).chain(self.extra.iter().map(|d| (d, Kind::Extra)))
        {
            let hint = drawn.hint.as_ref().map_or(String::new(), |h| format!(" ({h})"));
            let words = match kind {
                Kind::Missing => "missing",
                Kind::Extra => "extra",
            };
            legend.push(LegendLine::Move(kind, format!("{words}: {}{hint}", drawn.text)));
        }
        if self.left_out != (0, 0) {
            let (m, x) = self.left_out;
            legend.push(LegendLine::Text(format!(
                "and {m} more missing, {x} more extra moves, not drawn (all in the text report)"
            )));
        }
        if self.missing.is_empty() && self.extra.is_empty() {
            legend.push(LegendLine::Text("the move lists agree here; the counts below them differ".to_string()));
        }
        let mut marks: Vec<SquareMark> = v.marks.iter().map(|m| m.1).collect();
        marks.sort();
        marks.dedup();
        legend.extend(marks.into_iter().map(LegendLine::Mark));
        if let Some(note) = &self.note {
            legend.push(LegendLine::Text(note.clone()));
        }
        if let Some(regions) = regions_note(v, "shaded") {
            legend.push(LegendLine::Text(regions));
        }
        let path = if self.path.is_empty() { "(none: the root itself)".to_string() } else { self.path.join(" ") };
        let header = [
            format!("First wrong position (divide depth {})", self.depth),
            format!("path: {path}"),
            self.position.clone(),
        ];
        let text_width = header
            .iter()
            .map(String::as_str)
            .chain(legend.iter().filter_map(|l| l.text()))
            .map(|t| t.chars().count())
            .max();
        let width = (layout.right + 16).max(text_width.unwrap_or(0) * 7 + 60).max(360);
        let legend_top = layout.bottom + 30;
        let height = legend_top + legend.len() * 20 + 10;
        let mut svg = String::new();
        let _ = writeln!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">"#
        );
        let _ = writeln!(svg, "<title>{}</title>", escape(&header[0]));
        svg.push_str(&defs());
        let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let _ = writeln!(svg, r#"<text x="12" y="22" font-size="16" font-weight="bold">{}</text>"#, escape(&header[0]));
        for (i, line) in header[1..].iter().enumerate() {
            let _ = writeln!(
                svg,
                r#"<text x="12" y="{}" font-size="12" font-family="monospace">{}</text>"#,
                40 + 16 * i,
                escape(line)
            );
        }
        let side = if v.white_to_move { ("#ffffff", "White to move") } else { ("#000000", "Black to move") };
        let _ = writeln!(
            svg,
            r##"<circle cx="{}" cy="{}" r="7" fill="{}" stroke="#000"/><text x="{}" y="{}" font-size="13">{}</text>"##,
            layout.board_x + 7,
            layout.board_y - 12,
            side.0,
            layout.board_x + 20,
            layout.board_y - 7,
            side.1
        );
        let palace = |file, rank| v.palace.contains(&v.square(file, rank)).then_some(PALACE);
        board_squares(&mut svg, (v.files, v.ranks), v.first_rank, (layout.board_x, layout.board_y), cell, palace);
        regions(&mut svg, &layout, v);
        for (sq, mark) in &v.marks {
            square_mark(&mut svg, &layout, v, *sq, *mark);
        }
        for (sq, piece) in v.squares.iter().enumerate() {
            if let Some(c) = piece {
                let (x, y) = layout.center(v, sq);
                piece_glyph(&mut svg, *c, x, y, cell);
            }
        }
        if let Some(hands) = &v.hands {
            layout.hands(&mut svg, hands);
        }
        for (drawn, kind) in
            self.missing.iter().map(|d| (d, Kind::Missing)).chain(self.extra.iter().map(|d| (d, Kind::Extra)))
        {
            if let Some(ms) = drawn.squares {
                layout.arrow(&mut svg, v, ms, kind);
            }
        }
        for (i, line) in legend.iter().enumerate() {
            line.draw(&mut svg, 12, legend_top + i * 20);
        }
        svg.push_str("</svg>\n");
        svg
    }
}

/// What the palace (drawn as `palace_mark`) and the river mean, if the
/// board has them.
fn regions_note(v: &BoardView, palace_mark: &str) -> Option<String> {
    let palace = (!v.palace.is_empty()).then(|| format!("{palace_mark}: the palace"));
    let river = v.river.map(|r| {
        let below = r as u32 + u32::from(v.first_rank);
        format!("the river runs between ranks {below} and {}", below + 1)
    });
    match (palace, river) {
        (Some(p), Some(r)) => Some(format!("{p}; {r}")),
        (p, r) => p.or(r),
    }
}

/// The palaces' diagonals (corner to corner of each side's palace) and the
/// river, a blue band between its two ranks.
fn regions(svg: &mut String, layout: &Layout, v: &BoardView) {
    for upper in [false, true] {
        let coords: Vec<(u8, u8)> =
            v.palace.iter().map(|&sq| v.coords(sq)).filter(|c| (c.1 >= v.ranks / 2) == upper).collect();
        let (Some(lo), Some(hi)) = (coords.iter().copied().min(), coords.iter().copied().max()) else { continue };
        let (a, b) = (layout.center(v, v.square(lo.0, lo.1)), layout.center(v, v.square(hi.0, hi.1)));
        let (c, d) = (layout.center(v, v.square(lo.0, hi.1)), layout.center(v, v.square(hi.0, lo.1)));
        for ((x1, y1), (x2, y2)) in [(a, b), (c, d)] {
            let _ = writeln!(
                svg,
                r##"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#8a6d3b" stroke-width="1.5"/>"##
            );
        }
    }
    if let Some(r) = v.river {
        let (x, y) = layout.center(v, v.square(0, r));
        let cell = layout.cell as f64;
        let (left, top, width) = (x - cell / 2.0, y - cell / 2.0 - 3.0, cell * v.files as f64);
        let _ = writeln!(
            svg,
            r##"<rect x="{left}" y="{top}" width="{width}" height="6" fill="#4a90d9" opacity="0.6"><title>river</title></rect>"##
        );
    }
}

/// Which list a move is on.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Kind {
    Missing,
    Extra,
}

/// One line of the legend.
enum LegendLine {
    Move(Kind, String),
    Mark(SquareMark),
    Text(String),
}

impl LegendLine {
    fn text(&self) -> Option<&str> {
        match self {
            LegendLine::Move(_, t) | LegendLine::Text(t) => Some(t),
            LegendLine::Mark(m) => Some(m.name()),
        }
    }

    fn draw(&self, svg: &mut String, x: usize, y: usize) {
        let label_x = x + 44;
        match self {
            LegendLine::Move(kind, _) => {
                let (color, style, head) = match kind {
                    Kind::Missing => (MISSING, "", "missing"),
                    Kind::Extra => (EXTRA, r#" stroke-dasharray="6 4""#, "extra"),
                };
                let _ = writeln!(
                    svg,
                    r#"<line x1="{x}" y1="{y}" x2="{}" y2="{y}" stroke="{color}" stroke-width="4"{style} marker-end="url(#head-{head})"/>"#,
                    x + 30
                );
            }
            LegendLine::Mark(mark) => {
                let (color, dash) = mark_style(*mark);
                let _ = writeln!(
                    svg,
                    r#"<rect x="{}" y="{}" width="16" height="16" fill="{LIGHT}" stroke="{color}" stroke-width="3"{dash}/>"#,
                    x + 8,
                    y - 8
                );
            }
            LegendLine::Text(_) => {}
        }
        let _ = writeln!(
            svg,
            r#"<text x="{label_x}" y="{}" font-size="13">{}</text>"#,
            y + 5,
            escape(self.text().unwrap_or(""))
        );
    }
}

/// The outline colour and dash of a mark.
fn mark_style(mark: SquareMark) -> (&'static str, &'static str) {
    match mark {
        SquareMark::Check => ("#e00000", ""),
        SquareMark::Checker => ("#ff8c00", ""),
        SquareMark::Pinned => ("#7b2cbf", ""),
        SquareMark::Pinner => ("#7b2cbf", r#" stroke-dasharray="5 3""#),
        SquareMark::EnPassant => ("#0066cc", r#" stroke-dasharray="5 3""#),
        SquareMark::Attacker => ("#ff8c00", r#" stroke-dasharray="5 3""#),
        SquareMark::Attacked => ("#e00000", r#" stroke-dasharray="5 3""#),
        SquareMark::InTheWay => ("#404040", ""),
        SquareMark::Empty => ("#404040", r#" stroke-dasharray="5 3""#),
        SquareMark::Captured => ("#0066cc", ""),
        SquareMark::CastlingRook => ("#1a9641", r#" stroke-dasharray="5 3""#),
        SquareMark::Flipped => ("#d01c8b", ""),
    }
}

/// Arrowheads: filled for missing moves, open for extra ones.
fn defs() -> String {
    format!(
        r#"<defs>
<marker id="head-missing" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{MISSING}"/></marker>
<marker id="head-extra" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto"><path d="M1,1 L9,5 L1,9" fill="none" stroke="{EXTRA}" stroke-width="2"/></marker>
</defs>
"#
    )
}

/// Where things go in the picture.
struct Layout {
    board_x: usize,
    board_y: usize,
    cell: usize,
    files: u8,
    ranks: u8,
    /// Right edge of the board and the hands.
    right: usize,
    /// Bottom edge of the board and its file letters.
    bottom: usize,
}

impl Layout {
    fn new(v: &BoardView, cell: usize) -> Layout {
        let (board_x, board_y) = (30, 100);
        let hands_width = if v.hands.is_some() { 4 * cell + 30 } else { 0 };
        let right = board_x + v.files as usize * cell + hands_width;
        let bottom = board_y + v.ranks as usize * cell + 20;
        Layout { board_x, board_y, cell, files: v.files, ranks: v.ranks, right, bottom }
    }

    /// The centre of a square, White at the bottom.
    fn center(&self, v: &BoardView, sq: usize) -> (f64, f64) {
        let (f, r) = v.coords(sq);
        let x = self.board_x + f as usize * self.cell + self.cell / 2;
        let y = self.board_y + (self.ranks - 1 - r) as usize * self.cell + self.cell / 2;
        (x as f64, y as f64)
    }

    /// Where the `i`-th piece of a hand stands: White's below, Black's above.
    fn hand_spot(&self, white: bool, i: usize) -> (f64, f64) {
        let x = self.board_x + self.files as usize * self.cell + 30 + i * self.cell * 9 / 10 + self.cell / 2;
        let y = if white {
            self.board_y + (self.ranks as usize - 1) * self.cell + self.cell / 2
        } else {
            self.board_y + self.cell / 2
        };
        (x as f64, y as f64)
    }

    fn hands(&self, svg: &mut String, hands: &[Vec<char>; 2]) {
        for (side, hand) in hands.iter().enumerate() {
            let white = side == 0;
            let (x, y) = self.hand_spot(white, 0);
            let label_y = if white { y + self.cell as f64 * 0.75 } else { y - self.cell as f64 * 0.55 };
            let name = if white { "White's hand" } else { "Black's hand" };
            let _ = writeln!(
                svg,
                r##"<text x="{}" y="{label_y}" font-size="12" fill="#555">{name}{}</text>"##,
                x - self.cell as f64 / 2.0,
                if hand.is_empty() { ": empty" } else { "" }
            );
            for (i, &c) in hand.iter().enumerate() {
                let (x, y) = self.hand_spot(white, i);
                piece_glyph(svg, c, x, y, self.cell);
            }
        }
    }

    /// An arrow for a move (a ring where a move stays on its square).
    fn arrow(&self, svg: &mut String, v: &BoardView, ms: MoveSquares, kind: Kind) {
        let (color, dash, head) = match kind {
            Kind::Missing => (MISSING, "", "missing"),
            Kind::Extra => (EXTRA, r#" stroke-dasharray="9 6""#, "extra"),
        };
        let width = (self.cell as f64 * 0.13).max(3.0);
        let (x2, y2) = self.center(v, ms.to);
        let (x1, y1) = match (ms.from, ms.drop) {
            (Some(from), _) => self.center(v, from),
            (None, Some(letter)) => {
                let white = letter.is_ascii_uppercase();
                let hand = v.hands.as_ref().map(|h| &h[usize::from(!white)]);
                let i = hand.and_then(|h| h.iter().position(|&c| c == letter)).unwrap_or(0);
                self.hand_spot(white, i)
            }
            (None, None) => (x2, y2),
        };
        let (dx, dy) = (x2 - x1, y2 - y1);
        let length = (dx * dx + dy * dy).sqrt();
        if length < 1.0 {
            let _ = writeln!(
                svg,
                r#"<circle cx="{x2}" cy="{y2}" r="{}" fill="none" stroke="{color}" stroke-width="{width}"{dash} opacity="0.85"/>"#,
                self.cell as f64 * 0.4
            );
            return;
        }
        // Stop short of the centre so that the head does not hide the piece's middle.
        let back = (self.cell as f64 * 0.2).min(length / 3.0);
        let (ex, ey) = (x2 - dx / length * back, y2 - dy / length * back);
        let _ = writeln!(
            svg,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{ex:.1}" y2="{ey:.1}" stroke="{color}" stroke-width="{width:.1}" stroke-linecap="round"{dash} opacity="0.85" marker-end="url(#head-{head})"/>"#
        );
    }
}

/// An outline inside a marked square.
fn square_mark(svg: &mut String, layout: &Layout, v: &BoardView, sq: usize, mark: SquareMark) {
    let (cx, cy) = layout.center(v, sq);
    let cell = layout.cell as f64;
    let (color, dash) = mark_style(mark);
    let inset = match mark {
        SquareMark::Check | SquareMark::Pinned | SquareMark::EnPassant | SquareMark::Attacked | SquareMark::Empty => {
            2.5
        }
        SquareMark::Checker
        | SquareMark::Pinner
        | SquareMark::Attacker
        | SquareMark::InTheWay
        | SquareMark::Captured
        | SquareMark::CastlingRook
        | SquareMark::Flipped => 5.5,
    };
    if mark == SquareMark::Check {
        let _ = writeln!(svg, r#"<circle cx="{cx}" cy="{cy}" r="{}" fill="{color}" opacity="0.35"/>"#, cell * 0.45);
    }
    let _ = writeln!(
        svg,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{color}" stroke-width="4"{dash}/>"#,
        cx - cell / 2.0 + inset,
        cy - cell / 2.0 + inset,
        cell - 2.0 * inset,
        cell - 2.0 * inset
    );
}

/// A piece: the chess glyph for K, Q, R, B, N, P (White's filled white with
/// a black outline), a lettered disc for any other piece, a dark block for
/// a wall (`*`).
fn piece_glyph(svg: &mut String, c: char, x: f64, y: f64, cell: usize) {
    if c == '*' {
        // A wall (an arrow, the duck, a removed square): a dark block.
        let side = cell as f64 * 0.8;
        let _ = writeln!(
            svg,
            r##"<rect x="{:.1}" y="{:.1}" width="{side:.1}" height="{side:.1}" fill="#4a4a4a" stroke="#000" stroke-width="1.5"><title>wall</title></rect>"##,
            x - side / 2.0,
            y - side / 2.0
        );
        return;
    }
    let white = c.is_ascii_uppercase();
    let (fill, ink) = if white { ("#ffffff", "#000000") } else { ("#000000", "#ffffff") };
    let glyph = match c.to_ascii_lowercase() {
        'k' => Some('\u{265a}'),
        'q' => Some('\u{265b}'),
        'r' => Some('\u{265c}'),
        'b' => Some('\u{265d}'),
        'n' => Some('\u{265e}'),
        'p' => Some('\u{265f}'),
        _ => None,
    };
    let size = cell as f64 * 0.8;
    match glyph {
        Some(g) => {
            let _ = writeln!(
                svg,
                r##"<text x="{x}" y="{:.1}" font-size="{size:.1}" text-anchor="middle" fill="{fill}" stroke="#000" stroke-width="{:.1}">{g}</text>"##,
                y + size * 0.35,
                (cell as f64 / 40.0).max(0.8)
            );
        }
        None => {
            let _ = writeln!(
                svg,
                r##"<circle cx="{x}" cy="{y}" r="{:.1}" fill="{fill}" stroke="#000" stroke-width="1.5"/><text x="{x}" y="{:.1}" font-size="{:.1}" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text>"##,
                cell as f64 * 0.36,
                y + cell as f64 * 0.15,
                cell as f64 * 0.42,
                escape(&c.to_ascii_uppercase().to_string())
            );
        }
    }
}

/// The squares of a `files` x `ranks` board with its top-left corner at
/// `(x, y)`, White at the bottom, file letters below and rank numbers on
/// the left from `first_rank` (1, or 0 for ICCS); `fill(file, rank)` may
/// colour a square (default: light and dark).
pub fn board_squares(
    svg: &mut String,
    (files, ranks): (u8, u8),
    first_rank: u8,
    (x, y): (usize, usize),
    cell: usize,
    fill: impl Fn(u8, u8) -> Option<&'static str>,
) {
    for rank in 0..ranks {
        let top = y + (ranks - 1 - rank) as usize * cell;
        for file in 0..files {
            let left = x + file as usize * cell;
            let color = fill(file, rank).unwrap_or(if (file + rank) % 2 == 1 { LIGHT } else { DARK });
            let _ = writeln!(svg, r#"<rect x="{left}" y="{top}" width="{cell}" height="{cell}" fill="{color}"/>"#);
        }
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="middle" font-size="12">{}</text>"#,
            x / 2,
            top + cell / 2 + 4,
            rank + first_rank
        );
    }
    for file in 0..files {
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="middle" font-size="12">{}</text>"#,
            x + file as usize * cell + cell / 2,
            y + ranks as usize * cell + 15,
            (b'a' + file) as char
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chesstool::chess::Chess;
    use chesstool::engines::Line;
    use chesstool::verify::diff::{DivideDiff, Extra, Missing};

    fn witness(fen: &str, missing: &[&str], extra: &[&str]) -> Witness<Chess> {
        let chess = Chess::new();
        let root = chess.parse_position(fen).unwrap();
        let diff = DivideDiff {
            missing: missing
                .iter()
                .map(|m| Missing { mv: m.to_string(), reference: 1, hint: None, marks: Vec::new() })
                .collect(),
            extra: extra
                .iter()
                .map(|x| Extra {
                    mv: x.to_string(),
                    printed: x.to_string(),
                    engine: 1,
                    legal: false,
                    hint: None,
                    marks: Vec::new(),
                })
                .collect(),
            ..DivideDiff::default()
        };
        Witness { line: Line::new(root), depth: 1, diff, note: None, history_dependent: None, from_start: None }
    }

    #[test]
    fn the_diagram_marks_checks_and_pins() {
        let w = witness("4k3/8/8/8/1b6/8/3N4/4K2r w - - 0 1", &["e1d1"], &["d2f3"]);
        let p = Picture::of_witness(&Chess::new(), &w).unwrap();
        let d = p.diagram("");
        assert!(d.contains("  1  .  .  .  . (K) .  . (r)"), "{d}");
        assert!(d.contains("  4  . (b)"), "{d}");
        assert!(d.contains("( ): e1 king in check, h1 checking piece, d2 pinned piece, b4 pinning piece"), "{d}");
        assert!(d.contains("White to move"), "{d}");
    }

    #[test]
    fn the_svg_has_both_arrows_and_the_legend() {
        let w = witness("4k3/8/8/8/1b6/8/3N4/4K2r w - - 0 1", &["e1d1"], &["d2f3"]);
        let svg = Picture::of_witness(&Chess::new(), &w).unwrap().svg();
        assert!(svg.contains("marker-end=\"url(#head-missing)\""));
        assert!(svg.contains("stroke-dasharray=\"9 6\" opacity=\"0.85\" marker-end=\"url(#head-extra)\""));
        assert!(svg.contains("missing: e1d1") && svg.contains("extra: d2f3"));
        assert!(svg.contains("pinned piece"));
    }
}
