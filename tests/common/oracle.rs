//! The slow legal-move oracle shared by the tests. It shares nothing with
//! `src/movegen` or `Position::play`: it keeps its own mailbox, builds
//! pseudo-legal moves with the ray walker `chesstool::attacks::reference`
//! and its own leaper steps, plays each move on its own board and keeps it if
//! the king is then not attacked.

use chesstool::attacks::reference;
use chesstool::{Bitboard, Color, Move, Position, Role, Square};
use std::collections::BTreeSet;

// ---- the oracle ------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Board {
    pub squares: [Option<(Color, Role)>; 64],
    pub turn: Color,
    pub castling: u64,
    pub ep: Option<usize>,
}

const KNIGHT: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

fn sq(i: usize) -> Square {
    Square::new(i as u8)
}
fn file(i: usize) -> i32 {
    (i % 8) as i32
}
fn rank(i: usize) -> i32 {
    (i / 8) as i32
}
fn at(f: i32, r: i32) -> Option<usize> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
}
fn forward(c: Color) -> i32 {
    if c == Color::White {
        1
    } else {
        -1
    }
}
fn back_rank(c: Color) -> i32 {
    if c == Color::White {
        0
    } else {
        7
    }
}

impl Board {
    pub fn from_position(pos: &Position) -> Board {
        let mut squares = [None; 64];
        for (i, s) in squares.iter_mut().enumerate() {
            *s = pos.piece_at(sq(i)).map(|p| (p.color, p.role));
        }
        Board { squares, turn: pos.turn(), castling: pos.castling_rooks().0, ep: pos.ep_square().map(|s| s as usize) }
    }

    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.squares.iter().enumerate().filter(|(_, p)| p.is_some()).fold(0, |b, (i, _)| b | 1 << i))
    }

    pub fn king(&self, c: Color) -> usize {
        (0..64).find(|&i| self.squares[i] == Some((c, Role::King))).expect("a king")
    }

    /// Squares holding pieces of `by` that attack `target`.
    pub fn attackers(&self, target: usize, by: Color) -> u64 {
        let occ = self.occupied();
        let rook = reference::rook_attacks(sq(target), occ).0;
        let bishop = reference::bishop_attacks(sq(target), occ).0;
        let mut out = 0;
        for i in 0..64 {
            let Some((c, role)) = self.squares[i] else { continue };
            if c != by {
                continue;
            }
            let (df, dr) = (file(target) - file(i), rank(target) - rank(i));
            let hit = match role {
                Role::Pawn => dr == forward(c) && df.abs() == 1,
                Role::Knight => KNIGHT.contains(&(df, dr)),
                Role::King => KING.contains(&(df, dr)),
                Role::Bishop => bishop >> i & 1 == 1,
                Role::Rook => rook >> i & 1 == 1,
                Role::Queen => (bishop | rook) >> i & 1 == 1,
            };
            if hit {
                out |= 1 << i;
            }
        }
        out
    }

    pub fn in_check(&self, c: Color) -> bool {
        self.attackers(self.king(c), !c) != 0
    }

    pub fn pseudo_legal(&self) -> Vec<Move> {
        let us = self.turn;
        let occ = self.occupied();
        let mut out = Vec::new();
        let ours = |i: usize| matches!(self.squares[i], Some((c, _)) if c == us);
        let theirs = |i: usize| matches!(self.squares[i], Some((c, _)) if c != us);
        for from in 0..64 {
            let Some((c, role)) = self.squares[from] else { continue };
            if c != us {
                continue;
            }
            let mut targets: Vec<usize> = Vec::new();
            match role {
                Role::Pawn => {
                    let (f, r, up) = (file(from), rank(from), forward(us));
                    let last = back_rank(!us);
                    let push = |to: usize, out: &mut Vec<Move>| {
                        if rank(to) == last {
                            for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                                out.push(Move::promotion(sq(from), sq(to), role));
                            }
                        } else {
                            out.push(Move::normal(sq(from), sq(to)));
                        }
                    };
                    if let Some(one) = at(f, r + up) {
                        if self.squares[one].is_none() {
                            push(one, &mut out);
                            let start = back_rank(us) + up;
                            if r == start {
                                let two = at(f, r + 2 * up).unwrap();
                                if self.squares[two].is_none() {
                                    out.push(Move::normal(sq(from), sq(two)));
                                }
                            }
                        }
                    }
                    for df in [-1, 1] {
                        if let Some(to) = at(f + df, r + up) {
                            if theirs(to) {
                                push(to, &mut out);
                            } else if self.ep == Some(to) {
                                out.push(Move::en_passant(sq(from), sq(to)));
                            }
                        }
                    }
                }
                Role::Knight | Role::King => {
                    let steps = if role == Role::Knight { &KNIGHT } else { &KING };
                    targets.extend(steps.iter().filter_map(|&(df, dr)| at(file(from) + df, rank(from) + dr)));
                }
                Role::Bishop | Role::Rook | Role::Queen => {
                    let bb = match role {
                        Role::Bishop => reference::bishop_attacks(sq(from), occ),
                        Role::Rook => reference::rook_attacks(sq(from), occ),
                        _ => reference::queen_attacks(sq(from), occ),
                    };
                    targets.extend((0..64).filter(|&i| bb.0 >> i & 1 == 1));
                }
            }
            for to in targets {
                if !ours(to) {
                    out.push(Move::normal(sq(from), sq(to)));
                }
            }
        }
        // Castling, Chess960 rules: king to the g/c file, rook to the f/d
        // file; every square either passes over or lands on is empty but for
        // the two of them; the king is not in check and the squares it
        // crosses and lands on are not attacked now (FIDE 3.8.2.1); that it
        // is not in check afterwards is left to the king-safety filter of
        // `legal`.
        let king = self.king(us);
        if rank(king) == back_rank(us) && !self.in_check(us) {
            for rook in (0..64).filter(|&i| self.castling >> i & 1 == 1) {
                if rank(rook) != back_rank(us) || self.squares[rook] != Some((us, Role::Rook)) {
                    continue;
                }
                let kingside = file(rook) > file(king);
                let r = back_rank(us);
                let king_to = at(if kingside { 6 } else { 2 }, r).unwrap();
                let rook_to = at(if kingside { 5 } else { 3 }, r).unwrap();
                let span = |a: usize, b: usize| a.min(b)..=a.max(b);
                let blocked = span(king, king_to)
                    .chain(span(rook, rook_to))
                    .any(|i| i != king && i != rook && self.squares[i].is_some());
                if blocked {
                    continue;
                }
                let passes_attacked = span(king, king_to).filter(|&i| i != king).any(|i| self.attackers(i, !us) != 0);
                if !passes_attacked {
                    out.push(Move::castling(sq(king), sq(rook)));
                }
            }
        }
        out
    }

    pub fn play(&self, m: Move) -> Board {
        let mut b = *self;
        let us = self.turn;
        let (from, to) = (m.from() as usize, m.to() as usize);
        let moving = self.squares[from].expect("a piece moves").1;
        b.ep = None;
        if m.is_castling() {
            let kingside = to > from;
            let r = back_rank(us);
            b.squares[from] = None;
            b.squares[to] = None;
            b.squares[at(if kingside { 6 } else { 2 }, r).unwrap()] = Some((us, Role::King));
            b.squares[at(if kingside { 5 } else { 3 }, r).unwrap()] = Some((us, Role::Rook));
        } else {
            if m.is_en_passant() {
                b.squares[at(file(to), rank(from)).unwrap()] = None;
            }
            b.squares[from] = None;
            b.squares[to] = Some((us, m.promotion_role().unwrap_or(moving)));
            if moving == Role::Pawn && (rank(to) - rank(from)).abs() == 2 {
                let ep = (from + to) / 2;
                // Recorded only if an enemy pawn could capture there.
                let capturer = [-1, 1]
                    .iter()
                    .any(|df| at(file(to) + df, rank(to)).is_some_and(|i| b.squares[i] == Some((!us, Role::Pawn))));
                if capturer {
                    b.ep = Some(ep);
                }
            }
        }
        if moving == Role::King {
            b.castling &= !(0xFFu64 << (8 * back_rank(us)));
        }
        b.castling &= !(1u64 << from | 1u64 << to);
        b.turn = !us;
        b
    }

    pub fn legal(&self) -> Vec<Move> {
        self.pseudo_legal().into_iter().filter(|&m| !self.play(m).in_check(self.turn)).collect()
    }
}

/// Generation, make-move, checkers and the key of `pos`, all against the oracle.
pub fn check_against_oracle(pos: &Position, context: &str) {
    let board = Board::from_position(pos);
    let oracle: BTreeSet<Move> = board.legal().into_iter().collect();
    let list = pos.legal_moves();
    let ours: BTreeSet<Move> = list.iter().copied().collect();
    assert_eq!(ours.len(), list.len(), "{context}: {} generates a move twice: {list:?}", pos.to_fen());
    if ours != oracle {
        let missing: Vec<_> = oracle.difference(&ours).collect();
        let extra: Vec<_> = ours.difference(&oracle).collect();
        panic!(
            "{context}: {}\n  missing (legal, not generated): {missing:?}\n  extra (generated, not legal): {extra:?}",
            pos.to_fen()
        );
    }
    assert_eq!(pos.count_legal(), list.len() as u64, "{context}: count_legal on {}", pos.to_fen());
    let us = pos.turn();
    assert_eq!(pos.checkers().0, board.attackers(board.king(us), !us), "{context}: checkers of {}", pos.to_fen());
    assert_eq!(pos.key(), pos.compute_key(), "{context}: key of {}", pos.to_fen());
    for &m in list.iter() {
        let child = pos.play(m);
        let expected = board.play(m);
        let got = Board::from_position(&child);
        assert_eq!(got, expected, "{context}: {} after {m:?}", pos.to_fen());
        assert_eq!(child.key(), child.compute_key(), "{context}: incremental key after {m:?} from {}", pos.to_fen());
    }
}
