//! Walling moves in the hunt: reading `d1a1,a1b1` (the move, then its
//! destination and the wall square), refusing a walling move without its
//! wall square or a move onto a wall, and hints that name the walling rule
//! ("the arrow crosses a piece", "the wall square is occupied", "the duck
//! must move").

use super::board_view::view_square;
use crate::rules::{Hint, ReadMoveError, SquareMark};
use crate::variants::board::{cell_kind, cell_side, Position, EMPTY, OFF};
use crate::variants::moves::vocabulary::Move;
use crate::variants::rules::WallRule;
use crate::variants::variant::definition::Variant;

/// A walling move's text split: (the move without its wall, the wall square).
fn split(variant: &Variant, text: &str) -> Result<(String, usize), ReadMoveError> {
    let g = &variant.geometry;
    let name = &variant.name;
    let Some((base, second)) = text.rsplit_once(',') else {
        return Err(ReadMoveError::Malformed(format!(
            "{text:?} has no wall square: a move of {name} places a wall, written after a comma (d1a1,a1b1)"
        )));
    };
    // The second part is the destination again, then the wall square.
    let squares = square_names(second);
    let dest = base.trim_end_matches(|c: char| c.is_ascii_alphabetic() && !c.is_ascii_digit());
    let dest_ok = squares.len() == 2 && dest.to_ascii_lowercase().ends_with(&squares[0].to_ascii_lowercase());
    match (dest_ok, squares.get(1).and_then(|s| g.parse_square(s))) {
        (true, Some(wall)) => Ok((base.to_string(), wall)),
        _ => Err(ReadMoveError::Malformed(format!(
            "{text:?}: the part after the comma must be the destination, then the wall square (d1a1,a1b1)"
        ))),
    }
}

/// The square names of a text (`a1b10` gives `a1`, `b10`).
fn square_names(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in text.chars() {
        if c.is_ascii_alphabetic() {
            out.push(c.to_string());
        } else if let Some(last) = out.last_mut() {
            last.push(c);
        } else {
            return Vec::new();
        }
    }
    out
}

/// The first square of a move text that is a wall, if any.
fn onto_wall(variant: &Variant, pos: &Position, text: &str) -> Option<usize> {
    let g = &variant.geometry;
    square_names(&text.replace(['-', 'x', ','], ""))
        .iter()
        .filter_map(|s| g.parse_square(s))
        .find(|&sq| pos.cells[sq] == OFF)
}

/// Reads a move of a walling variant among `legal` (its legal moves):
/// a text without a wall square, or naming a wall, is `Malformed`; a
/// well-formed one that is not legal is `Illegal`.
pub fn read(variant: &Variant, pos: &Position, legal: &[Move], text: &str) -> Result<Move, ReadMoveError> {
    if let Some(&mv) = legal.iter().find(|&&m| variant.move_text(pos, m).eq_ignore_ascii_case(text)) {
        return Ok(mv);
    }
    let (base, wall) = split(variant, text)?;
    if let Some(sq) = onto_wall(variant, pos, text) {
        return Err(ReadMoveError::Malformed(format!(
            "{text:?} goes onto {}, a wall: no piece and no wall may stand there",
            variant.geometry.name(sq)
        )));
    }
    let g = &variant.geometry;
    // A promotion's letter (`d7c8q,c8d5`) is not a square.
    let squares = base.trim_end_matches(|c: char| c.is_ascii_alphabetic()).replace(['-', 'x'], "");
    if square_names(&squares).iter().any(|s| g.parse_square(s).is_none()) {
        return Err(ReadMoveError::Syntax(text.into()));
    }
    // Well formed: the same move text in our spelling, for the diff.
    let _ = wall;
    Err(ReadMoveError::Illegal { text: text.into(), canonical: Some(text.to_ascii_lowercase()) })
}

/// Why a walling move the engine lists is not legal, if the walling rule
/// tells: its wall square occupied, outside the region, not where the
/// arrow can fly, not the square left, or the duck not moved.
pub fn why_not(variant: &Variant, pos: &Position, text: &str) -> Option<Hint> {
    let walling = variant.tables.laws.walling.as_ref()?;
    let g = &variant.geometry;
    let (base, wall) = split(variant, text).ok()?;
    let points: Vec<usize> = square_names(&base).iter().filter_map(|s| g.parse_square(s)).collect();
    let (&from, &to) = (points.first()?, points.last()?);
    let name = |sq: usize| g.name(sq);
    let mark = |h: Hint, sq: usize, m: SquareMark| h.mark(view_square(variant, sq), m);
    if pos.placed.contains(wall) && walling.rule == WallRule::Duck {
        return Some(mark(
            Hint::new(format!("the duck must move (it stands on {})", name(wall))),
            wall,
            SquareMark::InTheWay,
        ));
    }
    if wall == to || (pos.cells[wall] != EMPTY && wall != from) {
        let what = if pos.cells[wall] == OFF { "a wall" } else { "occupied" };
        return Some(mark(Hint::new(format!("the wall square {} is {what}", name(wall))), wall, SquareMark::InTheWay));
    }
    if !walling.region[pos.side].has(wall) {
        return Some(Hint::new(format!("no wall may go on {} (wallingRegion)", name(wall))));
    }
    match walling.rule {
        WallRule::Past if wall != from => {
            Some(Hint::new(format!("the wall goes on the square left ({}), not on {}", name(from), name(wall))))
        }
        WallRule::Arrow => arrow_hint(variant, pos, from, to, wall),
        _ => None,
    }
}

/// The arrow from `to` to `wall` after the move `from`-`to`: a line it
/// cannot fly along, or a piece (or wall) it crosses.
fn arrow_hint(variant: &Variant, pos: &Position, from: usize, to: usize, wall: usize) -> Option<Hint> {
    let g = &variant.geometry;
    let ((tf, tr), (wf, wr)) = (g.coords(to), g.coords(wall));
    let (df, dr) = (wf as i32 - tf as i32, wr as i32 - tr as i32);
    if df != 0 && dr != 0 && df.abs() != dr.abs() {
        return None;
    }
    let step = g.delta((df.signum() as i8, dr.signum() as i8));
    let mut sq = (to as isize + step) as usize;
    while sq != wall {
        let c = pos.cells[sq];
        if c != EMPTY && sq != from {
            let what = if c == OFF {
                "a wall".to_string()
            } else {
                let side = if cell_side(c) == 0 { "white" } else { "black" };
                format!("the {side} {}", variant.pieces[cell_kind(c)].name)
            };
            let hint = Hint::new(format!("the arrow crosses a piece: {what} on {}", g.name(sq)));
            return Some(hint.mark(view_square(variant, sq), SquareMark::InTheWay));
        }
        sq = (sq as isize + step) as usize;
    }
    None
}

/// What a walling move the engine misses is: the move and where its wall goes.
pub fn describe(variant: &Variant, mv: Move) -> Option<Hint> {
    let walling = variant.tables.laws.walling.as_ref()?;
    let g = &variant.geometry;
    let wall = mv.wall as usize;
    let words = match walling.rule {
        WallRule::Arrow => format!("an arrow shot from {} to {}", g.name(mv.to as usize), g.name(wall)),
        WallRule::Duck => format!("the duck placed on {}", g.name(wall)),
        WallRule::Past => format!("the square left, {}, walled", g.name(wall)),
        WallRule::Static | WallRule::Edge => format!("a wall placed on {}", g.name(wall)),
    };
    Some(Hint::new(words).mark(view_square(variant, wall), SquareMark::Empty))
}
