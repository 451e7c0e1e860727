//! Reading UCI moves against a position's legal moves.

use super::Move;
use crate::board::{Role, Square};
use crate::position::Position;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    #[error("{0:?} is not a move in UCI notation (like e2e4 or a7a8q)")]
    Syntax(String),
    #[error("{mv:?} is not legal in {fen}")]
    Illegal { mv: String, fen: String },
}

impl Position {
    /// Finds the legal move written `uci`. Castling is accepted both as the
    /// king's two-square move (`e1g1`) and as king takes rook (`e1h1`);
    /// the promotion letter may be in either case.
    pub fn parse_uci(&self, uci: &str) -> Result<Move, ParseMoveError> {
        let syntax = || ParseMoveError::Syntax(uci.to_string());
        if !uci.is_ascii() || !(4..=5).contains(&uci.len()) {
            return Err(syntax());
        }
        let from = Square::parse(&uci[0..2]).ok_or_else(syntax)?;
        let to = Square::parse(&uci[2..4]).ok_or_else(syntax)?;
        let promotion = match uci[4..].chars().next() {
            None => None,
            Some(c) => match Role::from_char(c) {
                Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) => Some(r),
                _ => return Err(syntax()),
            },
        };
        self.legal_moves()
            .iter()
            .copied()
            .find(|m| {
                m.from() == from
                    && m.promotion_role() == promotion
                    && (m.to() == to
                        || (m.is_castling() && m.castling_king_target() == to && !self.castles_onto_rook_square(*m)))
            })
            .ok_or_else(|| ParseMoveError::Illegal { mv: uci.to_string(), fen: self.to_fen() })
    }

    /// In Chess960 the king's target can hold another piece of ours (a rook
    /// that is not the castling one); `e1g1` then means a king move, never castling.
    fn castles_onto_rook_square(&self, m: Move) -> bool {
        self.legal_moves()
            .iter()
            .any(|other| !other.is_castling() && other.from() == m.from() && other.to() == m.castling_king_target())
    }

    /// Plays a sequence of UCI moves, each checked for legality.
    pub fn play_uci_moves<'a>(&self, moves: impl IntoIterator<Item = &'a str>) -> Result<Position, ParseMoveError> {
        let mut pos = *self;
        for uci in moves {
            let m = pos.parse_uci(uci)?;
            pos = pos.play(m);
        }
        Ok(pos)
    }
}
