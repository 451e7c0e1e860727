//! A variant drawn for the witness picture: its board (up to 16x16), the
//! pieces by their letters, the side to move, and a royal piece in check
//! with the pieces that give it.

use crate::rules::{BoardView, SquareMark};
use crate::variants::board::{cell_kind, cell_side, Position, EMPTY, NO_SQUARE, WHITE};
use crate::variants::variant::definition::Variant;

/// The board of `pos` with a check marked.
pub fn board_view(variant: &Variant, pos: &Position) -> BoardView {
    let g = &variant.geometry;
    let mut view = BoardView::empty(g.width, g.height);
    for cell in g.squares() {
        let c = pos.cells[cell];
        if c == EMPTY {
            continue;
        }
        let letter = variant.pieces[cell_kind(c)].letter;
        let (f, r) = g.coords(cell);
        let sq = view.square(f, r);
        view.squares[sq] = Some(if cell_side(c) == WHITE { letter } else { letter.to_ascii_lowercase() });
    }
    view.white_to_move = pos.side == WHITE;
    let royal = pos.royal[pos.side];
    if royal != NO_SQUARE {
        let royal = royal as usize;
        let mut scratch = pos.clone();
        let mut moves = Vec::new();
        let mut checkers = Vec::new();
        for &from in &pos.lists[pos.side ^ 1] {
            moves.clear();
            variant.tables.piece_moves(&mut scratch, from as usize, false, &mut moves);
            if moves.iter().any(|m| m.to as usize == royal || m.victims().contains(&(royal as u16))) {
                checkers.push(from as usize);
            }
        }
        if !checkers.is_empty() {
            let files = view.files as usize;
            let at = |cell: usize| {
                let (f, r) = g.coords(cell);
                r as usize * files + f as usize
            };
            view.marks.push((at(royal), SquareMark::Check));
            view.marks.extend(checkers.iter().map(|&c| (at(c), SquareMark::Checker)));
        }
    }
    view
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
    }
}
