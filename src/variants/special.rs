//! The moves and effects beyond a piece's Betza: pawn double steps, en
//! passant, promotion, castling, explosions, check counts and the game ends
//! that leave no moves. Read from the variant's `Laws`.

use super::board::{cell_kind, cell_side, piece_cell, Position, Side, Undo, EMPTY, NO_SQUARE, OFF, WHITE};
use super::laws::{Extinction, Laws, Mandatory};
use super::movegen::{Move, Special, Tables};

/// What `play` changed, to take it back.
#[derive(Debug, Clone, Copy)]
pub struct Played {
    undo: Undo,
    castle: [[u16; 2]; 2],
    ep: u16,
    checks: [u8; 2],
    /// Pieces removed by an explosion (the capturer first), in order.
    blasted: [(u16, u8); 9],
    nblasted: u8,
}

impl Laws {
    /// With explosions, kings side by side cannot check each other.
    pub fn blast_kings_touch(&self, pos: &Position, g: &super::board::Geometry) -> bool {
        if !self.blast || pos.royal[0] == NO_SQUARE || pos.royal[1] == NO_SQUARE {
            return false;
        }
        let (a, b) = (g.coords(pos.royal[0] as usize), g.coords(pos.royal[1] as usize));
        (a.0 as i8 - b.0 as i8).abs() <= 1 && (a.1 as i8 - b.1 as i8).abs() <= 1
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
        let Some(promotion) = &self.laws.promotion else { return };
        let region = &promotion.region[us];
        let mut i = start;
        let end = out.len();
        if !out[start..].iter().any(|mv| region.has(mv.to as usize)) {
            return;
        }
        let mut keep = Vec::new();
        while i < end {
            let mv = out[i];
            i += 1;
            let to = mv.to as usize;
            if !region.has(to) {
                keep.push(mv);
                continue;
            }
            for &kind in &promotion.kinds[us] {
                let limit = promotion.limit.get(kind).copied().unwrap_or(0);
                if limit > 0 && self.count(pos, us, kind) >= limit as usize {
                    continue;
                }
                keep.push(Move { promo: kind as u8 + 1, ..mv });
            }
            let stays = match promotion.mandatory {
                Mandatory::Always => false,
                Mandatory::Never => true,
                Mandatory::UnlessStuck => pos.cells[(to as isize + up) as usize] != OFF,
            };
            if stays {
                keep.push(mv);
            }
        }
        out.truncate(start);
        out.extend(keep);
    }

    /// The pieces of `kind` that `side` has.
    pub(crate) fn count(&self, pos: &Position, side: Side, kind: usize) -> usize {
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
            return true;
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
        let played = self.play_untested(pos, mv);
        let us = pos.side ^ 1;
        if self.laws.check_counting && pos.royal[pos.side] != NO_SQUARE {
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
            checks: pos.checks,
            blasted: [(0, 0); 9],
            nblasted: 0,
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
                pos.cells[to] = piece_cell(kind, us);
            }
            if self.laws.blast && played.undo.ncaptured > 0 {
                self.explode(pos, to, &mut played);
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
        pos.ep = if rush { ((from as isize + to as isize) / 2) as u16 } else { NO_SQUARE };
        played
    }

    /// Removes the capturer on `at` and every piece but pawns next to it.
    fn explode(&self, pos: &mut Position, at: usize, played: &mut Played) {
        let pawn = self.laws.pawn.as_ref().map(|p| p.kind);
        let s = self.geometry().stride as isize;
        let mut take = |pos: &mut Position, sq: usize| {
            let cell = pos.lift(sq);
            played.blasted[played.nblasted as usize] = (sq as u16, cell);
            played.nblasted += 1;
        };
        take(pos, at);
        for d in [-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1] {
            let sq = (at as isize + d) as usize;
            let c = pos.cells[sq];
            if c != EMPTY && c != OFF && Some(cell_kind(c)) != pawn {
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
            for &(sq, cell) in played.blasted[..played.nblasted as usize].iter().rev() {
                pos.put(sq as usize, cell, royal == Some(cell_kind(cell)));
            }
            if mv.promo != 0 {
                pos.cells[to] = played.undo.moved;
            }
            pos.unmake(from, to, &played.undo, royal);
        }
        pos.castle = played.castle;
        pos.ep = played.ep;
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
                && royals.into_iter().any(|sq| self.attacked(pos, sq, us ^ 1));
            if exposed {
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
        if self.laws.blast && pos.royal[by] != NO_SQUARE {
            let s = self.geometry().stride as isize;
            let d = sq as isize - pos.royal[by] as isize;
            if [-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1].contains(&d) {
                return false;
            }
        }
        self.attacked(pos, sq, by)
    }
}
