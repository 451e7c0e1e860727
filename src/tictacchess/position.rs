//! A TicTacChess position and its text form `<board> <hand> <side>`, e.g. the
//! start `4/4/4/4 PNBRpnbr w`; moves and their text (`N@b2`, `b1c3`).
//!
//! The board gives ranks 4 to 1, files a to d, digits for empty squares. The
//! hand lists White's pieces in hand in the order PNBR, then Black's in the
//! order pnbr, or `-` when both hands are empty; it must be exactly the
//! complement of the board. A position where the side that has just moved
//! has four in a line is over (it has no moves). One where the side to move
//! has a line cannot arise (the game ended before its turn) and is refused.

use super::board::{has_line, Bits, Color, Kind, Square};
use std::fmt;

/// Where a piece is: a square's bit, or `HAND`.
pub const HAND: u8 = 31;

/// A position: for each side and piece its square (or `HAND`), the
/// occupancy of each side, and the side to move.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) at: [[u8; 4]; 2],
    pub(crate) occ: [Bits; 2],
    pub(crate) turn: Color,
}

/// A move: a drop from hand or a step, jump or slide (a capture when the
/// target holds an enemy piece, which then goes back to its owner's hand).
/// Packed in 16 bits: target bit index (bits 0-4), origin bit index or `HAND`
/// (bits 5-9), piece kind (bits 10-11).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    /// A drop of `kind` from hand onto `to`.
    #[inline(always)]
    pub const fn drop(kind: Kind, to: Square) -> Move {
        Move((kind as u16) << 10 | (HAND as u16) << 5 | to.bit() as u16)
    }

    /// A move of `kind` from `from` to `to` (a capture if `to` holds an enemy).
    #[inline(always)]
    pub const fn step(kind: Kind, from: Square, to: Square) -> Move {
        Move((kind as u16) << 10 | (from.bit() as u16) << 5 | to.bit() as u16)
    }

    /// The target square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        match Square::from_bit(self.0 as u32 & 31) {
            Some(s) => s,
            None => panic!("a move's target is a board square"),
        }
    }

    /// The origin, `None` for a drop.
    #[inline(always)]
    pub const fn from(self) -> Option<Square> {
        Square::from_bit(self.0 as u32 >> 5 & 31)
    }

    /// The piece that moves or is dropped.
    #[inline(always)]
    pub const fn kind(self) -> Kind {
        Kind::ALL[(self.0 >> 10) as usize & 3]
    }

    /// Whether the move is a drop from hand.
    pub const fn is_drop(self) -> bool {
        self.0 >> 5 & 31 == HAND as u16
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.from() {
            None => write!(f, "{}@{}", self.kind().letter(), self.to()),
            Some(from) => write!(f, "{from}{}", self.to()),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// What is wrong with a position string; each names the field and the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Not three whitespace-separated fields; holds how many there were.
    #[error("expected three fields `<board> <hand> <side>` (e.g. `4/4/4/4 PNBRpnbr w`), found {0}")]
    Fields(usize),
    /// The board has other than four ranks; holds the board and the count.
    #[error("board {0:?}: {1} ranks, expected 4 (ranks 4 to 1 separated by '/')")]
    RankCount(String, usize),
    /// A rank does not describe four squares.
    #[error("board: rank {rank} {text:?} has {squares} squares, expected 4")]
    RankWidth {
        /// The rank's number (4 to 1).
        rank: usize,
        /// The rank's text.
        text: String,
        /// How many squares it describes.
        squares: usize,
    },
    /// A rank holds a character that is no piece and no digit 1-4.
    #[error("board: rank {rank} {text:?}: {ch:?} is not a piece (PNBR, pnbr) or a digit 1-4")]
    BoardChar {
        /// The rank's number (4 to 1).
        rank: usize,
        /// The rank's text.
        text: String,
        /// The character.
        ch: char,
    },
    /// A side has two of one piece on the board.
    #[error("board: two {color} {kind}s ({first} and {second}); each side has one of each")]
    TwoOnBoard {
        /// The piece's colour (`white` or `black`).
        color: &'static str,
        /// The piece's kind (`pawn`, `knight`, ...).
        kind: &'static str,
        /// The square of the first one.
        first: Square,
        /// The square of the second one.
        second: Square,
    },
    /// The hand holds a character that is no piece.
    #[error("hand {text:?}: {ch:?} is not a piece (PNBR for White, pnbr for Black, or `-` for empty hands)")]
    HandChar {
        /// The hand field as given.
        text: String,
        /// The character.
        ch: char,
    },
    /// The hand is out of order or repeats a piece.
    #[error("hand {text:?}: {ch:?} is out of order or repeated (White's PNBR in that order, then Black's pnbr)")]
    HandOrder {
        /// The hand field as given.
        text: String,
        /// The piece letter out of place.
        ch: char,
    },
    /// A piece is both on the board and in hand.
    #[error("hand {text:?}: the {color} {kind} is both on the board ({square}) and in hand")]
    BothPlaces {
        /// The hand field as given.
        text: String,
        /// The piece's colour (`white` or `black`).
        color: &'static str,
        /// The piece's kind (`pawn`, `knight`, ...).
        kind: &'static str,
        /// Its square on the board.
        square: Square,
    },
    /// A piece is neither on the board nor in hand.
    #[error("hand {text:?}: the {color} {kind} is neither on the board nor in hand (the hand lists every piece not on the board)")]
    Nowhere {
        /// The hand field as given.
        text: String,
        /// The piece's colour (`white` or `black`).
        color: &'static str,
        /// The piece's kind (`pawn`, `knight`, ...).
        kind: &'static str,
    },
    /// The side field is not `w` or `b`.
    #[error("side {0:?}: expected `w` or `b`")]
    Side(String),
    /// The side to move already has four in a line; holds its name.
    #[error("{0} to move already has four in a line: the game ended before its turn")]
    MoverHasLine(&'static str),
}

/// Why a move cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is neither a drop nor a move.
    #[error("{0:?} is not a move (a drop `N@b2` or a move `b1c3`)")]
    Syntax(String),
    /// The game is already over.
    #[error("{text:?}: the game is over ({winner} has four in a line)")]
    GameOver {
        /// The move as given.
        text: String,
        /// The side that has four in a line.
        winner: &'static str,
    },
    /// The move is not legal here.
    #[error("{text:?}: {reason}")]
    Illegal {
        /// The move as given.
        text: String,
        /// Why it is illegal.
        reason: String,
    },
}

fn lower_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl Position {
    /// The start: empty board, every piece in hand, White to move.
    pub const START: Position = Position { at: [[HAND; 4]; 2], occ: [0; 2], turn: Color::White };

    /// The side to move.
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// Every occupied square.
    pub const fn occupied(&self) -> Bits {
        self.occ[0] | self.occ[1]
    }

    /// The squares of `c`'s pieces.
    pub const fn side(&self, c: Color) -> Bits {
        self.occ[c as usize]
    }

    /// Where a piece is, `None` when in hand.
    pub const fn square_of(&self, c: Color, k: Kind) -> Option<Square> {
        Square::from_bit(self.at[c as usize][k as usize] as u32)
    }

    /// The piece on a square.
    pub fn piece_at(&self, sq: Square) -> Option<(Color, Kind)> {
        [Color::White, Color::Black]
            .into_iter()
            .flat_map(|c| Kind::ALL.into_iter().map(move |k| (c, k)))
            .find(|&(c, k)| self.at[c as usize][k as usize] == sq.bit() as u8)
    }

    /// The side that has just moved, if it has four in a line (the game is over).
    pub const fn winner(&self) -> Option<Color> {
        let last = self.turn.other();
        if has_line(self.occ[last as usize]) {
            Some(last)
        } else {
            None
        }
    }

    /// A position from pieces (side, kind, square); pieces not listed are in hand.
    pub fn from_pieces(pieces: &[(Color, Kind, Square)], turn: Color) -> Position {
        let mut pos = Position { turn, ..Position::START };
        for &(c, k, s) in pieces {
            pos.put(c, k, s);
        }
        pos
    }

    #[inline(always)]
    pub(crate) fn put(&mut self, c: Color, k: Kind, s: Square) {
        self.at[c as usize][k as usize] = s.bit() as u8;
        self.occ[c as usize] |= s.bb();
    }

    /// Reads a position string.
    pub fn parse(text: &str) -> Result<Position, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 3 {
            return Err(PositionError::Fields(fields.len()));
        }
        let (board, hand, side) = (fields[0], fields[1], fields[2]);
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 4 {
            return Err(PositionError::RankCount(board.to_string(), ranks.len()));
        }
        let mut pos = Position::START;
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 4 - i;
            let mut file = 0usize;
            for ch in rank_text.chars() {
                if let Some(d) = ch.to_digit(10).filter(|d| (1..=4).contains(d)) {
                    file += d as usize;
                    continue;
                }
                let kind = Kind::from_letter(ch).ok_or_else(|| PositionError::BoardChar {
                    rank,
                    text: rank_text.to_string(),
                    ch,
                })?;
                let color = if ch.is_ascii_uppercase() { Color::White } else { Color::Black };
                if file < 4 {
                    let sq = Square::new(file as u8, rank as u8 - 1);
                    if let Some(first) = pos.square_of(color, kind) {
                        return Err(PositionError::TwoOnBoard {
                            color: lower_name(color),
                            kind: kind.name(),
                            first,
                            second: sq,
                        });
                    }
                    pos.put(color, kind, sq);
                }
                file += 1;
            }
            if file != 4 {
                return Err(PositionError::RankWidth { rank, text: rank_text.to_string(), squares: file });
            }
        }
        pos.read_hand(hand)?;
        pos.turn = match side {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return Err(PositionError::Side(side.to_string())),
        };
        if has_line(pos.occ[pos.turn as usize]) {
            return Err(PositionError::MoverHasLine(pos.turn.name()));
        }
        Ok(pos)
    }

    fn read_hand(&self, hand: &str) -> Result<(), PositionError> {
        let mut in_hand = [[false; 4]; 2];
        if hand != "-" {
            // Position in the order PNBRpnbr of the last piece read.
            let mut last: Option<usize> = None;
            for ch in hand.chars() {
                let kind = Kind::from_letter(ch)
                    .filter(|_| ch.is_ascii_alphabetic())
                    .ok_or_else(|| PositionError::HandChar { text: hand.to_string(), ch })?;
                let color = if ch.is_ascii_uppercase() { Color::White } else { Color::Black };
                let order = color as usize * 4 + kind as usize;
                if last.is_some_and(|l| order <= l) {
                    return Err(PositionError::HandOrder { text: hand.to_string(), ch });
                }
                last = Some(order);
                in_hand[color as usize][kind as usize] = true;
            }
        }
        for color in [Color::White, Color::Black] {
            for kind in Kind::ALL {
                let on_board = self.square_of(color, kind);
                let held = in_hand[color as usize][kind as usize];
                let (color, kind_name, text) = (lower_name(color), kind.name(), hand.to_string());
                match (on_board, held) {
                    (Some(square), true) => {
                        return Err(PositionError::BothPlaces { text, color, kind: kind_name, square })
                    }
                    (None, false) => return Err(PositionError::Nowhere { text, color, kind: kind_name }),
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// The hand field: `PNBR` then `pnbr` of the pieces in hand, or `-`.
    pub fn hand_text(&self) -> String {
        let mut s = String::new();
        for color in [Color::White, Color::Black] {
            for kind in Kind::ALL {
                if self.square_of(color, kind).is_none() {
                    let l = kind.letter();
                    s.push(if color == Color::White { l } else { l.to_ascii_lowercase() });
                }
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }

    /// The letter on a square (`P` .. `r`), if any.
    pub fn letter_at(&self, sq: Square) -> Option<char> {
        self.piece_at(sq).map(|(c, k)| if c == Color::White { k.letter() } else { k.letter().to_ascii_lowercase() })
    }

    /// Why `mv` (well formed) is not legal here, or `None` if it is legal.
    pub fn illegal_reason(&self, mv: Move) -> Option<String> {
        if self.legal_moves().contains(&mv) {
            return None;
        }
        let us = self.turn;
        let kind = mv.kind();
        let to = mv.to();
        let target = self.piece_at(to);
        let describe = |(c, k): (Color, Kind)| format!("{} {}", lower_name(c), k.name());
        Some(match mv.from() {
            None => match (self.square_of(us, kind), target) {
                (Some(at), _) => format!("the {} {} is not in hand (it is on {at})", lower_name(us), kind.name()),
                (None, Some(p)) => format!("drop onto an occupied square ({to} holds a {})", describe(p)),
                (None, None) => "not legal here".to_string(),
            },
            Some(from) => match self.piece_at(from) {
                None => format!("no piece on {from}"),
                Some((c, _)) if c != us => {
                    format!("{from} holds a {} piece, and {} is to move", lower_name(c), us.name())
                }
                Some((_, Kind::Pawn)) if from.rank() == if us == Color::White { 3 } else { 0 } => {
                    "a pawn on its last rank cannot move".to_string()
                }
                Some((_, k)) => match target {
                    Some((c, _)) if c == us => format!("{to} holds a piece of the side to move"),
                    _ => {
                        let open = match k {
                            Kind::Rook => super::magics::rook_attacks(from, 0),
                            Kind::Bishop => super::magics::bishop_attacks(from, 0),
                            _ => 0,
                        };
                        let forward = super::board::pawn_step(us, from.bb());
                        if open & to.bb() != 0 {
                            format!("the {}'s path from {from} to {to} is blocked", k.name())
                        } else if k == Kind::Pawn && forward == to.bb() {
                            "a pawn steps only onto an empty square".to_string()
                        } else if k == Kind::Pawn && super::board::pawn_captures(us, from.bb()) & to.bb() != 0 {
                            "a pawn moves diagonally only to capture".to_string()
                        } else {
                            format!("a {} on {from} cannot go to {to}", k.name())
                        }
                    }
                },
            },
        })
    }

    /// Reads a move in our notation (`N@b2` with the letter in either case,
    /// `b1c3`, `b1-c3`, `b1xc3`, `Nb1c3`) and checks it is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let mv = self.read_move_text(text).ok_or_else(|| MoveError::Syntax(text.to_string()))?;
        if let Some(winner) = self.winner() {
            return Err(MoveError::GameOver { text: text.to_string(), winner: winner.name() });
        }
        match self.illegal_reason(mv) {
            None => Ok(mv),
            Some(reason) => Err(MoveError::Illegal { text: text.to_string(), reason }),
        }
    }

    /// The move a text means on this board, legal or not; `None` if it is
    /// not well formed (or names a move from an empty square).
    pub fn read_move_text(&self, text: &str) -> Option<Move> {
        let t = text.trim();
        if let Some((piece, sq)) = t.split_once('@') {
            let mut chars = piece.chars();
            let kind = Kind::from_letter(chars.next()?)?;
            if chars.next().is_some() {
                return None;
            }
            return Some(Move::drop(kind, Square::parse(sq)?));
        }
        let mut rest = t;
        let mut letter = None;
        if let Some(c) = rest.chars().next().filter(|c| c.is_ascii_uppercase()) {
            if let Some(k) = Kind::from_letter(c) {
                letter = Some(k);
                rest = &rest[1..];
            }
        }
        let from = Square::parse(rest.get(..2)?)?;
        let rest = &rest[2..];
        let rest = rest.strip_prefix(['-', 'x']).unwrap_or(rest);
        let to = Square::parse(rest)?;
        let kind = match self.piece_at(from) {
            Some((_, k)) => k,
            None => letter.unwrap_or(Kind::Pawn),
        };
        if letter.is_some_and(|l| l != kind) {
            return None;
        }
        Some(Move::step(kind, from, to))
    }

    /// Plays moves given as text one after the other; the error names the
    /// move's number and text.
    pub fn play_texts<'a>(&self, moves: impl IntoIterator<Item = &'a str>) -> Result<Position, (usize, MoveError)> {
        let mut pos = *self;
        for (i, text) in moves.into_iter().enumerate() {
            let mv = pos.parse_move(text).map_err(|e| (i + 1, e))?;
            pos = pos.play(mv);
        }
        Ok(pos)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..4).rev() {
            let mut empty = 0;
            for file in 0..4 {
                match self.letter_at(Square::new(file, rank)) {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{c}")?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                write!(f, "/")?;
            }
        }
        let side = if self.turn == Color::White { 'w' } else { 'b' };
        write!(f, " {} {side}", self.hand_text())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}
