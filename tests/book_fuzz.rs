//! Fuzz-style tests with fixed seeds: the book reader (structure, decoding,
//! verify, dump, probe), the PGN and text readers and the Polyglot import
//! take random and mutated input and answer with a value or an error, never
//! a panic (a panic fails the test).

mod common;

use chesstool::book::dump::{parenthesised, pgn, Notation};
use chesstool::book::format::RawBook;
use chesstool::book::polyglot::{self, Entry, ImportOptions};
use chesstool::book::probe::Book;
use chesstool::book::verify::{decode, verify};
use chesstool::book::write::encode;
use chesstool::book::{pgn::read_pgn, text::read_lines, Tree};
use chesstool::Position;
use common::Rng;

fn repertoire() -> Vec<u8> {
    std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/book/repertoire.pgn")).unwrap()
}

/// Everything a book file goes through.
fn read_book(bytes: &[u8]) {
    let _ = verify(bytes);
    if let Ok(raw) = RawBook::parse(bytes) {
        let _ = parenthesised(&raw, Notation::San, 80);
    }
    if let Ok((_, tree)) = decode(bytes) {
        let _ = pgn(&tree, 80);
        let _ = encode(&tree);
        let _ = polyglot::export(&tree);
    }
    if let Ok(book) = Book::from_bytes(bytes) {
        let start = Position::startpos();
        let _ = book.probe(&start, Some(&[]));
        let e4 = start.play(start.parse_uci("e2e4").unwrap());
        let _ = book.probe(&e4, Some(&[start.parse_uci("e2e4").unwrap()]));
        let _ = book.probe(&Position::from_fen("8/8/8/8/8/8/8/K1k5 w - - 0 1").unwrap(), None);
    }
}

fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(4) {
        match rng.below(5) {
            0 if !bytes.is_empty() => {
                let i = rng.below(bytes.len());
                bytes[i] ^= 1 << rng.below(8);
            }
            1 if !bytes.is_empty() => {
                let i = rng.below(bytes.len());
                bytes[i] = rng.next_u64() as u8;
            }
            2 if !bytes.is_empty() => {
                let cut = rng.below(bytes.len());
                bytes.truncate(cut);
            }
            3 => {
                let i = rng.below(bytes.len() + 1);
                bytes.insert(i, rng.next_u64() as u8);
            }
            _ if !bytes.is_empty() => {
                let i = rng.below(bytes.len());
                bytes.remove(i);
            }
            _ => {}
        }
    }
}

#[test]
fn book_reader_never_panics() {
    let mut rng = Rng::new(0xF022);
    // Random bytes, biased towards small indices and the extension codes.
    for _ in 0..3000 {
        let len = rng.below(40);
        let bytes: Vec<u8> = (0..len)
            .map(|_| match rng.below(4) {
                0 => rng.next_u64() as u8,
                1 => 0xC0 | rng.below(20) as u8,
                _ => (rng.below(4) as u8) << 6 | rng.below(25) as u8,
            })
            .collect();
        read_book(&bytes);
    }
    // Mutations of real books: the repertoire, and an import with pointers.
    let mut tree = Tree::new();
    read_pgn(&repertoire(), &mut tree).unwrap();
    let (repertoire_book, _) = encode(&tree).unwrap();
    let start = Position::startpos();
    let entry = |pos: &Position, uci: &str| Entry {
        key: polyglot::key(pos),
        raw_move: polyglot::encode_move(pos.parse_uci(uci).unwrap()),
        weight: 1,
        learn: 0,
    };
    // Two move orders to one position: 1. Nf3 Nf6 2. c4 and 1. c4 Nf6 2. Nf3.
    let mut entries = vec![entry(&start, "g1f3"), entry(&start, "c2c4")];
    for (line, next) in [(["g1f3", "g8f6"], "c2c4"), (["c2c4", "g8f6"], "g1f3")] {
        let one = start.play_uci_moves(line[..1].iter().copied()).unwrap();
        entries.push(entry(&one, "g8f6"));
        entries.push(entry(&start.play_uci_moves(line.iter().copied()).unwrap(), next));
    }
    let after = start.play_uci_moves(["g1f3", "g8f6", "c2c4"]).unwrap();
    entries.push(entry(&after, "e7e6"));
    entries.sort_by_key(|e| e.key);
    let (imported, summary) = polyglot::import(&entries, ImportOptions { max_ply: None, min_weight: 1 });
    assert_eq!(summary.pointers, 1);
    let (import_book, _) = encode(&imported).unwrap();
    for base in [repertoire_book, import_book] {
        for _ in 0..2000 {
            let mut bytes = base.clone();
            mutate(&mut rng, &mut bytes);
            read_book(&bytes);
        }
    }
}

#[test]
fn pgn_and_text_readers_never_panic() {
    let mut rng = Rng::new(0x9E11);
    let vocabulary: [&[u8]; 24] = [
        b"1.",
        b"2...",
        b"e4",
        b"e5",
        b"Nf3",
        b"Nc6",
        b"(",
        b")",
        b"{",
        b"}",
        b"[Event \"x\"]",
        b"[FEN \"8/8\"]",
        b"$2",
        b"?",
        b"??",
        b"!?",
        b"O-O",
        b"1-0",
        b"*",
        b"\n",
        b"%",
        b";",
        b"[%style gambit]",
        b"\xff",
    ];
    for _ in 0..5000 {
        let mut text = Vec::new();
        for _ in 0..rng.below(30) {
            let word: &[u8] = vocabulary[rng.below(vocabulary.len())];
            text.extend_from_slice(word);
            text.push(if rng.chance(4) { b'\n' } else { b' ' });
        }
        let _ = read_pgn(&text, &mut Tree::new());
        let _ = read_lines(&String::from_utf8_lossy(&text), &mut Tree::new());
    }
    let source = repertoire();
    for _ in 0..2000 {
        let mut bytes = source.clone();
        mutate(&mut rng, &mut bytes);
        let mut tree = Tree::new();
        if read_pgn(&bytes, &mut tree).is_ok() {
            encode(&tree).unwrap();
        }
        let _ = read_lines(&String::from_utf8_lossy(&bytes), &mut Tree::new());
    }
}

#[test]
fn polyglot_import_never_panics() {
    let mut rng = Rng::new(0x0B1);
    let start = Position::startpos();
    for _ in 0..300 {
        // Keys of real positions (so the import goes deep) and random ones,
        // with random move fields (illegal, null, promotions, castling forms).
        let mut entries = Vec::new();
        let mut pos = start;
        for _ in 0..rng.below(30) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = *rng.pick(&moves);
            let raw_move = if rng.chance(5) { rng.next_u64() as u16 } else { polyglot::encode_move(m) };
            let key = if rng.chance(10) { rng.next_u64() } else { polyglot::key(&pos) };
            entries.push(Entry { key, raw_move, weight: rng.below(3) as u16, learn: 0 });
            pos = pos.play(m);
        }
        entries.sort_by_key(|e| e.key);
        let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_bytes()).collect();
        let read = polyglot::read_entries(&bytes).unwrap();
        for min_weight in [0, 1] {
            let (tree, _) = polyglot::import(&read, ImportOptions { max_ply: Some(rng.below(40) as u32), min_weight });
            let (book, _) = encode(&tree).unwrap();
            verify(&book).unwrap();
        }
    }
}
