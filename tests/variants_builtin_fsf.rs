//! Fairy-Stockfish's built-in variants by name: our perft against its
//! `go perft`, from the start and from random playouts, and constructed
//! positions for each rule. Fairy-Stockfish (pyffish 0.0.90) is the oracle.

mod variants_support;
use chesstool::variants::{builtin, Variant};
use variants_support::*;

/// Positions from seeded random games: every 7th ply and the last.
fn playouts(variant: &Variant, games: usize, plies: usize, seed: u64) -> Vec<String> {
    playout_positions(variant, games, plies, seed, |_, _, ply| ply % 7 == 6)
}

/// (variant, start depth, playout depth).
const EXACT: &[(&str, u32, u32)] = &[
    ("chess", 4, 3),
    ("normal", 4, 3),
    ("fischerandom", 4, 3),
    ("nocastle", 4, 3),
    ("raazuvaa", 4, 3),
    ("torpedo", 4, 3),
    ("armageddon", 4, 3),
    ("capablanca", 4, 2),
    ("caparandom", 4, 2),
    ("gothic", 4, 2),
    ("embassy", 4, 2),
    ("janus", 4, 2),
    ("centaur", 4, 2),
    ("modern", 4, 2),
    ("chancellor", 4, 2),
    ("grand", 3, 2),
    ("tencubed", 3, 2),
    ("shako", 3, 2),
    ("amazon", 4, 3),
    ("almost", 4, 3),
    ("chigorin", 4, 3),
    ("perfect", 4, 3),
    ("hoppelpoppel", 4, 3),
    ("newzealand", 4, 3),
    ("nightrider", 4, 2),
    ("grasshopper", 4, 2),
    ("gardner", 4, 3),
    ("losalamos", 4, 3),
    ("knightmate", 4, 3),
    ("shatranj", 4, 3),
    ("chaturanga", 4, 3),
    ("courier", 4, 3),
    ("makruk", 4, 3),
    ("asean", 4, 3),
    ("ai-wok", 4, 3),
    ("kingofthehill", 4, 3),
    ("racingkings", 4, 3),
    ("3check", 4, 3),
    ("5check", 4, 3),
    ("atomic", 4, 3),
    ("antichess", 4, 3),
    ("suicide", 4, 3),
    ("losers", 4, 3),
    ("threekings", 4, 3),
    ("horde", 4, 3),
    ("jesonmor", 4, 2),
];

fn check(fsf: &mut Fsf, name: &str, fen: &str, depth: u32) -> Result<(), String> {
    let variant = builtin::load(name).unwrap();
    let ours = std::panic::catch_unwind(|| our_divide(&variant, fen, depth))
        .map_err(|_| format!("{name} {fen} depth {depth}: our generator panicked"))?;
    let theirs = fsf.divide(name, fen, &[], depth);
    if ours != theirs {
        return Err(format!(
            "{name} {fen} depth {depth}: ours {} Fairy-Stockfish {}: {}",
            ours.1,
            theirs.1,
            differences(&ours, &theirs)
        ));
    }
    Ok(())
}

#[test]
fn builtins_match_fairy_stockfish_from_start_and_playouts() {
    let Some(mut fsf) = Fsf::start() else { return };
    let only = std::env::var("VARIANTS").ok();
    let mut failures = Vec::new();
    for (i, &(name, start_depth, depth)) in EXACT.iter().enumerate() {
        if only.as_ref().is_some_and(|o| !o.split(',').any(|n| n == name)) {
            continue;
        }
        let variant = match builtin::load(name) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let mut result = check(&mut fsf, name, &variant.start_fen, start_depth);
        for fen in playouts(&variant, 5, 120, 11 + i as u64) {
            if result.is_err() {
                break;
            }
            result = check(&mut fsf, name, &fen, depth);
        }
        if let Err(e) = result {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_builtin_builds_and_moves_from_its_start() {
    for (name, description) in builtin::list() {
        assert!(!description.is_empty(), "{name} has no description");
        let v = builtin::load(&name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut pos = v.parse_fen(&v.start_fen).unwrap();
        assert_eq!(v.fen(&pos).split(' ').next(), v.start_fen.split(' ').next(), "{name}");
        assert!(v.tables.count_legal(&mut pos) > 0, "{name}");
    }
}
