//! FEN, X-FEN and Shredder-FEN: parsing (with one error per field, naming the
//! offending text) and writing.

use super::validate::PositionError;
use super::{back_rank, castling_files, is_kingside, Position};
use crate::board::{Bitboard, Color, File, Piece, Rank, Role, Square};

/// The FEN of the standard start position.
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A FEN that cannot be read: one variant per field, with the offending text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseFenError {
    /// The FEN is empty.
    #[error("empty FEN")]
    Empty,
    /// The board field has the wrong number of ranks.
    #[error("board field has {0} rank{s}, expected 8", s = if *.0 == 1 { "" } else { "s" })]
    RankCount(usize),
    /// A rank with more or fewer than 8 squares.
    #[error("rank {rank} has {squares} square{s}, expected 8", s = if *squares == 1 { "" } else { "s" })]
    RankLength {
        /// The rank's number, 1 to 8.
        rank: u8,
        /// The squares it has.
        squares: usize,
    },
    /// A letter that is not a piece.
    #[error("rank {rank}: {letter:?} is not a piece of chess")]
    BadPiece {
        /// The rank's number, 1 to 8.
        rank: u8,
        /// The letter.
        letter: char,
    },
    /// No side-to-move field.
    #[error("missing side to move (expected 'w' or 'b' after the board)")]
    MissingTurn,
    /// A side to move other than `w` or `b`.
    #[error("bad side to move {0:?}, expected 'w' or 'b'")]
    BadTurn(String),
    /// A castling field that is not `-`, KQkq, X-FEN or Shredder-FEN.
    #[error("castling field {0:?}: {fault}", fault = castling_fault(.0))]
    BadCastling(String),
    /// An empty count of 0 in a rank.
    #[error("rank {rank}: bad empty count \"0\"")]
    ZeroEmpty {
        /// The rank's number, 1 to 8.
        rank: u8,
    },
    /// A castling right without its rook.
    #[error("castling field {field:?}: right {right:?} has no {color} rook for it on the back rank")]
    CastlingWithoutRook {
        /// The castling field.
        field: String,
        /// The right at fault.
        right: char,
        /// `white` or `black`.
        color: &'static str,
    },
    /// A castling right without the king on its back rank.
    #[error("castling field {field:?}: right {right:?} given but the {color} king is not on its back rank")]
    CastlingWithoutKing {
        /// The castling field.
        field: String,
        /// The right at fault.
        right: char,
        /// `white` or `black`.
        color: &'static str,
    },
    /// A castling right given twice.
    #[error("castling field {field:?}: right {right:?} given twice")]
    CastlingTwice {
        /// The castling field.
        field: String,
        /// The right given twice.
        right: char,
    },
    /// An en passant field that is not `-` or a square.
    #[error("bad en passant field {0:?}, expected '-' or a square like e3")]
    BadEnPassant(String),
    /// A halfmove clock that is not a number.
    #[error("bad halfmove clock {0:?}, expected a number")]
    BadHalfmoves(String),
    /// A fullmove number that is not a positive number.
    #[error("bad fullmove number {0:?}, expected a positive number")]
    BadFullmoves(String),
    /// Text after the fullmove number.
    #[error("unexpected text after the fullmove number: {0:?}")]
    TrailingText(String),
}

/// Either the FEN is malformed or it describes an impossible position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is not a FEN.
    #[error("invalid FEN: {0}")]
    Parse(ParseFenError),
    /// The FEN describes an impossible position.
    #[error("illegal position: {0}")]
    Position(PositionError),
}

// Written out rather than `#[from]`, which would also make the inner error the
// `source` and print its message twice in an error chain.
impl From<ParseFenError> for FenError {
    fn from(e: ParseFenError) -> FenError {
        FenError::Parse(e)
    }
}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

/// What is wrong with a castling field that is not `-`, KQkq, X-FEN or
/// Shredder-FEN: its first character that is none of them, or its length.
fn castling_fault(field: &str) -> String {
    match field.chars().find(|c| !"KQkqABCDEFGHabcdefgh".contains(*c)) {
        Some(c) => format!("{c:?} is not K, Q or a file letter"),
        None if field.chars().count() > 4 => "more than four rights".to_string(),
        None => "not -, KQkq or file letters".to_string(),
    }
}

fn color_name(c: Color) -> &'static str {
    if c.is_white() {
        "white"
    } else {
        "black"
    }
}

impl Position {
    /// Parses FEN, X-FEN or Shredder-FEN (`startpos` is accepted too); the
    /// halfmove and fullmove fields are optional. Chess960 is recognised from
    /// the castling field: file letters, or K/Q/k/q whose king or rook is not
    /// on its standard square.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fen = fen.trim();
        if fen == "startpos" {
            return Position::from_fen(STARTPOS_FEN);
        }
        let mut fields = fen.split_ascii_whitespace();
        let board = fields.next().ok_or(ParseFenError::Empty)?;
        let mut pos = Position::empty();
        parse_board(&mut pos, board)?;
        pos.turn = match fields.next() {
            None => return Err(ParseFenError::MissingTurn.into()),
            Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(other) => return Err(ParseFenError::BadTurn(other.to_string()).into()),
        };
        // Piece counts and kings come before castling: the castling field
        // refers to the kings.
        super::validate::check_material(&pos)?;
        if let Some(castling) = fields.next() {
            parse_castling(&mut pos, castling)?;
        }
        if let Some(ep) = fields.next() {
            if ep != "-" {
                let sq = Square::parse(ep).ok_or_else(|| ParseFenError::BadEnPassant(ep.to_string()))?;
                pos.ep_square = Some(sq);
            }
        }
        if let Some(half) = fields.next() {
            pos.halfmoves = half.parse().map_err(|_| ParseFenError::BadHalfmoves(half.to_string()))?;
        }
        if let Some(full) = fields.next() {
            pos.fullmoves = match full.parse::<u32>() {
                Ok(0) => 1, // common in the wild; treated as 1 like most tools do
                Ok(n) => n,
                Err(_) => return Err(ParseFenError::BadFullmoves(full.to_string()).into()),
            };
        }
        if let Some(rest) = fields.next() {
            return Err(ParseFenError::TrailingText(rest.to_string()).into());
        }
        super::validate::check_position(&pos)?;
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// Writes FEN; in Chess960 the castling field is in Shredder-FEN (`HAha`).
    pub fn to_fen(&self) -> String {
        let mut out = String::with_capacity(90);
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match self.piece_at(Square::from_coords(file, *rank)) {
                    Some(p) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if *rank != Rank::First {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(self.turn.char());
        out.push(' ');
        let castling = self.castling_field();
        out.push_str(if castling.is_empty() { "-" } else { &castling });
        out.push(' ');
        match self.ep_square {
            Some(ep) => out.push_str(&ep.to_string()),
            None => out.push('-'),
        }
        out.push_str(&format!(" {} {}", self.halfmoves, self.fullmoves));
        out
    }

    fn castling_field(&self) -> String {
        let mut s = String::new();
        for color in Color::ALL {
            let king = self.king(color);
            let mut files: Vec<File> = castling_files(self, color).collect();
            files.sort_by(|a, b| b.cmp(a)); // king side first
            for file in files {
                let c = if self.chess960 {
                    file.upper_char()
                } else if file > king.file() {
                    'K'
                } else {
                    'Q'
                };
                s.push(if color.is_white() { c } else { c.to_ascii_lowercase() });
            }
        }
        s
    }
}

fn parse_board(pos: &mut Position, board: &str) -> Result<(), ParseFenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(ParseFenError::RankCount(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank_number = 8 - i as u8;
        let mut squares = 0usize;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(ParseFenError::ZeroEmpty { rank: rank_number });
                }
                squares += d as usize;
            } else {
                let piece = Piece::from_char(c).ok_or(ParseFenError::BadPiece { rank: rank_number, letter: c })?;
                if squares < 8 {
                    let sq = Square::from_coords(File::new(squares as u8), Rank::new(rank_number - 1));
                    pos.by_role[piece.role as usize] |= sq;
                    pos.by_color[piece.color] |= sq;
                }
                squares += 1;
            }
        }
        if squares != 8 {
            return Err(ParseFenError::RankLength { rank: rank_number, squares });
        }
    }
    Ok(())
}

fn parse_castling(pos: &mut Position, field: &str) -> Result<(), ParseFenError> {
    if field == "-" {
        return Ok(());
    }
    if field.is_empty() || field.len() > 4 {
        return Err(ParseFenError::BadCastling(field.to_string()));
    }
    let mut chess960 = false;
    for right in field.chars() {
        let color = if right.is_ascii_uppercase() { Color::White } else { Color::Black };
        let err_rook =
            || ParseFenError::CastlingWithoutRook { field: field.to_string(), right, color: color_name(color) };
        let king = pos.king(color);
        if !back_rank(color).contains(king) {
            return Err(ParseFenError::CastlingWithoutKing {
                field: field.to_string(),
                right,
                color: color_name(color),
            });
        }
        let rooks = pos.pieces(color, Role::Rook) & back_rank(color);
        let rook = match right.to_ascii_lowercase() {
            'k' => {
                let side: Bitboard = rooks.into_iter().filter(|&r| is_kingside(king, r)).collect();
                // X-FEN: the outermost rook on that side.
                let rook = side.into_iter().last().ok_or_else(err_rook)?;
                chess960 |= rook.file() != File::H;
                rook
            }
            'q' => {
                let side: Bitboard = rooks.into_iter().filter(|&r| !is_kingside(king, r)).collect();
                let rook = side.first().ok_or_else(err_rook)?;
                chess960 |= rook.file() != File::A;
                rook
            }
            c @ 'a'..='h' => {
                let file = File::from_char(c).expect("a..h is a file");
                let rook = Square::from_coords(file, king.rank());
                if !rooks.contains(rook) || rook == king {
                    return Err(err_rook());
                }
                chess960 = true;
                rook
            }
            _ => return Err(ParseFenError::BadCastling(field.to_string())),
        };
        chess960 |= king.file() != File::E;
        if pos.castling.contains(rook) {
            return Err(ParseFenError::CastlingTwice { field: field.to_string(), right });
        }
        pos.castling.add(rook);
    }
    // Two rights on one side of one king cannot both be used.
    for color in Color::ALL {
        let king = pos.king(color);
        let mine = pos.castling.rooks_of(color);
        let kingside = mine.into_iter().filter(|&r| is_kingside(king, r)).count();
        if kingside > 1 || mine.count() as usize - kingside > 1 {
            return Err(ParseFenError::BadCastling(field.to_string()));
        }
    }
    pos.chess960 = chess960;
    Ok(())
}

impl std::str::FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}
