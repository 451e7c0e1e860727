//! Reading UCI moves against a position's legal moves.

use super::Move;
use crate::board::{Role, Square};
use crate::position::Position;

/// Why a UCI move could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// Not UCI notation at all.
    #[error("{0:?} is not a move in UCI notation (like e2e4 or a7a8q)")]
    Syntax(String),
    /// Well formed, but not a legal move here.
    #[error("{mv:?} is not legal in {fen}")]
    Illegal {
        /// The move as given.
        mv: String,
        /// The position, as FEN.
        fen: String,
    },
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
        // The exact move first: castling as king takes rook is one, and in
        // Chess960 a plain king move to the square that castling would also
        // reach (king on f1, `f1g1`) is the plain move. Otherwise the king's
        // castling target names castling.
        let moves = self.legal_moves();
        let from_here = || moves.iter().copied().filter(|m| m.from() == from && m.promotion_role() == promotion);
        from_here()
            .find(|m| m.to() == to)
            .or_else(|| from_here().find(|m| m.is_castling() && m.castling_king_target() == to))
            .ok_or_else(|| ParseMoveError::Illegal { mv: uci.to_string(), fen: self.to_fen() })
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
