//! A book as a tree of moves in memory: what the readers (PGN, text lines,
//! Polyglot) build and what `write` turns into Thompson's bytes.

use super::format::{RawBook, ROOT};
use crate::{Move, Position};
use std::collections::HashMap;

/// The index of a node in a `Tree`.
pub type NodeId = u32;

/// Style tags of a move (the document's "open, or closed, or whether a
/// gambit is offered"): bits open 1, closed 2, gambit 4.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Style(pub u8);

impl Style {
    /// The tags' names, in bit order.
    pub const NAMES: [&'static str; 3] = ["open", "closed", "gambit"];

    /// The one tag named `name` (any case), if it is one.
    pub fn from_name(name: &str) -> Option<Style> {
        Style::NAMES.iter().position(|n| n.eq_ignore_ascii_case(name)).map(|i| Style(1 << i))
    }

    /// The names of the tags set, in bit order.
    pub fn names(self) -> Vec<&'static str> {
        Style::NAMES.iter().enumerate().filter(|(i, _)| self.0 & (1 << i) != 0).map(|(_, n)| *n).collect()
    }

    /// True if no tag is set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// A move of the book, with the choices after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The move (meaningless for the root).
    pub mv: Move,
    /// False for a move to recognise but not to play.
    pub play: bool,
    /// Its style tags.
    pub style: Style,
    /// The choices after it, in book order.
    pub children: Vec<NodeId>,
    /// A transposition: the line goes on at this earlier node, which reaches
    /// the same position. A node with a link has no children of its own.
    pub link: Option<NodeId>,
}

/// The tree. Node 0 is the root (the start position); every other node is a
/// move, its children the choices after it in book order.
#[derive(Debug, Clone)]
pub struct Tree {
    root: Position,
    nodes: Vec<Node>,
}

impl Default for Tree {
    fn default() -> Tree {
        Tree::new()
    }
}

impl Tree {
    /// The root node: the start position.
    pub const ROOT: NodeId = 0;

    /// An empty book from the standard start position.
    pub fn new() -> Tree {
        let root = Node {
            mv: Move::normal(crate::Square::A1, crate::Square::A1),
            play: true,
            style: Style::default(),
            children: Vec::new(),
            link: None,
        };
        Tree { root: Position::startpos(), nodes: vec![root] }
    }

    /// The position the book starts from.
    pub fn root_position(&self) -> &Position {
        &self.root
    }

    /// The node `id`.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// The node `id`, to change.
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    /// The choices after node `id`, in book order.
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        &self.nodes[id as usize].children
    }

    /// The number of moves (nodes other than the root).
    pub fn len(&self) -> usize {
        self.nodes.len() - 1
    }

    /// True if the book has no moves.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    /// The child of `parent` that plays `mv`, if any.
    pub fn child(&self, parent: NodeId, mv: Move) -> Option<NodeId> {
        self.children(parent).iter().copied().find(|&c| self.node(c).mv == mv)
    }

    /// Adds `mv` after `parent`, or finds it there (merging lines). A move
    /// marked "do not play" anywhere stays marked.
    pub fn add_move(&mut self, parent: NodeId, mv: Move, play: bool) -> NodeId {
        if let Some(id) = self.child(parent, mv) {
            self.nodes[id as usize].play &= play;
            return id;
        }
        self.push_child(parent, Node { mv, play, style: Style::default(), children: Vec::new(), link: None })
    }

    /// Appends a new child without merging.
    pub fn push_child(&mut self, parent: NodeId, node: Node) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(node);
        self.nodes[parent as usize].children.push(id);
        id
    }

    /// Visits every move node in pre-order with the position before it.
    pub fn for_each(&self, mut f: impl FnMut(NodeId, &Position)) {
        let mut stack: Vec<(NodeId, Position)> =
            self.children(Tree::ROOT).iter().rev().map(|&c| (c, self.root)).collect();
        while let Some((id, before)) = stack.pop() {
            f(id, &before);
            let node = self.node(id);
            if !node.children.is_empty() {
                let after = before.play(node.mv);
                stack.extend(node.children.iter().rev().map(|&c| (c, after)));
            }
        }
    }

    /// The moves from the root to `id`.
    pub fn line_to(&self, id: NodeId) -> Vec<Move> {
        self.line_with(&self.parents(), id)
    }

    /// The parent of every node (`u32::MAX` for the root).
    pub fn parents(&self) -> Vec<NodeId> {
        let mut parents = vec![u32::MAX; self.nodes.len()];
        for (p, node) in self.nodes.iter().enumerate() {
            for &c in &node.children {
                parents[c as usize] = p as u32;
            }
        }
        parents
    }

    /// The moves from the root to `id`, given `parents()`.
    pub fn line_with(&self, parents: &[NodeId], id: NodeId) -> Vec<Move> {
        let mut line = Vec::new();
        let mut at = id;
        while at != Tree::ROOT && at != u32::MAX {
            line.push(self.node(at).mv);
            at = parents[at as usize];
        }
        line.reverse();
        line
    }

    /// True if both trees hold the same moves, marks, tags and links in the
    /// same order.
    pub fn same_as(&self, other: &Tree) -> bool {
        if !same_position(&self.root, &other.root) || self.len() != other.len() {
            return false;
        }
        // Walk both in pre-order, mapping ids to compare links.
        let mut map: HashMap<NodeId, NodeId> = HashMap::from([(Tree::ROOT, Tree::ROOT)]);
        let mut stack = vec![(Tree::ROOT, Tree::ROOT)];
        while let Some((a, b)) = stack.pop() {
            let (na, nb) = (self.node(a), other.node(b));
            if a != Tree::ROOT && (na.mv != nb.mv || na.play != nb.play || na.style != nb.style) {
                return false;
            }
            if na.children.len() != nb.children.len() || na.link.is_some() != nb.link.is_some() {
                return false;
            }
            if let (Some(la), Some(lb)) = (na.link, nb.link) {
                if map.get(&la) != Some(&lb) {
                    return false;
                }
            }
            map.insert(a, b);
            stack.extend(na.children.iter().copied().zip(nb.children.iter().copied()).rev());
        }
        true
    }

    /// The tree of a parsed book: every index becomes a move on the board.
    pub fn from_raw(raw: &RawBook) -> Result<Tree, DecodeError> {
        let mut tree = Tree::new();
        // (raw id, position after it) of the open line.
        let mut line: Vec<(u32, Position)> = Vec::new();
        let mut link_positions: HashMap<u32, Position> = HashMap::new();
        let targets: std::collections::HashSet<u32> = raw.nodes.iter().filter_map(|n| n.pointer()).collect();
        for (id, node) in raw.nodes.iter().enumerate() {
            let id = id as u32;
            while line.last().is_some_and(|&(top, _)| top != node.parent) {
                line.pop();
            }
            let before = line.last().map_or(tree.root, |&(_, p)| p);
            let mv = move_at(&before, node.index).ok_or_else(|| DecodeError {
                offset: move_byte_offset(raw, id),
                node: id,
                kind: DecodeErrorKind::IndexOutOfRange { index: node.index, count: before.legal_moves().len() },
            })?;
            let after = before.play(mv);
            let parent_tree = if node.parent == ROOT { Tree::ROOT } else { node.parent + 1 };
            let link = node.pointer().map(|t| t + 1);
            let style = Style(node.style());
            // Our writer merges a line into the moves already there; two
            // children with one move would make the dump and a rebuild differ.
            if tree.children(parent_tree).iter().any(|&c| tree.node(c).mv == mv) {
                return Err(DecodeError {
                    offset: move_byte_offset(raw, id),
                    node: id,
                    kind: DecodeErrorKind::DuplicateMove { index: node.index },
                });
            }
            tree.push_child(parent_tree, Node { mv, play: !node.avoid(), style, children: Vec::new(), link });
            if node.pointer().is_some() || targets.contains(&id) {
                link_positions.insert(id, after);
            }
            if node.has_children() {
                line.push((id, after));
            }
        }
        for (id, node) in raw.nodes.iter().enumerate() {
            if let Some(t) = node.pointer() {
                if !same_position(&link_positions[&(id as u32)], &link_positions[&t]) {
                    return Err(DecodeError {
                        offset: node.offset as usize,
                        node: id as u32,
                        kind: DecodeErrorKind::PointerToOtherPosition { target: raw.nodes[t as usize].offset },
                    });
                }
            }
        }
        Ok(tree)
    }
}

/// The `index`-th legal move of `pos`, if there is one.
pub fn move_at(pos: &Position, index: u8) -> Option<Move> {
    pos.legal_moves().get(index as usize).copied()
}

/// The offset of a node's move byte (after its extension bytes).
pub fn move_byte_offset(raw: &RawBook, id: u32) -> usize {
    // Extensions (pointers included) come first: the move byte is the last.
    let next = raw.nodes.get(id as usize + 1).map_or(raw.byte_len, |n| n.offset as usize);
    next.saturating_sub(1).max(raw.nodes[id as usize].offset as usize)
}

/// A book whose bytes are well formed but whose moves are not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// The byte at fault.
    pub offset: usize,
    /// The raw node at fault.
    pub node: u32,
    /// What is wrong.
    pub kind: DecodeErrorKind,
}

/// What is wrong with a book's moves.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeErrorKind {
    /// A move index beyond the position's legal moves.
    #[error("move index {index} does not exist: the position has {count} legal moves")]
    IndexOutOfRange {
        /// The index.
        index: u8,
        /// How many legal moves the position has.
        count: usize,
    },
    /// A move listed twice among one position's moves.
    #[error("move index {index} is listed twice in one position (a book holds each move of a position once)")]
    DuplicateMove {
        /// The index.
        index: u8,
    },
    /// A pointer whose target reaches another position.
    #[error("transposition pointer to byte {target}, which reaches another position")]
    PointerToOtherPosition {
        /// The target node's offset.
        target: u32,
    },
}

/// Same pieces, side to move, castling rights and en passant capture (the
/// clocks do not count). The e.p. square counts only when an en passant
/// capture is legal, as in the FEN that python-chess and most GUIs write:
/// our move sets it whenever a pawn attacks the square, even a pinned one,
/// and a FEN from another program may give it after every double push.
pub fn same_position(a: &Position, b: &Position) -> bool {
    use crate::{Color, Role};
    a.turn() == b.turn()
        && a.by_color(Color::White) == b.by_color(Color::White)
        && a.by_color(Color::Black) == b.by_color(Color::Black)
        && Role::ALL.iter().all(|&r| a.by_role(r) == b.by_role(r))
        && a.castling_rights() == b.castling_rights()
        && (a.ep_square() == b.ep_square() || legal_ep(a) == legal_ep(b))
}

/// The square of the legal en passant capture, if there is one.
fn legal_ep(pos: &Position) -> Option<crate::Square> {
    pos.ep_square()?;
    pos.legal_moves().iter().find(|m| m.is_en_passant()).map(|m| m.to())
}

/// A line of moves as PGN movetext: `1. e4 e5 2. Nf3`, `3... Nc6`.
pub fn format_line(start: &Position, moves: &[Move]) -> String {
    let mut out = String::new();
    let mut pos = *start;
    for (i, &mv) in moves.iter().enumerate() {
        if !out.is_empty() {
            out.push(' ');
        }
        if pos.turn().is_white() {
            out.push_str(&format!("{}. ", pos.fullmoves()));
        } else if i == 0 {
            out.push_str(&format!("{}... ", pos.fullmoves()));
        }
        out.push_str(&pos.san(mv));
        pos = pos.play(mv);
    }
    out
}

/// The plies a shortened line shows at each end.
pub const LINE_ENDS: usize = 6;

/// [`format_line`] for messages, bounded: a line longer than `2 * LINE_ENDS`
/// plies shows its first and last `LINE_ENDS` moves and its length, as
/// `1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 … 9999. Ng1 Ng8 10000. Nf3 Nf6 (20000
/// plies)` (one line of a book can be as long as the whole book).
pub fn format_line_short(start: &Position, moves: &[Move]) -> String {
    if moves.len() <= 2 * LINE_ENDS {
        return format_line(start, moves);
    }
    let (head, rest) = moves.split_at(LINE_ENDS);
    let (middle, tail) = rest.split_at(rest.len() - LINE_ENDS);
    let mut pos = *start;
    for &mv in head.iter().chain(middle) {
        pos = pos.play(mv);
    }
    format!("{} … {} ({} plies)", format_line(start, head), format_line(&pos, tail), moves.len())
}

/// The moves of the raw nodes from the root to `id`, as far as they decode,
/// written as PGN movetext (an index that does not decode is shown as `#N`),
/// shortened as [`format_line_short`] shortens.
pub fn raw_line(raw: &RawBook, id: u32) -> String {
    if id == ROOT || id as usize >= raw.nodes.len() {
        return "the start".to_string();
    }
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    let mut undecoded = Vec::new();
    for node in raw.path_to(id) {
        let index = raw.nodes[node as usize].index;
        match move_at(&pos, index) {
            Some(mv) if undecoded.is_empty() => {
                moves.push(mv);
                pos = pos.play(mv);
            }
            _ => undecoded.push(index),
        }
    }
    let mut tail: String = undecoded.iter().take(LINE_ENDS).map(|index| format!(" #{index}")).collect();
    if undecoded.len() > LINE_ENDS {
        tail.push_str(&format!(" … ({} more)", undecoded.len() - LINE_ENDS));
    }
    let line = format_line_short(&Position::startpos(), &moves);
    let line = format!("{line}{tail}").trim().to_string();
    if line.is_empty() {
        "the start".to_string()
    } else {
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Nf3 Nf6 Ng1 Ng8` repeated: `plies` moves from the start.
    fn shuffle(plies: usize) -> Vec<Move> {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8"].iter().cycle().take(plies) {
            let mv = pos.parse_uci(uci).unwrap();
            moves.push(mv);
            pos = pos.play(mv);
        }
        moves
    }

    #[test]
    fn a_line_of_twelve_plies_is_whole_and_a_longer_one_shows_its_ends() {
        let start = Position::startpos();
        let twelve = format_line_short(&start, &shuffle(12));
        assert_eq!(twelve, "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8");
        assert_eq!(twelve, format_line(&start, &shuffle(12)));
        // 13 plies: ply 7 (4. Ng1) is left out; the tail starts with Black's
        // 4... Ng8, its number written.
        assert_eq!(
            format_line_short(&start, &shuffle(13)),
            "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 … 4... Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 (13 plies)"
        );
        // 40,000 plies are 20,000 moves; ply 39,995 is White's 19998. Ng1.
        assert_eq!(
            format_line_short(&start, &shuffle(40_000)),
            "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 … 19998. Ng1 Ng8 19999. Nf3 Nf6 20000. Ng1 Ng8 (40000 plies)"
        );
    }
}
