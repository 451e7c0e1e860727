//! The builders of the position motifs: each places its motif's key
//! pieces at random squares that fit the geometry, White to move.

use super::sketch::{pick, random_square, sq, Sketch};
use super::{distance, holds, Below, Motif};
use crate::attacks::{bishop_attacks, queen_attacks};
use crate::board::{Bitboard, Color, Role, Square};
use crate::Position;

/// How many placements are tried before giving up; every case is found in
/// a few hundred at most.
const ATTEMPTS: u32 = 20_000;

/// A valid position built for `motif` that `accept` takes (a case of it);
/// `None` only if [`ATTEMPTS`] placements all failed.
pub(super) fn search(motif: Motif, below: Below, accept: &dyn Fn(&Position) -> bool) -> Option<Position> {
    for attempt in 0..ATTEMPTS {
        let mut sketch = Sketch::empty();
        if !place(motif, &mut sketch, below) {
            continue;
        }
        // Extra pieces give variety; late attempts go without them.
        let extras = if attempt < ATTEMPTS / 2 { below(5) } else { 0 };
        for _ in 0..extras {
            sketch.put_random_piece(below);
        }
        if below(2) == 1 {
            sketch = sketch.mirrored();
        }
        if let Some(pos) = sketch.position() {
            if accept(&pos) {
                return Some(pos);
            }
        }
    }
    None
}

/// Places `motif`'s key pieces for White to move; false when the random
/// choice does not fit on the board.
fn place(motif: Motif, s: &mut Sketch, below: Below) -> bool {
    use Color::{Black, White};
    let slider = |below: Below, diagonal: bool| match (below(2), diagonal) {
        (0, _) => Role::Queen,
        (_, true) => Role::Bishop,
        _ => Role::Rook,
    };
    let placed = match motif {
        Motif::EpPinnedOnRank => {
            let (pawn, theirs) = ep_pair(s, below);
            let (lo, hi) = (pawn.min(theirs), pawn.max(theirs));
            // King on one side of the pair, the pinner on the other.
            let (king, pinner) = if below(2) == 0 {
                (span(0, lo - 1, below), span(hi + 1, 7, below))
            } else {
                (span(hi + 1, 7, below), span(0, lo - 1, below))
            };
            match (king, pinner) {
                (Some(k), Some(p)) => {
                    let role = slider(below, false);
                    put_at(s, k, 4, White, Role::King) && put_at(s, p, 4, Black, role)
                }
                _ => false,
            }
        }
        Motif::EpPinnedOnDiagonal => {
            let (pawn, _) = ep_pair(s, below);
            let (df, dr) = [(1, 1), (1, -1), (-1, 1), (-1, -1)][below(4) as usize];
            let (a, b) = (1 + below(4) as i32, 1 + below(4) as i32);
            let role = slider(below, true);
            match (sq(pawn - a * df, 4 - a * dr), sq(pawn + b * df, 4 + b * dr)) {
                (Some(k), Some(p)) => s.put(k, White, Role::King) && s.put(p, Black, role),
                _ => false,
            }
        }
        Motif::EpRemovesChecker => {
            let (_, theirs) = ep_pair(s, below);
            let side = if below(2) == 0 { -1 } else { 1 };
            sq(theirs + side, 3).is_some_and(|k| s.put(k, White, Role::King))
        }
        Motif::EpInOtherCheck => {
            // The double step uncovered the check: the checker's line to
            // the king crosses the square the pawn came from.
            let (_, theirs) = ep_pair(s, below);
            let origin = sq(theirs, 6).expect("on the board");
            let (df, dr) = [(1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)][below(6) as usize];
            let (a, b) = (1 + below(6) as i32, 1 + below(3) as i32);
            let (f, r) = (theirs, 6);
            let role = slider(below, dr != 0);
            match (sq(f - a * df, r - a * dr), sq(f + b * df, r + b * dr)) {
                (Some(k), Some(p)) => s.put(k, White, Role::King) && s.put(p, Black, role) && origin != k,
                _ => false,
            }
        }
        Motif::PinnedPromotion | Motif::PinnedPromotionCapture => {
            let file = below(8) as i32;
            let pawn = sq(file, 6).expect("on the board");
            let pinned = s.put(pawn, White, Role::Pawn) && pin_to_king(s, pawn, below);
            let capture = motif == Motif::PinnedPromotionCapture && below(2) == 0;
            let target = sq(file + if below(2) == 0 { -1 } else { 1 }, 7);
            pinned && (!capture || target.is_some_and(|t| s.put(t, Black, Role::Knight)))
        }
        Motif::CastlingThroughAttack
        | Motif::CastlingOutOfCheck
        | Motif::CastlingIntoAttack
        | Motif::CastlingRookAttacked
        | Motif::CastlingBlocked
        | Motif::CastlingAllowed => {
            let kingside = below(2) == 0;
            castling_start(s, kingside);
            let (through, target, rook_squares) = if kingside {
                (&[Square::F1][..], Square::G1, &[Square::H1, Square::F1][..])
            } else {
                (&[Square::D1][..], Square::C1, &[Square::A1, Square::B1, Square::D1][..])
            };
            let victim = match motif {
                Motif::CastlingThroughAttack => through[below(through.len() as u64) as usize],
                Motif::CastlingOutOfCheck => Square::E1,
                Motif::CastlingIntoAttack => target,
                Motif::CastlingRookAttacked => rook_squares[below(rook_squares.len() as u64) as usize],
                Motif::CastlingAllowed => return put_black_king(s, below),
                _ => {
                    let path = if kingside {
                        [Square::F1, Square::G1, Square::G1]
                    } else {
                        [Square::B1, Square::C1, Square::D1]
                    };
                    let color = if below(2) == 0 { White } else { Black };
                    return s.put(path[below(3) as usize], color, Role::Knight) && put_black_king(s, below);
                }
            };
            s.put_attacker(victim, Black, below)
        }
        Motif::KingsNear => {
            let king = random_square(below);
            let near = (0..64u8).map(Square::new).filter(|&t| distance(king, t) == 2).collect::<Bitboard>();
            s.put(king, White, Role::King) && pick(near, below).is_some_and(|t| s.put(t, Black, Role::King))
        }
        Motif::DoubleCheck => {
            let king = random_square(below);
            s.put(king, White, Role::King) && {
                let diagonal = below(2) == 0;
                let role = slider(below, diagonal);
                let occ = s.occupied();
                let lines = if role == Role::Bishop { bishop_attacks(king, occ) } else { queen_attacks(king, occ) };
                let first = pick(lines & !occ, below).is_some_and(|p| s.put(p, Black, role));
                first && s.put_attacker(king, Black, below)
            }
        }
        Motif::DiscoveredCheckByCastling => {
            let kingside = below(2) == 0;
            castling_start(s, kingside);
            let file = if kingside { 5 } else { 3 };
            let rank = 2 + below(6) as i32;
            return sq(file, rank).is_some_and(|k| s.put(k, Black, Role::King));
        }
        Motif::DiscoveredCheckByEp => {
            let (pawn, theirs) = ep_pair(s, below);
            if below(2) == 0 {
                // Along the rank: the capture takes both pawns off it.
                let (lo, hi) = (pawn.min(theirs), pawn.max(theirs));
                let (k, p) = if below(2) == 0 {
                    (span(0, lo - 1, below), span(hi + 1, 7, below))
                } else {
                    (span(hi + 1, 7, below), span(0, lo - 1, below))
                };
                let role = slider(below, false);
                let white_king = random_square(below);
                return match (k, p) {
                    (Some(k), Some(p)) => {
                        put_at(s, k, 4, Black, Role::King)
                            && put_at(s, p, 4, White, role)
                            && s.put(white_king, White, Role::King)
                    }
                    _ => false,
                };
            }
            // Along a diagonal through the captured pawn.
            let (df, dr) = [(1, 1), (1, -1), (-1, 1), (-1, -1)][below(4) as usize];
            let (a, b) = (1 + below(3) as i32, 1 + below(3) as i32);
            let role = slider(below, true);
            let white_king = random_square(below);
            return match (sq(theirs - a * df, 4 - a * dr), sq(theirs + b * df, 4 + b * dr)) {
                (Some(k), Some(p)) => {
                    s.put(k, Black, Role::King) && s.put(p, White, role) && s.put(white_king, White, Role::King)
                }
                _ => false,
            };
        }
        Motif::ManyMoves | Motif::OneMove => unreachable!("built by climbing"),
        Motif::RightsAfterCapture | Motif::RightsAfterReturn => unreachable!("built as lines"),
        Motif::Chess960Castling => unreachable!("built by chess960.rs"),
    };
    placed && put_black_king(s, below)
}

/// A white pawn on rank 5 and a black one beside it that has just made a
/// double step (the e.p. square set); their files.
fn ep_pair(s: &mut Sketch, below: Below) -> (i32, i32) {
    let pawn = below(8) as i32;
    let theirs = if pawn == 0 || (pawn < 7 && below(2) == 0) { pawn + 1 } else { pawn - 1 };
    s.put(sq(pawn, 4).expect("file 0-7"), Color::White, Role::Pawn);
    s.put(sq(theirs, 4).expect("file 0-7"), Color::Black, Role::Pawn);
    s.ep = sq(theirs, 5);
    (pawn, theirs)
}

/// A random file from `lo` to `hi`, if there is one.
fn span(lo: i32, hi: i32, below: Below) -> Option<i32> {
    (lo <= hi).then(|| lo + below((hi - lo + 1) as u64) as i32)
}

fn put_at(s: &mut Sketch, file: i32, rank: i32, color: Color, role: Role) -> bool {
    sq(file, rank).is_some_and(|t| s.put(t, color, role))
}

/// Pins the white piece on `pawn` to a white king placed on a random line
/// through it, with a black slider beyond.
fn pin_to_king(s: &mut Sketch, pawn: Square, below: Below) -> bool {
    let (df, dr) = [(1, 0), (-1, 0), (0, -1), (1, -1), (-1, -1), (1, 1), (-1, 1), (0, 1)][below(8) as usize];
    let (f, r) = (pawn.file() as i32, pawn.rank() as i32);
    let (a, b) = (1 + below(6) as i32, 1 + below(6) as i32);
    let role = match (below(2), df != 0 && dr != 0) {
        (0, _) => Role::Queen,
        (_, true) => Role::Bishop,
        _ => Role::Rook,
    };
    match (sq(f - a * df, r - a * dr), sq(f + b * df, r + b * dr)) {
        (Some(k), Some(p)) => s.put(k, Color::White, Role::King) && s.put(p, Color::Black, role),
        _ => false,
    }
}

/// White's king on e1 and a rook in its corner, with the right to castle.
fn castling_start(s: &mut Sketch, kingside: bool) {
    s.put(Square::E1, Color::White, Role::King);
    s.put(if kingside { Square::H1 } else { Square::A1 }, Color::White, Role::Rook);
    s.castling = if kingside { "K" } else { "Q" }.to_string();
}

fn put_black_king(s: &mut Sketch, below: Below) -> bool {
    if s.squares.contains(&Some((Color::Black, Role::King))) {
        return true;
    }
    s.put(random_square(below), Color::Black, Role::King)
}

/// The pieces a climb starts from, at random squares: a White army of
/// queens and minor pieces for many moves, a few pieces for one move.
fn random_board(many: bool, below: Below) -> Sketch {
    let mut s = Sketch::empty();
    let white: &[Role] = if many {
        &[Role::Queen; 9][..7 + below(3) as usize]
    } else {
        &[Role::Pawn, Role::Knight][..below(3) as usize]
    };
    let black: &[Role] =
        if many { &[Role::Pawn, Role::Pawn] } else { &[Role::Rook, Role::Queen, Role::Knight, Role::Bishop] };
    s.put(random_square(below), Color::White, Role::King);
    s.put(random_square(below), Color::Black, Role::King);
    let extra: &[Role] =
        if many { &[Role::Rook, Role::Rook, Role::Bishop, Role::Bishop, Role::Knight, Role::Knight] } else { &[] };
    let black = &black[..below(black.len() as u64 + 1) as usize];
    let pieces = white.iter().chain(extra).map(|&r| (Color::White, r)).chain(black.iter().map(|&r| (Color::Black, r)));
    // One piece at a time, each where it leaves the position valid.
    for (color, role) in pieces {
        for _ in 0..100 {
            let mut next = s.clone();
            if next.put(random_square(below), color, role) && next.position().is_some() {
                s = next;
                break;
            }
        }
    }
    s
}

/// Moves of one climb before it starts again from a new random board.
const CLIMB_STEPS: u32 = 20_000;

/// The extremes of the move count, found by climbing: pieces moved one at a
/// time, each change kept when it brings the count closer to the goal.
pub(super) fn climb(motif: Motif, below: Below) -> Option<Position> {
    let many = motif == Motif::ManyMoves;
    let score = |s: &Sketch| -> Option<i64> {
        let n = s.position()?.legal_moves().len() as i64;
        match many {
            true => Some(n),
            false => (n >= 1).then_some(-n),
        }
    };
    for _ in 0..50 {
        let mut s = random_board(many, below);
        let Some(mut now) = score(&s) else { continue };
        // A climb that may step a little downhill now and then, so that it
        // does not stop on the first small hill.
        for _ in 0..CLIMB_STEPS {
            let from = random_square(below);
            let to = random_square(below);
            let Some((color, role)) = s.squares[from.index()] else { continue };
            let mut next = s.clone();
            next.squares[from.index()] = None;
            if !next.put(to, color, role) {
                continue;
            }
            let Some(v) = score(&next) else { continue };
            if v >= now || (below(16) == 0 && v >= now - 4) {
                now = v;
                s = next;
                if let Some(pos) = s.position().filter(|p| holds(p, motif)) {
                    let s = if below(2) == 1 { s.mirrored() } else { s };
                    return s.position().filter(|p| holds(p, motif)).or(Some(pos));
                }
            }
        }
    }
    None
}
