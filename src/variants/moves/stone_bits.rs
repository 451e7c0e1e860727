//! Stone games (`rules::Stones`: Ataxx, Othello, Reversi) on bit sets of
//! the board's squares (bit `file + rank * width`, up to 128 squares), so
//! that perft's last ply is a few popcounts. `stones.rs` builds these
//! tables and plays the moves on a `Position`.
//!
//! A node's moves: drops (next to an own stone, Ataxx; enclosing a line,
//! Reversi; only the empty start squares while one is empty), the
//! stone's own moves (Ataxx's jumps, leaps onto empty squares), and,
//! without any, a pass from the mover's lowest square when
//! `passOnStalemate` allows it. A full board (`adjudicateFullBoard`) or
//! two passes in a row end the game: no moves (Fairy-Stockfish's
//! `is_immediate_game_end`).

use super::vocabulary::{Move, Special};
use crate::variants::board::{Geometry, Position};
use crate::variants::rules::{Enclosing, Stones};

/// A set of squares (bit `file + rank * width`).
pub(crate) type Bits = u128;

/// The eight directions: (file step, rank step).
const DIRECTIONS: [(i8, i8); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)];

/// A stone game's position as bit sets: what perft copies and makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Node {
    /// The mover's stones.
    pub mine: Bits,
    /// The other side's stones.
    pub theirs: Bits,
    /// Stones in hand, by side (ignored with `freeDrops`).
    pub hands: [u16; 2],
    /// The side to move.
    pub side: u8,
    /// Passes played in a row just before.
    pub passes: u8,
}

/// One move of a node: a drop (`from == to`), a jump, or a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StoneMove {
    Drop(u8),
    Jump(u8, u8),
    Pass(u8),
}

/// The tables of a stone game, built once with the variant.
#[derive(Debug, Clone)]
pub(crate) struct StoneTables {
    /// The rules.
    pub rules: Stones,
    /// The one kind of stone.
    pub kind: usize,
    /// Every square.
    board: Bits,
    /// The start squares (`enclosingDropStart`) as bits.
    start: Bits,
    /// Per direction: the bit offset and the squares a shift may land on.
    shifts: [(i32, Bits); 8],
    /// Per square, its neighbours.
    near: Vec<Bits>,
    /// Per side and square, where the stone may move (empty squares only).
    jumps: [Vec<Bits>; 2],
    /// Per square, its mailbox cell.
    pub cell: Vec<u16>,
    /// Per mailbox cell, its square (`u8::MAX` off the board).
    pub bit: Vec<u8>,
}

impl StoneTables {
    /// The tables of a `g` board's stone game: `targets(side, cell)` are
    /// the stone's moves from `cell` on an empty board (mailbox cells).
    pub(crate) fn new(g: &Geometry, rules: &Stones, targets: impl Fn(usize, usize) -> Vec<usize>) -> StoneTables {
        let (w, h) = (g.width as usize, g.height as usize);
        let cell: Vec<u16> = (0..w * h).map(|b| g.cell((b % w) as u8, (b / w) as u8) as u16).collect();
        let mut bit = vec![u8::MAX; g.cells];
        for (b, &c) in cell.iter().enumerate() {
            bit[c as usize] = b as u8;
        }
        let board: Bits = if w * h == 128 { !0 } else { (1 << (w * h)) - 1 };
        let file = |f: usize| (0..h).fold(0 as Bits, |m, r| m | 1 << (r * w + f));
        let shifts = DIRECTIONS.map(|(df, dr)| {
            let mask = match df {
                1 => board & !file(0),
                -1 => board & !file(w - 1),
                _ => board,
            };
            (dr as i32 * w as i32 + df as i32, mask)
        });
        let near = (0..w * h).map(|b| shifts.iter().fold(0, |m, &s| m | shift(1 << b, s))).collect();
        let set = |cells: &[usize]| cells.iter().fold(0 as Bits, |m, &c| m | 1 << bit[c]);
        let jumps = [0, 1].map(|side| (0..w * h).map(|b| set(&targets(side, cell[b] as usize))).collect());
        StoneTables {
            rules: rules.clone(),
            kind: 0,
            board,
            start: set(&g.squares().filter(|&c| rules.start.has(c)).collect::<Vec<_>>()),
            shifts,
            near,
            jumps,
            cell,
            bit,
        }
    }

    /// Where the stone of `side` on square `b` may move on an empty board.
    pub(crate) fn jumps(&self, side: usize, b: usize) -> Bits {
        self.jumps[side][b]
    }

    /// The node of a position.
    pub(crate) fn node(&self, pos: &Position) -> Node {
        let us = pos.side;
        let set = |side: usize| pos.lists[side].iter().fold(0 as Bits, |m, &c| m | 1 << self.bit[c as usize]);
        let held = |side: usize| pos.hands[side].get(self.kind).map_or(0, |&n| u16::from(n));
        Node { mine: set(us), theirs: set(us ^ 1), hands: [held(0), held(1)], side: us as u8, passes: pos.passes }
    }

    /// Has the game ended before the mover moves (two passes in a row, or
    /// a full board where that ends it)?
    #[inline(always)]
    pub(crate) fn over(&self, n: &Node) -> bool {
        n.passes >= 2 || (self.rules.full_board_ends && (n.mine | n.theirs) == self.board)
    }

    /// May the mover drop (a stone in hand, or free drops)?
    #[inline(always)]
    fn can_drop(&self, n: &Node) -> bool {
        self.rules.free_drops || n.hands[n.side as usize] > 0
    }

    /// Where the mover may drop.
    #[inline(always)]
    fn drop_targets(&self, n: &Node) -> Bits {
        let empty = self.board & !(n.mine | n.theirs);
        if self.start & empty != 0 {
            return self.start & empty;
        }
        match self.rules.drop {
            Enclosing::Ataxx => self.around(n.mine) & empty,
            Enclosing::Reversi => self.enclosing(n.mine, n.theirs, empty),
        }
    }

    /// The squares next to any of `set`.
    #[inline(always)]
    fn around(&self, set: Bits) -> Bits {
        self.shifts.iter().fold(0, |m, &s| m | shift(set, s))
    }

    /// The empty squares from which a line of `theirs` runs to one of `mine`.
    #[inline(always)]
    fn enclosing(&self, mine: Bits, theirs: Bits, empty: Bits) -> Bits {
        let mut out = 0;
        for &s in &self.shifts {
            let mut line = shift(mine, s) & theirs;
            let mut grown = 0;
            while line != grown {
                grown = line;
                line |= shift(line, s) & theirs;
            }
            out |= shift(line, s) & empty;
        }
        out
    }

    /// The stones a stone of the mover landing on `to` flips.
    #[inline(always)]
    fn flips(&self, mine: Bits, theirs: Bits, to: usize) -> Bits {
        match self.rules.flip {
            None => 0,
            Some(Enclosing::Ataxx) => self.near[to] & theirs,
            Some(Enclosing::Reversi) => {
                let mut out = 0;
                for &s in &self.shifts {
                    let mut line = 0;
                    let mut x = shift(1 << to, s) & theirs;
                    while x != 0 {
                        line |= x;
                        let next = shift(x, s);
                        if next & mine != 0 {
                            out |= line;
                            break;
                        }
                        x = next & theirs;
                    }
                }
                out
            }
        }
    }

    /// The number of moves of a node (perft's last ply).
    #[inline(always)]
    pub(crate) fn count(&self, n: &Node) -> u64 {
        if self.over(n) {
            return 0;
        }
        let empty = self.board & !(n.mine | n.theirs);
        let mut count = if self.can_drop(n) { self.drop_targets(n).count_ones() as u64 } else { 0 };
        let jumps = &self.jumps[n.side as usize];
        let mut stones = n.mine;
        while stones != 0 {
            let b = stones.trailing_zeros() as usize;
            stones &= stones - 1;
            count += (jumps[b] & empty).count_ones() as u64;
        }
        if count == 0 && n.mine != 0 && self.rules.pass_on_stalemate[n.side as usize] {
            return 1;
        }
        count
    }

    /// Calls `f` with every move of a node.
    #[inline(always)]
    pub(crate) fn for_each_move(&self, n: &Node, mut f: impl FnMut(StoneMove)) {
        if self.over(n) {
            return;
        }
        let empty = self.board & !(n.mine | n.theirs);
        let mut any = false;
        let jumps = &self.jumps[n.side as usize];
        let mut stones = n.mine;
        while stones != 0 {
            let from = stones.trailing_zeros() as u8;
            stones &= stones - 1;
            let mut to = jumps[from as usize] & empty;
            any |= to != 0;
            while to != 0 {
                f(StoneMove::Jump(from, to.trailing_zeros() as u8));
                to &= to - 1;
            }
        }
        if self.can_drop(n) {
            let mut to = self.drop_targets(n);
            any |= to != 0;
            while to != 0 {
                f(StoneMove::Drop(to.trailing_zeros() as u8));
                to &= to - 1;
            }
        }
        if !any && n.mine != 0 && self.rules.pass_on_stalemate[n.side as usize] {
            f(StoneMove::Pass(n.mine.trailing_zeros() as u8));
        }
    }

    /// The node after a move, and the stones it flipped.
    #[inline(always)]
    pub(crate) fn child(&self, n: &Node, mv: StoneMove) -> (Node, Bits) {
        let side = n.side as usize;
        let mut hands = n.hands;
        let (mut mine, to) = match mv {
            StoneMove::Pass(_) => {
                let next = Node { mine: n.theirs, theirs: n.mine, hands, side: n.side ^ 1, passes: n.passes + 1 };
                return (next, 0);
            }
            StoneMove::Drop(to) => {
                if !self.rules.free_drops {
                    hands[side] -= 1;
                }
                (n.mine | 1 << to, to as usize)
            }
            StoneMove::Jump(from, to) => (n.mine ^ (1 << from | 1 << to), to as usize),
        };
        let flipped = self.flips(mine, n.theirs, to);
        mine |= flipped;
        let next = Node { mine: n.theirs & !flipped, theirs: mine, hands, side: n.side ^ 1, passes: 0 };
        (next, flipped)
    }

    /// A node's move as a `Move` of the position.
    pub(crate) fn to_move(&self, mv: StoneMove) -> Move {
        let cell = |b: u8| self.cell[b as usize] as usize;
        match mv {
            StoneMove::Drop(to) => Move::drop(self.kind, cell(to)),
            StoneMove::Jump(from, to) => Move::plain(cell(from), cell(to)),
            StoneMove::Pass(sq) => Move::pass(cell(sq)),
        }
    }

    /// A position's move as a node's move (`None`: not a stone move).
    pub(crate) fn of_move(&self, mv: Move) -> Option<StoneMove> {
        let bit = |c: u16| self.bit.get(c as usize).copied().filter(|&b| b != u8::MAX);
        Some(match mv.special {
            Special::Pass => StoneMove::Pass(bit(mv.from)?),
            Special::Drop => StoneMove::Drop(bit(mv.to)?),
            Special::None => StoneMove::Jump(bit(mv.from)?, bit(mv.to)?),
            _ => return None,
        })
    }
}

/// `set` moved one step in a direction (the squares that leave the board
/// or wrap around to the other edge are dropped).
#[inline(always)]
fn shift(set: Bits, (delta, mask): (i32, Bits)) -> Bits {
    (if delta > 0 { set << delta } else { set >> -delta }) & mask
}
