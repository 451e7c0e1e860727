//! Hints naming Janggi's rules when a printed move is illegal: the
//! cannon's screen ("a cannon needs exactly one screen", "a cannon may not
//! jump over a cannon", "a cannon may not take a cannon"), the palace's
//! diagonal lines, the pass (not in check, not in this variant) and
//! bikjang; and the missing move along a palace line.

use super::board_view::view_square;
use crate::rules::{Hint, SquareMark};
use crate::variants::board::{cell_kind, cell_side, Position, EMPTY, OFF};
use crate::variants::moves::vocabulary::Move;
use crate::variants::variant::definition::Variant;

/// The Janggi rule that forbids moving from `from` to `to`, if one does.
pub fn why_not(variant: &Variant, pos: &Position, from: usize, to: usize) -> Option<Hint> {
    let (g, t) = (&variant.geometry, &variant.tables);
    let cell = pos.cells[from];
    if cell == EMPTY || cell == OFF || cell_side(cell) != pos.side || to >= g.cells || pos.cells[to] == OFF {
        return None;
    }
    let kind = cell_kind(cell);
    if from == to && variant.royal == Some(kind) {
        return Some(pass_hint(variant, pos, from));
    }
    let mut probe = pos.clone();
    if t.bikjang(pos) && t.pseudo_legal_has(&mut probe, from, to) {
        return Some(Hint::new(
            "bikjang: the generals face each other, and every move but the pass must break the facing".to_string(),
        ));
    }
    let palace = t.laws.palace.as_ref()?;
    let (f, d) = (t.coords_of(from), t.coords_of(to));
    let (dx, dy) = (d.0 - f.0, d.1 - f.1);
    let diagonal = dx != 0 && dx.abs() == dy.abs();
    if diagonal && palace.diagonal(kind).is_some() && (!palace.lines.has(from) || !palace.lines.has(to)) {
        let off = if palace.lines.has(from) { to } else { from };
        let cells: Vec<String> = g.squares().filter(|&c| palace.lines.has(c)).map(|c| g.name(c)).collect();
        return Some(
            Hint::new(format!(
                "the palace's diagonal lines run only through {}: {} is not on them",
                cells.join(" "),
                g.name(off)
            ))
            .mark(view_square(variant, off), SquareMark::InTheWay),
        );
    }
    if !palace.is_cannon(kind) || !(dx == 0 || dy == 0 || diagonal) {
        return None;
    }
    let is_cannon = |c: u8| c != EMPTY && c != OFF && palace.is_cannon(cell_kind(c));
    if is_cannon(pos.cells[to]) {
        return Some(
            Hint::new(format!("a cannon may not take a cannon (on {})", g.name(to)))
                .mark(view_square(variant, to), SquareMark::Captured),
        );
    }
    let step = g.delta((dx.signum(), dy.signum()));
    let mut screens = Vec::new();
    let mut sq = (from as isize + step) as usize;
    while sq != to {
        if pos.cells[sq] != EMPTY {
            screens.push(sq);
        }
        sq = (sq as isize + step) as usize;
    }
    match screens[..] {
        [] => Some(Hint::new(format!(
            "a cannon needs exactly one screen: none between {} and {}",
            g.name(from),
            g.name(to)
        ))),
        [s] if is_cannon(pos.cells[s]) => Some(
            Hint::new(format!("a cannon may not jump over a cannon (on {})", g.name(s)))
                .mark(view_square(variant, s), SquareMark::InTheWay),
        ),
        [_] => None,
        _ => Some(Hint::new(format!(
            "a cannon needs exactly one screen: {} between {} and {}",
            screens.len(),
            g.name(from),
            g.name(to)
        ))),
    }
}

/// Why the king may not pass here.
fn pass_hint(variant: &Variant, pos: &Position, king: usize) -> Hint {
    let t = &variant.tables;
    let g = &variant.geometry;
    match t.laws.passing {
        Some(p) if p.pass[pos.side] => {
            if t.passed_to_end(pos) {
                Hint::new("the game is over: it ended with a pass (two in a row, or one in bikjang)".to_string())
            } else {
                Hint::new(format!("no pass while in check (the king on {} is attacked)", g.name(king)))
                    .mark(view_square(variant, king), SquareMark::Check)
            }
        }
        _ => Hint::new("this variant has no pass (pass = false)".to_string()),
    }
}

/// A missing move along the palace's diagonal lines, or a pass, in words.
pub fn describe(variant: &Variant, pos: &Position, mv: Move) -> Option<Hint> {
    let t = &variant.tables;
    let palace = t.laws.palace.as_ref()?;
    let (from, to) = (mv.from as usize, mv.to as usize);
    let (f, d) = (t.coords_of(from), t.coords_of(to));
    let diagonal = f.0 != d.0 && (d.0 - f.0).abs() == (d.1 - f.1).abs();
    let kind = cell_kind(pos.cells[from]);
    (diagonal && palace.lines.has(from) && palace.diagonal(kind).is_some()).then(|| {
        let g = &variant.geometry;
        Hint::new(format!(
            "the {} on {} moves along the palace's diagonal line to {}",
            variant.pieces[kind].name,
            g.name(from),
            g.name(to)
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn janggi_rules_are_named() {
        let v = crate::variants::variant::builtin::load("janggi").unwrap();
        let why = |fen: &str, from: &str, to: &str| {
            let pos = v.parse_fen(fen).unwrap();
            let sq = |s: &str| v.geometry.parse_square(s).unwrap();
            why_not(&v, &pos, sq(from), sq(to)).unwrap_or_default().text
        };
        let cannons = "3k5/9/9/9/9/9/9/9/9/C1C1RK3 w - - 0 1";
        assert!(
            why(cannons, "a1", "d1").contains("may not jump over a cannon (on c1)"),
            "{}",
            why(cannons, "a1", "d1")
        );
        assert!(why(cannons, "a1", "a5").contains("exactly one screen: none"));
        assert!(why("4k4/9/9/9/c8/9/9/9/P8/C3K4 w - - 0 1", "a1", "a6").contains("may not take a cannon"));
        assert!(why("4k4/9/9/9/9/9/9/9/9/4K3r w - - 0 1", "e1", "e1").contains("no pass while in check"));
        assert!(why("4k4/9/9/9/9/9/9/9/9/3RK4 w - - 0 1", "d1", "c2").contains("diagonal lines run only through"));
        assert!(why("4k4/9/9/9/9/9/9/9/9/3RK4 w - - 0 1", "d1", "d2").contains("bikjang"));
        assert!(why("4k4/9/9/9/9/9/9/9/9/3RK4 w - - 0 1", "e1", "d2").contains("e1 is not on them"));
        let casual = crate::variants::variant::builtin::load("janggicasual").unwrap();
        let pos = casual.parse_fen("4k4/9/9/9/9/9/9/9/9/3RK4 w - - 0 1").unwrap();
        let sq = |s: &str| casual.geometry.parse_square(s).unwrap();
        assert!(why_not(&casual, &pos, sq("d1"), sq("d2")).is_none());
    }
}
