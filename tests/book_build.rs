//! Building, dumping and probing Thompson books: sizes (one byte per node
//! plus the reported extensions), every probe of a repertoire against
//! python-chess's independent reading of the same PGN, the round trip build
//! -> dump --pgn -> build, and seeded random trees through every path.

mod book_common;
mod common;

use assert_cmd::Command;
use chesstool::book::dump::{parenthesised, pgn, Notation};
use chesstool::book::format::RawBook;
use chesstool::book::probe::Book;
use chesstool::book::write::encode;
use chesstool::book::{pgn::read_pgn, Style, Tree};
use chesstool::{Move, Position};
use common::Rng;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/book").join(name)
}

fn chesstool() -> Command {
    Command::cargo_bin("chesstool").unwrap()
}

fn build_file(inputs: &[&Path], out: &Path) -> String {
    let mut cmd = chesstool();
    cmd.args(["book", "build"]).args(inputs).arg("-o").arg(out);
    let output = cmd.output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn repertoire_sizes_and_escapes() {
    let dir = book_common::scratch("book_build_sizes");
    let book = dir.join("r.book");
    let report = build_file(&[&data("repertoire.pgn")], &book);
    let bytes = std::fs::read(&book).unwrap();
    // 114 moves read (merged where games share lines); one index escape (O-O-O is move 63 of 64), two ? marks, three style tags
    // (one move with two), and two lines that end before another choice.
    let mut tree = Tree::new();
    let summary = read_pgn(&std::fs::read(data("repertoire.pgn")).unwrap(), &mut tree).unwrap();
    assert_eq!((summary.games, summary.moves), (6, 114));
    let (_, sizes) = encode(&tree).unwrap();
    assert_eq!(sizes.nodes as usize, tree.len());
    assert_eq!((sizes.escapes, sizes.avoid, sizes.styles), (1, 2, 3));
    assert_eq!(bytes.len() as u64, sizes.nodes + sizes.escapes + sizes.avoid + sizes.styles + sizes.line_ends);
    assert!(report.contains(&format!("{} nodes, {} bytes", sizes.nodes, bytes.len())), "{report}");
    // The escaped move really is the 64th move of its position.
    let line = ["e2e4", "h7h5", "d1h5", "c7c6", "d2d4", "h8h7", "c1f4", "d8b6", "b1c3", "g8f6", "f1c4", "e8d8"];
    let pos = Position::startpos().play_uci_moves(line).unwrap();
    assert_eq!(pos.legal_moves().len(), 64);
    assert_eq!(pos.legal_moves()[63].to_uci(false), "e1c1");
    let found = Book::from_bytes(&bytes).unwrap().probe(&pos, Some(&moves_of(&line))).unwrap();
    assert_eq!(found.moves.iter().map(|b| b.mv.to_uci(false)).collect::<Vec<_>>(), ["e1c1"]);
}

fn moves_of(ucis: &[&str]) -> Vec<Move> {
    let mut pos = Position::startpos();
    ucis.iter()
        .map(|u| {
            let m = pos.parse_uci(u).unwrap();
            pos = pos.play(m);
            m
        })
        .collect()
}

#[test]
fn without_extensions_n_nodes_take_n_bytes() {
    let dir = book_common::scratch("book_build_plain");
    let pgn_path = dir.join("plain.pgn");
    // Every line ends on the last choice of its position: no extension needed.
    std::fs::write(&pgn_path, "1. e4 e5 (1... c5 2. Nf3) (1... e6 2. d4 d5) 2. Nf3 Nc6 3. Bb5 *\n1. d4 d5 2. c4 *\n")
        .unwrap();
    let book = dir.join("plain.book");
    let report = build_file(&[&pgn_path], &book);
    assert_eq!(std::fs::read(&book).unwrap().len(), 13);
    assert!(report.contains("13 nodes, 13 bytes = 13 move bytes + 0 extension bytes"), "{report}");
}

/// python-chess reads the PGN; for every node it prints the moves from the
/// start and the book moves of that position: the union over every place in
/// every game where the same position stands (a move is "play" unless some
/// place marks it ? or ??).
const READ_PGN: &str = r#"
import sys, chess, chess.pgn
def key(board):
    return " ".join(board.fen(en_passant="xfen").split()[:4])
nodes, union = [], {}
with open(sys.argv[1]) as f:
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        assert not game.errors, game.errors
        stack = [(game, [])]
        while stack:
            node, path = stack.pop()
            board = node.board()
            nodes.append((path, key(board)))
            moves = union.setdefault(key(board), {})
            for child in node.variations:
                avoid = 2 in child.nags or 4 in child.nags
                moves[child.move.uci()] = moves.get(child.move.uci(), True) and not avoid
                stack.append((child, path + [child.move.uci()]))
for path, k in nodes:
    print(" ".join(path) + "|" + " ".join(f"{u}:{int(p)}" for u, p in sorted(union[k].items())))
"#;

#[test]
fn every_probe_matches_python_chess() {
    if book_common::python_chess().is_none() {
        return;
    }
    let source = data("repertoire.pgn");
    let expected = book_common::run_python(READ_PGN, &[source.to_str().unwrap()], "");
    let mut tree = Tree::new();
    read_pgn(&std::fs::read(&source).unwrap(), &mut tree).unwrap();
    let (bytes, _) = encode(&tree).unwrap();
    let book = Book::from_bytes(&bytes).unwrap();
    let mut probes = 0;
    let mut transpositions = 0;
    for line in expected.lines() {
        let (path, moves) = line.split_once('|').unwrap();
        let ucis: Vec<&str> = path.split_whitespace().collect();
        let pos = Position::startpos().play_uci_moves(ucis.iter().copied()).unwrap();
        let theirs: BTreeSet<String> = moves.split_whitespace().map(String::from).collect();
        for line_given in [Some(moves_of(&ucis)), None] {
            let found = book.probe(&pos, line_given.as_deref()).unwrap();
            let ours: BTreeSet<String> =
                found.moves.iter().map(|b| format!("{}:{}", b.mv.to_uci(false), u8::from(b.play))).collect();
            assert_eq!(ours, theirs, "after {path:?}");
            transpositions += usize::from(found.transposition);
            probes += 1;
        }
    }
    assert!(probes > 200, "{probes}");
    // The Queen's Gambit positions stand at several places.
    assert!(transpositions > 10, "{transpositions}");
}

#[test]
fn probe_json_and_transpositions_through_the_cli() {
    let dir = book_common::scratch("book_build_probe");
    let book = dir.join("r.book");
    build_file(&[&data("repertoire.pgn")], &book);
    let probe = |args: &[&str]| -> serde_json::Value {
        let out = chesstool().args(["book", "probe"]).arg(&book).args(args).arg("--json").output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let start = probe(&[]);
    assert_eq!(start["fen"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let firsts: Vec<&str> = start["moves"].as_array().unwrap().iter().map(|m| m["san"].as_str().unwrap()).collect();
    assert_eq!(firsts, ["e4", "d4", "c4", "Nf3"]);
    assert_eq!(start["transposition"], false);
    assert_eq!(start["moves"][0], serde_json::json!({"uci": "e2e4", "san": "e4", "play": true}));
    // 1. e4 e5 2. Qh5?? is recognised, not played.
    let qh5 = probe(&["--moves", "e4", "e5"]);
    let qh5 = qh5["moves"].as_array().unwrap().iter().find(|m| m["san"] == "Qh5").unwrap().clone();
    assert_eq!(qh5["play"], false);
    // The QGD by the English move order: the line leaves the tree, the walk finds it.
    let english = probe(&["--moves", "c4", "e6", "d4", "d5", "Nc3", "Nf6"]);
    assert_eq!(english["transposition"], true);
    let sans: BTreeSet<&str> =
        english["moves"].as_array().unwrap().iter().map(|m| m["san"].as_str().unwrap()).collect();
    assert_eq!(sans, BTreeSet::from(["Bg5", "cxd5"]));
    // The same position by FEN alone.
    let fen = english["fen"].as_str().unwrap().to_string();
    let by_fen = probe(&["--fen", &fen]);
    assert_eq!(by_fen["moves"].as_array().unwrap().len(), 2);
    // Not in the book.
    let none = probe(&["--moves", "a4"]);
    assert_eq!(none["moves"], serde_json::json!([]));
    assert_eq!(none["transposition"], false);
}

#[test]
fn build_dump_pgn_build_gives_the_same_book() {
    let dir = book_common::scratch("book_build_roundtrip");
    let first = dir.join("first.book");
    build_file(&[&data("repertoire.pgn"), &data("lines.txt")], &first);
    let dumped = chesstool().args(["book", "dump", "--pgn"]).arg(&first).output().unwrap();
    assert!(dumped.status.success());
    let pgn_path = dir.join("dump.pgn");
    std::fs::write(&pgn_path, &dumped.stdout).unwrap();
    let second = dir.join("second.book");
    build_file(&[&pgn_path], &second);
    assert_eq!(std::fs::read(&first).unwrap(), std::fs::read(&second).unwrap());
    // The parenthesised dumps agree too, in both notations.
    for flag in ["--san", "--uci"] {
        let a = chesstool().args(["book", "dump", flag]).arg(&first).output().unwrap().stdout;
        let b = chesstool().args(["book", "dump", flag]).arg(&second).output().unwrap().stdout;
        assert_eq!(a, b);
        assert!(!a.is_empty());
    }
}

/// A random tree: lines of seeded random play from the start (some long),
/// merged, with marks and style tags here and there.
fn random_tree(rng: &mut Rng) -> Tree {
    let mut tree = Tree::new();
    for _ in 0..1 + rng.below(40) {
        let mut pos = Position::startpos();
        let mut at = Tree::ROOT;
        for _ in 0..rng.below(30) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Mostly the first few moves, so that lines share prefixes.
            let i = if rng.chance(3) { rng.below(moves.len()) } else { rng.below(moves.len().min(3)) };
            at = tree.add_move(at, moves[i], !rng.chance(25));
            if rng.chance(40) {
                tree.node_mut(at).style = Style(1 + rng.below(7) as u8);
            }
            pos = pos.play(moves[i]);
        }
    }
    tree
}

#[test]
fn random_trees_survive_every_path() {
    let mut rng = Rng::new(0xB00C);
    for round in 0..200 {
        let tree = random_tree(&mut rng);
        let (bytes, sizes) = encode(&tree).unwrap();
        assert_eq!(bytes.len() as u64, sizes.bytes);
        assert_eq!(sizes.nodes as usize, tree.len());
        let raw = RawBook::parse(&bytes).unwrap();
        let back = Tree::from_raw(&raw).unwrap();
        assert!(back.same_as(&tree), "round {round}: bytes");
        let text = pgn(&back, 79);
        let mut again = Tree::new();
        read_pgn(text.as_bytes(), &mut again).unwrap_or_else(|e| panic!("round {round}: {e}\n{text}"));
        assert!(again.same_as(&tree), "round {round}: PGN\n{text}");
        parenthesised(&raw, Notation::San, 100).unwrap();
        // Every node's position answers with its own moves.
        let book = Book::from_bytes(&bytes).unwrap();
        tree.for_each(|id, before| {
            if round % 20 == 0 {
                let line = tree.line_to(id);
                let after = before.play(tree.node(id).mv);
                let found = book.probe(&after, Some(&line)).unwrap();
                let own: Vec<Move> = tree.children(id).iter().map(|&c| tree.node(c).mv).collect();
                assert_eq!(found.moves.iter().map(|b| b.mv).take(own.len()).collect::<Vec<_>>(), own);
            }
        });
    }
}
