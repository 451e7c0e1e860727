//! Fancy magic bitboards: `((occupied & mask) * magic) >> shift` indexes one
//! shared table, each square at its own offset. With BMI2, `pext(occupied, mask)`
//! indexes a second table of the same shape. Both tables are built at compile
//! time from the reference ray walker.

use super::magic_numbers::{BISHOP_MAGICS, ROOK_MAGICS};
use super::reference::{relevant_mask, slider_attacks, BISHOP_DIRECTIONS, ROOK_DIRECTIONS};
use crate::board::{Bitboard, Square};

/// One square's entry in a magic table.
#[derive(Copy, Clone, Debug)]
pub struct Magic {
    /// The relevant occupancy: the rays without their last square.
    pub mask: u64,
    /// The magic multiplier.
    pub magic: u64,
    /// 64 minus the number of bits of the index.
    pub shift: u32,
    /// Where the square's attack sets start in the shared table.
    pub offset: usize,
}

const ROOK_TABLE_SIZE: usize = 102_400;
const BISHOP_TABLE_SIZE: usize = 5_248;

const fn build_magics(magics: &[u64; 64], dirs: &[(i8, i8); 4]) -> [Magic; 64] {
    let mut out = [Magic { mask: 0, magic: 0, shift: 0, offset: 0 }; 64];
    let mut offset = 0;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(Square::new(sq as u8), dirs);
        let bits = mask.count_ones();
        out[sq] = Magic { mask, magic: magics[sq], shift: 64 - bits, offset };
        offset += 1 << bits;
        sq += 1;
    }
    out
}

/// The rook's magic entry of every square.
pub const ROOK_MAGIC_ENTRIES: [Magic; 64] = build_magics(&ROOK_MAGICS, &ROOK_DIRECTIONS);
/// The bishop's magic entry of every square.
pub const BISHOP_MAGIC_ENTRIES: [Magic; 64] = build_magics(&BISHOP_MAGICS, &BISHOP_DIRECTIONS);

/// Software `pext`: gathers the bits of `x` selected by `mask` into the low bits.
pub const fn pext_soft(x: u64, mut mask: u64) -> u64 {
    let mut result = 0;
    let mut bit = 1;
    while mask != 0 {
        if x & mask & mask.wrapping_neg() != 0 {
            result |= bit;
        }
        mask &= mask - 1;
        bit <<= 1;
    }
    result
}

const fn build_table<const N: usize>(entries: &[Magic; 64], dirs: &[(i8, i8); 4], use_pext: bool) -> [Bitboard; N] {
    let mut table = [Bitboard::EMPTY; N];
    let mut sq = 0;
    while sq < 64 {
        let e = &entries[sq];
        // Carry-Rippler over every subset of the mask. It visits the subsets
        // in increasing order, which is exactly the order of their pext values.
        let mut occ = 0u64;
        let mut pext_index = 0;
        loop {
            let index = if use_pext { pext_index } else { (occ.wrapping_mul(e.magic) >> e.shift) as usize };
            table[e.offset + index] = Bitboard(slider_attacks(Square::new(sq as u8), occ, dirs));
            pext_index += 1;
            occ = occ.wrapping_sub(e.mask) & e.mask;
            if occ == 0 {
                break;
            }
        }
        sq += 1;
    }
    table
}

static ROOK_TABLE: [Bitboard; ROOK_TABLE_SIZE] = build_table(&ROOK_MAGIC_ENTRIES, &ROOK_DIRECTIONS, false);
static BISHOP_TABLE: [Bitboard; BISHOP_TABLE_SIZE] = build_table(&BISHOP_MAGIC_ENTRIES, &BISHOP_DIRECTIONS, false);
static ROOK_PEXT_TABLE: [Bitboard; ROOK_TABLE_SIZE] = build_table(&ROOK_MAGIC_ENTRIES, &ROOK_DIRECTIONS, true);
static BISHOP_PEXT_TABLE: [Bitboard; BISHOP_TABLE_SIZE] = build_table(&BISHOP_MAGIC_ENTRIES, &BISHOP_DIRECTIONS, true);

#[inline(always)]
fn magic_lookup(table: &[Bitboard], e: &Magic, occupied: Bitboard) -> Bitboard {
    let index = e.offset + ((occupied.0 & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
    // Safety: the index of a masked occupancy is below 2^bits, and each square's
    // block of 2^bits entries lies inside the table (checked by `tables_fit`).
    unsafe { *table.get_unchecked(index) }
}

/// The squares a rook on `sq` attacks through the magic table.
#[inline(always)]
pub fn rook_attacks_magic(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&ROOK_TABLE, &ROOK_MAGIC_ENTRIES[sq.index()], occupied)
}

/// The squares a bishop on `sq` attacks through the magic table.
#[inline(always)]
pub fn bishop_attacks_magic(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP_TABLE, &BISHOP_MAGIC_ENTRIES[sq.index()], occupied)
}

#[cfg(target_arch = "x86_64")]
/// What a PEXT lookup reads of a `Magic`: its mask and offset, 16 bytes
/// rather than 32, so a lookup's entry shares its cache line with three others.
/// Why: start position d6 1.036x, the other bench positions within 1%
/// (`scripts/ab_perft.py`, 11 rounds, medians).
#[derive(Clone, Copy)]
struct PextEntry {
    mask: u64,
    offset: usize,
}

const fn pext_entries(magics: &[Magic; 64]) -> [PextEntry; 64] {
    let mut out = [PextEntry { mask: 0, offset: 0 }; 64];
    let mut sq = 0;
    while sq < 64 {
        out[sq] = PextEntry { mask: magics[sq].mask, offset: magics[sq].offset };
        sq += 1;
    }
    out
}

static ROOK_PEXT_ENTRIES: [PextEntry; 64] = pext_entries(&ROOK_MAGIC_ENTRIES);
static BISHOP_PEXT_ENTRIES: [PextEntry; 64] = pext_entries(&BISHOP_MAGIC_ENTRIES);

#[inline(always)]
fn pext_lookup(table: &[Bitboard], e: &PextEntry, occupied: Bitboard) -> Bitboard {
    // Safety: only called where BMI2 was detected (see `crate::attacks::Pext`);
    // pext of the mask has at most `bits` bits, so the index stays inside the
    // square's block.
    unsafe {
        let index = e.offset + std::arch::x86_64::_pext_u64(occupied.0, e.mask) as usize;
        *table.get_unchecked(index)
    }
}

/// Rook attacks by PEXT.
///
/// # Safety
/// The CPU must support BMI2 (`is_x86_feature_detected!("bmi2")`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub unsafe fn rook_attacks_pext(sq: Square, occupied: Bitboard) -> Bitboard {
    pext_lookup(&ROOK_PEXT_TABLE, &ROOK_PEXT_ENTRIES[sq.index()], occupied)
}

/// Bishop attacks by PEXT.
///
/// # Safety
/// The CPU must support BMI2 (`is_x86_feature_detected!("bmi2")`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub unsafe fn bishop_attacks_pext(sq: Square, occupied: Bitboard) -> Bitboard {
    pext_lookup(&BISHOP_PEXT_TABLE, &BISHOP_PEXT_ENTRIES[sq.index()], occupied)
}

/// Portable PEXT-table lookup (software pext), for testing the PEXT table anywhere.
pub fn rook_attacks_pext_soft(sq: Square, occupied: Bitboard) -> Bitboard {
    let e = &ROOK_PEXT_ENTRIES[sq.index()];
    ROOK_PEXT_TABLE[e.offset + pext_soft(occupied.0, e.mask) as usize]
}

/// Portable PEXT-table lookup (software pext), for testing the PEXT table anywhere.
pub fn bishop_attacks_pext_soft(sq: Square, occupied: Bitboard) -> Bitboard {
    let e = &BISHOP_PEXT_ENTRIES[sq.index()];
    BISHOP_PEXT_TABLE[e.offset + pext_soft(occupied.0, e.mask) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::reference;

    #[test]
    fn tables_fit() {
        let last = ROOK_MAGIC_ENTRIES[63];
        assert_eq!(last.offset + (1 << (64 - last.shift)), ROOK_TABLE_SIZE);
        let last = BISHOP_MAGIC_ENTRIES[63];
        assert_eq!(last.offset + (1 << (64 - last.shift)), BISHOP_TABLE_SIZE);
    }

    #[test]
    fn magic_and_pext_match_reference_for_every_subset() {
        for sq in Square::ALL {
            for occ in reference::rook_mask(sq).subsets() {
                let want = reference::rook_attacks(sq, occ);
                assert_eq!(rook_attacks_magic(sq, occ), want, "rook {sq} {occ:?}");
                assert_eq!(rook_attacks_pext_soft(sq, occ), want, "rook pext {sq} {occ:?}");
            }
            for occ in reference::bishop_mask(sq).subsets() {
                let want = reference::bishop_attacks(sq, occ);
                assert_eq!(bishop_attacks_magic(sq, occ), want, "bishop {sq} {occ:?}");
                assert_eq!(bishop_attacks_pext_soft(sq, occ), want, "bishop pext {sq} {occ:?}");
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn hardware_pext_matches_when_available() {
        if !std::is_x86_feature_detected!("bmi2") {
            return;
        }
        for sq in Square::ALL {
            for occ in reference::rook_mask(sq).subsets() {
                // Safety: BMI2 detected above.
                assert_eq!(unsafe { rook_attacks_pext(sq, occ) }, reference::rook_attacks(sq, occ));
            }
            for occ in reference::bishop_mask(sq).subsets() {
                // Safety: BMI2 detected above.
                assert_eq!(unsafe { bishop_attacks_pext(sq, occ) }, reference::bishop_attacks(sq, occ));
            }
        }
    }
}
