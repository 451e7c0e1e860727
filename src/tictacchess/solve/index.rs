//! A dense index of all TicTacChess states with the side to move as White.
//!
//! A state is the side to move ("mover") and the side that has just moved,
//! each as four digits (pawn, knight, bishop, rook): a square 0..16 (four
//! per rank, a1 = 0) or `HAND`. A position with Black to move is the same
//! state with the colours swapped and the ranks mirrored, so one table covers
//! both sides (1,174,226,049 states).
//!
//! Layout: one row per mover configuration (58,625 of them), holding every
//! configuration of the other side on the squares the mover leaves free. A
//! configuration's rank comes from one table over all 17^4 digit strings,
//! ordered by highest square used first, so that the configurations on the
//! first `n` squares are exactly the first `COUNT[n]` ranks: the other side's
//! squares are renumbered among the free ones and ranked with that same table.

use crate::tictacchess::board::{Color, Kind, Square};
use crate::tictacchess::position::{Position, HAND as POS_HAND};

/// The digit of a piece in hand.
pub const HAND: u8 = 16;
/// Configurations of one side (pieces on distinct squares or in hand).
pub const CONFIGS: usize = 58_625;
/// All states.
pub const STATES: u64 = 1_174_226_049;

/// Where each of a side's four pieces is (PNBR): a square digit 0 to 15, or `HAND`.
pub type Config = [u8; 4];

/// Numbers the configurations of one side and back (ranks and unranks).
pub struct Indexer {
    /// Rank of each digit string (`u16::MAX` when two pieces share a square).
    rank: Vec<u16>,
    /// The digit strings by rank.
    unrank: Vec<Config>,
    /// `count[n]`: configurations on the first `n` squares.
    count: [u32; 17],
    /// Start of each mover configuration's row.
    row_start: Vec<u64>,
}

#[inline(always)]
fn key(c: Config) -> usize {
    ((c[0] as usize * 17 + c[1] as usize) * 17 + c[2] as usize) * 17 + c[3] as usize
}

/// Squares a configuration occupies, as a 16-bit set.
#[inline(always)]
pub fn occupancy(c: Config) -> u32 {
    c.iter().filter(|&&d| d != HAND).fold(0, |o, &d| o | 1 << d)
}

impl Default for Indexer {
    fn default() -> Self {
        Self::new()
    }
}

impl Indexer {
    /// The tables of every configuration.
    pub fn new() -> Indexer {
        let mut all: Vec<Config> = Vec::with_capacity(CONFIGS);
        for k in 0..17usize.pow(4) {
            let c = [(k / 4913) as u8, (k / 289 % 17) as u8, (k / 17 % 17) as u8, (k % 17) as u8];
            if occupancy(c).count_ones() as usize == c.iter().filter(|&&d| d != HAND).count() {
                all.push(c);
            }
        }
        let top = |c: &Config| c.iter().filter(|&&d| d != HAND).map(|&d| d as i32).max().unwrap_or(-1);
        all.sort_by_key(|c| (top(c), *c));
        assert_eq!(all.len(), CONFIGS);
        let mut rank = vec![u16::MAX; 17usize.pow(4)];
        for (i, c) in all.iter().enumerate() {
            rank[key(*c)] = i as u16;
        }
        let mut count = [0u32; 17];
        for (n, slot) in count.iter_mut().enumerate() {
            *slot = all.iter().filter(|c| top(c) < n as i32).count() as u32;
        }
        let mut row_start = Vec::with_capacity(CONFIGS + 1);
        let mut at = 0u64;
        for c in &all {
            row_start.push(at);
            at += u64::from(count[16 - occupancy(*c).count_ones() as usize]);
        }
        row_start.push(at);
        assert_eq!(at, STATES);
        Indexer { rank, unrank: all, count, row_start }
    }

    /// The row of a mover configuration and its first index and length.
    #[inline(always)]
    pub fn row(&self, mover_rank: usize) -> (u64, u64) {
        (self.row_start[mover_rank], self.row_start[mover_rank + 1] - self.row_start[mover_rank])
    }

    /// The configuration of a rank.
    pub fn config(&self, rank: usize) -> Config {
        self.unrank[rank]
    }

    /// The column of a key made by `KeyParts`.
    #[inline(always)]
    pub fn rank_of_key(&self, key: usize) -> u64 {
        u64::from(self.rank[key])
    }

    /// The first index of the row of a mover configuration.
    #[inline(always)]
    pub fn row_start(&self, mover: Config) -> u64 {
        self.row_start[self.rank[key(mover)] as usize]
    }

    /// The index of a state.
    #[inline(always)]
    pub fn index(&self, mover: Config, other: Config) -> u64 {
        let occ = occupancy(mover);
        let squeeze = |d: u8| if d == HAND { HAND } else { d - (occ & ((1u32 << d) - 1)).count_ones() as u8 };
        let column = self.rank[key(other.map(squeeze))];
        self.row_start[self.rank[key(mover)] as usize] + u64::from(column)
    }

    /// The other side's configuration at `column` of the row of `mover`.
    #[inline(always)]
    pub fn column_config(&self, mover: Config, column: u64) -> Config {
        self.column_config_in(&Columns::of(mover), column)
    }

    /// `column_config` with the row's square map computed once.
    #[inline(always)]
    pub fn column_config_in(&self, columns: &Columns, column: u64) -> Config {
        self.unrank[column as usize].map(|d| columns.square[d as usize])
    }

    /// The state at an index.
    pub fn state(&self, index: u64) -> (Config, Config) {
        let row = self.row_start.partition_point(|&s| s <= index) - 1;
        let mover = self.unrank[row];
        (mover, self.column_config(mover, index - self.row_start[row]))
    }

    /// Configurations on the first `n` squares.
    pub fn count(&self, n: usize) -> u32 {
        self.count[n]
    }
}

/// The rank key of a configuration, digit by digit, for one fixed mover:
/// `part[k][d]` is what piece `k` on square digit `d` adds to the key of the
/// configuration squeezed onto the squares that mover leaves free (ranks
/// mirrored first when `flip`). Why: the successors of a state differ from
/// it in one or two digits, so their indices are a few table reads apart
/// instead of a squeeze per digit.
pub struct KeyParts {
    part: [[u32; 17]; 4],
}

impl KeyParts {
    /// The key parts for `mover` (ranks mirrored when `flip`).
    pub fn new(mover: Config, flip: bool) -> KeyParts {
        let occ = occupancy(mover);
        let mut part = [[0u32; 17]; 4];
        for (k, row) in part.iter_mut().enumerate() {
            let weight = 17u32.pow(3 - k as u32);
            for (d, slot) in row.iter_mut().enumerate() {
                let squeezed = match d as u8 {
                    HAND => u32::from(HAND),
                    d => {
                        let d = if flip { flip_digit(d) } else { d };
                        u32::from(d) - (occ & ((1u32 << d) - 1)).count_ones()
                    }
                };
                *slot = squeezed * weight;
            }
        }
        KeyParts { part }
    }

    /// The key of `c` with piece `k` moved to digit `d`.
    #[inline(always)]
    pub fn key_with(&self, c: Config, k: usize, d: u8) -> usize {
        let part = |i: usize| self.part[i][if i == k { d } else { c[i] } as usize];
        (part(0) + part(1) + part(2) + part(3)) as usize
    }

    /// The key of `c` with piece `k` moved to digit `d`, given `key(c)`.
    #[inline(always)]
    pub fn key_moved(&self, key: usize, c: Config, k: usize, d: u8) -> usize {
        key - self.part[k][c[k] as usize] as usize + self.part[k][d as usize] as usize
    }

    /// The key of a configuration.
    #[inline(always)]
    pub fn key(&self, c: Config) -> usize {
        (self.part[0][c[0] as usize]
            + self.part[1][c[1] as usize]
            + self.part[2][c[2] as usize]
            + self.part[3][c[3] as usize]) as usize
    }
}

/// The square digit with the ranks mirrored (a1 <-> a4).
#[inline(always)]
pub fn flip_digit(d: u8) -> u8 {
    if d == HAND {
        HAND
    } else {
        (3 - d / 4) * 4 + d % 4
    }
}

/// The squares a row's columns are numbered over: `square[d]` is the `d`th
/// square the mover leaves free (`square[HAND]` is `HAND`). Why: working it
/// out bit by bit for every state was most of the first pass's time.
pub struct Columns {
    square: [u8; 17],
}

impl Columns {
    /// The free squares that `mover` leaves.
    pub fn of(mover: Config) -> Columns {
        let free = !occupancy(mover) & 0xffff;
        let mut square = [HAND; 17];
        for (d, slot) in square.iter_mut().enumerate().take(free.count_ones() as usize) {
            *slot = nth_set_bit(free, d as u32) as u8;
        }
        Columns { square }
    }
}

#[inline(always)]
fn nth_set_bit(mut bits: u32, n: u32) -> u32 {
    for _ in 0..n {
        bits &= bits - 1;
    }
    bits.trailing_zeros()
}

/// The state of a position: (mover, other) with the mover as White.
pub fn state_of(pos: &Position) -> (Config, Config) {
    let turn = pos.turn();
    let side = |c: Color| -> Config {
        Kind::ALL.map(|k| match pos.square_of(c, k) {
            None => HAND,
            Some(sq) => {
                let sq = if turn == Color::Black { sq.flip_rank() } else { sq };
                sq.dense() as u8
            }
        })
    };
    (side(turn), side(turn.other()))
}

/// The position of a state, White to move.
#[inline(always)]
pub fn position_of(mover: Config, other: Config) -> Position {
    let mut pos = Position::START;
    for (side, config) in [mover, other].iter().enumerate() {
        for (k, &d) in config.iter().enumerate() {
            if d != HAND {
                let sq = Square::ALL[d as usize];
                pos.at[side][k] = sq.bit() as u8;
                pos.occ[side] |= sq.bb();
            } else {
                pos.at[side][k] = POS_HAND;
            }
        }
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_and_state_are_inverse() {
        let ix = Indexer::new();
        let mut x = 0x1234_5678_9abc_def1u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let i = x % STATES;
            let (m, o) = ix.state(i);
            assert_eq!(occupancy(m) & occupancy(o), 0);
            assert_eq!(ix.index(m, o), i);
        }
        assert_eq!(ix.index([HAND; 4], [HAND; 4]), 0);
        assert_eq!(ix.count(16) as usize, CONFIGS);
    }
}
