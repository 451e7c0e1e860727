//! TicTacChess position strings and moves.

use super::text;
use chesstool::tictacchess::Position;

/// A table file (bytes starting with the table's magic) or a position
/// string with moves.
pub fn tictacchess(data: &[u8]) {
    if data.starts_with(b"chesstool-ttc") {
        ttc_table(data);
    } else {
        position(data);
    }
}

/// A position string that reads writes back the same; each legal move's
/// text reads back to it; moves after the position (one a line) either
/// play or are refused.
fn position(data: &[u8]) {
    let Some(s) = text(data, 1024) else { return };
    let mut lines = s.lines();
    let Some(first) = lines.next() else { return };
    let Ok(pos) = Position::parse(first) else { return };
    let written = pos.to_string();
    let again = Position::parse(&written).unwrap_or_else(|e| panic!("{first:?} wrote {written:?}: {e}"));
    assert_eq!(again.to_string(), written, "{written:?} is not a fixed point");
    for &m in pos.legal_moves().iter() {
        let t = m.to_string();
        assert_eq!(pos.parse_move(&t).ok(), Some(m), "{written}: {t:?} does not read back");
        assert!(pos.illegal_reason(m).is_none(), "{written}: legal {t} has a reason to be illegal");
        let after = pos.play(m);
        let w = after.to_string();
        assert_eq!(Position::parse(&w).map(|p| p.to_string()).ok(), Some(w.clone()), "after {t}: {w:?}");
    }
    let texts: Vec<&str> = lines.take(32).collect();
    let _ = pos.play_texts(texts.iter().copied());
    for t in texts {
        let _ = pos.read_move_text(t);
    }
}

/// A table file's header: any bytes open as a table or are refused with an
/// error (a foreign file, a wrong size), never a panic. The bytes go to a
/// scratch file of this process.
fn ttc_table(data: &[u8]) {
    if data.len() > 4096 {
        return;
    }
    let path = std::env::temp_dir().join(format!("chesstool-fuzz-table-{}", std::process::id()));
    std::fs::write(&path, data).expect("the scratch file writes");
    let opened = chesstool::tictacchess::solve::file::TableFile::open(&path);
    assert!(
        opened.is_err(),
        "{} bytes open as a table of {} states",
        data.len(),
        chesstool::tictacchess::solve::index::STATES
    );
    let _ = std::fs::remove_file(&path);
}
