//! A variant: its board, its pieces (letters and compiled Betza), the royal
//! piece, and positions in Fairy-Stockfish's FEN.

use crate::variants::betza::{self, BetzaError, Compiled};
use crate::variants::board::{cell_side, Geometry, Position, Side, BLACK, EMPTY, MAX_SIZE, WHITE};
use crate::variants::moves::movegen::{TableError, Tables};
use crate::variants::moves::vocabulary::{Move, Special};
use crate::variants::rules::Laws;
use std::fmt;

/// One kind of piece.
#[derive(Debug, Clone)]
pub struct PieceDef {
    /// Upper-case letter (White's; Black's is the lower case).
    pub letter: char,
    /// Fairy-Stockfish's name (`knight`, `customPiece3`) or ours.
    pub name: String,
    /// Its moves in Betza notation, as written.
    pub betza: String,
    /// The Betza string compiled to leg code.
    pub compiled: Compiled,
}

impl PieceDef {
    /// A piece of `letter` named `name` moving as `betza`, compiled.
    pub fn new(letter: char, name: &str, betza: &str) -> Result<PieceDef, BetzaError> {
        Ok(PieceDef {
            letter: letter.to_ascii_uppercase(),
            name: name.into(),
            betza: betza.into(),
            compiled: betza::compile(betza)?,
        })
    }

    /// The name in words for a sentence: `shogiPawn` is a pawn,
    /// `dragonHorse` a dragon horse (`customPiece1` stays as it is).
    pub fn spoken(&self) -> String {
        if self.name.starts_with("customPiece") {
            return self.name.clone();
        }
        let mut words = String::new();
        for c in self.name.chars() {
            if c.is_ascii_uppercase() && !words.is_empty() {
                words.push(' ');
            }
            words.push(c.to_ascii_lowercase());
        }
        words.strip_prefix("shogi ").map(str::to_string).unwrap_or(words)
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
    /// The variant's name (the `variants.ini` section).
    pub name: String,
    /// Its board.
    pub geometry: Geometry,
    /// Its kinds of piece; a cell's kind indexes this list.
    pub pieces: Vec<PieceDef>,
    /// Index of the royal kind in `pieces`.
    pub royal: Option<usize>,
    /// The start position, in Fairy-Stockfish's FEN.
    pub start_fen: String,
    /// Where `i` (initial) moves are allowed.
    pub initial: Initial,
    /// The move tables built from the pieces and the board.
    pub tables: Tables,
    /// Notes for the user (ambiguous atoms).
    pub warnings: Vec<String>,
    /// Per side: positions without its royal piece are allowed (Horde's
    /// White: the start position has none).
    pub royal_optional: [bool; 2],
}

/// Why a FEN could not be read (names the field and the text), worded as
/// chess's FEN errors are: `invalid FEN: ...` for text that is not a FEN,
/// `illegal position: ...` for one that cannot happen. The FEN itself is
/// left to the caller to quote (`--fen "..."`, a suite's line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenError {
    /// The FEN as given.
    pub fen: String,
    /// Which field is wrong, and why.
    pub message: String,
}

impl std::fmt::Display for FenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.message.starts_with("illegal position: ") {
            f.write_str(&self.message)
        } else if self.message.starts_with("SFEN ") {
            write!(f, "invalid {}", self.message)
        } else {
            write!(f, "invalid FEN: {}", self.message)
        }
    }
}

impl std::error::Error for FenError {}

/// Why a variant cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// A piece's Betza string cannot be read.
    #[error("piece {letter} ({name}): {source}")]
    Betza {
        /// The piece's letter.
        letter: char,
        /// The piece's name.
        name: String,
        /// What is wrong with its Betza string.
        source: BetzaError,
    },
    /// The move tables cannot be built.
    #[error("{0}")]
    Tables(#[from] TableError),
    /// Anything else (board size, royal piece, start position).
    #[error("{0}")]
    Other(String),
}

impl Variant {
    /// Builds a variant; `start_fen` is checked.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        name: &str,
        width: u8,
        height: u8,
        pieces: Vec<PieceDef>,
        royal: Option<usize>,
        start_fen: &str,
        initial: Initial,
        laws: Laws,
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
        if let (Some(given), false) = (&laws.initial_region, initial == Initial::Anywhere) {
            regions = [0, 1].map(|side| given[side].0.clone());
        }
        if laws.walling.is_some() && (royal.is_some() || laws.must_capture) {
            // The wall could shield a royal piece, or leave only captures:
            // neither is implemented.
            let what = if royal.is_some() { "a royal king (use a commoner, as duck does)" } else { "mustCapture" };
            return Err(VariantError::Other(format!("wallingRule with {what} is not implemented")));
        }
        let kinds: Vec<_> = pieces.iter().map(|p| (p.compiled.roots.as_slice(), p.compiled.code.as_slice())).collect();
        let mut tables = Tables::new(geometry, &kinds, royal, regions.clone(), laws)?;
        tables.laws.initial_rushes = initial_rushes(&tables, &regions, pieces.len());
        if let Some(kind) = tables.laws.pawn.as_ref().filter(|p| p.betza).map(|p| p.kind) {
            let rushes = tables.betza_rushes(kind).map_err(VariantError::Other)?;
            tables.laws.pawn.as_mut().expect("a pawn").rushes = rushes;
        }
        let stuck =
            tables.laws.shogi.is_some().then(|| crate::variants::moves::shogi::stuck_cells(&tables, pieces.len()));
        if let (Some(stuck), Some(shogi)) = (stuck, tables.laws.shogi.as_mut()) {
            shogi.stuck = stuck;
            shogi.ruled = shogi.ruled_drops();
        }
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
            royal_optional: [false; 2],
        };
        let mut variant = variant;
        if let Some(r) = royal {
            let board = start_fen.split_whitespace().next().unwrap_or("");
            let letter = variant.pieces[r].letter;
            variant.royal_optional = [!board.contains(letter), !board.contains(letter.to_ascii_lowercase())]
                .map(|none| none && !board.is_empty());
        }
        if !start_fen.is_empty() {
            let start = variant.parse_fen(start_fen).map_err(|e| VariantError::Other(format!("startFen: {e}")))?;
            // Supply's bound pieces drop only where they could stand.
            let bound = variant.tables.bound_drop_cells(&start, variant.pieces.len());
            if let Some(drops) = variant.tables.laws.drops.as_mut().filter(|_| bound.iter().any(Option::is_some)) {
                drops.bound_cells = bound;
            }
        }
        Ok(variant)
    }

    /// The kind with this letter (either case).
    pub fn kind_of(&self, letter: char) -> Option<usize> {
        self.pieces.iter().position(|p| p.letter == letter.to_ascii_uppercase())
    }

    /// A move as Fairy-Stockfish writes it: `e2e4`, `a9a10`; a move that
    /// also captures on other squares lists its legs through them,
    /// `e5e6,e6e7`; a pass or an igui ends on its origin (`e5e5`).
    /// Promotions end with the new piece's letter (`e7e8q`); castling is
    /// the king's move to its castling square (`e1g1`), or king to rook
    /// (`e1h1`) in Chess960 and where a plain king move has those squares.
    /// A walling move adds its destination and its wall square after a
    /// comma (`d1a1,a1b1`; castling `e1g1,g1h5`).
    pub fn move_text(&self, pos: &Position, mv: Move) -> String {
        if mv.wall == 0 {
            return self.board_move_text(pos, mv);
        }
        let g = &self.geometry;
        let to = if mv.special == Special::Castle { self.castle_text_to(pos, mv) } else { mv.to as usize };
        let base = self.board_move_text(pos, Move { wall: 0, ..mv });
        format!("{base},{}{}", g.name(to), g.name(mv.wall as usize))
    }

    /// The square castling is written to: the king's destination, or the
    /// rook's square in Chess960 and where a plain king move has those squares.
    fn castle_text_to(&self, pos: &Position, mv: Move) -> usize {
        let chess960 = self.tables.laws.castling.as_ref().is_some_and(|c| c.chess960);
        let (kto, _) = self.tables.castling_targets(pos.side, mv.from as usize, mv.to as usize);
        let mut probe = pos.clone();
        let mut plain = Vec::new();
        self.tables.piece_moves(&mut probe, mv.from as usize, false, &mut plain);
        let ambiguous = plain.iter().any(|m| m.to as usize == kto);
        if chess960 || ambiguous {
            mv.to as usize
        } else {
            kto
        }
    }

    /// `move_text` without the wall.
    fn board_move_text(&self, pos: &Position, mv: Move) -> String {
        let g = &self.geometry;
        if let Some(kind) = mv.dropped() {
            // A piece dropped promoted side up (`dropPromoted`) is `+N@c3`.
            let base = self.tables.laws.shogi.as_ref().and_then(|s| s.demotes_to[kind]);
            return match base {
                Some(base) => format!("+{}@{}", self.pieces[base].letter, g.name(mv.to as usize)),
                None => format!("{}@{}", self.pieces[kind].letter, g.name(mv.to as usize)),
            };
        }
        if mv.special == Special::Castle {
            let to = self.castle_text_to(pos, mv);
            return match mv.gated() {
                None => format!("{}{}", g.name(mv.from as usize), g.name(to)),
                // Gating on the rook's square: rook to king, as Fairy-Stockfish writes it.
                Some((kind, sq)) if sq != mv.from as usize => {
                    format!("{}{}{}", g.name(sq), g.name(mv.from as usize), self.gate_letter(kind))
                }
                Some((kind, _)) => format!("{}{}{}", g.name(mv.from as usize), g.name(to), self.gate_letter(kind)),
            };
        }
        let mut points = vec![mv.from as usize];
        if mv.special != Special::EnPassant {
            points.extend(mv.victims().iter().map(|&v| v as usize));
        }
        points.push(mv.to as usize);
        let mut text =
            points.windows(2).map(|w| format!("{}{}", g.name(w[0]), g.name(w[1]))).collect::<Vec<_>>().join(",");
        if let Some(kind) = mv.promotion() {
            // A `promotedPieceType` promotion is Fairy-Stockfish's `+`.
            let piece_promotion = self
                .tables
                .laws
                .promotion
                .as_ref()
                .is_some_and(|p| p.pawn_piece_promotion == Some(kind) && !p.kinds[pos.side].contains(&kind));
            let piece_promotion =
                piece_promotion || self.tables.laws.shogi.as_ref().is_some_and(|s| s.demotes_to[kind].is_some());
            text.push(if self.tables.demotes(pos, mv) {
                '-'
            } else if piece_promotion {
                '+'
            } else {
                self.pieces[kind].letter.to_ascii_lowercase()
            });
        }
        if let Some((kind, _)) = mv.gated() {
            text.push(self.gate_letter(kind));
        }
        text
    }

    /// The letter that ends a gating move (`b1c3e`).
    fn gate_letter(&self, kind: usize) -> char {
        self.pieces[kind].letter.to_ascii_lowercase()
    }

    /// The side of the piece on a square.
    pub fn side_on(&self, pos: &Position, sq: usize) -> Option<Side> {
        let c = pos.cells[sq];
        (c != EMPTY && c != crate::variants::board::OFF).then(|| cell_side(c))
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}x{})", self.name, self.geometry.width, self.geometry.height)
    }
}

/// Fairy-Stockfish's en-passant moves of pieces other than the pawn: per
/// side, sorted (kind, from, to) of the two-square straight moves a piece
/// has only from its initial region (`PseudoMoves[1] & ~PseudoMoves[0]`
/// on an empty board). Empty without pawns to take them.
fn initial_rushes(tables: &Tables, regions: &[Vec<bool>; 2], kinds: usize) -> Vec<Vec<(u16, u16, u16)>> {
    let Some(pawn) = tables.laws.pawn.as_ref().map(|p| p.kind) else { return Vec::new() };
    let g = tables.geometry();
    let mut out = vec![Vec::new(), Vec::new()];
    for (side, list) in out.iter_mut().enumerate() {
        for kind in (0..kinds).filter(|&k| k != pawn) {
            for from in g.squares().filter(|&sq| regions[side][sq]) {
                let plain = tables.empty_board_targets(kind, side, from, false);
                for to in tables.empty_board_targets(kind, side, from, true) {
                    let ((fx, fy), (tx, ty)) = (g.coords(from), g.coords(to));
                    let (dx, dy) = (tx as i8 - fx as i8, ty as i8 - fy as i8);
                    let two_step = dx.abs() % 2 == 0 && dy.abs() % 2 == 0 && dx.abs().max(dy.abs()) == 2;
                    let straight = dx == 0 || dy == 0 || dx.abs() == dy.abs();
                    if two_step && straight && !plain.contains(&to) {
                        list.push((kind as u16, from as u16, to as u16));
                    }
                }
            }
        }
        list.sort_unstable();
        list.dedup();
    }
    if out.iter().all(|l| l.is_empty()) {
        return Vec::new();
    }
    out
}
