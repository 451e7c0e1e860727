//! Hints for stone games (Ataxx, Othello): what a move flips, and the
//! rule that makes a printed drop or pass illegal (the drop encloses no
//! stone, touches no own stone, the opening squares come first, the pass
//! only without another move, the game is over).

use super::board_view::view_square;
use crate::rules::{Hint, SquareMark};
use crate::variants::board::{Position, EMPTY, WHITE};
use crate::variants::moves::vocabulary::{Move, Special};
use crate::variants::rules::Enclosing;
use crate::variants::variant::definition::Variant;

/// What a stone game's move does: the stones it flips, or a pass.
pub fn describe(variant: &Variant, pos: &Position, mv: Move) -> Option<Hint> {
    variant.tables.laws.stones.as_ref()?;
    let g = &variant.geometry;
    let side = if pos.side == WHITE { "White" } else { "Black" };
    if mv.special == Special::Pass {
        return Some(Hint::new(format!("a pass: {side} has no other move")));
    }
    let flipped = flipped(variant, pos, mv);
    let what = match mv.special {
        Special::Drop => format!("a stone dropped on {}", g.name(mv.to as usize)),
        _ => format!("the stone on {} jumps to {}", g.name(mv.from as usize), g.name(mv.to as usize)),
    };
    let mut hint = Hint::new(if flipped.is_empty() {
        format!("{what}; it flips no stone")
    } else {
        let names: Vec<String> = flipped.iter().map(|&c| g.name(c)).collect();
        format!("{what}; the stones on {} flip", names.join(" "))
    });
    for c in flipped {
        hint = hint.mark(view_square(variant, c), SquareMark::Flipped);
    }
    Some(hint)
}

/// The cells whose stones `mv` turns over.
fn flipped(variant: &Variant, pos: &Position, mv: Move) -> Vec<usize> {
    let mut after = pos.clone();
    variant.tables.play(&mut after, mv);
    variant
        .geometry
        .squares()
        .filter(|&c| pos.cells[c] != EMPTY && after.cells[c] != EMPTY && after.cells[c] != pos.cells[c])
        .collect()
}

/// The stone rule that forbids the printed move `text` (`P@c4`, `a1a1`),
/// if the variant is a stone game and one does.
pub fn why_not(variant: &Variant, pos: &Position, text: &str) -> Option<Hint> {
    let stones = variant.tables.laws.stones.as_ref()?;
    let g = &variant.geometry;
    let us = pos.side;
    let side = if us == WHITE { "White" } else { "Black" };
    let mut probe = pos.clone();
    let legal = variant.tables.legal_moves(&mut probe);
    if legal.is_empty() && variant.tables.game_over(pos) {
        let why = if pos.passes >= 2 { "two passes in a row" } else { "the board is full" };
        return Some(Hint::new(format!("the game is over ({why}): no move is legal")));
    }
    let text = text.trim();
    if let Some((_, square)) = text.split_once('@') {
        let to = g.parse_square(square)?;
        if pos.cells[to] != EMPTY {
            return Some(
                Hint::new(format!("{} is not empty", g.name(to))).mark(view_square(variant, to), SquareMark::InTheWay),
            );
        }
        let kind = variant.tables.stone_tables()?.kind;
        if !stones.free_drops && pos.hands[us].get(kind).copied().unwrap_or(0) == 0 {
            return Some(Hint::new(format!("{side} has no stone in hand")));
        }
        let open: Vec<usize> = g.squares().filter(|&c| stones.start.has(c) && pos.cells[c] == EMPTY).collect();
        if !open.is_empty() && !open.contains(&to) {
            let names: Vec<String> = open.iter().map(|&c| g.name(c)).collect();
            return Some(Hint::new(format!(
                "while a start square ({}) is empty, stones go only there (enclosingDropStart)",
                names.join(" ")
            )));
        }
        if legal.iter().any(|m| m.special == Special::Drop && m.to as usize == to) {
            return None;
        }
        return Some(Hint::new(match stones.drop {
            Enclosing::Reversi => {
                format!("the drop on {} encloses no stone (no line of enemy stones ends at an own stone)", g.name(to))
            }
            Enclosing::Ataxx => format!("the drop on {} touches no own stone (a clone goes next to one)", g.name(to)),
        }));
    }
    let (from, to) = (g.parse_square(text.get(..text.len() / 2)?)?, g.parse_square(text.get(text.len() / 2..)?)?);
    if from != to {
        return None;
    }
    if !stones.pass_on_stalemate[us] {
        return Some(Hint::new(format!("{side} may not pass: without a move the game is lost")));
    }
    if let Some(&other) = legal.iter().find(|m| m.special != Special::Pass) {
        let words =
            format!("a pass only when there is no other move ({side} can play {})", variant.move_text(pos, other));
        return Some(Hint::new(words));
    }
    let lowest = legal.first().map(|m| g.name(m.from as usize)).unwrap_or_default();
    Some(Hint::new(format!("the pass is written from {side}'s lowest square: {lowest}{lowest}")))
}
