//! A variant: its board, its pieces (letters and compiled Betza), the royal
//! piece, and positions in Fairy-Stockfish's FEN.

use super::betza::{self, BetzaError, Compiled};
use super::board::{cell_kind, cell_side, piece_cell, Geometry, Position, Side, BLACK, EMPTY, MAX_SIZE, WHITE};
use super::movegen::{Move, TableError, Tables};
use std::fmt;

/// One kind of piece.
#[derive(Debug, Clone)]
pub struct PieceDef {
    /// Upper-case letter (White's; Black's is the lower case).
    pub letter: char,
    /// Fairy-Stockfish's name (`knight`, `customPiece3`) or ours.
    pub name: String,
    pub betza: String,
    pub compiled: Compiled,
}

impl PieceDef {
    pub fn new(letter: char, name: &str, betza: &str) -> Result<PieceDef, BetzaError> {
        Ok(PieceDef {
            letter: letter.to_ascii_uppercase(),
            name: name.into(),
            betza: betza.into(),
            compiled: betza::compile(betza)?,
        })
    }
}

/// Where `i` (initial) moves are allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Initial {
    /// Anywhere (`betza show`: the piece is taken as unmoved).
    Anywhere,
    /// As Fairy-Stockfish: a piece on its side's double-step rank (White's
    /// rank 2, Black's rank 7, on every board size), 0-based ranks.
    Ranks(u8, u8),
    /// Nowhere (`doubleStep = false`).
    Nowhere,
}

/// A variant that the generator can play.
#[derive(Debug, Clone)]
pub struct Variant {
    pub name: String,
    pub geometry: Geometry,
    pub pieces: Vec<PieceDef>,
    /// Index of the royal kind in `pieces`.
    pub royal: Option<usize>,
    pub start_fen: String,
    pub initial: Initial,
    pub tables: Tables,
    /// Notes for the user (ambiguous atoms).
    pub warnings: Vec<String>,
}

/// Why a FEN could not be read (names the field and the text).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid FEN {fen:?}: {message}")]
pub struct FenError {
    pub fen: String,
    pub message: String,
}

/// Why a variant cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    #[error("piece {letter} ({name}): {source}")]
    Betza { letter: char, name: String, source: BetzaError },
    #[error("{0}")]
    Tables(#[from] TableError),
    #[error("{0}")]
    Other(String),
}

impl Variant {
    /// Builds a variant; `start_fen` is checked.
    pub fn new(
        name: &str,
        width: u8,
        height: u8,
        pieces: Vec<PieceDef>,
        royal: Option<usize>,
        start_fen: &str,
        initial: Initial,
    ) -> Result<Variant, VariantError> {
        if !(1..=MAX_SIZE).contains(&width) || !(1..=MAX_SIZE).contains(&height) {
            return Err(VariantError::Other(format!("board {width}x{height}: at most {MAX_SIZE}x{MAX_SIZE}")));
        }
        if pieces.len() > 60 {
            return Err(VariantError::Other("more than 60 kinds of piece".into()));
        }
        for (i, p) in pieces.iter().enumerate() {
            if let Some(q) = pieces[..i].iter().find(|q| q.letter == p.letter) {
                return Err(VariantError::Other(format!(
                    "letter {} is used by both {} and {}",
                    p.letter, q.name, p.name
                )));
            }
        }
        let geometry = Geometry::new(width, height);
        let mut regions = [vec![false; geometry.cells], vec![false; geometry.cells]];
        for sq in geometry.squares() {
            let (_, r) = geometry.coords(sq);
            match initial {
                Initial::Anywhere => {
                    regions[WHITE][sq] = true;
                    regions[BLACK][sq] = true;
                }
                Initial::Ranks(w, b) => {
                    regions[WHITE][sq] = r == w;
                    regions[BLACK][sq] = r == b;
                }
                Initial::Nowhere => {}
            }
        }
        let kinds: Vec<_> = pieces.iter().map(|p| (p.compiled.roots.as_slice(), p.compiled.code.as_slice())).collect();
        let tables = Tables::new(geometry, &kinds, royal, regions)?;
        let warnings =
            pieces.iter().flat_map(|p| p.compiled.warnings.iter().map(move |w| format!("{}: {w}", p.name))).collect();
        let variant = Variant {
            name: name.into(),
            geometry,
            pieces,
            royal,
            start_fen: start_fen.into(),
            initial,
            tables,
            warnings,
        };
        if !start_fen.is_empty() {
            variant.parse_fen(start_fen).map_err(|e| VariantError::Other(format!("startFen: {e}")))?;
        }
        Ok(variant)
    }

    /// The kind with this letter (either case).
    pub fn kind_of(&self, letter: char) -> Option<usize> {
        self.pieces.iter().position(|p| p.letter == letter.to_ascii_uppercase())
    }

    /// Reads a FEN: ranks from the top, multi-digit empty counts, `w`/`b`;
    /// castling and en-passant fields must be `-`; clocks optional.
    pub fn parse_fen(&self, text: &str) -> Result<Position, FenError> {
        let err = |message: String| FenError { fen: text.to_string(), message };
        let text_trim = text.trim();
        let fields: Vec<&str> = text_trim.split_whitespace().collect();
        if fields.is_empty() {
            return Err(err("empty".into()));
        }
        if fields.len() > 6 {
            return Err(err(format!("{} fields (at most 6: board, side, castling, en passant, clocks)", fields.len())));
        }
        let g = &self.geometry;
        let mut pos = Position::empty(g);
        let board = fields[0];
        if board.contains('[') {
            return Err(err("pockets ([...]) are not implemented: this generator has no drops".into()));
        }
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != g.height as usize {
            return Err(err(format!("board field has {} ranks, the variant has {}", ranks.len(), g.height)));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = g.height as usize - 1 - i;
            let rank_name = rank + 1;
            let mut file = 0usize;
            let chars: Vec<char> = rank_text.chars().collect();
            let mut j = 0;
            while j < chars.len() {
                let c = chars[j];
                if c.is_ascii_digit() {
                    let start = j;
                    while j < chars.len() && chars[j].is_ascii_digit() {
                        j += 1;
                    }
                    let digits: String = chars[start..j].iter().collect();
                    let n: usize = digits
                        .parse()
                        .ok()
                        .filter(|&n| n > 0 && n <= MAX_SIZE as usize)
                        .ok_or_else(|| err(format!("rank {rank_name}: bad empty count {digits:?}")))?;
                    file += n;
                    if file > g.width as usize {
                        return Err(err(format!("rank {rank_name} ({rank_text:?}) has more than {} files", g.width)));
                    }
                    continue;
                }
                if c == '+' || c == '~' {
                    return Err(err(format!("rank {rank_name}: promoted pieces ('{c}') are not implemented")));
                }
                let kind = self
                    .kind_of(c)
                    .filter(|_| c.is_ascii_alphabetic())
                    .ok_or_else(|| err(format!("rank {rank_name}: '{c}' is not a piece of {}", self.name)))?;
                if file >= g.width as usize {
                    return Err(err(format!("rank {rank_name} ({rank_text:?}) has more than {} files", g.width)));
                }
                let side = if c.is_ascii_uppercase() { WHITE } else { BLACK };
                let is_royal = self.royal == Some(kind);
                if is_royal && pos.royal[side] != super::board::NO_SQUARE {
                    return Err(err(format!("two {} royal pieces", if side == WHITE { "white" } else { "black" })));
                }
                pos.put(g.cell(file as u8, rank as u8), piece_cell(kind, side), is_royal);
                file += 1;
                j += 1;
            }
            if file != g.width as usize {
                return Err(err(format!(
                    "rank {rank_name} ({rank_text:?}) has {file} files, the variant has {}",
                    g.width
                )));
            }
        }
        if let Some(royal) = self.royal {
            for (side, name) in [(WHITE, "white"), (BLACK, "black")] {
                if pos.royal[side] == super::board::NO_SQUARE {
                    let letter = self.pieces[royal].letter;
                    return Err(err(format!("no {name} royal piece ({letter})")));
                }
            }
        }
        pos.side = match fields.get(1).copied().unwrap_or("w") {
            "w" | "W" => WHITE,
            "b" | "B" => BLACK,
            other => return Err(err(format!("side to move {other:?} is not w or b"))),
        };
        if let Some(&castling) = fields.get(2) {
            if castling != "-" {
                return Err(err(format!("castling field {castling:?}: castling is not implemented (write -)")));
            }
        }
        if let Some(&ep) = fields.get(3) {
            if ep != "-" {
                return Err(err(format!("en-passant field {ep:?}: en passant is not implemented (write -)")));
            }
        }
        let (us, them) = (pos.side, pos.side ^ 1);
        let royal = pos.royal[them] as usize;
        if self.royal.is_some() && self.tables.attacked(&mut pos, royal, us) {
            let name = if them == WHITE { "white" } else { "black" };
            return Err(err(format!("illegal position: the side not to move ({name}) is in check")));
        }
        for (i, name) in [(4, "halfmove clock"), (5, "fullmove number")] {
            if let Some(&f) = fields.get(i) {
                if f.parse::<u32>().is_err() {
                    return Err(err(format!("{name} {f:?} is not a number")));
                }
            }
        }
        Ok(pos)
    }

    /// The position as FEN (clocks `0 1`).
    pub fn fen(&self, pos: &Position) -> String {
        let g = &self.geometry;
        let mut out = String::new();
        for rank in (0..g.height).rev() {
            let mut empty = 0;
            for file in 0..g.width {
                let cell = pos.cells[g.cell(file, rank)];
                if cell == EMPTY {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                let letter = self.pieces[cell_kind(cell)].letter;
                out.push(if cell_side(cell) == WHITE { letter } else { letter.to_ascii_lowercase() });
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push_str(if pos.side == WHITE { " w - - 0 1" } else { " b - - 0 1" });
        out
    }

    /// A move as Fairy-Stockfish writes it: `e2e4`, `a9a10`; a move that
    /// also captures on other squares lists its legs through them,
    /// `e5e6,e6e7`; a pass or an igui ends on its origin (`e5e5`).
    pub fn move_text(&self, mv: Move) -> String {
        let g = &self.geometry;
        let mut points = vec![mv.from as usize];
        points.extend(mv.victims().iter().map(|&v| v as usize));
        points.push(mv.to as usize);
        points.windows(2).map(|w| format!("{}{}", g.name(w[0]), g.name(w[1]))).collect::<Vec<_>>().join(",")
    }

    /// The side of the piece on a square.
    pub fn side_on(&self, pos: &Position, sq: usize) -> Option<Side> {
        let c = pos.cells[sq];
        (c != EMPTY && c != super::board::OFF).then(|| cell_side(c))
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}x{})", self.name, self.geometry.width, self.geometry.height)
    }
}
