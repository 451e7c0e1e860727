//! Our SAN against python-chess's for every legal move (77,000) of about 5,000
//! positions: the suites (standard, tricky, Chess960, random), every position
//! one ply after the standard and tricky ones, and positions of seeded random
//! play (disambiguation, promotions, e.p., castling, check and mate marks).

mod book_common;
mod common;

use chesstool::Position;
use common::Rng;
use std::collections::BTreeMap;

const SCRIPT: &str = r#"
import sys, chess
for line in sys.stdin:
    fen, c960 = line.rstrip("\n").split("|")
    board = chess.Board(fen, chess960=(c960 == "1"))
    moves = sorted((board.uci(m), board.san(m)) for m in board.legal_moves)
    print(fen + "|" + " ".join(u + "=" + s for u, s in moves))
"#;

fn positions() -> Vec<Position> {
    let suites = common::all_suites();
    let mut out: Vec<Position> = suites.iter().map(|l| Position::from_fen(&l.fen).unwrap()).collect();
    for line in suites.iter().filter(|l| l.file == "standard.epd" || l.file == "tricky.epd") {
        let pos = Position::from_fen(&line.fen).unwrap();
        out.extend(pos.legal_moves().iter().map(|&m| pos.play(m)));
    }
    let roots = out.clone();
    let mut rng = Rng::new(0x5A4);
    for _ in 0..1500 {
        let mut pos = *rng.pick(&roots);
        for _ in 0..rng.below(12) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(*rng.pick(&moves));
        }
        out.push(pos);
    }
    out
}

#[test]
fn san_matches_python_chess() {
    if book_common::python_chess().is_none() {
        return;
    }
    let positions = positions();
    assert!(positions.len() > 4000, "{}", positions.len());
    let input: String = positions.iter().map(|p| format!("{}|{}\n", p.to_fen(), u8::from(p.is_chess960()))).collect();
    let output = book_common::run_python(SCRIPT, &[], &input);
    let theirs: Vec<&str> = output.lines().collect();
    assert_eq!(theirs.len(), positions.len());
    let mut checked = 0;
    let mut marks = BTreeMap::new();
    for (pos, line) in positions.iter().zip(theirs) {
        let (fen, moves) = line.split_once('|').unwrap();
        let mut ours: Vec<String> =
            pos.legal_moves().iter().map(|&m| format!("{}={}", m.to_uci(pos.is_chess960()), pos.san(m))).collect();
        ours.sort();
        let theirs: Vec<&str> = moves.split_whitespace().collect();
        assert_eq!(ours, theirs, "{fen}");
        for entry in &ours {
            checked += 1;
            let san = entry.split_once('=').unwrap().1;
            for (mark, name) in
                [("+", "check"), ("#", "mate"), ("=", "promotion"), ("x", "capture"), ("O-", "castling")]
            {
                if san.contains(mark) {
                    *marks.entry(name).or_insert(0) += 1;
                }
            }
            // Disambiguation: a piece letter followed by a file or rank before the square.
            let body = san.trim_end_matches(['+', '#']).replace('x', "");
            if body.len() >= 4 && body.starts_with(['N', 'B', 'R', 'Q']) && !body.contains('=') {
                *marks.entry("disambiguation").or_insert(0) += 1;
            }
        }
    }
    assert!(checked > 70_000, "{checked}");
    // The comparison covered every kind of mark.
    for name in ["check", "mate", "promotion", "capture", "castling", "disambiguation"] {
        assert!(marks.get(name).copied().unwrap_or(0) > 10, "{name}: {marks:?}");
    }
}
