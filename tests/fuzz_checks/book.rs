//! Books: Thompson's bytes, PGN and plain-text lines into a book, Polyglot
//! `.bin`; and the probe, checked against a walk of the whole tree.

use super::text;
use chesstool::book::dump::{self, Notation};
use chesstool::book::pgn::read_pgn;
use chesstool::book::polyglot::{self, ImportOptions};
use chesstool::book::probe::{Book, BookMove};
use chesstool::book::tree::same_position;
use chesstool::book::verify::{decode, verify};
use chesstool::book::write::encode;
use chesstool::book::{Style, Tree};
use chesstool::Position;

/// Books bigger than this are skipped by the probe check (it probes every
/// position, each probe a walk of the book).
const PROBE_NODES: usize = 400;

/// A book that loads writes back to bytes that load to the same tree, and
/// those bytes are a fixed point; its PGN dump rebuilds to the same bytes
/// (when it has no transposition pointer, which PGN keeps as a comment);
/// the probe finds every position where it stands.
pub fn book_bin(data: &[u8]) {
    if data.len() > 4096 {
        return;
    }
    let Ok((raw, tree)) = decode(data) else { return };
    verify(data).expect("a book that decodes verifies");
    dump::parenthesised(&raw, Notation::San, 100).expect("a book that decodes dumps");
    dump::parenthesised(&raw, Notation::Uci, 100).expect("a book that decodes dumps");
    let bytes = round_trip(&tree);
    let links = (1..=tree.len() as u32).any(|id| tree.node(id).link.is_some());
    if !links {
        let text = dump::pgn(&tree, 79);
        let mut rebuilt = Tree::new();
        read_pgn(text.as_bytes(), &mut rebuilt).unwrap_or_else(|e| panic!("the PGN dump does not read: {e}\n{text}"));
        assert!(rebuilt.same_as(&tree), "the PGN dump rebuilds another tree:\n{text}");
        assert_eq!(encode(&rebuilt).unwrap().0, bytes, "the PGN dump rebuilds other bytes");
    }
    if raw.len() <= PROBE_NODES {
        probe_sound(data);
    }
}

/// Writes `tree`, reads the bytes back: the same tree, and writing again
/// gives the same bytes. Returns the bytes.
fn round_trip(tree: &Tree) -> Vec<u8> {
    let (bytes, sizes) = encode(tree).unwrap_or_else(|e| panic!("a tree read from a book does not write: {e}"));
    assert_eq!(sizes.bytes, bytes.len() as u64, "sizes.bytes is not the length");
    let (_, again) = decode(&bytes).unwrap_or_else(|e| panic!("written bytes do not read: {e}"));
    assert!(again.same_as(tree), "written bytes read as another tree");
    assert_eq!(encode(&again).unwrap().0, bytes, "writing is not a fixed point");
    bytes
}

/// What `book build` reads: the input as PGN and as plain lines.
pub fn book_build(data: &[u8]) {
    pgn(data);
    book_text(data);
}

/// PGN into a book: what reads writes and reads back the same.
fn pgn(data: &[u8]) {
    if data.len() > 8192 {
        return;
    }
    let mut tree = Tree::new();
    if read_pgn(data, &mut tree).is_err() {
        return;
    }
    let bytes = round_trip(&tree);
    let text = dump::pgn(&tree, 79);
    let mut rebuilt = Tree::new();
    read_pgn(text.as_bytes(), &mut rebuilt).unwrap_or_else(|e| panic!("the PGN dump does not read: {e}\n{text}"));
    assert!(rebuilt.same_as(&tree), "the PGN dump rebuilds another tree:\n{text}");
    if bytes.len() <= 2048 {
        probe_sound(&bytes);
    }
}

/// Plain-text lines into a book, then as PGN.
fn book_text(data: &[u8]) {
    let Some(s) = text(data, 8192) else { return };
    let mut tree = Tree::new();
    let Ok(count) = chesstool::book::text::read_lines(s, &mut tree) else { return };
    assert!(count <= s.lines().count(), "{count} lines read from fewer");
    let bytes = round_trip(&tree);
    if bytes.len() <= 2048 {
        probe_sound(&bytes);
    }
}

/// Polyglot `.bin`: entries that read import into a book that writes and
/// reads back; its export reads back as the same entries' moves.
pub fn polyglot(data: &[u8]) {
    if data.len() > 16 * 256 {
        return;
    }
    let Ok(entries) = polyglot::read_entries(data) else { return };
    assert_eq!(entries.len() * 16, data.len(), "entries of a file that is not 16-byte records");
    for e in &entries {
        let back = e.to_bytes();
        assert!(data.chunks(16).any(|c| c == back), "entry {e:?} does not write back to its record");
    }
    for max_ply in [Some(3), None] {
        let (tree, summary) = polyglot::import(&entries, ImportOptions { max_ply, min_weight: 0 });
        assert!(summary.entries <= entries.len() as u64, "more moves imported than entries");
        round_trip(&tree);
        let exported = polyglot::export(&tree);
        let sorted = exported.windows(2).all(|w| w[0].key <= w[1].key);
        assert!(sorted, "export is not sorted by key");
        let bytes: Vec<u8> = exported.iter().flat_map(|e| e.to_bytes()).collect();
        let read = polyglot::read_entries(&bytes).expect("an export reads back");
        assert_eq!(read.len(), exported.len());
        let (again, _) = polyglot::import(&read, ImportOptions { max_ply, min_weight: 0 });
        assert!(again.len() <= tree.len(), "re-importing the export grew the book");
    }
}

/// Every position of the book (after every move that is not a pointer, and
/// the start): `probe --fen` finds exactly the places an unpruned walk of
/// the whole tree finds, with exactly the book moves of all of them.
pub fn probe_sound(bytes: &[u8]) {
    let Ok((_, tree)) = decode(bytes) else { return };
    let book = Book::from_bytes(bytes).expect("a book that decodes loads for probing");
    // Every place: (raw id or ROOT, position after it), by an unpruned walk.
    let mut places: Vec<(u32, Position)> = vec![(chesstool::book::format::ROOT, Position::startpos())];
    tree.for_each(|id, before| {
        if tree.node(id).link.is_none() {
            places.push((id - 1, before.play(tree.node(id).mv)));
        }
    });
    let mut done: Vec<Position> = Vec::new();
    for (_, target) in &places {
        if done.iter().any(|p| same_position(p, target)) {
            continue;
        }
        done.push(*target);
        let expected: Vec<u32> = places.iter().filter(|(_, p)| same_position(p, target)).map(|&(id, _)| id).collect();
        let found = book.probe(target, None).unwrap_or_else(|e| panic!("probe of {} fails: {e:?}", target.to_fen()));
        // `--fen` reads a FEN: ours, and the one python-chess writes (no
        // e.p. square unless the capture is legal) find the same.
        for fen in fens(target) {
            let by_fen = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let again = book.probe(&by_fen, None).unwrap_or_else(|e| panic!("probe of {fen} fails: {e:?}"));
            assert_eq!(again, found, "probe of {fen} differs from the probe of the position");
        }
        let mut want = expected.clone();
        want.sort_unstable();
        let mut got = found.places.clone();
        got.sort_unstable();
        assert_eq!(got, want, "probe of {} finds other places than the whole walk", target.to_fen());
        assert_eq!(found.moves, book_moves(&tree, &found.places), "probe of {}: other moves", target.to_fen());
        // With the line of its first place, the same moves (maybe reordered).
        let first = expected.iter().copied().find(|&id| id != chesstool::book::format::ROOT);
        if let Some(id) = first {
            let line = tree.line_to(id + 1);
            let by_line = book.probe(target, Some(&line)).expect("probe with a line");
            let mut a = by_line.moves.clone();
            let mut b = found.moves.clone();
            a.sort_by_key(|m| m.mv.raw());
            b.sort_by_key(|m| m.mv.raw());
            assert_eq!(a, b, "probe of {} with its line: other moves", target.to_fen());
        }
    }
}

/// The book moves of these places, in order, each once: "do not play" if
/// any place says so, the union of the style tags.
fn book_moves(tree: &Tree, places: &[u32]) -> Vec<BookMove> {
    let mut moves: Vec<BookMove> = Vec::new();
    for &place in places {
        let tree_id = if place == chesstool::book::format::ROOT { Tree::ROOT } else { place + 1 };
        for &child in tree.children(tree_id) {
            let node = tree.node(child);
            match moves.iter_mut().find(|b| b.mv == node.mv) {
                Some(known) => {
                    known.play &= node.play;
                    known.style = Style(known.style.0 | node.style.0);
                }
                None => moves.push(BookMove { mv: node.mv, play: node.play, style: node.style }),
            }
        }
    }
    moves
}

/// The FEN of `pos` as we write it and, when it names an e.p. square that
/// no legal capture uses, without it.
fn fens(pos: &Position) -> Vec<String> {
    let fen = pos.to_fen();
    let mut out = vec![fen.clone()];
    if pos.ep_square().is_some() && !pos.legal_moves().iter().any(|m| m.is_en_passant()) {
        let mut fields: Vec<&str> = fen.split(' ').collect();
        fields[3] = "-";
        out.push(fields.join(" "));
    }
    out
}
