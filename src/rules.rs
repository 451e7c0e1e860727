//! The small trait through which the hunt (`engines/`, `verify/`) serves
//! every game: standard chess and Chess960, Betza variants, TicTacChess. A
//! game implements it in its own room; the hunt knows games only through it,
//! and a game never copies the hunt.
//!
//! The hunt asks engines about a root position plus the moves played from
//! it, reads what they print by meaning (not by string), diffs that against
//! our own divide, and bisects. That needs exactly: positions as text both
//! ways, the legal moves, playing a move, a move as engines print it and as
//! they might print it, our divide, and optional words on why a move is
//! missing or extra.
//!
//! This trait is a contract between rooms: extend it with methods that have
//! default implementations; do not rename or remove.

use std::fmt::Debug;
use std::hash::Hash;

/// Why a printed move could not be read in a position. Only `Illegal` is an
/// engine's "extra" move; the other two are input errors (an unreadable
/// paste, an engine printing garbage).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadMoveError {
    /// Not a move in any notation this game knows.
    #[error("{0:?} is not a move in any notation we know")]
    Syntax(String),
    /// A move of this game's notation that lacks a part the game needs or
    /// names a square no move may use (a walling move without its wall
    /// square, a move onto a wall): the words say which.
    #[error("{0}")]
    Malformed(String),
    /// Well formed, but it matches several legal moves.
    #[error("{0:?} is ambiguous here")]
    Ambiguous(String),
    /// Well formed and unambiguous, but not legal here.
    #[error("{text:?} is not legal here")]
    Illegal {
        /// The move as printed.
        text: String,
        /// The move in our notation, where the text says it without the
        /// board (`e2e4` for `e2-e4`); `None` when it needs the board.
        canonical: Option<String>,
    },
}

/// A game, as the hunt sees it. Methods take `&self` so that one value can
/// carry a game's definition (a variant's pieces and board, the path of its
/// `variants.ini`).
pub trait Rules: Send + Sync {
    /// A position, small enough to clone at every step of a bisection.
    type Position: Clone + Debug + Send + Sync;
    /// A legal move of some position (not meaningful without it).
    type Move: Copy + Eq + Hash + Debug + Send + Sync;
    /// Why a position's text could not be read (names the field, rank or
    /// character at fault).
    type PositionError: std::error::Error + Send + Sync + 'static;

    /// The game's name for messages: `chess`, `tictacchess`, a variant's name.
    fn name(&self) -> String;

    /// The variant's name, for a game read from a variants.ini file: the
    /// `variant` key of the JSON documents. Chess and TicTacChess have none.
    fn variant(&self) -> Option<String> {
        None
    }

    /// Reads a position in the game's text form (FEN, X-FEN, Shredder-FEN,
    /// a TicTacChess position string, a variant's FEN).
    fn parse_position(&self, text: &str) -> Result<Self::Position, Self::PositionError>;

    /// Reads a position of a suite file as the game's reference engine reads
    /// it, with a note on what was read differently from
    /// [`Rules::parse_position`] (chess: an e.p. square that no double push
    /// explains is dropped, as Stockfish drops it). Suites from the wild hold
    /// such positions; arguments and pastes keep the strict reading.
    fn parse_suite_position(&self, text: &str) -> Result<(Self::Position, Option<String>), Self::PositionError> {
        self.parse_position(text).map(|pos| (pos, None))
    }

    /// The position in the text form that engines of this game read.
    fn position_text(&self, pos: &Self::Position) -> String;

    /// Every legal move, in the game's own documented order.
    fn legal_moves(&self, pos: &Self::Position) -> Vec<Self::Move>;

    /// The position after a legal move.
    fn play(&self, pos: &Self::Position, mv: Self::Move) -> Self::Position;

    /// The move as engines of this game print and read it: UCI (`e1g1`, or
    /// `e1h1` in Chess960), Fairy-Stockfish's notation for variants, `N@b2`
    /// or `b1c3` for TicTacChess.
    fn move_text(&self, pos: &Self::Position, mv: Self::Move) -> String;

    /// The legal move that `text` means, in any notation the game's engines
    /// use (for chess: UCI in any case, both castling forms, long algebraic,
    /// SAN).
    fn read_move(&self, pos: &Self::Position, text: &str) -> Result<Self::Move, ReadMoveError>;

    /// Our own divide: every legal move with the perft of `depth - 1` after
    /// it (`depth >= 1`), in the order of `legal_moves`.
    fn divide(&self, pos: &Self::Position, depth: u32) -> Vec<(Self::Move, u64)>;

    /// Our divide as `divide` gives it, calling `on_move` with each root
    /// move's count as soon as it is known (in any order, perhaps from
    /// several threads), so that a long divide can be shown as it goes.
    fn divide_each(
        &self,
        pos: &Self::Position,
        depth: u32,
        on_move: &(dyn Fn(Self::Move, u64) + Sync),
    ) -> Vec<(Self::Move, u64)> {
        let counts = self.divide(pos, depth);
        for &(mv, n) in &counts {
            on_move(mv, n);
        }
        counts
    }

    /// Our perft of `depth` (`perft(pos, 0) == 1`).
    fn perft(&self, pos: &Self::Position, depth: u32) -> u64 {
        if depth == 0 {
            1
        } else {
            self.divide(pos, depth).iter().map(|&(_, n)| n).sum()
        }
    }

    /// The deepest perft the game accepts anywhere (arguments, suite lines,
    /// bisection).
    fn max_depth(&self) -> u32;

    /// UCI options to set before asking an engine about lines from `root`
    /// (`UCI_Chess960`, `VariantPath`, `UCI_Variant`), as (name, value).
    /// An engine is sent an option when its value differs from the one last
    /// sent to it; a `false` never sent before is not sent (UCI check options
    /// start out false), so a standard game may return `UCI_Chess960 = false`
    /// to switch back after a Chess960 root without bothering other engines.
    fn uci_options(&self, _root: &Self::Position) -> Vec<(String, String)> {
        Vec::new()
    }

    /// A few words on a legal move that an engine left out (`en passant
    /// capture of the pawn on d5`, `promotion piece missing (knight)`), with
    /// the squares it names.
    fn missing_hint(&self, _pos: &Self::Position, _mv: Self::Move) -> Option<Hint> {
        None
    }

    /// A few words on why a printed move is not legal here (`castles through
    /// d8, attacked by the knight on c6`, `a hopper without a screen`), with
    /// the squares it names.
    fn extra_hint(&self, _pos: &Self::Position, _text: &str) -> Option<Hint> {
        None
    }

    /// The position as a picture draws it (board, pieces, side to move,
    /// hands, marked squares); `None` for a game that cannot be drawn.
    fn board_view(&self, _pos: &Self::Position) -> Option<BoardView> {
        None
    }

    /// The squares of a move printed as `text` (legal or not, so that an
    /// engine's extra move can be drawn too); `None` when unreadable.
    fn move_squares(&self, _pos: &Self::Position, _text: &str) -> Option<MoveSquares> {
        None
    }

    /// The argument of a USI engine's `position` command for `root`:
    /// `startpos`, `sfen ...` (or `fen ...` where SFEN cannot say it all);
    /// `None` for a game without a USI form (`--engine-usi` refuses it).
    fn usi_position(&self, _root: &Self::Position) -> Option<String> {
        None
    }

    /// The move in USI notation (`7g7f`, `P*5e`, `8h2b+`), as USI engines
    /// read it; `None` for a game without a USI form. `read_move` reads it.
    fn usi_move_text(&self, _pos: &Self::Position, _mv: Self::Move) -> Option<String> {
        None
    }

    /// The same position with the other side to move, where that is a
    /// valid position; `fuzz` uses it to recognise an engine that lists the
    /// other side's moves after `position ... moves`.
    fn with_other_side_to_move(&self, _pos: &Self::Position) -> Option<Self::Position> {
        None
    }

    /// How strongly a random walk (`chesstool fuzz`) prefers `mv` in `pos`,
    /// at least 1 (a plain move). A game raises the weight of its rare rules
    /// (chess: captures, checks, e.p., castling, promotions) so that walks
    /// reach the positions where move-generation bugs hide, usually as the
    /// [`RareMove::weight`] of the move's properties.
    fn walk_weight(&self, _pos: &Self::Position, _mv: Self::Move) -> u32 {
        1
    }

    /// Where an engine's own printing of `pos` (the `Fen:` line of
    /// Stockfish's `d`) disagrees with ours, one line per field; empty when
    /// they agree. `before` is the position and move that led here (`None`
    /// at a root), for fields that may be written more than one correct way.
    /// By default every whitespace-separated field must be equal.
    fn position_text_differences(
        &self,
        _before: Option<(&Self::Position, Self::Move)>,
        pos: &Self::Position,
        printed: &str,
    ) -> Vec<String> {
        field_differences(&self.position_text(pos), printed, &[])
    }
}

/// What makes a move rare, for the bias of `chesstool fuzz`'s random walks:
/// a game fills in the properties its rules have and answers
/// [`Rules::walk_weight`] with [`RareMove::weight`], so that every game is
/// biased by one table (docs/fuzz.md).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RareMove {
    /// It captures (e.p. and a leg's victims included).
    pub capture: bool,
    /// It captures en passant.
    pub en_passant: bool,
    /// A pawn's double (or triple) step next to an enemy pawn: it allows e.p.
    pub allows_en_passant: bool,
    /// It promotes to the main piece (a queen).
    pub promotion: bool,
    /// It promotes to any other piece.
    pub underpromotion: bool,
    /// It castles.
    pub castling: bool,
    /// It takes a castling right away (the king or a castling rook moves).
    pub loses_castling: bool,
    /// It captures a rook that may still castle (on top of the capture and
    /// the right taken away: the positions after it are where a kept right
    /// shows).
    pub takes_castling_rook: bool,
    /// It gives check.
    pub check: bool,
    /// A king move in check or next to attacked squares.
    pub king_near_check: bool,
    /// It ends the game by a rule of the game (a line of four, a flag
    /// reached, the last check given).
    pub ends_game: bool,
    /// It drops a piece from the hand.
    pub drop: bool,
    /// It captures a promoted piece, which goes to the hand demoted (or,
    /// by the variant, as it is): where `~` and `+` marks go wrong.
    pub captures_promoted: bool,
}

impl RareMove {
    /// The weight of a move with these properties: 1, plus each property's
    /// weight.
    pub fn weight(&self) -> u32 {
        let table = [
            (self.capture, 4),
            (self.en_passant, 20),
            (self.allows_en_passant, 15),
            (self.promotion, 10),
            (self.underpromotion, 15),
            (self.castling, 20),
            (self.loses_castling, 6),
            (self.takes_castling_rook, 30),
            (self.check, 6),
            (self.king_near_check, 5),
            (self.ends_game, 6),
            (self.drop, 2),
            (self.captures_promoted, 15),
        ];
        1 + table.iter().filter(|(has, _)| *has).map(|(_, w)| w).sum::<u32>()
    }
}

/// A position as a picture or a text diagram draws it: only what stands
/// where, none of the rules. Squares are numbered rank by rank from the
/// first rank, `rank * files + file` (`a1` is 0, `b1` is 1), and named as in
/// chess: files `a` to `p`, ranks from 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardView {
    /// Number of files (columns), 1 to 16.
    pub files: u8,
    /// Number of ranks (rows), 1 to 16.
    pub ranks: u8,
    /// What stands on each square: a piece letter, upper case for White and
    /// lower case for Black.
    pub squares: Vec<Option<char>>,
    /// True when White is to move.
    pub white_to_move: bool,
    /// Pieces in hand, White's then Black's (letters as on the board);
    /// `None` in a game without hands.
    pub hands: Option<[Vec<char>; 2]>,
    /// Squares worth pointing at, each with why.
    pub marks: Vec<(usize, SquareMark)>,
    /// The number the bottom rank is labelled with in pictures: 1, or 0
    /// for xiangqi's ICCS coordinates.
    pub first_rank: u8,
    /// Squares of a royal piece's region (Xiangqi's and Janggi's palaces):
    /// `+` when empty in diagrams, shaded with their diagonals in pictures.
    pub palace: Vec<usize>,
    /// The river, between this rank (from 0) and the next (Xiangqi: where
    /// the elephants' region ends).
    pub river: Option<u8>,
}

/// Why a square of a [`BoardView`] is marked: the first five by the
/// position itself, the others because a hint names the square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SquareMark {
    /// The king (royal piece) of the side to move, in check.
    Check,
    /// A piece giving that check.
    Checker,
    /// A piece of the side to move pinned to its king.
    Pinned,
    /// An enemy piece that pins it.
    Pinner,
    /// The en passant square.
    EnPassant,
    /// A piece that attacks the square a hint is about.
    Attacker,
    /// A square a hint says is attacked (castling through it, the king onto it).
    Attacked,
    /// A piece standing where a move must pass or land.
    InTheWay,
    /// An empty square a move needs occupied (a hopper's screen, a capture).
    Empty,
    /// A piece a move captures (or would).
    Captured,
    /// The rook a castling move takes along.
    CastlingRook,
    /// A stone a move turns over to the mover's side (Ataxx, Othello).
    Flipped,
}

impl SquareMark {
    /// Every mark, in the order a legend lists them.
    pub const ALL: [SquareMark; 12] = [
        SquareMark::Check,
        SquareMark::Checker,
        SquareMark::Pinned,
        SquareMark::Pinner,
        SquareMark::EnPassant,
        SquareMark::Attacker,
        SquareMark::Attacked,
        SquareMark::InTheWay,
        SquareMark::Empty,
        SquareMark::Captured,
        SquareMark::CastlingRook,
        SquareMark::Flipped,
    ];

    /// A few words for a legend (`king in check`).
    pub const fn name(self) -> &'static str {
        match self {
            SquareMark::Check => "king in check",
            SquareMark::Checker => "checking piece",
            SquareMark::Pinned => "pinned piece",
            SquareMark::Pinner => "pinning piece",
            SquareMark::EnPassant => "en passant square",
            SquareMark::Attacker => "attacking piece",
            SquareMark::Attacked => "attacked square",
            SquareMark::InTheWay => "in the way",
            SquareMark::Empty => "empty square",
            SquareMark::Captured => "captured piece",
            SquareMark::CastlingRook => "castling rook",
            SquareMark::Flipped => "flipped stone",
        }
    }
}

/// A hint on a move (why it is illegal, what kind of move it is) and the
/// squares it names, numbered as in [`BoardView`], for a picture to mark.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Hint {
    /// The words (`castles through d8, attacked by the knight on c6`).
    pub text: String,
    /// The squares the words name, each with what it is.
    pub marks: Vec<(usize, SquareMark)>,
}

impl Hint {
    /// A hint that names no square.
    pub fn new(text: impl Into<String>) -> Hint {
        Hint { text: text.into(), marks: Vec::new() }
    }

    /// The hint with one more marked square.
    pub fn mark(mut self, square: usize, mark: SquareMark) -> Hint {
        self.marks.push((square, mark));
        self
    }
}

impl BoardView {
    /// An empty board of `files` x `ranks`, White to move, no hands, no
    /// marks, no regions.
    pub fn empty(files: u8, ranks: u8) -> BoardView {
        let squares = vec![None; files as usize * ranks as usize];
        BoardView {
            files,
            ranks,
            squares,
            white_to_move: true,
            hands: None,
            marks: Vec::new(),
            first_rank: 1,
            palace: Vec::new(),
            river: None,
        }
    }

    /// The square number of (file, rank), both counted from 0.
    pub fn square(&self, file: u8, rank: u8) -> usize {
        rank as usize * self.files as usize + file as usize
    }

    /// (file, rank) of a square number, both counted from 0.
    pub fn coords(&self, square: usize) -> (u8, u8) {
        ((square % self.files as usize) as u8, (square / self.files as usize) as u8)
    }

    /// The name of a square: `a1`, `p16`.
    pub fn name(&self, square: usize) -> String {
        let (f, r) = self.coords(square);
        format!("{}{}", (b'a' + f) as char, r as u32 + 1)
    }

    /// The square a name such as `e4` or `p16` stands for on this board.
    pub fn parse_square(&self, text: &str) -> Option<usize> {
        let mut chars = text.chars();
        let file = chars.next()?.to_ascii_lowercase();
        let rank: u8 = chars.as_str().parse().ok()?;
        let f = (file as u32).checked_sub('a' as u32)? as u8;
        (file.is_ascii_lowercase() && f < self.files && (1..=self.ranks).contains(&rank))
            .then(|| self.square(f, rank - 1))
    }

    /// The marks of a square, in [`SquareMark::ALL`]'s order.
    pub fn marks_of(&self, square: usize) -> Vec<SquareMark> {
        let mut marks: Vec<SquareMark> = self.marks.iter().filter(|m| m.0 == square).map(|m| m.1).collect();
        marks.sort();
        marks.dedup();
        marks
    }
}

/// Where a move goes on a [`BoardView`]: from a square (or from hand, with
/// the letter of the piece dropped) to a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveSquares {
    /// The origin square; `None` for a drop.
    pub from: Option<usize>,
    /// The destination square.
    pub to: usize,
    /// For a drop: the piece's letter (upper case for White).
    pub drop: Option<char>,
}

/// The from and to squares of a move written `e2e4`, `e7e8q`, `b1-c3`,
/// `a9a10` or `e5e6,e6e7` (a move through legs: its first and last square)
/// on `view`'s board; a drop `N@b2` comes from the hand of the side to move.
/// What most games' engines print; `None` for anything else (SAN).
pub fn squares_of_text(view: &BoardView, text: &str) -> Option<MoveSquares> {
    let text = text.trim();
    if let Some((piece, to)) = text.split_once('@') {
        let letter = piece.chars().next()?;
        let letter = if view.white_to_move { letter.to_ascii_uppercase() } else { letter.to_ascii_lowercase() };
        return Some(MoveSquares { from: None, to: view.parse_square(to)?, drop: Some(letter) });
    }
    let chars: Vec<char> = text.chars().collect();
    let mut squares = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_alphabetic() {
            i += 1;
            continue;
        }
        let end = (i + 1..chars.len()).find(|&j| !chars[j].is_ascii_digit()).unwrap_or(chars.len());
        if end > i + 1 {
            squares.push(view.parse_square(&chars[i..end].iter().collect::<String>())?);
        }
        i = end.max(i + 1);
    }
    match squares[..] {
        [from, .., to] => Some(MoveSquares { from: Some(from), to, drop: None }),
        _ => None,
    }
}

/// The fields (whitespace-separated) where `printed` differs from `ours`,
/// as `NAME: engine X, ours Y`; a field is named by `names` where given,
/// else by its number.
pub fn field_differences(ours: &str, printed: &str, names: &[&str]) -> Vec<String> {
    let (a, b): (Vec<&str>, Vec<&str>) = (ours.split_whitespace().collect(), printed.split_whitespace().collect());
    let mut out = Vec::new();
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (a.get(i).copied().unwrap_or("(none)"), b.get(i).copied().unwrap_or("(none)"));
        if x != y {
            let name = names.get(i).map_or_else(|| format!("field {}", i + 1), |n| n.to_string());
            out.push(format!("{name}: engine {}, ours {}", clip(y), clip(x)));
        }
    }
    out
}

/// At most about 100 characters of `text`, control characters escaped, with
/// `...` when cut: what an error message of any game may quote of the
/// offending input (the one helper, [`crate::input::quote`]).
pub fn clip(text: &str) -> String {
    crate::input::quote(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rare_moves_weight_adds_up_its_properties() {
        assert_eq!(RareMove::default().weight(), 1);
        let rook_taken =
            RareMove { capture: true, loses_castling: true, takes_castling_rook: true, ..RareMove::default() };
        assert_eq!(rook_taken.weight(), 1 + 4 + 6 + 30);
        let ep = RareMove { capture: true, en_passant: true, check: true, ..RareMove::default() };
        assert_eq!(ep.weight(), 1 + 4 + 20 + 6);
    }
}
