//! Writing a tree as Thompson's bytes (the layout is in `format`).

use super::format::{ext, CLOSE, ESCAPE_STEP, MAX_DIRECT_INDEX, OPEN};
use super::tree::{NodeId, Tree};
use crate::Position;
use serde::Serialize;

/// What the bytes of a book are made of.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Sizes {
    /// Moves (one move byte each).
    pub nodes: u64,
    /// The whole file.
    pub bytes: u64,
    /// Index escapes (a move with index 63 or more): one byte each.
    pub escapes: u64,
    /// Lines that end before another choice (`0xC0`): one byte each.
    pub line_ends: u64,
    /// Moves to recognise but not play (`0xC3`): one byte each.
    pub avoid: u64,
    /// Transposition pointers and the bytes they take (3 or 4 each).
    pub pointers: u64,
    /// The bytes the pointers take.
    pub pointer_bytes: u64,
    /// Style tags: one byte each.
    pub styles: u64,
}

impl Sizes {
    /// Bytes beyond one per node.
    pub fn extension_bytes(&self) -> u64 {
        self.bytes - self.nodes
    }
}

/// Why a tree cannot be written as a book.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// A move is not legal in its position.
    #[error("the move {mv} of `{line}` is not legal there")]
    IllegalMove {
        /// The move, in UCI.
        mv: String,
        /// The line of moves, in short form.
        line: String,
    },
    /// A pointer to a later node.
    #[error("a transposition pointer of `{line}` points forward; the target must come first")]
    ForwardPointer {
        /// The line of moves, in short form.
        line: String,
    },
    /// A pointer's offset does not fit in 24 bits.
    #[error("a transposition pointer of `{line}` would need an offset of {offset}, beyond 24 bits")]
    PointerTooFar {
        /// The line of moves, in short form.
        line: String,
        /// The offset it needs.
        offset: usize,
    },
    /// A node has both a pointer and moves of its own.
    #[error("the node of `{line}` has both a transposition pointer and moves of its own")]
    PointerWithChildren {
        /// The line of moves, in short form.
        line: String,
    },
}

/// The bytes of `tree` and what they are made of.
pub fn encode(tree: &Tree) -> Result<(Vec<u8>, Sizes), WriteError> {
    let mut out = Vec::with_capacity(tree.len() + tree.len() / 8);
    let mut sizes = Sizes::default();
    let mut offsets: Vec<Option<u32>> = vec![None; tree.len() + 1];
    // (node, position before it, another choice follows)
    let root = *tree.root_position();
    let mut stack: Vec<(NodeId, Position, bool)> = Vec::new();
    push_children(tree, Tree::ROOT, &root, &mut stack);
    while let Some((id, before, has_sibling)) = stack.pop() {
        let node = tree.node(id);
        let line = || super::tree::format_line_short(tree.root_position(), &tree.line_to(id));
        let index = before
            .legal_moves()
            .iter()
            .position(|&m| m == node.mv)
            .ok_or_else(|| WriteError::IllegalMove { mv: node.mv.to_uci(before.is_chess960()), line: line() })?;
        offsets[id as usize] = Some(out.len() as u32);
        if !node.play {
            out.push(ext::AVOID);
            sizes.avoid += 1;
        }
        for bit in 0..3u8 {
            if node.style.0 & (1 << bit) != 0 {
                out.push(ext::STYLE_OPEN + bit);
                sizes.styles += 1;
            }
        }
        let steps = index / ESCAPE_STEP as usize;
        let field = (index - steps * ESCAPE_STEP as usize) as u8;
        debug_assert!(field <= MAX_DIRECT_INDEX);
        if steps > 0 {
            out.push(ext::ESCAPE1 + steps as u8 - 1);
            sizes.escapes += 1;
        }
        let has_children = !node.children.is_empty();
        let mut byte = field;
        if has_sibling {
            byte |= OPEN;
        }
        if let Some(target) = node.link {
            if has_children {
                return Err(WriteError::PointerWithChildren { line: line() });
            }
            let offset = offsets[target as usize].ok_or_else(|| WriteError::ForwardPointer { line: line() })? as usize;
            let pointer_start = out.len();
            if offset < 1 << 16 {
                out.extend_from_slice(&[ext::POINTER16, (offset >> 8) as u8, offset as u8]);
            } else if offset < 1 << 24 {
                out.extend_from_slice(&[ext::POINTER24, (offset >> 16) as u8, (offset >> 8) as u8, offset as u8]);
            } else {
                return Err(WriteError::PointerTooFar { line: line(), offset });
            }
            sizes.pointers += 1;
            sizes.pointer_bytes += (out.len() - pointer_start) as u64;
        } else if !has_children {
            if has_sibling {
                out.push(ext::END);
                sizes.line_ends += 1;
            } else {
                byte |= CLOSE;
            }
        }
        out.push(byte);
        sizes.nodes += 1;
        if has_children {
            push_children(tree, id, &before.play(node.mv), &mut stack);
        }
    }
    sizes.bytes = out.len() as u64;
    Ok((out, sizes))
}

/// Pushes the children of `parent` so that the first pops first.
fn push_children(tree: &Tree, parent: NodeId, after: &Position, stack: &mut Vec<(NodeId, Position, bool)>) {
    let children = tree.children(parent);
    for (i, &c) in children.iter().enumerate().rev() {
        stack.push((c, *after, i + 1 < children.len()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::format::RawBook;

    fn line(tree: &mut Tree, ucis: &[&str]) {
        let mut pos = *tree.root_position();
        let mut at = Tree::ROOT;
        for uci in ucis {
            let mv = pos.parse_uci(uci).unwrap();
            at = tree.add_move(at, mv, true);
            pos = pos.play(mv);
        }
    }

    #[test]
    fn n_nodes_take_n_bytes_and_decode_back() {
        let mut tree = Tree::new();
        line(&mut tree, &["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]);
        line(&mut tree, &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"]);
        line(&mut tree, &["e2e4", "e7e5", "g1f3", "g8f6"]);
        line(&mut tree, &["e2e4", "e7e5", "f2f4"]);
        line(&mut tree, &["e2e4", "c7c5", "g1f3", "d7d6", "d2d4"]);
        line(&mut tree, &["e2e4", "c7c5", "g1f3", "b8c6"]);
        line(&mut tree, &["e2e4", "e7e6"]);
        line(&mut tree, &["d2d4"]);
        let (bytes, sizes) = encode(&tree).unwrap();
        assert_eq!(sizes.nodes, 16);
        assert_eq!(bytes.len(), 16);
        assert_eq!(sizes.extension_bytes(), 0);
        let raw = RawBook::parse(&bytes).unwrap();
        let back = Tree::from_raw(&raw).unwrap();
        assert!(back.same_as(&tree));
    }
}
