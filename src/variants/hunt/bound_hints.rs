//! Hints naming the bound that makes a printed move illegal: a piece
//! leaving its region ("the general may not leave the palace"), a soldier
//! stepping sideways before the river, generals that would face each other;
//! and, for a move the engine lacks, facing generals that this variant
//! allows (no `flyingGeneral`, no `bikjangRule`) where the engine may not.
//! (A cannon without exactly one screen is told by `move_hints`' path
//! reading, as any hopper's.)

use crate::rules::Hint;
use crate::variants::board::{cell_kind, cell_side, Position, EMPTY, OFF};
use crate::variants::moves::vocabulary::Move;
use crate::variants::variant::definition::Variant;

/// The bound of the variant that forbids moving from `from` to `to`, if one does.
pub fn why_not(variant: &Variant, pos: &Position, from: usize, to: usize) -> Option<Hint> {
    let (g, bounds) = (&variant.geometry, &variant.tables.laws.bounds);
    let cell = pos.cells[from];
    if cell == EMPTY || cell == OFF || cell_side(cell) != pos.side || to >= g.cells || pos.cells[to] == OFF {
        return None;
    }
    let (us, kind) = (pos.side, cell_kind(cell));
    let name = &variant.pieces[kind].name;
    if bounds.region(kind, us).is_some_and(|r| !r.has(to)) {
        let place = if variant.royal == Some(kind) { "the general may not leave the palace: " } else { "" };
        return Some(Hint::new(format!("{place}{} is outside the {name}'s region", g.name(to))));
    }
    if let Some((k, rank)) = bounds.soldier.filter(|&(k, _)| k == kind) {
        if !variant.tables.bound_allows(k, us, from, to) {
            return Some(Hint::new(format!(
                "a soldier steps sideways only from its rank {} on (after the river)",
                rank + 1
            )));
        }
    }
    if bounds.flying_general {
        let mut probe = pos.clone();
        let moves = variant.tables.legal_moves(&mut probe);
        let mut pseudo = Vec::new();
        variant.tables.pseudo_legal(&mut probe, &mut pseudo);
        if let Some(&mv) = pseudo.iter().find(|m| m.from as usize == from && m.to as usize == to && !moves.contains(m))
        {
            let played = variant.tables.play(&mut probe, mv);
            let faces = variant.tables.general_faces(&probe, probe.royal[us] as usize, us ^ 1, usize::MAX);
            variant.tables.unplay(&mut probe, mv, &played);
            if faces {
                return Some(Hint::new("the generals would face each other (flying general)".to_string()));
            }
        }
    }
    None
}

/// A move of ours the engine lacks, explained by generals facing each
/// other where this variant has no rule against it: after the move with
/// `flyingGeneral = false`, or already before it with `bikjangRule = false`.
pub fn facing_allowed(variant: &Variant, pos: &Position, mv: Move) -> Option<Hint> {
    let (t, kind) = (&variant.tables, variant.royal?);
    let palace_bound = (0..2).all(|side| t.laws.bounds.region(kind, side).is_some());
    if !palace_bound || t.laws.bounds.flying_general {
        return None;
    }
    let facing = |p: &Position| {
        let file =
            || variant.geometry.name(p.royal[0] as usize).trim_end_matches(|c: char| c.is_ascii_digit()).to_string();
        t.generals_face(p).then(file)
    };
    let no_bikjang = t.laws.passing.is_none_or(|p| !p.bikjang);
    if let Some(file) = facing(pos).filter(|_| no_bikjang && t.laws.palace.is_some()) {
        return Some(Hint::new(format!(
            "the generals face each other on the {file}-file, and this variant has no bikjang (bikjangRule = false): \
             play goes on as usual"
        )));
    }
    let mut after = pos.clone();
    t.play(&mut after, mv);
    facing(&after).map(|file| {
        Hint::new(format!(
            "after it the generals face each other on the {file}-file, which this variant allows (flyingGeneral = false)"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palace_river_and_flying_general_are_named() {
        let v = crate::variants::variant::builtin::load("xiangqi").unwrap();
        let why = |fen: &str, from: &str, to: &str| {
            let pos = v.parse_fen(fen).unwrap();
            let sq = |s: &str| v.geometry.parse_square(s).unwrap();
            why_not(&v, &pos, sq(from), sq(to)).unwrap_or_default().text
        };
        assert!(why("4k4/9/9/9/9/9/9/3K5/9/9 w - - 0 1", "d3", "d4").contains("may not leave the palace"));
        assert!(why("4k4/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1", "c5", "e7").contains("elephant's region"));
        assert!(why("4k4/9/9/9/9/9/4P4/9/9/3K5 w - - 0 1", "e4", "d4").contains("sideways only from its rank 6"));
        assert!(why("4k4/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1", "e6", "d8").contains("face each other"));
        assert!(why("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "e1", "d1").contains("face each other"));
        assert_eq!(why("4k4/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1", "e1", "d1"), "");
    }
}
