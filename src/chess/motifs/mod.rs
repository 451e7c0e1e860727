//! Positions built to hold the configurations that move generators get
//! wrong, as roots for `chesstool fuzz`: random walks from the start reach an
//! e.p. capture by a pawn pinned along its rank perhaps once in thousands of
//! games, a generated root holds one at once.
//!
//! The motifs are those the published tricky-perft suites were written for
//! (pinned e.p. captures, promotions by pinned pawns, castling across
//! attacked squares, castling rights lost by a capture or a rook's trip,
//! double and discovered checks, the extremes of the move count). Each
//! motif has cases ([`Case`]): the e.p. capture along the pin line and off
//! it, castling with each square of the paths attacked or occupied, for
//! both sides and both wings. Every position is generated, not copied: the
//! key pieces are placed at random squares that satisfy the geometry, a few
//! random pieces are added, the colours are swapped half of the time, and
//! the result is kept only when it is a valid position in which
//! [`holds_case`] finds the case with our own move generator. The
//! castling-rights cases are lines (a root and the moves that lose the
//! right), so that an engine's make-move is tested as it keeps its rights.
//! The generator is a caller's random function, so that a seeded run
//! repeats.

mod cases;
mod chess960;
mod lines;
mod place;
mod sketch;
#[cfg(test)]
mod tests;

pub use cases::{Case, Detail, Wing};
pub use chess960::Shape;

use super::hints::pinner;
use crate::attacks::{between, pawn_attacks, rook_attacks};
use crate::board::{Bitboard, Role, Square};
use crate::{Move, Position};

/// A configuration worth a root of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Motif {
    /// An e.p. capture whose pawn, with the captured one, stands between its
    /// king and an enemy rook or queen on the rank: illegal.
    EpPinnedOnRank,
    /// An e.p. capture by a pawn pinned along a diagonal: legal only along
    /// the pin.
    EpPinnedOnDiagonal,
    /// An e.p. capture in check from the pawn that it takes.
    EpRemovesChecker,
    /// An e.p. capture in check from another piece, uncovered by the double
    /// step (the capture does not answer it).
    EpInOtherCheck,
    /// A pawn about to promote, pinned to its king (pushing is illegal
    /// unless the pin is along the file).
    PinnedPromotion,
    /// A pinned pawn that can capture and promote (legal only when it takes
    /// the pinner).
    PinnedPromotionCapture,
    /// A castling whose king passes an attacked square.
    CastlingThroughAttack,
    /// A castling right while in check.
    CastlingOutOfCheck,
    /// A castling whose king would land on an attacked square.
    CastlingIntoAttack,
    /// A legal castling whose rook stands on or passes an attacked square.
    CastlingRookAttacked,
    /// A castling right with a piece between the king and its rook.
    CastlingBlocked,
    /// A legal castling with nothing in the way and nothing attacked.
    CastlingAllowed,
    /// A line whose last moves capture a rook on its corner (and, for a
    /// rook or queen, take the capturer away again): that side's right is
    /// gone although its castling would be legal with it.
    RightsAfterCapture,
    /// A line in which a rook leaves its corner and comes back: the right
    /// is gone although its castling would be legal with it.
    RightsAfterReturn,
    /// Kings two squares apart: the squares between are attacked by both.
    KingsNear,
    /// Check from two pieces at once: only king moves.
    DoubleCheck,
    /// A legal castling whose rook gives check.
    DiscoveredCheckByCastling,
    /// A legal e.p. capture that uncovers a check.
    DiscoveredCheckByEp,
    /// At least 200 legal moves.
    ManyMoves,
    /// Exactly one legal move.
    OneMove,
    /// A Chess960 castling right: king and rook off the squares that
    /// standard chess's castling code assumes.
    Chess960Castling,
}

impl Motif {
    /// Every motif, in the order `fuzz` looks at their cases.
    pub const ALL: [Motif; 21] = [
        Motif::EpPinnedOnRank,
        Motif::EpPinnedOnDiagonal,
        Motif::RightsAfterCapture,
        Motif::EpRemovesChecker,
        Motif::EpInOtherCheck,
        Motif::PinnedPromotion,
        Motif::PinnedPromotionCapture,
        Motif::CastlingThroughAttack,
        Motif::CastlingOutOfCheck,
        Motif::CastlingIntoAttack,
        Motif::CastlingRookAttacked,
        Motif::CastlingBlocked,
        Motif::CastlingAllowed,
        Motif::RightsAfterReturn,
        Motif::KingsNear,
        Motif::DoubleCheck,
        Motif::DiscoveredCheckByCastling,
        Motif::DiscoveredCheckByEp,
        Motif::ManyMoves,
        Motif::OneMove,
        Motif::Chess960Castling,
    ];

    /// The motif's name in reports (`ep-pinned-on-rank`).
    pub const fn name(self) -> &'static str {
        match self {
            Motif::EpPinnedOnRank => "ep-pinned-on-rank",
            Motif::EpPinnedOnDiagonal => "ep-pinned-on-diagonal",
            Motif::EpRemovesChecker => "ep-removes-checker",
            Motif::EpInOtherCheck => "ep-in-other-check",
            Motif::PinnedPromotion => "pinned-promotion",
            Motif::PinnedPromotionCapture => "pinned-promotion-capture",
            Motif::CastlingThroughAttack => "castling-through-attack",
            Motif::CastlingOutOfCheck => "castling-out-of-check",
            Motif::CastlingIntoAttack => "castling-into-attack",
            Motif::CastlingRookAttacked => "castling-rook-attacked",
            Motif::CastlingBlocked => "castling-blocked",
            Motif::CastlingAllowed => "castling-allowed",
            Motif::RightsAfterCapture => "rights-after-capture",
            Motif::RightsAfterReturn => "rights-after-return",
            Motif::KingsNear => "kings-near",
            Motif::DoubleCheck => "double-check",
            Motif::DiscoveredCheckByCastling => "discovered-check-by-castling",
            Motif::DiscoveredCheckByEp => "discovered-check-by-ep",
            Motif::ManyMoves => "many-moves",
            Motif::OneMove => "one-move",
            Motif::Chess960Castling => "chess960-castling",
        }
    }

    /// True for the motifs that are lines (a root and moves), not positions.
    pub const fn is_line(self) -> bool {
        matches!(self, Motif::RightsAfterCapture | Motif::RightsAfterReturn)
    }
}

/// A random function: a number below its argument (at least 1).
pub type Below<'a> = &'a mut dyn FnMut(u64) -> u64;

/// A root and the moves played from it: what a case is asked at (the
/// position at the end).
#[derive(Debug, Clone)]
pub struct Setup {
    /// The position sent to an engine as a FEN.
    pub root: Position,
    /// The moves sent after it.
    pub moves: Vec<Move>,
}

impl Setup {
    /// A position of its own, no moves.
    pub fn at(root: Position) -> Setup {
        Setup { root, moves: Vec::new() }
    }

    /// The position at the end of the moves.
    pub fn position(&self) -> Position {
        self.moves.iter().fold(self.root, |p, &m| p.play(m))
    }
}

/// A valid position that holds `motif`'s first case, drawn with `below`
/// (for a line motif, the position at the end of the line); `None` only if
/// every placement failed (not seen for any motif).
pub fn build(motif: Motif, below: Below) -> Option<Position> {
    build_case(Case::of(motif)[0], below).map(|s| s.position())
}

/// A setup that holds `case`, drawn with `below`; `None` only if every
/// placement failed (not seen for any case).
pub fn build_case(case: Case, below: Below) -> Option<Setup> {
    match case.motif {
        Motif::RightsAfterCapture | Motif::RightsAfterReturn => lines::build(case, below),
        Motif::ManyMoves | Motif::OneMove => place::climb(case.motif, below).map(Setup::at),
        Motif::Chess960Castling => chess960::build(case, below).map(Setup::at),
        motif => place::search(motif, below, &|p| cases::holds(p, case)).map(Setup::at),
    }
}

/// True if `setup` holds `case`, decided with our move generator.
pub fn holds_case(setup: &Setup, case: Case) -> bool {
    match case.motif.is_line() {
        true => lines::holds(setup, case),
        false => cases::holds(&setup.position(), case),
    }
}

/// True if `pos` holds `motif`, decided with our move generator.
pub fn holds(pos: &Position, motif: Motif) -> bool {
    let us = pos.turn();
    let legal = pos.legal_moves();
    let is_legal = |m: Move| legal.contains(m);
    match motif {
        Motif::EpPinnedOnRank => ep_moves(pos).into_iter().any(|m| pinned_on_rank_by_ep(pos, m) && !is_legal(m)),
        Motif::EpPinnedOnDiagonal => ep_moves(pos).into_iter().any(|m| {
            let pinned = pinner(pos, m.from()).is_some_and(|p| is_diagonal(pos.king(us), p));
            pinned && !pos.is_check()
        }),
        Motif::EpRemovesChecker => {
            ep_moves(pos).into_iter().any(|m| pos.checkers() == Bitboard::from_square(captured_square(m)))
        }
        Motif::EpInOtherCheck => {
            let other = (pos.checkers() & !pos.pieces(!us, Role::Pawn)).any();
            other && !ep_moves(pos).is_empty()
        }
        Motif::PinnedPromotion | Motif::PinnedPromotionCapture => {
            let capture = motif == Motif::PinnedPromotionCapture;
            promotions(pos).into_iter().any(|m| {
                let takes = m.from().file() != m.to().file();
                takes == capture && pinner(pos, m.from()).is_some() && !pos.is_check()
            })
        }
        Motif::CastlingThroughAttack
        | Motif::CastlingOutOfCheck
        | Motif::CastlingIntoAttack
        | Motif::CastlingRookAttacked
        | Motif::CastlingBlocked
        | Motif::CastlingAllowed => castlings(pos).iter().any(|c| castling_holds(pos, motif, c, is_legal(c.mv))),
        Motif::RightsAfterCapture | Motif::RightsAfterReturn => false,
        Motif::KingsNear => distance(pos.king(us), pos.king(!us)) == 2,
        Motif::DoubleCheck => pos.checkers().more_than_one(),
        Motif::DiscoveredCheckByCastling => legal.iter().any(|m| m.is_castling() && pos.play(*m).is_check()),
        Motif::DiscoveredCheckByEp => {
            legal.iter().any(|m| m.is_en_passant() && (pos.play(*m).checkers() & !Bitboard::from_square(m.to())).any())
        }
        Motif::ManyMoves => legal.len() >= MANY_MOVES,
        Motif::OneMove => legal.len() == 1,
        Motif::Chess960Castling => pos.is_chess960() && !castlings(pos).is_empty(),
    }
}

/// True if the castling `c` (legal or not as `legal` says) holds the
/// castling motif `motif`.
fn castling_holds(pos: &Position, motif: Motif, c: &Castling, legal: bool) -> bool {
    let check = pos.is_check();
    match motif {
        Motif::CastlingThroughAttack => c.path_clear && !check && !c.target_attacked && c.passes_attack && !legal,
        Motif::CastlingOutOfCheck => c.path_clear && check,
        Motif::CastlingIntoAttack => c.path_clear && !check && c.target_attacked,
        Motif::CastlingRookAttacked => c.rook_attacked && legal,
        Motif::CastlingBlocked => !c.path_clear,
        Motif::CastlingAllowed => legal && !c.passes_attack && !c.target_attacked && !c.rook_attacked,
        _ => false,
    }
}

/// The count that makes a position one of "many moves" (the record is 218).
const MANY_MOVES: usize = 200;

/// The e.p. captures of the side to move, legal or not.
fn ep_moves(pos: &Position) -> Vec<Move> {
    let Some(ep) = pos.ep_square() else { return Vec::new() };
    let us = pos.turn();
    let capturers = pawn_attacks(!us, ep) & pos.pieces(us, Role::Pawn);
    capturers.into_iter().map(|from| Move::en_passant(from, ep)).collect()
}

/// The pawn that an e.p. capture takes.
fn captured_square(m: Move) -> Square {
    Square::from_coords(m.to().file(), m.from().rank())
}

/// True if both pawns of the e.p. capture `m` stand alone between their king
/// and an enemy rook or queen on the rank.
fn pinned_on_rank_by_ep(pos: &Position, m: Move) -> bool {
    let us = pos.turn();
    let king = pos.king(us);
    if king.rank() != m.from().rank() {
        return false;
    }
    let after = pos.occupied().without(m.from()).without(captured_square(m)).with(m.to());
    let rank = Bitboard::rank(king.rank());
    let sliders = (pos.pieces(!us, Role::Rook) | pos.pieces(!us, Role::Queen)) & rank;
    (rook_attacks(king, after) & sliders).any() && (rook_attacks(king, pos.occupied()) & sliders).is_empty()
}

fn is_diagonal(a: Square, b: Square) -> bool {
    a != b && (a.file() as i32 - b.file() as i32).abs() == (a.rank() as i32 - b.rank() as i32).abs()
}

fn distance(a: Square, b: Square) -> i32 {
    let files = (a.file() as i32 - b.file() as i32).abs();
    let ranks = (a.rank() as i32 - b.rank() as i32).abs();
    files.max(ranks)
}

/// The promotions of the side to move (as queen), legal or not.
fn promotions(pos: &Position) -> Vec<Move> {
    let us = pos.turn();
    let step = if us.is_white() { 8 } else { -8 };
    let mut out = Vec::new();
    for from in pos.pieces(us, Role::Pawn) {
        let Some(to) = from.offset(step) else { continue };
        if to.rank() != crate::board::Rank::First && to.rank() != crate::board::Rank::Eighth {
            continue;
        }
        if !pos.occupied().contains(to) {
            out.push(Move::promotion(from, to, Role::Queen));
        }
        for target in pawn_attacks(us, from) & pos.by_color(!us) {
            out.push(Move::promotion(from, target, Role::Queen));
        }
    }
    out
}

/// One castling right of the side to move, seen square by square.
struct Castling {
    mv: Move,
    rook: Square,
    /// No piece but the king and the rook on the squares they cross or land on.
    path_clear: bool,
    /// The king crosses an attacked square (not its own, not its target).
    passes_attack: bool,
    target_attacked: bool,
    /// The rook's square or a square it crosses is attacked.
    rook_attacked: bool,
}

fn castlings(pos: &Position) -> Vec<Castling> {
    let us = pos.turn();
    let king = pos.king(us);
    let attacked = |sq: Square| (pos.attackers_to(sq, pos.occupied()) & pos.by_color(!us)).any();
    let mut out = Vec::new();
    for rook in pos.castling_rooks() & pos.by_color(us) {
        let mv = Move::castling(king, rook);
        let (king_to, rook_to) = (mv.castling_king_target(), mv.castling_rook_target());
        let king_path = between(king, king_to).with(king_to);
        let rook_path = between(rook, rook_to).with(rook_to);
        let others = pos.occupied().without(king).without(rook);
        out.push(Castling {
            mv,
            rook,
            path_clear: ((king_path | rook_path) & others).is_empty(),
            passes_attack: between(king, king_to).into_iter().any(attacked),
            target_attacked: attacked(king_to),
            rook_attacked: attacked(rook) || between(rook, rook_to).into_iter().any(attacked),
        });
    }
    out
}
