//! Checking a book: the structure is well formed, every index decodes to a
//! legal move, every transposition pointer reaches the same position; and
//! what the book holds.

use super::format::{RawBook, ROOT};
use super::tree::{raw_line, DecodeError, DecodeErrorKind, Tree};
use serde::Serialize;
use std::collections::HashMap;

/// A fault, with the byte at fault and the line of moves leading to it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("byte {offset} (line: {line}): {problem}")]
pub struct Fault {
    /// The offset of the byte at fault.
    pub offset: usize,
    /// The line of moves leading to it.
    pub line: String,
    /// What is wrong.
    pub problem: String,
}

/// What a sound book holds.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Statistics {
    /// The book's size in bytes.
    pub bytes: u64,
    /// Moves (one move byte each).
    pub nodes: u64,
    /// Lines: places where a line ends (a last move or a pointer).
    pub lines: u64,
    /// The longest line, in plies.
    pub depth: u32,
    /// Moves per position that has any (the start included).
    pub branching: f64,
    /// The most moves of one position at one place.
    pub max_branching: u64,
    /// Transposition pointers.
    pub transpositions: u64,
    /// Positions whose moves stand at more than one place (no pointer).
    pub repeated_positions: u64,
    /// Distinct positions with moves (the start included when it has any).
    pub positions: u64,
    /// Moves to recognise but not play.
    pub avoid: u64,
    /// Moves whose index needed an escape.
    pub escapes: u64,
    /// Style tags, counted one per tag.
    pub styles: u64,
}

/// Reads the structure of a book; a fault names the byte and the line.
pub fn parse(bytes: &[u8]) -> Result<RawBook, Fault> {
    RawBook::parse(bytes).map_err(|(e, partial)| Fault {
        offset: e.offset,
        line: raw_line(&partial, e.context),
        problem: e.kind.to_string(),
    })
}

/// A move that does not decode, as a fault naming the byte and the line.
pub fn decode_fault(raw: &RawBook, e: DecodeError) -> Fault {
    // A move that does not decode is named by the line before it.
    let at = match e.kind {
        DecodeErrorKind::IndexOutOfRange { .. } => raw.nodes[e.node as usize].parent,
        _ => e.node,
    };
    Fault { offset: e.offset, line: raw_line(raw, at), problem: e.kind.to_string() }
}

/// The whole tree of a book, every move and pointer checked.
pub fn decode(bytes: &[u8]) -> Result<(RawBook, Tree), Fault> {
    let raw = parse(bytes)?;
    let tree = Tree::from_raw(&raw).map_err(|e| decode_fault(&raw, e))?;
    Ok((raw, tree))
}

/// Checks `bytes` and counts what they hold.
pub fn verify(bytes: &[u8]) -> Result<Statistics, Fault> {
    let (raw, tree) = decode(bytes)?;
    let mut stats = Statistics { bytes: bytes.len() as u64, nodes: raw.len() as u64, ..Statistics::default() };
    let mut inner = u64::from(!raw.is_empty());
    let mut children_total = 0u64;
    let mut root_children = 0u64;
    let mut places: HashMap<u64, u32> = HashMap::new();
    for node in &raw.nodes {
        stats.depth = stats.depth.max(node.ply);
        stats.lines += u64::from(!node.has_children());
        stats.transpositions += u64::from(node.pointer().is_some());
        stats.avoid += u64::from(node.avoid());
        stats.escapes += u64::from(node.index > super::format::MAX_DIRECT_INDEX);
        stats.styles += u64::from(node.style().count_ones());
        inner += u64::from(node.has_children());
        children_total += 1;
        if node.parent == ROOT {
            root_children += 1;
        }
    }
    let mut max_branching = root_children;
    tree.for_each(|id, before| {
        let node = tree.node(id);
        max_branching = max_branching.max(tree.children(id).len() as u64);
        if node.link.is_none() && !tree.children(id).is_empty() {
            *places.entry(before.play(node.mv).key()).or_default() += 1;
        }
    });
    stats.max_branching = max_branching;
    stats.branching = if inner == 0 { 0.0 } else { children_total as f64 / inner as f64 };
    stats.positions = places.len() as u64 + u64::from(!raw.is_empty());
    stats.repeated_positions = places.values().filter(|&&n| n > 1).count() as u64;
    Ok(stats)
}
