//! The xiangqi world's coordinates (ICCS, as Pikafish and UCCI engines
//! write them): files `a`-`i` as in Fairy-Stockfish's notation, ranks
//! counted from 0 (`h2e2` is Fairy-Stockfish's `h3e3`). Only the rank
//! digits change; drops (`C@e3`), promotions and legs keep their form.

use crate::variants::board::Geometry;

/// Which square names a variant's moves use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MoveNotation {
    /// Fairy-Stockfish's: ranks from 1 (`a1`, `a10`).
    #[default]
    Fairy,
    /// ICCS: ranks from 0, one digit (`a0`, `a9`); boards of at most ten ranks.
    Iccs,
    /// USI's, the shogi world's, on the way out: moves as USI engines print
    /// them (`7g7f`, `P*5e`) and positions in SFEN where SFEN says all of
    /// the position (`... b Pp 1`). Moves are read in either notation.
    Usi,
}

impl std::str::FromStr for MoveNotation {
    type Err = String;

    fn from_str(s: &str) -> Result<MoveNotation, String> {
        match s {
            "fsf" | "fairy" => Ok(MoveNotation::Fairy),
            "iccs" => Ok(MoveNotation::Iccs),
            "usi" => Ok(MoveNotation::Usi),
            _ => Err(format!(
                "{s:?}: a move notation is fsf (ranks from 1, Fairy-Stockfish), iccs (ranks from 0) or usi (7g7f, P*5e; SFEN)"
            )),
        }
    }
}

/// A move of Fairy-Stockfish's notation (`h3e3`, `a10a9`) in ICCS (`h2e2`, `a9a8`).
pub fn to_iccs(g: &Geometry, text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        // A square: a lowercase file and one or two rank digits.
        if b[i].is_ascii_lowercase() && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
            let end = if b.get(i + 2).is_some_and(u8::is_ascii_digit) { i + 3 } else { i + 2 };
            if let Some(cell) = g.parse_square(&text[i..end]) {
                let (file, rank) = g.coords(cell);
                out.push((b'a' + file) as char);
                out.push_str(&rank.to_string());
                i = end;
                continue;
            }
        }
        out.push(b[i] as char);
        i += 1;
    }
    out
}

/// An ICCS move (`h2e2`) in Fairy-Stockfish's notation (`h3e3`), `None` if
/// it names a square off the board.
pub fn from_iccs(g: &Geometry, text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 2);
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_lowercase() && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
            // ICCS ranks are one digit: `a10` is not ICCS.
            if b.get(i + 2).is_some_and(u8::is_ascii_digit) {
                return None;
            }
            let (file, rank) = (b[i] - b'a', b[i + 1] - b'0');
            if file >= g.width || rank >= g.height {
                return None;
            }
            out.push_str(&g.name(g.cell(file, rank)));
            i += 2;
            continue;
        }
        out.push(b[i] as char);
        i += 1;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_shift_by_one_both_ways() {
        let g = Geometry::new(9, 10);
        for (fairy, iccs) in [("h3e3", "h2e2"), ("a10a9", "a9a8"), ("C@e3", "C@e2"), ("e5e6,e6e7", "e4e5,e5e6")] {
            assert_eq!(to_iccs(&g, fairy), iccs);
            assert_eq!(from_iccs(&g, iccs).as_deref(), Some(fairy));
        }
    }

    #[test]
    fn squares_off_the_board_or_two_digit_ranks_are_not_iccs() {
        let g = Geometry::new(9, 10);
        assert_eq!(from_iccs(&g, "j0j1"), None);
        assert_eq!(from_iccs(&g, "a10a9"), None);
        let small = Geometry::new(7, 7);
        assert_eq!(from_iccs(&small, "a7a6"), None);
    }

    #[test]
    fn notation_names_read() {
        assert_eq!("iccs".parse(), Ok(MoveNotation::Iccs));
        assert_eq!("fsf".parse(), Ok(MoveNotation::Fairy));
        assert_eq!("usi".parse(), Ok(MoveNotation::Usi));
        assert!("ucci".parse::<MoveNotation>().unwrap_err().contains("iccs"));
    }
}
