//! The Chess960 castling cases: what a generator written for e1, a1 and h1
//! gets wrong when king and rook start elsewhere. The king may already
//! stand on its target (only the rook moves), the rook on its own, the two
//! may swap squares; the squares that must be empty are those the king and
//! the rook cross or land on, wherever they lie, not those between them;
//! and the castling rook may be what shields the king's target from an
//! attack along the back rank (rook on b1, enemy rook or queen on a1).

use super::cases::{Case, Detail};
use super::sketch::{pick, random_square, Sketch};
use super::{castlings, Below, Castling};
use crate::attacks::between;
use crate::board::{Bitboard, Color, Role, Square};
use crate::Position;

/// Placements tried before giving up; each case is found in a few dozen.
const ATTEMPTS: u32 = 5_000;

/// What sets a Chess960 castling case apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A piece stands on a square the king crosses or lands on, none
    /// between king and rook: illegal.
    KingPathBlocked,
    /// The rook stands on b1 and an enemy rook or queen on a1: the king's
    /// target c1 is attacked once the rook has left, so the castling is
    /// illegal although no square is attacked while the rook stands.
    RookShields,
    /// A piece stands on a square the rook crosses or lands on, none
    /// between king and rook nor on the king's way: illegal.
    RookPathBlocked,
    /// The king already stands on its target: only the rook moves (legal).
    KingStays,
    /// The rook already stands on its target: only the king moves (legal).
    RookStays,
    /// King and rook swap squares (legal).
    Swap,
}

impl Shape {
    /// Every shape, in the order `fuzz` looks at them.
    pub const ALL: [Shape; 6] = [
        Shape::KingPathBlocked,
        Shape::RookShields,
        Shape::RookPathBlocked,
        Shape::KingStays,
        Shape::RookStays,
        Shape::Swap,
    ];

    /// The shape's name in a case's name (`rook-shields`).
    pub const fn name(self) -> &'static str {
        match self {
            Shape::KingPathBlocked => "king-path-blocked",
            Shape::RookShields => "rook-shields",
            Shape::RookPathBlocked => "rook-path-blocked",
            Shape::KingStays => "king-stays",
            Shape::RookStays => "rook-stays",
            Shape::Swap => "swap",
        }
    }
}

/// A Chess960 position that holds `case`.
pub(super) fn build(case: Case, below: Below) -> Option<Position> {
    let Detail::Chess960 { side, shape } = case.detail else { return None };
    (0..ATTEMPTS).find_map(|_| {
        let sketch = attempt(shape, below)?;
        let sketch = if side == Color::Black { sketch.mirrored() } else { sketch };
        sketch.position().filter(|p| holds(p, side, shape))
    })
}

/// True if `pos` is a Chess960 position in which `side`, to move, has a
/// castling of `shape`, decided with our move generator.
pub(super) fn holds(pos: &Position, side: Color, shape: Shape) -> bool {
    if !pos.is_chess960() || pos.turn() != side {
        return false;
    }
    let legal = pos.legal_moves();
    castlings(pos).iter().any(|c| fits(pos, c, shape, legal.contains(c.mv)))
}

fn fits(pos: &Position, c: &Castling, shape: Shape, legal: bool) -> bool {
    let king = pos.king(pos.turn());
    let (king_to, rook_to) = (c.mv.castling_king_target(), c.mv.castling_rook_target());
    let others = pos.occupied().without(king).without(c.rook);
    let inside = between(king, c.rook) & others;
    let on_king_way = between(king, king_to).with(king_to) & others;
    let on_rook_way = between(c.rook, rook_to).with(rook_to) & others;
    match shape {
        Shape::KingPathBlocked => inside.is_empty() && on_king_way.any(),
        Shape::RookPathBlocked => inside.is_empty() && on_king_way.is_empty() && on_rook_way.any(),
        Shape::RookShields => {
            let them = pos.by_color(!pos.turn());
            let opened = pos.attackers_to(king_to, pos.occupied().without(c.rook).without(king)) & them;
            let seen = c.passes_attack || c.target_attacked || pos.is_check();
            !legal && c.path_clear && !seen && opened.any()
        }
        Shape::KingStays => legal && king_to == king,
        Shape::RookStays => legal && rook_to == c.rook,
        Shape::Swap => legal && king_to == c.rook && rook_to == king,
    }
}

/// One placement for White to move, not yet checked: king and rook on the
/// files the shape needs, the right written as the rook's file.
fn attempt(shape: Shape, below: Below) -> Option<Sketch> {
    let kingside = shape != Shape::RookShields && below(2) == 0;
    let n = |lo: u64, hi: u64, below: Below| (lo + below(hi - lo + 1)) as u8;
    let (king, rook) = match (shape, kingside) {
        (Shape::KingStays, true) => (6, 7),
        (Shape::KingStays, false) => (2, n(0, 1, below)),
        (Shape::RookStays, true) => (n(1, 4, below), 5),
        (Shape::RookStays, false) => (n(4, 6, below), 3),
        (Shape::Swap, true) => (5, 6),
        (Shape::Swap, false) => (3, 2),
        (Shape::RookShields, _) => (n(2, 6, below), 1),
        (_, true) => {
            let king = n(1, 6, below);
            (king, n(u64::from(king) + 1, 7, below))
        }
        (_, false) => {
            let king = n(1, 6, below);
            (king, n(0, u64::from(king) - 1, below))
        }
    };
    let (king, rook) = (Square::new(king), Square::new(rook));
    let mut s = Sketch::empty();
    s.put(king, Color::White, Role::King);
    s.put(rook, Color::White, Role::Rook);
    s.castling = char::from(b'A' + rook.file() as u8).to_string();
    match shape {
        Shape::RookShields => {
            let role = if below(2) == 0 { Role::Rook } else { Role::Queen };
            s.put(Square::A1, Color::Black, role);
        }
        Shape::KingPathBlocked | Shape::RookPathBlocked => {
            let blocker = pick(way(shape, king, rook, kingside), below)?;
            let color = if below(2) == 0 { Color::White } else { Color::Black };
            let role = if below(2) == 0 { Role::Knight } else { Role::Bishop };
            s.put(blocker, color, role);
        }
        _ => {}
    }
    s.put(random_square(below), Color::Black, Role::King);
    for _ in 0..below(3) {
        s.put_random_piece(below);
    }
    Some(s)
}

/// The squares where a blocker makes `shape`: on the king's way (or the
/// rook's, and not the king's), never between king and rook.
fn way(shape: Shape, king: Square, rook: Square, kingside: bool) -> Bitboard {
    let (king_to, rook_to) = if kingside { (Square::G1, Square::F1) } else { (Square::C1, Square::D1) };
    let king_way = between(king, king_to).with(king_to);
    let rook_way = between(rook, rook_to).with(rook_to);
    let squares = if shape == Shape::KingPathBlocked { king_way } else { rook_way & !king_way };
    squares & !between(king, rook) & !Bitboard::from_square(king) & !Bitboard::from_square(rook)
}
