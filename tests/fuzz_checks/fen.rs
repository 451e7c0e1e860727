//! FEN, X-FEN and Shredder-FEN, and SAN/UCI move reading.

use super::text;
use chesstool::chess::notation::read_move;
use chesstool::Position;

/// A FEN that parses writes back to a FEN that parses to the same
/// position, and writing is a fixed point; every legal move's SAN and UCI
/// read back to that move.
pub fn fen(data: &[u8]) {
    let Some(s) = text(data, 512) else { return };
    let Ok(pos) = Position::from_fen(s) else { return };
    let written = pos.to_fen();
    let again = Position::from_fen(&written).unwrap_or_else(|e| panic!("{s:?} wrote {written:?}, which fails: {e}"));
    assert_eq!(again, pos, "{s:?} -> {written:?} reads as another position");
    assert_eq!(again.to_fen(), written, "writing {written:?} is not a fixed point");
    assert_eq!(pos.key(), pos.compute_key(), "the incremental key of {written:?} is not the computed one");
    moves_read_back(&pos);
}

/// Every legal move of `pos`, written in SAN and in UCI, reads back as that
/// move; the position after it writes a FEN that reads back to it.
fn moves_read_back(pos: &Position) {
    let fen = pos.to_fen();
    for &m in pos.legal_moves().iter() {
        let san = pos.san(m);
        let uci = m.to_uci(pos.is_chess960());
        assert_eq!(read_move(pos, &san).ok(), Some(m), "{fen}: SAN {san:?} does not read back");
        assert_eq!(read_move(pos, &uci).ok(), Some(m), "{fen}: UCI {uci:?} does not read back (read_move)");
        assert_eq!(pos.parse_uci(&uci).ok(), Some(m), "{fen}: UCI {uci:?} does not read back (parse_uci)");
        let after = pos.play(m);
        assert_eq!(after.key(), after.compute_key(), "{fen} after {uci}: incremental key differs");
        let written = after.to_fen();
        let again =
            Position::from_fen(&written).unwrap_or_else(|e| panic!("{fen} after {uci}: {written:?} fails: {e}"));
        assert_eq!(again.to_fen(), written, "{fen} after {uci}: {written:?} is not a fixed point");
    }
}

/// A FEN line, then move texts (one a line) read with the engine-output
/// reader: a move that reads is legal, and its UCI and SAN read back to it.
pub fn san_uci(data: &[u8]) {
    let Some(s) = text(data, 1024) else { return };
    let mut lines = s.lines();
    let Some(first) = lines.next() else { return };
    let pos = if first.trim().is_empty() {
        Position::startpos()
    } else {
        match Position::from_fen(first) {
            Ok(p) => p,
            Err(_) => return,
        }
    };
    let legal = pos.legal_moves();
    for line in lines.take(64) {
        if let Ok(m) = read_move(&pos, line) {
            assert!(legal.contains(m), "{line:?} read as {m:?}, not a legal move");
            let san = pos.san(m);
            assert_eq!(read_move(&pos, &san).ok(), Some(m), "{line:?}: SAN {san:?} does not read back");
            let uci = m.to_uci(pos.is_chess960());
            assert_eq!(pos.parse_uci(&uci).ok(), Some(m), "{line:?}: UCI {uci:?} does not read back");
        }
        if let Ok(m) = pos.parse_uci(line) {
            assert!(legal.contains(m), "UCI {line:?} read as {m:?}, not a legal move");
        }
        let _ = chesstool::chess::notation::uci_form(line);
    }
}
