//! What looks like a move in some notation of some game.

/// Looks like a move in some notation of some game: UCI (`e2e4`, `a10a9`),
/// long algebraic with piece letters or hyphens (`Nb1-a3`, `+Nc3-c4`,
/// `Nc3xb5`), gating suffixes (`Nb1-a3/H`), SAN, drops (`N@b2`, `@e2`),
/// castling (`O-O`, `O-O/H`), USI (`7g7f`, `P*5e`, `:g:f` on ten files) also
/// with piece letters (`P7g-7f`, `+B8h-2b`). It needs a square (a letter
/// followed by a digit, or USI's digit followed by a letter); meaning is
/// checked later, by the game.
pub fn is_move_token(s: &str) -> bool {
    let s = s.trim();
    let castle = s.split_once('/').map_or(s, |(c, gate)| if gate.len() == 1 { c } else { s });
    if matches!(castle.trim_end_matches(['+', '#']), "O-O" | "O-O-O" | "0-0" | "0-0-0") {
        return true;
    }
    if (2..=16).contains(&s.len()) && is_usi_with_piece(s) {
        return true;
    }
    let b = s.as_bytes();
    let usi_file = |c: u8| c.is_ascii_digit() || matches!(c, b':' | b';' | b'<');
    let usi_square = |i: usize| b.len() >= i + 2 && usi_file(b[i]) && b[i + 1].is_ascii_lowercase();
    // USI: two squares (`7g7f`) or a drop (`P*5e`).
    let usi_move = usi_square(0) && usi_square(2);
    let usi_drop = b.len() >= 2 && b[0].is_ascii_uppercase() && b[1] == b'*' && usi_square(2);
    // `:`, `;` and `<` only as a USI file (never a trailing colon: `e2e4:`).
    let usi_file_at = |i: usize| (usi_move && (i == 0 || i == 2)) || (usi_drop && i == 2);
    (2..=16).contains(&b.len())
        && b.iter().enumerate().all(|(i, &c)| {
            c.is_ascii_alphanumeric()
                || b"-=+#()@*'!?".contains(&c)
                || (b":;<".contains(&c) && usi_file_at(i))
                // Between two parts of one move: Fairy-Stockfish's locust
                // legs and walls (`d1a1,a1b1`), a gating suffix (`b1a3/H`).
                || (b",/".contains(&c) && i > 0 && i + 1 < b.len())
        })
        && (usi_move || usi_drop || b.windows(2).any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_digit()))
}

/// A USI move with a piece letter and a hyphen or `x` (Sjaak II in USI
/// mode: `P7g-7f`, `+B8h-2b`, `S4i-3h+`).
fn is_usi_with_piece(s: &str) -> bool {
    let core = s.strip_prefix('+').unwrap_or(s);
    let b = core.as_bytes();
    if b.is_empty() || !b[0].is_ascii_uppercase() {
        return false;
    }
    let b = &b[1..];
    let usi_square = |i: usize| {
        b.len() >= i + 2 && (b[i].is_ascii_digit() || b":;<".contains(&b[i])) && b[i + 1].is_ascii_lowercase()
    };
    if !usi_square(0) {
        return false;
    }
    let to = if matches!(b.get(2), Some(b'-' | b'x')) { 3 } else { 2 };
    usi_square(to) && b[to + 2..].iter().all(|c| b"+=".contains(c))
}
