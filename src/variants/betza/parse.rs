//! XBetza notation, parsed into one `MoveGroup` per atom.
//!
//! The grammar (after H. G. Muller's XBetza page): a piece is a sequence of
//! groups `[i] legs atom [range]`, where the lower-case prefix is split into
//! legs by `a` ("again"). Each leg carries its own directions (`f b l r v s h`,
//! pairs such as `lf`, doubled letters such as `ff`, chiral `hr`/`hl`),
//! modalities (`m c d`), hop (`p g`), lame `n`, `j` and range toggle `y`.
//! Directions of the first leg are absolute (they depend on the atom: 4-fold
//! orthogonal, 4-fold diagonal, 8-fold K/Q, 8-fold oblique); those of later
//! legs are relative to the previous step in the 8-fold K system.
//!
//! Nothing is dropped: a letter we do not know, a construct we know but do
//! not implement, or a modifier without an atom is an error that names the
//! character position (0-based), so that the caller can print a caret.

use std::fmt;

/// An error in a Betza string, at a character position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BetzaError {
    /// The Betza string as written.
    pub notation: String,
    /// 0-based character index of the fault.
    pub pos: usize,
    /// What is wrong there.
    pub message: String,
}

impl BetzaError {
    /// The notation and a caret under the fault, on two lines; a long
    /// notation is shown as a window of 100 characters around the fault.
    pub fn caret(&self) -> String {
        const WIDTH: usize = crate::input::QUOTE_CHARS;
        let chars: Vec<char> = self.notation.chars().collect();
        let start = if chars.len() > WIDTH { self.pos.saturating_sub(WIDTH / 2).min(chars.len() - WIDTH) } else { 0 };
        let end = (start + WIDTH).min(chars.len());
        let lead = if start > 0 { "..." } else { "" };
        let tail = if end < chars.len() { "..." } else { "" };
        let window: String = chars[start..end].iter().collect();
        format!("{lead}{window}{tail}\n{}^", " ".repeat(lead.len() + self.pos.saturating_sub(start)))
    }
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let notation = crate::input::quote(&self.notation);
        write!(f, "betza \"{notation}\": {} at character {}", self.message, self.pos + 1)
    }
}

impl std::error::Error for BetzaError {}

/// How an atom's directions are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Symmetry {
    /// W D H (and R): 4 moves, at the even compass indices.
    Orthogonal,
    /// F A G (and B): 4 moves, at the odd compass indices.
    Diagonal,
    /// K (and Q): 8 moves, orthogonal at even and diagonal at odd indices.
    King,
    /// N C Z: 8 moves in clockwise order starting with (short, long).
    Oblique,
}

/// A leap (long >= short >= 0) with its symmetry class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Atom {
    /// The atom letter as written (`W`, `N`, `Z`, ...).
    pub letter: char,
    /// The longer coordinate of the leap.
    pub long: i8,
    /// The shorter coordinate of the leap.
    pub short: i8,
    /// How the leap's directions are counted.
    pub symmetry: Symmetry,
}

/// Unlimited range.
pub const INFINITE: u8 = u8::MAX;

/// Modality and hop bits of one leg.
pub mod mode {
    /// May land on (or, non-final, stop on) an empty square.
    pub const M: u8 = 1;
    /// May capture an enemy piece there.
    pub const C: u8 = 2;
    /// May capture a friendly piece there ("destroy").
    pub const D: u8 = 4;
    /// `p`: non-final, hop an occupied square; final, a hopper (desugared).
    pub const P: u8 = 8;
    /// `g`: as `p`, and toggle the range for the following legs.
    pub const G: u8 = 16;
    /// `y`: as `m` on a non-final leg, and toggle the range.
    pub const Y: u8 = 32;
}

/// One leg's modifiers, before the atom is known.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LegMods {
    /// Direction tokens, each a set of 8 indices (absolute for the first
    /// leg, relative for the others), resolved against the atom by
    /// `directions()`. Empty: the default.
    pub dir_tokens: Vec<(DirToken, usize)>,
    /// The `mode` bits (`m c d p g y`) of this leg.
    pub modes: u8,
    /// Lame (`n`).
    pub lame: bool,
    /// Number of `j`.
    pub jumps: u8,
    /// Position of the leg's first character (for errors).
    pub pos: usize,
}

/// A direction token as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DirToken {
    /// One letter (`f`).
    Single(char),
    /// A doubled letter (`ff`).
    Double(char),
    /// A combining pair (`fr`, `lf`, `fs`, `rv`).
    Pair(char, char),
    /// A letter and `h` (`fh`).
    Half(char),
    /// `hr` or `hl`.
    Chiral(char),
}

/// One group of moves: `[i] leg (a leg)* ATOM [range]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveGroup {
    /// Only for a piece that has not moved (`i`).
    pub initial: bool,
    /// The modifiers of each leg, split at `a`.
    pub legs: Vec<LegMods>,
    /// The atom that every leg steps by.
    pub atom: Atom,
    /// Range of the atom: 1 for leapers, `INFINITE` for riders.
    pub range: u8,
    /// Where the atom letter is.
    pub atom_pos: usize,
}

/// A parsed piece: its groups and any warnings (ambiguous atoms).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// The Betza string as written.
    pub notation: String,
    /// One group per atom, in order.
    pub groups: Vec<MoveGroup>,
    /// Notes for the user (ambiguous atoms).
    pub warnings: Vec<String>,
}

fn atom_of(letter: char) -> Option<Atom> {
    use Symmetry::*;
    let (long, short, symmetry) = match letter {
        'W' | 'R' => (1, 0, Orthogonal),
        'F' | 'B' => (1, 1, Diagonal),
        'K' | 'Q' => (1, 1, King),
        'D' => (2, 0, Orthogonal),
        'H' => (3, 0, Orthogonal),
        'A' => (2, 2, Diagonal),
        'G' => (3, 3, Diagonal),
        'N' => (2, 1, Oblique),
        // L and J: Betza's original long knight (camel) and zebra, as
        // Fairy-Stockfish reads them; XBoard's page calls J the camel and L
        // the zebra, so both warn.
        'C' | 'L' => (3, 1, Oblique),
        'Z' | 'J' => (3, 2, Oblique),
        _ => return None,
    };
    Some(Atom { letter, long, short, symmetry })
}

fn is_direction(c: char) -> bool {
    matches!(c, 'f' | 'b' | 'l' | 'r' | 'v' | 's' | 'h')
}

/// f/b are vertical, l/r horizontal; v counts as vertical, s as horizontal.
fn perpendicular(a: char, b: char) -> bool {
    let vertical = |c| matches!(c, 'f' | 'b' | 'v');
    let horizontal = |c| matches!(c, 'l' | 'r' | 's');
    (vertical(a) && horizontal(b)) || (horizontal(a) && vertical(b))
}

/// Parses an XBetza string.
pub fn parse(notation: &str) -> Result<Piece, BetzaError> {
    let chars: Vec<char> = notation.chars().collect();
    let err = |pos: usize, message: String| BetzaError { notation: notation.to_string(), pos, message };
    let mut groups = Vec::new();
    let mut warnings = Vec::new();
    let mut i = 0;
    if chars.is_empty() {
        return Ok(Piece { notation: notation.to_string(), groups, warnings });
    }
    while i < chars.len() {
        let group_start = i;
        let mut initial = false;
        while i < chars.len() && chars[i] == 'i' {
            if initial {
                return Err(err(
                    i,
                    "'ii' (moves of pieces on their initial square in the opponent's camp) is not implemented".into(),
                ));
            }
            initial = true;
            i += 1;
        }
        let mut legs = vec![LegMods { pos: i, ..LegMods::default() }];
        // The lower-case prefix.
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            let c = chars[i];
            let leg = legs.last_mut().expect("at least one leg");
            match c {
                'a' => {
                    legs.push(LegMods { pos: i + 1, ..LegMods::default() });
                    i += 1;
                }
                'm' => {
                    leg.modes |= mode::M;
                    i += 1;
                }
                'c' => {
                    leg.modes |= mode::C;
                    i += 1;
                }
                'd' => {
                    leg.modes |= mode::D;
                    i += 1;
                }
                'p' => {
                    leg.modes |= mode::P;
                    i += 1;
                }
                'g' => {
                    leg.modes |= mode::G;
                    i += 1;
                }
                'y' => {
                    leg.modes |= mode::Y;
                    i += 1;
                }
                'n' => {
                    leg.lame = true;
                    i += 1;
                }
                'j' => {
                    leg.jumps += 1;
                    i += 1;
                }
                'i' => return Err(err(i, "'i' must come first in its group (it applies to the whole move)".into())),
                'h' if matches!(chars.get(i + 1), Some('r') | Some('l')) => {
                    leg.dir_tokens.push((DirToken::Chiral(chars[i + 1]), i));
                    i += 2;
                }
                'h' => {
                    return Err(err(
                        i,
                        "'h' (half) must follow a direction (fh, bh, lh, rh) or precede r/l (hr, hl)".into(),
                    ))
                }
                c if is_direction(c) => {
                    let next = chars.get(i + 1).copied();
                    let token = match next {
                        Some('h') if matches!(c, 'f' | 'b' | 'l' | 'r') => DirToken::Half(c),
                        Some(n) if n == c => DirToken::Double(c),
                        Some(n) if matches!(c, 'f' | 'b' | 'l' | 'r') && perpendicular(c, n) => DirToken::Pair(c, n),
                        _ => DirToken::Single(c),
                    };
                    leg.dir_tokens.push((token, i));
                    i += if matches!(token, DirToken::Single(_)) { 1 } else { 2 };
                }
                // As Fairy-Stockfish: `e` marks the piece as one that takes
                // en passant (with its capture-only moves); alone it would
                // mean XBetza's en-passant-only capture, which is not read.
                'e' if leg.modes & mode::C != 0 || chars.get(i + 1) == Some(&'c') => i += 1,
                'e' => {
                    return Err(err(i, "'e' (en passant) without 'c' next to it is not implemented (write ce)".into()))
                }
                't' => {
                    return Err(err(
                        i,
                        "'t' (tame / hop over own pieces only) is recognised but not implemented".into(),
                    ))
                }
                'o' => return Err(err(i, "'o' (cylinder board) is recognised but not implemented".into())),
                'q' | 'z' => {
                    return Err(err(i, format!("'{c}' (curved / crooked path) is recognised but not implemented")))
                }
                'u' => return Err(err(i, "'u' (unload) is recognised but not implemented".into())),
                _ => return Err(err(i, format!("unknown modifier '{c}'"))),
            }
        }
        if i >= chars.len() {
            let at = if chars.last() == Some(&'a') { chars.len() - 1 } else { group_start };
            let message = if chars.last() == Some(&'a') {
                "'a' (again) with no atom after it".to_string()
            } else {
                "modifiers with no atom after them".to_string()
            };
            return Err(err(at, message));
        }
        let c = chars[i];
        let atom_pos = i;
        let mut atom = match atom_of(c) {
            Some(a) => a,
            None => {
                let message = match c {
                    'O' => {
                        "atom 'O' (null move / castling) is recognised but not implemented; write a pass as mabW".into()
                    }
                    'U' => "atom 'U' (universal leaper) is recognised but not implemented".into(),
                    '@' => "atom '@' (drop) is recognised but not implemented".into(),
                    '(' | ')' | '[' | ']' | '-' | '?' => {
                        format!("'{c}' (Betza 2.0 chaining / grouping) is recognised but not implemented; chain legs with 'a'")
                    }
                    c if c.is_ascii_digit() => format!("range '{c}' with no atom before it"),
                    c if c.is_ascii_uppercase() => format!("unknown atom '{c}'"),
                    _ => format!("unexpected character '{c}'"),
                };
                return Err(err(i, message));
            }
        };
        if c == 'L' || c == 'J' {
            warnings.push(format!(
                "atom '{c}' at character {} is ambiguous: read as the {} (Betza, Fairy-Stockfish); XBoard reads it as the {}; write {} to be clear",
                i + 1,
                if c == 'L' { "camel (3,1)" } else { "zebra (3,2)" },
                if c == 'L' { "zebra (3,2)" } else { "camel (3,1)" },
                if c == 'L' { "C" } else { "Z" },
            ));
        }
        i += 1;
        let mut range: u8 = if matches!(c, 'R' | 'B' | 'Q') { INFINITE } else { 1 };
        // A doubled atom is a rider (NN, WW, KK = Q).
        if i < chars.len() && chars[i] == c {
            if matches!(c, 'R' | 'B' | 'Q') {
                return Err(err(i, format!("'{c}{c}': '{c}' is already a rider")));
            }
            range = INFINITE;
            i += 1;
            if i < chars.len() && chars[i].is_ascii_digit() {
                return Err(err(i, "a doubled atom (a rider) cannot also have a range".into()));
            }
        } else if i < chars.len() && chars[i].is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let digits: String = chars[start..i].iter().collect();
            if digits.len() > 2 {
                return Err(err(start, format!("range '{digits}' has more than two digits")));
            }
            if digits.len() == 2 && digits.starts_with('0') {
                return Err(err(start, format!("range '{digits}' starts with a redundant zero")));
            }
            let n: u8 = digits.parse().expect("one or two digits");
            range = if n == 0 { INFINITE } else { n };
        }
        // R4 is W4, B2 is F2, Q3 is K3: the letter names the leap and default range only.
        atom.letter = match atom.letter {
            'R' => 'W',
            'B' => 'F',
            'Q' => 'K',
            other => other,
        };
        groups.push(MoveGroup { initial, legs, atom, range, atom_pos });
    }
    Ok(Piece { notation: notation.to_string(), groups, warnings })
}

/// The 8 compass directions, clockwise from forward: (file, rank) units.
pub const COMPASS: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// The step of `atom` in direction index `index` (compass index for
/// orthogonal, diagonal and K atoms; circular index for oblique ones).
pub fn step(atom: Atom, index: usize) -> (i8, i8) {
    let index = index % 8;
    match atom.symmetry {
        Symmetry::Oblique => {
            let (s, l) = (atom.short, atom.long);
            [(s, l), (l, s), (l, -s), (s, -l), (-s, -l), (-l, -s), (-l, s), (-s, l)][index]
        }
        _ => {
            let (x, y) = COMPASS[index];
            (x * atom.long, y * atom.long)
        }
    }
}

fn bits(list: &[usize]) -> u8 {
    list.iter().fold(0, |acc, &i| acc | 1 << i)
}

/// The compass-index set of a single letter in the 8-fold K system.
fn king_single(c: char) -> u8 {
    match c {
        'f' => bits(&[0]),
        'b' => bits(&[4]),
        'r' => bits(&[2]),
        'l' => bits(&[6]),
        'v' => bits(&[0, 4]),
        's' => bits(&[2, 6]),
        _ => 0,
    }
}

/// The "wide" K-system sets used to intersect pairs (fr = f3 & r3).
fn king_wide(c: char) -> u8 {
    match c {
        'f' => bits(&[7, 0, 1]),
        'b' => bits(&[3, 4, 5]),
        'r' => bits(&[1, 2, 3]),
        'l' => bits(&[5, 6, 7]),
        'v' => bits(&[0, 1, 3, 4, 5, 7]),
        's' => bits(&[1, 2, 3, 5, 6, 7]),
        _ => 0,
    }
}

fn oblique_narrow(c: char) -> u8 {
    match c {
        'f' => bits(&[7, 0]),
        'b' => bits(&[3, 4]),
        'r' => bits(&[1, 2]),
        'l' => bits(&[5, 6]),
        'v' => bits(&[7, 0, 3, 4]),
        's' => bits(&[1, 2, 5, 6]),
        _ => 0,
    }
}

fn oblique_wide(c: char) -> u8 {
    match c {
        'f' => bits(&[6, 7, 0, 1]),
        'b' => bits(&[2, 3, 4, 5]),
        'r' => bits(&[0, 1, 2, 3]),
        'l' => bits(&[4, 5, 6, 7]),
        _ => 0,
    }
}

fn diagonal_set(c: char) -> u8 {
    match c {
        'f' => bits(&[7, 1]),
        'b' => bits(&[3, 5]),
        'r' => bits(&[1, 3]),
        'l' => bits(&[5, 7]),
        'v' | 's' => bits(&[1, 3, 5, 7]),
        _ => 0,
    }
}

/// Resolves a leg's direction tokens to a set of indices (bit i = index i),
/// `relative` for continuation legs (K system, relative to the last step).
pub fn directions(piece: &str, leg: &LegMods, symmetry: Symmetry, relative: bool) -> Result<u8, BetzaError> {
    let err = |pos: usize, message: String| BetzaError { notation: piece.to_string(), pos, message };
    if leg.dir_tokens.is_empty() {
        return Ok(match (relative, symmetry) {
            (false, Symmetry::Orthogonal) => bits(&[0, 2, 4, 6]),
            (false, Symmetry::Diagonal) => bits(&[1, 3, 5, 7]),
            (false, _) => 0xFF,
            // Continuations: every direction but straight back; 4-fold atoms
            // keep their kind (no 45-degree turn) unless a direction says so.
            (true, Symmetry::Orthogonal | Symmetry::Diagonal) => bits(&[0, 2, 6]),
            (true, _) => !bits(&[4]),
        });
    }
    let system = if relative { Symmetry::King } else { symmetry };
    let mut set = 0u8;
    for &(token, pos) in &leg.dir_tokens {
        let part = match (system, token) {
            (Symmetry::Oblique, DirToken::Chiral(c)) => {
                if c == 'r' {
                    bits(&[0, 2, 4, 6])
                } else {
                    bits(&[1, 3, 5, 7])
                }
            }
            (_, DirToken::Chiral(c)) => {
                return Err(err(pos, format!("'h{c}' (chiral) only applies to oblique atoms (N, C, Z) in a first leg")))
            }
            (Symmetry::Oblique, DirToken::Single(c)) => oblique_narrow(c),
            (Symmetry::Oblique, DirToken::Double(c)) => oblique_narrow(c),
            (Symmetry::Oblique, DirToken::Half(c)) => oblique_wide(c),
            (Symmetry::Oblique, DirToken::Pair(a, b)) => oblique_wide(a) & oblique_narrow(b),
            (Symmetry::Orthogonal, DirToken::Single(c) | DirToken::Double(c)) => king_single(c),
            (Symmetry::Orthogonal, DirToken::Pair(a, b)) => king_single(a) | king_single(b),
            (Symmetry::Orthogonal, DirToken::Half(c)) => {
                return Err(err(pos, format!("'{c}h' (half) has no meaning on an orthogonal atom")))
            }
            (Symmetry::Diagonal, DirToken::Single(c) | DirToken::Double(c) | DirToken::Half(c)) => diagonal_set(c),
            (Symmetry::Diagonal, DirToken::Pair(a, b)) => diagonal_set(a) & diagonal_set(b),
            (Symmetry::King, DirToken::Single(c) | DirToken::Double(c)) => king_single(c),
            (Symmetry::King, DirToken::Pair(a, b)) => king_wide(a) & king_wide(b),
            (Symmetry::King, DirToken::Half(c)) => king_wide(c),
        };
        if part == 0 {
            return Err(err(pos, "this direction selects no move of the atom".into()));
        }
        set |= part;
    }
    let valid = match (relative, symmetry) {
        (false, Symmetry::Orthogonal) => bits(&[0, 2, 4, 6]),
        (false, Symmetry::Diagonal) => bits(&[1, 3, 5, 7]),
        _ => 0xFF,
    };
    if set & valid == 0 {
        let pos = leg.dir_tokens[0].1;
        return Err(err(pos, "these directions select no move of the atom".into()));
    }
    Ok(set & valid)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dirs(notation: &str) -> u8 {
        let p = parse(notation).unwrap();
        let g = &p.groups[0];
        directions(notation, &g.legs[0], g.atom.symmetry, false).unwrap()
    }

    fn targets(notation: &str) -> Vec<(i8, i8)> {
        let p = parse(notation).unwrap();
        let g = &p.groups[0];
        let set = directions(notation, &g.legs[0], g.atom.symmetry, false).unwrap();
        let mut v: Vec<_> = (0..8).filter(|i| set >> i & 1 == 1).map(|i| step(g.atom, i)).collect();
        v.sort();
        v.dedup();
        v
    }

    #[test]
    fn knight_pairs_follow_the_xbetza_table() {
        // lfN is Ng1-f3: left-most of the forward pair.
        assert_eq!(targets("lfN"), vec![(-1, 2)]);
        // frN: the upper-most of the right pair.
        assert_eq!(targets("frN"), vec![(2, 1)]);
        assert_eq!(targets("ffN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(targets("fN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(targets("fsN"), vec![(-2, 1), (2, 1)]);
        assert_eq!(targets("fhN"), vec![(-2, 1), (-1, 2), (1, 2), (2, 1)]);
        assert_eq!(targets("ffrrN"), vec![(-1, 2), (1, 2), (2, -1), (2, 1)]);
        // The chiral knight on e4 attacks f6, g3, d2 and c5.
        assert_eq!(targets("hrN"), vec![(-2, 1), (-1, -2), (1, 2), (2, -1)]);
    }

    #[test]
    fn orthogonal_and_diagonal_sets() {
        assert_eq!(targets("fsW"), vec![(-1, 0), (0, 1), (1, 0)]);
        assert_eq!(targets("frW"), vec![(0, 1), (1, 0)]);
        assert_eq!(targets("fF"), vec![(-1, 1), (1, 1)]);
        assert_eq!(targets("frF"), vec![(1, 1)]);
        assert_eq!(dirs("vR"), 0b0001_0001);
        // K system: f alone is the single forward step; fs the two forward diagonals.
        assert_eq!(targets("fK"), vec![(0, 1)]);
        assert_eq!(targets("fsK"), vec![(-1, 1), (1, 1)]);
        assert_eq!(targets("fhK"), vec![(-1, 1), (0, 1), (1, 1)]);
    }

    #[test]
    fn errors_point_at_the_fault() {
        let e = parse("fxN").unwrap_err();
        assert_eq!(e.pos, 1);
        let e = parse("mRa").unwrap_err();
        assert_eq!(e.pos, 2, "{e}");
        let e = parse("fm").unwrap_err();
        assert_eq!(e.pos, 0);
        let e = parse("NX").unwrap_err();
        assert_eq!(e.pos, 1);
        assert!(parse("eF").unwrap_err().message.contains("not implemented"));
        assert!(parse("RR").is_err());
        assert!(parse("W123").is_err());
    }

    #[test]
    fn ranges_and_riders() {
        let p = parse("NNW3R0DD").unwrap();
        let ranges: Vec<u8> = p.groups.iter().map(|g| g.range).collect();
        assert_eq!(ranges, vec![INFINITE, 3, INFINITE, INFINITE]);
        assert!(parse("L").unwrap().warnings.len() == 1);
    }
}
