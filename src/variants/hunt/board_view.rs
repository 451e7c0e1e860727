//! A variant drawn for the witness picture: its board (up to 16x16), the
//! pieces by their letters, the side to move, and a royal piece in check
//! with the pieces that give it.

use crate::rules::{BoardView, SquareMark};
use crate::variants::board::{cell_kind, cell_side, piece_cell, Position, Side, EMPTY, NO_SQUARE, OFF, WHITE};
use crate::variants::variant::definition::Variant;

/// The number a [`BoardView`] of the variant's board gives `cell`.
pub fn view_square(variant: &Variant, cell: usize) -> usize {
    let g = &variant.geometry;
    let (f, r) = g.coords(cell);
    r as usize * g.width as usize + f as usize
}

/// The pieces of `by` that could capture on `target` (when it is empty, as
/// if a piece of the other side stood there), in the order of `by`'s list.
pub fn attackers(variant: &Variant, pos: &Position, target: usize, by: Side) -> Vec<usize> {
    let mut scratch = pos.clone();
    if scratch.cells[target] == EMPTY {
        let stand_in = variant.royal.or_else(|| pos.lists[by ^ 1].first().map(|&c| cell_kind(pos.cells[c as usize])));
        scratch.put(target, piece_cell(stand_in.unwrap_or(0), by ^ 1), false);
    }
    let mut moves = Vec::new();
    let mut found = Vec::new();
    for &from in &pos.lists[by] {
        moves.clear();
        variant.tables.piece_moves(&mut scratch, from as usize, false, &mut moves);
        if moves.iter().any(|m| m.to as usize == target || m.victims().contains(&(target as u16))) {
            found.push(from as usize);
        }
    }
    found
}

/// The board of `pos` with a check marked.
pub fn board_view(variant: &Variant, pos: &Position) -> BoardView {
    let g = &variant.geometry;
    let mut view = BoardView::empty(g.width, g.height);
    for cell in g.squares() {
        let c = pos.cells[cell];
        if c == EMPTY {
            continue;
        }
        if c == OFF {
            // A wall (the duck, an arrow, a hole): drawn as `*`.
            let (f, r) = g.coords(cell);
            let sq = view.square(f, r);
            view.squares[sq] = Some('*');
            continue;
        }
        let letter = variant.pieces[cell_kind(c)].letter;
        let (f, r) = g.coords(cell);
        let sq = view.square(f, r);
        view.squares[sq] = Some(if cell_side(c) == WHITE { letter } else { letter.to_ascii_lowercase() });
    }
    view.white_to_move = pos.side == WHITE;
    regions(variant, &mut view);
    if variant.tables.laws.drops.is_some() {
        view.hands = Some([0, 1].map(|side| hand_letters(variant, pos, side)));
    }
    let royal = pos.royal[pos.side];
    if royal != NO_SQUARE {
        let royal = royal as usize;
        let checkers = attackers(variant, pos, royal, pos.side ^ 1);
        if !checkers.is_empty() {
            view.marks.push((view_square(variant, royal), SquareMark::Check));
            view.marks.extend(checkers.iter().map(|&c| (view_square(variant, c), SquareMark::Checker)));
        }
    }
    view
}

/// The palaces (the royal piece's regions) and the river (where a piece's
/// region for White is the lower half of the board, Xiangqi's elephant).
fn regions(variant: &Variant, view: &mut BoardView) {
    let (g, bounds) = (&variant.geometry, &variant.tables.laws.bounds);
    let Some(royal) = variant.royal else { return };
    for side in [WHITE, WHITE ^ 1] {
        if let Some(region) = bounds.region(royal, side) {
            view.palace.extend(g.squares().filter(|&c| region.has(c)).map(|c| view_square(variant, c)));
        }
    }
    let half = g.height / 2;
    let lower_half = |kind: usize| {
        bounds.region(kind, WHITE).is_some_and(|r| g.squares().all(|c| r.has(c) == (g.coords(c).1 < half)))
    };
    if g.height % 2 == 0 && (0..variant.pieces.len()).any(|k| Some(k) != variant.royal && lower_half(k)) {
        view.river = Some(half - 1);
    }
}

/// The pieces in `side`'s hand, each letter as often as it is held, in
/// the order of the variant's pieces (upper case for White).
fn hand_letters(variant: &Variant, pos: &Position, side: Side) -> Vec<char> {
    let mut letters = Vec::new();
    for (kind, &n) in pos.hands[side].iter().enumerate() {
        let letter = variant.pieces[kind].letter;
        let letter = if side == WHITE { letter } else { letter.to_ascii_lowercase() };
        letters.extend(std::iter::repeat_n(letter, n as usize));
    }
    letters
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use crate::variants::hunt::VariantRules;

    #[test]
    fn a_ten_by_ten_board_with_a_check() {
        let text = "[ten]\nmaxFile = 10\nmaxRank = 10\nking = k\nrook = r\n\
                    startFen = 9k/10/10/10/10/10/10/10/10/4K4R b - - 0 1\n";
        let variant = crate::variants::variant::user_ini::parse("v.ini", text).unwrap().variant("ten").unwrap();
        let rules = VariantRules::new(variant, "v.ini");
        let pos = rules.parse_position("startpos").unwrap();
        let view = rules.board_view(&pos).unwrap();
        assert_eq!((view.files, view.ranks), (10, 10));
        let j1 = view.parse_square("j1").unwrap();
        let j10 = view.parse_square("j10").unwrap();
        assert_eq!(view.squares[j1], Some('R'));
        assert!(!view.white_to_move);
        assert_eq!(view.marks_of(j10), [SquareMark::Check]);
        assert_eq!(view.marks_of(j1), [SquareMark::Checker]);
        let ms = rules.move_squares(&pos, "j10i9").unwrap();
        assert_eq!((ms.from, ms.to), (Some(j10), view.parse_square("i9").unwrap()));
        assert_eq!(view.hands, None);
    }

    #[test]
    fn hands_are_drawn() {
        let rules = VariantRules::new(crate::variants::variant::builtin::load("crazyhouse").unwrap(), "");
        let pos = rules.parse_position("4k3/8/8/8/8/8/8/4K3[NPPqp] b - - 0 1").unwrap();
        let view = rules.board_view(&pos).unwrap();
        assert_eq!(view.hands, Some([vec!['N', 'P', 'P'], vec!['p', 'q']]));
        let ms = rules.move_squares(&pos, "q@e2").unwrap();
        assert_eq!((ms.from, ms.to, ms.drop), (None, view.parse_square("e2").unwrap(), Some('q')));
    }
}
