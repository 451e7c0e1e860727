//! The bytes of a Thompson book and their structure, read without a board.
//!
//! A book is its nodes in pre-order (a move, then its line, then the next
//! choice in the same position). A node is zero or more extension bytes
//! (bits 6-7 both set) followed by one move byte:
//!
//! ```text
//! node      := extension* move-byte
//! move-byte := ')'? '('? index        bit 7, bit 6, bits 0-5 = 0..=62
//! ```
//!
//! The extension codes (the byte is `0xC0 | code`):
//!
//! | byte | code | meaning for the move that follows |
//! |------|------|-----------------------------------|
//! | `0xC0` | 0 | its line ends here although its move byte has `(`: the one move that carries both `(` and `)` |
//! | `0xC3` | 3 | recognise it but do not play it (Spracklen's "1100011") |
//! | `0xC4 hi lo` | 4 | transposition (Spracklen's "11000100"): its line goes on at the node whose first byte is at the 16-bit big-endian offset that follows |
//! | `0xC5 b2 b1 b0` | 5 | the same with a 24-bit offset |
//! | `0xC8`, `0xC9`, `0xCA` | 8-10 | style tags: open, closed, gambit |
//! | `0xD1`, `0xD2`, `0xD3` | 17-19 | index escape: add 63, 126 or 189 to the move byte's index (a position has at most 218 moves) |
//!
//! Every other code is reserved and rejected. Each code appears at most once
//! per node. A move byte with `)` never follows `0xC0` or a pointer: those
//! already end the line. A pointer's target must be a node whose line goes on
//! in the book (not a line end, not another pointer) and must reach the same
//! position (checked by `verify`, which has the board).

use std::fmt;

/// The two tree bits of a move byte.
pub const OPEN: u8 = 0x40;
/// Bit 7 of a move byte: `)`.
pub const CLOSE: u8 = 0x80;
/// Both tree bits: an extension byte.
pub const EXTENSION: u8 = 0xC0;
/// The largest index a move byte holds directly.
pub const MAX_DIRECT_INDEX: u8 = 62;
/// Each index escape step adds this much.
pub const ESCAPE_STEP: u8 = 63;

/// Extension codes (the whole byte).
pub mod ext {
    /// `0xC0`: the line ends here although the move byte has `(`.
    pub const END: u8 = 0xC0;
    /// `0xC3`: recognise the move but do not play it.
    pub const AVOID: u8 = 0xC3;
    /// `0xC4`: a transposition pointer with a 16-bit offset.
    pub const POINTER16: u8 = 0xC4;
    /// `0xC5`: a transposition pointer with a 24-bit offset.
    pub const POINTER24: u8 = 0xC5;
    /// `0xC8`: style tag open.
    pub const STYLE_OPEN: u8 = 0xC8;
    /// `0xC9`: style tag closed.
    pub const STYLE_CLOSED: u8 = 0xC9;
    /// `0xCA`: style tag gambit.
    pub const STYLE_GAMBIT: u8 = 0xCA;
    /// `0xD1`: the first index escape (adds 63).
    pub const ESCAPE1: u8 = 0xD1;
    /// `0xD3`: the last index escape (adds 189).
    pub const ESCAPE3: u8 = 0xD3;
}

/// Flag bits of a `RawNode`.
pub mod flag {
    /// Another choice follows (`(`).
    pub const SIBLING: u8 = 1;
    /// No line follows in place (`)`, `0xC0` or a pointer).
    pub const ENDS: u8 = 2;
    /// The move is to be recognised but not played (`0xC3`).
    pub const AVOID: u8 = 4;
    /// The node is a transposition pointer (`target` is set).
    pub const POINTER: u8 = 8;
    /// Style tags, shifted: open, closed, gambit.
    pub const STYLE_SHIFT: u8 = 4;
}

/// No parent: a node at the root.
pub const ROOT: u32 = u32::MAX;

/// One node as the bytes describe it, before any board is involved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawNode {
    /// Offset of the node's first byte (its first extension, or its move byte).
    pub offset: u32,
    /// The index of its move in the parent position's legal moves.
    pub index: u8,
    /// `flag::*` bits.
    pub flags: u8,
    /// Index of the parent node in pre-order, or `ROOT`.
    pub parent: u32,
    /// Pre-order index just past this node's line (its subtree).
    pub end: u32,
    /// For a pointer: the index of the target node (resolved after parsing).
    pub target: u32,
    /// Depth in plies (1 for a move at the root).
    pub ply: u32,
}

impl RawNode {
    /// True if another choice follows in the same position (`(`).
    pub fn has_sibling(&self) -> bool {
        self.flags & flag::SIBLING != 0
    }
    /// True if the node's line goes on in place (it has children right after it).
    pub fn has_children(&self) -> bool {
        self.flags & flag::ENDS == 0
    }
    /// True if the move is to be recognised but not played.
    pub fn avoid(&self) -> bool {
        self.flags & flag::AVOID != 0
    }
    /// For a pointer, the index of the target node.
    pub fn pointer(&self) -> Option<u32> {
        (self.flags & flag::POINTER != 0).then_some(self.target)
    }
    /// Style tags as `Style` bits (open 1, closed 2, gambit 4).
    pub fn style(&self) -> u8 {
        self.flags >> flag::STYLE_SHIFT
    }
}

/// What is wrong with the bytes, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError {
    /// The byte at fault (the length of the file for a truncation).
    pub offset: usize,
    /// The node whose line was being read (its children or its next
    /// choice), to name the line of moves; `ROOT` at the top.
    pub context: u32,
    /// What is wrong.
    pub kind: FormatErrorKind,
}

/// What is wrong with a book's bytes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatErrorKind {
    /// The book ends after an extension byte, before its move byte.
    #[error("the book is truncated: it ends inside a node (an extension byte without its move byte)")]
    TruncatedNode,
    /// The book ends with this many choices or lines unfinished.
    #[error("the book is truncated: {0} choice(s) announced by `(` or an unfinished line are missing")]
    TruncatedTree(usize),
    /// The book ends inside a pointer's offset.
    #[error("the book is truncated inside the offset of a transposition pointer")]
    TruncatedPointer,
    /// A move byte (given) holds the reserved index 63.
    #[error("byte 0x{0:02x}: index 63 is reserved (indices above 62 use an escape)")]
    ReservedIndex(u8),
    /// A reserved extension code (the byte given).
    #[error("unknown extension code 0x{0:02x}")]
    UnknownExtension(u8),
    /// An extension code (given) twice for one move.
    #[error("extension 0x{0:02x} given twice for one move")]
    DuplicateExtension(u8),
    /// `0xC0` before a move byte without `(`, with `)`, or with a pointer.
    #[error("extension 0xc0 (line ends before another choice) must precede a move byte with `(` and without `)`")]
    MisplacedEnd,
    /// A pointer before a move byte with `)`.
    #[error("a transposition pointer must precede a move byte without `)` and without 0xc0")]
    MisplacedPointer,
    /// An escaped index (given) beyond 217.
    #[error("escaped index {0} is beyond 217, the most moves minus one any position has")]
    IndexTooLarge(u16),
    /// This many bytes follow the end of the tree.
    #[error("{0} byte(s) after the end of the tree")]
    TrailingBytes(usize),
    /// A pointer to an offset (given) past the end of the book.
    #[error("transposition pointer to byte {0}, past the end of the book")]
    PointerPastEnd(u32),
    /// A pointer to an offset (given) that is not a node's first byte.
    #[error("transposition pointer to byte {0}, which is not the first byte of a move")]
    PointerNotANode(u32),
    /// A pointer to a node (its offset given) whose line does not go on.
    #[error("transposition pointer to byte {0}, whose line does not go on in the book")]
    PointerToLineEnd(u32),
    /// A pointer to its own node.
    #[error("transposition pointer to itself")]
    PointerToItself,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.offset, self.kind)
    }
}

impl std::error::Error for FormatError {}

/// A book's bytes with their structure: nodes in pre-order.
#[derive(Debug, Clone, Default)]
pub struct RawBook {
    /// The nodes, in pre-order.
    pub nodes: Vec<RawNode>,
    /// The length of the book in bytes.
    pub byte_len: usize,
}

impl RawBook {
    /// Reads the structure of `bytes`. On error, also returns the nodes read
    /// so far (to name the line of moves that leads to the fault).
    pub fn parse(bytes: &[u8]) -> Result<RawBook, (FormatError, RawBook)> {
        let mut parser = Parser { bytes, pos: 0, nodes: Vec::with_capacity(bytes.len()) };
        match parser.run() {
            Ok(()) => Ok(RawBook { nodes: parser.nodes, byte_len: bytes.len() }),
            Err(e) => Err((e, RawBook { nodes: parser.nodes, byte_len: bytes.len() })),
        }
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True if the book has no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The children of `parent` (or the moves at the root for `ROOT`), in
    /// book order; empty for a node whose line does not go on in place.
    pub fn children(&self, parent: u32) -> Children<'_> {
        let first = if parent == ROOT {
            (!self.nodes.is_empty()).then_some(0)
        } else {
            let node = &self.nodes[parent as usize];
            node.has_children().then_some(parent + 1)
        };
        Children { book: self, next: first }
    }

    /// The nodes from the root down to `id` (inclusive).
    pub fn path_to(&self, id: u32) -> Vec<u32> {
        let mut path = Vec::new();
        let mut at = id;
        while at != ROOT {
            path.push(at);
            at = self.nodes[at as usize].parent;
        }
        path.reverse();
        path
    }
}

/// Iterator over the children of one node.
pub struct Children<'a> {
    book: &'a RawBook,
    next: Option<u32>,
}

impl Iterator for Children<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        let id = self.next?;
        let node = &self.book.nodes[id as usize];
        self.next = node.has_sibling().then_some(node.end);
        Some(id)
    }
}

/// The extensions read before a move byte.
#[derive(Default)]
struct Prefix {
    flags: u8,
    end: bool,
    escape: u16,
    pointer: Option<u32>,
}

struct Parser<'a> {
    bytes: &'a [u8],
    pos: usize,
    nodes: Vec<RawNode>,
}

impl Parser<'_> {
    fn error(&self, offset: usize, context: u32, kind: FormatErrorKind) -> FormatError {
        FormatError { offset, context, kind }
    }

    fn run(&mut self) -> Result<(), FormatError> {
        if self.bytes.is_empty() {
            return Ok(());
        }
        // Parents whose next choice is still to come (pushed by `(`).
        let mut choices: Vec<u32> = Vec::new();
        // Nodes whose line is still open, for `end`.
        let mut open: Vec<u32> = Vec::new();
        let mut parent = ROOT;
        loop {
            if self.pos >= self.bytes.len() {
                // The node expected here, and every choice still announced.
                let missing = choices.len() + 1;
                return Err(self.error(self.bytes.len(), parent, FormatErrorKind::TruncatedTree(missing)));
            }
            let id = self.nodes.len() as u32;
            let node = self.read_node(parent)?;
            let ply = node.ply;
            while let Some(&top) = open.last() {
                if self.nodes[top as usize].ply >= ply {
                    self.nodes[top as usize].end = id;
                    open.pop();
                } else {
                    break;
                }
            }
            self.nodes.push(node);
            open.push(id);
            if node.has_sibling() {
                choices.push(parent);
            }
            if node.has_children() {
                parent = id;
                continue;
            }
            match choices.pop() {
                Some(p) => parent = p,
                None => break,
            }
        }
        let end = self.nodes.len() as u32;
        for id in open {
            self.nodes[id as usize].end = end;
        }
        if self.pos < self.bytes.len() {
            let trailing = self.bytes.len() - self.pos;
            return Err(self.error(self.pos, ROOT, FormatErrorKind::TrailingBytes(trailing)));
        }
        self.resolve_pointers()
    }

    fn read_node(&mut self, parent: u32) -> Result<RawNode, FormatError> {
        let start = self.pos;
        let mut seen: u64 = 0;
        let mut prefix = Prefix::default();
        loop {
            let Some(&byte) = self.bytes.get(self.pos) else {
                return Err(self.error(self.bytes.len(), parent, FormatErrorKind::TruncatedNode));
            };
            let at = self.pos;
            self.pos += 1;
            if byte & EXTENSION != EXTENSION {
                return self.finish_node(parent, start, byte, prefix, at);
            }
            let code = byte & 63;
            let duplicate = match byte {
                ext::POINTER16 | ext::POINTER24 => prefix.pointer.is_some(),
                ext::ESCAPE1..=ext::ESCAPE3 => prefix.escape != 0,
                _ => seen & (1 << code) != 0,
            };
            if duplicate {
                return Err(self.error(at, parent, FormatErrorKind::DuplicateExtension(byte)));
            }
            seen |= 1 << code;
            match byte {
                ext::END => prefix.end = true,
                ext::AVOID => prefix.flags |= flag::AVOID,
                ext::POINTER16 | ext::POINTER24 => {
                    let width = if byte == ext::POINTER16 { 2 } else { 3 };
                    let Some(raw) = self.bytes.get(self.pos..self.pos + width) else {
                        return Err(self.error(self.bytes.len(), parent, FormatErrorKind::TruncatedPointer));
                    };
                    prefix.pointer = Some(raw.iter().fold(0u32, |acc, &b| acc << 8 | b as u32));
                    self.pos += width;
                }
                ext::STYLE_OPEN..=ext::STYLE_GAMBIT => {
                    prefix.flags |= 1 << (flag::STYLE_SHIFT + (byte - ext::STYLE_OPEN))
                }
                ext::ESCAPE1..=ext::ESCAPE3 => prefix.escape = (byte - ext::ESCAPE1 + 1) as u16 * ESCAPE_STEP as u16,
                _ => return Err(self.error(at, parent, FormatErrorKind::UnknownExtension(byte))),
            }
        }
    }

    fn finish_node(
        &mut self,
        parent: u32,
        start: usize,
        byte: u8,
        prefix: Prefix,
        at: usize,
    ) -> Result<RawNode, FormatError> {
        let field = byte & 63;
        if field > MAX_DIRECT_INDEX {
            return Err(self.error(at, parent, FormatErrorKind::ReservedIndex(byte)));
        }
        let index = field as u16 + prefix.escape;
        if index > 217 {
            return Err(self.error(at, parent, FormatErrorKind::IndexTooLarge(index)));
        }
        let open = byte & OPEN != 0;
        let close = byte & CLOSE != 0;
        if prefix.end && (!open || close || prefix.pointer.is_some()) {
            return Err(self.error(at, parent, FormatErrorKind::MisplacedEnd));
        }
        if prefix.pointer.is_some() && close {
            return Err(self.error(at, parent, FormatErrorKind::MisplacedPointer));
        }
        let mut flags = prefix.flags;
        if open {
            flags |= flag::SIBLING;
        }
        if close || prefix.end {
            flags |= flag::ENDS;
        }
        if prefix.pointer.is_some() {
            flags |= flag::POINTER | flag::ENDS;
        }
        let ply = if parent == ROOT { 1 } else { self.nodes[parent as usize].ply + 1 };
        let target = prefix.pointer.unwrap_or(0);
        Ok(RawNode { offset: start as u32, index: index as u8, flags, parent, end: 0, target, ply })
    }

    /// Turns pointer offsets into node indices and checks them.
    fn resolve_pointers(&mut self) -> Result<(), FormatError> {
        for id in 0..self.nodes.len() {
            let node = self.nodes[id];
            let Some(offset) = node.pointer() else { continue };
            let kind = if offset as usize >= self.bytes.len() {
                Some(FormatErrorKind::PointerPastEnd(offset))
            } else {
                match self.nodes.binary_search_by_key(&offset, |n| n.offset) {
                    Err(_) => Some(FormatErrorKind::PointerNotANode(offset)),
                    Ok(t) if t == id => Some(FormatErrorKind::PointerToItself),
                    Ok(t) if !self.nodes[t].has_children() => Some(FormatErrorKind::PointerToLineEnd(offset)),
                    Ok(t) => {
                        self.nodes[id].target = t as u32;
                        None
                    }
                }
            };
            if let Some(kind) = kind {
                return Err(self.error(node.offset as usize, id as u32, kind));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(bytes: &[u8]) -> Result<Vec<(u8, u8, u32, u32)>, FormatErrorKind> {
        RawBook::parse(bytes)
            .map(|b| b.nodes.iter().map(|n| (n.index, n.flags, n.parent, n.end)).collect())
            .map_err(|(e, _)| e.kind)
    }

    #[test]
    fn thompson_tree_shape() {
        // (a (b c) d) e)  ->  a{b{c}, d}, e
        let bytes = [OPEN, OPEN | 1, CLOSE | 2, CLOSE | 3, CLOSE | 4];
        let nodes = parse(&bytes).unwrap();
        assert_eq!(nodes.len(), 5);
        assert_eq!(nodes[0], (0, flag::SIBLING, ROOT, 4));
        assert_eq!(nodes[1], (1, flag::SIBLING, 0, 3));
        assert_eq!(nodes[2], (2, flag::ENDS, 1, 3));
        assert_eq!(nodes[3], (3, flag::ENDS, 0, 4));
        assert_eq!(nodes[4], (4, flag::ENDS, ROOT, 5));
        let book = RawBook::parse(&bytes).unwrap();
        assert_eq!(book.children(ROOT).collect::<Vec<_>>(), [0, 4]);
        assert_eq!(book.children(0).collect::<Vec<_>>(), [1, 3]);
        assert_eq!(book.children(1).collect::<Vec<_>>(), [2]);
        assert_eq!(book.children(2).count(), 0);
    }

    #[test]
    fn extensions() {
        // a leaf with a sibling, an avoided move with an escaped index, a pointer.
        let bytes = [ext::END, OPEN, ext::AVOID, ext::ESCAPE1, 5, ext::END, OPEN | 7, ext::POINTER16, 0, 2, 9];
        let book = RawBook::parse(&bytes).unwrap();
        let n = &book.nodes;
        assert_eq!(n.len(), 4);
        assert!(n[0].has_sibling() && !n[0].has_children());
        assert_eq!((n[1].index, n[1].avoid(), n[1].has_children()), (68, true, true));
        assert_eq!(n[2].parent, 1);
        assert!(n[2].has_sibling() && !n[2].has_children());
        assert_eq!(n[3].pointer(), Some(1));
        assert_eq!(n[3].parent, 1);
    }

    #[test]
    fn faults() {
        assert_eq!(parse(&[OPEN]), Err(FormatErrorKind::TruncatedTree(2)));
        assert_eq!(parse(&[0]), Err(FormatErrorKind::TruncatedTree(1)));
        assert_eq!(parse(&[ext::AVOID]), Err(FormatErrorKind::TruncatedNode));
        assert_eq!(parse(&[63]), Err(FormatErrorKind::ReservedIndex(63)));
        assert_eq!(parse(&[0xC1, CLOSE]), Err(FormatErrorKind::UnknownExtension(0xC1)));
        assert_eq!(parse(&[ext::AVOID, ext::AVOID, CLOSE]), Err(FormatErrorKind::DuplicateExtension(ext::AVOID)));
        assert_eq!(parse(&[ext::END, CLOSE]), Err(FormatErrorKind::MisplacedEnd));
        assert_eq!(parse(&[CLOSE, CLOSE]), Err(FormatErrorKind::TrailingBytes(1)));
        assert_eq!(parse(&[ext::POINTER16, 0]), Err(FormatErrorKind::TruncatedPointer));
        assert_eq!(parse(&[0, ext::POINTER16, 0, 200, 1]), Err(FormatErrorKind::PointerPastEnd(200)));
        assert_eq!(parse(&[0, ext::POINTER16, 0, 0, CLOSE | 1]), Err(FormatErrorKind::MisplacedPointer));
        assert_eq!(parse(&[0, ext::POINTER16, 0, 2, 1]), Err(FormatErrorKind::PointerNotANode(2)));
        assert_eq!(parse(&[OPEN, CLOSE | 1, ext::POINTER16, 0, 1, 2]), Err(FormatErrorKind::PointerToLineEnd(1)));
        assert_eq!(parse(&[ext::ESCAPE3, CLOSE | 62]), Err(FormatErrorKind::IndexTooLarge(251)));
        assert_eq!(parse(&[]), Ok(vec![]));
    }
}
