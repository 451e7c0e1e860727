//! The book probe is sound: every position reached by every line of a book
//! is found by a probe of the position alone (as `book probe --fen` does),
//! at exactly the places a walk of the whole tree finds (the pruned search
//! against an unpruned one), with exactly the book moves of all of them.
//! Books: the repertoire PGN, real opening lines from the gnuchess book,
//! seeded random lines that capture often (pawns on their home squares
//! included) and transpose, and the regressions the first version missed.

mod book_common;
mod common;

use assert_cmd::Command;
use chesstool::book::pgn::read_pgn;
use chesstool::book::polyglot::{import, read_entries, ImportOptions};
use chesstool::book::text::read_lines;
use chesstool::book::write::encode;
use chesstool::book::Tree;
use chesstool::{Move, Position};
use common::Rng;
use std::path::Path;

#[allow(dead_code)]
#[path = "fuzz_checks/mod.rs"]
mod checks;

fn sound(tree: &Tree) {
    let (bytes, _) = encode(tree).unwrap();
    checks::book::probe_sound(&bytes);
}

fn from_lines(text: &str) -> Tree {
    let mut tree = Tree::new();
    read_lines(text, &mut tree).unwrap();
    tree
}

/// The bug of issue 34: a queen takes a pawn on its starting square as the
/// last move of a line. The pruning counted that pawn as one still to move
/// by its own side, which had no move left, and skipped the line.
#[test]
fn queen_takes_a_home_pawn_at_the_end_of_a_line() {
    for line in [
        "d4 d5 Bf4 c5 e3 Qb6 Nc3 Qxb2",
        "e4 e5 Nf3 Nc6 Bc4 Nd4 Nxe5 Qg5 Nxf7 Qxg2",
        "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#",
        "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 c6 Nf3 Bf5 Bd2 e6 Nd5 Qd8 Nxc7+",
        "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Bg5 e6 f4 Qb6 Qd2 Qxb2",
    ] {
        let tree = from_lines(line);
        sound(&tree);
        // The last position by itself, as `--fen` gives it.
        let last = line
            .split_whitespace()
            .fold(Position::startpos(), |p, san| p.play(chesstool::chess::notation::read_move(&p, san).unwrap()));
        let (bytes, _) = encode(&tree).unwrap();
        let book = chesstool::book::probe::Book::from_bytes(&bytes).unwrap();
        let target = Position::from_fen(&last.to_fen()).unwrap();
        assert_eq!(book.probe(&target, None).unwrap().places.len(), 1, "{line}");
    }
}

#[test]
fn the_cli_finds_the_poisoned_pawn_by_fen() {
    let dir = book_common::scratch("book_probe_sound_cli");
    let text = dir.join("lines.txt");
    std::fs::write(&text, "d4 d5 Bf4 c5 e3 Qb6 Nc3 Qxb2\nd4 d5 Bf4 c5 e3 Qb6 Nc3 Qxb2 Nb5\n").unwrap();
    let book = dir.join("r.book");
    let built = Command::cargo_bin("chesstool")
        .unwrap()
        .args(["book", "build", "--force", "-o"])
        .arg(&book)
        .arg(&text)
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    // After 4... Qxb2 (python-chess: the FEN of the line's end).
    let fen = "rnb1kbnr/pp2pppp/8/2pp4/3P1B2/2N1P3/PqP2PPP/R2QKBNR w KQkq - 0 5";
    let out = Command::cargo_bin("chesstool")
        .unwrap()
        .args(["book", "probe"])
        .arg(&book)
        .args(["--fen", fen, "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let moves: Vec<&str> = json["moves"].as_array().unwrap().iter().map(|m| m["san"].as_str().unwrap()).collect();
    assert_eq!(moves, ["Nb5"]);
}

/// An e.p. square that no legal capture uses does not make another
/// position: a FEN written after every double push names it, python-chess's
/// leaves it out (also when the only capturer is pinned, which our move
/// counts; `probe_sound` probes both FENs of every position).
#[test]
fn an_ep_square_without_a_legal_capture_is_the_same_position() {
    // 1. e4: no black pawn can take on e3, so FENs with "e3" and "-" agree.
    let tree = from_lines("e4 c5\n");
    let (bytes, _) = encode(&tree).unwrap();
    let book = chesstool::book::probe::Book::from_bytes(&bytes).unwrap();
    for fen in [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    ] {
        let found = book.probe(&Position::from_fen(fen).unwrap(), None).unwrap();
        assert_eq!(found.moves.len(), 1, "{fen}");
    }
}

#[test]
fn the_repertoire_and_the_lines() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/book");
    let mut tree = Tree::new();
    read_pgn(&std::fs::read(dir.join("repertoire.pgn")).unwrap(), &mut tree).unwrap();
    read_lines(&std::fs::read_to_string(dir.join("lines.txt")).unwrap(), &mut tree).unwrap();
    sound(&tree);
}

/// Real opening lines: the gnuchess book followed 4 plies from the start.
#[test]
fn real_lines_from_the_gnuchess_book() {
    let Some(path) = book_common::gnuchess_book() else { return };
    let entries = read_entries(&std::fs::read(path).unwrap()).unwrap();
    let (tree, _) = import(&entries, ImportOptions { max_ply: Some(4), min_weight: 1 });
    assert!(tree.len() > 300, "{}", tree.len());
    sound(&tree);
}

/// A random legal line; captures are chosen four times in five when there
/// is one, so pawns die on their home squares and material runs out.
fn random_line(rng: &mut Rng, plies: usize) -> Vec<Move> {
    let mut pos = Position::startpos();
    let mut line = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let captures: Vec<Move> =
            moves.iter().copied().filter(|&m| m.is_en_passant() || pos.piece_at(m.to()).is_some()).collect();
        let m = if !captures.is_empty() && !rng.chance(5) { *rng.pick(&captures) } else { *rng.pick(moves.as_slice()) };
        line.push(m);
        pos = pos.play(m);
    }
    line
}

fn add_line(tree: &mut Tree, line: &[Move], rng: &mut Rng) {
    let mut at = Tree::ROOT;
    for &m in line {
        at = tree.add_move(at, m, !rng.chance(10));
    }
}

/// Seeded random books: lines of 1 to 30 plies, lines branching off each
/// other, and the same moves in another order (a transposition wherever the
/// order stays legal).
#[test]
fn random_books_with_captures_and_transpositions() {
    let mut rng = Rng::new(34);
    for _ in 0..40 {
        let mut tree = Tree::new();
        let mut lines: Vec<Vec<Move>> = Vec::new();
        for _ in 0..1 + rng.below(6) {
            let plies = 1 + rng.below(30);
            let line = match lines.last() {
                Some(prev) if rng.chance(2) => {
                    // Branch off an earlier line at a random ply.
                    let cut = rng.below(prev.len() + 1);
                    let mut pos = Position::startpos();
                    for &m in &prev[..cut] {
                        pos = pos.play(m);
                    }
                    let mut l = prev[..cut].to_vec();
                    let tail = random_line_from(&mut rng, pos, plies);
                    l.extend(tail);
                    l
                }
                _ => random_line(&mut rng, plies),
            };
            add_line(&mut tree, &line, &mut rng);
            if let Some(swapped) = swap_pair(&line) {
                add_line(&mut tree, &swapped, &mut rng);
            }
            lines.push(line);
        }
        sound(&tree);
    }
}

fn random_line_from(rng: &mut Rng, mut pos: Position, plies: usize) -> Vec<Move> {
    let mut line = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = *rng.pick(moves.as_slice());
        line.push(m);
        pos = pos.play(m);
    }
    line
}

/// The line with two moves of the same side exchanged (plies 0 and 2, or
/// 1 and 3), if it stays legal: the same position by another order.
fn swap_pair(line: &[Move]) -> Option<Vec<Move>> {
    for first in 0..line.len().saturating_sub(2) {
        let mut l = line.to_vec();
        l.swap(first, first + 2);
        let mut pos = Position::startpos();
        if l.iter().all(|&m| {
            let ok = pos.legal_moves().contains(m);
            if ok {
                pos = pos.play(m);
            }
            ok
        }) && l != line
        {
            return Some(l);
        }
    }
    None
}
