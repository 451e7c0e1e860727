//! The flipping shogi variants (kyotoshogi, micro) and sho shogi against
//! Fairy-Stockfish: divides line for line from the start, from its own
//! random games (`tests/variants/kyoto_playouts.txt`, made by
//! `scripts/fsf_playouts.py kyotoshogi,micro,shoshogi 3 80 4747`), from our
//! playouts and from constructed positions, one or more per rule. Every
//! count is Fairy-Stockfish's but for sho shogi's one documented
//! disagreement (docs/variants.md, "Kyoto, micro and sho shogi").

mod variants_support;
use chesstool::variants::variant::builtin;
use variants_support::*;

/// The variants, with the depth from their start.
const VARIANTS: &[(&str, u32)] = &[("kyotoshogi", 4), ("micro", 4), ("shoshogi", 3)];

/// The positions where a drunk elephant may promote while its side's
/// only king stands attacked: the rules let the crown prince keep the side
/// alive, Fairy-Stockfish forbids the promotion.
const PRINCE_IN_CHECK: &[&str] = &["4k4/9/9/4E4/9/9/9/9/r3K4 w - - 0 1", "4k4/9/4E4/9/9/9/9/9/r3K4 w - - 0 1"];

/// [`check_excused`], excusing only the disagreement at the root of
/// [`PRINCE_IN_CHECK`]'s positions, or at a sho shogi position below the
/// root where it is exactly that disagreement (our playouts meet it).
fn check(fsf: &mut Fsf, name: &str, fen: &str, depth: u32) -> Result<u64, String> {
    check_excused(fsf, name, fen, depth, |fsf, variant| {
        let listed = PRINCE_IN_CHECK.contains(&fen);
        (listed || name == "shoshogi") && only_prince_promotions(fsf, variant, name, fen, &[], depth, listed)
    })
}

/// Do we list exactly Fairy-Stockfish's moves after `moves`, agreeing
/// below them, plus promotions (`+`) that it does not list? Or (below the
/// root, not `at_root`) the same moves, differing only below moves after
/// which this holds?
fn only_prince_promotions(
    fsf: &mut Fsf,
    variant: &chesstool::variants::variant::Variant,
    name: &str,
    fen: &str,
    moves: &[&str],
    depth: u32,
    at_root: bool,
) -> bool {
    let mut pos = variant.parse_fen(fen).unwrap();
    for text in moves {
        let mv = variant.tables.legal_moves(&mut pos).into_iter().find(|&m| variant.move_text(&pos, m) == *text);
        variant.tables.play(&mut pos, mv.expect("a move of our list"));
    }
    let here = variant.fen(&pos);
    let (ours, _) = our_divide(variant, &here, depth);
    let (theirs, _) = fsf.divide(name, fen, moves, depth);
    let extra: Vec<&String> = ours.keys().filter(|m| !theirs.contains_key(*m)).collect();
    if !extra.is_empty() {
        return extra.iter().all(|m| m.ends_with('+')) && theirs.iter().all(|(m, n)| ours.get(m) == Some(n));
    }
    if depth == 1 || at_root {
        return false;
    }
    let differing: Vec<&String> = theirs.iter().filter(|(m, n)| ours.get(*m) != Some(n)).map(|(m, _)| m).collect();
    !differing.is_empty()
        && theirs.keys().all(|m| ours.contains_key(m))
        && differing.into_iter().all(|m| {
            let line: Vec<&str> = moves.iter().copied().chain([m.as_str()]).collect();
            only_prince_promotions(fsf, variant, name, fen, &line, depth - 1, false)
        })
}

#[test]
fn flipping_shogi_variants_match_fairy_stockfish_from_the_start() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = from_the_start(&mut fsf, VARIANTS, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn flipping_shogi_variants_match_fairy_stockfish_on_its_own_games() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = on_fsf_playouts(&mut fsf, "kyoto_playouts.txt", 4, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn flipping_shogi_variants_match_fairy_stockfish_on_our_playouts() {
    let Some(mut fsf) = Fsf::start() else { return };
    let plan = Playouts { games: 3, plies: 100, seed: 668, keep: |ply| ply % 9 == 8, depth: 2 };
    let failures = on_our_playouts(&mut fsf, VARIANTS, &plan, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Constructed positions, one or more per rule: (variant, FEN, depth, rule).
const RULES: &[Rule] = &[
    ("kyotoshogi", "k4/5/5/2+S2/4K[] w - - 0 1", 3, "a promoted piece must turn back when it moves (c2a4-)"),
    ("kyotoshogi", "k4/5/2S2/5/4K[] w - - 0 1", 3, "an unpromoted piece must promote when it moves"),
    ("kyotoshogi", "k4/5/5/5/4K[LNSPlnsp] w - - 0 1", 2, "a piece in hand is dropped either side up (+N@c3)"),
    ("kyotoshogi", "k4/5/2+p2/2L2/4K[] w - - 0 1", 3, "a promoted piece captured joins the hand unpromoted"),
    ("kyotoshogi", "4k/5/5/5/N3K[] w - - 0 1", 3, "a knight may end where it cannot move (no immobility rule)"),
    ("micro", "k3/1p2/1P2/4/3K[] w - - 0 1", 3, "micro: a piece flips only when it captures"),
    ("micro", "k3/2p1/1+p2/1+P2/3K[] w - - 0 1", 3, "micro: a promoted piece turns back when it captures"),
    ("micro", "k3/4/4/4/3K[BLPRblpr] w - - 0 1", 2, "micro: drops either side up"),
    ("shoshogi", "4k4/9/9/4E4/9/9/9/9/4K4 w - - 0 1", 3, "shoshogi: the drunk elephant promotes in the zone"),
    ("shoshogi", "4k4/9/9/9/9/9/9/9/r3K3+E w - - 0 1", 3, "shoshogi: with a crown prince the king may stay attacked"),
    ("shoshogi", "4k4/9/9/9/9/9/9/4r4/4K3+E b - - 0 1", 2, "shoshogi: the king taken, the prince plays on as king"),
    ("shoshogi", "4k4/9/9/4E4/9/9/9/9/r3K4 w - - 0 1", 2, "shoshogi: an elephant promoting in check (disagreement)"),
];

#[test]
fn constructed_flipping_shogi_positions_match_fairy_stockfish() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = on_rules(&mut fsf, RULES, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Fairy-Stockfish #668 ("Illegal move in Kyotoshogi") is notation, not
/// generation: the promoted silver on a2 turns back as it moves, written
/// `a2c4-` (USI `5d3b-`), and perft there agrees.
#[test]
fn fairy_stockfish_668_is_a_demotion_written_with_a_minus() {
    let Some(mut fsf) = Fsf::start() else { return };
    let variant = builtin::load("kyotoshogi").unwrap();
    let fen = fsf.fen_after("kyotoshogi", &variant.start_fen, &["b1a2+", "d5c4+"]);
    let (ours, total) = our_divide(&variant, &fen, 4);
    assert_eq!(total, 31594, "{fen}");
    assert!(ours.contains_key("a2c4-") && !ours.contains_key("a2c4+"), "{fen}");
    assert_eq!((ours, total), fsf.divide("kyotoshogi", &fen, &[], 4));
}

/// The one disagreement: Fairy-Stockfish keeps the king royal through the
/// move that makes a crown prince, so it forbids the promotion that leaves
/// the king attacked; the rules (a side loses when king and prince are
/// both gone) allow it, and chesstool lists it.
#[test]
fn an_elephant_may_promote_to_a_prince_while_the_king_is_attacked() {
    let Some(mut fsf) = Fsf::start() else { return };
    let variant = builtin::load("shoshogi").unwrap();
    let fen = PRINCE_IN_CHECK[0];
    let (ours, _) = our_divide(&variant, fen, 1);
    let (theirs, _) = fsf.divide("shoshogi", fen, &[], 1);
    let extra: Vec<&str> = ours.keys().filter(|m| !theirs.contains_key(*m)).map(String::as_str).collect();
    assert_eq!(extra, ["e6d7+", "e6e7+", "e6f7+"]);
    assert!(theirs.keys().all(|m| ours.contains_key(m)));
}

#[test]
fn flipped_pieces_fens_are_written_as_fairy_stockfish_writes_them() {
    let Some(mut fsf) = Fsf::start() else { return };
    let mut positions: Vec<(String, String)> = fsf_playouts("kyoto_playouts.txt").into_iter().step_by(3).collect();
    // Not the disagreement's positions: Fairy-Stockfish refuses the promotion.
    let rules = RULES.iter().filter(|&&(_, f, _, _)| !PRINCE_IN_CHECK.contains(&f));
    positions.extend(rules.map(|&(v, f, _, _)| (v.to_string(), f.to_string())));
    // Flips, captures and drops first: they change the hands and marks.
    fens_match_after_moves(&mut fsf, &positions, 12, |pos, m| (m.promo == 0, pos.cells[m.to as usize] == 0));
}
