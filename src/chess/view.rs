//! Chess drawn for the witness picture: the pieces, the side to move, and
//! the squares a hint may name (the king in check and its checkers, pinned
//! pieces and their pinners, the e.p. square).

use crate::attacks::{between, bishop_attacks, rook_attacks};
use crate::board::{Color, Square};
use crate::rules::{BoardView, SquareMark};
use crate::Position;

/// The board of `pos` with its checks, pins and e.p. square marked.
pub fn board_view(pos: &Position) -> BoardView {
    let mut view = BoardView::empty(8, 8);
    for sq in Square::ALL {
        view.squares[sq.index()] = pos.piece_at(sq).map(|p| p.char());
    }
    let us = pos.turn();
    view.white_to_move = us == Color::White;
    let king = pos.king(us);
    if pos.is_check() {
        view.marks.push((king.index(), SquareMark::Check));
        view.marks.extend(pos.checkers().into_iter().map(|s| (s.index(), SquareMark::Checker)));
    }
    // A pin: an enemy slider on a line to our king with exactly one piece,
    // ours, between them.
    let them = pos.by_color(!us);
    let snipers = (rook_attacks(king, crate::Bitboard::EMPTY) & them & pos.line_sliders())
        | (bishop_attacks(king, crate::Bitboard::EMPTY) & them & pos.diagonal_sliders());
    for sniper in snipers {
        let blockers = between(king, sniper) & pos.occupied();
        if blockers.count() == 1 && (blockers & pos.by_color(us)).any() {
            view.marks.extend(blockers.into_iter().map(|s| (s.index(), SquareMark::Pinned)));
            view.marks.push((sniper.index(), SquareMark::Pinner));
        }
    }
    if let Some(ep) = pos.ep_square() {
        view.marks.push((ep.index(), SquareMark::EnPassant));
    }
    view
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_pins_and_the_ep_square_are_marked() {
        // The white knight d2 stands between the bishop b4 and the king e1;
        // e3 is the e.p. square.
        let pos = Position::from_fen("4k3/8/8/8/1b2Pp2/8/3N4/4K3 b - e3 0 1").unwrap();
        let view = board_view(&pos);
        assert!(!view.white_to_move);
        assert_eq!(view.squares[Square::D2.index()], Some('N'));
        assert_eq!(view.marks_of(Square::E3.index()), [SquareMark::EnPassant]);
        // Black to move: White's pinned knight is not marked (pins of the side to move only).
        assert!(view.marks_of(Square::D2.index()).is_empty());
        let pos = Position::from_fen("4k3/8/8/8/1b6/8/3N4/4K2r w - - 0 1").unwrap();
        let view = board_view(&pos);
        assert_eq!(view.marks_of(Square::E1.index()), [SquareMark::Check]);
        assert_eq!(view.marks_of(Square::H1.index()), [SquareMark::Checker]);
        assert_eq!(view.marks_of(Square::D2.index()), [SquareMark::Pinned]);
        assert_eq!(view.marks_of(Square::B4.index()), [SquareMark::Pinner]);
    }
}
