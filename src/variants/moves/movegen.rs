//! The leg-code interpreter, attack shapes for the royal rule, and legal
//! move generation.
//!
//! Each piece kind's leg code is linked once per side to the board (steps
//! become cell offsets; Black's are turned 180 degrees, as Fairy-Stockfish
//! and XBoard turn them). The interpreter walks the rows with a small state
//! per leg depth: where the leg starts, how far a paused slide has gone,
//! whether it ended on a piece, and the piece it captured (a locust victim).
//!
//! The royal rule needs "is this square attacked". For that every capture a
//! kind can make is enumerated once into *shapes*: the displacement of the
//! captured square from the attacker and the conditions (empty, friend,
//! enemy, any) on every square of the path. Looking up the displacement of
//! the royal piece from each enemy piece gives the few shapes to test. A
//! kind with too many shapes (long multi-leg slides) falls back to running
//! its leg code.

use super::pawn_path::PawnPath;
use super::shapes::{bucket, enumerate_shapes, may_repeat, Shapes, C_EMPTY};
use super::simple_paths::{pawn_steps, run_simple, simple_forms, simple_landings, Simple};
use super::vocabulary::{Move, MAX_VICTIMS};
use crate::variants::betza::compile::{flag, Leg, Row};
use crate::variants::board::{cell_kind, cell_side, Geometry, Position, Side, EMPTY, NO_SQUARE, OFF};
use crate::variants::rules::Laws;

/// One linked row of leg code.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Op {
    flags: u16,
    delta: isize,
    limit: u8,
    skip: u16,
    depth: u8,
    rewind: u16,
}

/// A kind's linked code and attack shapes for one side.
#[derive(Debug, Clone)]
pub(crate) struct SideTables {
    /// The same moves as `code`, when every path has one of the simple forms.
    simple: Option<Vec<Simple>>,
    pub(crate) code: Vec<Op>,
    /// `None`: too many shapes, attacks run the code.
    pub(crate) shapes: Option<Shapes>,
}

/// Per-kind tables of a variant.
#[derive(Debug, Clone)]
pub(crate) struct KindTables {
    pub(crate) sides: [SideTables; 2],
    /// Two paths may give the same move: deduplicate this kind's moves.
    dedup: bool,
}

/// Everything the generator needs about a variant's pieces and board.
#[derive(Debug, Clone)]
pub struct Tables {
    pub(crate) kinds: Vec<KindTables>,
    geometry: Geometry,
    /// (file, rank) of every cell (garbage off the board).
    pub(crate) coords: Vec<(i8, i8)>,
    royal: Option<usize>,
    /// Cells where `i` moves are allowed, per side.
    pub(crate) initial: [Vec<bool>; 2],
    /// Re-parse these Betza strings at every generation (speed comparison).
    pub(crate) reparse: Option<Vec<String>>,
    /// Every attack shape of every kind needs only empty squares on its
    /// path (no hoppers): a piece moving onto a path cannot start an attack.
    pub(crate) empty_paths: bool,
    /// Pawns, promotion, castling, game ends.
    pub(crate) laws: Laws,
    /// Kinds (a mask) with moves their leg code does not make (see `has_extras`).
    extras: u64,
    /// Kinds (a mask) whose attacks bounds or the cannon's rules limit
    /// (`attacked_skipping` tests the others by their shapes alone).
    pub(crate) attack_rules: u64,
    /// Kinds (a mask) with moves along the palace lines, which they have
    /// only on them (see `has_extras_at`).
    palace_kinds: u64,
    /// The built-in pawn's direct path, if the variant's pawn is it.
    pub(crate) pawn_path: Option<PawnPath>,
    /// `laws.plain_play()`: a move is the board's `make` (initial rushes,
    /// filled in later, need a pawn, which this excludes).
    pub(crate) plain_play: bool,
    /// The drops have set-up rules (`mustDrop`, bishops on opposite
    /// colours, castling gained by a drop): drops are generated and
    /// tested one by one (`setup.rs`).
    pub(crate) setup_drops: bool,
    /// A stone game's tables (`stones.rs`), if the variant is one.
    pub(crate) stones: Option<Box<super::stone_bits::StoneTables>>,
    /// Set-up drops counted as cell sets at perft's last ply (`setup_count.rs`).
    pub(crate) setup_count: Option<Box<super::setup_cells::SetupCount>>,
}

fn link(code: &[Row], geometry: &Geometry, side: Side) -> Vec<Op> {
    code.iter()
        .map(|row| {
            let step = if side == 0 { row.step } else { (-row.step.0, -row.step.1) };
            let is_loop = row.flags & flag::LOOP != 0;
            Op {
                flags: row.flags,
                delta: geometry.delta(step),
                limit: row.limit,
                skip: row.skip,
                depth: row.depth,
                rewind: if is_loop { row.range } else { 0 },
            }
        })
        .collect()
}

fn leg_victims(leg: &Leg) -> usize {
    let own = usize::from(!leg.is_final() && leg.modes & (flag::CAPTURE | flag::DESTROY) != 0);
    own + leg.children.iter().map(leg_victims).max().unwrap_or(0)
}

/// Why a piece cannot be used by the generator.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TableError(pub String);

impl Tables {
    /// Links every kind's code to the board and enumerates attack shapes.
    pub fn new(
        geometry: Geometry,
        kinds: &[(&[Leg], &[Row])],
        royal: Option<usize>,
        initial: [Vec<bool>; 2],
        laws: Laws,
    ) -> Result<Tables, TableError> {
        let mut coords = vec![(0, 0); geometry.cells];
        for sq in geometry.squares() {
            let (f, r) = geometry.coords(sq);
            coords[sq] = (f as i8, r as i8);
        }
        let mut out = Vec::new();
        for (roots, code) in kinds {
            if roots.iter().map(leg_victims).max().unwrap_or(0) > MAX_VICTIMS {
                return Err(TableError(format!(
                    "a move with more than {MAX_VICTIMS} locust captures is not implemented"
                )));
            }
            let enumerated = enumerate_shapes(roots, &geometry);
            let dedup = may_repeat(roots, &geometry);
            let sides = [0, 1].map(|side| SideTables {
                simple: simple_forms(roots, &geometry, side),
                code: link(code, &geometry, side),
                shapes: enumerated.as_ref().map(|list| bucket(list, &geometry, side)),
            });
            out.push(KindTables { sides, dedup });
        }
        let empty_paths = out
            .iter()
            .flat_map(|k| &k.sides)
            .all(|s| s.shapes.as_ref().is_some_and(|shapes| shapes.conds.iter().all(|&(_, mask)| mask == C_EMPTY)));
        let pawn = laws.pawn.as_ref().map(|p| p.kind);
        let extras = (0..out.len())
            .filter(|&k| {
                pawn == Some(k)
                    || laws
                        .promotion
                        .as_ref()
                        .is_some_and(|p| (p.other_pawn_kinds[0] | p.other_pawn_kinds[1]) >> k & 1 == 1)
                    || laws.shogi.as_ref().is_some_and(|s| {
                        s.promotes_to.get(k).is_some_and(Option::is_some)
                            || s.demotion && s.demotes_to.get(k).is_some_and(Option::is_some)
                    })
                    || laws.bounds.binds(k)
                    || laws.palace.as_ref().is_some_and(|p| p.is_cannon(k))
            })
            .fold(0, |m, k| m | 1 << k);
        let attack_rules = (0..out.len())
            .filter(|&k| laws.bounds.binds(k) || laws.palace.as_ref().is_some_and(|p| p.is_cannon(k)))
            .fold(0, |m, k| m | 1 << k);
        let palace_kinds = (0..out.len())
            .filter(|&k| laws.palace.as_ref().is_some_and(|p| p.diagonal(k).is_some()))
            .fold(0, |m, k| m | 1 << k);
        let pawn_path = pawn.filter(|&k| !out[k].dedup).and_then(|k| {
            let steps = [0, 1].map(|side| pawn_steps(&out[k].sides[side].simple));
            PawnPath::new(&geometry, &laws, steps)
        });
        let plain_play = laws.plain_play();
        let setup_drops = laws.drops.as_ref().is_some_and(|d| d.setup.is_some());
        let stone_rules = laws.stones.clone();
        let mut tables = Tables {
            kinds: out,
            geometry,
            coords,
            royal,
            initial,
            reparse: None,
            laws,
            empty_paths,
            extras,
            attack_rules,
            palace_kinds,
            pawn_path,
            plain_play,
            setup_drops,
            stones: None,
            setup_count: None,
        };
        if setup_drops {
            tables.setup_count = tables.build_setup_count();
        }
        if let Some(rules) = stone_rules {
            tables.stones = Some(tables.build_stones(&rules, kinds.len())?);
        }
        Ok(tables)
    }

    /// The board these tables were built for.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The index of the royal kind, if the variant has one.
    pub fn royal(&self) -> Option<usize> {
        self.royal
    }

    /// Calls `emit(to, victims)` for every pseudo-legal move of the piece on
    /// `from` (duplicates possible; see `piece_moves`).
    pub(crate) fn run(
        &self,
        code: &[Op],
        cells: &mut [u8],
        from: usize,
        initial_ok: bool,
        emit: &mut impl FnMut(usize, &[u16]),
    ) {
        let mover = cells[from];
        let side = cell_side(mover);
        cells[from] = EMPTY;
        let mut at = [0usize; 9];
        let mut count = [0u8; 8];
        let mut ended = [false; 8];
        let mut victim = [NO_SQUARE; 8];
        at[0] = from;
        let mut i = 0;
        let n = code.len();
        while i < n {
            let op = code[i];
            let d = op.depth as usize;
            if op.flags & flag::LOOP != 0 {
                if ended[d] || count[d] >= op.limit {
                    i += 1;
                    continue;
                }
                let sq = (at[d + 1] as isize + op.delta) as usize;
                let c = cells[sq];
                if c == EMPTY {
                    at[d + 1] = sq;
                    count[d] += 1;
                    victim[d] = NO_SQUARE;
                    i -= op.rewind as usize;
                    continue;
                }
                if c != OFF {
                    let enemy = cell_side(c) != side;
                    let takes = (enemy && op.flags & flag::CAPTURE != 0) || (!enemy && op.flags & flag::DESTROY != 0);
                    if takes || op.flags & flag::HOP != 0 {
                        at[d + 1] = sq;
                        count[d] += 1;
                        ended[d] = true;
                        victim[d] = if takes { sq as u16 } else { NO_SQUARE };
                        i -= op.rewind as usize;
                        continue;
                    }
                }
                i += 1;
                continue;
            }
            if op.flags & flag::INITIAL != 0 && !initial_ok {
                i += 1 + op.skip as usize;
                continue;
            }
            let is_final = op.flags & flag::FINAL != 0;
            let mut sq = at[d];
            let mut steps = 0u8;
            if op.flags & flag::SKIP_FIRST != 0 {
                sq = (sq as isize + op.delta) as usize;
                steps = 1;
                if cells[sq] == OFF {
                    i += 1 + op.skip as usize;
                    continue;
                }
            }
            let mut success = false;
            loop {
                sq = (sq as isize + op.delta) as usize;
                steps += 1;
                let c = cells[sq];
                if c == OFF {
                    break;
                }
                if c == EMPTY {
                    if is_final {
                        if op.flags & flag::MOVE != 0 {
                            emit_with(emit, sq, &victim[..d]);
                        }
                    } else if op.flags & flag::MOVE != 0 {
                        at[d + 1] = sq;
                        count[d] = steps;
                        ended[d] = false;
                        victim[d] = NO_SQUARE;
                        success = true;
                        break;
                    }
                    if steps < op.limit {
                        continue;
                    }
                    break;
                }
                let enemy = cell_side(c) != side;
                let takes = (enemy && op.flags & flag::CAPTURE != 0) || (!enemy && op.flags & flag::DESTROY != 0);
                if is_final {
                    if takes {
                        emit_with(emit, sq, &victim[..d]);
                    }
                } else if takes || op.flags & flag::HOP != 0 {
                    at[d + 1] = sq;
                    count[d] = steps;
                    ended[d] = true;
                    victim[d] = if takes { sq as u16 } else { NO_SQUARE };
                    success = true;
                }
                break;
            }
            i += if is_final || success { 1 } else { 1 + op.skip as usize };
        }
        cells[from] = mover;
    }

    /// Every distinct pseudo-legal move of the piece on `from` (of the side
    /// whose piece it is), appended to `out`.
    pub fn piece_moves(&self, pos: &mut Position, from: usize, initial_anywhere: bool, out: &mut Vec<Move>) {
        let cell = pos.cells[from];
        let kind = cell_kind(cell);
        let side = cell_side(cell);
        let tables = &self.kinds[kind];
        let initial_ok = initial_anywhere || self.initial[side][from];
        let start = out.len();
        let st = &tables.sides[side];
        match &st.simple {
            Some(forms) => run_simple(forms, &pos.cells, from, side, initial_ok, out),
            None => self.run(&st.code, &mut pos.cells, from, initial_ok, &mut |to, victims| {
                out.push(make_move(from, to, victims));
            }),
        }
        if tables.dedup {
            sort_dedup_from(out, start);
        }
    }

    /// The destinations of the piece on `from` of `cells` (its side's),
    /// its `i` moves allowed as `initial` says, else as on the board.
    pub(crate) fn destinations(&self, cells: &mut [u8], from: usize, initial: Option<bool>, out: &mut Vec<u16>) {
        let side = cell_side(cells[from]);
        let code = &self.kinds[cell_kind(cells[from])].sides[side].code;
        let initial_ok = initial.unwrap_or(self.initial[side][from]);
        self.run(code, cells, from, initial_ok, &mut |to, _| out.push(to as u16));
    }

    /// The destinations of a lone `kind` of `side` on `from` of an empty
    /// board, with or without its initial (`i`) moves.
    pub(crate) fn empty_board_targets(&self, kind: usize, side: Side, from: usize, initial: bool) -> Vec<usize> {
        let mut cells = self.geometry.empty_cells();
        cells[from] = crate::variants::board::piece_cell(kind, side);
        let mut out = Vec::new();
        self.destinations(&mut cells, from, Some(initial), &mut out);
        out.into_iter().map(usize::from).collect()
    }

    /// Calls `land(to)` for each destination of the piece on `from` when its
    /// moves are plain and distinct (simple forms, no repeats); false, with
    /// no call, otherwise.
    pub(crate) fn plain_landings(&self, pos: &Position, from: usize, land: impl FnMut(usize)) -> bool {
        let cell = pos.cells[from];
        let side = cell_side(cell);
        let tables = &self.kinds[cell_kind(cell)];
        match &tables.sides[side].simple {
            Some(forms) if !tables.dedup && self.reparse.is_none() => {
                simple_landings(forms, &pos.cells, from, side, self.initial[side][from], land);
                true
            }
            _ => false,
        }
    }

    /// Does `kind` have moves its leg code does not make, for either side:
    /// the pawn's (double steps, en passant, promotion), a promotion as
    /// the pawn's (`promotionPawnTypes`), or bounds that drop some of them?
    #[inline]
    pub(crate) fn has_extras(&self, kind: usize) -> bool {
        self.extras >> kind & 1 == 1
    }

    /// `has_extras`, or a piece of `kind` on `from` that moves along the
    /// palace lines there too.
    #[inline]
    pub(crate) fn has_extras_at(&self, kind: usize, from: usize) -> bool {
        self.has_extras(kind)
            || (self.palace_kinds >> kind & 1 == 1 && self.laws.palace.as_ref().is_some_and(|p| p.lines.has(from)))
    }

    /// Adds to the moves from `start` on of the piece on `from` what its leg
    /// code does not make (see `has_extras`).
    pub(crate) fn piece_extras(&self, pos: &Position, from: usize, start: usize, out: &mut Vec<Move>) {
        let kind = cell_kind(pos.cells[from]);
        if !self.has_extras_at(kind, from) {
            return;
        }
        if self.laws.bounds.binds(kind) {
            self.keep_in_bounds(pos, from, start, out);
        }
        if let Some(palace) = &self.laws.palace {
            if palace.is_cannon(kind) {
                self.keep_cannon_rules(pos, from, start, out);
            }
            if palace.diagonal(kind).is_some() {
                self.palace_moves(pos, from, out);
            }
        }
        if self.laws.pawn.as_ref().is_some_and(|p| p.kind == kind) {
            self.pawn_extras(pos, from, start, out);
        } else if self
            .laws
            .promotion
            .as_ref()
            .is_some_and(|p| p.other_pawn_kinds[cell_side(pos.cells[from])] >> kind & 1 == 1)
        {
            self.promotions(pos, start, out);
        } else if self.laws.shogi.is_some() {
            self.shogi_promotions(pos, from, start, out);
        }
    }

    /// Every pseudo-legal move of the piece on `from` by the general path:
    /// its leg code and its extras.
    #[inline]
    pub(crate) fn general_moves(&self, pos: &mut Position, from: usize, out: &mut Vec<Move>) {
        let start = out.len();
        self.piece_moves(pos, from, false, out);
        self.piece_extras(pos, from, start, out);
    }

    /// The moves of the built-in pawn on `from` by its direct path, en
    /// passant included; false, with none, if it has none (not the pawn, or
    /// one that could promote).
    #[inline]
    pub(crate) fn direct_pawn_moves(&self, pos: &Position, from: usize, out: &mut Vec<Move>) -> bool {
        let Some(path) = self.pawn_path.as_ref().filter(|p| p.kind == cell_kind(pos.cells[from])) else {
            return false;
        };
        let direct = path.landings(&pos.cells, from, pos.side, |to, special| {
            out.push(Move { special, ..Move::plain(from, to) });
        });
        if direct && pos.ep != NO_SQUARE {
            self.en_passant(pos, from, out);
        }
        direct
    }

    /// The moves that are no one piece's leg code: castling, the
    /// Cambodian first moves, Sittuyin's promotions, drops and the pass.
    pub(crate) fn board_extras(&self, pos: &mut Position, out: &mut Vec<Move>) {
        self.castlings(pos, out);
        self.cambodian_moves(pos, out);
        if self.laws.promotion.as_ref().is_some_and(|p| p.in_place) {
            self.in_place_promotions(pos, out);
        }
        if self.laws.drops.is_some() {
            self.drop_moves(pos, out);
        }
        self.pass_moves(pos, out);
    }

    /// Every distinct pseudo-legal move of the side to move.
    pub fn pseudo_legal(&self, pos: &mut Position, out: &mut Vec<Move>) {
        if let Some(st) = self.stone_tables() {
            return self.stone_moves(st, pos, out);
        }
        let side = pos.side;
        match &self.reparse {
            None => {
                for i in 0..pos.lists[side].len() {
                    let from = pos.lists[side][i] as usize;
                    if self.direct_pawn_moves(pos, from, out) {
                        continue;
                    }
                    self.general_moves(pos, from, out);
                }
                self.board_extras(pos, out);
            }
            Some(notations) => {
                for i in 0..pos.lists[side].len() {
                    let from = pos.lists[side][i] as usize;
                    let notation = &notations[cell_kind(pos.cells[from])];
                    self.piece_moves_reparsed(pos, from, notation, out);
                }
            }
        }
    }

    /// The moves of the piece on `from` as WinBoard finds them: parse and
    /// compile its Betza string now, then interpret (for the speed
    /// comparison of compiling once against re-parsing at every node).
    pub fn piece_moves_reparsed(&self, pos: &mut Position, from: usize, notation: &str, out: &mut Vec<Move>) {
        let Ok(compiled) = crate::variants::betza::compile(notation) else { return };
        let side = cell_side(pos.cells[from]);
        let code = link(&compiled.code, &self.geometry, side);
        let initial_ok = self.initial[side][from];
        let start = out.len();
        self.run(&code, &mut pos.cells, from, initial_ok, &mut |to, victims| out.push(make_move(from, to, victims)));
        if self.kinds[cell_kind(pos.cells[from])].dedup {
            sort_dedup_from(out, start);
        }
    }

    /// The same tables generating every move through the leg-code
    /// interpreter (no simple forms): a cross-check of the two.
    pub fn interpreter_only(&self) -> Tables {
        let mut t = self.clone();
        for k in &mut t.kinds {
            for s in &mut k.sides {
                s.simple = None;
            }
        }
        t.pawn_path = None;
        t
    }

    /// The same tables re-parsing each piece's Betza string (`notations`,
    /// one per kind) at every move generation, as WinBoard does.
    pub fn reparsing(&self, notations: Vec<String>) -> Tables {
        Tables { reparse: Some(notations), ..self.clone() }
    }
}

fn emit_with(emit: &mut impl FnMut(usize, &[u16]), to: usize, victims: &[u16]) {
    let mut v = [0u16; 8];
    let mut k = 0;
    for &x in victims {
        if x != NO_SQUARE && x as usize != to {
            v[k] = x;
            k += 1;
        }
    }
    emit(to, &v[..k]);
}

/// Sorts the moves from `start` on and drops repeats (a piece whose
/// shapes reach one square in two ways).
fn sort_dedup_from(out: &mut Vec<Move>, start: usize) {
    out[start..].sort_unstable();
    let mut keep = start;
    for j in start..out.len() {
        if j == start || out[j] != out[keep - 1] {
            out[keep] = out[j];
            keep += 1;
        }
    }
    out.truncate(keep);
}

fn make_move(from: usize, to: usize, victims: &[u16]) -> Move {
    let mut mv = Move::plain(from, to);
    for &v in victims.iter().take(MAX_VICTIMS) {
        mv.victims[mv.nvictims as usize] = v;
        mv.nvictims += 1;
    }
    if mv.nvictims > 1 {
        mv.victims[..mv.nvictims as usize].sort_unstable();
    }
    mv
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::betza::compile;
    use crate::variants::moves::shapes::may_repeat;

    fn repeats(notation: &str) -> bool {
        may_repeat(&compile(notation).unwrap().roots, &Geometry::new(8, 8))
    }

    #[test]
    fn repeats_only_where_two_paths_can_give_one_move() {
        assert!(!repeats("mRcpR"), "a cannon's screens exclude each other");
        assert!(!repeats("KN"));
        assert!(!repeats("gQ"));
        assert!(repeats("WR"));
        assert!(repeats("aK"));
        assert!(repeats("W2D"));
        assert!(!repeats("mWcD"));
    }
}
