//! The positions `fuzz` builds to hold the rare rules (`chess::motifs`),
//! judged by python-chess rather than by our generator: every one is a
//! valid position with plausible checks (`Board.status()`), and the motifs
//! that python-chess can see directly are there (its legal moves, checkers
//! and castling).

use chesstool::chess::motifs::{build, Motif};
use chesstool::verify::walk::SplitMix64;

/// python-chess's view of each FEN: status, legal move count, checkers, and
/// whether a castling move and an e.p. move are legal.
const SCRIPT: &str = r#"
import chess, sys
for fen in sys.stdin.read().splitlines():
    b = chess.Board(fen)
    moves = list(b.legal_moves)
    print(int(b.status()), len(moves), len(b.checkers()),
          int(any(b.is_castling(m) for m in moves)), int(any(b.is_en_passant(m) for m in moves)))
"#;

#[test]
fn every_motif_position_is_valid_and_holds_its_motif_for_python_chess() {
    let mut cases = Vec::new();
    for seed in 1..=12u64 {
        let mut rng = SplitMix64::new(seed);
        for motif in Motif::ALL {
            let pos = build(motif, &mut |n| rng.below(n)).unwrap_or_else(|| panic!("{} (seed {seed})", motif.name()));
            cases.push((motif, pos.to_fen()));
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
    for ((motif, fen), v) in cases.iter().zip(&lines) {
        let (status, moves, checkers, castles, ep) = (v[0], v[1], v[2], v[3], v[4]);
        let what = format!("{} {fen}: python-chess says {v:?}", motif.name());
        assert_eq!(status, 0, "{what}");
        match motif {
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
