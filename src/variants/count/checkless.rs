//! Perft's last ply where giving check is not allowed (racing kings): a
//! plain move of a piece on no marked cell, to no marked cell, is legal
//! unless the piece itself attacks the enemy king from its destination,
//! which its attack shapes tell without playing the move.

use crate::variants::board::{cell_kind, Position, EMPTY};
use crate::variants::moves::marks::{marked, Marks};
use crate::variants::moves::movegen::Tables;
use crate::variants::moves::vocabulary::Move;

impl Tables {
    /// Counts the plain moves that are legal for sure and puts every other
    /// pseudo-legal move in `moves`. `marks` guard the mover's `king`,
    /// `check_marks` the enemy king on `theirs` (see `Tables::screen`).
    pub(crate) fn count_checkless(
        &self,
        pos: &mut Position,
        king: usize,
        theirs: usize,
        marks: &Marks,
        check_marks: &Marks,
        moves: &mut Vec<Move>,
    ) -> u64 {
        let us = pos.side;
        let (kx, ky) = self.coords[theirs];
        let mut n = 0;
        for i in 0..pos.lists[us].len() {
            let from = pos.lists[us][i] as usize;
            let kind = cell_kind(pos.cells[from]);
            let shapes = self.kinds[kind].sides[us].shapes.as_ref();
            if let Some(shapes) = shapes.filter(|_| {
                from != king && !marked(marks, from) && !marked(check_marks, from) && !self.has_extras_at(kind, from)
            }) {
                let cells = &pos.cells;
                let counted = self.plain_landings(pos, from, |to| {
                    // With empty paths a destination on a marked path only
                    // blocks it (see `touches`).
                    let tested = !self.empty_paths && (marked(marks, to) || marked(check_marks, to));
                    let bucket = self.bucket(shapes, to, kx, ky);
                    if tested
                        || (!bucket.is_empty()
                            && self.bucket_hits_with(
                                shapes,
                                bucket,
                                to,
                                us,
                                |c| if c == from { EMPTY } else { cells[c] },
                            ))
                    {
                        moves.push(Move::plain(from, to));
                    } else {
                        n += 1;
                    }
                });
                if counted {
                    continue;
                }
            }
            self.general_moves(pos, from, moves);
        }
        self.board_extras(pos, moves);
        n
    }
}
