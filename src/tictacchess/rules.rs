//! TicTacChess as the hunt sees it (`crate::rules::Rules`): position strings
//! both ways, legal moves in the generator's documented order (pawn, knight,
//! bishop, rook; drops or moves by target square), moves as `N@b2` and
//! `b1c3`, moves read by meaning (`n@b2`, `b1-c3`, `Nb1c3`), our divide and
//! perft, and words on why a move is missing or extra.

use super::board::{Color, Kind};
use super::position::{Move, Position, PositionError};
use crate::rules::{squares_of_text, BoardView, Hint, MoveSquares, RareMove, ReadMoveError, Rules, SquareMark};

/// The game (no parameters).
#[derive(Copy, Clone, Debug, Default)]
pub struct TicTacChess;

/// The start position's string, also accepted as `start`.
pub const START: &str = "4/4/4/4 PNBRpnbr w";

impl Rules for TicTacChess {
    type Position = Position;
    type Move = Move;
    type PositionError = PositionError;

    fn name(&self) -> String {
        "tictacchess".to_string()
    }

    fn parse_position(&self, text: &str) -> Result<Position, PositionError> {
        Position::parse(if text.trim() == "start" { START } else { text })
    }

    fn position_text(&self, pos: &Position) -> String {
        pos.to_string()
    }

    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        pos.legal_moves().to_vec()
    }

    fn play(&self, pos: &Position, mv: Move) -> Position {
        pos.play(mv)
    }

    fn move_text(&self, _pos: &Position, mv: Move) -> String {
        mv.to_string()
    }

    fn read_move(&self, pos: &Position, text: &str) -> Result<Move, ReadMoveError> {
        let mv = pos.read_move_text(text).ok_or_else(|| ReadMoveError::Syntax(text.to_string()))?;
        if pos.legal_moves().contains(&mv) {
            Ok(mv)
        } else {
            Err(ReadMoveError::Illegal { text: text.to_string(), canonical: Some(mv.to_string()) })
        }
    }

    fn divide(&self, pos: &Position, depth: u32) -> Vec<(Move, u64)> {
        super::perft::divide(pos, depth, None, &|| {})
    }

    fn perft(&self, pos: &Position, depth: u32) -> u64 {
        super::perft::perft(pos, depth)
    }

    fn max_depth(&self) -> u32 {
        crate::perft::MAX_DEPTH
    }

    /// Walks prefer captures and the moves that make a line of four.
    fn walk_weight(&self, pos: &Position, mv: Move) -> u32 {
        let capture = mv.from().is_some() && pos.piece_at(mv.to()).is_some();
        RareMove { capture, ends_game: pos.play(mv).winner().is_some(), ..RareMove::default() }.weight()
    }

    fn missing_hint(&self, pos: &Position, mv: Move) -> Option<Hint> {
        let kind = mv.kind().name();
        let to = mv.to();
        let text = match (mv.from(), pos.piece_at(to)) {
            (None, _) => format!("drop of the {kind} onto {to}"),
            (Some(from), Some((_, taken))) => format!("{kind} on {from} captures the {} on {to}", taken.name()),
            (Some(from), None) => match mv.kind() {
                Kind::Bishop | Kind::Rook => format!("{kind} slide from {from} to {to}"),
                _ => format!("{kind} move from {from} to {to}"),
            },
        };
        let hint = Hint::new(text);
        Some(match (mv.from(), pos.piece_at(to)) {
            (Some(_), Some(_)) => hint.mark(to.dense(), SquareMark::Captured),
            _ => hint,
        })
    }

    fn extra_hint(&self, pos: &Position, text: &str) -> Option<Hint> {
        if let Some(winner) = pos.winner() {
            return Some(Hint::new(format!(
                "the game is over: {} has four in a line ({})",
                winner.name(),
                line_name(pos, winner)
            )));
        }
        let mv = pos.read_move_text(text)?;
        let hint = Hint::new(pos.illegal_reason(mv)?);
        // A piece on the target square is what the words are about (a drop onto it, an own piece).
        Some(match pos.piece_at(mv.to()) {
            Some(_) => hint.mark(mv.to().dense(), SquareMark::InTheWay),
            None => hint,
        })
    }

    fn board_view(&self, pos: &Position) -> Option<BoardView> {
        let mut view = BoardView::empty(4, 4);
        let mut hands = [Vec::new(), Vec::new()];
        for side in [Color::White, Color::Black] {
            for kind in Kind::ALL {
                let letter = if side == Color::White { kind.letter() } else { kind.letter().to_ascii_lowercase() };
                match pos.square_of(side, kind) {
                    Some(sq) => view.squares[sq.dense()] = Some(letter),
                    None => hands[side.index()].push(letter),
                }
            }
        }
        view.hands = Some(hands);
        view.white_to_move = pos.turn() == Color::White;
        Some(view)
    }

    fn move_squares(&self, pos: &Position, text: &str) -> Option<MoveSquares> {
        let view = self.board_view(pos)?;
        // `Nb1c3` and `n@b2` are read by meaning; the canonical text has the squares.
        let canonical = pos.read_move_text(text).map_or_else(|| text.to_string(), |m| m.to_string());
        squares_of_text(&view, &canonical)
    }
}

/// The name of the line a side fills (`rank 1`, `the anti-diagonal d1-a4`).
pub fn line_name(pos: &Position, side: Color) -> String {
    let occ = pos.side(side);
    let names = ["rank 1", "rank 2", "rank 3", "rank 4", "the a-file", "the b-file", "the c-file", "the d-file"];
    for (i, &line) in super::board::LINES.iter().enumerate() {
        if occ == line {
            return match i {
                8 => "the diagonal a1-d4".to_string(),
                9 => "the anti-diagonal d1-a4".to_string(),
                _ => names[i].to_string(),
            };
        }
    }
    "no line".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_view_has_both_hands() {
        let r = TicTacChess;
        let pos = r.parse_position("4/4/1N2/4 PBRpnbr b").unwrap();
        let view = r.board_view(&pos).unwrap();
        assert_eq!(view.squares[view.parse_square("b2").unwrap()], Some('N'));
        assert_eq!(view.hands, Some([vec!['P', 'B', 'R'], vec!['p', 'n', 'b', 'r']]));
        let drop = r.move_squares(&pos, "n@a1").unwrap();
        assert_eq!((drop.from, drop.to, drop.drop), (None, 0, Some('n')));
    }

    #[test]
    fn moves_are_read_by_meaning() {
        let r = TicTacChess;
        let pos = r.parse_position("4/4/1N2/4 PBRpnbr b").unwrap();
        assert_eq!(r.read_move(&pos, "n@a1").unwrap().to_string(), "N@a1");
        let err = r.read_move(&pos, "N@b2").unwrap_err();
        assert_eq!(err, ReadMoveError::Illegal { text: "N@b2".into(), canonical: Some("N@b2".into()) });
        assert!(r.extra_hint(&pos, "N@b2").unwrap().text.contains("drop onto an occupied square"));
        assert!(matches!(r.read_move(&pos, "zz"), Err(ReadMoveError::Syntax(_))));
        let white = r.parse_position("4/4/1N2/4 PBRpnbr w").unwrap();
        assert_eq!(r.read_move(&white, "Nb2-d3").unwrap().to_string(), "b2d3");
        let stuck = r.parse_position("P3/4/4/3p NBRnbr w").unwrap();
        assert_eq!(r.extra_hint(&stuck, "a4a1").unwrap().text, "a pawn on its last rank cannot move");
    }

    #[test]
    fn a_finished_game_names_its_line() {
        let r = TicTacChess;
        let pos = r.parse_position("R3/1B2/2N1/3P pnbr b").unwrap();
        assert!(r.legal_moves(&pos).is_empty());
        assert!(r.extra_hint(&pos, "P@a1").unwrap().text.contains("anti-diagonal"));
    }
}
