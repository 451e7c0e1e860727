//! TicTacChess position strings and moves.

use super::text;
use chesstool::tictacchess::Position;

/// A position string that reads writes back the same; each legal move's
/// text reads back to it; moves after the position (one a line) either
/// play or are refused.
pub fn tictacchess(data: &[u8]) {
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
