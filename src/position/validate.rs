//! Checks that a parsed position could occur in a game (well enough for move
//! generation to be exact): kings, pawns, piece counts, checks, e.p. square.

use super::Position;
use crate::board::{Bitboard, Color, Rank, Role, Square};

/// A FEN that parses but describes an impossible position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A side has no king.
    #[error("no {0} king")]
    NoKing(&'static str),
    /// A side has more than one king.
    #[error("{0} has more than one king")]
    TooManyKings(&'static str),
    /// A side has more than 16 pieces.
    #[error("{0} has more than 16 pieces")]
    TooManyPieces(&'static str),
    /// A side has more than 8 pawns.
    #[error("{0} has more than 8 pawns")]
    TooManyPawns(&'static str),
    /// A pawn on the first or eighth rank.
    #[error("pawn on {0}: pawns cannot stand on the first or eighth rank")]
    PawnOnBackRank(Square),
    /// The side that has just moved is in check.
    #[error("the side not to move ({0}) is in check")]
    OppositeCheck(&'static str),
    /// An en passant square that no double push can have made.
    #[error("en passant square {square} is impossible: {reason}")]
    BadEnPassant {
        /// The en passant square.
        square: Square,
        /// Why it cannot be.
        reason: &'static str,
    },
}

fn name(c: Color) -> &'static str {
    if c.is_white() {
        "white"
    } else {
        "black"
    }
}

/// Kings, piece and pawn counts, pawns on back ranks.
pub(super) fn check_material(pos: &Position) -> Result<(), PositionError> {
    for color in Color::ALL {
        match pos.pieces(color, Role::King).count() {
            0 => return Err(PositionError::NoKing(name(color))),
            1 => {}
            _ => return Err(PositionError::TooManyKings(name(color))),
        }
        if pos.by_color(color).count() > 16 {
            return Err(PositionError::TooManyPieces(name(color)));
        }
        if pos.pieces(color, Role::Pawn).count() > 8 {
            return Err(PositionError::TooManyPawns(name(color)));
        }
    }
    let back_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
    if let Some(sq) = (pos.by_role(Role::Pawn) & back_ranks).first() {
        return Err(PositionError::PawnOnBackRank(sq));
    }
    Ok(())
}

/// What needs the whole FEN: the side not to move in check, the e.p. square.
pub(super) fn check_position(pos: &Position) -> Result<(), PositionError> {
    let us = pos.turn();
    let them = !us;
    if (pos.attackers_to(pos.king(them), pos.occupied()) & pos.by_color(us)).any() {
        return Err(PositionError::OppositeCheck(name(them)));
    }
    if let Some(ep) = pos.ep_square() {
        let bad = |reason| Err(PositionError::BadEnPassant { square: ep, reason });
        let (ep_rank, step): (Rank, i32) = if us.is_white() { (Rank::Sixth, 8) } else { (Rank::Third, -8) };
        if ep.rank() != ep_rank {
            return bad(if us.is_white() {
                "with white to move it must be on rank 6"
            } else {
                "with black to move it must be on rank 3"
            });
        }
        let pushed_to = ep.offset(-step).expect("rank 3/6 has neighbours");
        let pushed_from = ep.offset(step).expect("rank 3/6 has neighbours");
        if !pos.pieces(them, Role::Pawn).contains(pushed_to) {
            return bad("no pawn stands in front of it that could have just made a double push");
        }
        if pos.occupied().contains(ep) || pos.occupied().contains(pushed_from) {
            return bad("the squares the pawn passed over are not empty");
        }
    }
    Ok(())
}
