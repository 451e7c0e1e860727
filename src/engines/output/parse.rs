//! Reading a whole output in one concrete layout.
//!
//! An engine may print several blocks, one per iteration (Sjaak II's
//! `perft 3` prints the depth-table lines of depths 1, 2 and 3; `perft 2 1`
//! a divide and a depth line per depth). Each block ends at a total that
//! names its depth. With the asked depth known, the block of that depth is
//! the answer and the others are skipped; without it, the last block is.

use super::lines::{classify, count, looks_like_data, prose_kind, LineKind, Skip, MAX_PROSE};
use super::{clip, Divide, DivideFormat, ParseOutputError, ParsedOutput, Skipped, MAX_MOVE_LINES};
use std::collections::HashMap;

/// The block being read: its moves, total, and running sum.
#[derive(Default)]
struct Block<'a> {
    divide: Divide,
    // Each move's first line, to name it when the move comes again.
    first_line: HashMap<&'a str, usize>,
    // The sum of the counts so far, to check a printed running sum.
    running: u128,
    // The depth named by the total that closed it, if any.
    depth: Option<u32>,
    // The line of its first move.
    start: usize,
}

impl Block<'_> {
    /// Its move and total lines, counted as skipped when it is dropped.
    fn lines(&self) -> usize {
        self.divide.moves.len() + self.divide.repeated.len() + usize::from(self.divide.total.is_some())
    }
}

pub(super) fn parse_as(text: &str, format: DivideFormat, asked: Option<u32>) -> Result<ParsedOutput, ParseOutputError> {
    let mut block = Block::default();
    // The block of the asked depth, once read.
    let mut answer: Option<Divide> = None;
    let mut other_depths: Vec<u32> = Vec::new();
    let mut skipped = Skipped::default();
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => {
            skipped.bom = true;
            rest
        }
        None => text,
    };
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        let kind = match classify(raw, format) {
            // A line that does not start like divide data is skipped, by
            // kind: debug lines and boards anywhere, other prose before the
            // first move (a banner), after the total (a trailer) or in
            // between. A bare number between moves is not prose: which
            // move it counts is unknown, so it stays an error.
            LineKind::Unknown
                if !looks_like_data(trimmed) && count(trimmed).is_none() && trimmed.len() <= MAX_PROSE =>
            {
                let total = block.divide.total.is_some() || answer.is_some();
                LineKind::Skip(match prose_kind(trimmed) {
                    Some(k) => k,
                    None if block.first_line.is_empty() && !total => Skip::Banner,
                    None if total => Skip::Timing,
                    None => Skip::Prose,
                })
            }
            kind => kind,
        };
        match kind {
            LineKind::Skip(k) => skipped.add(k),
            LineKind::Total(n, depth) => {
                match (asked, depth) {
                    // Another depth's block (an iteration before or after
                    // the asked one): skipped whole.
                    (Some(a), Some(d)) if d != a => {
                        if block.divide.total.is_some() {
                            return Err(ParseOutputError::SecondTotal { line, text: clip(trimmed) });
                        }
                        skipped.other_depth += block.lines() + 1;
                        other_depths.push(d);
                        block = Block::default();
                        continue;
                    }
                    // Without the depth: a deeper iteration's total alone
                    // replaces the last one (`perft 3`: depths 1, 2, 3).
                    (None, Some(d)) if block.divide.total.is_some() && block.depth.is_some_and(|b| b < d) => {
                        skipped.other_depth += block.lines();
                        block = Block::default();
                    }
                    _ => {}
                }
                if block.divide.total.is_some() || (answer.is_some() && block.divide.moves.is_empty()) {
                    return Err(ParseOutputError::SecondTotal { line, text: clip(trimmed) });
                }
                block.divide.total = Some(n);
                block.depth = depth;
                if asked.is_some() && depth == asked {
                    if answer.is_some() {
                        return Err(ParseOutputError::SecondTotal { line, text: clip(trimmed) });
                    }
                    answer = Some(std::mem::take(&mut block).divide);
                }
            }
            LineKind::Move(mv, n, sum) => {
                if block.divide.total.is_some() {
                    // Without the depth, a block closed by a total that
                    // names its depth may be followed by the next iteration.
                    if asked.is_some() || block.depth.is_none() {
                        return Err(ParseOutputError::AfterTotal { line, text: clip(trimmed) });
                    }
                    skipped.other_depth += block.lines();
                    block = Block::default();
                }
                if block.divide.moves.is_empty() {
                    block.start = line;
                }
                if block.divide.moves.len() + block.divide.repeated.len() == MAX_MOVE_LINES {
                    return Err(ParseOutputError::TooManyMoves { line });
                }
                block.running += u128::from(n);
                if let Some(printed) = sum.filter(|&s| s != block.running) {
                    return Err(ParseOutputError::RunningSum {
                        line,
                        text: clip(trimmed),
                        printed,
                        sum: block.running,
                    });
                }
                if block.first_line.contains_key(mv) {
                    // Printed again: a fact about the engine, for the
                    // comparison to report (a witness), not a refusal.
                    block.divide.repeated.push((mv.to_string(), n));
                    continue;
                }
                block.divide.moves.push((mv.to_string(), n));
                block.first_line.insert(mv, line);
            }
            LineKind::Unknown => {
                return Err(ParseOutputError::UnknownLine { line, text: clip(trimmed), format, hint: None })
            }
        }
    }
    if let Some(divide) = answer {
        // Moves after the answer that no other depth's total closed.
        if let Some((mv, _)) = block.divide.moves.first() {
            return Err(ParseOutputError::AfterTotal { line: block.start, text: clip(mv) });
        }
        return Ok(ParsedOutput { divide, skipped, format });
    }
    if let (Some(depth), false) = (asked, other_depths.is_empty()) {
        if block.divide.total.is_none() {
            other_depths.dedup();
            return Err(ParseOutputError::NoDepth { depth, seen: other_depths });
        }
    }
    let divide = block.divide;
    if divide.moves.is_empty() && divide.total.is_none() {
        return Err(ParseOutputError::Empty { skipped: skipped.lines() });
    }
    Ok(ParsedOutput { divide, skipped, format })
}
