//! The counting recursion: a node either popcounts the generator's target
//! sets (`Counter`) or makes each move and counts below it (`Walk`); with a
//! hash table, nodes above the last ply probe and fill it, and list their
//! children first so that the children's buckets are fetched ahead.

use super::board::{bits, Board, Side, BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use super::generate::{
    generate, generate_for, king_of, knight_attacks, on_diagonals, on_lines, pawn_attacks, Sink, Threats, CAPTURE,
    PROMOTION, PUSH,
};
use super::lookups::{bishop_rays, castling_squares, kings, knights, pawn_hits, ray, ray_ends, rook_rays, Sliders};
use super::make::{make_castle, make_en_passant, make_pawn, make_piece, make_promotion};
use super::Children;
use crate::perft::HashTable;
use std::marker::PhantomData;

/// Leaf nodes `depth` plies below `b` (side `S`, sliders `A`); `key` is
/// `b`'s Zobrist key, read only with a table.
#[inline(always)]
pub(super) fn node<S: Side, A: Sliders>(b: &Board, key: u64, depth: u32, tt: Option<&HashTable>) -> u64 {
    match (depth, tt) {
        (0, _) => 1,
        (1, _) => {
            let king = king_of::<S>(b);
            A::leaves::<S>(b, king, Threats::of::<S>(b, king))
        }
        (2, None) => walk::<S, A, true>(b, 1),
        (_, None) => walk::<S, A, false>(b, depth - 1),
        (_, Some(t)) => {
            if let Some(hit) = t.probe(key, depth) {
                return hit;
            }
            let nodes = if depth == 2 { walk::<S, A, true>(b, 1) } else { hashed_children::<S, A>(b, key, depth, t) };
            t.store(key, depth, nodes);
            nodes
        }
    }
}

/// Makes every move of `b` and counts `depth` plies below each child.
///
/// A leaf's parent picks one of four copies by whether its own bishops or
/// queens (`DIAGONALS`), and rooks or queens (`LINES`), stand on a line
/// through the enemy king. Where none of a kind does, a child can meet one
/// there only if its move brought it (a discovery needs a slider on the line
/// already), so most children skip that half of their checker and pin pass.
///
/// Why: the choice is made once per parent, so the children's code has no
/// branch for it (made per child, the same choice measured 1.000x). Among
/// the leaves' parents, none of the mover's sliders is on a line through the
/// enemy king in 100% at the start position, 92% on Kiwipete, 84% on pos5,
/// 64% on pos3, and no bishop or queen on a diagonal in 70% on pos4
/// (python-chess, a few plies deep). Against one copy: startpos d6
/// 1.061x, Kiwipete d5 1.004x, pos3 d7 1.046x, pos4 d6 1.006x, pos5 d5 1.030x,
/// geometric mean 1.029x (`scripts/ab_perft.py`, 11 rounds, medians).
#[inline(always)]
fn walk<S: Side, A: Sliders, const LAST: bool>(b: &Board, depth: u32) -> u64 {
    let king = king_of::<S::Opp>(b);
    if !LAST {
        return walk_with::<S, A, LAST, true, true>(b, depth, king);
    }
    match (on_diagonals::<S::Opp>(b, king), on_lines::<S::Opp>(b, king)) {
        (false, false) => walk_with::<S, A, LAST, false, false>(b, depth, king),
        (false, true) => walk_with::<S, A, LAST, false, true>(b, depth, king),
        (true, false) => walk_with::<S, A, LAST, true, false>(b, depth, king),
        (true, true) => walk_with::<S, A, LAST, true, true>(b, depth, king),
    }
}

#[inline(always)]
fn walk_with<S: Side, A: Sliders, const LAST: bool, const DIAGONALS: bool, const LINES: bool>(
    b: &Board,
    depth: u32,
    king: usize,
) -> u64 {
    let mover = if LAST { MoverAttacks::of::<S>(b, king) } else { MoverAttacks::UNKNOWN };
    let sliders = if mover.king != 0 { SliderAttacks::of::<S, A>(b, king, 0) } else { SliderAttacks::UNKNOWN };
    let replies = if LAST { Replies::of::<S::Opp, A>(b) } else { Replies::UNKNOWN };
    let mut walk =
        Walk::<A, LAST, DIAGONALS, LINES> { depth, king, mover, sliders, replies, nodes: 0, _sliders: PhantomData };
    generate::<S, A, _>(b, &mut walk);
    walk.nodes
}

/// What the mover's pawns, knights and king attack: its children's enemy
/// leapers, which a child's king needs for its moves (`Threats::leaper_attacks`).
/// A move changes them only by the piece that moved, so the parent hands
/// them to each child instead of the child finding them on its board.
///
/// Why: against each child finding them, startpos d6 0.971x, Kiwipete d5
/// 1.032x, pos3 d7 1.098x, pos4 d6 1.086x, pos5 d5 1.049x, geometric mean
/// 1.047x (`scripts/ab_perft.py`, 11 rounds, medians); promotions, e.p. and
/// castling (rare) leave it to the child.
#[derive(Copy, Clone)]
struct MoverAttacks {
    pawns: u64,
    knights: u64,
    king: u64,
}

impl MoverAttacks {
    /// Not computed: every child finds its own (`king` is never 0 otherwise).
    const UNKNOWN: MoverAttacks = MoverAttacks { pawns: 0, knights: 0, king: 0 };

    /// Side `S`'s, for children whose king is on `their_king`. Only a king
    /// with somewhere to go needs them, and a king boxed in by its own pieces
    /// stays so unless the move takes one of them (that child finds its own).
    #[inline(always)]
    fn of<S: Side>(b: &Board, their_king: usize) -> MoverAttacks {
        if kings(their_king) & !b.color[1 - S::US] == 0 {
            return MoverAttacks::UNKNOWN;
        }
        let ours = b.color[S::US];
        MoverAttacks {
            pawns: pawn_attacks::<S::Opp>(b.role[PAWN] & ours),
            knights: knight_attacks(b.role[KNIGHT] & ours),
            king: kings(king_of::<S>(b)),
        }
    }

    /// All but those of the piece of role `ROLE` on `from` (0 if unknown).
    #[inline(always)]
    fn without<S: Side, const ROLE: usize>(&self, b: &Board, from: usize) -> u64 {
        if self.king == 0 {
            return 0;
        }
        match ROLE {
            KNIGHT => self.pawns | self.king | knight_attacks(b.role[KNIGHT] & b.color[S::US] & !(1 << from)),
            KING => self.pawns | self.knights,
            _ => self.pawns | self.knights | self.king,
        }
    }

    /// After a pawn of side `S` moved from `from` to `to` (0 if unknown).
    #[inline(always)]
    fn after_pawn<S: Side>(&self, b: &Board, from: usize, to: usize) -> u64 {
        if self.king == 0 {
            return 0;
        }
        let pawns = b.role[PAWN] & b.color[S::US] ^ (1 << from | 1 << to);
        pawn_attacks::<S::Opp>(pawns) | self.knights | self.king
    }
}

/// What the mover's bishops, rooks and queens attack next to the enemy king
/// and on its standard castling path (`zone`), with that king off the board,
/// and the squares between them and the zone (`lanes`): a move that neither
/// leaves nor enters a lane changes none of those attacks but the moving
/// piece's own, so each such child is handed its whole danger map.
///
/// Why: the danger map was the child's largest cost left (children that
/// skipped its slider part, with wrong counts, ran 1.08-1.20x faster). With
/// the map handed to 86% of pos5's children and 91% of Kiwipete's, against
/// each child making its own: startpos d6 1.003x, Kiwipete d5 1.088x, pos3 d7
/// 1.035x, pos4 d6 1.023x, pos5 d5 1.080x, geometric mean 1.045x; a capture
/// counted as leaving its square's occupancy as it was added 1.010x
/// (`scripts/ab_perft.py`, 7 rounds, medians).
#[derive(Copy, Clone)]
struct SliderAttacks {
    seen: u64,
    lanes: u64,
    /// Where a bishop or queen, and a rook or queen, must stand to attack the zone.
    diag_reach: u64,
    line_reach: u64,
}

impl SliderAttacks {
    /// Not computed: every lane is taken, so no child is handed a map.
    const UNKNOWN: SliderAttacks = SliderAttacks { seen: 0, lanes: !0, diag_reach: 0, line_reach: 0 };

    /// Side `S`'s sliders but those of `except`, for the enemy king on `king`.
    #[inline(always)]
    fn of<S: Side, A: Sliders>(b: &Board, king: usize, except: u64) -> SliderAttacks {
        let zone = kings(king) | castling_squares(king);
        let (diag_reach, line_reach, _) = A::reach(king, kings(king));
        let ours = b.color[S::US] & !except;
        let occ = (b.color[0] | b.color[1]) ^ 1 << king;
        let (mut seen, mut lanes) = (0, 0);
        for s in bits((b.role[BISHOP] | b.role[QUEEN]) & ours & diag_reach) {
            seen |= A::bishop(s, occ);
            for z in bits(zone & bishop_rays(s)) {
                lanes |= ray(s, z);
            }
        }
        for s in bits((b.role[ROOK] | b.role[QUEEN]) & ours & line_reach) {
            seen |= A::rook(s, occ);
            for z in bits(zone & rook_rays(s)) {
                lanes |= ray(s, z);
            }
        }
        SliderAttacks { seen, lanes, diag_reach, line_reach }
    }

    /// Without the slider of role `ROLE` on `from` (itself if it reaches nothing).
    #[inline(always)]
    fn without<S: Side, A: Sliders, const ROLE: usize>(&self, b: &Board, king: usize, from: usize) -> SliderAttacks {
        let reach = match ROLE {
            BISHOP => self.diag_reach,
            ROOK => self.line_reach,
            QUEEN => self.diag_reach | self.line_reach,
            _ => 0,
        };
        if reach & 1 << from == 0 || self.lanes == !0 {
            *self
        } else {
            SliderAttacks::of::<S, A>(b, king, 1 << from)
        }
    }

    /// The child's danger map after a piece of role `ROLE` moved to `to`
    /// (`child`), emptying or filling the squares of `changed`, given its
    /// leapers' attacks (0 if not known), or 0.
    #[inline(always)]
    fn danger<A: Sliders, const ROLE: usize>(
        &self,
        child: &Board,
        king: usize,
        to: usize,
        changed: u64,
        leapers: u64,
    ) -> u64 {
        if leapers == 0 || changed & self.lanes != 0 {
            return 0;
        }
        let mut danger = leapers | self.seen;
        if matches!(ROLE, BISHOP | ROOK | QUEEN) {
            let occ = (child.color[0] | child.color[1]) ^ 1 << king;
            if matches!(ROLE, BISHOP | QUEEN) && self.diag_reach & 1 << to != 0 {
                danger |= A::bishop(to, occ);
            }
            if matches!(ROLE, ROOK | QUEEN) && self.line_reach & 1 << to != 0 {
                danger |= A::rook(to, occ);
            }
        }
        danger
    }
}

/// The moves of the enemy's bishops, rooks and queens (the children's own),
/// counted once per parent: a move that neither leaves nor enters a square
/// one of them sees or stands on leaves their count as it was. Only a
/// child without check or pin takes it (`Threats::slider_moves`).
///
/// Why: against each child counting them: startpos d6 1.282x, Kiwipete d5
/// 1.086x, pos3 d7 0.995x, pos4 d6 1.037x, pos5 d5 1.033x, geometric mean
/// 1.082x (`scripts/ab_perft.py`, 7 rounds, medians). A bit per slider for
/// each square, so that a child recounts only the sliders its move touches,
/// cost more than it saved (0.952x); knights counted here too, 0.997x
/// (startpos 1.053x, pos3 0.965x); pawns too, 1.012x with Kiwipete 0.977x,
/// or apart from the sliders 1.013x with pos3 0.955x.
#[derive(Copy, Clone)]
struct Replies {
    /// Their count, or `u32::MAX` if not known.
    count: u32,
    /// The squares they stand on or see, but for the empty or enemy-held
    /// ends of the empty-board rays (`ray_ends`): nothing lies beyond those.
    ///
    /// Why: on pos5, 40% of the children miss the count instead of 51%
    /// (instrumented, d5); against watching every square
    /// seen, startpos d6 1.012x, Kiwipete d5 1.036x, pos3 d7 1.004x, pos4 d6
    /// 1.006x, pos5 d5 1.050x, geometric mean 1.021x (`scripts/ab_perft.py`,
    /// 7 rounds, medians). Leaving out also the empty squares just before
    /// one of theirs (a loop over the pieces each slider sees) lost 3%
    /// (pos5 0.945x); counting a capture of a piece one or two of them see
    /// as one or two more moves, 0.974x (pos5 0.987x).
    watched: u64,
    /// The moves of their knights, and the squares of their pieces that a
    /// knight of theirs attacks or stands on: only a capture there changes
    /// that count, so any other child takes it (`Threats::knight_moves`).
    ///
    /// Why: against each child counting its knights: startpos d6 1.133x,
    /// Kiwipete d5 1.031x, pos3 d7 0.967x (no knights), pos4 d6 1.030x, pos5
    /// d5 1.023x (`scripts/ab_perft.py`, 7 rounds, medians). Added to the
    /// sliders' count instead, behind one test, 1.015x with Kiwipete 0.960x.
    knights: u32,
    knight_hits: u64,
}

impl Replies {
    const UNKNOWN: Replies = Replies { count: u32::MAX, watched: !0, knights: u32::MAX, knight_hits: !0 };

    /// Side `S`'s sliders on `b`.
    #[inline(always)]
    fn of<S: Side, A: Sliders>(b: &Board) -> Replies {
        let ours = b.color[S::US];
        let occ = b.color[0] | b.color[1];
        let (mut count, mut watched) = (0, 0);
        // A square at the end of its empty-board ray has nothing beyond it:
        // filling or emptying it changes no count, unless one of ours stands
        // there (taking it adds a target).
        for s in bits((b.role[BISHOP] | b.role[QUEEN]) & ours) {
            let seen = A::bishop(s, occ);
            count += (seen & !ours).count_ones();
            watched |= seen & (ours | !ray_ends(s)) | 1 << s;
        }
        for s in bits((b.role[ROOK] | b.role[QUEEN]) & ours) {
            let seen = A::rook(s, occ);
            count += (seen & !ours).count_ones();
            watched |= seen & (ours | !ray_ends(s)) | 1 << s;
        }
        let (mut jumps, mut knight_hits) = (0, 0);
        for s in bits(b.role[KNIGHT] & ours) {
            jumps += (knights(s) & !ours).count_ones();
            knight_hits |= knights(s) | 1 << s;
        }
        // Without knights the child's loop over none is left to it.
        let knight_hits = if knight_hits == 0 { !0 } else { knight_hits & ours };
        Replies { count, watched, knights: jumps, knight_hits }
    }

    /// The child's knight moves after a move to `to` (not e.p., whose
    /// captured pawn is not on `to`), if known.
    #[inline(always)]
    fn knights_after(&self, to: usize) -> Option<u32> {
        if self.knight_hits & 1 << to == 0 {
            Some(self.knights)
        } else {
            None
        }
    }

    /// The child's count after a move that emptied or filled squares of `touched`.
    #[inline(always)]
    fn after(&self, touched: u64) -> Option<u32> {
        if touched & self.watched == 0 {
            Some(self.count)
        } else {
            None
        }
    }
}

/// The children (with keys) first, so that their buckets load while the
/// earlier ones are searched: a probe that waits for memory costs more than
/// the list.
#[inline(always)]
fn hashed_children<S: Side, A: Sliders>(b: &Board, key: u64, depth: u32, t: &HashTable) -> u64 {
    let mut kids = Children::new(key);
    generate::<S, A, _>(b, &mut kids);
    for c in &kids.kids {
        t.prefetch(c.key, depth - 1);
    }
    kids.kids.iter().map(|c| A::node::<S::Opp>(&c.board, c.key, depth - 1, Some(t))).sum()
}

/// The legal moves of `b` (side `S`, its king on `king`, with `threats`),
/// counted by popcount.
#[inline(always)]
pub(super) fn leaves<S: Side, A: Sliders>(b: &Board, king: usize, threats: Threats) -> u64 {
    let mut counter = Counter(0);
    generate_for::<S, A, _>(b, &mut counter, king, threats);
    counter.0
}

/// Bulk counting: a popcount per group.
struct Counter(u64);

impl Sink for Counter {
    const ONLY_COUNTS: bool = true;
    #[inline(always)]
    fn piece<S: Side, const ROLE: usize>(&mut self, _b: &Board, _from: usize, targets: u64) {
        self.0 += targets.count_ones() as u64;
    }
    #[inline(always)]
    fn pawns<S: Side, const KIND: u8>(&mut self, _b: &Board, targets: u64, _step: i32) {
        let n = targets.count_ones() as u64;
        self.0 += if KIND >= PROMOTION { 4 * n } else { n };
    }
    #[inline(always)]
    fn en_passant<S: Side>(&mut self, _b: &Board, _from: usize, _to: usize) {
        self.0 += 1;
    }
    #[inline(always)]
    fn castle<S: Side>(&mut self, _b: &Board, _king: usize, _rook: usize) {
        self.0 += 1;
    }
    #[inline(always)]
    fn castles<S: Side>(&mut self, _b: &Board, _king: usize, rooks: u64) {
        self.0 += rooks.count_ones() as u64;
    }
    #[inline(always)]
    fn counted(&mut self, n: u32) -> bool {
        self.0 += n as u64;
        true
    }
}

/// Makes every move and counts below it: with `LAST` each child's legal
/// moves are counted (`Sliders::leaves`), otherwise the recursion takes over
/// (without a table).
struct Walk<A, const LAST: bool, const DIAGONALS: bool, const LINES: bool> {
    depth: u32,
    /// The enemy king's square, which is the children's own: a move never
    /// moves the other side's king, so the parent finds it once for all of them.
    ///
    /// Why: the children's generator then starts from a known square instead
    /// of a `tzcnt` of the new board, and its king lookups leave the loop.
    /// Against finding it in each child: startpos d6 1.015x, Kiwipete d5
    /// 1.058x, pos3 d7 1.070x, pos4 d6 1.032x, pos5 d5 1.050x
    /// (`scripts/ab_perft.py`, 11 rounds, medians).
    king: usize,
    /// The mover's leapers' attacks (with `LAST`, where a child may need them).
    mover: MoverAttacks,
    /// The mover's sliders' attacks around the enemy king (with `LAST`).
    sliders: SliderAttacks,
    /// The enemy sliders' moves (with `LAST`).
    replies: Replies,
    nodes: u64,
    _sliders: PhantomData<A>,
}

impl<A: Sliders, const LAST: bool, const DIAGONALS: bool, const LINES: bool> Walk<A, LAST, DIAGONALS, LINES> {
    /// Counts below `child`, where a piece of role `role` (a pawn's for
    /// pawn moves, the new one for a promotion, the rook for castling) has
    /// just moved to `to`, emptying or filling squares of `touched` (all, if
    /// not known), the child's knights have `knight_moves` (if known), the
    /// mover's leapers attack `leaper_attacks` and the child's king faces
    /// `danger` (each 0 if not known);
    /// `INLINE` counts a last-ply child's moves with a copy of the generator
    /// inlined here instead of the out-of-line one.
    #[inline(always)]
    // Why eight: the knights' count found here from `touched` instead of
    // passed in lost 13% on position 3 (5 rounds), a code-layout effect.
    #[allow(clippy::too_many_arguments)]
    fn visit<S: Side, const INLINE: bool>(
        &mut self,
        child: Board,
        role: usize,
        to: usize,
        touched: u64,
        knight_moves: Option<u32>,
        leaper_attacks: u64,
        danger: u64,
    ) {
        if !LAST {
            self.nodes += A::node::<S::Opp>(&child, 0, self.depth, None);
            return;
        }
        // Only the piece that moved can check as a knight or a pawn: the
        // others and the king stood still, and the king was not in check.
        //
        // Why: against the child finding them on its board, startpos d6
        // 1.004x, Kiwipete d5 1.005x, pos3 d7 1.019x, pos4 d6 1.020x, pos5
        // d5 1.028x, geometric mean 1.015x (`scripts/ab_perft.py`, 11
        // rounds, medians).
        let leapers = match role {
            KNIGHT => knights(self.king),
            PAWN => pawn_hits(!S::WHITE, self.king),
            _ => 0,
        } & 1 << to;
        // A bishop, rook or queen that moved onto a line through the king
        // may check or pin along it.
        let threats = Threats {
            leapers,
            leaper_attacks,
            danger,
            slider_moves: self.replies.after(touched),
            knight_moves,
            diagonals: DIAGONALS || matches!(role, BISHOP | QUEEN) && bishop_rays(self.king) & 1 << to != 0,
            lines: LINES || matches!(role, ROOK | QUEEN) && rook_rays(self.king) & 1 << to != 0,
        };
        if INLINE {
            self.nodes += leaves::<S::Opp, A>(&child, self.king, threats);
        } else {
            self.nodes += A::leaves::<S::Opp>(&child, self.king, threats);
        }
    }

    #[inline(always)]
    fn moves<S: Side, const ROLE: usize, const INLINE: bool>(&mut self, b: &Board, from: usize, mut targets: u64) {
        // The mover's other leapers, and the moving one's from `to`.
        let others = self.mover.without::<S, ROLE>(b, from);
        let sliders = self.sliders.without::<S, A, ROLE>(b, self.king, from);
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            let moved = match ROLE {
                KNIGHT => knights(to),
                KING => kings(to),
                _ => 0,
            };
            let attacks = if others == 0 { 0 } else { others | moved };
            let child = make_piece::<S, ROLE>(b, from, to);
            // A capture leaves the occupancy of `to` as it was.
            let changed = 1 << from | (1 << to) & !b.color[1 - S::US];
            let danger = sliders.danger::<A, ROLE>(&child, self.king, to, changed, attacks);
            self.visit::<S, INLINE>(
                child,
                ROLE,
                to,
                1 << from | 1 << to,
                self.replies.knights_after(to),
                attacks,
                danger,
            );
        }
    }
}

/// Why: a piece's moves in the common copy of the generator (no check, no
/// pin) count their children with an inlined generator, and so do rooks'
/// moves in the rare copy, and single pawn pushes; everything else (other
/// pawn moves, the rare copy's other pieces, castling, en passant) calls the
/// one out-of-line copy. Inlined at every kind of move, the code outgrew the
/// instruction cache (see `Sliders::leaves`); here, against all out of line:
/// startpos d6 1.037x, Kiwipete d5 1.036x, pos3 d7 1.032x, pos4 d6 1.018x,
/// pos5 d5 1.016x (`scripts/ab_perft.py`, 9 rounds, medians). Every pawn
/// move inlined as well lost 1.7% then, and 3.4% on Kiwipete now (startpos
/// 1.030x); pushes alone: startpos 1.027x, Kiwipete 0.995x, pos3 1.014x,
/// pos4 0.993x, pos5 0.998x (7 rounds). Every piece inlined in both copies
/// gained 1.5% less.
impl<A: Sliders, const LAST: bool, const DIAGONALS: bool, const LINES: bool> Sink for Walk<A, LAST, DIAGONALS, LINES> {
    #[inline(always)]
    fn piece<S: Side, const ROLE: usize>(&mut self, b: &Board, from: usize, targets: u64) {
        self.moves::<S, ROLE, true>(b, from, targets);
    }
    #[inline(always)]
    fn piece_rare<S: Side, const ROLE: usize>(&mut self, b: &Board, from: usize, targets: u64) {
        // A rook's moves inline even here: rook checks and pins are what
        // make a sparse ending's nodes rare (position 3 d7 1.07x, the other
        // four within 1%, 11 rounds).
        if ROLE == ROOK {
            self.moves::<S, ROLE, true>(b, from, targets);
        } else {
            self.moves::<S, ROLE, false>(b, from, targets);
        }
    }
    #[inline(always)]
    fn pawns<S: Side, const KIND: u8>(&mut self, b: &Board, mut targets: u64, step: i32) {
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            let from = (to as i32 - step) as usize;
            if KIND >= PROMOTION {
                for role in [QUEEN, ROOK, BISHOP, KNIGHT] {
                    self.visit::<S, false>(
                        make_promotion::<S>(b, from, to, role),
                        role,
                        to,
                        1 << from | 1 << to,
                        self.replies.knights_after(to),
                        0,
                        0,
                    );
                }
            } else {
                let attacks = self.mover.after_pawn::<S>(b, from, to);
                let child = make_pawn::<S, KIND>(b, from, to);
                let changed = if KIND == CAPTURE { 1 << from } else { 1 << from | 1 << to };
                let danger = self.sliders.danger::<A, PAWN>(&child, self.king, to, changed, attacks);
                let (touched, knight_moves) = (1 << from | 1 << to, self.replies.knights_after(to));
                if KIND == PUSH {
                    self.visit::<S, true>(child, PAWN, to, touched, knight_moves, attacks, danger);
                } else {
                    self.visit::<S, false>(child, PAWN, to, touched, knight_moves, attacks, danger);
                }
            }
        }
    }
    #[inline(always)]
    fn en_passant<S: Side>(&mut self, b: &Board, from: usize, to: usize) {
        // E.p. (three squares) and castling (four) count every square as touched.
        self.visit::<S, false>(make_en_passant::<S>(b, from, to), PAWN, to, !0, None, 0, 0);
    }
    #[inline(always)]
    fn castle<S: Side>(&mut self, b: &Board, king: usize, rook: usize) {
        // The castled rook may land on a line through the enemy king.
        // (Castling captures nothing: the knights' count holds.)
        let rook_to = (king & 56) + if rook > king { 5 } else { 3 };
        self.visit::<S, false>(
            make_castle::<S>(b, king, rook),
            ROOK,
            rook_to,
            !0,
            self.replies.knights_after(rook_to),
            0,
            0,
        );
    }
}
