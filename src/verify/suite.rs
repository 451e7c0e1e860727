//! Perft suites: EPD lines (`FEN ;D1 20 ;D2 400`) and python-chess's `.perft`
//! blocks (`id`, `epd`, `perft D N` lines), read into one shape.

use crate::position::{FenError, Position};

/// One position of a suite with its expected counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteEntry {
    /// `file:line` where the position starts.
    pub origin: String,
    pub id: Option<String>,
    pub fen: String,
    /// (depth, expected nodes), in the order given.
    pub counts: Vec<(u32, u64)>,
}

#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    #[error("{file}:{line}: {message}")]
    Syntax { file: String, line: usize, message: String },
    // Not named `source`: thiserror would make it the error's source and
    // print its text twice in an error chain.
    #[error("{file}:{line}: {error}")]
    Fen { file: String, line: usize, error: FenError },
}

/// Reads a suite; the format is recognised per line (`id`/`epd`/`perft`
/// keywords start a python-chess block, anything else is an EPD line).
pub fn parse_suite(file: &str, text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut entries: Vec<SuiteEntry> = Vec::new();
    let mut block: Option<SuiteEntry> = None;
    let syntax = |line: usize, message: String| SuiteError::Syntax { file: file.to_string(), line, message };
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            if line.is_empty() {
                if let Some(b) = block.take() {
                    entries.push(finish_block(file, b)?);
                }
            }
            continue;
        }
        let (keyword, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match keyword {
            "id" => {
                if let Some(b) = block.take() {
                    entries.push(finish_block(file, b)?);
                }
                block = Some(SuiteEntry {
                    origin: format!("{file}:{line_no}"),
                    id: Some(rest.to_string()),
                    fen: String::new(),
                    counts: Vec::new(),
                });
            }
            "epd" => {
                let b = block.get_or_insert_with(|| SuiteEntry {
                    origin: format!("{file}:{line_no}"),
                    id: None,
                    fen: String::new(),
                    counts: Vec::new(),
                });
                if !b.fen.is_empty() {
                    return Err(syntax(
                        line_no,
                        "second `epd` line in one block (separate blocks with a blank line)".into(),
                    ));
                }
                check_fen(file, line_no, rest)?;
                b.fen = rest.to_string();
            }
            "perft" => {
                let b = block.as_mut().ok_or_else(|| syntax(line_no, "`perft` line before any `epd` line".into()))?;
                let mut parts = rest.split_whitespace();
                let (depth, nodes) = (parts.next(), parts.next());
                let depth = depth
                    .and_then(|d| d.parse().ok())
                    .ok_or_else(|| syntax(line_no, format!("bad perft line {line:?}, expected `perft DEPTH NODES`")))?;
                let nodes = nodes
                    .and_then(|n| n.parse().ok())
                    .ok_or_else(|| syntax(line_no, format!("bad perft line {line:?}, expected `perft DEPTH NODES`")))?;
                if parts.next().is_some() {
                    return Err(syntax(line_no, format!("bad perft line {line:?}, expected `perft DEPTH NODES`")));
                }
                b.counts.push((depth, nodes));
            }
            _ => entries.push(parse_epd_line(file, line_no, line)?),
        }
    }
    if let Some(b) = block.take() {
        entries.push(finish_block(file, b)?);
    }
    Ok(entries)
}

fn finish_block(file: &str, b: SuiteEntry) -> Result<SuiteEntry, SuiteError> {
    if b.fen.is_empty() {
        let line = b.origin.rsplit(':').next().and_then(|l| l.parse().ok()).unwrap_or(0);
        return Err(SuiteError::Syntax { file: file.to_string(), line, message: "block has no `epd` line".into() });
    }
    Ok(b)
}

fn check_fen(file: &str, line: usize, fen: &str) -> Result<(), SuiteError> {
    Position::from_fen(fen).map(|_| ()).map_err(|error| SuiteError::Fen { file: file.to_string(), line, error })
}

/// `FEN ;D1 20 ;D2 400 ...`; other EPD operations (`;id "x"`) are allowed.
fn parse_epd_line(file: &str, line_no: usize, line: &str) -> Result<SuiteEntry, SuiteError> {
    let syntax = |message: String| SuiteError::Syntax { file: file.to_string(), line: line_no, message };
    let mut parts = line.split(';');
    let fen = parts.next().unwrap_or("").trim().to_string();
    check_fen(file, line_no, &fen)?;
    let mut entry = SuiteEntry { origin: format!("{file}:{line_no}"), id: None, fen, counts: Vec::new() };
    for op in parts {
        let op = op.trim();
        if op.is_empty() {
            continue;
        }
        let (name, value) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
        let value = value.trim();
        if let Some(depth) = name.strip_prefix('D').and_then(|d| d.parse::<u32>().ok()) {
            let nodes = value.parse().map_err(|_| syntax(format!("bad node count {value:?} for {name}")))?;
            entry.counts.push((depth, nodes));
        } else if name == "id" {
            entry.id = Some(value.trim_matches('"').to_string());
        } else {
            return Err(syntax(format!("unknown EPD operation {op:?}, expected `;D<depth> <nodes>`")));
        }
    }
    if entry.counts.is_empty() {
        return Err(syntax("no `;D<depth> <nodes>` counts on this line".into()));
    }
    Ok(entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_epd_and_perft_blocks() {
        let text = "# comment\nstartpos ;D1 20 ;D2 400\n\nid x\nepd 8/8/8/8/8/8/8/K6k w - -\nperft 1 3\nperft 2 9\n";
        let entries = parse_suite("t", text).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].counts, vec![(1, 20), (2, 400)]);
        assert_eq!(entries[1].id.as_deref(), Some("x"));
        assert_eq!(entries[1].counts, vec![(1, 3), (2, 9)]);
        assert_eq!(entries[1].origin, "t:4");
    }

    #[test]
    fn errors_name_the_line() {
        let err = parse_suite("s.epd", "startpos ;D1 20\nstartpos ;D1 x\n").unwrap_err();
        assert!(err.to_string().starts_with("s.epd:2:"), "{err}");
        let err = parse_suite("s.epd", "rnbqkbnr/pppppppp/8/8 w - - ;D1 1\n").unwrap_err();
        assert!(err.to_string().contains("s.epd:1:") && err.to_string().contains("ranks"), "{err}");
        let err = parse_suite("p.perft", "perft 1 20\n").unwrap_err();
        assert!(err.to_string().starts_with("p.perft:1:"), "{err}");
    }
}
