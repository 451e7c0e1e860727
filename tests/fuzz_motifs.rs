//! The positions `fuzz` builds to hold the rare rules (`chess::motifs`),
//! judged by python-chess rather than by our generator: every one is a
//! valid position with plausible checks (`Board.status()`), and the motifs
//! that python-chess can see directly are there (its legal moves, checkers
//! and castling).

use chesstool::chess::motifs::{build_case, holds_case, Case, Detail, Motif, Shape};
use chesstool::variants::hunt::motifs::VariantCase;
use chesstool::verify::walk::SplitMix64;

/// python-chess's view of each FEN: status, legal move count, checkers, and
/// whether a castling move and an e.p. move are legal.
const SCRIPT: &str = r#"
import chess, sys
for fen in sys.stdin.read().splitlines():
    rights = fen.split()[2]
    b = chess.Board(fen, chess960=any(c not in "KQkq-" for c in rights))
    moves = list(b.legal_moves)
    print(int(b.status()), len(moves), len(b.checkers()),
          int(any(b.is_castling(m) for m in moves)), int(any(b.is_en_passant(m) for m in moves)))
"#;

#[test]
fn every_motif_position_is_valid_and_holds_its_motif_for_python_chess() {
    let mut cases = Vec::new();
    for seed in 1..=4u64 {
        let mut rng = SplitMix64::new(seed);
        for case in Case::all() {
            let setup =
                build_case(case, &mut |n| rng.below(n)).unwrap_or_else(|| panic!("{} (seed {seed})", case.name()));
            cases.push((case, setup.position().to_fen()));
        }
    }
    let input: String = cases.iter().map(|(_, fen)| format!("{fen}\n")).collect();
    let mut child = std::process::Command::new("python3")
        .args(["-c", SCRIPT])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "python-chess failed");
    let lines: Vec<Vec<u64>> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect())
        .collect();
    assert_eq!(lines.len(), cases.len());
    for ((case, fen), v) in cases.iter().zip(&lines) {
        let (status, moves, checkers, castles, ep) = (v[0], v[1], v[2], v[3], v[4]);
        let what = format!("{} {fen}: python-chess says {v:?}", case.name());
        assert_eq!(status, 0, "{what}");
        match (case.motif, case.detail) {
            (Motif::EpPinnedOnDiagonal, Detail::AlongPin) => assert_eq!(ep, 1, "{what}"),
            (Motif::EpPinnedOnDiagonal, Detail::OffPin) => assert_eq!(ep, 0, "{what}"),
            (Motif::EpInOtherCheck, _) => assert!(checkers == 1 && ep == 0, "{what}"),
            (Motif::RightsAfterCapture | Motif::RightsAfterReturn, _) => assert_eq!(castles, 0, "{what}"),
            (Motif::CastlingAllowed, _) => assert_eq!(castles, 1, "{what}"),
            (Motif::Chess960Castling, Detail::Chess960 { shape, .. }) => {
                let legal = matches!(shape, Shape::KingStays | Shape::RookStays | Shape::Swap);
                assert_eq!(castles, u64::from(legal), "{what}");
            }
            _ => {}
        }
        match case.motif {
            Motif::OneMove => assert_eq!(moves, 1, "{what}"),
            Motif::ManyMoves => assert!(moves >= 200, "{what}"),
            Motif::DoubleCheck => assert_eq!(checkers, 2, "{what}"),
            Motif::EpRemovesChecker | Motif::EpInOtherCheck | Motif::CastlingOutOfCheck => {
                assert!(checkers > 0, "{what}")
            }
            Motif::CastlingRookAttacked | Motif::DiscoveredCheckByCastling => assert_eq!(castles, 1, "{what}"),
            Motif::CastlingThroughAttack | Motif::CastlingIntoAttack | Motif::CastlingBlocked => {
                assert_eq!(castles, 0, "{what}")
            }
            Motif::EpPinnedOnRank => assert_eq!(ep, 0, "{what}"),
            Motif::DiscoveredCheckByEp => assert_eq!(ep, 1, "{what}"),
            _ => {}
        }
    }
}

/// Every case of every motif, for several seeds: built, and held as our
/// generator judges it.
#[test]
fn every_case_holds_for_several_seeds() {
    for seed in [1u64, 2, 7, 42, 1000] {
        let mut rng = SplitMix64::new(seed);
        for case in Case::all() {
            let setup =
                build_case(case, &mut |n| rng.below(n)).unwrap_or_else(|| panic!("{} (seed {seed})", case.name()));
            assert!(
                holds_case(&setup, case),
                "{} (seed {seed}): {} {:?}",
                case.name(),
                setup.root.to_fen(),
                setup.moves
            );
            // No other case of a castling motif holds by accident of the side or wing.
            if let Detail::Castle { side, .. } | Detail::Square { side, .. } = case.detail {
                assert_eq!(setup.position().turn(), side, "{}", case.name());
            }
        }
    }
}

/// The table of docs/fuzz.md names every motif and every case.
#[test]
fn the_docs_table_lists_every_case() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/fuzz.md")).unwrap();
    for motif in Motif::ALL {
        let row = doc
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` |", motif.name())))
            .unwrap_or_else(|| panic!("no row for {}", motif.name()));
        for case in Case::of(motif) {
            let name = case.name();
            let detail = name.split_once('/').map_or("(one)".to_string(), |(_, d)| format!("`{d}`"));
            assert!(row.contains(&detail), "{name}: the row says {row}");
        }
    }
    let cases = Case::all().len();
    assert!(doc.contains(&format!("of the {cases} motif cases")), "the note's example counts {cases} cases");
    for case in VariantCase::ALL {
        assert!(doc.contains(&format!("\n| `{}` |", case.name())), "no row for the variant case {}", case.name());
    }
}
