//! Castling moves: the standard geometry (king on the e-file, rooks in the
//! corners) by constant masks, any other (Chess960) by tables of paths.

use super::board::{bits, Board, Side};
use super::generate::{attacked, Sink};
use super::lookups::Sliders;

/// Castling moves of `b` (side `S`) to `sink`. Only called with `rights` (our
/// castling rooks), so with the king on its first rank, and not in check.
/// `danger` is the enemy attack map without our king, or 0 if the king's moves
/// did not need it; the map is exact next to the king and, for a king on e1
/// or e8, on the standard paths (c, d, f and g), nowhere else.
///
/// Why: the general path (table lookups, a loop over the rights, the
/// rook-shield test) was about 10% of the instructions on Kiwipete, where
/// both sides keep their rights deep into the tree. A right on a corner with
/// the king on the e-file (every game of standard chess) needs none of it.
/// Measured against the table path for every geometry (`scripts/ab_perft.py`,
/// 21 rounds, by medians): Kiwipete d5 1.055x, position 4 d6 1.065x,
/// position 5 d5 1.030x, start position and position 3 unchanged.
#[inline(always)]
pub(super) fn generate_castling<S: Side, A: Sliders, K: Sink>(
    b: &Board,
    sink: &mut K,
    king: usize,
    rights: u64,
    occ: u64,
    danger: u64,
) {
    let base = if S::WHITE { 0 } else { 56 };
    if king == base + 4 && rights & !(0x81 << base) == 0 {
        standard::<S, A, K>(b, sink, rights, occ, danger);
    } else {
        any_geometry::<S, A, K>(b, sink, king, rights, occ);
    }
}

/// King on e1 (e8), rights only for the corner rooks. A rook in its corner
/// shields no square of the king's path from anything, so the map `danger`
/// is exact for the path; without the map, each square is tested.
///
/// Why the selects instead of `&&`: with both sides keeping their rights
/// (Kiwipete) the short-circuit tests here were 15% of all mispredicted
/// branches (callgrind `--branch-sim=yes`, Kiwipete d4: 13,585 of 91,811;
/// 1,352 of 80,470 with them), and the selects made Kiwipete d5 1.01x and
/// position 4 d6 1.02x faster than the `&&` version. One set of closed
/// squares (pieces, and attacks where the map is known) for both paths:
/// Kiwipete d5 1.011x, position 5 d5 1.022x, start position 0.990x (9
/// rounds, medians); testing the map first cost the start position 6%.
#[inline(always)]
fn standard<S: Side, A: Sliders, K: Sink>(b: &Board, sink: &mut K, rights: u64, occ: u64, danger: u64) {
    let base = if S::WHITE { 0 } else { 56 };
    let king = base + 4;
    let (short, long) = (0x80 << base, 1 << base);
    let (f_g, b_c_d, c_d) = (0x60 << base, 0x0e << base, 0x0c << base);
    // A path is closed by a piece on it or a known attack on the king's part.
    let closed = (occ & (f_g | b_c_d)) | (danger & (f_g | c_d));
    let open = rights & (if closed & f_g == 0 { short } else { 0 } | if closed & b_c_d == 0 { long } else { 0 });
    // With the map, the count needs no branch on which paths are open
    // (whether an attack closes the short path changes from child to child).
    // Why: against returning first when both are closed, position 5 d5
    // 1.042x, Kiwipete d5 1.035x, start position 0.983x (7 rounds, medians);
    // returning first only when pieces close both, the start position gained
    // 5% back but position 5 lost 2% (9 rounds).
    if danger != 0 {
        sink.castles::<S>(b, king, open);
        return;
    }
    if open == 0 {
        return;
    }
    // No map: the king had at most one target. Both paths open would make
    // d1 and f1 two empty targets, so at most one path is open.
    let (rook, path) = if open == short { (short, f_g) } else { (long, c_d) };
    if king_path_safe::<S, A>(b, path, occ ^ 1 << king) {
        sink.castles::<S>(b, king, rook);
    }
}

/// Squares (on the first rank) that must be empty but for king and rook, and
/// squares the king crosses or lands on, for each (king file, rook file).
const CASTLE_PATHS: [[(u64, u64); 8]; 8] = castle_paths();

const fn castle_paths() -> [[(u64, u64); 8]; 8] {
    // Squares from `a` to `b` inclusive on the first rank.
    const fn span(a: usize, b: usize) -> u64 {
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        (0xff >> (7 - hi)) & (0xff << lo)
    }
    let mut t = [[(0, 0); 8]; 8];
    let mut king = 0;
    while king < 8 {
        let mut rook = 0;
        while rook < 8 {
            let (king_to, rook_to) = if rook > king { (6, 5) } else { (2, 3) };
            let king_path = (span(king, king_to) & !(1 << king)) | 1 << king_to;
            let rook_path = span(rook, rook_to) & !(1 << rook);
            t[king][rook] = ((king_path | rook_path) & !(1 << king) & !(1 << rook), king_path);
            rook += 1;
        }
        king += 1;
    }
    t
}

/// For a king file and the occupancy of its first rank (as a byte), the rook
/// files whose castling path is empty: one lookup rejects the usual case of
/// every path blocked, without a loop over the rights.
static CASTLE_OPEN: [[u8; 256]; 8] = castle_open();

const fn castle_open() -> [[u8; 256]; 8] {
    let mut t = [[0; 256]; 8];
    let mut king = 0;
    while king < 8 {
        let mut rank = 0;
        while rank < 256 {
            let mut rook = 0;
            while rook < 8 {
                if CASTLE_PATHS[king][rook].0 & rank as u64 == 0 {
                    t[king][rank] |= 1 << rook;
                }
                rook += 1;
            }
            rank += 1;
        }
        king += 1;
    }
    t
}

/// Castling with king and rook on any files (Chess960): every square either
/// piece crosses or lands on is empty but for the two of them, and no square
/// the king crosses or lands on is attacked once both have left. Only called
/// with rights, so with the king on its first rank, and not in check. The
/// enemy attack map is not exact on these paths (see `generate_castling`),
/// so each square is tested on its own.
#[inline(always)]
fn any_geometry<S: Side, A: Sliders, K: Sink>(b: &Board, sink: &mut K, king: usize, rights: u64, occ: u64) {
    let base = king & 56;
    let open = CASTLE_OPEN[king & 7][((occ >> base) & 0xff) as usize] as u64;
    let rooks = (rights >> base) & open;
    if rooks != 0 {
        castle_open_paths::<S, A, K>(b, sink, king, rooks << base, occ);
    }
}

/// The rights whose paths are empty: each castles if the king's path is safe.
/// Out of line, so that the usual case (every path blocked) costs the
/// standard positions' leaf function no registers.
///
/// Why here and not the whole Chess960 path: with the table lookup out of
/// line too, every node with rights paid a call, and two Chess960 start
/// positions took 9-10% longer at d6 than before the standard path existed
/// (0.082 to 0.090 s and 0.067 to 0.073 s by minima of 11 alternating runs);
/// split here, 0.081 and 0.066 s, and the standard positions unchanged.
#[inline(never)]
fn castle_open_paths<S: Side, A: Sliders, K: Sink>(b: &Board, sink: &mut K, king: usize, mut rooks: u64, occ: u64) {
    let base = king & 56;
    while rooks != 0 {
        let rook = rooks.trailing_zeros() as usize;
        rooks &= rooks - 1;
        let king_path = CASTLE_PATHS[king & 7][rook & 7].1 << base;
        if king_path_safe::<S, A>(b, king_path, occ & !(1 << king) & !(1 << rook)) {
            sink.castle::<S>(b, king, rook);
        }
    }
}

/// No square of `king_path` attacked (rare: kept out of line).
#[inline(always)]
fn king_path_safe<S: Side, A: Sliders>(b: &Board, king_path: u64, others: u64) -> bool {
    A::out_of_line(
        #[inline(always)]
        || bits(king_path).all(|t| !attacked::<S, A>(b, t, others)),
    )
}
