//! Blast captures (atomic): a capture explodes the capturer and every
//! piece but pawns around it; kings side by side cannot check each other,
//! and a square next to the enemy king is safe from its captures.

use super::movegen::Tables;
use super::play::Played;
use crate::variants::board::{cell_kind, Position, Side, EMPTY, NO_SQUARE, OFF};
use crate::variants::rules::Laws;

impl Laws {
    /// With explosions, kings side by side cannot check each other.
    pub fn blast_kings_touch(&self, pos: &Position, g: &crate::variants::board::Geometry) -> bool {
        if !self.blast || pos.royal[0] == NO_SQUARE || pos.royal[1] == NO_SQUARE {
            return false;
        }
        let (a, b) = (g.coords(pos.royal[0] as usize), g.coords(pos.royal[1] as usize));
        (a.0 as i8 - b.0 as i8).abs() <= 1 && (a.1 as i8 - b.1 as i8).abs() <= 1
    }
}

impl Tables {
    /// Removes the capturer on `at` and every piece but pawns next to it.
    pub(crate) fn explode(&self, pos: &mut Position, at: usize, played: &mut Played) {
        let pawn = self.laws.pawn.as_ref().map(|p| p.kind);
        let immune = |c: u8| self.laws.blast_immune >> cell_kind(c) & 1 == 1;
        let mut take = |pos: &mut Position, sq: usize| {
            let cell = pos.lift(sq);
            played.blasted[played.nblasted as usize] = (sq as u16, u16::from(cell));
            played.nblasted += 1;
        };
        if !immune(pos.cells[at]) {
            take(pos, at);
        }
        for d in self.neighbours() {
            let sq = (at as isize + d) as usize;
            let c = pos.cells[sq];
            if c != EMPTY && c != OFF && Some(cell_kind(c)) != pawn && !immune(c) {
                take(pos, sq);
            }
        }
    }

    /// Is the king of `us` on `king` safe?
    pub(crate) fn blast_safe(&self, pos: &mut Position, king: usize, us: Side) -> bool {
        !self.royal_attacked(pos, king, us ^ 1)
    }

    /// Is a royal piece on `sq` attacked by `by`? With explosions, a square
    /// next to `by`'s own royal piece is not: that capture would blow it up.
    pub(crate) fn royal_attacked(&self, pos: &mut Position, sq: usize, by: Side) -> bool {
        !self.blast_shielded(pos, sq, by) && self.attacked(pos, sq, by)
    }

    /// With explosions, is `sq` next to `by`'s royal piece (so that no
    /// capture by `by` can take a royal piece there)?
    pub(crate) fn blast_shielded(&self, pos: &Position, sq: usize, by: Side) -> bool {
        if !self.laws.blast || pos.royal[by] == NO_SQUARE {
            return false;
        }
        self.neighbours().contains(&(sq as isize - pos.royal[by] as isize))
    }

    /// The cell offsets of the eight squares around a square.
    pub(crate) fn neighbours(&self) -> [isize; 8] {
        let s = self.geometry().stride as isize;
        [-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1]
    }
}
