//! Where a bound piece may be dropped (Supply): only on the cells it could
//! reach in a game, from its start squares through its own moves within
//! its bounds (an advisor on the palace's five points, an elephant on its
//! seven, a soldier on its files before the river), within the side's
//! drop region. Fairy-Stockfish's `go perft` drops them exactly there.
//! And `dropChecks = false`: a drop may not give check.

use super::movegen::Tables;
use super::vocabulary::Move;
use crate::variants::board::{cell_kind, cell_side, Position, NO_SQUARE};
use crate::variants::rules::Region;

impl Tables {
    /// Per kind, per side, the drop cells of each bound kind (`None`:
    /// the side's drop region), from the start position `start`.
    pub(crate) fn bound_drop_cells(&self, start: &Position, kinds: usize) -> Vec<Option<[Region; 2]>> {
        let Some(drops) = &self.laws.drops else { return Vec::new() };
        let g = self.geometry();
        (0..kinds)
            .map(|kind| {
                self.laws.bounds.binds(kind).then(|| {
                    [0, 1].map(|side| {
                        let mut seen = vec![false; g.cells];
                        let mut todo: Vec<usize> = start.lists[side]
                            .iter()
                            .map(|&c| c as usize)
                            .filter(|&c| cell_kind(start.cells[c]) == kind && cell_side(start.cells[c]) == side)
                            .collect();
                        if todo.is_empty() {
                            // Not on the board at the start: its region.
                            return Region(
                                (0..g.cells)
                                    .map(|c| {
                                        drops.cells[side].has(c)
                                            && self.laws.bounds.region(kind, side).is_none_or(|r| r.has(c))
                                    })
                                    .collect(),
                            );
                        }
                        for &c in &todo {
                            seen[c] = true;
                        }
                        while let Some(from) = todo.pop() {
                            for to in self.empty_board_targets(kind, side, from, false) {
                                if !seen[to] && self.bound_allows(kind, side, from, to) {
                                    seen[to] = true;
                                    todo.push(to);
                                }
                            }
                        }
                        Region((0..g.cells).map(|c| seen[c] && drops.cells[side].has(c)).collect())
                    })
                })
            })
            .collect()
    }

    /// Does the drop `mv` give check (directly, or as a cannon's screen)?
    pub(crate) fn drop_checks(&self, pos: &mut Position, mv: Move) -> bool {
        let us = pos.side;
        let played = self.play_untested(pos, mv);
        let theirs = pos.royal[us ^ 1];
        let check = theirs != NO_SQUARE && self.attacked(pos, theirs as usize, us);
        self.unplay(pos, mv, &played);
        check
    }
}
