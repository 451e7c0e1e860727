//! The leg-code interpreter against the simple forms (rays, hoppers,
//! two-step leaps) that perft uses for most pieces, and against the
//! re-parsing generator: all three must count the same trees. The simple
//! forms are checked against Fairy-Stockfish in variants_fsf.rs.

mod variants_support;
use chesstool::variants::{perft, Variant};
use variants_support::*;

fn counts(variant: &Variant, fen: &str, depth: u32) -> u64 {
    let pos = variant.parse_fen(fen).unwrap();
    perft::perft_parallel(variant, &pos, depth)
}

#[test]
fn interpreter_and_simple_forms_agree() {
    for (name, depth) in [("mini5", 4), ("chiral6", 3), ("lame8", 3), ("big10", 3), ("wide12", 2)] {
        let fast = load(name);
        let mut slow = fast.clone();
        slow.tables = fast.tables.interpreter_only();
        let mut reparse = fast.clone();
        reparse.tables = fast.tables.reparsing(fast.pieces.iter().map(|p| p.betza.clone()).collect());
        let fen = fast.start_fen.clone();
        let n = counts(&fast, &fen, depth);
        assert_eq!(counts(&slow, &fen, depth), n, "{name}");
        assert_eq!(counts(&reparse, &fen, depth), n, "{name}");
    }
}
