//! Legal move generation: check mask, separate pin masks for rook lines and
//! bishop lines, and a map of squares the enemy attacks for the king. No move
//! is generated that then has to be tested by making it, except en passant.
//!
//! Moves are handed to a `MoveSink` in groups (a piece and its target set, or
//! a set of pawn moves sharing one step), so that counting at the last ply is
//! a popcount and never builds a list.

mod notation;
mod san;

pub use crate::board::moves::{Move, MoveKind, MoveList, MAX_MOVES};
pub use notation::ParseMoveError;

use crate::attacks::{between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::board::{Bitboard, Color, File, Rank, Role, Square};
use crate::position::{back_rank, is_kingside, Position};

/// Receives generated moves in groups.
pub trait MoveSink {
    /// A piece (not a pawn) on `from` moves to each square of `targets`.
    fn piece_moves(&mut self, from: Square, targets: Bitboard);
    /// Pawns move to each square of `targets` from `target - step` (index
    /// difference); promotions are flagged and stand for four moves each.
    fn pawn_moves(&mut self, targets: Bitboard, step: i8, promotion: bool);
    /// One castling or en passant move.
    fn special(&mut self, m: Move);
}

/// Collects moves into a `MoveList`.
impl MoveSink for MoveList {
    #[inline(always)]
    fn piece_moves(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::normal(from, to));
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, step: i8, promotion: bool) {
        for to in targets {
            let from = Square::new((to as i8 - step) as u8);
            if promotion {
                for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    self.push(Move::promotion(from, to, role));
                }
            } else {
                self.push(Move::normal(from, to));
            }
        }
    }

    #[inline(always)]
    fn special(&mut self, m: Move) {
        self.push(m);
    }
}

/// Counts moves without listing them.
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn piece_moves(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, _step: i8, promotion: bool) {
        self.0 += (targets.count() as u64) << (2 * promotion as u32);
    }

    #[inline(always)]
    fn special(&mut self, _m: Move) {
        self.0 += 1;
    }
}

impl Position {
    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// The number of legal moves (no list is built).
    #[inline]
    pub fn count_legal(&self) -> u64 {
        let mut counter = MoveCounter(0);
        self.generate(&mut counter);
        counter.0
    }

    /// Hands every legal move to `sink`.
    #[inline]
    pub fn generate<S: MoveSink>(&self, sink: &mut S) {
        match self.turn() {
            Color::White => generate::<S, true>(self, sink),
            Color::Black => generate::<S, false>(self, sink),
        }
    }

    /// Squares attacked by `color`, with the given occupancy.
    #[inline(always)]
    pub fn attacked_by(&self, color: Color, occupied: Bitboard) -> Bitboard {
        let theirs = self.by_color(color);
        let pawns = self.pieces(color, Role::Pawn);
        let mut attacked = if color.is_white() {
            Bitboard(((pawns.0 & !FILE_A) << 7) | ((pawns.0 & !FILE_H) << 9))
        } else {
            Bitboard(((pawns.0 & !FILE_H) >> 7) | ((pawns.0 & !FILE_A) >> 9))
        };
        for sq in self.pieces(color, Role::Knight) {
            attacked |= knight_attacks(sq);
        }
        for sq in self.diagonal_sliders() & theirs {
            attacked |= bishop_attacks(sq, occupied);
        }
        for sq in self.line_sliders() & theirs {
            attacked |= rook_attacks(sq, occupied);
        }
        attacked | king_attacks(self.king(color))
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// Pinned pieces of the side to move: (rook-line pin rays, bishop-line pin
/// rays). Each ray runs from next to the king up to and including the pinner.
#[inline(always)]
fn pin_masks(pos: &Position, king: Square, us: Color) -> (Bitboard, Bitboard) {
    let ours = pos.by_color(us);
    let theirs = pos.by_color(!us);
    let mut pin_hv = Bitboard::EMPTY;
    let mut pin_diag = Bitboard::EMPTY;
    for sniper in rook_attacks(king, theirs) & pos.line_sliders() & theirs {
        let ray = between(king, sniper);
        if (ray & ours).count() == 1 {
            pin_hv |= ray | sniper;
        }
    }
    for sniper in bishop_attacks(king, theirs) & pos.diagonal_sliders() & theirs {
        let ray = between(king, sniper);
        if (ray & ours).count() == 1 {
            pin_diag |= ray | sniper;
        }
    }
    (pin_hv, pin_diag)
}

#[inline(always)]
fn generate<S: MoveSink, const WHITE: bool>(pos: &Position, sink: &mut S) {
    let (us, them) = if WHITE { (Color::White, Color::Black) } else { (Color::Black, Color::White) };
    let ours = pos.by_color(us);
    let theirs = pos.by_color(them);
    let occupied = ours | theirs;
    let king = pos.king(us);

    // The king may go to any square the enemy does not attack once the king
    // itself no longer blocks a slider's ray.
    let danger = pos.attacked_by(them, occupied.without(king));
    sink.piece_moves(king, king_attacks(king) & !ours & !danger);

    let checkers = pos.attackers_to(king, occupied) & theirs;
    if checkers.more_than_one() {
        return; // double check: only the king moves
    }
    let check_mask = match checkers.first() {
        Some(checker) => between(king, checker) | checker,
        None => Bitboard::FULL,
    };
    let (pin_hv, pin_diag) = pin_masks(pos, king, us);
    let pinned = pin_hv | pin_diag;
    let targets = !ours & check_mask;

    for from in pos.pieces(us, Role::Knight) & !pinned {
        sink.piece_moves(from, knight_attacks(from) & targets);
    }
    let diagonal = pos.diagonal_sliders() & ours & !pin_hv;
    for from in diagonal & !pin_diag {
        sink.piece_moves(from, bishop_attacks(from, occupied) & targets);
    }
    for from in diagonal & pin_diag {
        sink.piece_moves(from, bishop_attacks(from, occupied) & targets & pin_diag);
    }
    let straight = pos.line_sliders() & ours & !pin_diag;
    for from in straight & !pin_hv {
        sink.piece_moves(from, rook_attacks(from, occupied) & targets);
    }
    for from in straight & pin_hv {
        sink.piece_moves(from, rook_attacks(from, occupied) & targets & pin_hv);
    }

    generate_pawns::<S, WHITE>(pos, sink, check_mask, pin_hv, pin_diag);

    if checkers.is_empty() {
        generate_castling(pos, sink, us, king, occupied);
    }
}

/// Shifts a set forward by `step` (positive = towards rank 8).
#[inline(always)]
fn shift(bb: Bitboard, step: i8) -> Bitboard {
    if step > 0 {
        Bitboard(bb.0 << step)
    } else {
        Bitboard(bb.0 >> -step)
    }
}

#[inline(always)]
fn generate_pawns<S: MoveSink, const WHITE: bool>(
    pos: &Position,
    sink: &mut S,
    check_mask: Bitboard,
    pin_hv: Bitboard,
    pin_diag: Bitboard,
) {
    // Colour-relative constants: steps and ranks as seen by the side to move.
    let (us, up, up_left, up_right) = if WHITE { (Color::White, 8, 7, 9) } else { (Color::Black, -8, -9, -7) };
    let (double_rank, promo_rank) = if WHITE {
        (Bitboard::rank(Rank::Third), Bitboard::rank(Rank::Eighth))
    } else {
        (Bitboard::rank(Rank::Sixth), Bitboard::rank(Rank::First))
    };
    // `up_left` always steps towards the a-file and `up_right` towards the
    // h-file; pawns on that edge cannot capture that way.
    let (left_edge, right_edge) = (FILE_A, FILE_H);
    let pawns = pos.pieces(us, Role::Pawn);
    let theirs = pos.by_color(!us);
    let empty = !pos.occupied();

    // Captures: a pawn pinned along a rook line cannot capture; one pinned
    // along a bishop line may capture only along its pin.
    let capturers = pawns & !pin_hv;
    let free = capturers & !pin_diag;
    let pinned = capturers & pin_diag;
    let capture_targets = theirs & check_mask;
    for (step, edge) in [(up_left, left_edge), (up_right, right_edge)] {
        let from_free = Bitboard(free.0 & !edge);
        let from_pinned = Bitboard(pinned.0 & !edge);
        let to = (shift(from_free, step) | (shift(from_pinned, step) & pin_diag)) & capture_targets;
        sink.pawn_moves(to & !promo_rank, step, false);
        sink.pawn_moves(to & promo_rank, step, true);
    }

    // Pushes: a pawn pinned along a bishop line cannot push; one pinned along
    // a rook line may push only along its pin (i.e. on the king's file).
    let pushers = pawns & !pin_diag;
    let single = (shift(pushers & !pin_hv, up) | (shift(pushers & pin_hv, up) & pin_hv)) & empty;
    let double = shift(single & double_rank, up) & empty & check_mask;
    let single = single & check_mask;
    sink.pawn_moves(single & !promo_rank, up, false);
    sink.pawn_moves(single & promo_rank, up, true);
    sink.pawn_moves(double, 2 * up, false);

    if let Some(ep) = pos.ep_square() {
        generate_en_passant(pos, sink, us, ep, pawns & pawn_attacks(!us, ep));
    }
}

/// En passant is rare and full of traps (the captured pawn may be the checker,
/// both pawns may leave a rank with the king on it), so each candidate is
/// tested by looking at the board after it.
#[cold]
fn generate_en_passant<S: MoveSink>(pos: &Position, sink: &mut S, us: Color, ep: Square, candidates: Bitboard) {
    let them = !us;
    let king = pos.king(us);
    let captured = Square::from_coords(ep.file(), if us.is_white() { Rank::Fifth } else { Rank::Fourth });
    for from in candidates {
        let occupied = (pos.occupied() ^ from ^ captured) | ep;
        let theirs = pos.by_color(them).without(captured);
        let attackers = (rook_attacks(king, occupied) & pos.line_sliders())
            | (bishop_attacks(king, occupied) & pos.diagonal_sliders())
            | (knight_attacks(king) & pos.by_role(Role::Knight))
            | (pawn_attacks(us, king) & pos.by_role(Role::Pawn));
        if (attackers & theirs).is_empty() {
            sink.special(Move::en_passant(from, ep));
        }
    }
}

/// Castling with king and rook on any files (Chess960): every square either
/// piece passes over or lands on must be empty (but for the two of them), and
/// no square the king passes over or lands on may be attacked once both have
/// left their squares. Called only when not in check.
fn generate_castling<S: MoveSink>(pos: &Position, sink: &mut S, us: Color, king: Square, occupied: Bitboard) {
    let rights = pos.castling_rooks() & back_rank(us) & pos.pieces(us, Role::Rook);
    for rook in rights {
        let (king_file, rook_file) = if is_kingside(king, rook) { (File::G, File::F) } else { (File::C, File::D) };
        let king_to = Square::from_coords(king_file, king.rank());
        let rook_to = Square::from_coords(rook_file, king.rank());
        let king_path = between(king, king_to) | king_to;
        let rook_path = between(rook, rook_to) | rook_to;
        let others = occupied.without(king).without(rook);
        if ((king_path | rook_path) & others).any() {
            continue;
        }
        if king_path.into_iter().all(|sq| (pos.attackers_to(sq, others) & pos.by_color(!us)).is_empty()) {
            sink.special(Move::castling(king, rook));
        }
    }
}
