//! The leg-code interpreter against the simple forms (rays, hoppers,
//! two-step leaps) that perft uses for most pieces, and against the
//! re-parsing generator: all three must count the same trees. The simple
//! forms are checked against Fairy-Stockfish in variants_fsf.rs.

mod variants_support;
use chesstool::variants::count::perft;
use chesstool::variants::Variant;
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

/// A locust (`caR`: a rook move that must capture, then goes on as a rook)
/// next to the mover's king near an edge: its attack shapes run off the
/// board, beyond the mailbox's padding (the legality filter once indexed
/// outside the board there and panicked).
#[test]
fn a_locust_near_the_edge_counts_like_the_interpreter() {
    let text = "[v]\nmaxFile = 5\nmaxRank = 5\nking = k\ncustomPiece1 = j:caR\nstartFen = 5/5/5/5/K1kj1 w - - 0 1\n\
                [w]\nking = k\nrook = r\ncustomPiece1 = j:caR\nstartFen = 8/8/8/8/8/3R4/8/K1kj4 w - - 0 1\n";
    let file = chesstool::variants::variant::user_ini::parse("v.ini", text).unwrap();
    let both = |name| {
        let fast = file.variant(name).unwrap();
        let mut slow = fast.clone();
        slow.tables = fast.tables.interpreter_only();
        (fast, slow)
    };
    let (fast, slow) = both("v");
    // By hand: White's king has a2 only (b1 and b2 touch Black's king on
    // c1). Then Black's king has c2 and d2 (b1, b2 touch White's king on
    // a2; d1 is its own locust's), and the locust has no capture to start
    // from (d2-d5 and e1 are empty, c1 is its own king): 1 and 2.
    let fen = fast.start_fen.clone();
    assert_eq!(counts(&fast, &fen, 1), 1);
    assert_eq!(counts(&fast, &fen, 2), 2);
    for depth in 3..=5 {
        assert_eq!(counts(&fast, &fen, depth), counts(&slow, &fen, depth), "depth {depth}");
    }
    // The same on 8x8, with a white rook for the locust to capture.
    let (fast, slow) = both("w");
    let fen = fast.start_fen.clone();
    for depth in 1..=4 {
        assert_eq!(counts(&fast, &fen, depth), counts(&slow, &fen, depth), "8x8 depth {depth}");
    }
}
