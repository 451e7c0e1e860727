//! Game ends beyond checkmate that change the move list: a flag region
//! to reach, extinction of some kinds (and pseudo-royal pieces).

use super::region::Region;

/// Reaching a region wins (king of the hill, racing kings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flag {
    /// The kind that must reach it.
    pub kind: usize,
    /// The region, per side.
    pub region: [Region; 2],
    /// Racing kings: Black may still reach the flag after White did.
    pub flag_move: bool,
    /// The flag piece wins only where the opponent does not attack it
    /// (`flagPieceSafe`: dobutsu's lion); either side's, checked before
    /// every move.
    pub safe: bool,
}

/// Losing every piece of some kinds ends the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extinction {
    /// The kinds counted, each on its own.
    pub kinds: Vec<usize>,
    /// Per entry of `kinds`, the kinds counted as it, a mask: itself and
    /// the promoted kinds that move as it (`promotedPieceType = e:k`:
    /// shoshogi's crown prince counts as a king, as Fairy-Stockfish counts
    /// a promoted piece as the type it became).
    pub groups: Vec<u64>,
    /// `*`: all pieces counted together (Shatranj's bare king).
    pub all: bool,
    /// The game ends when a side has at most this many of a kind...
    pub count: u8,
    /// ...and its opponent at least this many.
    pub opponent_count: u8,
    /// The side to move may claim (it needs one more of the opponent's).
    pub claim: bool,
    /// The last pieces of a kind (at most `count + 1`) are pseudo-royal:
    /// no move may leave one attacked (Coregal's queens); the game then
    /// never ends by extinction.
    pub pseudo_royal: bool,
    /// With pseudo-royal pieces: a move may leave some of the side's
    /// extinction pieces attacked, but not all of them (`dupleCheck`:
    /// spartan's two kings).
    pub duple_check: bool,
}

impl Extinction {
    /// The mask of kinds counted together with `kind`, if it is an
    /// extinction kind or one counted as one.
    pub fn group_of(&self, kind: usize) -> Option<u64> {
        self.groups.iter().copied().find(|g| g >> kind & 1 == 1)
    }
}
