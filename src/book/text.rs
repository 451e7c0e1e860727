//! Plain-text books: one line of moves per line, from the start position,
//! each move in SAN or UCI (`e4 e5 Nf3` or `e2e4 e7e5 g1f3`; move numbers
//! such as `1.` are skipped). A `?` or `??` after a move marks it "recognise
//! but do not play". Blank lines and lines starting with `#` are skipped.

use super::pgn::{move_number, read_move};
use super::tree::Tree;

/// A move of a text book line that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, move {number} {text:?}: {message}")]
pub struct TextError {
    /// The 1-based line number.
    pub line: usize,
    /// The move number (`12.` or `12...`).
    pub number: String,
    /// The move as written.
    pub text: String,
    /// Why it cannot be read.
    pub message: String,
}

/// Reads every line of `input` into `tree`; returns the number of lines.
pub fn read_lines(input: &str, tree: &mut Tree) -> Result<usize, TextError> {
    let mut count = 0;
    for (i, raw) in input.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        count += 1;
        let mut pos = *tree.root_position();
        let mut at = Tree::ROOT;
        for token in line.split_ascii_whitespace() {
            let token = match token.find(|c: char| !c.is_ascii_digit()) {
                Some(d) if d > 0 && token[d..].starts_with('.') => token[d..].trim_start_matches('.'),
                None => "",
                _ => token,
            };
            if token.is_empty() {
                continue;
            }
            let (mv, avoid) = read_move(&pos, token).map_err(|message| TextError {
                line: i + 1,
                number: move_number(&pos),
                text: token.to_string(),
                message,
            })?;
            at = tree.add_move(at, mv, !avoid);
            pos = pos.play(mv);
        }
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn san_uci_and_numbers_mix() {
        let mut tree = Tree::new();
        let n = read_lines("# repertoire\n1. e4 e5 2. Nf3\n\ne2e4 c7c5 g1f3?\n1.d4 d5\n", &mut tree).unwrap();
        assert_eq!(n, 3);
        assert_eq!(tree.len(), 7);
        let err = read_lines("e4 e5\nd4 d5 Bxh7\n", &mut Tree::new()).unwrap_err();
        assert_eq!(err.to_string(), "line 2, move 2. \"Bxh7\": \"Bxh7\" is not legal here");
    }
}
