//! Polyglot interop against real, independent tools:
//!
//! - keys: python-chess's `zobrist_hash` on thousands of positions (the
//!   published vectors are unit tests in `src/book/polyglot.rs`);
//! - import: the gnuchess book (Debian `gnuchess-book`) to 12 and to 20
//!   plies; every position's book moves, in order, equal those of
//!   python-chess following the same `.bin` (`tests/data/book/polyglot_bfs.py`);
//!   a book made by Debian's `polyglot make-book` likewise;
//! - export: our `.bin` read back by python-chess (moves and weights) and by
//!   `polyglot dump-book` (every book move of both colours).

mod book_common;
mod common;

use assert_cmd::Command;
use chesstool::book::polyglot::{self, key};
use chesstool::book::probe::Book;
use chesstool::book::verify::decode;
use chesstool::book::Tree;
use chesstool::chess::notation::read_move as resolve_move;
use chesstool::Position;
use common::Rng;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn chesstool() -> Command {
    Command::cargo_bin("chesstool").unwrap()
}

fn bfs_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/book/polyglot_bfs.py")
}

/// python-chess's reading: key -> [(uci, weight)] in order.
fn python_bfs(bin: &Path, max_ply: u32, min_weight: u16) -> BTreeMap<u64, Vec<(String, u16)>> {
    let out = std::process::Command::new("python3")
        .arg(bfs_script())
        .arg(bin)
        .args([max_ply.to_string(), min_weight.to_string()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let (k, moves) = line.split_once('|').unwrap();
            let moves = moves
                .split_whitespace()
                .map(|mw| {
                    let (m, w) = mw.split_once(':').unwrap();
                    (m.to_string(), w.parse().unwrap())
                })
                .collect();
            (u64::from_str_radix(k, 16).unwrap(), moves)
        })
        .collect()
}

/// Our reading of a Thompson book: key -> moves of every place, in book order.
fn our_moves(tree: &Tree) -> BTreeMap<u64, Vec<(String, bool)>> {
    let mut map: BTreeMap<u64, Vec<(String, bool)>> = BTreeMap::new();
    tree.for_each(|id, before| {
        let node = tree.node(id);
        let list = map.entry(key(before)).or_default();
        let uci = node.mv.to_uci(false);
        if !list.iter().any(|(m, _)| *m == uci) {
            list.push((uci, node.play));
        }
    });
    map
}

fn import_file(bin: &Path, out: &Path, extra: &[&str]) -> serde_json::Value {
    let result = chesstool()
        .args(["book", "import-polyglot"])
        .arg(bin)
        .arg("-o")
        .arg(out)
        .args(extra)
        .arg("--json")
        .output()
        .unwrap();
    assert!(result.status.success(), "{}", String::from_utf8_lossy(&result.stderr));
    serde_json::from_slice(&result.stdout).unwrap()
}

#[test]
fn keys_match_python_chess() {
    if book_common::python_chess().is_none() {
        return;
    }
    // Standard positions (Chess960 castling has its own Polyglot extension):
    // the suites and seeded random play from them, with e.p. and castling changes.
    let roots: Vec<Position> = common::all_suites()
        .iter()
        .filter(|l| l.file != "chess960.epd")
        .map(|l| Position::from_fen(&l.fen).unwrap())
        .collect();
    let mut rng = Rng::new(0x9017);
    let mut positions = roots.clone();
    for _ in 0..4000 {
        let mut pos = *rng.pick(&roots);
        for _ in 0..rng.below(10) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(*rng.pick(&moves));
        }
        positions.push(pos);
    }
    let script = "import sys, chess, chess.polyglot\nfor line in sys.stdin:\n    print('%016x' % chess.polyglot.zobrist_hash(chess.Board(line.strip())))\n";
    let input: String = positions.iter().map(|p| p.to_fen() + "\n").collect();
    let theirs = book_common::run_python(script, &[], &input);
    let mut with_ep = 0;
    for (pos, k) in positions.iter().zip(theirs.lines()) {
        assert_eq!(format!("{:016x}", key(pos)), k, "{}", pos.to_fen());
        with_ep += usize::from(pos.ep_square().is_some());
    }
    assert!(with_ep > 20, "{with_ep}");
}

fn check_import(max_ply: u32) {
    let (Some(_), Some(gnuchess)) = (book_common::python_chess(), book_common::gnuchess_book()) else { return };
    let dir = book_common::scratch(&format!("book_polyglot_import_{max_ply}"));
    let out = dir.join("gnuchess.book");
    let report = import_file(&gnuchess, &out, &["--max-ply", &max_ply.to_string()]);
    let (_, tree) = decode(&std::fs::read(&out).unwrap()).unwrap();
    let ours = our_moves(&tree);
    let theirs = python_bfs(&gnuchess, max_ply, 1);
    assert_eq!(ours.len(), theirs.len(), "positions with book moves");
    assert_eq!(report["positions"], theirs.len());
    for (k, their_moves) in &theirs {
        let mine: Vec<&str> = ours.get(k).map_or(vec![], |l| l.iter().map(|(m, _)| m.as_str()).collect());
        let expected: Vec<&str> = their_moves.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(mine, expected, "position {k:016x}");
    }
    assert!(report["pointers"].as_u64().unwrap() > 1000);
    // Probes (walking the tree, transpositions included) give the same
    // moves for a sample of positions given by FEN alone.
    let book = Book::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    let mut rng = Rng::new(u64::from(max_ply));
    let mut positions = Vec::new();
    tree.for_each(|id, before| {
        if rng.chance(10) {
            positions.push(before.play(tree.node(id).mv));
        }
        let _ = id;
    });
    for pos in positions.iter().take(3000) {
        let found = book.probe(pos, None).unwrap();
        let mine: Vec<String> = found.moves.iter().map(|b| b.mv.to_uci(false)).collect();
        let expected: Vec<String> =
            theirs.get(&key(pos)).map_or(vec![], |l| l.iter().map(|(m, _)| m.clone()).collect());
        assert_eq!(mine, expected, "{}", pos.to_fen());
    }
}

#[test]
fn gnuchess_book_to_12_plies_equals_python_chess() {
    check_import(12);
}

#[test]
fn gnuchess_book_to_20_plies_equals_python_chess() {
    check_import(20);
}

/// Our export, read by python-chess (moves, order and weights) and by
/// `polyglot dump-book` (every book move of both colours).
#[test]
fn export_is_read_back_by_python_chess_and_polyglot() {
    let (Some(_), Some(polyglot_exe), Some(gnuchess)) =
        (book_common::python_chess(), book_common::polyglot(), book_common::gnuchess_book())
    else {
        return;
    };
    let dir = book_common::scratch("book_polyglot_export");
    let book = dir.join("g.book");
    import_file(&gnuchess, &book, &["--max-ply", "10"]);
    let bin = dir.join("g.bin");
    let out =
        chesstool().args(["book", "export-polyglot"]).arg(&book).arg("-o").arg(&bin).arg("--json").output().unwrap();
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (_, tree) = decode(&std::fs::read(&book).unwrap()).unwrap();
    let ours = our_moves(&tree);
    assert_eq!(report["positions"], ours.len());
    // Sorted 16-byte big-endian entries.
    let bytes = std::fs::read(&bin).unwrap();
    assert_eq!(bytes.len() % 16, 0);
    let keys: Vec<u64> = bytes.chunks(16).map(|c| u64::from_be_bytes(c[..8].try_into().unwrap())).collect();
    assert!(keys.windows(2).all(|w| w[0] <= w[1]));
    // python-chess, from the start, without a ply limit.
    let theirs = python_bfs(&bin, 1000, 0);
    assert_eq!(theirs.len(), ours.len());
    for (k, moves) in &theirs {
        let mine = &ours[k];
        let n = mine.len() as u16;
        let expected: Vec<(String, u16)> =
            mine.iter().enumerate().map(|(i, (m, play))| (m.clone(), if *play { n - i as u16 } else { 0 })).collect();
        assert_eq!(moves, &expected, "{k:016x}");
    }
    // polyglot dump-book: replay every line and collect the moves it shows
    // with a percentage (those of the dumped colour).
    let mut dumped: BTreeSet<(u64, String)> = BTreeSet::new();
    for color in ["white", "black"] {
        let text_path = dir.join(format!("{color}.txt"));
        let status = std::process::Command::new(&polyglot_exe)
            .args(["dump-book", "-bin"])
            .arg(&bin)
            .args(["-color", color, "-out"])
            .arg(&text_path)
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
        let text = std::fs::read_to_string(&text_path).unwrap();
        for line in text.lines().filter(|l| l.split_whitespace().next().is_some_and(|t| t.ends_with(':'))) {
            let mut pos = Position::startpos();
            for token in line.split_whitespace().skip(1) {
                if token.starts_with('{') {
                    break; // `{trans: line=3, ply=7}`: a transposition, shown in full elsewhere
                }
                if token.ends_with('.') {
                    continue;
                }
                let (san, shown) = match token.split_once('{') {
                    Some((san, _)) => (san, true),
                    None => (token, false),
                };
                let mv = resolve_move(&pos, san).unwrap_or_else(|e| panic!("{line}: {e}"));
                if shown {
                    dumped.insert((key(&pos), mv.to_uci(false)));
                }
                pos = pos.play(mv);
            }
        }
    }
    let all: BTreeSet<(u64, String)> =
        ours.iter().flat_map(|(k, moves)| moves.iter().map(move |(m, _)| (*k, m.clone()))).collect();
    assert_eq!(dumped, all);
}

/// A book made by Debian's `polyglot make-book` from our repertoire (its main
/// lines, scored as draws so that no move has weight 0): our import equals
/// python-chess's reading, and every move is in the book we build from the
/// same PGN.
#[test]
fn polyglot_make_book_imports_like_python_chess() {
    let (Some(_), Some(polyglot_exe)) = (book_common::python_chess(), book_common::polyglot()) else { return };
    let dir = book_common::scratch("book_polyglot_make");
    let source =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/book/repertoire.pgn")).unwrap();
    let draws: String = source
        .lines()
        .map(|l| {
            if l.starts_with("[Result") {
                "[Result \"1/2-1/2\"]".to_string()
            } else {
                l.replace(" 1-0", " 1/2-1/2").replace(" 0-1", " 1/2-1/2").replace(" *", " 1/2-1/2")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"; // polyglot fails on a last line without its newline
    let pgn = dir.join("draws.pgn");
    std::fs::write(&pgn, draws).unwrap();
    let bin = dir.join("made.bin");
    let status = std::process::Command::new(&polyglot_exe)
        .args(["make-book", "-pgn"])
        .arg(&pgn)
        .arg("-bin")
        .arg(&bin)
        .args(["-min-game", "1"])
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    // polyglot exits 0 even when it fails: look for the file.
    assert!(status.success() && bin.exists(), "polyglot make-book made no book");
    let book = dir.join("made.book");
    import_file(&bin, &book, &[]);
    let (_, tree) = decode(&std::fs::read(&book).unwrap()).unwrap();
    let ours = our_moves(&tree);
    let theirs = python_bfs(&bin, 1000, 1);
    assert!(theirs.len() > 40);
    assert_eq!(ours.len(), theirs.len());
    for (k, moves) in &theirs {
        let mine: Vec<&str> = ours[k].iter().map(|(m, _)| m.as_str()).collect();
        let expected: Vec<&str> = moves.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(mine, expected);
    }
    // Every move polyglot took from the PGN is in our own build of it.
    let built = dir.join("built.book");
    let out = chesstool().args(["book", "build"]).arg(&pgn).arg("-o").arg(&built).output().unwrap();
    assert!(out.status.success());
    let (_, built_tree) = decode(&std::fs::read(&built).unwrap()).unwrap();
    let built_moves = our_moves(&built_tree);
    for (k, moves) in &ours {
        for (m, _) in moves {
            assert!(built_moves[k].iter().any(|(b, _)| b == m), "{k:016x} {m}");
        }
    }
}

#[test]
fn weight_zero_means_recognise_but_do_not_play() {
    // One position, three moves: weights 5, 0, 3.
    let start = Position::startpos();
    let entry = |uci: &str, weight: u16| polyglot::Entry {
        key: key(&start),
        raw_move: polyglot::encode_move(start.parse_uci(uci).unwrap()),
        weight,
        learn: 0,
    };
    let entries = vec![entry("e2e4", 5), entry("g2g4", 0), entry("d2d4", 3)];
    let options = |min_weight| polyglot::ImportOptions { max_ply: None, min_weight };
    let (tree, summary) = polyglot::import(&entries, options(1));
    assert_eq!((tree.len(), summary.below_weight), (2, 1));
    let (tree, _) = polyglot::import(&entries, options(0));
    let moves: Vec<(String, bool)> =
        tree.children(Tree::ROOT).iter().map(|&c| (tree.node(c).mv.to_uci(false), tree.node(c).play)).collect();
    assert_eq!(moves, [("e2e4".into(), true), ("d2d4".into(), true), ("g2g4".into(), false)]);
    // And back: weight 0 again.
    let exported = polyglot::export(&tree);
    assert_eq!(exported.iter().map(|e| e.weight).collect::<Vec<_>>(), [3, 2, 0]);
}
