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

/// Positions from seeded random games (our generator only picks them; the
/// counts compared come from both generators).
fn random_positions(name: &str, games: usize, plies: usize, seed: u64) -> Vec<String> {
    playout_positions(&load(name), games, plies, seed, |variant, pos, _| {
        let us = pos.side;
        let king = pos.royal[us];
        king != u16::MAX && variant.tables.attacked(pos, king as usize, us ^ 1)
    })
}

fn random_games_match(games: usize, plies: usize, depth: u32) {
    let Some(mut fsf) = Fsf::start() else { return };
    for (i, name) in ["mini5", "chiral6", "lame8", "big10", "wide12"].iter().enumerate() {
        for fen in random_positions(name, games, plies, 17 + i as u64) {
            compare(&mut fsf, name, &fen, depth);
        }
    }
}

#[test]
fn random_middlegames_match_fairy_stockfish() {
    random_games_match(6, 40, 2);
}

#[test]
#[ignore = "deep: about a minute"]
fn random_middlegames_match_fairy_stockfish_deep() {
    random_games_match(40, 80, 3);
}
