//! Perft's last ply in a set-up phase (Sittuyin's): the drops counted as
//! cell sets instead of built and played one by one. Out of check a drop
//! only adds a piece, so with plain attacks (no hoppers, palaces, bounds
//! or played rules) every drop is legal but a royal piece's onto an
//! attacked cell; those cells are found through each enemy piece's reach.

use super::movegen::Tables;
use super::setup_cells::SetupCount;
use crate::variants::board::cellbits::CellBits;
use crate::variants::board::{cell_kind, Position, Side, EMPTY, NO_SQUARE, WHITE};

impl Tables {
    /// The count's tables, or `None` when a rule may refuse a drop out of
    /// check other than by a royal piece dropped onto an attacked cell.
    pub(crate) fn build_setup_count(&self) -> Option<Box<SetupCount>> {
        let laws = &self.laws;
        let drops = laws.drops.as_ref()?;
        let setup = drops.setup.as_ref()?;
        let kinds = self.kinds.len();
        let plain_rules = setup.must_drop
            && setup.must_kind.is_none()
            && setup.opposite_bishops.is_none()
            && drops.piece_drops
            && drops.checks
            && drops.bound_cells.iter().all(Option::is_none)
            && laws.shogi.is_none()
            && !laws.no_checks
            && !laws.blast
            && !laws.must_capture
            && !laws.seirawan_gating
            && !laws.tested_by_playing()
            && laws.palace.is_none()
            && laws.walling.is_none()
            && laws.stones.is_none()
            && !laws.bounds.flying_general
            && (0..kinds).all(|k| !laws.bounds.binds(k))
            && self.empty_paths
            && self.reparse.is_none();
        // Every kind's attacks must be known as shapes (`reach`, `shapes_hit`).
        if !plain_rules || !self.kinds.iter().all(|k| k.sides.iter().all(|s| s.shapes.is_some())) {
            return None;
        }
        let g = self.geometry();
        let cells = g.cells;
        let on_board =
            |region: &dyn Fn(usize) -> bool| CellBits::from_fn(cells, |c| g.squares().any(|sq| sq == c) && region(c));
        let back = |side: Side| if side == WHITE { 0 } else { g.height - 1 };
        let region = [0, 1].map(|s| on_board(&|c| drops.cells[s].has(c)));
        let pawn_region = [0, 1].map(|s| on_board(&|c| drops.pawn_cells[s].has(c)));
        let back_rank = [0, 1].map(|s| on_board(&|c| drops.cells[s].has(c) && g.coords(c).1 == back(s)));
        let mut reach = vec![CellBits::default(); kinds * 2 * cells];
        for (kind, tables) in self.kinds.iter().enumerate() {
            for side in [0, 1] {
                let shapes = tables.sides[side].shapes.as_ref()?;
                for x in g.squares() {
                    let set = &mut reach[(kind * 2 + side) * cells + x];
                    for sq in g.squares() {
                        let (kx, ky) = self.coords[sq];
                        if !self.bucket(shapes, x, kx, ky).is_empty() {
                            set.insert(sq);
                        }
                    }
                }
            }
        }
        Some(Box::new(SetupCount { region, pawn_region, back_rank, reach, cells, words: CellBits::words_for(cells) }))
    }

    /// The legal moves of a set-up node where each one is a drop, counted;
    /// `None`: count them one by one (no count tables, the mover in check,
    /// or no drop at all, when must-drop lets the board's moves play).
    pub(crate) fn count_setup_drops(&self, pos: &mut Position) -> Option<u64> {
        let sc = self.setup_count.as_deref()?;
        let drops = self.laws.drops.as_ref()?;
        let rook = drops.setup.as_ref()?.rook_back_rank;
        let (us, them) = (pos.side, pos.side ^ 1);
        let king = pos.royal[us];
        if king != NO_SQUARE && self.attacked(pos, king as usize, them) {
            return None;
        }
        let empty = self.empty_cells(pos, sc);
        let and = |a: &CellBits, b: &CellBits| CellBits(std::array::from_fn(|i| a.0[i] & b.0[i]));
        let free = and(&sc.region[us], &empty);
        let mut total = 0;
        for (kind, &n) in pos.hands[us].iter().enumerate() {
            if n == 0 {
                continue;
            }
            let cells = if rook == Some(kind) {
                and(&sc.back_rank[us], &empty)
            } else if drops.pawn == Some(kind) {
                and(&sc.pawn_region[us], &empty)
            } else {
                free
            };
            total += if self.royal() == Some(kind) {
                self.unattacked(pos, sc, cells, them)
            } else {
                u64::from(cells.count(sc.words))
            };
        }
        (total > 0).then_some(total)
    }

    /// The empty cells of the board, from the cell sets when they are kept.
    fn empty_cells(&self, pos: &Position, sc: &SetupCount) -> CellBits {
        if pos.pawn_kind().is_some() {
            let taken = |i: usize| pos.men[0].0[i] | pos.men[1].0[i] | pos.walls.0[i];
            return CellBits(std::array::from_fn(|i| if i < sc.words { !taken(i) } else { 0 }));
        }
        CellBits::from_fn(sc.cells, |c| c < pos.cells.len() && pos.cells[c] == EMPTY)
    }

    /// How many of `cells` (empty) no piece of `by` attacks.
    fn unattacked(&self, pos: &Position, sc: &SetupCount, mut cells: CellBits, by: Side) -> u64 {
        for &x in &pos.lists[by] {
            let x = x as usize;
            let kind = cell_kind(pos.cells[x]);
            let reach = &sc.reach[(kind * 2 + by) * sc.cells + x];
            let shapes = self.kinds[kind].sides[by].shapes.as_ref().expect("shapes (build_setup_count)");
            for w in 0..sc.words {
                let mut bits = reach.0[w] & cells.0[w];
                while bits != 0 {
                    let sq = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if self.shapes_hit(shapes, pos, x, by, sq) {
                        cells.remove(sq);
                    }
                }
            }
        }
        u64::from(cells.count(sc.words))
    }
}
