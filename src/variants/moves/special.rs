//! The moves and effects beyond a piece's Betza: pawn double steps, en
//! passant, promotion, castling, explosions, check counts and the game ends
//! that leave no moves. Read from the variant's `Laws`.

use super::movegen::{Move, Special, Tables};
use crate::variants::board::{cell_kind, cell_side, piece_cell, Position, Side, Undo, EMPTY, NO_SQUARE, OFF, WHITE};
use crate::variants::rules::laws::{Extinction, Laws, Mandatory, PawnLaws, Rushes};

/// What `play` changed, to take it back.
#[derive(Debug, Clone, Copy)]
pub struct Played {
    undo: Undo,
    castle: [[u16; 2]; 2],
    ep: u16,
    ep_victim: u16,
    gates: [u16; 2],
    checks: [u8; 2],
    /// Pieces removed by an explosion (the capturer first), in order
    /// (cells widened as in `Undo::captured`).
    blasted: [(u16, u16); 9],
    nblasted: u8,
    /// The capturer turned to stone (`blasted[0]`; a wall on its square).
    petrified: bool,
}

impl Laws {
    /// With explosions, kings side by side cannot check each other.
    pub fn blast_kings_touch(&self, pos: &Position, g: &crate::variants::board::Geometry) -> bool {
        if !self.blast || pos.royal[0] == NO_SQUARE || pos.royal[1] == NO_SQUARE {
            return false;
        }
        let (a, b) = (g.coords(pos.royal[0] as usize), g.coords(pos.royal[1] as usize));
        (a.0 as i8 - b.0 as i8).abs() <= 1 && (a.1 as i8 - b.1 as i8).abs() <= 1
    }

    /// Rules that only playing a move can test (pseudo-royal pieces,
    /// `makpongRule`, `mutuallyImmuneTypes`, petrification): the screen
    /// then plays every move, and `fully_legal` applies them.
    pub(crate) fn tested_by_playing(&self) -> bool {
        self.pseudo_royal().is_some() || self.makpong || self.mutually_immune != 0 || !self.petrify.is_empty()
    }

    /// The extinction rules when their pieces are pseudo-royal.
    pub(crate) fn pseudo_royal(&self) -> Option<&Extinction> {
        self.extinction.as_ref().filter(|e| e.pseudo_royal)
    }
}

impl Tables {
    /// One step forward for `side`'s pawns, as a cell offset.
    fn forward(&self, side: Side) -> isize {
        let s = self.geometry().stride as isize;
        if side == WHITE {
            s
        } else {
            -s
        }
    }

    /// Double and triple steps, en passant, then promotion of the pawn
    /// moves from `start` on.
    pub(crate) fn pawn_extras(&self, pos: &Position, from: usize, start: usize, out: &mut Vec<Move>) {
        let Some(pawn) = &self.laws.pawn else { return };
        let us = pos.side;
        let up = self.forward(us);
        if pawn.betza {
            self.betza_pawn_extras(pos, pawn, from, start, out);
            return self.promotions(pos, start, out);
        }
        let step = |sq: usize| (sq as isize + up) as usize;
        for (region, n) in [(&pawn.double_step[us], 2), (&pawn.triple_step[us], 3)] {
            if !region.has(from) {
                continue;
            }
            let mut sq = from;
            let mut clear = true;
            for _ in 0..n {
                sq = step(sq);
                clear &= pos.cells[sq] == EMPTY;
            }
            if clear {
                out.push(Move { special: Special::PawnRush, ..Move::plain(from, sq) });
            }
        }
        self.en_passant(pos, from, out);
        self.promotions(pos, start, out);
    }

    /// The built-in pawn's capture en passant from `from`, if it has one.
    #[inline]
    pub(crate) fn en_passant(&self, pos: &Position, from: usize, out: &mut Vec<Move>) {
        let Some(pawn) = &self.laws.pawn else { return };
        let us = pos.side;
        let up = self.forward(us);
        if pos.ep != NO_SQUARE && pawn.ep_region[us].has(pos.ep as usize) {
            let ep = pos.ep as usize;
            let victim = (ep as isize - up) as usize;
            if (from as isize + 1 == victim as isize || from as isize - 1 == victim as isize)
                && pos.cells[victim] != EMPTY
                && pos.cells[victim] != OFF
                && cell_side(pos.cells[victim]) != us
            {
                let mut mv = Move { special: Special::EnPassant, ..Move::plain(from, ep) };
                mv.victims[0] = victim as u16;
                mv.nvictims = 1;
                out.push(mv);
            }
        }
    }

    /// A Betza pawn: its mobility region, its `i` steps marked as rushes,
    /// and en passant with its capture-only moves (Fairy-Stockfish's
    /// `attacks & ~quiets & ep_squares`).
    fn betza_pawn_extras(&self, pos: &Position, pawn: &PawnLaws, from: usize, start: usize, out: &mut Vec<Move>) {
        let us = pos.side;
        let mobility = &pawn.mobility[us];
        let mut keep = start;
        for j in start..out.len() {
            if mobility.has(out[j].to as usize) {
                out[keep] = out[j];
                keep += 1;
            }
        }
        out.truncate(keep);
        if let Some(rushes) = pawn.rushes[us].get(from).filter(|r| !r.is_empty()) {
            for mv in &mut out[start..] {
                if rushes.iter().any(|&(to, _)| to == mv.to) {
                    mv.special = Special::PawnRush;
                }
            }
        }
        let ep = pos.ep as usize;
        if !pawn.takes_ep
            || pos.ep == NO_SQUARE
            || !pawn.ep_region[us].has(ep)
            || !mobility.has(ep)
            || pos.cells[ep] != EMPTY
            || out[start..].iter().any(|m| m.to == pos.ep)
        {
            return;
        }
        let Some(victim) = self.ep_victim(pos) else { return };
        let mut cells = pos.cells.clone();
        cells[ep] = pos.cells[victim];
        let mut reach = Vec::new();
        self.destinations(&mut cells, from, None, &mut reach);
        if reach.contains(&pos.ep) {
            let mut mv = Move { special: Special::EnPassant, ..Move::plain(from, ep) };
            mv.victims[0] = victim as u16;
            mv.nvictims = 1;
            out.push(mv);
        }
    }

    /// The piece an en-passant capture on `pos.ep` takes: the one that
    /// passed over it when known, else (as Fairy-Stockfish) the nearest
    /// enemy piece behind the square.
    fn ep_victim(&self, pos: &Position) -> Option<usize> {
        let us = pos.side;
        let enemy = |sq: usize| pos.cells[sq] != EMPTY && pos.cells[sq] != OFF && cell_side(pos.cells[sq]) != us;
        if pos.ep_victim != NO_SQUARE && enemy(pos.ep_victim as usize) {
            return Some(pos.ep_victim as usize);
        }
        let back = -self.forward(us);
        let mut sq = pos.ep as usize;
        loop {
            sq = (sq as isize + back) as usize;
            if pos.cells[sq] == OFF {
                return None;
            }
            if enemy(sq) {
                return Some(sq);
            }
        }
    }

    /// A Betza pawn's rush table (`PawnLaws::rushes`): the destinations of
    /// its `i` moves that its other moves do not reach, on an empty board.
    pub(crate) fn betza_rushes(&self, kind: usize) -> Result<Rushes, String> {
        let g = *self.geometry();
        let mut table = [vec![Vec::new(); g.cells], vec![Vec::new(); g.cells]];
        for (side, rows) in table.iter_mut().enumerate() {
            for from in g.squares() {
                let mut cells = g.empty_cells();
                cells[from] = piece_cell(kind, side);
                let (mut with, mut without) = (Vec::new(), Vec::new());
                self.destinations(&mut cells, from, Some(true), &mut with);
                self.destinations(&mut cells, from, Some(false), &mut without);
                for to in with {
                    if without.contains(&to) || rows[from].iter().any(|&(t, _)| t == to) {
                        continue;
                    }
                    let passed = passed_square(&g, from, to as usize).ok_or_else(|| {
                        format!(
                            "the pawn's initial move {}{} passes more than one square: en passant after it is not \
                             implemented",
                            g.name(from),
                            g.name(to as usize)
                        )
                    })?;
                    rows[from].push((to, passed));
                }
            }
        }
        Ok(table)
    }

    /// The en-passant squares a pawn rush from `from` to `to` leaves: the
    /// square passed over and, for a Betza pawn, the pawn's own square (as
    /// Fairy-Stockfish marks it), each where the opponent may take e.p.
    fn rush_ep(&self, us: Side, from: usize, to: usize) -> (u16, u16) {
        match &self.laws.pawn {
            Some(pawn) if pawn.betza => {
                let passed = pawn.rushes[us].get(from).and_then(|r| r.iter().find(|&&(t, _)| t as usize == to));
                let region = &pawn.ep_region[us ^ 1];
                let keep = |sq: u16| if sq != NO_SQUARE && region.has(sq as usize) { sq } else { NO_SQUARE };
                (keep(passed.map_or(NO_SQUARE, |&(_, p)| p)), keep(to as u16))
            }
            // As Fairy-Stockfish, no square where the opponent may not take (spartan: nowhere).
            Some(pawn) => {
                let passed = (from + to) / 2;
                (if pawn.ep_region[us ^ 1].has(passed) { passed as u16 } else { NO_SQUARE }, NO_SQUARE)
            }
            None => (((from + to) / 2) as u16, NO_SQUARE),
        }
    }

    /// Promotion of the moves from `start` on of a pawn, or of a kind
    /// that promotes as one (`promotionPawnTypes`).
    pub(crate) fn promotions(&self, pos: &Position, start: usize, out: &mut Vec<Move>) {
        let Some(promotion) = &self.laws.promotion else { return };
        let us = pos.side;
        let up = self.forward(us);
        let pawn = self.laws.pawn.as_ref().map(|p| p.kind);
        let region = &promotion.region[us];
        let end = out.len();
        if !out[start..].iter().any(|mv| region.has(mv.to as usize)) {
            return;
        }
        // The moves as they stay or promote go after `end`, then take the
        // place of `start..end` (no list of their own to allocate).
        for i in start..end {
            let mv = out[i];
            let to = mv.to as usize;
            if !region.has(to) {
                out.push(mv);
                continue;
            }
            for &kind in &promotion.kinds[us] {
                let limit = promotion.limit.get(kind).copied().unwrap_or(0);
                if limit > 0 && self.count(pos, us, kind) >= limit as usize {
                    continue;
                }
                out.push(Move { promo: kind as u8 + 1, ..mv });
            }
            // Fairy-Stockfish's `promotedPieceType` of the pawn: one more
            // promotion, printed `+`, with no limit.
            if let Some(kind) = promotion.pawn_piece_promotion {
                if pawn == Some(cell_kind(pos.cells[mv.from as usize])) {
                    out.push(Move { promo: kind as u8 + 1, ..mv });
                }
            }
            let stays = match promotion.mandatory {
                Mandatory::Always => false,
                Mandatory::Never => true,
                Mandatory::UnlessStuck => pos.cells[(to as isize + up) as usize] != OFF,
            };
            if stays {
                out.push(mv);
            }
        }
        out.drain(start..end);
    }

    /// The pieces of `kind` that `side` has.
    pub(crate) fn count(&self, pos: &Position, side: Side, kind: usize) -> usize {
        if self.royal() == Some(kind) {
            // A side has at most one royal piece (the FEN reader refuses more).
            return usize::from(pos.royal[side] != NO_SQUARE);
        }
        pos.lists[side].iter().filter(|&&sq| cell_kind(pos.cells[sq as usize]) == kind).count()
    }

    /// The king's and the rook's destinations castling with the rook on `rook`.
    pub(crate) fn castling_targets(&self, side: Side, king: usize, rook: usize) -> (usize, usize) {
        let c = self.laws.castling.as_ref().expect("castling rules");
        let g = self.geometry();
        let rank = if side == WHITE { c.rank } else { g.height - 1 - c.rank };
        let kingside = rook > king;
        let kto = g.cell(if kingside { c.kingside_file } else { c.queenside_file }, rank);
        let rto = if kingside { kto - 1 } else { kto + 1 };
        (kto, rto)
    }

    /// The kind that castles as the king without being royal (giveaway's
    /// commoner), if any.
    pub(crate) fn plain_castling_king(&self) -> Option<usize> {
        let kind = self.laws.castling.as_ref()?.king_kind?;
        (self.royal() != Some(kind)).then_some(kind)
    }

    /// The cell of `side`'s castling king, or `NO_SQUARE`.
    pub(crate) fn castling_king(&self, pos: &Position, side: Side) -> u16 {
        if self.plain_castling_king().is_some() {
            pos.castle_king[side]
        } else {
            pos.royal[side]
        }
    }

    /// Castling moves whose squares are free (attacks are tested later).
    pub(crate) fn castlings(&self, pos: &Position, out: &mut Vec<Move>) {
        if self.laws.castling.is_none() {
            return;
        }
        let us = pos.side;
        let king = self.castling_king(pos, us);
        if king == NO_SQUARE {
            return;
        }
        let king = king as usize;
        for rook in pos.castle[us] {
            if rook == NO_SQUARE {
                continue;
            }
            let rook = rook as usize;
            let (kto, rto) = self.castling_targets(us, king, rook);
            let span = |a: usize, b: usize| a.min(b)..=a.max(b);
            let free =
                span(king, kto).chain(span(rook, rto)).all(|sq| sq == king || sq == rook || pos.cells[sq] == EMPTY);
            if free {
                out.push(Move { special: Special::Castle, ..Move::plain(king, rook) });
            }
        }
    }

    /// The king is not in check and crosses no attacked square (its
    /// destination included) on the board before castling.
    pub(crate) fn castling_path_safe(&self, pos: &mut Position, mv: Move) -> bool {
        // A king that is not royal castles through attacks (Fairy-Stockfish's
        // `Position::legal`: "Non-royal pieces can not be impeded from castling").
        if self.plain_castling_king().is_some() {
            return !self.is_pseudo_royal(pos, mv.from as usize) || self.pseudo_royal_castling_safe(pos, mv);
        }
        let us = pos.side;
        let (king, rook) = (mv.from as usize, mv.to as usize);
        let (kto, _) = self.castling_targets(us, king, rook);
        if self.royal_attacked(pos, king, us ^ 1) {
            return false;
        }
        let cell = pos.cells[king];
        let (lo, hi) = (king.min(kto), king.max(kto));
        for sq in lo..=hi {
            if sq == king {
                continue;
            }
            let before = pos.cells[sq];
            pos.cells[sq] = cell;
            let hit = self.royal_attacked(pos, sq, us ^ 1);
            pos.cells[sq] = before;
            if hit {
                return false;
            }
        }
        true
    }

    /// Plays a move with all its effects.
    pub fn play(&self, pos: &mut Position, mv: Move) -> Played {
        self.play_counting(pos, mv, true)
    }

    /// `play` before a position that is only counted (perft's last ply):
    /// a check is looked for only where it ends the game (`game_over`
    /// reads that count); other counts stay stale until `unplay`.
    pub(crate) fn play_to_count(&self, pos: &mut Position, mv: Move) -> Played {
        self.play_counting(pos, mv, false)
    }

    /// `play`; `every_check`: count every check given, else only a last one.
    #[inline]
    fn play_counting(&self, pos: &mut Position, mv: Move, every_check: bool) -> Played {
        let last_check = pos.checks[pos.side] == 1;
        let played = self.play_untested(pos, mv);
        let us = pos.side ^ 1;
        if self.laws.check_counting && (every_check || last_check) && pos.royal[pos.side] != NO_SQUARE {
            let king = pos.royal[pos.side] as usize;
            if self.attacked(pos, king, us) {
                pos.checks[us] = pos.checks[us].saturating_sub(1);
            }
        }
        played
    }

    /// `play` without counting checks: for legality tests, which take the
    /// move back at once.
    pub(crate) fn play_untested(&self, pos: &mut Position, mv: Move) -> Played {
        let us = pos.side;
        let mut played = Played {
            undo: Undo { moved: pos.cells[mv.from as usize], captured: [(0, 0); 4], ncaptured: 0 },
            castle: pos.castle,
            ep: pos.ep,
            ep_victim: pos.ep_victim,
            gates: pos.gates,
            checks: pos.checks,
            blasted: [(0, 0); 9],
            nblasted: 0,
            petrified: false,
        };
        let (from, to) = (mv.from as usize, mv.to as usize);
        if mv.special == Special::Castle {
            let (kto, rto) = self.castling_targets(us, from, to);
            let king = pos.lift(from);
            let rook = pos.lift(to);
            pos.put(kto, king, self.royal() == Some(cell_kind(king)));
            pos.put(rto, rook, false);
            pos.side ^= 1;
            pos.castle[us] = [NO_SQUARE; 2];
        } else {
            played.undo = pos.make(from, to, mv.victims(), self.royal());
            if let Some(kind) = mv.promotion() {
                pos.set_piece(to, piece_cell(kind, us));
            }
            if self.laws.blast && played.undo.ncaptured > 0 {
                self.explode(pos, to, &mut played);
            } else if played.undo.ncaptured > 0 && self.laws.petrify.contains(&cell_kind(played.undo.moved)) {
                // The capturer turns to stone: a wall where it stands.
                played.blasted[0] = (to as u16, u16::from(pos.lift(to)));
                played.nblasted = 1;
                played.petrified = true;
                pos.cells[to] = OFF;
            }
            for side in 0..2 {
                if pos.castle[side] == [NO_SQUARE; 2] {
                    continue;
                }
                for wing in 0..2 {
                    let rook = pos.castle[side][wing] as usize;
                    if rook == NO_SQUARE as usize {
                        continue;
                    }
                    if rook == from || rook == to || pos.cells[rook] == EMPTY {
                        pos.castle[side][wing] = NO_SQUARE;
                    }
                }
                let king_gone = if self.plain_castling_king().is_some() {
                    let king = pos.castle_king[side] as usize;
                    king != NO_SQUARE as usize && (king == from || king == to || pos.cells[king] == EMPTY)
                } else {
                    pos.royal[side] == NO_SQUARE || (side == us && self.royal() == Some(cell_kind(played.undo.moved)))
                };
                if king_gone {
                    pos.castle[side] = [NO_SQUARE; 2];
                }
            }
        }
        // A rush that promotes (torpedo: b3b1q) leaves no pawn to take en passant.
        let rush = mv.special == Special::PawnRush && mv.promo == 0;
        if self.laws.cambodian.is_some() {
            self.close_gates(pos, mv, us);
        }
        (pos.ep, pos.ep_victim) = if rush {
            self.rush_ep(us, from, to)
        } else if self.initial_rush(played.undo.moved, from, to) {
            // A sergeant's two-square first move (wolf) may be taken en
            // passant like a pawn's rush; the victim is found as for a pawn.
            (((from as isize + to as isize) / 2) as u16, NO_SQUARE)
        } else {
            (NO_SQUARE, NO_SQUARE)
        };
        played
    }

    /// Fairy-Stockfish: a two-square move that only an unmoved piece has
    /// (the wolf sergeant's `ifmnD`) may be taken en passant by a pawn on
    /// the square it passed (`Position::do_move`).
    fn initial_rush(&self, moved: u8, from: usize, to: usize) -> bool {
        let rushes = &self.laws.initial_rushes;
        if rushes.is_empty() || moved == EMPTY {
            return false;
        }
        let side = cell_side(moved);
        let key = (cell_kind(moved) as u16, from as u16, to as u16);
        let mid = (from + to) / 2;
        rushes[side].binary_search(&key).is_ok()
            && self.laws.pawn.as_ref().is_some_and(|p| p.ep_region[side ^ 1].has(mid))
    }

    /// Removes the capturer on `at` and every piece but pawns next to it.
    fn explode(&self, pos: &mut Position, at: usize, played: &mut Played) {
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

    /// Takes back a move made by `play`.
    pub fn unplay(&self, pos: &mut Position, mv: Move, played: &Played) {
        let (from, to) = (mv.from as usize, mv.to as usize);
        if mv.special == Special::Castle {
            let us = pos.side ^ 1;
            let (kto, rto) = self.castling_targets(us, from, to);
            let king = pos.lift(kto);
            let rook = pos.lift(rto);
            pos.put(from, king, self.royal() == Some(cell_kind(king)));
            pos.put(to, rook, false);
            pos.side = us;
        } else {
            let royal = self.royal();
            if played.petrified {
                pos.cells[to] = EMPTY;
            }
            for &(sq, cell) in played.blasted[..played.nblasted as usize].iter().rev() {
                let cell = cell as u8;
                pos.put(sq as usize, cell, royal == Some(cell_kind(cell)));
            }
            if mv.promo != 0 {
                pos.set_piece(to, played.undo.moved);
            }
            pos.unmake(from, to, &played.undo, royal);
        }
        pos.castle = played.castle;
        pos.ep = played.ep;
        pos.ep_victim = played.ep_victim;
        pos.gates = played.gates;
        pos.checks = played.checks;
    }

    /// Has a rule ended the game before the side to move moves? (Then it
    /// has no moves, as Fairy-Stockfish's `go perft` counts.)
    pub(crate) fn game_over(&self, pos: &Position) -> bool {
        let laws = &self.laws;
        let us = pos.side;
        let them = us ^ 1;
        // Pseudo-royal pieces are never captured, so extinction does not
        // end the game (Fairy-Stockfish's `is_immediate_game_end`).
        if let Some(ext) = laws.extinction.as_ref().filter(|e| !e.pseudo_royal || laws.blast) {
            for c in [them, us] {
                let claim = u8::from(ext.claim && c == us) as usize;
                let (mine, theirs) = (pos.lists[c].len(), pos.lists[c ^ 1].len());
                if ext.all && mine <= ext.count as usize && theirs >= ext.opponent_count as usize + claim {
                    return true;
                }
                for &kind in &ext.kinds {
                    if self.count(pos, c, kind) <= ext.count as usize
                        && self.count(pos, c ^ 1, kind) >= ext.opponent_count as usize + claim
                    {
                        return true;
                    }
                }
            }
        }
        if let Some(flag) = &laws.flag {
            let reached = |c: Side| {
                pos.lists[c]
                    .iter()
                    .any(|&sq| cell_kind(pos.cells[sq as usize]) == flag.kind && flag.region[c].has(sq as usize))
            };
            // Fairy-Stockfish: with flag moves (racing kings, jesonmor) the
            // flag piece must also survive the reply, except that Black's
            // king may still draw by reaching the flag itself.
            let early = !flag.flag_move || self.royal() == Some(flag.kind);
            if early && reached(them) && !(flag.flag_move && us != WHITE && self.may_follow_to_flag(pos)) {
                return true;
            }
            if flag.flag_move && reached(us) {
                return true;
            }
        }
        if laws.check_counting && pos.checks[them] == 0 {
            return true;
        }
        false
    }

    /// Racing kings: after White reached the flag, can Black's flag piece
    /// reach it too with a legal move (then the game goes on one move)?
    fn may_follow_to_flag(&self, pos: &Position) -> bool {
        let flag = self.laws.flag.as_ref().expect("flag rules");
        let us = pos.side;
        let mut p = pos.clone();
        let mut moves = Vec::new();
        self.pseudo_legal(&mut p, &mut moves);
        moves.into_iter().any(|mv| {
            cell_kind(pos.cells[mv.from as usize]) == flag.kind
                && mv.special == Special::None
                && flag.region[us].has(mv.to as usize)
                && self.is_legal_slow(&mut p, mv)
        })
    }

    /// A move is legal: the mover's royal piece survives unattacked (with
    /// explosions: both kings' fates), and it gives no check where checks
    /// are not allowed.
    pub(crate) fn fully_legal(&self, pos: &mut Position, mv: Move) -> bool {
        if mv.special == Special::Castle && !self.castling_path_safe(pos, mv) {
            return false;
        }
        let played_rules = self.laws.tested_by_playing();
        if played_rules && (self.forbidden_before_playing(pos, mv) || self.petrifies_pseudo_royal(pos, mv)) {
            return false;
        }
        let us = pos.side;
        let had_king = pos.royal[us] != NO_SQUARE;
        let pseudo = self.laws.pseudo_royal().map(|e| {
            let promoted = mv.promotion().filter(|k| e.kinds.contains(k)).map(|k| (k, self.count(pos, us, k)));
            let theirs = self.pseudo_royal_kinds(pos, us ^ 1, e);
            (e, self.pseudo_royal_kinds(pos, us, e), theirs, self.count_kinds(pos, us ^ 1, theirs), promoted)
        });
        let played = self.play_untested(pos, mv);
        if let Some((e, mut mine, theirs, before, promoted)) = pseudo {
            // Taking a pseudo-royal piece needs no further test; a promotion
            // that makes one kind too many takes that kind's royalty away.
            if let Some((kind, _)) = promoted.filter(|&(_, n)| n > e.count as usize) {
                mine &= !(1 << kind);
            }
            let royals: Vec<usize> = pos.lists[us]
                .iter()
                .map(|&sq| sq as usize)
                .filter(|&sq| mine >> cell_kind(pos.cells[sq]) & 1 == 1)
                .collect();
            let exposed = self.count_kinds(pos, us ^ 1, theirs) == before
                && royals.into_iter().any(|sq| self.pseudo_royal_attacked(pos, sq, us ^ 1));
            if exposed || (e.duple_check && self.duple_checked(pos, us, e)) {
                self.unplay(pos, mv, &played);
                return false;
            }
        }
        let mine = pos.royal[us];
        let theirs = pos.royal[us ^ 1];
        let ok = if self.royal().is_none() {
            true
        } else if had_king && mine == NO_SQUARE {
            false
        } else if self.laws.blast && theirs == NO_SQUARE {
            true
        } else {
            let safe = mine == NO_SQUARE || self.blast_safe(pos, mine as usize, us);
            safe && !(self.laws.no_checks && theirs != NO_SQUARE && self.attacked(pos, theirs as usize, us))
        };
        self.unplay(pos, mv, &played);
        ok
    }

    /// Fairy-Stockfish's `Position::legal` rules that look at the board
    /// before the move: a kind may not take its own kind
    /// (`mutuallyImmuneTypes`), and with `makpongRule` a king in check may
    /// move only to take its one checker.
    fn forbidden_before_playing(&self, pos: &mut Position, mv: Move) -> bool {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let (mover, target) = (pos.cells[from], pos.cells[to]);
        let us = pos.side;
        if self.laws.mutually_immune >> cell_kind(mover) & 1 == 1
            && mv.special != Special::Castle
            && target != EMPTY
            && cell_side(target) != us
            && cell_kind(target) == cell_kind(mover)
        {
            return true;
        }
        let king = pos.royal[us] as usize;
        self.laws.makpong
            && pos.royal[us] != NO_SQUARE
            && from == king
            && self.attacked(pos, king, us ^ 1)
            && self.attacked_skipping(pos, king, us ^ 1, to)
    }

    /// The kinds whose pieces are pseudo-royal for `side`, as a mask: those
    /// with at most one more than the extinction count on the board.
    fn pseudo_royal_kinds(&self, pos: &Position, side: Side, e: &Extinction) -> u64 {
        e.kinds.iter().filter(|&&k| self.count(pos, side, k) <= e.count as usize + 1).fold(0, |m, &k| m | 1 << k)
    }

    /// How many pieces of the kinds in `mask` `side` has.
    fn count_kinds(&self, pos: &Position, side: Side, mask: u64) -> usize {
        pos.lists[side].iter().filter(|&&sq| mask >> cell_kind(pos.cells[sq as usize]) & 1 == 1).count()
    }

    /// Is the king of `us` on `king` safe?
    fn blast_safe(&self, pos: &mut Position, king: usize, us: Side) -> bool {
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

/// The one square a straight or diagonal step from `from` to `to` passes
/// over (`NO_SQUARE`: none, or a bent leap); `None` if it passes several.
fn passed_square(g: &crate::variants::board::Geometry, from: usize, to: usize) -> Option<u16> {
    let ((fx, fy), (tx, ty)) = (g.coords(from), g.coords(to));
    let (dx, dy) = (tx as i8 - fx as i8, ty as i8 - fy as i8);
    let n = dx.abs().max(dy.abs());
    if !(dx == 0 || dy == 0 || dx.abs() == dy.abs()) || n < 2 {
        return Some(NO_SQUARE);
    }
    (n == 2).then(|| g.cell((fx as i8 + dx / 2) as u8, (fy as i8 + dy / 2) as u8) as u16)
}

impl Tables {
    /// Is the piece on `sq` pseudo-royal (an extinction piece of a kind its
    /// side has at most one more of than the extinction count)?
    fn is_pseudo_royal(&self, pos: &Position, sq: usize) -> bool {
        let Some(e) = self.laws.pseudo_royal() else { return false };
        let kind = cell_kind(pos.cells[sq]);
        e.kinds.contains(&kind) && self.count(pos, cell_side(pos.cells[sq]), kind) <= e.count as usize + 1
    }

    /// Duple check (Fairy-Stockfish's `dupleCheck` in `Position::legal`):
    /// `side` has extinction pieces and every one of them is attacked,
    /// whatever their number (spartan's two kings; one that is not
    /// pseudo-royal still counts). Captures of pseudo-royal pieces do not
    /// excuse it.
    fn duple_checked(&self, pos: &mut Position, side: Side, e: &Extinction) -> bool {
        let mut any = false;
        for i in 0..pos.lists[side].len() {
            let sq = pos.lists[side][i] as usize;
            if e.kinds.contains(&cell_kind(pos.cells[sq])) {
                if !self.pseudo_royal_attacked(pos, sq, side ^ 1) {
                    return false;
                }
                any = true;
            }
        }
        any
    }

    /// A capture that would turn a pseudo-royal piece to stone (petrified's
    /// king may not capture: Fairy-Stockfish's `Position::legal`).
    fn petrifies_pseudo_royal(&self, pos: &Position, mv: Move) -> bool {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let captures = mv.special == Special::EnPassant
            || mv.nvictims > 0
            || (mv.special != Special::Castle && to != from && pos.cells[to] != EMPTY);
        captures && self.laws.petrify.contains(&cell_kind(pos.cells[from])) && self.is_pseudo_royal(pos, from)
    }

    /// Is a pseudo-royal piece on `sq` attacked by `by`? `by`'s pieces that
    /// would turn to stone capturing it and are extinction pieces (petrified's
    /// kings) do not count; they still block as pieces do.
    fn pseudo_royal_attacked(&self, pos: &mut Position, sq: usize, by: Side) -> bool {
        let laws = &self.laws;
        let Some(e) = laws.pseudo_royal().filter(|_| !laws.petrify.is_empty()) else {
            return self.attacked(pos, sq, by);
        };
        let stone: Vec<usize> = pos.lists[by]
            .iter()
            .map(|&s| s as usize)
            .filter(|&s| e.kinds.contains(&cell_kind(pos.cells[s])) && laws.petrify.contains(&cell_kind(pos.cells[s])))
            .collect();
        let cells: Vec<u8> = stone.iter().map(|&s| pos.lift(s)).collect();
        for &s in &stone {
            pos.cells[s] = OFF;
        }
        let hit = self.attacked(pos, sq, by);
        for (&s, &cell) in stone.iter().zip(&cells).rev() {
            pos.cells[s] = EMPTY;
            pos.put(s, cell, self.royal() == Some(cell_kind(cell)));
        }
        hit
    }

    /// A pseudo-royal king castles neither out of nor through an attack, by
    /// any enemy piece, from its square up to (not including) its
    /// destination (Fairy-Stockfish's `Position::legal`; the destination is
    /// then tested as for any move).
    fn pseudo_royal_castling_safe(&self, pos: &mut Position, mv: Move) -> bool {
        let us = pos.side;
        let (king, rook) = (mv.from as usize, mv.to as usize);
        let (kto, _) = self.castling_targets(us, king, rook);
        let cell = pos.cells[king];
        pos.cells[king] = EMPTY;
        let path: Vec<usize> = if king < kto { (king..kto).collect() } else { (kto + 1..=king).collect() };
        let safe = path.into_iter().all(|sq| !self.attacked(pos, sq, us ^ 1));
        pos.cells[king] = cell;
        safe
    }
}
