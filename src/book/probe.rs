//! Probing a book: the moves of a position, found by following the given
//! moves down the tree and by walking the tree for every other place where
//! the position stands (the document's answer to transpositions). The walk
//! skips every line that cannot lead to the position: a line that has lost
//! material, a castling right or a pawn from its starting rank that the
//! position still has is never followed further (`Needs`: each bound is
//! argued where it is checked; tests/book_probe_sound.rs compares the
//! pruned walk with a walk of the whole tree).

use super::format::{RawBook, ROOT};
use super::tree::{move_at, move_byte_offset, same_position, DecodeError, DecodeErrorKind, Style};
use super::verify::Fault;
use crate::board::{Bitboard, Color, Rank, Role};
use crate::{Move, MoveList, Position};

/// A book loaded for probing: its bytes' structure, moves decoded on demand.
pub struct Book {
    raw: RawBook,
    root: Position,
    /// For each node, the most plies its line goes on below it in place.
    heights: Vec<u32>,
}

/// One book move of a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// False for a move to recognise but not to play.
    pub play: bool,
    /// Its style tags.
    pub style: Style,
}

/// The answer of a probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// Book moves in book order: those of the place the given moves lead to
    /// first, then those that other places add.
    pub moves: Vec<BookMove>,
    /// True when the answer needed another place than the one the given
    /// moves lead to (their line leaves the tree, goes through a
    /// transposition pointer, or another place adds moves).
    pub transposition: bool,
    /// Every place where the position stands, in book order: the node after
    /// which it stands (`ROOT` for the start). [`Book::line_of`] gives a
    /// place's moves; a long line can hold the position at thousands of
    /// places, so callers show a few rather than build every line.
    pub places: Vec<u32>,
}

impl Book {
    /// Reads the structure of a book (no board work yet).
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, Fault> {
        let raw = super::verify::parse(bytes)?;
        let heights = heights(&raw);
        Ok(Book { raw, root: Position::startpos(), heights })
    }

    /// A move that does not decode, as a fault naming the byte and the line.
    pub fn fault(&self, e: DecodeError) -> Fault {
        super::verify::decode_fault(&self.raw, e)
    }

    /// The structure of the book's bytes.
    pub fn raw(&self) -> &RawBook {
        &self.raw
    }

    /// The position the book starts from.
    pub fn root(&self) -> &Position {
        &self.root
    }

    fn decode(&self, id: u32, before: &Position) -> Result<Move, DecodeError> {
        let node = &self.raw.nodes[id as usize];
        move_at(before, node.index).ok_or_else(|| DecodeError {
            offset: move_byte_offset(&self.raw, id),
            node: id,
            kind: DecodeErrorKind::IndexOutOfRange { index: node.index, count: before.legal_moves().len() },
        })
    }

    /// The node the moves lead to by the tree's own edges (following a
    /// pointer where the line goes through one), with "a pointer was used".
    fn follow(&self, line: &[Move]) -> Result<Option<(u32, bool)>, DecodeError> {
        let mut at = ROOT;
        let mut pos = self.root;
        let mut via_pointer = false;
        for &mv in line {
            let Some(index) = pos.legal_moves().iter().position(|&m| m == mv) else { return Ok(None) };
            let Some(child) = self.raw.children(at).find(|&c| self.raw.nodes[c as usize].index as usize == index)
            else {
                return Ok(None);
            };
            self.decode(child, &pos)?;
            at = match self.raw.nodes[child as usize].pointer() {
                Some(target) => {
                    via_pointer = true;
                    target
                }
                None => child,
            };
            pos = pos.play(mv);
        }
        Ok(Some((at, via_pointer)))
    }

    /// Every node after which the position stands (`ROOT` for the start),
    /// in book order. Pointers are not followed: their targets stand in the
    /// tree themselves.
    fn places(&self, target: &Position) -> Result<Vec<u32>, DecodeError> {
        let mut found = Vec::new();
        if same_position(&self.root, target) {
            found.push(ROOT);
        }
        let need = Needs::of(target);
        let root_height =
            self.heights.iter().zip(&self.raw.nodes).filter(|(_, n)| n.parent == ROOT).map(|(h, _)| h + 1);
        if !need.met_by(&self.root, root_height.max().unwrap_or(0)) {
            return Ok(found);
        }
        // Along the current line, by ply (0 = the root): the position and,
        // once needed, its legal moves (shared by all its children).
        let mut line: Vec<(Position, Option<MoveList>)> = vec![(self.root, None)];
        let nodes = &self.raw.nodes;
        let mut i = 0usize;
        while i < nodes.len() {
            let node = &nodes[i];
            let (before, moves) = &mut line[node.ply as usize - 1];
            let moves = moves.get_or_insert_with(|| before.legal_moves());
            let mv = *moves.get(node.index as usize).ok_or_else(|| self.index_error(i as u32, moves.len()))?;
            let after = before.play(mv);
            if node.pointer().is_none() && same_position(&after, target) {
                found.push(i as u32);
            }
            if node.has_children() && need.met_by(&after, self.heights[i]) {
                line.truncate(node.ply as usize);
                line.push((after, None));
                i += 1;
            } else {
                i = node.end as usize;
            }
        }
        Ok(found)
    }

    fn index_error(&self, id: u32, count: usize) -> DecodeError {
        let index = self.raw.nodes[id as usize].index;
        DecodeError {
            offset: move_byte_offset(&self.raw, id),
            node: id,
            kind: DecodeErrorKind::IndexOutOfRange { index, count },
        }
    }

    /// The book moves of `target`. `line` is the moves that led there from
    /// the start, if known (they are followed first).
    pub fn probe(&self, target: &Position, line: Option<&[Move]>) -> Result<Probe, DecodeError> {
        let direct = match line {
            Some(line) => self.follow(line)?,
            None => None,
        };
        let places = self.places(target)?;
        let mut order: Vec<u32> = Vec::new();
        let mut transposition = false;
        match direct {
            Some((at, via_pointer)) => {
                order.push(at);
                transposition |= via_pointer;
            }
            None => transposition |= line.is_some() && !places.is_empty(),
        }
        // `places` holds each node once: only the direct place can repeat.
        order.extend(places.iter().filter(|&&p| Some(p) != direct.map(|(at, _)| at)));
        let mut moves: Vec<BookMove> = Vec::new();
        for (n, &place) in order.iter().enumerate() {
            for child in self.raw.children(place) {
                let node = &self.raw.nodes[child as usize];
                let mv = self.decode(child, target)?;
                match moves.iter_mut().find(|b| b.mv == mv) {
                    Some(known) => {
                        known.play &= !node.avoid();
                        known.style.0 |= node.style();
                    }
                    None => {
                        transposition |= n > 0;
                        moves.push(BookMove { mv, play: !node.avoid(), style: Style(node.style()) });
                    }
                }
            }
        }
        Ok(Probe { moves, transposition, places })
    }

    /// The moves from the start to node `id`.
    pub fn line_of(&self, id: u32) -> Result<Vec<Move>, DecodeError> {
        if id == ROOT {
            return Ok(Vec::new());
        }
        let mut pos = self.root;
        let mut moves = Vec::new();
        for node in self.raw.path_to(id) {
            let mv = self.decode(node, &pos)?;
            moves.push(mv);
            pos = pos.play(mv);
        }
        Ok(moves)
    }
}

/// What a line must still have to reach a position, used to skip lines
/// that cannot lead to it. Every bound is a necessary condition: a line
/// that reaches the target within the plies left below a node passes all
/// of them (a bound that is only "usually" true loses positions that are in
/// the book). The argument for each one is written where it is checked, in
/// `met_by`. Two facts carry most of them:
/// - a side's pieces only go, and only by a capture, which is one move of
///   the other side and removes exactly one piece (en passant included);
/// - a pawn only moves forward, never reaches its own first two ranks again
///   and never comes back once promoted.
struct Needs {
    pieces: [u32; 2],
    pawns: [u32; 2],
    /// Knights, bishops, rooks and queens (more only by promoting a pawn).
    officers: [[u32; 4]; 2],
    /// Pawns on the first `r + 1` ranks seen from their side (they only
    /// ever leave those ranks).
    pawns_behind: [[u32; 8]; 2],
    castling: Bitboard,
    home_pawns: [Bitboard; 2],
}

const OFFICERS: [Role; 4] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

/// Pawns of `c` on their first `r + 1` ranks, for each `r`.
fn pawns_behind(pos: &Position, c: Color) -> [u32; 8] {
    let pawns = pos.pieces(c, Role::Pawn).0;
    std::array::from_fn(|r| {
        let low = if r == 7 { u64::MAX } else { (1u64 << (8 * (r + 1))) - 1 };
        let mask = if c.is_white() { low } else { low.reverse_bits() };
        (pawns & mask).count_ones()
    })
}

fn home_rank(c: Color) -> Bitboard {
    Bitboard::rank(if c.is_white() { Rank::Second } else { Rank::Seventh })
}

impl Needs {
    fn of(target: &Position) -> Needs {
        Needs {
            pieces: Color::ALL.map(|c| target.by_color(c).count()),
            pawns: Color::ALL.map(|c| target.pieces(c, Role::Pawn).count()),
            officers: Color::ALL.map(|c| OFFICERS.map(|r| target.pieces(c, r).count())),
            pawns_behind: Color::ALL.map(|c| pawns_behind(target, c)),
            castling: target.castling_rooks(),
            home_pawns: Color::ALL.map(|c| target.pieces(c, Role::Pawn) & home_rank(c)),
        }
    }

    /// False only if `pos` cannot lead to the position in `plies` plies or
    /// fewer (so it is safe to skip every line below `pos`).
    fn met_by(&self, pos: &Position, plies: u32) -> bool {
        // Castling rights are never regained: a king or rook move, a rook
        // captured on its square (or castling) only removes them.
        if (self.castling & !pos.castling_rooks()).any() {
            return false;
        }
        let mut losses = [0u32; 2];
        let mut leaves = [0u32; 2];
        for (i, &c) in Color::ALL.iter().enumerate() {
            let pawns = pos.pieces(c, Role::Pawn);
            let pieces = pos.by_color(c).count();
            // Pieces and pawns never appear: a capture removes one, a
            // promotion turns a pawn into another piece (the count of
            // pieces stays, the count of pawns drops).
            if pieces < self.pieces[i] || pawns.count() < self.pawns[i] {
                return false;
            }
            // No pawn ever arrives on its side's second rank (it would have
            // to come from the first): a pawn there in the target stood on
            // that very square all along.
            if (self.home_pawns[i] & !pawns).any() {
                return false;
            }
            // A knight, bishop, rook or queen more than `pos` has can only
            // come from a promotion, which uses up one pawn each: at least
            // that many of the pawns `pos` has beyond the target's. (Pieces
            // captured on the way only need more promotions.)
            let promotions: u32 =
                OFFICERS.iter().zip(self.officers[i]).map(|(&r, n)| n.saturating_sub(pos.pieces(c, r).count())).sum();
            if promotions > pawns.count() - self.pawns[i] {
                return false;
            }
            // A pawn's rank (seen from its side) never goes down, so each
            // target pawn on the first r + 1 ranks was, in `pos`, a distinct
            // pawn on those ranks too.
            let behind = pawns_behind(pos, c);
            if (0..8).any(|r| behind[r] < self.pawns_behind[i][r]) {
                return false;
            }
            // Pieces only go by capture, so exactly `losses[i]` captures of
            // this side's pieces happen on the way: one move of the other
            // side each.
            losses[i] = pieces - self.pieces[i];
            // The target's home-rank pawns are a subset of `pos`'s (checked
            // above); each other one of `pos`'s home-rank pawns leaves its
            // square, either by moving (a move of this side) or by being
            // captured there (a move of the other side, and then one of the
            // `losses[i]`). So at least `gone - losses` of them move. The
            // capture of a home-rank pawn is the case the first version
            // missed (issue 34: `Qxb2` at the end of a line): it counted
            // every one as a move of its own side.
            let gone = (pawns & home_rank(c)).count() - self.home_pawns[i].count();
            leaves[i] = gone.saturating_sub(losses[i]);
        }
        // Moves each side still has: the side to move gets the odd ply.
        // Fewer plies give fewer moves, so checking the most plies below
        // the node also covers every shorter way down. One move can be a
        // capture and a pawn leaving its rank at once (a pawn capture from
        // the second rank): take the larger of the two, not the sum.
        let to_move = pos.turn() as usize;
        let mut moves = [plies / 2; 2];
        moves[to_move] = plies.div_ceil(2);
        (0..2).all(|i| moves[i] >= losses[1 - i].max(leaves[i]))
    }
}

/// For each node, the most plies its line goes on below it in place.
fn heights(raw: &RawBook) -> Vec<u32> {
    let mut heights = vec![0u32; raw.nodes.len()];
    for i in (0..raw.nodes.len()).rev() {
        let parent = raw.nodes[i].parent;
        if parent != ROOT {
            heights[parent as usize] = heights[parent as usize].max(heights[i] + 1);
        }
    }
    heights
}
