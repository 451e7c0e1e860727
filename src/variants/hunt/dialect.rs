//! Moves as other engines print them, turned into Fairy-Stockfish's
//! notation before they are read: long algebraic with piece letters and
//! hyphens (`Nb1-a3`, `Nc3xb5`, `+Nc3-c4` for a promoted piece), gating
//! suffixes (`Nb1-a3/H`), promotions with `=` (`a7-a8=Q`), drops without
//! the pawn letter (`@e2`), and USI moves with piece letters (`P7g-7f`,
//! `+B8h-2b`). Castling written `O-O` / `O-O-O` needs the position and is
//! read in `variant_rules`.

/// `text` in Fairy-Stockfish's notation (`b1a3`, `b1a3h`, `P@e2`, `7g7f`),
/// or `None` when it has none of the forms above (it is read as it is).
pub fn normalise(text: &str) -> Option<String> {
    let t = text.trim();
    let mut s: &str = t;
    // `+Nc3-c4`: a promoted piece moving. A drop promoted side up keeps
    // its `+` (`+N@c3` is Fairy-Stockfish's own).
    if !s.contains('@') {
        if let Some(rest) = s.strip_prefix('+') {
            if rest.starts_with(|c: char| c.is_ascii_uppercase()) {
                s = rest;
            }
        }
    }
    // A piece letter before the origin square: `Nb1-a3`, `P7g-7f`.
    let b = s.as_bytes();
    if b.len() >= 3 && b[0].is_ascii_uppercase() && b[1] != b'@' && b[1] != b'*' {
        let square_next = b[1].is_ascii_lowercase() && b[2].is_ascii_digit()
            || (b[1].is_ascii_digit() || b":;<".contains(&b[1])) && b[2].is_ascii_lowercase();
        if square_next {
            s = &s[1..];
        }
    }
    let mut out = String::with_capacity(s.len());
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        let between_squares = prev.is_some_and(|p| p.is_ascii_alphanumeric())
            && next.is_some_and(|n| n.is_ascii_alphanumeric() || matches!(n, ':' | ';' | '<'));
        match c {
            // `b1-a3`, `7g-7f`: the hyphen between two squares.
            '-' if between_squares => {}
            // `c3xb5`: a capture mark between two algebraic squares.
            'x' if prev.is_some_and(|p| p.is_ascii_digit())
                && next.is_some_and(|n| n.is_ascii_lowercase())
                && chars.get(i + 2).is_some_and(char::is_ascii_digit) => {}
            // `a7a8=Q`.
            '=' if next.is_some_and(|n| n.is_ascii_alphabetic()) => {}
            // `b1a3/H`: gating, Fairy-Stockfish's lowercase suffix.
            '/' if next.is_some_and(|n| n.is_ascii_alphabetic()) && i + 2 == chars.len() => {
                out.push(next.expect("checked").to_ascii_lowercase());
                i += 1;
            }
            _ => out.push(c),
        }
        i += 1;
    }
    // `@e2`: a pawn dropped, its letter left out.
    if out.starts_with('@') {
        out.insert(0, 'P');
    }
    (out != t).then_some(out)
}

/// `Some(true)` for kingside castling written `O-O` (or `0-0`), `Some(false)`
/// for `O-O-O`; a gating suffix (`O-O/H`) is returned lowercase.
pub fn castling(text: &str) -> Option<(bool, Option<char>)> {
    let t = text.trim().trim_end_matches(['+', '#']);
    let (castle, gate) = match t.split_once('/') {
        Some((c, g)) if g.len() == 1 && g.chars().all(|c| c.is_ascii_alphabetic()) => (c, g.chars().next()),
        Some(_) => return None,
        None => (t, None),
    };
    let kingside = match castle {
        "O-O" | "0-0" | "o-o" => true,
        "O-O-O" | "0-0-0" | "o-o-o" => false,
        _ => return None,
    };
    Some((kingside, gate.map(|g| g.to_ascii_lowercase())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dialect_becomes_fairy_notation() {
        for (text, fairy) in [
            ("Nb1-a3", "b1a3"),
            ("Nb1a3", "b1a3"),
            ("+Nc3-c4", "c3c4"),
            ("Nc3xb5", "c3b5"),
            ("Nb1-a3/H", "b1a3h"),
            ("e7-e8=Q", "e7e8Q"),
            ("@e2", "P@e2"),
            ("P7g-7f", "7g7f"),
            ("+B8h-2b", "8h2b"),
            ("B8h-2b+", "8h2b+"),
            ("a2-a4", "a2a4"),
        ] {
            assert_eq!(normalise(text).as_deref(), Some(fairy), "{text}");
        }
        for text in ["e2e4", "P@e2", "+N@c3", "7g7f", "P*5e", "8h2b+", "e5e6,e6e7", "a7a8q", "b1a3h"] {
            assert_eq!(normalise(text), None, "{text}");
        }
    }

    #[test]
    fn castling_with_and_without_gating() {
        assert_eq!(castling("O-O"), Some((true, None)));
        assert_eq!(castling("O-O-O+"), Some((false, None)));
        assert_eq!(castling("O-O/H"), Some((true, Some('h'))));
        assert_eq!(castling("O-O-O/e"), Some((false, Some('e'))));
        assert_eq!(castling("e1g1"), None);
    }
}
