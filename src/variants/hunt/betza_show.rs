//! `betza show`: the moves of one piece on a board, without the royal rule.
//!
//! The board holds the piece under test (`T` white, `t` black) and, from a
//! FEN, other pieces: `x`/`X` are wazirs, `k`/`K` kings (no royal rule
//! here), unless the caller defines those letters otherwise.

use crate::variants::board::{cell_side, piece_cell, Position, EMPTY, WHITE};
use crate::variants::moves::vocabulary::Move;
use crate::variants::variant::definition::{FenError, Initial, PieceDef, Variant, VariantError};

/// One move of the piece: its destination and every square whose piece it removes.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct ShownMove {
    /// The destination square (`e4`).
    pub to: String,
    /// Every square whose piece the move removes (destination and locust victims).
    pub captures: Vec<String>,
}

/// How a square is reached.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Mark {
    /// A non-capturing move ends here.
    pub moves: bool,
    /// A capture ends here (for an empty square: would, were an enemy here).
    pub captures: bool,
    /// A locust victim of some move.
    pub victim: bool,
}

/// The piece on its square and what it can do.
#[derive(Debug, Clone)]
pub struct Shown {
    /// The one-piece variant built around the Betza string.
    pub variant: Variant,
    /// The board with the piece on it.
    pub position: Position,
    /// The cell of the piece under test.
    pub origin: usize,
    /// Its moves, sorted.
    pub moves: Vec<ShownMove>,
    /// Per cell.
    pub marks: Vec<Mark>,
}

/// Why `show` cannot run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShowError {
    /// The Betza string or the board is not a valid variant.
    #[error("{0}")]
    Variant(#[from] VariantError),
    /// The `--fen` cannot be read.
    #[error("{0}")]
    Fen(#[from] FenError),
    /// Anything else (where the piece under test stands, or cannot stand).
    #[error("{0}")]
    Other(String),
}

/// The board of `--fen`, or an empty `width`x`height` board, with the piece
/// `betza` on `square` (or where the FEN has `t`/`T`).
pub fn show(betza: &str, width: u8, height: u8, square: Option<&str>, fen: Option<&str>) -> Result<Shown, ShowError> {
    let pieces = vec![
        PieceDef::new('T', "tested", betza).map_err(|e| VariantError::Betza {
            letter: 'T',
            name: "tested".into(),
            source: e,
        })?,
        PieceDef::new('X', "wazir", "W").expect("W"),
        PieceDef::new('K', "king", "K").expect("K"),
    ];
    let (w, h) = match fen {
        Some(f) => fen_size(f)?,
        None => (width, height),
    };
    let variant = Variant::new("show", w, h, pieces, None, "", Initial::Anywhere, Default::default())?;
    let g = variant.geometry;
    let mut pos = match fen {
        Some(f) => variant.parse_fen(f)?,
        None => Position::empty(&g),
    };
    let tested: Vec<usize> = g
        .squares()
        .filter(|&s| pos.cells[s] != EMPTY && crate::variants::board::cell_kind(pos.cells[s]) == 0)
        .collect();
    let origin = match (square, tested.as_slice()) {
        (_, [a, _, ..]) => {
            return Err(ShowError::Other(format!(
                "the FEN has more than one piece under test (t/T on {} and {})",
                g.name(*a),
                g.name(tested[1])
            )))
        }
        (Some(s), [t]) => {
            let sq = g
                .parse_square(s)
                .ok_or_else(|| ShowError::Other(format!("--square {s}: not a square of a {w}x{h} board")))?;
            if sq != *t {
                return Err(ShowError::Other(format!(
                    "--square {s}, but the piece under test stands on {}",
                    g.name(*t)
                )));
            }
            sq
        }
        (None, [t]) => *t,
        // Not silently the centre: the FEN was meant to place the piece.
        (None, []) if fen.is_some() => {
            return Err(ShowError::Other(
                "the FEN has no piece under test: put a T (or t) where it stands, or give --square".to_string(),
            ))
        }
        (s, []) => {
            let sq = match s {
                Some(s) => g
                    .parse_square(s)
                    .ok_or_else(|| ShowError::Other(format!("--square {s}: not a square of a {w}x{h} board")))?,
                None => g.cell(w / 2, h / 2),
            };
            if pos.cells[sq] != EMPTY {
                return Err(ShowError::Other(format!("--square {}: the square is occupied", g.name(sq))));
            }
            pos.put(sq, piece_cell(0, WHITE), false);
            sq
        }
    };
    let side = cell_side(pos.cells[origin]);
    let mut raw: Vec<Move> = Vec::new();
    variant.tables.piece_moves(&mut pos, origin, true, &mut raw);
    let mut marks = vec![Mark::default(); g.cells];
    let mut moves = Vec::new();
    for mv in &raw {
        let to = mv.to as usize;
        let mut captures: Vec<String> = mv.victims().iter().map(|&v| g.name(v as usize)).collect();
        for &v in mv.victims() {
            marks[v as usize].victim = true;
        }
        if to != origin && pos.cells[to] != EMPTY {
            captures.push(g.name(to));
            marks[to].captures = true;
        } else if to != origin && mv.victims().is_empty() {
            marks[to].moves = true;
        }
        moves.push(ShownMove { to: g.name(to), captures });
    }
    moves.sort();
    // Empty squares: would a capture end there, were an enemy on it?
    let enemy = piece_cell(1, side ^ 1);
    for sq in g.squares() {
        if pos.cells[sq] != EMPTY || sq == origin {
            continue;
        }
        pos.cells[sq] = enemy;
        let mut hyp = Vec::new();
        variant.tables.piece_moves(&mut pos, origin, true, &mut hyp);
        pos.cells[sq] = EMPTY;
        if hyp.iter().any(|m| m.to as usize == sq) {
            marks[sq].captures = true;
        }
        if hyp.iter().any(|m| m.victims().contains(&(sq as u16))) {
            marks[sq].victim = true;
        }
    }
    Ok(Shown { variant, position: pos, origin, moves, marks })
}

/// Files and ranks of a FEN's board field.
fn fen_size(fen: &str) -> Result<(u8, u8), ShowError> {
    let board = fen.split_whitespace().next().unwrap_or("");
    let ranks: Vec<&str> = board.split('/').collect();
    let mut width = 0;
    let files = |r: &str| {
        let mut n = 0usize;
        let mut digits = String::new();
        for c in r.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
            } else {
                n += digits.parse::<usize>().unwrap_or(0) + 1;
                digits.clear();
            }
        }
        n + digits.parse::<usize>().unwrap_or(0)
    };
    if let Some(first) = ranks.first() {
        width = files(first);
    }
    if !(1..=16).contains(&width) || !(1..=16).contains(&ranks.len()) {
        return Err(ShowError::Other(format!(
            "--fen {fen:?}: the board must be 1x1 to 16x16 (first rank has {width} files, {} ranks)",
            ranks.len()
        )));
    }
    Ok((width as u8, ranks.len() as u8))
}
