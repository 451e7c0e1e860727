//! The game's left-right symmetry: the rules are the same with files a-d
//! and b-c swapped, so a state and its mirror image have the same value.
//! The retrograde passes keep one state of each mirror pair (the smaller
//! of the two as a digit string) and copy the other at the end, which
//! halves their work. No square is its own mirror image, so the only state
//! that is its own image is the one with every piece in hand.

use super::index::{Columns, Config, Indexer, CONFIGS, HAND};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// A configuration with files a and d, b and c swapped.
#[inline(always)]
pub fn mirror(c: Config) -> Config {
    c.map(|d| if d == HAND { HAND } else { d - d % 4 + 3 - d % 4 })
}

/// Whether the passes keep the state (mover, other): it is not larger
/// than its mirror image.
#[inline(always)]
pub fn is_kept(mover: Config, other: Config) -> bool {
    (mover, other) <= (mirror(mover), mirror(other))
}

/// Whether a state is its own mirror image (every piece in hand).
#[inline(always)]
pub fn is_symmetric(mover: Config, other: Config) -> bool {
    mover == [HAND; 4] && other == [HAND; 4]
}

/// Which states of a row (one mover configuration) the passes keep.
#[derive(Copy, Clone, PartialEq, Eq)]
pub enum Row {
    /// Every state: the mover is smaller than its mirror image.
    Kept,
    /// None: the mover is larger than its mirror image.
    Mirrored,
    /// Some (the mover has every piece in hand): ask `is_kept`.
    Mixed,
}

impl Row {
    /// Which states of the row of `mover` are kept.
    #[inline(always)]
    pub fn of(mover: Config) -> Row {
        match mover.cmp(&mirror(mover)) {
            std::cmp::Ordering::Less => Row::Kept,
            std::cmp::Ordering::Greater => Row::Mirrored,
            std::cmp::Ordering::Equal => Row::Mixed,
        }
    }

    /// Whether the passes keep the state (mover, other) of this row.
    #[inline(always)]
    pub fn keeps(self, mover: Config, other: Config) -> bool {
        match self {
            Row::Kept => true,
            Row::Mirrored => false,
            Row::Mixed => is_kept(mover, other),
        }
    }
}

/// Gives every state the passes did not keep the byte of its mirror image.
/// Why row by row: the images of a row's states all lie in one row (that
/// of the mirrored mover), so the reads stay in cache.
pub fn copy_mirror_images(ix: &Indexer, table: &[AtomicU8]) {
    (0..CONFIGS).into_par_iter().with_min_len(64).for_each(|r| {
        let mover = ix.config(r);
        let row = Row::of(mover);
        if row == Row::Kept {
            return;
        }
        let columns = Columns::of(mover);
        let (start, len) = ix.row(r);
        for c in 0..len {
            let other = ix.column_config_in(&columns, c);
            if row.keeps(mover, other) {
                continue;
            }
            let image = table[ix.index(mirror(mover), mirror(other)) as usize].load(Relaxed);
            table[(start + c) as usize].store(image, Relaxed);
        }
    });
}
