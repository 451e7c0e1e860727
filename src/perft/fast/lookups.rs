//! Attack lookups: leapers and rays from the tables, sliders through the
//! `Sliders` implementations (PEXT, magics with POPCNT, portable magics), each
//! with the recursion entry compiled for it, and the run-time choice of copy.

use super::board::{Board, Side};
use super::count::{leaves, node};
use super::generate::Threats;
use crate::attacks::leapers::{KING_STEPS, KNIGHT_STEPS};
use crate::attacks::reference::{leaper_attacks, slider_attacks, BISHOP_DIRECTIONS, ROOK_DIRECTIONS};
use crate::attacks::{between, king_attacks, knight_attacks, magic, pawn_attacks};
use crate::board::{Color, Square};
use crate::perft::HashTable;

#[inline(always)]
pub(super) fn sq(i: usize) -> Square {
    Square::new(i as u8)
}

#[inline(always)]
pub(super) fn knights(i: usize) -> u64 {
    knight_attacks(sq(i)).0
}

#[inline(always)]
pub(super) fn kings(i: usize) -> u64 {
    king_attacks(sq(i)).0
}

#[inline(always)]
pub(super) fn pawn_hits(white: bool, i: usize) -> u64 {
    pawn_attacks(if white { Color::White } else { Color::Black }, sq(i)).0
}

#[inline(always)]
pub(super) fn ray(a: usize, b: usize) -> u64 {
    between(sq(a), sq(b)).0
}

/// Empty-board rook attacks: a rook or queen can only give check or pin
/// along these, so where none of the enemy's stands on them the king's
/// line lookup is skipped (a small table that stays in L1). The same test for
/// the diagonals cost more than it saved (bishops and queens stand on a
/// king's diagonals far more often).
static ROOK_RAYS: [u64; 64] = rays_table(&ROOK_DIRECTIONS);

/// Each square's empty-board slider attacks along `directions`.
const fn rays_table(directions: &[(i8, i8); 4]) -> [u64; 64] {
    let mut out = [0; 64];
    let mut i = 0;
    while i < 64 {
        out[i] = slider_attacks(Square::new(i as u8), 0, directions);
        i += 1;
    }
    out
}

#[inline(always)]
pub(super) fn rook_rays(i: usize) -> u64 {
    // The mask (free next to the lookups' own) drops the bounds check.
    ROOK_RAYS[i & 63]
}

/// Empty-board bishop attacks (see `on_diagonals`).
static BISHOP_RAYS: [u64; 64] = rays_table(&BISHOP_DIRECTIONS);

#[inline(always)]
pub(super) fn bishop_rays(i: usize) -> u64 {
    BISHOP_RAYS[i & 63]
}

/// The last square of each of the eight empty-board rays from a square: a
/// slider that sees one of them sees nothing beyond it whatever stands there.
static RAY_ENDS: [u64; 64] = ray_ends_table();

const fn ray_ends_table() -> [u64; 64] {
    let mut out = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = if d < 4 { ROOK_DIRECTIONS[d] } else { BISHOP_DIRECTIONS[d - 4] };
            let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
            while f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8 {
                f += df;
                r += dr;
            }
            if f as usize + 8 * r as usize != sq {
                out[sq] |= 1 << (f as usize + 8 * r as usize);
            }
            d += 1;
        }
        sq += 1;
    }
    out
}

#[inline(always)]
pub(super) fn ray_ends(i: usize) -> u64 {
    RAY_ENDS[i & 63]
}

/// For a king square and a subset of its neighbours (indexed as
/// `pext(subset, kings(king))`), the squares from which a bishop or queen
/// (`.0`), a rook or queen (`.1`) or a knight (`.2`) could attack one of
/// them or, for a king on e1 or e8, a square its standard castling crosses.
static REACH: [[(u64, u64, u64); 256]; 64] = reach_table();

const fn reach_table() -> [[(u64, u64, u64); 256]; 64] {
    // Each square's empty-board bishop, rook and knight attacks, made once.
    let mut empty = [(0, 0, 0); 64];
    let mut sq = 0;
    while sq < 64 {
        let s = Square::new(sq as u8);
        empty[sq] = (
            slider_attacks(s, 0, &BISHOP_DIRECTIONS),
            slider_attacks(s, 0, &ROOK_DIRECTIONS),
            leaper_attacks(s, &KNIGHT_STEPS),
        );
        sq += 1;
    }
    let mut out = [[(0, 0, 0); 256]; 64];
    let mut king = 0;
    while king < 64 {
        let neighbours = leaper_attacks(Square::new(king as u8), &KING_STEPS);
        let castling = castling_squares(king);
        let mut subset = 0;
        while subset < 1 << neighbours.count_ones() {
            // Bit `n` of `subset` is the `n`-th neighbour, as `pext` numbers them.
            let (mut zone, mut rest, mut n) = (castling, neighbours, 0);
            while rest != 0 {
                if subset & 1 << n != 0 {
                    zone |= rest & rest.wrapping_neg();
                }
                rest &= rest - 1;
                n += 1;
            }
            let (mut diag, mut line, mut jump) = (0, 0, 0);
            while zone != 0 {
                let z = zone.trailing_zeros() as usize;
                zone &= zone - 1;
                diag |= empty[z].0;
                line |= empty[z].1;
                jump |= empty[z].2;
            }
            out[king][subset] = (diag, line, jump);
            subset += 1;
        }
        king += 1;
    }
    out
}

/// The squares, besides its neighbours, that a king on e1 or e8 crosses or
/// lands on when it castles in the standard geometry (c, d, f and g).
pub(super) const fn castling_squares(king: usize) -> u64 {
    match king {
        4 => 0x6c,
        60 => 0x6c << 56,
        _ => 0,
    }
}

/// Slider lookups plus the recursion entry compiled for them.
pub(super) trait Sliders: Sized {
    fn rook(sq: usize, occ: u64) -> u64;
    fn bishop(sq: usize, occ: u64) -> u64;
    /// Bishops or queens, rooks or queens, and knights: where an enemy piece
    /// of each kind must stand to attack one of `targets` (next to `king`)
    /// or, for a king on e1 or e8, its castling path. Without a fast `pext`
    /// to index `REACH`, every square (a software pext cost up to 20% on
    /// position 3 in the magic copies).
    #[inline(always)]
    fn reach(_king: usize, _targets: u64) -> (u64, u64, u64) {
        (!0, !0, !0)
    }
    fn node<S: Side>(b: &Board, key: u64, depth: u32, tt: Option<&HashTable>) -> u64;
    /// Runs `f` in a function of its own, compiled for the same CPU
    /// features as this copy: rare work kept out of the hot code, whose
    /// `pext` must still be one instruction, not a call. Callers mark the
    /// closure `#[inline(always)]`: a closure left as a function of its own
    /// would again be compiled without the features.
    ///
    /// Why: a plain `#[inline(never)]` function lost the copy's features, and
    /// castling's king-path test called `pext` as a function. Through this:
    /// Kiwipete d5 1.017x, position 5 d5 1.027x, start position 1.014x,
    /// geometric mean 1.012x (`scripts/ab_perft.py`, 15 rounds, medians).
    #[inline(always)]
    fn out_of_line<R>(f: impl FnOnce() -> R) -> R {
        apart(f)
    }
    /// The legal moves of `b` (whose king, of side `S`, is on `king`, with
    /// `threats`), counted by one
    /// out-of-line copy of the generator: inlined at every move kind's call
    /// site, the copies no longer fit the instruction cache (pieces' moves
    /// without check or pin inline it all the same: see `Walk`'s `Sink`).
    fn leaves<S: Side>(b: &Board, king: usize, threats: Threats) -> u64;
}

pub(super) struct Magic;
impl Sliders for Magic {
    #[inline(always)]
    fn rook(sq: usize, occ: u64) -> u64 {
        magic::rook_attacks_magic(Square::new(sq as u8), crate::Bitboard(occ)).0
    }
    #[inline(always)]
    fn bishop(sq: usize, occ: u64) -> u64 {
        magic::bishop_attacks_magic(Square::new(sq as u8), crate::Bitboard(occ)).0
    }
    #[inline(always)]
    fn node<S: Side>(b: &Board, key: u64, depth: u32, tt: Option<&HashTable>) -> u64 {
        node_magic::<S>(b, key, depth, tt)
    }
    #[inline(always)]
    fn leaves<S: Side>(b: &Board, king: usize, threats: Threats) -> u64 {
        leaves_magic::<S>(b, king, threats)
    }
}

/// `Sliders::out_of_line` of the portable copy (no CPU features to keep).
#[inline(never)]
fn apart<R>(f: impl FnOnce() -> R) -> R {
    f()
}

#[inline(never)]
fn leaves_magic<S: Side>(b: &Board, king: usize, threats: Threats) -> u64 {
    leaves::<S, Magic>(b, king, threats)
}

pub(super) fn node_magic<S: Side>(b: &Board, key: u64, depth: u32, tt: Option<&HashTable>) -> u64 {
    node::<S, Magic>(b, key, depth, tt)
}

/// PEXT lookups. Only ever instantiated behind a successful check for BMI1,
/// BMI2 and POPCNT (`lookups`), which is what the `unsafe` blocks rely on.
#[cfg(target_arch = "x86_64")]
struct Pext;
#[cfg(target_arch = "x86_64")]
impl Sliders for Pext {
    #[inline(always)]
    fn rook(sq: usize, occ: u64) -> u64 {
        // Safety: `Pext` is used only after BMI2 was detected (see `lookups`).
        unsafe { magic::rook_attacks_pext(Square::new(sq as u8), crate::Bitboard(occ)).0 }
    }
    #[inline(always)]
    fn bishop(sq: usize, occ: u64) -> u64 {
        // Safety: as for `rook`.
        unsafe { magic::bishop_attacks_pext(Square::new(sq as u8), crate::Bitboard(occ)).0 }
    }
    #[inline(always)]
    fn reach(king: usize, targets: u64) -> (u64, u64, u64) {
        // Safety: as for `rook`.
        let index = unsafe { std::arch::x86_64::_pext_u64(targets, kings(king)) } as usize;
        REACH[king & 63][index & 255]
    }
    #[inline(always)]
    fn node<S: Side>(b: &Board, key: u64, depth: u32, tt: Option<&HashTable>) -> u64 {
        // Safety: as for `rook`.
        unsafe { node_pext::<S>(b, key, depth, tt) }
    }
    #[inline(always)]
    fn out_of_line<R>(f: impl FnOnce() -> R) -> R {
        // Safety: as for `rook`.
        unsafe { apart_pext(f) }
    }
    #[inline(always)]
    fn leaves<S: Side>(b: &Board, king: usize, threats: Threats) -> u64 {
        // Safety: as for `rook`.
        unsafe { leaves_pext::<S>(b, king, threats) }
    }
}

/// # Safety
/// The CPU must support BMI1, BMI2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,popcnt")]
#[inline(never)]
unsafe fn leaves_pext<S: Side>(b: &Board, king: usize, threats: Threats) -> u64 {
    leaves::<S, Pext>(b, king, threats)
}

/// # Safety
/// The CPU must support BMI1, BMI2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,popcnt")]
#[inline(never)]
unsafe fn apart_pext<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// The whole tree below here is compiled with BMI1/BMI2/POPCNT enabled, so
/// `pext`, `popcnt`, `tzcnt` and `blsr` are inlined into the generator.
///
/// # Safety
/// The CPU must support BMI1, BMI2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,popcnt")]
pub(super) unsafe fn node_pext<S: Side>(b: &Board, key: u64, depth: u32, tt: Option<&HashTable>) -> u64 {
    node::<S, Pext>(b, key, depth, tt)
}

/// Fancy magics with the POPCNT instruction (x86-64 CPUs without fast PEXT).
#[cfg(target_arch = "x86_64")]
struct MagicPopcnt;
#[cfg(target_arch = "x86_64")]
impl Sliders for MagicPopcnt {
    #[inline(always)]
    fn rook(sq: usize, occ: u64) -> u64 {
        Magic::rook(sq, occ)
    }
    #[inline(always)]
    fn bishop(sq: usize, occ: u64) -> u64 {
        Magic::bishop(sq, occ)
    }
    #[inline(always)]
    fn node<S: Side>(b: &Board, key: u64, depth: u32, tt: Option<&HashTable>) -> u64 {
        // Safety: `MagicPopcnt` is used only after POPCNT was detected.
        unsafe { node_magic_popcnt::<S>(b, key, depth, tt) }
    }
    #[inline(always)]
    fn out_of_line<R>(f: impl FnOnce() -> R) -> R {
        // Safety: as for `node`.
        unsafe { apart_popcnt(f) }
    }
    #[inline(always)]
    fn leaves<S: Side>(b: &Board, king: usize, threats: Threats) -> u64 {
        // Safety: as for `node`.
        unsafe { leaves_magic_popcnt::<S>(b, king, threats) }
    }
}

/// # Safety
/// The CPU must support POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
#[inline(never)]
unsafe fn apart_popcnt<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// # Safety
/// The CPU must support POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
#[inline(never)]
unsafe fn leaves_magic_popcnt<S: Side>(b: &Board, king: usize, threats: Threats) -> u64 {
    leaves::<S, MagicPopcnt>(b, king, threats)
}

/// # Safety
/// The CPU must support POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
pub(super) unsafe fn node_magic_popcnt<S: Side>(b: &Board, key: u64, depth: u32, tt: Option<&HashTable>) -> u64 {
    node::<S, MagicPopcnt>(b, key, depth, tt)
}

/// Which compiled copy of the hot path to run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Lookups {
    /// Portable: fancy magics, no special instructions.
    Magic,
    /// Fancy magics with POPCNT.
    MagicPopcnt,
    /// PEXT tables with BMI1/BMI2/POPCNT.
    Pext,
}

/// The fastest copy this CPU runs: PEXT where it is fast (not on AMD before
/// Zen 3, where it is microcoded and slow), else magics; the environment
/// variable `CHESSTOOL_NO_PEXT` forces the magic copy.
pub(super) fn lookups() -> Lookups {
    static CHOSEN: std::sync::OnceLock<Lookups> = std::sync::OnceLock::new();
    *CHOSEN.get_or_init(detect_lookups)
}

fn detect_lookups() -> Lookups {
    #[cfg(target_arch = "x86_64")]
    {
        let popcnt = std::is_x86_feature_detected!("popcnt");
        let pext = popcnt
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && !slow_pext()
            && std::env::var_os("CHESSTOOL_NO_PEXT").is_none();
        if pext {
            Lookups::Pext
        } else if popcnt {
            Lookups::MagicPopcnt
        } else {
            Lookups::Magic
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Lookups::Magic
    }
}

/// AMD before Zen 3 (family 0x19) implements PEXT in microcode.
#[cfg(target_arch = "x86_64")]
fn slow_pext() -> bool {
    use std::arch::x86_64::__cpuid;
    let (vendor, signature) = (__cpuid(0), __cpuid(1).eax);
    let amd = vendor.ebx == u32::from_le_bytes(*b"Auth") && vendor.edx == u32::from_le_bytes(*b"enti");
    let base = (signature >> 8) & 0xf;
    let family = if base == 0xf { base + ((signature >> 20) & 0xff) } else { base };
    amd && family < 0x19
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::reference::{bishop_attacks, rook_attacks};

    /// Every square from which a bishop, rook or knight attacks one of a
    /// king's targets on an empty board is in that subset's reach (and
    /// nothing else is), including e1's and e8's castling squares.
    #[test]
    fn reach_holds_exactly_the_attackers_of_the_targets() {
        for (king, reach) in REACH.iter().enumerate() {
            let around = kings(king);
            for subset in 0..1u64 << around.count_ones() {
                let targets = pdep(subset, around);
                let castling = match king {
                    4 => 0x6c,
                    60 => 0x6c << 56,
                    _ => 0,
                };
                let (mut diag, mut line, mut jump) = (0, 0, 0);
                for s in 0..64u8 {
                    let sq = Square::new(s);
                    let zone = targets | castling;
                    if bishop_attacks(sq, crate::Bitboard(0)).0 & zone != 0 {
                        diag |= 1 << s;
                    }
                    if rook_attacks(sq, crate::Bitboard(0)).0 & zone != 0 {
                        line |= 1 << s;
                    }
                    if knights(s as usize) & zone != 0 {
                        jump |= 1 << s;
                    }
                }
                assert_eq!(reach[subset as usize], (diag, line, jump), "king {king} targets {targets:#x}");
            }
        }
    }

    /// A ray's ends are the squares on a line from `s` that nothing lies
    /// beyond: no `ray(s, y)` (the squares between) holds them.
    #[test]
    fn ray_ends_are_the_squares_nothing_lies_beyond() {
        for s in 0..64 {
            let lines = rook_rays(s) | bishop_rays(s);
            let passed = (0..64).fold(0, |acc, y| acc | ray(s, y));
            assert_eq!(ray_ends(s), lines & !passed, "square {s}");
            assert!(ray_ends(s).count_ones() >= 3, "square {s}");
        }
    }

    /// Deposits the low bits of `x` on the set bits of `mask`.
    fn pdep(mut x: u64, mask: u64) -> u64 {
        let mut out = 0;
        for sq in super::super::board::bits(mask) {
            if x & 1 != 0 {
                out |= 1 << sq;
            }
            x >>= 1;
        }
        out
    }
}
