//! The castling-rights motifs, built as lines: a root where a side may
//! castle, and moves after which it may not although its castling would
//! otherwise be legal (its rook captured on the corner, or moved away and
//! back). An engine that keeps a right it lost generates that castling, so
//! the line is sent as moves: the rights are the engine's make-move's.

use super::cases::{wing_of, Case, Detail, Wing};
use super::sketch::{pick, random_square, Sketch};
use super::{Below, Motif, Setup};
use crate::attacks::{between, bishop_attacks, knight_attacks, rook_attacks};
use crate::board::{Bitboard, Color, File, Role, Square};
use crate::{Move, Position};

/// Lines tried before giving up; each is found in a few dozen.
const ATTEMPTS: u32 = 5_000;

/// A line that holds the line case `case`.
pub(super) fn build(case: Case, below: Below) -> Option<Setup> {
    (0..ATTEMPTS).find_map(|_| attempt(case, below).filter(|s| holds(s, case)))
}

/// True if `setup` holds the line case `case`: the side at stake is to
/// move at the end, had the right at the root and has it no more, and its
/// castling there would be legal with it (king at home, nothing between
/// king and corner, no attacked square on the king's way); for a capture,
/// a move of the line took its rook on the corner with a piece of the kind
/// named (for both corners: a knight on one, a rook on the other); for a
/// return, the rook is back on the corner.
pub(super) fn holds(setup: &Setup, case: Case) -> bool {
    let (side, wing) = match case.detail {
        Detail::CapturedBy { side, .. } | Detail::BothCorners { side } => (side, None),
        Detail::Castle { side, wing } => (side, Some(wing)),
        _ => return false,
    };
    let lost = lost_castlings(setup, side, wing);
    match (case.motif, case.detail) {
        (Motif::RightsAfterCapture, Detail::BothCorners { .. }) => {
            let by = |role| lost.iter().filter(|&&c| taken_by(setup, c, side, role)).count();
            lost.len() == 2 && by(Role::Knight) == 1 && by(Role::Rook) == 1
        }
        (Motif::RightsAfterCapture, Detail::CapturedBy { by, .. }) => {
            lost.iter().any(|&c| taken_by(setup, c, side, by))
        }
        (Motif::RightsAfterReturn, _) => lost.iter().any(|&corner| {
            let pos = setup.position();
            pos.piece_at(corner).is_some_and(|x| x.color == side && x.role == Role::Rook)
                && setup.moves.iter().any(|m| m.from() == corner)
        }),
        _ => false,
    }
}

/// The corners (on `wing`, if given) whose castling `side` had at the root
/// and lost by the end, where that castling would now be legal with the
/// right; none unless `side` is to move with its king still at home.
fn lost_castlings(setup: &Setup, side: Color, wing: Option<Wing>) -> Vec<Square> {
    let pos = setup.position();
    let king = setup.root.king(side);
    if pos.turn() != side || pos.king(side) != king {
        return Vec::new();
    }
    let lost = setup.root.castling_rooks() & !pos.castling_rooks() & home(side);
    lost.into_iter().filter(|&c| wing.is_none_or(|w| wing_of(king, c) == w) && would_castle(&pos, king, c)).collect()
}

/// True if a move of the line took `side`'s rook on `corner` with a `by`.
fn taken_by(setup: &Setup, corner: Square, side: Color, by: Role) -> bool {
    let mut p = setup.root;
    setup.moves.iter().any(|&m| {
        let taken = m.to() == corner
            && p.piece_at(corner).is_some_and(|x| x.color == side && x.role == Role::Rook)
            && p.role_at(m.from()) == Some(by);
        p = p.play(m);
        taken
    })
}

/// True if the side to move, with its king on `king`, could castle with a
/// rook on `corner` were the right still there: nothing between them, the
/// king not in check and not crossing or landing on an attacked square.
fn would_castle(pos: &Position, king: Square, corner: Square) -> bool {
    let us = pos.turn();
    let rank = corner.rank();
    let target = Square::from_coords(if (corner.file() as u8) > (king.file() as u8) { File::G } else { File::C }, rank);
    let attacked = |sq: Square| (pos.attackers_to(sq, pos.occupied()) & pos.by_color(!us)).any();
    (between(king, corner) & pos.occupied()).is_empty()
        && !pos.is_check()
        && !between(king, target).with(target).into_iter().any(attacked)
}

/// The back rank of `color`.
fn home(color: Color) -> Bitboard {
    Bitboard::rank(if color.is_white() { crate::board::Rank::First } else { crate::board::Rank::Eighth })
}

/// One try at a line for `case`, not yet checked.
fn attempt(case: Case, below: Below) -> Option<Setup> {
    let wing = |below: Below| if below(2) == 0 { Wing::King } else { Wing::Queen };
    match case.detail {
        Detail::CapturedBy { side, by } => captured(side, by, wing(below), below),
        Detail::BothCorners { side } => both_corners(side, wing(below), below),
        Detail::Castle { side, wing } => returned(side, wing, below),
        _ => None,
    }
}

/// The corner of `wing` on White's side.
fn white_corner(wing: Wing) -> Square {
    if wing == Wing::King {
        Square::H1
    } else {
        Square::A1
    }
}

/// `side`'s rook taken on its corner by a `by`: built with Black's rook
/// taken by White (then mirrored for White's). A rook or queen on the
/// corner attacks the back rank, so a black knight stands between it and
/// the king; the line then goes on until both have gone.
fn captured(side: Color, by: Role, wing: Wing, below: Below) -> Option<Setup> {
    use Color::{Black, White};
    let corner = white_corner(wing).flip_vertical();
    let mut s = Sketch::empty();
    s.put(Square::E8, Black, Role::King);
    s.put(corner, Black, Role::Rook);
    s.castling = if wing == Wing::King { "k" } else { "q" }.to_string();
    let occ = s.occupied();
    let from = match by {
        Role::Pawn => Some(if wing == Wing::King { Square::G7 } else { Square::B7 }),
        Role::Knight => pick(knight_attacks(corner) & !occ, below),
        Role::Bishop => pick(bishop_attacks(corner, occ) & !occ, below),
        Role::Rook => pick(rook_attacks(corner, occ) & Bitboard::file(corner.file()) & !occ, below),
        _ => pick(
            (bishop_attacks(corner, occ) | (rook_attacks(corner, occ) & Bitboard::file(corner.file()))) & !occ,
            below,
        ),
    }?;
    s.put(from, White, by);
    let slider = matches!(by, Role::Rook | Role::Queen);
    let blocker = pick(between(Square::E8, corner), below)?;
    if slider {
        s.put(blocker, Black, Role::Knight);
        s.put(random_square(below), Black, Role::Knight);
    }
    s.put(random_square(below), White, Role::King);
    for _ in 0..below(3) {
        s.put_random_piece(below);
    }
    let flip = side == White;
    let s = if flip { s.mirrored() } else { s };
    let at = |sq: Square| if flip { sq.flip_vertical() } else { sq };
    let (corner, from, blocker) = (at(corner), at(from), at(blocker));
    let root = s.position()?;
    let mut line = Line { pos: root, moves: Vec::new() };
    line.step(below, |_, m| {
        m.from() == from && m.to() == corner && m.promotion_role().is_none_or(|r| r == Role::Knight)
    })?;
    if slider {
        // The rook's side waits, the capturer leaves, the blocker leaves, the other side waits.
        line.step(below, |p, m| m.from() != p.king(side) && m.from() != blocker)?;
        line.step(below, |_, m| m.from() == corner)?;
        line.step(below, |_, m| m.from() == blocker)?;
        line.step(below, |_, _| true)?;
    }
    Some(Setup { root, moves: line.moves })
}

/// Both of `side`'s rooks taken on their corners: the one on `wing` by a
/// rook that then leaves (past a blocking knight, which leaves too), the
/// other by a knight that stays; built with Black's rooks taken by White
/// (then mirrored for White's).
fn both_corners(side: Color, wing: Wing, below: Below) -> Option<Setup> {
    use Color::{Black, White};
    let rook_corner = white_corner(wing).flip_vertical();
    let knight_corner = white_corner(if wing == Wing::King { Wing::Queen } else { Wing::King }).flip_vertical();
    let mut s = Sketch::empty();
    s.put(Square::E8, Black, Role::King);
    s.put(rook_corner, Black, Role::Rook);
    s.put(knight_corner, Black, Role::Rook);
    s.castling = "kq".to_string();
    let blocker = pick(between(Square::E8, rook_corner), below)?;
    s.put(blocker, Black, Role::Knight);
    let occ = s.occupied();
    let rook = pick(rook_attacks(rook_corner, occ) & Bitboard::file(rook_corner.file()) & !occ, below)?;
    s.put(rook, White, Role::Rook);
    let knight = pick(knight_attacks(knight_corner) & !s.occupied(), below)?;
    s.put(knight, White, Role::Knight);
    s.put(random_square(below), Black, Role::Knight);
    s.put(random_square(below), White, Role::King);
    for _ in 0..below(3) {
        s.put_random_piece(below);
    }
    let flip = side == White;
    let s = if flip { s.mirrored() } else { s };
    let at = |sq: Square| if flip { sq.flip_vertical() } else { sq };
    let (rook_corner, knight_corner, rook, knight, blocker) =
        (at(rook_corner), at(knight_corner), at(rook), at(knight), at(blocker));
    let root = s.position()?;
    let mut line = Line { pos: root, moves: Vec::new() };
    let kept = |p: &Position, m: Move| ![p.king(side), blocker, knight_corner].contains(&m.from());
    line.step(below, |_, m| m.from() == rook && m.to() == rook_corner)?;
    // The rooks' side waits, the rook leaves, the blocker leaves, the knight takes.
    line.step(below, kept)?;
    line.step(below, |_, m| m.from() == rook_corner)?;
    line.step(below, |_, m| m.from() == blocker)?;
    line.step(below, |_, m| m.from() == knight && m.to() == knight_corner)?;
    Some(Setup { root, moves: line.moves })
}

/// `side`'s rook leaves its corner on `wing` and comes back, the other
/// side waiting: built for White (then mirrored for Black).
fn returned(side: Color, wing: Wing, below: Below) -> Option<Setup> {
    use Color::{Black, White};
    let corner = white_corner(wing);
    let mut s = Sketch::empty();
    s.put(Square::E1, White, Role::King);
    s.put(corner, White, Role::Rook);
    s.castling = if wing == Wing::King { "K" } else { "Q" }.to_string();
    s.put(random_square(below), Black, Role::King);
    s.put(random_square(below), Black, Role::Knight);
    for _ in 0..below(3) {
        s.put_random_piece(below);
    }
    let flip = side == Black;
    let s = if flip { s.mirrored() } else { s };
    let corner = if flip { corner.flip_vertical() } else { corner };
    let root = s.position()?;
    let mut line = Line { pos: root, moves: Vec::new() };
    let away = line.step(below, |_, m| m.from() == corner)?;
    line.step(below, |_, _| true)?;
    line.step(below, |_, m| m.from() == away.to() && m.to() == corner)?;
    line.step(below, |_, _| true)?;
    Some(Setup { root, moves: line.moves })
}

/// A line being built move by move with our generator.
struct Line {
    pos: Position,
    moves: Vec<Move>,
}

impl Line {
    /// Plays a random legal move that `fits`; `None` if there is none.
    fn step(&mut self, below: Below, fits: impl Fn(&Position, Move) -> bool) -> Option<Move> {
        let moves: Vec<Move> = self.pos.legal_moves().iter().copied().filter(|&m| fits(&self.pos, m)).collect();
        let m = *moves.get(below(moves.len().max(1) as u64) as usize)?;
        self.pos = self.pos.play(m);
        self.moves.push(m);
        Some(m)
    }
}
