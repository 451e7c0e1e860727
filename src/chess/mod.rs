//! Standard chess and Chess960 as the hunt sees them: `impl Rules for Chess`.
//! Positions are FEN (X-FEN and Shredder-FEN read, Shredder-FEN written for
//! Chess960), moves are UCI as engines print them, printed moves are read by
//! meaning in any notation (`notation`), wrong moves get hints (`hints`), and
//! our divide and perft run on the fast path (`perft::divide_fast` and
//! `perft_fast_parallel`, with an optional hash table and thread pool).

pub mod fuzz;
pub mod hints;
pub mod motifs;
pub mod notation;
pub mod view;

use crate::perft::{divide_fast, perft_fast_parallel, HashTable, TableTooLarge, MAX_DEPTH};
use crate::position::{FenError, PositionError};
use crate::rules::{squares_of_text, BoardView, Hint, MoveSquares, ReadMoveError, Rules};
use crate::{Move, Position};
use std::sync::Arc;

/// The rules of chess, with our generator's settings: forced Chess960, a
/// hash table shared by every divide and perft, the worker threads.
#[derive(Debug, Clone, Default)]
pub struct Chess {
    chess960: bool,
    table: Option<Arc<HashTable>>,
    pool: Option<Arc<rayon::ThreadPool>>,
}

impl Chess {
    /// The rules of standard chess (Chess960 recognised from the castling field), no hash table, rayon's global pool.
    pub fn new() -> Chess {
        Chess::default()
    }

    /// Treats every position read as Chess960 (`--chess960`); otherwise it is
    /// recognised from the castling field.
    pub fn chess960(mut self, chess960: bool) -> Chess {
        self.chess960 = chess960;
        self
    }

    /// Our divide and perft with a hash table of `mb` MiB (0: none).
    pub fn with_hash(mut self, mb: usize) -> Result<Chess, TableTooLarge> {
        self.table = (mb > 0).then(|| HashTable::try_new(mb).map(Arc::new)).transpose()?;
        Ok(self)
    }

    /// Our divide and perft on a pool of `threads` threads (0: rayon's
    /// global pool, one thread per core).
    pub fn with_threads(mut self, threads: usize) -> Result<Chess, rayon::ThreadPoolBuildError> {
        self.pool = match threads {
            0 => None,
            n => Some(Arc::new(rayon::ThreadPoolBuilder::new().num_threads(n).build()?)),
        };
        Ok(self)
    }

    /// The worker threads our divide and perft use.
    pub fn threads(&self) -> usize {
        self.pool.as_ref().map_or_else(rayon::current_num_threads, |p| p.current_num_threads())
    }

    fn install<T: Send>(&self, f: impl FnOnce() -> T + Send) -> T {
        match &self.pool {
            Some(pool) => pool.install(f),
            None => f(),
        }
    }
}

impl Rules for Chess {
    type Position = Position;
    type Move = Move;
    type PositionError = FenError;

    fn name(&self) -> String {
        "chess".to_string()
    }

    fn parse_position(&self, text: &str) -> Result<Position, FenError> {
        let mut pos = Position::from_fen(text)?;
        if self.chess960 {
            pos.set_chess960(true);
        }
        Ok(pos)
    }

    fn parse_suite_position(&self, text: &str) -> Result<(Position, Option<String>), FenError> {
        match self.parse_position(text) {
            Err(FenError::Position(PositionError::BadEnPassant { square, reason })) => {
                let mut fields: Vec<&str> = text.split_ascii_whitespace().collect();
                if let Some(ep) = fields.get_mut(3) {
                    *ep = "-";
                }
                let pos = self.parse_position(&fields.join(" "))?;
                let note = format!("e.p. square {square} dropped, as Stockfish drops it ({reason})");
                Ok((pos, Some(note)))
            }
            other => other.map(|pos| (pos, None)),
        }
    }

    fn position_text(&self, pos: &Position) -> String {
        pos.to_fen()
    }

    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        pos.legal_moves().as_slice().to_vec()
    }

    fn play(&self, pos: &Position, mv: Move) -> Position {
        pos.play(mv)
    }

    fn move_text(&self, pos: &Position, mv: Move) -> String {
        mv.to_uci(pos.is_chess960())
    }

    fn read_move(&self, pos: &Position, text: &str) -> Result<Move, ReadMoveError> {
        notation::read_move(pos, text)
    }

    fn divide(&self, pos: &Position, depth: u32) -> Vec<(Move, u64)> {
        self.install(|| divide_fast(pos, depth, self.table.as_deref(), &|| {}))
    }

    /// Root moves one after the other in UCI order (the order `divide`
    /// prints), each subtree split over every thread, so the first lines
    /// arrive early and in the order they are shown.
    fn divide_each(&self, pos: &Position, depth: u32, on_move: &(dyn Fn(Move, u64) + Sync)) -> Vec<(Move, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        let mut moves: Vec<(String, Move)> =
            pos.legal_moves().iter().map(|&m| (m.to_uci(pos.is_chess960()), m)).collect();
        moves.sort();
        self.install(|| {
            moves
                .into_iter()
                .map(|(_, m)| {
                    let n = perft_fast_parallel(&pos.play(m), depth - 1, self.table.as_deref());
                    on_move(m, n);
                    (m, n)
                })
                .collect()
        })
    }

    fn perft(&self, pos: &Position, depth: u32) -> u64 {
        self.install(|| perft_fast_parallel(pos, depth, self.table.as_deref()))
    }

    fn max_depth(&self) -> u32 {
        MAX_DEPTH
    }

    fn uci_options(&self, root: &Position) -> Vec<(String, String)> {
        vec![("UCI_Chess960".to_string(), root.is_chess960().to_string())]
    }

    fn missing_hint(&self, pos: &Position, mv: Move) -> Option<Hint> {
        Some(hints::describe_move(pos, mv))
    }

    fn extra_hint(&self, pos: &Position, text: &str) -> Option<Hint> {
        hints::explain_illegal(pos, text)
    }

    fn board_view(&self, pos: &Position) -> Option<BoardView> {
        Some(view::board_view(pos))
    }

    fn move_squares(&self, pos: &Position, text: &str) -> Option<MoveSquares> {
        let uci = notation::uci_form(text).or_else(|| self.read_move(pos, text).ok().map(|m| m.to_uci(false)))?;
        squares_of_text(&view::board_view(pos), &uci)
    }

    fn walk_weight(&self, pos: &Position, mv: Move) -> u32 {
        fuzz::walk_weight(pos, mv)
    }

    fn with_other_side_to_move(&self, pos: &Position) -> Option<Position> {
        fuzz::other_side_to_move(pos)
    }

    fn position_text_differences(
        &self,
        before: Option<(&Position, Move)>,
        pos: &Position,
        printed: &str,
    ) -> Vec<String> {
        fuzz::fen_differences(before, pos, printed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suite_drops_an_e_p_square_as_stockfish_does() {
        let fen = "4k3/8/8/8/8/8/8/4K3 w - e6 0 1";
        assert!(Chess::new().parse_position(fen).is_err());
        let (pos, note) = Chess::new().parse_suite_position(fen).unwrap();
        assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert!(note.unwrap().starts_with("e.p. square e6 dropped"));
        // One a double push explains stays, without a note.
        let kept = "4k3/8/8/4p3/8/8/8/4K3 w - e6 0 2";
        let (pos, note) = Chess::new().parse_suite_position(kept).unwrap();
        assert_eq!((pos.to_fen().as_str(), note), (kept, None));
        // Other faults stay errors.
        assert!(Chess::new().parse_suite_position("4k3/8/8/8/8/8/8/4K3 w - e9 0 1").is_err());
    }

    #[test]
    fn divide_each_reports_every_move_in_uci_order() {
        let chess = Chess::new().with_threads(2).unwrap();
        let pos = Position::startpos();
        let seen = std::sync::Mutex::new(Vec::new());
        let counts = chess.divide_each(&pos, 3, &|m, n| seen.lock().unwrap().push((m.to_uci(false), n)));
        let seen = seen.into_inner().unwrap();
        assert_eq!(seen.len(), 20);
        assert!(seen.windows(2).all(|w| w[0].0 < w[1].0), "{seen:?}");
        assert_eq!(counts.iter().map(|&(_, n)| n).sum::<u64>(), 8902);
        let mut fast = chess.divide(&pos, 3);
        fast.sort();
        let mut each = counts;
        each.sort();
        assert_eq!(fast, each);
        assert_eq!(chess.perft(&pos, 4), 197_281);
    }

    #[test]
    fn chess960_is_forced_or_recognised() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert!(!Chess::new().parse_position(fen).unwrap().is_chess960());
        let forced = Chess::new().chess960(true);
        let pos = forced.parse_position(fen).unwrap();
        assert!(pos.is_chess960());
        assert_eq!(forced.uci_options(&pos), [("UCI_Chess960".to_string(), "true".to_string())]);
        let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let pos = forced.parse_position(kiwi).unwrap();
        assert_eq!(forced.move_text(&pos, forced.read_move(&pos, "O-O").unwrap()), "e1h1");
    }
}
