//! The cases of each motif: the e.p. capture along the pin line and off it,
//! the check along a rank or a diagonal, each square of a castling's paths
//! for both sides and both wings. A case is a motif and a [`Detail`];
//! [`holds`] asks our generator whether a position holds it.
//!
//! Some cases a legal game never reaches, and are not listed: an e.p.
//! capture in check along a file or from a knight (the double step can
//! uncover a check only along the rank or a diagonal through the square it
//! left, and a check that was there before it was a check on the side that
//! moved), in double check (a double step gives at most one check), or
//! blocking a check by landing on its line (such a line runs through the
//! square the pawn crossed, where the check was there before the step); a
//! promotion push along a file pin (the pinner stands on the promotion
//! square).

use super::chess960::{self, Shape};
use super::{castling_holds, castlings, ep_moves, is_diagonal, pinner, promotions, Motif};
use crate::attacks::line;
use crate::board::{Color, Role, Square};
use crate::Position;

/// A side of the board for castling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Wing {
    /// Towards the h-file (`O-O`).
    King,
    /// Towards the a-file (`O-O-O`).
    Queen,
}

/// What sets one case of a motif apart from the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Detail {
    /// The motif's one case.
    Only,
    /// The pinned pawn's capture stays on the pin line (legal).
    AlongPin,
    /// The pinned pawn's capture leaves the pin line (illegal).
    OffPin,
    /// The pin or check runs along a rank.
    Rank,
    /// The pin or check runs along a diagonal.
    Diagonal,
    /// `side`'s castling on `wing`, about the back-rank square on `file`
    /// (0 for a): attacked or occupied, as the motif says.
    Square {
        /// The side to move, who castles.
        side: Color,
        /// Which castling.
        wing: Wing,
        /// The file of the square.
        file: u8,
    },
    /// `side`'s castling on `wing`.
    Castle {
        /// The side whose castling it is.
        side: Color,
        /// Which castling.
        wing: Wing,
    },
    /// A Chess960 castling of `side` of the shape named.
    Chess960 {
        /// The side to move, who castles.
        side: Color,
        /// What the case is about.
        shape: Shape,
    },
    /// Both of `side`'s castling rooks captured on their corners: one by a
    /// knight that stays there, the other by a rook that takes it and leaves.
    BothCorners {
        /// The side whose rooks are taken (to move at the end).
        side: Color,
    },
    /// `side`'s castling rook captured on its corner by a `by`.
    CapturedBy {
        /// The side whose rook is taken (to move at the end).
        side: Color,
        /// The capturing piece.
        by: Role,
    },
}

/// One case of one motif.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Case {
    /// The motif.
    pub motif: Motif,
    /// Which of its cases.
    pub detail: Detail,
}

const SIDES: [Color; 2] = [Color::White, Color::Black];

impl Case {
    /// The cases of `motif`, in the order `fuzz` looks at them.
    pub fn of(motif: Motif) -> Vec<Case> {
        let squares = |list: &[(Wing, u8)]| -> Vec<Detail> {
            list.iter().flat_map(|&(wing, file)| SIDES.map(|side| Detail::Square { side, wing, file })).collect()
        };
        let castles = || -> Vec<Detail> {
            [
                (Color::White, Wing::King),
                (Color::Black, Wing::Queen),
                (Color::White, Wing::Queen),
                (Color::Black, Wing::King),
            ]
            .map(|(side, wing)| Detail::Castle { side, wing })
            .to_vec()
        };
        use Wing::{King, Queen};
        let details = match motif {
            // The case a real engine got wrong first.
            Motif::EpPinnedOnDiagonal => vec![Detail::AlongPin, Detail::OffPin],
            Motif::EpInOtherCheck => vec![Detail::Diagonal, Detail::Rank],
            Motif::PinnedPromotion => vec![Detail::Diagonal, Detail::Rank],
            Motif::PinnedPromotionCapture => vec![Detail::AlongPin, Detail::OffPin],
            Motif::DiscoveredCheckByEp => vec![Detail::Rank, Detail::Diagonal],
            Motif::CastlingThroughAttack => squares(&[(King, 5), (Queen, 3)]),
            Motif::CastlingIntoAttack => squares(&[(King, 6), (Queen, 2)]),
            Motif::CastlingRookAttacked => squares(&[(King, 7), (Queen, 0), (Queen, 1)]),
            Motif::CastlingBlocked => squares(&[(King, 5), (Queen, 1), (King, 6), (Queen, 2), (Queen, 3)]),
            Motif::CastlingOutOfCheck | Motif::CastlingAllowed | Motif::RightsAfterReturn => castles(),
            // Both corners first: a capturer that stays there shows an engine
            // that clears a right only when its own rook moves, a rook that
            // takes and leaves one that clears only its own side's corners;
            // one position, so that a slow engine's first call shows either.
            Motif::RightsAfterCapture => SIDES
                .map(|side| Detail::BothCorners { side })
                .into_iter()
                .chain(
                    [Role::Knight, Role::Pawn, Role::Bishop, Role::Rook, Role::Queen].into_iter().enumerate().flat_map(
                        |(i, by)| {
                            let first = SIDES[i % 2];
                            [first, !first].map(|side| Detail::CapturedBy { side, by })
                        },
                    ),
                )
                .collect(),
            // One side for each shape, then the other.
            Motif::Chess960Castling => (0..2)
                .flat_map(|round| {
                    Shape::ALL
                        .into_iter()
                        .enumerate()
                        .map(move |(i, shape)| Detail::Chess960 { side: SIDES[(i + round) % 2], shape })
                })
                .collect(),
            _ => vec![Detail::Only],
        };
        details.into_iter().map(|detail| Case { motif, detail }).collect()
    }

    /// Every case of every motif, in the order `fuzz` looks at them: the
    /// first case of each motif, then the second of each, and so on, so
    /// that a short run sees every motif early.
    pub fn all() -> Vec<Case> {
        let lists: Vec<Vec<Case>> = Motif::ALL.iter().map(|&m| Case::of(m)).collect();
        let rounds = lists.iter().map(Vec::len).max().unwrap_or(0);
        (0..rounds).flat_map(|i| lists.iter().filter_map(move |l| l.get(i).copied())).collect()
    }

    /// The case's name in reports and docs: the motif's, then the detail
    /// (`castling-through-attack/white-kingside-f1`).
    pub fn name(&self) -> String {
        let motif = self.motif.name();
        let color = |c: Color| if c.is_white() { "white" } else { "black" };
        let wing = |w: Wing| if w == Wing::King { "kingside" } else { "queenside" };
        let detail = match self.detail {
            Detail::Only => return motif.to_string(),
            Detail::AlongPin => "along-the-pin".to_string(),
            Detail::OffPin => "off-the-pin".to_string(),
            Detail::Rank => "rank".to_string(),
            Detail::Diagonal => "diagonal".to_string(),
            Detail::Square { side, wing: w, file } => {
                let rank = if side.is_white() { '1' } else { '8' };
                format!("{}-{}-{}{rank}", color(side), wing(w), char::from(b'a' + file))
            }
            Detail::Castle { side, wing: w } => format!("{}-{}", color(side), wing(w)),
            Detail::Chess960 { side, shape } => format!("{}-{}", color(side), shape.name()),
            Detail::BothCorners { side } => format!("{}-both-corners", color(side)),
            Detail::CapturedBy { side, by } => format!("{}-by-{}", color(side), super::super::hints::role_name(by)),
        };
        format!("{motif}/{detail}")
    }
}

/// The wing of a castling by the king on `king` with the rook on `rook`.
pub(super) fn wing_of(king: Square, rook: Square) -> Wing {
    if (rook.file() as u8) > (king.file() as u8) {
        Wing::King
    } else {
        Wing::Queen
    }
}

/// True if `pos` holds the position case `case` (not a line motif's).
pub(super) fn holds(pos: &Position, case: Case) -> bool {
    if !super::holds(pos, case.motif) {
        return false;
    }
    let us = pos.turn();
    let king = pos.king(us);
    let legal = pos.legal_moves();
    let along = |a: Square, b: Square, d: Detail| match d {
        Detail::Rank => a.rank() == b.rank(),
        Detail::Diagonal => is_diagonal(a, b),
        _ => false,
    };
    match (case.motif, case.detail) {
        (_, Detail::Only) => true,
        (Motif::Chess960Castling, Detail::Chess960 { side, shape }) => chess960::holds(pos, side, shape),
        (Motif::EpPinnedOnDiagonal, d) => ep_moves(pos).into_iter().any(|m| match pinner(pos, m.from()) {
            Some(p) if is_diagonal(king, p) => {
                let stays = line(king, p).contains(m.to());
                stays == (d == Detail::AlongPin) && legal.contains(m) == stays
            }
            _ => false,
        }),
        (Motif::EpInOtherCheck, d) => {
            (pos.checkers() & !pos.pieces(!us, Role::Pawn)).into_iter().any(|c| along(king, c, d))
        }
        (Motif::PinnedPromotion | Motif::PinnedPromotionCapture, d) => promotions(pos).into_iter().any(|m| {
            let takes = m.from().file() != m.to().file();
            let Some(p) = pinner(pos, m.from()) else { return false };
            match d {
                Detail::AlongPin => takes && m.to() == p && legal.contains(m),
                Detail::OffPin => takes && m.to() != p && !legal.contains(m),
                _ => !takes && along(king, p, d),
            }
        }),
        (Motif::DiscoveredCheckByEp, d) => legal.iter().any(|m| {
            let after = pos.play(*m);
            let their_king = after.king(!us);
            m.is_en_passant() && (after.checkers().without(m.to())).into_iter().any(|c| along(their_king, c, d))
        }),
        (motif, Detail::Square { side, wing, .. } | Detail::Castle { side, wing }) if side == us => {
            castling_case(pos, motif, wing, square_of(case.detail, us), &legal)
        }
        _ => false,
    }
}

/// The back-rank square a castling case is about, if any.
fn square_of(detail: Detail, us: Color) -> Option<Square> {
    match detail {
        Detail::Square { file, .. } => {
            let rank = if us.is_white() { 0 } else { 7 };
            Some(Square::new(rank * 8 + file))
        }
        _ => None,
    }
}

/// True if a castling of the side to move on `wing` holds the castling
/// motif `motif`, with `square` (when given) attacked, or occupied for a
/// blocked castling.
fn castling_case(pos: &Position, motif: Motif, wing: Wing, square: Option<Square>, legal: &crate::MoveList) -> bool {
    let us = pos.turn();
    let king = pos.king(us);
    let attacked = |sq: Square| (pos.attackers_to(sq, pos.occupied()) & pos.by_color(!us)).any();
    castlings(pos).iter().any(|c| {
        let fits = match square {
            None => true,
            Some(sq) if motif == Motif::CastlingBlocked => pos.occupied().without(king).without(c.rook).contains(sq),
            Some(sq) => attacked(sq),
        };
        wing_of(king, c.rook) == wing && fits && castling_holds(pos, motif, c, legal.contains(c.mv))
    })
}
