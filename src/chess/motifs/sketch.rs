//! A board being built square by square, and the small geometry helpers
//! the builders share.

use super::Below;
use crate::attacks::{bishop_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks};
use crate::board::{Bitboard, Color, Role, Square};
use crate::Position;

/// A board being built, White to move until mirrored.
#[derive(Clone)]
pub(super) struct Sketch {
    pub(super) squares: [Option<(Color, Role)>; 64],
    pub(super) white_to_move: bool,
    pub(super) castling: String,
    pub(super) ep: Option<Square>,
}

impl Sketch {
    pub(super) fn empty() -> Sketch {
        Sketch { squares: [None; 64], white_to_move: true, castling: String::new(), ep: None }
    }

    pub(super) fn occupied(&self) -> Bitboard {
        (0..64u8).map(Square::new).filter(|s| self.squares[s.index()].is_some()).collect()
    }

    /// Puts a piece on an empty square (pawns never on the back ranks);
    /// false when it cannot stand there.
    pub(super) fn put(&mut self, sq: Square, color: Color, role: Role) -> bool {
        let back = matches!(sq.rank() as u8, 0 | 7);
        if self.squares[sq.index()].is_some() || (role == Role::Pawn && back) {
            return false;
        }
        self.squares[sq.index()] = Some((color, role));
        true
    }

    pub(super) fn put_random_piece(&mut self, below: Below) {
        const ROLES: [Role; 5] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
        let color = if below(2) == 0 { Color::White } else { Color::Black };
        let role = ROLES[below(5) as usize];
        self.put(random_square(below), color, role);
    }

    /// Puts a `color` piece of a random kind where it attacks `target`;
    /// false when no such square is free.
    pub(super) fn put_attacker(&mut self, target: Square, color: Color, below: Below) -> bool {
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
    pub(super) fn mirrored(&self) -> Sketch {
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

    pub(super) fn fen(&self) -> String {
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
    pub(super) fn position(&self) -> Option<Position> {
        Position::from_fen(&self.fen()).ok().filter(plausible_checks)
    }
}

/// True if the checks of `pos` could have been given by the last move, as
/// python-chess's `status()` judges them (engines may assume as much): at
/// most two checkers, never two on one line with the king; with an e.p.
/// square, one checker, the pawn that moved or a piece that its double step
/// uncovered.
pub(super) fn plausible_checks(pos: &Position) -> bool {
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

pub(super) fn random_square(below: Below) -> Square {
    Square::new(below(64) as u8)
}

pub(super) fn pick(set: Bitboard, below: Below) -> Option<Square> {
    let n = set.count() as u64;
    (n > 0).then(|| set.into_iter().nth(below(n) as usize).expect("below(n) < n"))
}

pub(super) fn sq(file: i32, rank: i32) -> Option<Square> {
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| Square::new((rank * 8 + file) as u8))
}
