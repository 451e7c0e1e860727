//! What looks like a move in some notation of some game.

/// Looks like a move in some notation of some game: UCI (`e2e4`, `a10a9`),
/// long algebraic with piece letters or hyphens, SAN, drops (`N@b2`),
/// castling, USI (`7g7f`, `P*5e`, `:g:f` on ten files). It needs a square
/// (a letter followed by a digit, or USI's digit followed by a letter);
/// meaning is checked later, by the game.
pub fn is_move_token(s: &str) -> bool {
    let s = s.trim();
    if matches!(s.trim_end_matches(['+', '#']), "O-O" | "O-O-O" | "0-0" | "0-0-0") {
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
                // legs and walls (`d1a1,a1b1`).
                || (c == b',' && i > 0 && i + 1 < b.len())
        })
        && (usi_move || usi_drop || b.windows(2).any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_digit()))
}
