//! Polyglot `.bin` books: 16-byte big-endian entries (key u64, move u16,
//! weight u16, learn u32) sorted by key, the key being the XOR of the
//! format's published Random64 numbers. Import follows the entries from the
//! start position into a tree whose repeated positions become transposition
//! pointers; export writes one entry per book move of every position.

use super::polyglot_random::RANDOM64;
use super::tree::{Node, NodeId, Style, Tree};
use crate::board::{Bitboard, Color, Rank, Role, Square};
use crate::position::is_kingside;
use crate::{Move, Position};
use std::collections::{HashMap, VecDeque};

/// The Polyglot key of a position.
pub fn key(pos: &Position) -> u64 {
    let mut key = 0;
    for sq in pos.occupied() {
        let piece = pos.piece_at(sq).expect("occupied square has a piece");
        let kind = 2 * piece.role as usize + usize::from(piece.color.is_white());
        key ^= RANDOM64[64 * kind + sq.index()];
    }
    for rook in pos.castling_rooks() {
        let color = if rook.rank() == Rank::First { Color::White } else { Color::Black };
        let long = !is_kingside(pos.king(color), rook);
        key ^= RANDOM64[768 + 2 * usize::from(!color.is_white()) + usize::from(long)];
    }
    if let Some(ep) = pos.ep_square() {
        // Only when a pawn of the side to move stands next to the pushed pawn.
        let pushed = if pos.turn().is_white() { ep.offset(-8) } else { ep.offset(8) };
        if let Some(pushed) = pushed {
            let mut beside = Bitboard::EMPTY;
            if pushed.file() as u8 > 0 {
                beside |= Square::new(pushed as u8 - 1);
            }
            if (pushed.file() as u8) < 7 {
                beside |= Square::new(pushed as u8 + 1);
            }
            if (beside & pos.pieces(pos.turn(), Role::Pawn)).any() {
                key ^= RANDOM64[772 + ep.file() as usize];
            }
        }
    }
    if pos.turn().is_white() {
        key ^= RANDOM64[780];
    }
    key
}

/// One 16-byte entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The Polyglot hash key of the position.
    pub key: u64,
    /// The move as Polyglot packs it: to, from and promotion bits.
    pub raw_move: u16,
    /// The move's weight (0: never play).
    pub weight: u16,
    /// The learning field (kept as read; chesstool writes 0).
    pub learn: u32,
}

impl Entry {
    /// The entry as 16 big-endian bytes, as a `.bin` file holds it.
    pub fn to_bytes(self) -> [u8; 16] {
        let mut b = [0u8; 16];
        b[0..8].copy_from_slice(&self.key.to_be_bytes());
        b[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        b[10..12].copy_from_slice(&self.weight.to_be_bytes());
        b[12..16].copy_from_slice(&self.learn.to_be_bytes());
        b
    }
}

/// Why bytes are not a Polyglot book.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolyglotError {
    /// The size (given) is not a multiple of 16 bytes.
    #[error("{0} bytes is not a multiple of 16: a Polyglot book is a list of 16-byte entries (truncated file?)")]
    Length(usize),
}

/// Reads the entries of a `.bin` file, sorted by key (stably: the file's
/// order among the entries of one position is kept).
pub fn read_entries(bytes: &[u8]) -> Result<Vec<Entry>, PolyglotError> {
    if !bytes.len().is_multiple_of(16) {
        return Err(PolyglotError::Length(bytes.len()));
    }
    let mut entries: Vec<Entry> = bytes
        .chunks_exact(16)
        .map(|c| Entry {
            key: u64::from_be_bytes(c[0..8].try_into().expect("8 bytes")),
            raw_move: u16::from_be_bytes([c[8], c[9]]),
            weight: u16::from_be_bytes([c[10], c[11]]),
            learn: u32::from_be_bytes(c[12..16].try_into().expect("4 bytes")),
        })
        .collect();
    entries.sort_by_key(|e| e.key);
    Ok(entries)
}

/// The entries of `key` (binary search over the sorted entries).
pub fn entries_of(entries: &[Entry], key: u64) -> &[Entry] {
    let start = entries.partition_point(|e| e.key < key);
    let len = entries[start..].partition_point(|e| e.key == key);
    &entries[start..start + len]
}

/// The legal move a Polyglot move field means here: castling is king takes
/// rook (`e1h1`); the king's two-square form (`e1g1`) is read as castling
/// too. `None` for the null field and for moves that are not legal.
pub fn decode_move(pos: &Position, raw: u16) -> Option<Move> {
    let to = Square::new((raw & 63) as u8);
    let from = Square::new((raw >> 6 & 63) as u8);
    let promotion = match raw >> 12 & 7 {
        0 => None,
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => return None,
    };
    if from == to {
        return None;
    }
    let moves = pos.legal_moves();
    let from_here = || moves.iter().copied().filter(|m| m.from() == from && m.promotion_role() == promotion);
    from_here()
        .find(|m| m.to() == to)
        .or_else(|| from_here().find(|m| m.is_castling() && m.castling_king_target() == to))
}

/// The Polyglot move field of `m` (castling as king takes rook).
pub fn encode_move(m: Move) -> u16 {
    let promotion = match m.promotion_role() {
        None => 0,
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(_) => 4,
    };
    m.to() as u16 | (m.from() as u16) << 6 | promotion << 12
}

/// How much of a Polyglot book `import` takes.
#[derive(Debug, Clone, Copy)]
pub struct ImportOptions {
    /// Positions this many plies from the start (by the shortest way through
    /// the book) get no moves; `None` follows the whole book.
    pub max_ply: Option<u32>,
    /// Entries with a lower weight are left out. With 0, weight-0 entries
    /// ("never play" in Polyglot) become "recognise but do not play".
    pub min_weight: u16,
}

/// What an import found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct ImportSummary {
    /// Positions with at least one move imported.
    pub positions: u64,
    /// Entries used (one per move of those positions).
    pub entries: u64,
    /// Entries of those positions left out: below `min_weight`.
    pub below_weight: u64,
    /// Entries of those positions left out: not a legal move there (a key
    /// collision or a broken entry).
    pub illegal: u64,
    /// Transposition pointers in the tree.
    pub pointers: u64,
}

/// Follows the book from the start position. Every position within
/// `max_ply` (shortest distance) keeps all its moves, in Polyglot's order
/// (weight, highest first, then file order); a position reached again is a
/// transposition pointer to the first place where it was written out.
pub fn import(entries: &[Entry], options: ImportOptions) -> (Tree, ImportSummary) {
    let mut summary = ImportSummary::default();
    let root = Position::startpos();
    // Breadth first: the moves of every position nearer than max_ply.
    let mut moves: HashMap<u64, Vec<(Move, bool)>> = HashMap::new();
    let mut seen: HashMap<u64, u32> = HashMap::from([(key(&root), 0)]);
    let mut queue = VecDeque::from([(root, 0u32)]);
    while let Some((pos, ply)) = queue.pop_front() {
        if options.max_ply.is_some_and(|max| ply >= max) {
            continue;
        }
        let mut list: Vec<(Move, u16)> = Vec::new();
        for e in entries_of(entries, key(&pos)) {
            if e.weight < options.min_weight {
                summary.below_weight += 1;
                continue;
            }
            match decode_move(&pos, e.raw_move) {
                Some(mv) if !list.iter().any(|&(m, _)| m == mv) => list.push((mv, e.weight)),
                Some(_) => {}
                None => summary.illegal += 1,
            }
        }
        list.sort_by_key(|&(_, w)| std::cmp::Reverse(w));
        summary.positions += u64::from(!list.is_empty());
        summary.entries += list.len() as u64;
        for &(mv, _) in &list {
            let next = pos.play(mv);
            seen.entry(key(&next)).or_insert_with(|| {
                queue.push_back((next, ply + 1));
                ply + 1
            });
        }
        moves.insert(key(&pos), list.into_iter().map(|(m, w)| (m, w > 0)).collect());
    }
    // Depth first, in book order: the first place of a position holds its moves.
    let mut tree = Tree::new();
    let mut written: HashMap<u64, NodeId> = HashMap::new();
    let mut stack: Vec<(NodeId, Position)> = Vec::new();
    let add_children = |tree: &mut Tree, parent: NodeId, pos: &Position, stack: &mut Vec<(NodeId, Position)>| {
        let Some(list) = moves.get(&key(pos)) else { return };
        let ids: Vec<(NodeId, Position)> = list
            .iter()
            .map(|&(mv, play)| {
                let node = Node { mv, play, style: Style::default(), children: Vec::new(), link: None };
                (tree.push_child(parent, node), pos.play(mv))
            })
            .collect();
        stack.extend(ids.into_iter().rev());
    };
    add_children(&mut tree, Tree::ROOT, &root, &mut stack);
    while let Some((id, pos)) = stack.pop() {
        let k = key(&pos);
        if moves.get(&k).is_none_or(|l| l.is_empty()) {
            continue;
        }
        match written.get(&k) {
            Some(&first) => {
                tree.node_mut(id).link = Some(first);
                summary.pointers += 1;
            }
            None => {
                written.insert(k, id);
                add_children(&mut tree, id, &pos, &mut stack);
            }
        }
    }
    (tree, summary)
}

/// One entry per book move of every position of the tree (the moves of all
/// places where a position stands, in book order), sorted by key. The
/// weights keep the book order: with n moves the first gets n, the next n-1,
/// ...; a move to recognise but not play gets 0.
pub fn export(tree: &Tree) -> Vec<Entry> {
    let mut by_key: HashMap<u64, Vec<(Move, bool)>> = HashMap::new();
    let mut order: Vec<u64> = Vec::new();
    let mut visit = |pos: &Position, mv: Move, play: bool| {
        let k = key(pos);
        let list = by_key.entry(k).or_insert_with(|| {
            order.push(k);
            Vec::new()
        });
        match list.iter_mut().find(|(m, _)| *m == mv) {
            Some(entry) => entry.1 &= play,
            None => list.push((mv, play)),
        }
    };
    tree.for_each(|id, before| {
        let node = tree.node(id);
        visit(before, node.mv, node.play);
    });
    let mut entries = Vec::new();
    for k in order {
        let list = &by_key[&k];
        let n = list.len();
        for (i, &(mv, play)) in list.iter().enumerate() {
            let weight = if play { (n - i).min(u16::MAX as usize) as u16 } else { 0 };
            entries.push(Entry { key: k, raw_move: encode_move(mv), weight, learn: 0 });
        }
    }
    // Stable: within a key, book order (which is also falling weight).
    entries.sort_by_key(|e| e.key);
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The test vectors published with the format (`book_format.html`).
    #[test]
    fn published_key_vectors() {
        let vectors = [
            ("", 0x463b96181691fc9c),
            ("e2e4", 0x823c9b50fd114196),
            ("e2e4 d7d5", 0x0756b94461c50fb0),
            ("e2e4 d7d5 e4e5", 0x662fafb965db29d4),
            ("e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78),
            ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1),
            ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9),
            ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637),
            ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560),
        ];
        for (moves, expected) in vectors {
            let pos = Position::startpos().play_uci_moves(moves.split_whitespace()).unwrap();
            assert_eq!(key(&pos), expected, "after {moves:?}");
        }
        // The same positions from their published FENs (the FEN e.p. square
        // is kept even where no pawn can take: the key must ignore it then).
        let fens = [
            ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196),
            ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0),
            ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a48b5a8e47ff78),
            ("rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3c8123ea7b067637),
        ];
        for (fen, expected) in fens {
            assert_eq!(key(&Position::from_fen(fen).unwrap()), expected, "{fen}");
        }
    }

    #[test]
    fn moves_both_ways() {
        let kiwipete =
            Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
        for &m in kiwipete.legal_moves().iter() {
            assert_eq!(decode_move(&kiwipete, encode_move(m)), Some(m));
        }
        let castle = kiwipete.parse_uci("e1g1").unwrap();
        assert_eq!(encode_move(castle), (Square::E1 as u16) << 6 | Square::H1 as u16);
        assert_eq!(decode_move(&kiwipete, (Square::E1 as u16) << 6 | Square::G1 as u16), Some(castle));
        assert_eq!(decode_move(&kiwipete, 0), None);
        assert_eq!(read_entries(&[0; 17]), Err(PolyglotError::Length(17)));
    }
}
