//! USI move notation for any board, as Fairy-Stockfish prints it in USI
//! mode: a square is two characters, the file counted from the right
//! (`1` is the rightmost file; `:` `;` `<` after `9` on boards wider than
//! nine files, as Fairy-Stockfish writes them) and the rank a letter from
//! the top (`a` is the top rank). Drops are `P*5e` (the piece letter always
//! uppercase), shogi promotions `8h2b+`; everything else (chess
//! promotions `7b7aq`, gating letters, `+`/`-` suffixes) is kept as it is
//! in Fairy-Stockfish's own notation, where `@` marks a drop.

use crate::variants::variant::Variant;

/// The USI name of `cell` (`7g`).
pub fn usi_square(variant: &Variant, cell: usize) -> String {
    let g = &variant.geometry;
    let (f, r) = g.coords(cell);
    format!("{}{}", (b'0' + (g.width - f)) as char, (b'a' + (g.height - 1 - r)) as char)
}

/// The cell of a USI square's two characters, `None` if off the board.
fn parse_usi_square(variant: &Variant, file: u8, rank: u8) -> Option<usize> {
    let g = &variant.geometry;
    if file <= b'0' || file > b'0' + g.width || !rank.is_ascii_lowercase() || rank - b'a' >= g.height {
        return None;
    }
    Some(g.cell(g.width - (file - b'0'), g.height - 1 - (rank - b'a')))
}

/// A move in Fairy-Stockfish's notation (`e2e4`, `P@e4`, `b7b8q`) in USI's
/// (`5g5e`, `P*5e`, `7b7aq` on 8x8).
pub fn to_usi(variant: &Variant, text: &str) -> String {
    let g = &variant.geometry;
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '@' {
            out.push('*');
            i += 1;
            continue;
        }
        if c.is_ascii_lowercase() && chars.get(i + 1).is_some_and(char::is_ascii_digit) {
            let mut j = i + 1;
            while j < chars.len() && j <= i + 2 && chars[j].is_ascii_digit() {
                j += 1;
            }
            let name: String = chars[i..j].iter().collect();
            if let Some(cell) = g.parse_square(&name) {
                out.push_str(&usi_square(variant, cell));
                i = j;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

/// True if `text` is written in USI notation: a drop with `*`, or a first
/// square of a digit (or `:` `;` `<`) and a lowercase letter. Fairy-
/// Stockfish's notation starts with a file letter or a piece letter, so the
/// two never meet.
pub fn is_usi(text: &str) -> bool {
    let b = text.trim().as_bytes();
    b.contains(&b'*') || (b.len() >= 4 && matches!(b[0], b'1'..=b'9' | b':' | b';' | b'<') && b[1].is_ascii_lowercase())
}

/// A USI move (`7g7f`, `P*5e`, `8h2b+`) in Fairy-Stockfish's notation,
/// `None` if it is not USI or names a square off the board.
pub fn from_usi(variant: &Variant, text: &str) -> Option<String> {
    let text = text.trim();
    if !is_usi(text) {
        return None;
    }
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 2);
    let mut i = 0;
    let mut squares = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'*' {
            out.push('@');
            i += 1;
            continue;
        }
        let file_char = c.is_ascii_digit() || matches!(c, b':' | b';' | b'<');
        if file_char && i + 1 < b.len() && b[i + 1].is_ascii_lowercase() {
            let cell = parse_usi_square(variant, c, b[i + 1])?;
            out.push_str(&variant.geometry.name(cell));
            squares += 1;
            i += 2;
            continue;
        }
        out.push(c as char);
        i += 1;
    }
    (squares > 0).then_some(out)
}
