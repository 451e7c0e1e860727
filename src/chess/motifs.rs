//! Positions built to hold the configurations that move generators get
//! wrong, as roots for `chesstool fuzz`: random walks from the start reach an
//! e.p. capture by a pawn pinned along its rank perhaps once in thousands of
//! games, a generated root holds one at once.
//!
//! The motifs are those the published tricky-perft suites were written for
//! (pinned e.p. captures, promotions by pinned pawns, castling across
//! attacked squares, double and discovered checks, the extremes of the move
//! count). Every position is generated, not copied: the motif's key pieces
//! are placed at random squares that satisfy its geometry, a few random
//! pieces are added, the colours are swapped half of the time, and the
//! result is kept only when it is a valid position in which [`holds`] finds
//! the motif with our own move generator. The generator is a caller's
//! random function, so that a seeded run repeats.

use super::hints::pinner;
use crate::attacks::{between, bishop_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks};
use crate::board::{Bitboard, Color, Role, Square};
use crate::{Move, Position};

/// A configuration worth a root of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Motif {
    /// An e.p. capture whose pawn, with the captured one, stands between its
    /// king and an enemy rook or queen on the rank: illegal.
    EpPinnedOnRank,
    /// An e.p. capture by a pawn pinned along a diagonal: legal only along
    /// the pin.
    EpPinnedOnDiagonal,
    /// An e.p. capture in check from the pawn that it takes.
    EpRemovesChecker,
    /// An e.p. capture in check from another piece, uncovered by the double
    /// step (the capture does not answer it).
    EpInOtherCheck,
    /// A pawn about to promote, pinned to its king (pushing is illegal
    /// unless the pin is along the file).
    PinnedPromotion,
    /// A pinned pawn that can capture and promote (legal only when it takes
    /// the pinner).
    PinnedPromotionCapture,
    /// A castling whose king passes an attacked square.
    CastlingThroughAttack,
    /// A castling right while in check.
    CastlingOutOfCheck,
    /// A castling whose king would land on an attacked square.
    CastlingIntoAttack,
    /// A legal castling whose rook stands on or passes an attacked square.
    CastlingRookAttacked,
    /// A castling right with a piece between the king and its rook.
    CastlingBlocked,
    /// Kings two squares apart: the squares between are attacked by both.
    KingsNear,
    /// Check from two pieces at once: only king moves.
    DoubleCheck,
    /// A legal castling whose rook gives check.
    DiscoveredCheckByCastling,
    /// A legal e.p. capture that uncovers a check.
    DiscoveredCheckByEp,
    /// At least 200 legal moves.
    ManyMoves,
    /// Exactly one legal move.
    OneMove,
}

impl Motif {
    /// Every motif, in the order `fuzz` uses them as roots.
    pub const ALL: [Motif; 17] = [
        Motif::EpPinnedOnRank,
        Motif::EpPinnedOnDiagonal,
        Motif::EpRemovesChecker,
        Motif::EpInOtherCheck,
        Motif::PinnedPromotion,
        Motif::PinnedPromotionCapture,
        Motif::CastlingThroughAttack,
        Motif::CastlingOutOfCheck,
        Motif::CastlingIntoAttack,
        Motif::CastlingRookAttacked,
        Motif::CastlingBlocked,
        Motif::KingsNear,
        Motif::DoubleCheck,
        Motif::DiscoveredCheckByCastling,
        Motif::DiscoveredCheckByEp,
        Motif::ManyMoves,
        Motif::OneMove,
    ];

    /// The motif's name in reports (`ep-pinned-on-rank`).
    pub const fn name(self) -> &'static str {
        match self {
            Motif::EpPinnedOnRank => "ep-pinned-on-rank",
            Motif::EpPinnedOnDiagonal => "ep-pinned-on-diagonal",
            Motif::EpRemovesChecker => "ep-removes-checker",
            Motif::EpInOtherCheck => "ep-in-other-check",
            Motif::PinnedPromotion => "pinned-promotion",
            Motif::PinnedPromotionCapture => "pinned-promotion-capture",
            Motif::CastlingThroughAttack => "castling-through-attack",
            Motif::CastlingOutOfCheck => "castling-out-of-check",
            Motif::CastlingIntoAttack => "castling-into-attack",
            Motif::CastlingRookAttacked => "castling-rook-attacked",
            Motif::CastlingBlocked => "castling-blocked",
            Motif::KingsNear => "kings-near",
            Motif::DoubleCheck => "double-check",
            Motif::DiscoveredCheckByCastling => "discovered-check-by-castling",
            Motif::DiscoveredCheckByEp => "discovered-check-by-ep",
            Motif::ManyMoves => "many-moves",
            Motif::OneMove => "one-move",
        }
    }
}

/// A random function: a number below its argument (at least 1).
pub type Below<'a> = &'a mut dyn FnMut(u64) -> u64;

/// How many placements are tried before giving up; every motif is found in
/// a few dozen at most.
const ATTEMPTS: u32 = 20_000;

/// A valid position that holds `motif`, drawn with `below`; `None` only if
/// [`ATTEMPTS`] placements all failed (not seen for any motif).
pub fn build(motif: Motif, below: Below) -> Option<Position> {
    if motif == Motif::ManyMoves || motif == Motif::OneMove {
        return climb(motif, below);
    }
    for attempt in 0..ATTEMPTS {
        let mut sketch = Sketch::empty();
        if !place(motif, &mut sketch, below) {
            continue;
        }
        // Extra pieces give variety; late attempts go without them.
        let extras = if attempt < ATTEMPTS / 2 { below(5) } else { 0 };
        for _ in 0..extras {
            sketch.put_random_piece(below);
        }
        if below(2) == 1 {
            sketch = sketch.mirrored();
        }
        if let Some(pos) = sketch.position() {
            if holds(&pos, motif) {
                return Some(pos);
            }
        }
    }
    None
}

/// True if `pos` holds `motif`, decided with our move generator.
pub fn holds(pos: &Position, motif: Motif) -> bool {
    let us = pos.turn();
    let legal = pos.legal_moves();
    let is_legal = |m: Move| legal.contains(m);
    match motif {
        Motif::EpPinnedOnRank => ep_moves(pos).into_iter().any(|m| pinned_on_rank_by_ep(pos, m) && !is_legal(m)),
        Motif::EpPinnedOnDiagonal => ep_moves(pos).into_iter().any(|m| {
            let pinned = pinner(pos, m.from()).is_some_and(|p| is_diagonal(pos.king(us), p));
            pinned && !pos.is_check()
        }),
        Motif::EpRemovesChecker => {
            ep_moves(pos).into_iter().any(|m| pos.checkers() == Bitboard::from_square(captured_square(m)))
        }
        Motif::EpInOtherCheck => {
            let other = (pos.checkers() & !pos.pieces(!us, Role::Pawn)).any();
            other && !ep_moves(pos).is_empty()
        }
        Motif::PinnedPromotion | Motif::PinnedPromotionCapture => {
            let capture = motif == Motif::PinnedPromotionCapture;
            promotions(pos).into_iter().any(|m| {
                let takes = m.from().file() != m.to().file();
                takes == capture && pinner(pos, m.from()).is_some() && !pos.is_check()
            })
        }
        Motif::CastlingThroughAttack => castlings(pos)
            .into_iter()
            .any(|c| c.path_clear && !pos.is_check() && !c.target_attacked && c.passes_attack && !is_legal(c.mv)),
        Motif::CastlingOutOfCheck => castlings(pos).into_iter().any(|c| c.path_clear && pos.is_check()),
        Motif::CastlingIntoAttack => {
            castlings(pos).into_iter().any(|c| c.path_clear && !pos.is_check() && c.target_attacked)
        }
        Motif::CastlingRookAttacked => castlings(pos).into_iter().any(|c| c.rook_attacked && is_legal(c.mv)),
        Motif::CastlingBlocked => castlings(pos).into_iter().any(|c| !c.path_clear),
        Motif::KingsNear => distance(pos.king(us), pos.king(!us)) == 2,
        Motif::DoubleCheck => pos.checkers().more_than_one(),
        Motif::DiscoveredCheckByCastling => legal.iter().any(|m| m.is_castling() && pos.play(*m).is_check()),
        Motif::DiscoveredCheckByEp => {
            legal.iter().any(|m| m.is_en_passant() && (pos.play(*m).checkers() & !Bitboard::from_square(m.to())).any())
        }
        Motif::ManyMoves => legal.len() >= MANY_MOVES,
        Motif::OneMove => legal.len() == 1,
    }
}

/// The count that makes a position one of "many moves" (the record is 218).
const MANY_MOVES: usize = 200;

/// The e.p. captures of the side to move, legal or not.
fn ep_moves(pos: &Position) -> Vec<Move> {
    let Some(ep) = pos.ep_square() else { return Vec::new() };
    let us = pos.turn();
    let capturers = pawn_attacks(!us, ep) & pos.pieces(us, Role::Pawn);
    capturers.into_iter().map(|from| Move::en_passant(from, ep)).collect()
}

/// The pawn that an e.p. capture takes.
fn captured_square(m: Move) -> Square {
    Square::from_coords(m.to().file(), m.from().rank())
}

/// True if both pawns of the e.p. capture `m` stand alone between their king
/// and an enemy rook or queen on the rank.
fn pinned_on_rank_by_ep(pos: &Position, m: Move) -> bool {
    let us = pos.turn();
    let king = pos.king(us);
    if king.rank() != m.from().rank() {
        return false;
    }
    let after = pos.occupied().without(m.from()).without(captured_square(m)).with(m.to());
    let rank = Bitboard::rank(king.rank());
    let sliders = (pos.pieces(!us, Role::Rook) | pos.pieces(!us, Role::Queen)) & rank;
    (rook_attacks(king, after) & sliders).any() && (rook_attacks(king, pos.occupied()) & sliders).is_empty()
}

fn is_diagonal(a: Square, b: Square) -> bool {
    a != b && (a.file() as i32 - b.file() as i32).abs() == (a.rank() as i32 - b.rank() as i32).abs()
}

fn distance(a: Square, b: Square) -> i32 {
    let files = (a.file() as i32 - b.file() as i32).abs();
    let ranks = (a.rank() as i32 - b.rank() as i32).abs();
    files.max(ranks)
}

/// The promotions of the side to move (as queen), legal or not.
fn promotions(pos: &Position) -> Vec<Move> {
    let us = pos.turn();
    let step = if us.is_white() { 8 } else { -8 };
    let mut out = Vec::new();
    for from in pos.pieces(us, Role::Pawn) {
        let Some(to) = from.offset(step) else { continue };
        if to.rank() != crate::board::Rank::First && to.rank() != crate::board::Rank::Eighth {
            continue;
        }
        if !pos.occupied().contains(to) {
            out.push(Move::promotion(from, to, Role::Queen));
        }
        for target in pawn_attacks(us, from) & pos.by_color(!us) {
            out.push(Move::promotion(from, target, Role::Queen));
        }
    }
    out
}

/// One castling right of the side to move, seen square by square.
struct Castling {
    mv: Move,
    /// No piece but the king and the rook on the squares they cross or land on.
    path_clear: bool,
    /// The king crosses an attacked square (not its own, not its target).
    passes_attack: bool,
    target_attacked: bool,
    /// The rook's square or a square it crosses is attacked.
    rook_attacked: bool,
}

fn castlings(pos: &Position) -> Vec<Castling> {
    let us = pos.turn();
    let king = pos.king(us);
    let attacked = |sq: Square| (pos.attackers_to(sq, pos.occupied()) & pos.by_color(!us)).any();
    let mut out = Vec::new();
    for rook in pos.castling_rooks() & pos.by_color(us) {
        let mv = Move::castling(king, rook);
        let (king_to, rook_to) = (mv.castling_king_target(), mv.castling_rook_target());
        let king_path = between(king, king_to).with(king_to);
        let rook_path = between(rook, rook_to).with(rook_to);
        let others = pos.occupied().without(king).without(rook);
        out.push(Castling {
            mv,
            path_clear: ((king_path | rook_path) & others).is_empty(),
            passes_attack: between(king, king_to).into_iter().any(attacked),
            target_attacked: attacked(king_to),
            rook_attacked: attacked(rook) || between(rook, rook_to).into_iter().any(attacked),
        });
    }
    out
}

/// A board being built, White to move until mirrored.
#[derive(Clone)]
struct Sketch {
    squares: [Option<(Color, Role)>; 64],
    white_to_move: bool,
    castling: String,
    ep: Option<Square>,
}

impl Sketch {
    fn empty() -> Sketch {
        Sketch { squares: [None; 64], white_to_move: true, castling: String::new(), ep: None }
    }

    fn occupied(&self) -> Bitboard {
        (0..64u8).map(Square::new).filter(|s| self.squares[s.index()].is_some()).collect()
    }

    /// Puts a piece on an empty square (pawns never on the back ranks);
    /// false when it cannot stand there.
    fn put(&mut self, sq: Square, color: Color, role: Role) -> bool {
        let back = matches!(sq.rank() as u8, 0 | 7);
        if self.squares[sq.index()].is_some() || (role == Role::Pawn && back) {
            return false;
        }
        self.squares[sq.index()] = Some((color, role));
        true
    }

    fn put_random_piece(&mut self, below: Below) {
        const ROLES: [Role; 5] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
        let color = if below(2) == 0 { Color::White } else { Color::Black };
        let role = ROLES[below(5) as usize];
        self.put(random_square(below), color, role);
    }

    /// Puts a `color` piece of a random kind where it attacks `target`;
    /// false when no such square is free.
    fn put_attacker(&mut self, target: Square, color: Color, below: Below) -> bool {
        const ROLES: [Role; 5] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
        let role = ROLES[below(5) as usize];
        let occ = self.occupied();
        let from = match role {
            Role::Pawn => pawn_attacks(!color, target),
            Role::Knight => knight_attacks(target),
            Role::Bishop => bishop_attacks(target, occ),
            Role::Rook => rook_attacks(target, occ),
            _ => queen_attacks(target, occ),
        } & !occ;
        match pick(from, below) {
            Some(sq) => self.put(sq, color, role),
            None => false,
        }
    }

    /// Colours swapped and the board turned upside down: the same motif
    /// for the other side.
    fn mirrored(&self) -> Sketch {
        let mut out = Sketch::empty();
        for sq in (0..64u8).map(Square::new) {
            out.squares[sq.flip_vertical().index()] = self.squares[sq.index()].map(|(c, r)| (!c, r));
        }
        out.white_to_move = !self.white_to_move;
        out.castling = self
            .castling
            .chars()
            .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
            .collect();
        out.ep = self.ep.map(Square::flip_vertical);
        out
    }

    fn fen(&self) -> String {
        let mut board = String::new();
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                match self.squares[(rank * 8 + file) as usize] {
                    None => empty += 1,
                    Some((color, role)) => {
                        if empty > 0 {
                            board.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        let c = role.char();
                        board.push(if color.is_white() { c.to_ascii_uppercase() } else { c });
                    }
                }
            }
            if empty > 0 {
                board.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                board.push('/');
            }
        }
        let turn = if self.white_to_move { "w" } else { "b" };
        let castling = if self.castling.is_empty() { "-" } else { &self.castling };
        let ep = self.ep.map_or("-".to_string(), |s| s.to_string());
        format!("{board} {turn} {castling} {ep} 0 1")
    }

    /// The position, if the sketch is a valid one whose checks could have
    /// been given by the last move.
    fn position(&self) -> Option<Position> {
        Position::from_fen(&self.fen()).ok().filter(plausible_checks)
    }
}

/// True if the checks of `pos` could have been given by the last move, as
/// python-chess's `status()` judges them (engines may assume as much): at
/// most two checkers, never two on one line with the king; with an e.p.
/// square, one checker, the pawn that moved or a piece that its double step
/// uncovered.
fn plausible_checks(pos: &Position) -> bool {
    let us = pos.turn();
    let king = pos.king(us);
    let checkers = pos.checkers();
    if checkers.is_empty() {
        return true;
    }
    if checkers.count() > 2 {
        return false;
    }
    if let Some(ep) = pos.ep_square() {
        let step = if us.is_white() { 8 } else { -8 };
        let (Some(pushed_to), Some(pushed_from)) = (ep.offset(-step), ep.offset(step)) else { return false };
        if checkers.count() > 1 {
            return false;
        }
        let before = pos.occupied().without(pushed_to).with(pushed_from);
        return checkers.first() == Some(pushed_to) || (pos.attackers_to(king, before) & pos.by_color(!us)).is_empty();
    }
    let (a, b) = (checkers.lsb(), checkers.into_iter().last().expect("two checkers"));
    checkers.count() == 1 || !crate::attacks::line(a, b).contains(king)
}

fn random_square(below: Below) -> Square {
    Square::new(below(64) as u8)
}

fn pick(set: Bitboard, below: Below) -> Option<Square> {
    let n = set.count() as u64;
    (n > 0).then(|| set.into_iter().nth(below(n) as usize).expect("below(n) < n"))
}

fn sq(file: i32, rank: i32) -> Option<Square> {
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| Square::new((rank * 8 + file) as u8))
}

/// Places `motif`'s key pieces for White to move; false when the random
/// choice does not fit on the board.
fn place(motif: Motif, s: &mut Sketch, below: Below) -> bool {
    use Color::{Black, White};
    let slider = |below: Below, diagonal: bool| match (below(2), diagonal) {
        (0, _) => Role::Queen,
        (_, true) => Role::Bishop,
        _ => Role::Rook,
    };
    let placed = match motif {
        Motif::EpPinnedOnRank => {
            let (pawn, theirs) = ep_pair(s, below);
            let (lo, hi) = (pawn.min(theirs), pawn.max(theirs));
            // King on one side of the pair, the pinner on the other.
            let (king, pinner) = if below(2) == 0 {
                (span(0, lo - 1, below), span(hi + 1, 7, below))
            } else {
                (span(hi + 1, 7, below), span(0, lo - 1, below))
            };
            match (king, pinner) {
                (Some(k), Some(p)) => {
                    let role = slider(below, false);
                    put_at(s, k, 4, White, Role::King) && put_at(s, p, 4, Black, role)
                }
                _ => false,
            }
        }
        Motif::EpPinnedOnDiagonal => {
            let (pawn, _) = ep_pair(s, below);
            let (df, dr) = [(1, 1), (1, -1), (-1, 1), (-1, -1)][below(4) as usize];
            let (a, b) = (1 + below(4) as i32, 1 + below(4) as i32);
            let role = slider(below, true);
            match (sq(pawn - a * df, 4 - a * dr), sq(pawn + b * df, 4 + b * dr)) {
                (Some(k), Some(p)) => s.put(k, White, Role::King) && s.put(p, Black, role),
                _ => false,
            }
        }
        Motif::EpRemovesChecker => {
            let (_, theirs) = ep_pair(s, below);
            let side = if below(2) == 0 { -1 } else { 1 };
            sq(theirs + side, 3).is_some_and(|k| s.put(k, White, Role::King))
        }
        Motif::EpInOtherCheck => {
            // The double step uncovered the check: the checker's line to
            // the king crosses the square the pawn came from.
            let (_, theirs) = ep_pair(s, below);
            let origin = sq(theirs, 6).expect("on the board");
            let (df, dr) = [(1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)][below(6) as usize];
            let (a, b) = (1 + below(6) as i32, 1 + below(3) as i32);
            let (f, r) = (theirs, 6);
            let role = slider(below, dr != 0);
            match (sq(f - a * df, r - a * dr), sq(f + b * df, r + b * dr)) {
                (Some(k), Some(p)) => s.put(k, White, Role::King) && s.put(p, Black, role) && origin != k,
                _ => false,
            }
        }
        Motif::PinnedPromotion | Motif::PinnedPromotionCapture => {
            let file = below(8) as i32;
            let pawn = sq(file, 6).expect("on the board");
            let pinned = s.put(pawn, White, Role::Pawn) && pin_to_king(s, pawn, below);
            let capture = motif == Motif::PinnedPromotionCapture && below(2) == 0;
            let target = sq(file + if below(2) == 0 { -1 } else { 1 }, 7);
            pinned && (!capture || target.is_some_and(|t| s.put(t, Black, Role::Knight)))
        }
        Motif::CastlingThroughAttack
        | Motif::CastlingOutOfCheck
        | Motif::CastlingIntoAttack
        | Motif::CastlingRookAttacked
        | Motif::CastlingBlocked => {
            let kingside = below(2) == 0;
            castling_start(s, kingside);
            let (through, target, rook_squares) = if kingside {
                (&[Square::F1][..], Square::G1, &[Square::H1, Square::F1][..])
            } else {
                (&[Square::D1][..], Square::C1, &[Square::A1, Square::B1, Square::D1][..])
            };
            let victim = match motif {
                Motif::CastlingThroughAttack => through[below(through.len() as u64) as usize],
                Motif::CastlingOutOfCheck => Square::E1,
                Motif::CastlingIntoAttack => target,
                Motif::CastlingRookAttacked => rook_squares[below(rook_squares.len() as u64) as usize],
                _ => {
                    let path = if kingside {
                        [Square::F1, Square::G1, Square::G1]
                    } else {
                        [Square::B1, Square::C1, Square::D1]
                    };
                    let color = if below(2) == 0 { White } else { Black };
                    return s.put(path[below(3) as usize], color, Role::Knight) && put_black_king(s, below);
                }
            };
            s.put_attacker(victim, Black, below)
        }
        Motif::KingsNear => {
            let king = random_square(below);
            let near = (0..64u8).map(Square::new).filter(|&t| distance(king, t) == 2).collect::<Bitboard>();
            s.put(king, White, Role::King) && pick(near, below).is_some_and(|t| s.put(t, Black, Role::King))
        }
        Motif::DoubleCheck => {
            let king = random_square(below);
            s.put(king, White, Role::King) && {
                let diagonal = below(2) == 0;
                let role = slider(below, diagonal);
                let occ = s.occupied();
                let lines = if role == Role::Bishop { bishop_attacks(king, occ) } else { queen_attacks(king, occ) };
                let first = pick(lines & !occ, below).is_some_and(|p| s.put(p, Black, role));
                first && s.put_attacker(king, Black, below)
            }
        }
        Motif::DiscoveredCheckByCastling => {
            let kingside = below(2) == 0;
            castling_start(s, kingside);
            let file = if kingside { 5 } else { 3 };
            let rank = 2 + below(6) as i32;
            return sq(file, rank).is_some_and(|k| s.put(k, Black, Role::King));
        }
        Motif::DiscoveredCheckByEp => {
            let (pawn, theirs) = ep_pair(s, below);
            if below(2) == 0 {
                // Along the rank: the capture takes both pawns off it.
                let (lo, hi) = (pawn.min(theirs), pawn.max(theirs));
                let (k, p) = if below(2) == 0 {
                    (span(0, lo - 1, below), span(hi + 1, 7, below))
                } else {
                    (span(hi + 1, 7, below), span(0, lo - 1, below))
                };
                let role = slider(below, false);
                let white_king = random_square(below);
                return match (k, p) {
                    (Some(k), Some(p)) => {
                        put_at(s, k, 4, Black, Role::King)
                            && put_at(s, p, 4, White, role)
                            && s.put(white_king, White, Role::King)
                    }
                    _ => false,
                };
            }
            // Along a diagonal through the captured pawn.
            let (df, dr) = [(1, 1), (1, -1), (-1, 1), (-1, -1)][below(4) as usize];
            let (a, b) = (1 + below(3) as i32, 1 + below(3) as i32);
            let role = slider(below, true);
            let white_king = random_square(below);
            return match (sq(theirs - a * df, 4 - a * dr), sq(theirs + b * df, 4 + b * dr)) {
                (Some(k), Some(p)) => {
                    s.put(k, Black, Role::King) && s.put(p, White, role) && s.put(white_king, White, Role::King)
                }
                _ => false,
            };
        }
        Motif::ManyMoves | Motif::OneMove => unreachable!("built by climbing"),
    };
    placed && put_black_king(s, below)
}

/// A white pawn on rank 5 and a black one beside it that has just made a
/// double step (the e.p. square set); their files.
fn ep_pair(s: &mut Sketch, below: Below) -> (i32, i32) {
    let pawn = below(8) as i32;
    let theirs = if pawn == 0 || (pawn < 7 && below(2) == 0) { pawn + 1 } else { pawn - 1 };
    s.put(sq(pawn, 4).expect("file 0-7"), Color::White, Role::Pawn);
    s.put(sq(theirs, 4).expect("file 0-7"), Color::Black, Role::Pawn);
    s.ep = sq(theirs, 5);
    (pawn, theirs)
}

/// A random file from `lo` to `hi`, if there is one.
fn span(lo: i32, hi: i32, below: Below) -> Option<i32> {
    (lo <= hi).then(|| lo + below((hi - lo + 1) as u64) as i32)
}

fn put_at(s: &mut Sketch, file: i32, rank: i32, color: Color, role: Role) -> bool {
    sq(file, rank).is_some_and(|t| s.put(t, color, role))
}

/// Pins the white piece on `pawn` to a white king placed on a random line
/// through it, with a black slider beyond.
fn pin_to_king(s: &mut Sketch, pawn: Square, below: Below) -> bool {
    let (df, dr) = [(1, 0), (-1, 0), (0, -1), (1, -1), (-1, -1), (1, 1), (-1, 1), (0, 1)][below(8) as usize];
    let (f, r) = (pawn.file() as i32, pawn.rank() as i32);
    let (a, b) = (1 + below(6) as i32, 1 + below(6) as i32);
    let role = match (below(2), df != 0 && dr != 0) {
        (0, _) => Role::Queen,
        (_, true) => Role::Bishop,
        _ => Role::Rook,
    };
    match (sq(f - a * df, r - a * dr), sq(f + b * df, r + b * dr)) {
        (Some(k), Some(p)) => s.put(k, Color::White, Role::King) && s.put(p, Color::Black, role),
        _ => false,
    }
}

/// White's king on e1 and a rook in its corner, with the right to castle.
fn castling_start(s: &mut Sketch, kingside: bool) {
    s.put(Square::E1, Color::White, Role::King);
    s.put(if kingside { Square::H1 } else { Square::A1 }, Color::White, Role::Rook);
    s.castling = if kingside { "K" } else { "Q" }.to_string();
}

fn put_black_king(s: &mut Sketch, below: Below) -> bool {
    if s.squares.contains(&Some((Color::Black, Role::King))) {
        return true;
    }
    s.put(random_square(below), Color::Black, Role::King)
}

/// The pieces a climb starts from, at random squares: a White army of
/// queens and minor pieces for many moves, a few pieces for one move.
fn random_board(many: bool, below: Below) -> Sketch {
    let mut s = Sketch::empty();
    let white: &[Role] = if many {
        &[Role::Queen; 9][..7 + below(3) as usize]
    } else {
        &[Role::Pawn, Role::Knight][..below(3) as usize]
    };
    let black: &[Role] =
        if many { &[Role::Pawn, Role::Pawn] } else { &[Role::Rook, Role::Queen, Role::Knight, Role::Bishop] };
    s.put(random_square(below), Color::White, Role::King);
    s.put(random_square(below), Color::Black, Role::King);
    let extra: &[Role] =
        if many { &[Role::Rook, Role::Rook, Role::Bishop, Role::Bishop, Role::Knight, Role::Knight] } else { &[] };
    let black = &black[..below(black.len() as u64 + 1) as usize];
    let pieces = white.iter().chain(extra).map(|&r| (Color::White, r)).chain(black.iter().map(|&r| (Color::Black, r)));
    // One piece at a time, each where it leaves the position valid.
    for (color, role) in pieces {
        for _ in 0..100 {
            let mut next = s.clone();
            if next.put(random_square(below), color, role) && next.position().is_some() {
                s = next;
                break;
            }
        }
    }
    s
}

/// Moves of one climb before it starts again from a new random board.
const CLIMB_STEPS: u32 = 20_000;

/// The extremes of the move count, found by climbing: pieces moved one at a
/// time, each change kept when it brings the count closer to the goal.
fn climb(motif: Motif, below: Below) -> Option<Position> {
    let many = motif == Motif::ManyMoves;
    let score = |s: &Sketch| -> Option<i64> {
        let n = s.position()?.legal_moves().len() as i64;
        match many {
            true => Some(n),
            false => (n >= 1).then_some(-n),
        }
    };
    for _ in 0..50 {
        let mut s = random_board(many, below);
        let Some(mut now) = score(&s) else { continue };
        // A climb that may step a little downhill now and then, so that it
        // does not stop on the first small hill.
        for _ in 0..CLIMB_STEPS {
            let from = random_square(below);
            let to = random_square(below);
            let Some((color, role)) = s.squares[from.index()] else { continue };
            let mut next = s.clone();
            next.squares[from.index()] = None;
            if !next.put(to, color, role) {
                continue;
            }
            let Some(v) = score(&next) else { continue };
            if v >= now || (below(16) == 0 && v >= now - 4) {
                now = v;
                s = next;
                if let Some(pos) = s.position().filter(|p| holds(p, motif)) {
                    let s = if below(2) == 1 { s.mirrored() } else { s };
                    return s.position().filter(|p| holds(p, motif)).or(Some(pos));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SplitMix64, as `verify::walk` draws (that room sits above this one).
    fn seeded(seed: u64) -> impl FnMut(u64) -> u64 {
        let mut state = seed;
        move |n| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) % n
        }
    }

    #[test]
    fn every_motif_is_built_and_holds() {
        for motif in Motif::ALL {
            for seed in 1..=3 {
                let mut rng = seeded(seed);
                let pos = build(motif, &mut rng).unwrap_or_else(|| panic!("{} not built (seed {seed})", motif.name()));
                assert!(holds(&pos, motif), "{}: {}", motif.name(), pos.to_fen());
                let again = Position::from_fen(&pos.to_fen()).unwrap();
                assert!(holds(&again, motif), "{} after a FEN round trip", motif.name());
            }
        }
    }

    #[test]
    fn impossible_checks_are_not_kept() {
        // The rook's check was there before the double step; two checkers on one line.
        let before_the_push = Position::from_fen("7k/8/4r3/2Pp4/8/8/8/4K3 w - d6 0 1").unwrap();
        assert!(!plausible_checks(&before_the_push));
        let aligned = Position::from_fen("4r2k/8/8/8/4K3/8/8/4q3 w - - 0 1").unwrap();
        assert!(!plausible_checks(&aligned));
        let uncovered = Position::from_fen("4b2k/8/8/2Pp4/K7/8/8/8 w - d6 0 1").unwrap();
        assert!(plausible_checks(&uncovered));
    }

    #[test]
    fn a_seed_repeats() {
        for motif in [Motif::EpPinnedOnRank, Motif::OneMove] {
            let a = build(motif, &mut seeded(7)).unwrap().to_fen();
            let b = build(motif, &mut seeded(7)).unwrap().to_fen();
            assert_eq!(a, b);
        }
    }

    #[test]
    fn the_start_position_holds_only_blocked_castling() {
        let start = Position::startpos();
        for motif in Motif::ALL {
            assert_eq!(holds(&start, motif), motif == Motif::CastlingBlocked, "{}", motif.name());
        }
    }

    #[test]
    fn known_positions_hold_their_motifs() {
        let cases = [
            ("8/8/8/K1Pp3r/8/8/8/7k w - d6 0 1", Motif::EpPinnedOnRank),
            ("8/8/8/KPp4r/8/8/8/7k w - c6 0 1", Motif::EpPinnedOnRank),
            ("5b1k/8/8/2Pp4/8/K7/8/8 w - d6 0 1", Motif::EpPinnedOnDiagonal),
            ("8/8/8/2Pp4/4K3/8/8/7k w - d6 0 1", Motif::EpRemovesChecker),
            ("4b2k/8/8/2Pp4/K7/8/8/8 w - d6 0 1", Motif::EpInOtherCheck),
            ("1n5k/K1P4r/8/8/8/8/8/8 w - - 0 1", Motif::PinnedPromotion),
            ("1b5k/2P5/3K4/8/8/8/8/8 w - - 0 1", Motif::PinnedPromotionCapture),
            ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", Motif::DiscoveredCheckByCastling),
            ("k4r2/8/8/8/8/8/8/4K2R w K - 0 1", Motif::CastlingThroughAttack),
            ("k3r3/8/8/8/8/8/8/4K2R w K - 0 1", Motif::CastlingOutOfCheck),
            ("k5r1/8/8/8/8/8/8/4K2R w K - 0 1", Motif::CastlingIntoAttack),
            ("1r5k/8/8/8/8/8/8/R3K3 w Q - 0 1", Motif::CastlingRookAttacked),
            ("7k/8/8/8/8/8/8/RN2K3 w Q - 0 1", Motif::CastlingBlocked),
            ("8/8/8/3k4/8/3K4/8/8 w - - 0 1", Motif::KingsNear),
            ("4r2k/8/8/8/8/3n4/8/4K3 w - - 0 1", Motif::DoubleCheck),
            ("8/8/8/R1Pp2k1/8/8/8/K7 w - d6 0 1", Motif::DiscoveredCheckByEp),
            ("7k/8/8/8/8/8/6q1/7K w - - 0 1", Motif::OneMove),
        ];
        for (fen, motif) in cases {
            let pos = Position::from_fen(fen).unwrap();
            assert!(holds(&pos, motif), "{} in {fen}", motif.name());
        }
    }
}
