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
    /// Well formed, but it matches several legal moves.
    #[error("{0:?} is ambiguous here")]
    Ambiguous(String),
    /// Well formed and unambiguous, but not legal here.
    #[error("{text:?} is not legal here")]
    Illegal {
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
    /// capture`, `promotion to a knight`).
    fn missing_hint(&self, _pos: &Self::Position, _mv: Self::Move) -> Option<String> {
        None
    }

    /// A few words on why a printed move is not legal here (`leaves the king
    /// in check`, `hopper without a screen`).
    fn extra_hint(&self, _pos: &Self::Position, _text: &str) -> Option<String> {
        None
    }
}

/// At most about 100 characters of `text`, control characters escaped, with
/// `...` when cut: what an error message of any game may quote of the
/// offending input (the one helper, [`crate::input::quote`]).
pub fn clip(text: &str) -> String {
    crate::input::quote(text)
}
