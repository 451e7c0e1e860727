//! The shogi family against Fairy-Stockfish: divides line for line from the
//! start, from Fairy-Stockfish's own random games
//! (`tests/variants/shogi_playouts.txt`, made by `scripts/fsf_playouts.py`:
//! 110-ply games played with its move lists, biased toward drops and
//! promotions), from our playouts and from constructed positions, one or
//! more per rule; FENs with `+` promoted pieces as it writes them. Every
//! count is Fairy-Stockfish's.

mod variants_support;
use assert_cmd::Command;
use chesstool::variants::variant::{builtin, Variant};
use predicates::prelude::*;
use variants_support::*;

/// The shogi variants chesstool runs, with the depth from their start.
const VARIANTS: &[(&str, u32)] = &[
    ("shogi", 3),
    ("minishogi", 4),
    ("gorogoro", 4),
    ("judkins", 3),
    ("mini", 4),
    ("checkshogi", 3),
    ("okisakishogi", 3),
    ("yarishogi", 3),
    ("euroshogi", 3),
    ("torishogi", 3),
    ("dobutsu", 5),
];

/// [`check_excused`], excusing only the pawn drops that mate.
fn check(fsf: &mut Fsf, name: &str, fen: &str, depth: u32) -> Result<u64, String> {
    check_excused(fsf, name, fen, depth, |fsf, variant| only_pawn_drop_mates(fsf, variant, name, fen, &[], depth))
}

/// Is every difference below `fen` after `moves` the one disagreement
/// (docs/variants.md, "Shogi"): a pawn drop that mates, which
/// Fairy-Stockfish lists (with no reply after it) and chesstool does not
/// generate? Followed line by line down to the drop.
fn only_pawn_drop_mates(fsf: &mut Fsf, variant: &Variant, name: &str, fen: &str, moves: &[&str], depth: u32) -> bool {
    // The pawn of `shogiPawnDropMateIllegal`, as Fairy-Stockfish's variant.cpp defines it.
    let pawn = match name {
        "yarishogi" => return false,
        "torishogi" => variant.kind_of('S'),
        _ => variant.kind_of('P'),
    };
    let here = if moves.is_empty() { fen.to_string() } else { fsf.fen_after(name, fen, moves) };
    let (ours, _) = our_divide(variant, &here, depth);
    let (theirs, _) = fsf.divide(name, fen, moves, depth);
    if ours.keys().any(|m| !theirs.contains_key(m)) {
        return false;
    }
    theirs.iter().filter(|&(m, n)| ours.get(m) != Some(n)).all(|(m, _)| {
        let line: Vec<&str> = moves.iter().copied().chain([m.as_str()]).collect();
        if ours.contains_key(m) {
            return depth > 1 && only_pawn_drop_mates(fsf, variant, name, fen, &line, depth - 1);
        }
        let dropped = m.split_once('@').and_then(|(p, _)| p.chars().next()).and_then(|c| variant.kind_of(c));
        dropped.is_some() && dropped == pawn && fsf.divide(name, fen, &line, 1).1 == 0
    })
}

#[test]
fn shogi_variants_match_fairy_stockfish_from_the_start() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = from_the_start(&mut fsf, VARIANTS, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn shogi_variants_match_fairy_stockfish_on_its_own_games() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = on_fsf_playouts(&mut fsf, "shogi_playouts.txt", 4, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn shogi_variants_match_fairy_stockfish_on_our_playouts() {
    let Some(mut fsf) = Fsf::start() else { return };
    let plan = Playouts { games: 3, plies: 120, seed: 470, keep: |ply| ply % 12 == 11, depth: 2 };
    let failures = on_our_playouts(&mut fsf, VARIANTS, &plan, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Constructed positions, one or more per rule: (variant, FEN, depth, rule).
const RULES: &[Rule] = &[
    ("shogi", "4k4/9/9/9/9/9/4P4/9/4K4[Pp] w - - 0 1", 2, "nifu: no second pawn on the e-file"),
    ("shogi", "4k4/9/9/9/9/9/4+P4/9/4K4[Pp] w - - 0 1", 2, "a tokin does not count for nifu"),
    ("shogi", "3gkg3/9/4G4/9/9/9/9/9/4K4[P] w - - 0 1", 2, "a pawn drop in front of the king that a gold takes"),
    ("shogi", "4k4/9/9/9/9/9/9/9/4K4[P] w - - 0 1", 2, "a pawn drop that checks without mating is fine"),
    ("shogi", "3lkl3/9/4G4/9/9/9/9/9/4K4[L] w - - 0 1", 2, "a lance drop may mate"),
    ("shogi", "4k4/9/9/9/9/9/9/9/4K4[LNPlnp] w - - 0 1", 1, "no drop on the last rank(s) for pawn, lance, knight"),
    ("shogi", "4k4/9/9/9/9/9/9/9/4K4[LNPlnp] b - - 0 1", 1, "the same for Black"),
    ("shogi", "4k4/P1L1N4/9/2N6/9/9/9/9/4K4[] w - - 0 1", 1, "forced promotion on the last two ranks"),
    ("shogi", "4k4/9/9/P1S1B1R2/9/9/9/9/4K4[] w - - 0 1", 1, "optional promotion entering the zone"),
    ("shogi", "4k4/2S6/9/9/9/9/9/9/4K4[] w - - 0 1", 1, "optional promotion leaving the zone"),
    ("shogi", "4k4/9/9/9/4+r4/9/9/4G4/4K4[] w - - 0 1", 2, "a promoted rook captured goes to the hand as a rook"),
    ("shogi", "4k4/9/9/9/4+p4/4G4/9/9/4K4[] w - - 0 1", 3, "a tokin captured goes to the hand as a pawn"),
    ("minishogi", "2k2/5/5/5/2K2[PSGBRpsgbr] w - - 0 1", 2, "minishogi: full hands"),
    ("minishogi", "1+Bk2/5/2+p2/5/+R1K2[] b - - 0 1", 3, "minishogi: promoted pieces both sides"),
    ("euroshogi", "4k3/8/P1N1B3/P7/8/8/8/4K3[] w - - 0 1", 2, "euroshogi: promotion in or into the zone is forced"),
    ("euroshogi", "4k3/8/8/8/8/1b6/8/4K3[Nn] b - - 0 1", 2, "euroshogi: the sideways knight may be dropped anywhere"),
    ("torishogi", "3k3/7/1F5/7/7/7/3K3[] w - - 0 1", 2, "torishogi: the falcon must promote to an eagle"),
    ("torishogi", "3k3/7/7/3S3/3S3/7/S2K3[S] w - - 0 1", 2, "torishogi: two swallows on a file, no third dropped"),
    ("torishogi", "3k3/7/3E3/7/7/7/3K3[] w - - 0 1", 2, "torishogi: the eagle's moves"),
    ("checkshogi", "4k4/9/9/9/9/9/9/9/4K4[P] w - - 1+1 0 1", 2, "checkshogi: a pawn drop that checks wins"),
    ("checkshogi", "4k4/9/9/9/9/9/9/9/4K4[Pp] w - - 2+1 0 1", 3, "checkshogi: two checks to give"),
    ("yarishogi", "2rkr2/2p1p2/7/2N4/7/7/7/7/3K3[P] w - - 0 1", 2, "yarishogi: a pawn drop may mate"),
    ("yarishogi", "3k3/7/7/7/2+P4/7/7/7/3K3[] w - - 0 1", 2, "yarishogi: a promoted pawn is a yari silver (fKbR)"),
    ("yarishogi", "3k3/7/2+R4/7/7/7/7/7/3K3[] w - - 0 1", 2, "yarishogi: a promoted yari rook is a rook"),
    ("okisakishogi", "4k5/10/10/L1N7/10/10/10/10/10/4K5[LNlnq] w - - 0 1", 2, "okisakishogi: knight and lance promote"),
    ("dobutsu", "1g1/1L1/2l/3[] w - - 0 1", 3, "dobutsu: the lion wins on the far rank only where it is safe"),
    ("dobutsu", "1L1/1g1/2l/3[] b - - 0 1", 3, "dobutsu: a lion attacked on the far rank plays on"),
    ("dobutsu", "l2/1C1/3/2L[Cc] w - - 0 1", 3, "dobutsu: the chick must promote, and may be dropped on the last rank"),
    ("dobutsu", "l1e/3/1G1/2L[] w - - 0 1", 3, "dobutsu: capturing the lion ends the game"),
];

#[test]
fn constructed_shogi_positions_match_fairy_stockfish() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = on_rules(&mut fsf, RULES, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn shogi_fens_are_written_as_fairy_stockfish_writes_them() {
    let Some(mut fsf) = Fsf::start() else { return };
    let first3 = |f: &str| f.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    let mut positions: Vec<(String, String)> = fsf_playouts("shogi_playouts.txt").into_iter().step_by(3).collect();
    positions.extend(RULES.iter().map(|&(v, f, _, _)| (v.to_string(), f.to_string())));
    for (name, fen) in positions {
        let variant = builtin::load(&name).unwrap();
        let mut pos = variant.parse_fen(&fen).unwrap();
        assert_eq!(first3(&variant.fen(&pos)), first3(&fsf.fen_after(&name, &fen, &[])), "{name} {fen}");
        // Captures, promotions and drops first: they change the hands and marks.
        let mut moves = variant.tables.legal_moves(&mut pos);
        moves.sort_by_key(|m| (m.promo == 0, pos.cells[m.to as usize] == 0));
        for mv in moves.into_iter().take(12) {
            let text = variant.move_text(&pos, mv);
            let mut next = pos.clone();
            variant.tables.play(&mut next, mv);
            let theirs = fsf.fen_after(&name, &fen, &[&text]);
            assert_eq!(first3(&variant.fen(&next)), first3(&theirs), "{name} {fen} after {text}");
        }
    }
}

/// The one disagreement (docs/variants.md, "Shogi"): a pawn drop that
/// mates is illegal by shogi's rules (uchifuzume), and chesstool does not
/// generate it; Fairy-Stockfish's `go perft` lists it (its search scores
/// it as a loss instead), and has no reply after it: a mate.
#[test]
fn a_pawn_drop_that_mates_is_not_generated_where_fairy_stockfish_lists_it() {
    let Some(mut fsf) = Fsf::start() else { return };
    for (name, fen, drop) in [
        ("shogi", "3lkl3/9/4G4/9/9/9/9/9/4K4[P] w - - 0 1", "P@e8"),
        ("shogi", "3lkl3/9/4K4/9/9/9/9/9/9[P] w - - 0 1", "P@e8"),
        ("gorogoro", "sg2s/2kg1/1p1p1/1PKP1/1GG1+p/S3S[p] b - - 0 6", "P@c4"),
        ("euroshogi", "1nb4+P/3g2bg/pprp1+Bpk/2p1pp2/2P1PPP1/PP1PR1N1/1G1GK1B1/1N4N1[P] w - - 4 21", "P@h5"),
        ("torishogi", "1rfcsp1/4kPl/cssS1Ss/4K1S/+sS3CR/1F+sS3/1PC2PL[SSSss] w - - 1 32", "S@e5"),
    ] {
        let variant = builtin::load(name).unwrap();
        let (ours, _) = our_divide(&variant, fen, 1);
        let (theirs, total) = fsf.divide(name, fen, &[], 1);
        assert!(theirs.contains_key(drop) && !ours.contains_key(drop), "{name} {fen}");
        let mut rest = theirs.clone();
        rest.remove(drop);
        assert_eq!((ours.clone(), ours.len() as u64 + 1), (rest, total), "{name} {fen}: only {drop} differs");
        assert_eq!(fsf.divide(name, fen, &[drop], 1).1, 0, "{name} {fen} {drop}: a mate");
    }
}

fn chesstool() -> Command {
    Command::cargo_bin("chesstool").expect("binary")
}

#[test]
fn a_promoted_piece_of_a_kind_that_does_not_promote_is_refused() {
    chesstool()
        .args(["perft", "--variant", "shogi", "--depth", "1", "--fen", "4k4/9/9/9/9/9/9/9/+G3K4[] w - - 0 1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("+G is not a promoted piece of shogi"));
}

/// A section that allows a second pawn on a file (`dropNoDoubled = -`):
/// divide against Fairy-Stockfish with the stock rule (the engine reads a
/// file where the section changes nothing) finds the difference, the pawn
/// drops on the pawn's file.
#[test]
fn divide_finds_a_changed_drop_rule() {
    let Some(fsf) = fairy_stockfish() else { return };
    let dir = std::env::temp_dir().join(format!("chesstool-shogi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (changed, stock) = (dir.join("nifu.ini"), dir.join("stock.ini"));
    std::fs::write(&changed, "[shogi2:shogi]\ndropNoDoubled = -\n").unwrap();
    std::fs::write(&stock, "[shogi2:shogi]\n").unwrap();
    let engine = format!("sh -c 'sed -u -e s#{}#{}# | {}'", changed.display(), stock.display(), fsf.display());
    let fen = "4k4/9/9/9/9/9/4P4/9/4K4[P] w - - 0 1";
    chesstool()
        .args(["divide", "--variant-path", changed.to_str().unwrap(), "--variant", "shogi2", "--fen", fen])
        .args(["--depth", "1", "--engine-uci", &engine])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("P@e4").and(predicate::str::contains("P@e2")));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The hunt on that disagreement: from a judkins position of a
/// Fairy-Stockfish game, where the totals differ by one at depth 3, the
/// bisection ends at the pawn drop that mates, listed as Fairy-Stockfish's
/// extra move with the rule that forbids it.
#[test]
fn the_hunt_names_fairy_stockfishs_pawn_drop_that_mates() {
    let Some(fsf) = fairy_stockfish() else { return };
    chesstool()
        .args(["divide", "--variant", "judkins", "--fen", "rbnsgk/6/+B5/1g2N1/P5/1KS3[PR] w - - 0 6"])
        .args(["--depth", "3", "--bisect", "--engine-uci", fsf.to_str().unwrap()])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("P@f5").and(predicate::str::contains("a pawn drop that mates (uchifuzume)")));
}
