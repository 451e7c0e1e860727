//! Legality: attack tests through the attack shapes, and the legal moves
//! of a position. Most moves are shown legal without playing them: the
//! squares that could change an attack on a royal piece are marked once per
//! node, and only moves touching them (or moves of the royal piece, or
//! captures that explode) are played and tested.

use super::marks::{class, mark, marked, touches, Marks};
use super::movegen::Tables;
use super::shapes::Shapes;
use super::vocabulary::{Move, Special};
use crate::variants::board::{cell_kind, piece_cell, Position, Side, EMPTY, NO_SQUARE, OFF};

/// Guarded pieces whose marks are kept one by one: a move that touches
/// some is tested for those alone.
pub(crate) const KEPT: usize = 4;

/// One guarded piece: its cell and marks, and whether it is the royal piece.
#[derive(Clone, Copy)]
pub(crate) struct Guard {
    pub(crate) sq: usize,
    pub(crate) marks: Marks,
    pub(crate) royal: bool,
}

/// What the node knows of its guarded pieces (`Screen::pseudo`,
/// `royal_screen.rs`).
// Built once a node on the stack: boxing the large variant would allocate a node.
#[allow(clippy::large_enum_variant)]
pub(crate) enum RoyalScreen {
    /// None is attacked: the marks of them all, and the cells they stand
    /// on; with at most `KEPT` of them, each one's own (`guards`).
    Unattacked { marks: Marks, royals: Marks, guards: Option<([Guard; KEPT], usize)> },
    /// One is attacked: the cells of one attack on it.
    Attacked { attack: Marks },
}

/// What one node knows for deciding its moves' legality.
pub(crate) struct Screen {
    /// The mover's royal piece, or `NO_SQUARE` (then only the played rules
    /// below can make a move illegal).
    pub(crate) king: u16,
    /// Cells whose change could let an enemy piece attack `king`; `None`:
    /// every move is tested (in check, or a kind without shapes).
    pub(crate) marks: Option<Marks>,
    /// Giving check is not allowed: the cells whose change could let one of
    /// our pieces attack the enemy's royal piece; `None`: test every move.
    pub(crate) check_marks: Option<Marks>,
    /// Play and test every move (pseudo-royal pieces).
    pub(crate) all_played: bool,
    /// With `all_played` for pseudo-royal pieces alone: what the mover's
    /// guarded pieces tell without playing (`royal_screen.rs`).
    pub(crate) pseudo: Option<RoyalScreen>,
    /// The generals face each other with `bikjangRule`: a move other than
    /// the pass must break the facing (`moves/passing.rs`).
    pub(crate) bikjang: bool,
}

impl Tables {
    /// Is `sq` attacked by a piece of `by` (could one of its moves capture there)?
    pub fn attacked(&self, pos: &mut Position, sq: usize, by: Side) -> bool {
        self.attacked_skipping(pos, sq, by, usize::MAX)
    }

    /// The shapes of the piece of `by` on `x` whose captures could land on
    /// the cell at (`kx`, `ky`): an empty slice for most pieces.
    #[inline(always)]
    pub(crate) fn bucket<'a>(&self, shapes: &'a Shapes, x: usize, kx: i8, ky: i8) -> &'a [(u32, u16, bool)] {
        let (ax, ay) = self.coords[x];
        let idx = ((ky - ay + 15) as usize) * 31 + (kx - ax + 15) as usize;
        let (s, e) = shapes.buckets[idx];
        &shapes.shapes[s as usize..e as usize]
    }

    /// Do the conditions of one of `bucket`'s shapes hold for the piece of
    /// `by` on `x`?
    fn bucket_hits(&self, shapes: &Shapes, bucket: &[(u32, u16, bool)], cells: &[u8], x: usize, by: Side) -> bool {
        self.bucket_hits_with(shapes, bucket, x, by, |c| cells[c])
    }

    /// `bucket_hits` reading the board through `cell`.
    #[inline(always)]
    pub(crate) fn bucket_hits_with(
        &self,
        shapes: &Shapes,
        bucket: &[(u32, u16, bool)],
        x: usize,
        by: Side,
        cell: impl Fn(usize) -> u8,
    ) -> bool {
        bucket.iter().any(|&(start, len, initial)| {
            (!initial || self.initial[by][x])
                && shapes.conds[start as usize..start as usize + len as usize]
                    .iter()
                    .all(|&(off, mask)| class(cell((x as isize + off) as usize), by) & mask != 0)
        })
    }

    /// Does the piece of `by` on `x` attack `sq` by one of its `shapes`?
    #[inline]
    pub(crate) fn shapes_hit(&self, shapes: &Shapes, pos: &Position, x: usize, by: Side, sq: usize) -> bool {
        let (kx, ky) = self.coords[sq];
        let bucket = self.bucket(shapes, x, kx, ky);
        !bucket.is_empty() && self.bucket_hits(shapes, bucket, &pos.cells, x, by)
    }

    /// `attacked`, ignoring a piece of `by` on `skip` (about to be captured).
    pub(crate) fn attacked_skipping(&self, pos: &mut Position, sq: usize, by: Side, skip: usize) -> bool {
        self.attacked_ignoring(pos, sq, by, skip, |_| false)
    }

    /// `attacked_skipping`, and the pieces of the kinds `ignored` picks do not
    /// attack either (they still block and screen as pieces).
    #[inline(always)]
    pub(crate) fn attacked_ignoring(
        &self,
        pos: &mut Position,
        sq: usize,
        by: Side,
        skip: usize,
        ignored: impl Fn(usize) -> bool,
    ) -> bool {
        let (kx, ky) = self.coords[sq];
        for i in 0..pos.lists[by].len() {
            let x = pos.lists[by][i] as usize;
            if x == skip {
                continue;
            }
            let kind = cell_kind(pos.cells[x]);
            if ignored(kind) {
                continue;
            }
            // One mask test for the kinds no bound or cannon rule limits.
            if self.attack_rules >> kind & 1 == 1 {
                if !self.bound_allows(kind, by, x, sq) {
                    continue;
                }
                if self.laws.palace.as_ref().is_some_and(|p| p.is_cannon(kind)) {
                    if self.cannon_attacks(pos, x, sq) {
                        return true;
                    }
                    continue;
                }
            }
            let t = &self.kinds[kind].sides[by];
            match &t.shapes {
                Some(shapes) => {
                    let bucket = self.bucket(shapes, x, kx, ky);
                    if !bucket.is_empty() && self.bucket_hits(shapes, bucket, &pos.cells, x, by) {
                        return true;
                    }
                }
                None => {
                    let mut hit = false;
                    let initial_ok = self.initial[by][x];
                    self.run(&t.code, &mut pos.cells, x, initial_ok, &mut |to, victims| {
                        hit |= to == sq || victims.contains(&(sq as u16));
                    });
                    if hit {
                        return true;
                    }
                }
            }
        }
        self.general_faces(pos, sq, by, skip) || (self.laws.palace.is_some() && self.palace_attacks(pos, sq, by, skip))
    }

    /// The marks of every square whose change could let a piece of `by`
    /// attack `king`, found in one pass over `by`'s pieces; `None` (test
    /// every move) when some kind of `by` has no shapes, or when `checks`
    /// and `king` is attacked now.
    pub(crate) fn quiet_marks(&self, pos: &Position, king: usize, by: Side, checks: bool) -> Option<Marks> {
        let mut marks = [0u64; 8];
        let (kx, ky) = self.coords[king];
        for &x in &pos.lists[by] {
            let x = x as usize;
            let shapes = self.kinds[cell_kind(pos.cells[x])].sides[by].shapes.as_ref()?;
            for &(start, len, initial) in self.bucket(shapes, x, kx, ky) {
                let conds = &shapes.conds[start as usize..start as usize + len as usize];
                let cell = |off: isize| (x as isize + off) as usize;
                // A shape whose path leaves the board never fires: nothing to
                // mark. Stop at its first cell off the board, which is in the
                // padding (conditions follow the path an atom step at a
                // time); the cells after it may lie outside the mailbox (a
                // locust's did, near an edge).
                let mut unmet = 0;
                let mut on_board = true;
                for &(off, mask) in conds {
                    let c = pos.cells[cell(off)];
                    if c == OFF {
                        on_board = false;
                        break;
                    }
                    unmet += usize::from(class(c, by) & mask == 0);
                }
                // A shape only for a piece on its initial cell never fires
                // from elsewhere. With empty paths, a move empties one cell
                // of a path (moves that empty more are tested: `touches`;
                // explosions are not), so a path blocked twice stays blocked.
                if !on_board || (initial && !self.initial[by][x]) || (self.empty_paths && !self.laws.blast && unmet > 1)
                {
                    continue;
                }
                if unmet == 0 && checks {
                    return None;
                }
                for &(off, _) in conds {
                    let c = cell(off);
                    mark(&mut marks, c);
                }
            }
        }
        // The flying general: a piece leaving the file between the
        // generals may open it.
        if self.laws.bounds.flying_general {
            if checks && self.general_faces(pos, king, by, usize::MAX) {
                return None;
            }
            for c in self.cells_between_generals(pos) {
                mark(&mut marks, c);
            }
        }
        // Janggi's palace lines: a check along them, or the cells of the
        // diagonals through the king.
        if self.laws.palace.is_some() {
            if checks && self.palace_attacks(pos, king, by, usize::MAX) {
                return None;
            }
            self.palace_rays(pos, king, by, |c| mark(&mut marks, c));
        }
        Some(marks)
    }

    /// What the node's moves are tested against.
    pub(crate) fn screen(&self, pos: &mut Position) -> Screen {
        let laws = &self.laws;
        let us = pos.side;
        let them = us ^ 1;
        let king = if self.royal().is_some() { pos.royal[us] } else { NO_SQUARE };
        // Rules the screen does not know: every move is played and tested.
        // Mutual immunity alone is a look at the board before the move
        // (`immune_capture`, in `screened_legal`): the moves are screened.
        let mut all_played = laws.tested_by_playing() && !laws.immune_only();
        // Makpong's rule binds a king in check only: out of check (marks
        // were made) the moves are screened as in makruk.
        let makpong_only = laws.makpong
            && laws.pseudo_royal().is_none()
            && laws.mutually_immune == 0
            && laws.petrify.is_empty()
            && !laws.blast;
        let bikjang = laws.passing.is_some() && self.bikjang(pos);
        let marks = if king == NO_SQUARE || (all_played && !makpong_only) || bikjang {
            None
        } else {
            // With explosions a king next to the enemy king is never in check.
            let k = king as usize;
            self.quiet_marks(pos, k, them, !self.blast_shielded(pos, k, them))
        };
        if makpong_only && marks.is_some() {
            all_played = false;
        }
        let theirs = pos.royal[them];
        let check_marks = if laws.no_checks && self.royal().is_some() && theirs != NO_SQUARE {
            self.quiet_marks(pos, theirs as usize, us, true)
        } else {
            None
        };
        let pseudo = if all_played { self.royal_screen(pos) } else { None };
        Screen { king, marks, check_marks, all_played, bikjang, pseudo }
    }

    /// Does the move capture (a piece on its destination, en passant, a locust victim)?
    pub(crate) fn is_capture(&self, pos: &Position, mv: &Move) -> bool {
        mv.special == Special::EnPassant
            || mv.nvictims > 0
            || (mv.special != Special::Castle && mv.to != mv.from && pos.cells[mv.to as usize] != EMPTY)
    }

    /// Could the moved piece, from its destination, attack the enemy's royal
    /// piece on `target`? (`None`: its kind has no shapes.)
    fn direct_check(&self, pos: &mut Position, mv: &Move, target: usize) -> Option<bool> {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let us = pos.side;
        let kind = mv.promotion().unwrap_or_else(|| cell_kind(pos.cells[from]));
        let shapes = self.kinds[kind].sides[us].shapes.as_ref()?;
        let mover = pos.cells[from];
        pos.cells[from] = EMPTY;
        let hit = self.shapes_hit(shapes, pos, to, us, target);
        pos.cells[from] = mover;
        Some(hit)
    }

    /// Is the pseudo-legal `mv` legal, given the node's `screen`?
    pub(crate) fn screened_legal(&self, pos: &mut Position, s: &Screen, mv: Move) -> bool {
        let laws = &self.laws;
        if mv.special == Special::Pass {
            // Marks are made only out of check: then the pass is legal.
            return s.marks.is_some() || self.pass_legal(pos, mv);
        }
        if laws.mutually_immune != 0 && self.immune_capture(pos, &mv) {
            return false;
        }
        if s.bikjang {
            return self.breaks_bikjang(pos, mv);
        }
        let unusual = matches!(mv.special, Special::EnPassant | Special::Castle | Special::Drop);
        if mv.special == Special::Drop && laws.shogi.is_some() && self.shogi_drop_mates(pos, mv) {
            return false;
        }
        if mv.special == Special::Drop && laws.drops.as_ref().is_some_and(|d| !d.checks) && self.drop_checks(pos, mv) {
            return false;
        }
        // Sittuyin's promotion may not give check, discovered or not: played and tested.
        if mv.promo != 0 && mv.special == Special::None && laws.promotion.as_ref().is_some_and(|p| p.in_place) {
            return self.in_place_promotion_legal(pos, mv);
        }
        if let Some(royal_screen) = &s.pseudo {
            return self.royal_screened_legal(pos, royal_screen, mv);
        }
        // Without royal pieces and played rules, `fully_legal` plays a drop
        // or an en-passant capture only to find it legal (Dobutsu's drops).
        if unusual && mv.special != Special::Castle && self.royal().is_none() && !laws.tested_by_playing() {
            return true;
        }
        if s.all_played || unusual {
            // Out of check, a drop only adds a piece: it opens no attack on
            // our king when every attack needs only empty cells on its path.
            // In check, a drop other than the royal piece's is legal when
            // our king is safe with the piece added: set on the cells alone.
            let plain_drop = mv.special == Special::Drop && !s.all_played && !laws.no_checks && !laws.blast;
            if plain_drop && s.marks.is_some() && self.empty_paths {
                return true;
            }
            if plain_drop && s.king != NO_SQUARE && mv.dropped() != self.royal() {
                return self.drop_keeps_safe(pos, &mv, s.king as usize);
            }
            return self.fully_legal(pos, mv);
        }
        // Without royal pieces (and no rule that plays every move) only the
        // tests above can refuse a move: an explosion endangers nothing
        // (`fully_legal` would play it to find it legal).
        if self.royal().is_none() {
            return true;
        }
        if laws.blast && self.is_capture(pos, &mv) {
            return self.blast_capture_legal(pos, s, &mv).unwrap_or_else(|| self.fully_legal(pos, mv));
        }
        if laws.no_checks {
            let theirs = pos.royal[pos.side ^ 1];
            if self.royal().is_some() && theirs != NO_SQUARE {
                // Unless the move changes a marked square, only the moved
                // piece itself can give check, and its shapes tell exactly.
                let direct = match &s.check_marks {
                    Some(marks) if !touches(marks, &mv, self.empty_paths) => {
                        self.direct_check(pos, &mv, theirs as usize)
                    }
                    _ => None,
                };
                match direct {
                    None if laws.blast => return self.fully_legal(pos, mv),
                    None => return self.no_check_played(pos, s, mv),
                    Some(true) => return false,
                    Some(false) => {}
                }
            }
        }
        if s.king == NO_SQUARE {
            return true;
        }
        let king = s.king as usize;
        let from = mv.from as usize;
        let needs_test = match &s.marks {
            None => true,
            Some(marks) => from == king || touches(marks, &mv, self.empty_paths),
        };
        if !needs_test {
            true
        } else if laws.blast {
            self.fully_legal(pos, mv)
        } else if from == king && from != mv.to as usize && mv.nvictims == 0 {
            self.king_step_safe(pos, from, mv.to as usize, pos.side ^ 1)
        } else if self.board_step(&mv) {
            self.step_keeps_safe(pos, from, mv.to as usize, king)
        } else {
            self.is_legal_slow(pos, mv)
        }
    }

    /// Does `mv` change only its origin and destination cells, as far as
    /// attacks on the mover's king can tell (what the moved piece becomes
    /// is ours, and no attack on our king depends on it)?
    #[inline]
    fn board_step(&self, mv: &Move) -> bool {
        mv.special == Special::None
            && mv.nvictims == 0
            && mv.wall == 0
            && mv.gate == 0
            && mv.from != mv.to
            && self.laws.petrify.is_empty()
    }

    /// A `board_step` of a piece other than the royal one: is `king` safe
    /// once it is made? (Made on the cells alone, without `play`; a
    /// captured piece on `to` attacks nothing from under the mover.)
    fn step_keeps_safe(&self, pos: &mut Position, from: usize, to: usize, king: usize) -> bool {
        let (mover, target) = (pos.cells[from], pos.cells[to]);
        pos.cells[from] = EMPTY;
        pos.cells[to] = mover;
        let attacked = self.attacked_skipping(pos, king, pos.side ^ 1, to);
        pos.cells[from] = mover;
        pos.cells[to] = target;
        !attacked
    }

    /// A drop on the cells alone: is `king` safe with the piece added?
    fn drop_keeps_safe(&self, pos: &mut Position, mv: &Move, king: usize) -> bool {
        let to = mv.to as usize;
        pos.cells[to] = piece_cell(mv.dropped().expect("a drop"), pos.side);
        let attacked = self.attacked(pos, king, pos.side ^ 1);
        pos.cells[to] = EMPTY;
        !attacked
    }

    /// A capture with an explosion, decided without playing it where the
    /// blast only takes pieces off marked-free cells, far from both kings:
    /// taking pieces away opens no attack through an unmarked cell.
    /// `None`: play it.
    fn blast_capture_legal(&self, pos: &Position, s: &Screen, mv: &Move) -> Option<bool> {
        let marks = s.marks.as_ref().filter(|_| !self.laws.no_checks && mv.nvictims == 0)?;
        let (from, to) = (mv.from as usize, mv.to as usize);
        let (us, them) = (pos.side, pos.side ^ 1);
        if from == s.king as usize
            || to == pos.royal[them] as usize
            || self.blast_shielded(pos, to, us)
            || self.blast_shielded(pos, to, them)
        {
            return None;
        }
        let pawn = self.laws.pawn.as_ref().map(|p| p.kind);
        let blasted = self.neighbours().map(|d| (to as isize + d) as usize).into_iter().filter(|&sq| {
            let c = pos.cells[sq];
            c != EMPTY && c != OFF && Some(cell_kind(c)) != pawn
        });
        let opened = marked(marks, from) || marked(marks, to) || blasted.into_iter().any(|sq| marked(marks, sq));
        (!opened).then_some(true)
    }

    /// Plays `mv` (no explosions) and tests that it gives no check and, when
    /// the screen cannot tell, that it leaves the mover's royal piece safe.
    fn no_check_played(&self, pos: &mut Position, s: &Screen, mv: Move) -> bool {
        let us = pos.side;
        let own_test = s.king != NO_SQUARE
            && match &s.marks {
                None => true,
                Some(marks) => mv.from == s.king || touches(marks, &mv, self.empty_paths),
            };
        let played = self.play_untested(pos, mv);
        let (mine, theirs) = (pos.royal[us], pos.royal[us ^ 1]);
        let ok = if s.king != NO_SQUARE && mine == NO_SQUARE {
            false
        } else {
            (theirs == NO_SQUARE || !self.attacked(pos, theirs as usize, us))
                && !(own_test && self.attacked(pos, mine as usize, us ^ 1))
        };
        self.unplay(pos, mv, &played);
        ok
    }

    /// Calls `f` for every legal move of the side to move; `moves` is scratch.
    pub fn for_each_legal_in(&self, pos: &mut Position, moves: &mut Vec<Move>, mut f: impl FnMut(&mut Position, Move)) {
        moves.clear();
        if let Some(st) = self.stone_tables() {
            // A stone game's moves are all legal.
            self.stone_moves(st, pos, moves);
            for &mv in moves.iter() {
                f(pos, mv);
            }
            return;
        }
        if self.game_over(pos) {
            return;
        }
        self.pseudo_legal(pos, moves);
        let screen = self.screen(pos);
        self.emit_legal(pos, &screen, moves, f);
    }

    /// Calls `f` for each legal move of the pseudo-legal `moves` (which it
    /// may reorder and shorten).
    pub(crate) fn emit_legal(
        &self,
        pos: &mut Position,
        screen: &Screen,
        moves: &mut Vec<Move>,
        mut f: impl FnMut(&mut Position, Move),
    ) {
        if self.setup_drops {
            self.keep_must_drops(pos, screen, moves);
        }
        if self.laws.walling.is_some() && !self.laws.must_capture {
            for &mv in moves.iter() {
                if self.screened_legal(pos, screen, mv) {
                    self.wall_each(pos, mv, &mut f);
                }
            }
            return;
        }
        if !self.laws.must_capture {
            for &mv in moves.iter() {
                if self.screened_legal(pos, screen, mv) {
                    f(pos, mv);
                    if self.laws.seirawan_gating {
                        self.gate_each(pos, mv, &mut f);
                    }
                }
            }
            return;
        }
        // Compulsory captures: keep the legal moves, then only the captures
        // if there is one.
        let mut n = 0;
        let mut any_capture = false;
        for i in 0..moves.len() {
            let mv = moves[i];
            if self.screened_legal(pos, screen, mv) {
                any_capture |= self.is_capture(pos, &mv);
                moves[n] = mv;
                n += 1;
            }
        }
        moves.truncate(n);
        for &mv in moves.iter() {
            if !any_capture || self.is_capture(pos, &mv) {
                f(pos, mv);
            }
        }
    }

    /// A plain move of the royal piece: is its destination attacked once it
    /// has left its square? (A captured piece on `to` attacks nothing there:
    /// no shape ends on the attacker's own square.)
    fn king_step_safe(&self, pos: &mut Position, from: usize, to: usize, them: Side) -> bool {
        let (king, target) = (pos.cells[from], pos.cells[to]);
        pos.cells[from] = EMPTY;
        pos.cells[to] = king;
        let attacked = self.attacked_skipping(pos, to, them, to);
        pos.cells[from] = king;
        pos.cells[to] = target;
        !attacked
    }

    /// Calls `f` for every legal move of the side to move.
    pub fn for_each_legal(&self, pos: &mut Position, f: impl FnMut(&mut Position, Move)) {
        let mut moves = Vec::with_capacity(128);
        self.for_each_legal_in(pos, &mut moves, f);
    }

    /// Plays `mv`, tests the mover's royal piece, takes it back.
    pub fn is_legal_slow(&self, pos: &mut Position, mv: Move) -> bool {
        if mv.special == Special::Castle && !self.castling_path_safe(pos, mv) {
            return false;
        }
        let us = pos.side;
        if self.plain_play {
            // No rule acts on playing: the board's `make` is the whole move.
            let (from, to) = (mv.from as usize, mv.to as usize);
            let undo = pos.make(from, to, mv.victims(), self.royal());
            let king = pos.royal[us];
            let ok = king == NO_SQUARE || !self.attacked(pos, king as usize, us ^ 1);
            pos.unmake(from, to, &undo, self.royal());
            return ok;
        }
        let undo = self.play_untested(pos, mv);
        let king = pos.royal[us];
        let ok = king == NO_SQUARE || !self.attacked(pos, king as usize, us ^ 1);
        self.unplay(pos, mv, &undo);
        ok
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&self, pos: &mut Position) -> Vec<Move> {
        let mut out = Vec::new();
        self.for_each_legal(pos, |_, mv| out.push(mv));
        out
    }

    /// The legal moves into `out` (cleared first); `scratch` is scratch.
    pub fn legal_moves_in(&self, pos: &mut Position, scratch: &mut Vec<Move>, out: &mut Vec<Move>) {
        out.clear();
        self.for_each_legal_in(pos, scratch, |_, mv| out.push(mv));
    }
}
