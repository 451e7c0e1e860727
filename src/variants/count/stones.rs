//! Perft of stone games (Ataxx, Othello) on bit sets: copy-make of a
//! `Node`, the last ply counted by popcounts (`StoneTables::count`).

use crate::variants::moves::stone_bits::{Node, StoneTables};

/// Leaf nodes of the move tree of `node` to `depth`.
pub(crate) fn perft(st: &StoneTables, node: &Node, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => st.count(node),
        _ => {
            let mut nodes = 0;
            st.for_each_move(node, |mv| nodes += perft(st, &st.child(node, mv).0, depth - 1));
            nodes
        }
    }
}
