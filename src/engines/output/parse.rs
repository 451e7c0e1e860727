//! Reading a whole output in one concrete layout.

use super::lines::{classify, count, looks_like_data, prose_kind, LineKind, Skip, MAX_PROSE};
use super::{clip, Divide, DivideFormat, ParseOutputError, ParsedOutput, Skipped, MAX_MOVE_LINES};
use std::collections::HashMap;

pub(super) fn parse_as(text: &str, format: DivideFormat) -> Result<ParsedOutput, ParseOutputError> {
    let mut divide = Divide::default();
    let mut skipped = Skipped::default();
    // Each move's first line, to name it when the move comes again.
    let mut first_line: HashMap<&str, usize> = HashMap::new();
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
                LineKind::Skip(match prose_kind(trimmed) {
                    Some(k) => k,
                    None if first_line.is_empty() && divide.total.is_none() => Skip::Banner,
                    None if divide.total.is_some() => Skip::Timing,
                    None => Skip::Prose,
                })
            }
            kind => kind,
        };
        match kind {
            LineKind::Skip(k) => skipped.add(k),
            LineKind::Total(n) => {
                if divide.total.is_some() {
                    return Err(ParseOutputError::SecondTotal { line, text: clip(trimmed) });
                }
                divide.total = Some(n);
            }
            LineKind::Move(mv, n) => {
                if divide.total.is_some() {
                    return Err(ParseOutputError::AfterTotal { line, text: clip(trimmed) });
                }
                if divide.moves.len() + divide.repeated.len() == MAX_MOVE_LINES {
                    return Err(ParseOutputError::TooManyMoves { line });
                }
                if first_line.contains_key(mv) {
                    // Printed again: a fact about the engine, for the
                    // comparison to report (a witness), not a refusal.
                    divide.repeated.push((mv.to_string(), n));
                    continue;
                }
                divide.moves.push((mv.to_string(), n));
                first_line.insert(mv, line);
            }
            LineKind::Unknown => {
                return Err(ParseOutputError::UnknownLine { line, text: clip(trimmed), format, hint: None })
            }
        }
    }
    if divide.moves.is_empty() && divide.total.is_none() {
        return Err(ParseOutputError::Empty { skipped: skipped.lines() });
    }
    Ok(ParsedOutput { divide, skipped, format })
}
