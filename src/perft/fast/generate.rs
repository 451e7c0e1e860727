//! Fully legal move generation: checkers, pins and the king's danger map
//! first, then every piece's legal targets handed to a `Sink` as whole sets.

use super::board::{bits, shift, Board, Side, BISHOP, FILE_A, FILE_H, KING, KNIGHT, PAWN, QUEEN, RANK_1, RANK_8, ROOK};
use super::castling::generate_castling;
use super::lookups::{bishop_rays, kings, knights, pawn_hits, ray, rook_rays, Sliders};

/// Kinds of pawn move handed to `Sink::pawns` (the `KIND` parameter).
pub(super) const PUSH: u8 = 0;
pub(super) const DOUBLE_PUSH: u8 = 1;
pub(super) const CAPTURE: u8 = 2;
pub(super) const PROMOTION: u8 = 3;
pub(super) const PROMOTION_CAPTURE: u8 = 4;

/// Receives legal moves in groups from `generate`.
pub(super) trait Sink {
    /// A piece of role `ROLE` on `from` moves to each square of `targets`.
    fn piece<S: Side, const ROLE: usize>(&mut self, b: &Board, from: usize, targets: u64);
    /// As `piece`, from the generator's copy for a king in check or pinned
    /// pieces: rarer, so a sink may keep its work there out of line.
    #[inline(always)]
    fn piece_rare<S: Side, const ROLE: usize>(&mut self, b: &Board, from: usize, targets: u64) {
        self.piece::<S, ROLE>(b, from, targets);
    }
    /// Pawns move to each square of `targets` from `target - step`.
    fn pawns<S: Side, const KIND: u8>(&mut self, b: &Board, targets: u64, step: i32);
    fn en_passant<S: Side>(&mut self, b: &Board, from: usize, to: usize);
    fn castle<S: Side>(&mut self, b: &Board, king: usize, rook: usize);
    /// Takes `n` moves of the bishops, rooks and queens counted elsewhere
    /// (`Threats::slider_moves`), if this sink only counts; else false.
    #[inline(always)]
    fn counted(&mut self, _n: u32) -> bool {
        false
    }
    /// Whether this sink only counts the moves it is handed (`counted`
    /// takes any number of them), so that the generator may count a group
    /// itself.
    const ONLY_COUNTS: bool = false;
    /// The king on `king` castles with each rook of `rooks` (maybe none).
    #[inline(always)]
    fn castles<S: Side>(&mut self, b: &Board, king: usize, rooks: u64) {
        for rook in bits(rooks) {
            self.castle::<S>(b, king, rook);
        }
    }
}

/// Whether the enemy attacks `target` with occupancy `occ` (the king removed).
#[inline(always)]
pub(super) fn attacked<S: Side, A: Sliders>(b: &Board, target: usize, occ: u64) -> bool {
    attacked_given::<S, A>(b, target, occ, 0)
}

/// As `attacked`, with what the enemy's pawns, knights and king attack
/// (`leaper_attacks`) known, or 0 if not.
#[inline(always)]
fn attacked_given<S: Side, A: Sliders>(b: &Board, target: usize, occ: u64, leaper_attacks: u64) -> bool {
    let theirs = b.color[1 - S::US];
    let diag = (b.role[BISHOP] | b.role[QUEEN]) & theirs;
    let line = (b.role[ROOK] | b.role[QUEEN]) & theirs;
    let leapers = if leaper_attacks != 0 {
        leaper_attacks & 1 << target
    } else {
        (knights(target) & b.role[KNIGHT] & theirs)
            | (pawn_hits(S::WHITE, target) & b.role[PAWN] & theirs)
            | (kings(target) & b.role[KING] & theirs)
    };
    leapers | (A::bishop(target, occ) & diag) | (A::rook(target, occ) & line) != 0
}

/// The squares that the enemy pawns of `pawns` capture on (towards side `S`:
/// down the board when White is to move).
#[inline(always)]
pub(super) fn pawn_attacks<S: Side>(pawns: u64) -> u64 {
    if S::WHITE {
        ((pawns & !FILE_A) >> 9) | ((pawns & !FILE_H) >> 7)
    } else {
        ((pawns & !FILE_A) << 7) | ((pawns & !FILE_H) << 9)
    }
}

/// The squares the knights of `set` attack.
#[inline(always)]
pub(super) fn knight_attacks(mut set: u64) -> u64 {
    let mut seen = 0;
    while set != 0 {
        seen |= knights(set.trailing_zeros() as usize);
        set &= set - 1;
    }
    seen
}

/// The squares the enemy attacks with occupancy `occ` (our king removed),
/// given what its pawns, knights and king attack (`leaper_attacks`, 0 if not
/// known), exact where it matters: `reach` says where a bishop or queen, a
/// rook or queen, or a knight must stand to attack the king's targets or its
/// standard castling path, and the others are left out.
///
/// Why: this map was the largest single cost of a leaf's parent (15% of the
/// samples on Kiwipete, plus its slider lookups). Leaving out the pieces
/// that cannot reach the king's targets: Kiwipete d5 1.067x, position 5 d5
/// 1.072x, position 4 d6 1.022x, start position 1.01x (`scripts/ab_perft.py`,
/// 9 rounds, medians); the knights' filter added 1.025x on Kiwipete. The
/// caller skips the filter against two enemy pieces or fewer.
#[inline(always)]
fn seen<S: Side, A: Sliders>(
    b: &Board,
    occ: u64,
    (diag_reach, line_reach, jump_reach): (u64, u64, u64),
    leaper_attacks: u64,
) -> u64 {
    let theirs = b.color[1 - S::US];
    let mut seen = if leaper_attacks != 0 {
        leaper_attacks
    } else {
        pawn_attacks::<S>(b.role[PAWN] & theirs)
            | kings(king_of::<S::Opp>(b))
            | knight_attacks(b.role[KNIGHT] & theirs & jump_reach)
    };
    let mut set = (b.role[BISHOP] | b.role[QUEEN]) & theirs & diag_reach;
    while set != 0 {
        seen |= A::bishop(set.trailing_zeros() as usize, occ);
        set &= set - 1;
    }
    let mut set = (b.role[ROOK] | b.role[QUEEN]) & theirs & line_reach;
    while set != 0 {
        seen |= A::rook(set.trailing_zeros() as usize, occ);
        set &= set - 1;
    }
    seen
}

/// Every legal move of `b` (side `S`) to `sink`.
#[inline(always)]
pub(super) fn generate<S: Side, A: Sliders, K: Sink>(b: &Board, sink: &mut K) {
    let king = king_of::<S>(b);
    generate_for::<S, A, K>(b, sink, king, Threats::of::<S>(b, king));
}

/// The square of side `S`'s king.
#[inline(always)]
pub(super) fn king_of<S: Side>(b: &Board) -> usize {
    (b.role[KING] & b.color[S::US]).trailing_zeros() as usize
}

/// What is known about the checks and pins that side `S`'s king may face
/// before its generator looks: the enemy knights and pawns that give check
/// (`leapers`), maybe what the enemy's leapers attack, and whether an enemy
/// bishop or queen (`diagonals`), or rook or queen (`lines`), may stand on a
/// line through the king. Where one kind may not, the generator skips that
/// half of its checker and pin pass.
#[derive(Copy, Clone)]
pub(super) struct Threats {
    pub(super) leapers: u64,
    /// What the enemy's pawns, knights and king attack, or 0 if not known
    /// (the enemy king always attacks some square).
    pub(super) leaper_attacks: u64,
    /// Everything the enemy attacks with our king off the board, exact next
    /// to the king and on its standard castling path, or 0 if not known.
    pub(super) danger: u64,
    /// How many moves our bishops, rooks and queens have if nothing is
    /// pinned and the king is not in check, if known.
    pub(super) slider_moves: Option<u32>,
    /// The same for our knights.
    pub(super) knight_moves: Option<u32>,
    pub(super) diagonals: bool,
    pub(super) lines: bool,
}

impl Threats {
    /// What the board alone says: the leapers that check the king on
    /// `king`, and both kinds of slider assumed possible.
    #[inline(always)]
    pub(super) fn of<S: Side>(b: &Board, king: usize) -> Threats {
        let theirs = b.color[1 - S::US];
        let leapers = (knights(king) & b.role[KNIGHT] & theirs) | (pawn_hits(S::WHITE, king) & b.role[PAWN] & theirs);
        Threats {
            leapers,
            leaper_attacks: 0,
            danger: 0,
            slider_moves: None,
            knight_moves: None,
            diagonals: true,
            lines: true,
        }
    }
}

/// Whether side `S`'s enemy has a bishop or queen on a diagonal through `king`.
#[inline(always)]
pub(super) fn on_diagonals<S: Side>(b: &Board, king: usize) -> bool {
    bishop_rays(king) & (b.role[BISHOP] | b.role[QUEEN]) & b.color[1 - S::US] != 0
}

/// Whether side `S`'s enemy has a rook or queen on a rank or file through `king`.
#[inline(always)]
pub(super) fn on_lines<S: Side>(b: &Board, king: usize) -> bool {
    rook_rays(king) & (b.role[ROOK] | b.role[QUEEN]) & b.color[1 - S::US] != 0
}

/// As `generate`, with the king's square (`king_of`) and its `Threats` known.
#[inline(always)]
pub(super) fn generate_for<S: Side, A: Sliders, K: Sink>(b: &Board, sink: &mut K, king: usize, threats: Threats) {
    let (us, them) = (S::US, 1 - S::US);
    let ours = b.color[us];
    let theirs = b.color[them];
    let occ = ours | theirs;

    // Checkers and pins in one pass: enemy sliders seen from the king through
    // our own pieces are checkers (nothing between) or pinners (one of ours).
    let mut checkers = threats.leapers;
    let mut pin_hv = 0;
    let mut pin_diag = 0;
    // Most kings have no enemy rook or queen on their rank or file at all:
    // the empty-board rays say so without a slider lookup.
    let line_sliders = (b.role[ROOK] | b.role[QUEEN]) & theirs;
    let mut snipers =
        if threats.lines && rook_rays(king) & line_sliders != 0 { A::rook(king, theirs) & line_sliders } else { 0 };
    while snipers != 0 {
        let s = snipers.trailing_zeros() as usize;
        snipers &= snipers - 1;
        let path = ray(king, s);
        let blockers = path & ours;
        if blockers == 0 {
            checkers |= 1 << s;
        } else if blockers & (blockers - 1) == 0 {
            pin_hv |= path | 1 << s;
        }
    }
    let diag_sliders = (b.role[BISHOP] | b.role[QUEEN]) & theirs;
    let mut snipers = if threats.diagonals { A::bishop(king, theirs) & diag_sliders } else { 0 };
    while snipers != 0 {
        let s = snipers.trailing_zeros() as usize;
        snipers &= snipers - 1;
        let path = ray(king, s);
        let blockers = path & ours;
        if blockers == 0 {
            checkers |= 1 << s;
        } else if blockers & (blockers - 1) == 0 {
            pin_diag |= path | 1 << s;
        }
    }

    // The king: a lone target is tested on its own; with several, one map of
    // every square the enemy attacks is cheaper. Either way the king is off
    // the board, so that it does not shield the square behind it from a slider.
    let king_targets = kings(king) & !ours;
    let occ_without_king = occ ^ (1 << king);
    // `danger` is that map when computed, else 0 (the enemy king always
    // attacks some square, so a computed map is never empty).
    let mut danger = threats.danger;
    let safe = if danger != 0 {
        king_targets & !danger
    } else if king_targets & king_targets.wrapping_sub(1) == 0 {
        let t = king_targets.trailing_zeros() as usize;
        if king_targets != 0 && attacked_given::<S, A>(b, t, occ_without_king, threats.leaper_attacks) {
            0
        } else {
            king_targets
        }
    } else {
        // With few enemy pieces the filter saves no lookup and turns a loop
        // that always runs into one that sometimes does not (position 3 d7
        // was 6% slower with it).
        let pieces = b.color[1 - S::US] & !(b.role[PAWN] | b.role[KING]);
        let reach = if pieces.count_ones() > 2 { A::reach(king, king_targets) } else { (!0, !0, !0) };
        danger = seen::<S, A>(b, occ_without_king, reach, threats.leaper_attacks);
        king_targets & !danger
    };
    sink.piece::<S, KING>(b, king, safe);

    // Usually the king is not in check and nothing is pinned: the same code
    // with every mask folded away (the compiler makes a second copy of it).
    // In double check only the king moves. (Why the double check is tested
    // second: the common copy then comes after one branch, not two; startpos
    // d6 1.006x, Kiwipete d5 1.024x, pos3 d7 1.030x, pos4 d6 0.993x, pos5 d5
    // 1.011x, `scripts/ab_perft.py`, 11 rounds, medians.)
    if checkers | pin_hv | pin_diag == 0 {
        piece_moves::<S, A, K, true>(b, sink, !0, 0, 0, threats.slider_moves, threats.knight_moves);
    } else if checkers & checkers.wrapping_sub(1) == 0 {
        let check_mask = if checkers == 0 { !0 } else { ray(king, checkers.trailing_zeros() as usize) | checkers };
        piece_moves::<S, A, K, false>(b, sink, check_mask, pin_hv, pin_diag, None, None);
    }

    // A castling square loses its right as soon as its rook leaves or is
    // taken, so our rights are exactly the set squares on our first rank.
    let rights = b.castling & if S::WHITE { RANK_1 } else { RANK_8 };
    if rights != 0 && checkers == 0 {
        generate_castling::<S, A, K>(b, sink, king, rights, occ, danger);
    }
}

/// Every move but the king's and castling, given the squares that answer a
/// check (`check_mask`, all squares when not in check) and the pin lines;
/// `COMMON` is the copy without check or pin, where a counting sink may take
/// the sliders' moves as counted (`slider_moves`).
#[inline(always)]
fn piece_moves<S: Side, A: Sliders, K: Sink, const COMMON: bool>(
    b: &Board,
    sink: &mut K,
    check_mask: u64,
    pin_hv: u64,
    pin_diag: u64,
    slider_moves: Option<u32>,
    knight_moves: Option<u32>,
) {
    let ours = b.color[S::US];
    let targets = !ours & check_mask;
    let pinned = pin_hv | pin_diag;

    if !(COMMON && knight_moves.is_some_and(|n| sink.counted(n))) {
        let mut set = b.role[KNIGHT] & ours & !pinned;
        while set != 0 {
            let from = set.trailing_zeros() as usize;
            set &= set - 1;
            hand::<S, K, KNIGHT, COMMON>(sink, b, from, knights(from) & targets);
        }
    }
    if !(COMMON && slider_moves.is_some_and(|n| sink.counted(n))) {
        sliders::<S, A, K, COMMON>(b, sink, targets, pin_hv, pin_diag);
    }
    generate_pawns::<S, A, K>(b, sink, check_mask, pin_hv, pin_diag);
}

/// The bishops', rooks' and queens' moves to `targets` (see `piece_moves`).
#[inline(always)]
fn sliders<S: Side, A: Sliders, K: Sink, const COMMON: bool>(
    b: &Board,
    sink: &mut K,
    targets: u64,
    pin_hv: u64,
    pin_diag: u64,
) {
    let ours = b.color[S::US];
    let occ = ours | b.color[1 - S::US];
    let pinned = pin_hv | pin_diag;
    // A slider pinned along one kind of line cannot move along the other,
    // and along its own only on the pin.
    let bishops = b.role[BISHOP] & ours & !pin_hv;
    slider_moves::<S, A, K, BISHOP, COMMON>(b, sink, bishops & !pin_diag, occ, targets);
    slider_moves::<S, A, K, BISHOP, COMMON>(b, sink, bishops & pin_diag, occ, targets & pin_diag);
    let rooks = b.role[ROOK] & ours & !pin_diag;
    slider_moves::<S, A, K, ROOK, COMMON>(b, sink, rooks & !pin_hv, occ, targets);
    slider_moves::<S, A, K, ROOK, COMMON>(b, sink, rooks & pin_hv, occ, targets & pin_hv);
    let mut set = b.role[QUEEN] & ours;
    while set != 0 {
        let from = set.trailing_zeros() as usize;
        set &= set - 1;
        let bit = 1u64 << from;
        let to = if bit & pinned == 0 {
            A::rook(from, occ) | A::bishop(from, occ)
        } else if bit & pin_diag != 0 {
            A::bishop(from, occ) & pin_diag
        } else {
            A::rook(from, occ) & pin_hv
        };
        hand::<S, K, QUEEN, COMMON>(sink, b, from, to & targets);
    }
}

/// A piece's moves to the sink, as common or rare (see `Sink::piece_rare`).
#[inline(always)]
fn hand<S: Side, K: Sink, const ROLE: usize, const COMMON: bool>(sink: &mut K, b: &Board, from: usize, targets: u64) {
    if COMMON {
        sink.piece::<S, ROLE>(b, from, targets);
    } else {
        sink.piece_rare::<S, ROLE>(b, from, targets);
    }
}

/// Each bishop or rook (`ROLE`) of `set` to the squares of `targets` it sees.
#[inline(always)]
fn slider_moves<S: Side, A: Sliders, K: Sink, const ROLE: usize, const COMMON: bool>(
    b: &Board,
    sink: &mut K,
    mut set: u64,
    occ: u64,
    targets: u64,
) {
    while set != 0 {
        let from = set.trailing_zeros() as usize;
        set &= set - 1;
        let seen = if ROLE == BISHOP { A::bishop(from, occ) } else { A::rook(from, occ) };
        hand::<S, K, ROLE, COMMON>(sink, b, from, seen & targets);
    }
}

#[inline(always)]
fn generate_pawns<S: Side, A: Sliders, K: Sink>(b: &Board, sink: &mut K, check_mask: u64, pin_hv: u64, pin_diag: u64) {
    // Colour-relative constants; `left` steps towards the a-file, `right` towards the h-file.
    let (up, left, right) = if S::WHITE { (8, 7, 9) } else { (-8, -9, -7) };
    let (third_rank, seventh_rank, last_rank) =
        if S::WHITE { (0xff << 16, 0xff << 48, RANK_8) } else { (0xff << 40, 0xff << 8, RANK_1) };
    let ours = b.color[S::US];
    let theirs = b.color[1 - S::US];
    let pawns = b.role[PAWN] & ours;
    let empty = !(ours | theirs);

    // Captures: a pawn pinned along a rook line cannot capture; one pinned
    // along a bishop line only along its pin.
    let free = pawns & !pin_hv & !pin_diag;
    let pinned = pawns & pin_diag;
    let victims = theirs & check_mask;
    let to_left = (shift(free & !FILE_A, left) | (shift(pinned & !FILE_A, left) & pin_diag)) & victims;
    let to_right = (shift(free & !FILE_H, right) | (shift(pinned & !FILE_H, right) & pin_diag)) & victims;

    // Pushes: a pawn pinned along a bishop line cannot push; one pinned along
    // a rook line only along its pin (on the king's file).
    let pushers = pawns & !pin_diag;
    let single = (shift(pushers & !pin_hv, up) | (shift(pushers & pin_hv, up) & pin_hv)) & empty;
    let double = shift(single & third_rank, up) & empty & check_mask;
    let single = single & check_mask;

    // Pawns about to promote are rare: one test skips splitting the sets.
    if pawns & seventh_rank == 0 {
        sink.pawns::<S, CAPTURE>(b, to_left, left);
        sink.pawns::<S, CAPTURE>(b, to_right, right);
        sink.pawns::<S, PUSH>(b, single, up);
    } else if K::ONLY_COUNTS {
        // Each promotion is four moves: the three extra ones counted in one
        // popcount, each set's last rank packed into a byte of its own (two
        // pawns may take on the same square).
        //
        // Why: against the six groups handed to the counter, pos5 d5 1.028x
        // and 1.040x, pos4 d6 1.006x and 1.003x, Kiwipete d5 1.029x and
        // 1.041x, startpos d6 0.988x and 0.981x, pos3 d7 0.995x and 0.990x
        // (`scripts/ab_perft.py`, two runs of 7 rounds, medians). Counted so
        // for every counting node, without the test for pawns on the seventh
        // rank: pos5 1.033x, pos4 1.025x, but pos3 0.953x, Kiwipete 0.979x.
        let promotions = if S::WHITE {
            (to_left & last_rank) >> 56 | (to_right & last_rank) >> 48 | (single & last_rank) >> 40
        } else {
            (to_left & last_rank) | (to_right & last_rank) << 8 | (single & last_rank) << 16
        };
        let n = to_left.count_ones() + to_right.count_ones() + single.count_ones();
        sink.counted(n + 3 * promotions.count_ones());
    } else {
        sink.pawns::<S, CAPTURE>(b, to_left & !last_rank, left);
        sink.pawns::<S, PROMOTION_CAPTURE>(b, to_left & last_rank, left);
        sink.pawns::<S, CAPTURE>(b, to_right & !last_rank, right);
        sink.pawns::<S, PROMOTION_CAPTURE>(b, to_right & last_rank, right);
        sink.pawns::<S, PUSH>(b, single & !last_rank, up);
        sink.pawns::<S, PROMOTION>(b, single & last_rank, up);
    }
    sink.pawns::<S, DOUBLE_PUSH>(b, double, 2 * up);

    if b.ep != 0 {
        let ep = b.ep.trailing_zeros() as usize;
        let candidates = pawns & pawn_hits(!S::WHITE, ep);
        if candidates != 0 {
            A::out_of_line(
                #[inline(always)]
                || generate_en_passant::<S, A, K>(b, sink, ep, candidates),
            );
        }
    }
}

/// En passant is rare and full of traps (the captured pawn may be the checker,
/// both pawns may leave the king's rank), so each candidate is tested on the
/// board after it (out of line, see `Sliders::out_of_line`).
#[inline(always)]
fn generate_en_passant<S: Side, A: Sliders, K: Sink>(b: &Board, sink: &mut K, ep: usize, candidates: u64) {
    let ours = b.color[S::US];
    let theirs = b.color[1 - S::US];
    let king = king_of::<S>(b);
    let captured = if S::WHITE { ep - 8 } else { ep + 8 };
    for from in bits(candidates) {
        let occ = ((ours | theirs) ^ (1 << from) ^ (1 << captured)) | 1 << ep;
        let enemy = theirs & !(1 << captured);
        let attackers = (A::rook(king, occ) & (b.role[ROOK] | b.role[QUEEN]))
            | (A::bishop(king, occ) & (b.role[BISHOP] | b.role[QUEEN]))
            | (knights(king) & b.role[KNIGHT])
            | (pawn_hits(S::WHITE, king) & b.role[PAWN]);
        if attackers & enemy == 0 {
            sink.en_passant::<S>(b, from, ep);
        }
    }
}
