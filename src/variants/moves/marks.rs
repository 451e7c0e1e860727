//! The cell marks a node keeps for legality (one bit per mailbox cell), and
//! how a cell reads to an attacker.

use super::shapes::{C_EMPTY, C_ENEMY, C_OWN};
use super::vocabulary::Move;
use crate::variants::board::{cell_side, Side, EMPTY, OFF};

/// Cells marked by `Tables::quiet_marks`, one bit per mailbox cell.
pub(crate) type Marks = [u64; 8];

#[inline]
pub(crate) fn marked(marks: &Marks, c: usize) -> bool {
    marks[c >> 6] >> (c & 63) & 1 != 0
}

#[inline]
pub(crate) fn mark(marks: &mut Marks, c: usize) {
    marks[c >> 6] |= 1 << (c & 63);
}

/// Does the move change a marked cell (its origin, destination or a
/// victim)? With `empty_paths` a piece landing on a path only blocks it:
/// its destination does not count, but a move with victims empties more
/// than one cell, which the marks do not cover (`quiet_marks`).
#[inline]
pub(crate) fn touches(marks: &Marks, mv: &Move, empty_paths: bool) -> bool {
    let (from, to) = (mv.from as usize, mv.to as usize);
    (from != to && (marked(marks, from) || (!empty_paths && marked(marks, to))))
        || (empty_paths && mv.nvictims > 0)
        || mv.victims().iter().any(|&v| marked(marks, v as usize))
}

#[inline]
pub(crate) fn class(cell: u8, attacker: Side) -> u8 {
    if cell == EMPTY {
        C_EMPTY
    } else if cell == OFF {
        0
    } else if cell_side(cell) == attacker {
        C_OWN
    } else {
        C_ENEMY
    }
}
