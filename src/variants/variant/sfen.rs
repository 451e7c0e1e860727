//! SFEN, the shogi world's position text, for any variant: the board as in
//! FEN (ranks from the top, uppercase for the side that moves first, `+`
//! and `~` marks kept), the side to move `b` (sente, Fairy-Stockfish's
//! white) or `w`, the hands (`S2Pb`: counts before letters, `-` for none),
//! then the move number counted in plies (1 for sente to move, 2 for gote,
//! as Fairy-Stockfish writes it). SFEN has no castling, en-passant or
//! clock fields: read, it has none of them.
//!
//! A text is SFEN when it starts with the word `sfen`, or has exactly four
//! fields and the fourth is all digits (in a FEN the fourth field is the
//! en-passant square, never a bare number), the third not (a FEN without
//! castling and en-passant fields: `w 0 1`).

use super::definition::{FenError, Variant};
use crate::variants::board::Position;

/// True if `text` is an SFEN rather than a FEN (see the module docs).
pub fn is_sfen(text: &str) -> bool {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.first() == Some(&"sfen") {
        return true;
    }
    let number = |f: &str| !f.is_empty() && f.chars().all(|c| c.is_ascii_digit());
    // A hand of digits alone is no SFEN hand: Fairy-Stockfish's short FEN
    // (`P5p/7/7/7/7/7/p5P w 0 1`, no castling and en-passant fields).
    fields.len() == 4 && number(fields[3]) && !number(fields[2])
}

/// `S2Pb` as the letters one by one (`SPPb`), or why not.
fn expand_hand(field: &str, limit: usize) -> Result<String, String> {
    if field == "-" {
        return Ok(String::new());
    }
    let mut out = String::new();
    let mut digits = String::new();
    for c in field.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !c.is_ascii_alphabetic() {
            return Err(format!("hand {field:?}: {c:?} is neither a count nor a piece letter"));
        }
        let n = if digits.is_empty() {
            1
        } else {
            match digits.parse::<usize>() {
                Ok(n) if (1..=limit).contains(&n) && !digits.starts_with('0') => n,
                _ => return Err(format!("hand {field:?}: bad count {digits} for {c} (1 to {limit})")),
            }
        };
        digits.clear();
        out.extend(std::iter::repeat_n(c, n));
    }
    if !digits.is_empty() {
        return Err(format!("hand {field:?}: the count {digits} has no piece letter after it"));
    }
    Ok(out)
}

/// `SPPb` as SFEN writes it: `S2Pb`, letters in their first order.
fn compress_hand(letters: &str) -> String {
    let mut order: Vec<(char, usize)> = Vec::new();
    for c in letters.chars() {
        match order.iter_mut().find(|(l, _)| *l == c) {
            Some((_, n)) => *n += 1,
            None => order.push((c, 1)),
        }
    }
    if order.is_empty() {
        return "-".to_string();
    }
    order.iter().map(|&(c, n)| if n == 1 { c.to_string() } else { format!("{n}{c}") }).collect()
}

impl Variant {
    /// Reads an SFEN (with or without the leading word `sfen`); errors name
    /// the field.
    pub fn parse_sfen(&self, text: &str) -> Result<Position, FenError> {
        let err = |message: String| FenError { fen: text.to_string(), message: format!("SFEN {message}") };
        let mut fields: Vec<&str> = text.split_whitespace().collect();
        if fields.first() == Some(&"sfen") {
            fields.remove(0);
        }
        if !(3..=4).contains(&fields.len()) {
            return Err(err(format!("has {} fields: board, side (b/w), hand, move number", fields.len())));
        }
        if fields[0].contains('[') {
            return Err(err("board: the hands go in the third field (`S2Pb`), not in brackets".to_string()));
        }
        let side = match fields[1] {
            "b" => "w",
            "w" => "b",
            other => return Err(err(format!("side {other:?}: b (sente, first to move) or w"))),
        };
        let g = &self.geometry;
        let limit = g.width as usize * g.height as usize;
        let hand = expand_hand(fields[2], limit).map_err(err)?;
        if let Some(ply) = fields.get(3) {
            if !matches!(ply.parse::<u64>(), Ok(n) if n >= 1) {
                return Err(err(format!("move number {ply:?}: a whole number from 1")));
            }
        }
        let has_hands = self.tables.laws.drops.is_some();
        if !has_hands && !hand.is_empty() {
            return Err(err(format!("hand {:?}: {} has no hands (no drops)", fields[2], self.name)));
        }
        let board = if has_hands { format!("{}[{hand}]", fields[0]) } else { fields[0].to_string() };
        let fen = format!("{board} {side} - - 0 1");
        self.parse_fen(&fen).map_err(|e| err(e.message))
    }

    /// The position as Fairy-Stockfish's `d` prints its `Sfen:` line (move
    /// number 1 or 2: positions carry no move count).
    pub fn sfen(&self, pos: &Position) -> String {
        let fen = self.fen(pos);
        let mut fields = fen.split_whitespace();
        let board = fields.next().unwrap_or("");
        let side = fields.next().unwrap_or("w");
        let (board, hand) = match board.split_once('[') {
            Some((b, h)) => (b, h.trim_end_matches(']')),
            None => (board, ""),
        };
        let (side, ply) = if side == "w" { ("b", 1) } else { ("w", 2) };
        format!("{board} {side} {} {ply}", compress_hand(hand))
    }

    /// The `position` command's argument for a USI engine: `startpos` for
    /// the start position, else `sfen ...` when the SFEN says all of it,
    /// else `fen ...` (castling rights, an en-passant square or check
    /// counters; Fairy-Stockfish takes a FEN in USI mode too).
    pub fn usi_position(&self, pos: &Position) -> String {
        let fen = self.fen(pos);
        if let Ok(start) = self.parse_fen(&self.start_fen) {
            if self.fen(&start) == fen {
                return "startpos".to_string();
            }
        }
        let sfen = self.sfen(pos);
        match self.parse_sfen(&sfen) {
            Ok(back) if self.fen(&back) == fen => format!("sfen {sfen}"),
            _ => format!("fen {fen}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands_expand_and_compress() {
        assert_eq!(expand_hand("S2Pb", 81).unwrap(), "SPPb");
        assert_eq!(expand_hand("-", 81).unwrap(), "");
        assert_eq!(compress_hand("SPPb"), "S2Pb");
        assert_eq!(compress_hand(""), "-");
        assert!(expand_hand("0P", 81).is_err());
        assert!(expand_hand("P2", 81).is_err());
        assert!(expand_hand("99P", 81).is_err());
    }

    #[test]
    fn sfen_is_told_from_fen() {
        assert!(is_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"));
        assert!(is_sfen("sfen 4k3/8/8/8/8/8/8/4K3 b - 1"));
        assert!(!is_sfen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"));
        assert!(!is_sfen("4k3/8/8/8/8/8/8/4K3 w - -"));
        assert!(!is_sfen("P5p/7/7/7/7/7/p5P w 0 1"));
    }
}
