//! Divide output: read live, line by line, as the script and UCI drivers
//! do, and whole, as a pasted divide is.

use super::text;
use chesstool::chess::Chess;
use chesstool::engines::output::{is_move_token, is_total_line, move_line, parse_output, MAX_MOVE_LINES};
use chesstool::engines::{parse_divide, Divide, DivideFormat};
use chesstool::rules::Rules;
use chesstool::verify::diff::diff_divides;
use chesstool::verify::paste::paste_notes;
use chesstool::Position;
use std::collections::HashSet;

/// `Auto` and every concrete format.
fn formats() -> impl Iterator<Item = DivideFormat> {
    std::iter::once(DivideFormat::Auto).chain(DivideFormat::CONCRETE)
}

/// A divide that parses has no duplicate moves, at most `MAX_MOVE_LINES`,
/// and every move is one the live reader showed on some line.
fn sound(divide: &Divide, text: &str, format: DivideFormat) {
    let mut seen = HashSet::new();
    for (mv, _) in &divide.moves {
        assert!(seen.insert(mv.as_str()), "{format}: move {mv:?} listed twice in a parsed divide");
        assert!(is_move_token(mv), "{format}: {mv:?} is no move token");
    }
    assert!(divide.moves.len() <= MAX_MOVE_LINES, "{format}: {} moves", divide.moves.len());
    let live: Vec<(&str, u64)> = text.lines().filter_map(|l| move_line(l, format)).collect();
    for (mv, n) in &divide.moves {
        assert!(live.contains(&(mv.as_str(), *n)), "{format}: {mv:?} {n} parsed but never shown live");
    }
    let _ = divide.nodes();
}

/// Divide output as the drivers read it live and as a paste.
pub fn divide(data: &[u8]) {
    live(data);
    paste(data);
}

/// Live reading: each line's move and total are what the whole-text parser
/// finds; a move line is never a total line in the same concrete format.
fn live(data: &[u8]) {
    let Some(s) = text(data, 16 << 10) else { return };
    for line in s.lines() {
        for format in formats() {
            let mv = move_line(line, format);
            if let Some((m, _)) = mv {
                assert!(is_move_token(m), "{format}: live move {m:?} is no move token");
                assert!(line.contains(m), "{format}: live move {m:?} is not in its line");
                if format != DivideFormat::Auto {
                    assert!(!is_total_line(line, format), "{format}: {line:?} is a move line and a total line");
                }
            }
        }
    }
    for format in formats() {
        if let Ok(divide) = parse_divide(s, format) {
            sound(&divide, s, format);
        }
    }
}

/// Pasted divides: what `Auto` reads, the format it names reads the same;
/// the comparison with our divide of the start position (depth 1 and 2)
/// accounts for every move, and the notes on it do not fail.
fn paste(data: &[u8]) {
    let Some(s) = text(data, 16 << 10) else { return };
    let Ok(parsed) = parse_output(s, DivideFormat::Auto) else { return };
    sound(&parsed.divide, s, parsed.format);
    let again = parse_output(s, parsed.format)
        .unwrap_or_else(|e| panic!("auto read it as {}, which fails: {e}", parsed.format));
    assert_eq!(again.divide, parsed.divide, "auto and {} read different divides", parsed.format);
    let chess = Chess::new();
    let pos = Position::startpos();
    for depth in 1..=2 {
        let ours = chess.divide(&pos, depth);
        let reference =
            Divide { moves: ours.iter().map(|&(m, n)| (chess.move_text(&pos, m), n)).collect(), ..Divide::default() };
        let Ok(diff) = diff_divides(&chess, &pos, &parsed.divide, &reference) else { continue };
        if !diff.engine_total_only {
            let found = parsed.divide.moves.len() - diff.extra.len();
            assert_eq!(found + diff.missing.len(), ours.len(), "depth {depth}: moves not accounted for");
        }
        if diff.is_match() {
            assert_eq!(parsed.divide.nodes(), reference.nodes(), "depth {depth}: a match with another total");
        }
        // The notes try our perft at other depths while it stays cheap next
        // to the pasted total; keep that small here.
        if parsed.divide.nodes() < 1_000_000 {
            let _ = paste_notes(&chess, &pos, depth, &parsed.divide, &diff);
        }
    }
}
