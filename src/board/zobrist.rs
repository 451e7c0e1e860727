//! Zobrist keys, generated at compile time by SplitMix64 from a fixed seed.

use super::{Color, Role, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// [color][role][square] + castling rook squares + e.p. files + side to move.
const KEY_COUNT: usize = 2 * 6 * 64 + 64 + 8 + 1;

const KEYS: [u64; KEY_COUNT] = {
    let mut keys = [0u64; KEY_COUNT];
    let mut state = 0x0C0F_FEE0_D15E_A5E5;
    let mut i = 0;
    while i < KEY_COUNT {
        let (s, k) = splitmix(state);
        state = s;
        keys[i] = k;
        i += 1;
    }
    keys
};

#[inline(always)]
pub fn piece_key(color: Color, role: Role, sq: Square) -> u64 {
    KEYS[(color as usize * 6 + role as usize) * 64 + sq.index()]
}

/// Key of a castling right, identified by its rook's square.
#[inline(always)]
pub fn castling_key(rook: Square) -> u64 {
    KEYS[768 + rook.index()]
}

#[inline(always)]
pub fn ep_key(sq: Square) -> u64 {
    KEYS[832 + sq.file() as usize]
}

#[inline(always)]
pub fn turn_key() -> u64 {
    KEYS[840]
}
