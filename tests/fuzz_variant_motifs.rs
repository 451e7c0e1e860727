//! The motif cases of the variants' own rules (`chesstool fuzz`'s first
//! lines in a variant run): every case is reached by a seeded game of some
//! built-in variant, and Fairy-Stockfish confirms each line's end: its move
//! list is ours, the moves that show the case are in it, the refused move
//! is not, and it sees a check exactly where the case says there is one.

mod variants_support;
use chesstool::variants::board::Position;
use chesstool::variants::hunt::motifs::{evidence, motif_lines, Evidence, VariantCase};
use chesstool::variants::variant::builtin;
use chesstool::variants::Variant;
use std::collections::BTreeMap;
use std::collections::BTreeSet;
use variants_support::*;

/// Built-in variants whose rules, together, hold every case.
const VARIANTS: &[&str] =
    &["crazyhouse", "shogi", "seirawan", "capablanca", "janggi", "amazons", "duck", "3check", "minishogi", "shouse"];

#[test]
fn every_variant_case_is_reached_and_fairy_stockfish_confirms_it() {
    let Some(mut fsf) = Fsf::start() else { return };
    let mut reached = BTreeSet::new();
    let mut failures = Vec::new();
    for &name in VARIANTS {
        let variant = builtin::load(name).unwrap();
        let start = variant.parse_fen(&variant.start_fen).unwrap();
        let fen = variant.fen(&start);
        let mut state = 7u64;
        let mut draw = |n: u64| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        for (case, line) in motif_lines(&variant, &start, &mut draw) {
            reached.insert(case.name());
            let mut pos: Position = start.clone();
            let mut texts = Vec::new();
            for mv in line {
                texts.push(variant.move_text(&pos, mv));
                variant.tables.play(&mut pos, mv);
            }
            let moves = variant.tables.legal_moves(&mut pos.clone());
            let Some(shown) = evidence(&variant, &pos, &moves, case) else {
                failures.push(format!("{name} {}: the line's end does not hold it", case.name()));
                continue;
            };
            let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
            let (theirs, total) = fsf.divide(name, &fen, &texts, 1);
            let where_ = format!("{name} {} (startpos moves {})", case.name(), texts.join(" "));
            if case == VariantCase::DropMateRefused {
                failures.extend(drop_mate_confirmed(
                    &mut fsf,
                    &variant,
                    &pos,
                    &fen,
                    &texts,
                    &shown,
                    &theirs,
                    moves.len(),
                ));
                continue;
            }
            if total != moves.len() as u64 {
                failures.push(format!("{where_}: Fairy-Stockfish has {total} moves, we {}", moves.len()));
            }
            for mv in &shown.legal {
                let text = variant.move_text(&pos, *mv);
                if !theirs.contains_key(&text) {
                    failures.push(format!("{where_}: {text} is not legal for Fairy-Stockfish"));
                }
            }
            if let Some(mv) = shown.refused {
                let text = variant.move_text(&pos, mv);
                if theirs.contains_key(&text) {
                    failures.push(format!("{where_}: {text} is legal for Fairy-Stockfish"));
                }
            }
            let checkers = fsf.checkers(name, &fen, &texts);
            if shown.in_check == checkers.is_empty() {
                failures
                    .push(format!("{where_}: in check {}, Fairy-Stockfish's checkers {checkers:?}", shown.in_check));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("reached: {reached:?}");
    let missing: Vec<&str> = VariantCase::ALL.iter().map(|c| c.name()).filter(|n| !reached.contains(n)).collect();
    assert!(missing.is_empty(), "no line for {missing:?}");
}

/// A pawn drop that mates is the one move Fairy-Stockfish's `go perft`
/// lists and we refuse (docs/variants.md: its search scores the mate as a
/// loss instead): it lists the refused drop and nothing else of ours
/// differs, and after it the side to move is in check with no move.
#[allow(clippy::too_many_arguments)]
fn drop_mate_confirmed(
    fsf: &mut Fsf,
    variant: &Variant,
    pos: &Position,
    fen: &str,
    texts: &[&str],
    shown: &Evidence,
    theirs: &BTreeMap<String, u64>,
    ours: usize,
) -> Vec<String> {
    let name = variant.name.as_str();
    let refused = variant.move_text(pos, shown.refused.expect("a refused drop"));
    let mut failures = Vec::new();
    if !theirs.contains_key(&refused) || theirs.len() != ours + 1 {
        failures
            .push(format!("{name}: Fairy-Stockfish lists {} moves, we {ours}; the refused {refused}", theirs.len()));
    }
    let after: Vec<&str> = texts.iter().copied().chain([refused.as_str()]).collect();
    let (_, replies) = fsf.divide(name, fen, &after, 1);
    let checkers = fsf.checkers(name, fen, &after);
    if replies != 0 || checkers.is_empty() {
        failures.push(format!("{name}: after {refused} Fairy-Stockfish has {replies} replies, checkers {checkers:?}"));
    }
    failures
}
