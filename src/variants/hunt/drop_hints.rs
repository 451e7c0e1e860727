//! Hints naming the drop rule that makes a printed drop (`P@e8`) illegal:
//! no such piece in hand, the square taken, the pawn's forbidden ranks,
//! the drop region, the royal piece left in check.

use super::board_view::{attackers, view_square};
use crate::rules::{Hint, SquareMark};
use crate::variants::board::{cell_kind, Position, EMPTY, NO_SQUARE, WHITE};
use crate::variants::moves::vocabulary::Move;
use crate::variants::variant::definition::Variant;

/// The rule that forbids the drop `text` (`N@c3`), if `text` is a drop
/// in a variant with hands and a rule forbids it.
pub fn why_not(variant: &Variant, pos: &Position, text: &str) -> Option<Hint> {
    let drops = variant.tables.laws.drops.as_ref()?;
    let (letter, square) = text.trim().split_once('@')?;
    let mut letters = letter.chars();
    let kind = match (letters.next(), letters.next()) {
        (Some(l), None) => variant.kind_of(l)?,
        _ => return None,
    };
    let g = &variant.geometry;
    let to = g.parse_square(square)?;
    let us = pos.side;
    let side = if us == WHITE { "White" } else { "Black" };
    let piece = variant.pieces[kind].spoken();
    if pos.hands[us].get(kind).copied().unwrap_or(0) == 0 {
        return Some(Hint::new(format!("{side} has no {piece} in hand")));
    }
    if pos.cells[to] != EMPTY {
        let words =
            format!("{} is not empty (a {} stands there)", g.name(to), variant.pieces[cell_kind(pos.cells[to])].name);
        return Some(Hint::new(words).mark(view_square(variant, to), SquareMark::InTheWay));
    }
    if !drops.cells[us].has(to) {
        return Some(Hint::new(format!("{} is outside {side}'s drop region", g.name(to))));
    }
    if drops.pawn == Some(kind) && !drops.pawn_cells[us].has(to) {
        let zone = variant.tables.laws.promotion.as_ref().is_some_and(|p| p.region[us].has(to));
        let (_, rank) = g.coords(to);
        let first = if us == WHITE { 0 } else { g.height - 1 };
        let words = match () {
            _ if rank == first => format!("no pawn drop on the first rank ({})", g.name(to)),
            _ if zone => format!("no pawn drop in the promotion zone ({})", g.name(to)),
            _ => format!("no pawn drop on {}", g.name(to)),
        };
        return Some(Hint::new(words));
    }
    if let Some(why) = shogi_rule(variant, pos, kind, to) {
        return Some(Hint::new(why));
    }
    let royal = pos.royal[us];
    if royal != NO_SQUARE {
        let mut after = pos.clone();
        variant.tables.play(&mut after, Move::drop(kind, to));
        if variant.tables.royal_attacked(&mut after, royal as usize, us ^ 1) {
            let king = royal as usize;
            let by = attackers(variant, &after, king, us ^ 1);
            let mut hint = Hint::new(match by.first() {
                Some(&a) => format!(
                    "the drop on {} leaves the {} on {} in check from the {} on {}",
                    g.name(to),
                    variant.pieces[cell_kind(pos.cells[king])].name,
                    g.name(king),
                    variant.pieces[cell_kind(pos.cells[a])].name,
                    g.name(a)
                ),
                None => format!("the drop on {} leaves the royal piece on {} in check", g.name(to), g.name(king)),
            })
            .mark(view_square(variant, king), SquareMark::Check);
            for &a in by.iter().take(2) {
                hint = hint.mark(view_square(variant, a), SquareMark::Checker);
            }
            return Some(hint);
        }
    }
    None
}

/// Shogi's drop rules: immobility, nifu, a pawn drop that mates.
fn shogi_rule(variant: &Variant, pos: &Position, kind: usize, to: usize) -> Option<String> {
    let tables = &variant.tables;
    let shogi = tables.laws.shogi.as_ref()?;
    let g = &variant.geometry;
    let piece = variant.pieces[kind].spoken();
    if shogi.immobility && shogi.stuck[pos.side][kind].has(to) {
        return Some(format!("no {piece} drop on {}: it could never move from there", g.name(to)));
    }
    if tables.shogi_doubled_files(pos, kind) >> g.coords(to).0 & 1 != 0 {
        let file = g.coords(to).0;
        let letter = char::from(b'a' + file);
        // Shogi numbers the files from the right (USI `5e`).
        return Some(format!("a second unpromoted {piece} on the {letter}-file (the {}-file)", g.width - file));
    }
    let mut after = pos.clone();
    tables.shogi_drop_mates(&mut after, Move::drop(kind, to)).then(|| format!("a {piece} drop that mates (uchifuzume)"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::variant::builtin;

    fn why(fen: &str, text: &str) -> String {
        let v = builtin::load("crazyhouse").unwrap();
        let pos = v.parse_fen(fen).unwrap();
        why_not(&v, &pos, text).unwrap_or_default().text
    }

    #[test]
    fn each_drop_rule_is_named() {
        let fen = "4k3/8/8/8/8/8/4r3/4K3[Pn] w - - 0 1";
        assert_eq!(why(fen, "N@c3"), "White has no knight in hand");
        assert_eq!(why(fen, "P@e2"), "e2 is not empty (a rook stands there)");
        assert_eq!(why(fen, "P@a8"), "no pawn drop in the promotion zone (a8)");
        assert_eq!(why(fen, "P@a1"), "no pawn drop on the first rank (a1)");
        assert_eq!(why(fen, "P@a4"), "the drop on a4 leaves the king on e1 in check from the rook on e2");
        // A drop that blocks a check, and anything that is not a drop, has no hint here.
        assert_eq!(why("4k3/4r3/8/8/8/8/8/4K3[P] w - - 0 1", "P@e4"), "");
        assert_eq!(why(fen, "e1d1"), "");
    }

    #[test]
    fn shogi_drop_rules_are_named() {
        let v = builtin::load("shogi").unwrap();
        let why = |fen: &str, text: &str| why_not(&v, &v.parse_fen(fen).unwrap(), text).unwrap_or_default().text;
        // The witness of docs/variants.md: P@e8 mates (the gold guards e8, the lances block the king).
        let mate = "3lkl3/9/4G4/9/9/9/9/9/4K4[PNL] w - - 0 1";
        assert_eq!(why(mate, "P@e8"), "a pawn drop that mates (uchifuzume)");
        assert_eq!(why(mate, "N@a8"), "no knight drop on a8: it could never move from there");
        assert_eq!(why(mate, "L@b9"), "no lance drop on b9: it could never move from there");
        let nifu = "4k4/9/9/9/9/9/4P4/9/4K4[P] w - - 0 1";
        assert_eq!(why(nifu, "P@e5"), "a second unpromoted pawn on the e-file (the 5-file)");
        assert_eq!(why(nifu, "P@d5"), "");
    }
}
