//! Perft of our variant generator against Fairy-Stockfish (built from the
//! pyffish source by scripts/build_fairy_stockfish.sh) over a real pipe.

mod variants_support;
use variants_support::*;

#[test]
fn start_positions_match_fairy_stockfish() {
    let Some(mut fsf) = Fsf::start() else { return };
    for (name, depth) in [("mini5", 4), ("chiral6", 4), ("lame8", 3), ("big10", 3), ("wide12", 3)] {
        let fen = load(name).start_fen.clone();
        compare(&mut fsf, name, &fen, depth);
    }
}
