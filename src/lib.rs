//! chesstool: exact legal move generation and perft for chess, Chess960,
//! Fairy-Stockfish variants and TicTacChess, and the tools to verify another
//! engine's move generator against it: divide, the comparison of two
//! divides, and the bisection ("the hunt") down to the first position whose
//! move list is wrong.
//!
//! The library never prints and never exits: the command-line front end
//! lives in the binary crate (`src/main.rs` and `src/cli/`).
//!
//! # Parse a FEN and list the legal moves
//!
//! ```
//! use chesstool::Position;
//!
//! let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")?;
//! let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_uci(false)).collect();
//! assert_eq!(moves.len(), 26); // 5 king moves, 2 castlings, 19 rook moves
//! assert!(moves.contains(&"e1g1".to_string()) && moves.contains(&"e1c1".to_string()));
//! assert_eq!(pos.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Perft and divide
//!
//! [`perft::perft`] counts the leaves of the move tree (the numbers of the
//! Chess Programming Wiki's "Perft Results" page); [`perft::divide`] gives
//! them per root move, as `go perft` prints them. [`perft::perft_fast_parallel`]
//! is the fast path on every core (with an optional [`perft::HashTable`]).
//!
//! ```
//! use chesstool::perft::{divide, perft, perft_fast_parallel};
//! use chesstool::Position;
//!
//! let start = Position::startpos();
//! assert_eq!(perft(&start, 4), 197_281);
//! let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
//! assert_eq!(perft_fast_parallel(&Position::from_fen(kiwipete)?, 3, None), 97_862);
//!
//! let per_move = divide(&start, 3);
//! assert_eq!(per_move.len(), 20);
//! let e2e4 = per_move.iter().find(|(m, _)| m.to_uci(false) == "e2e4").unwrap();
//! assert_eq!(e2e4.1, 600);
//! assert_eq!(per_move.iter().map(|(_, n)| n).sum::<u64>(), 8_902);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Hunt a bug in your own generator
//!
//! The hunt knows a game only through [`rules::Rules`] ([`chess::Chess`],
//! [`variants::hunt::VariantRules`], [`tictacchess::rules::TicTacChess`])
//! and an engine only through [`engines::Divider`]. Anything that can
//! divide is an engine: a UCI program, a perftree script, a saved divide, or
//! your own generator called from Rust, as here. A
//! [`verify::bisect::Checker`] compares it with a reference and descends to
//! the first position whose move list is wrong: the witness.
//!
//! ```
//! use chesstool::chess::Chess;
//! use chesstool::engines::{Builtin, Divide, Divider, EngineError, Line};
//! use chesstool::rules::Rules;
//! use chesstool::verify::bisect::Checker;
//! use chesstool::Position;
//! use std::sync::Arc;
//!
//! /// The generator under test: it never captures en passant.
//! struct NoEnPassant;
//!
//! fn count(pos: &Position, depth: u32) -> u64 {
//!     let moves = pos.legal_moves();
//!     let moves = moves.iter().filter(|m| !m.is_en_passant());
//!     if depth == 1 { moves.count() as u64 } else { moves.map(|&m| count(&pos.play(m), depth - 1)).sum() }
//! }
//!
//! impl Divider<Chess> for NoEnPassant {
//!     fn name(&self) -> String {
//!         "no-ep".to_string()
//!     }
//!     fn divide(&mut self, line: &Line<Chess>, depth: u32) -> Result<Divide, EngineError> {
//!         let pos = line.position(&Chess::new());
//!         let mut divide = Divide::default();
//!         for m in pos.legal_moves().iter().filter(|m| !m.is_en_passant()) {
//!             let n = if depth == 1 { 1 } else { count(&pos.play(*m), depth - 1) };
//!             divide.moves.push((m.to_uci(false), n));
//!         }
//!         Ok(divide)
//!     }
//! }
//!
//! let chess = Arc::new(Chess::new());
//! // Black's pawn d4 may take e.p. after c2c4 or e2e4.
//! let root = chess.parse_position("rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")?;
//! let mut engine = NoEnPassant;
//! let mut reference = Builtin::new(Arc::clone(&chess));
//! let mut checker = Checker::new(&*chess, &mut engine, &mut reference);
//! let report = checker.check(&Line::new(root), 2, true)?;
//! let witness = report.witness.expect("the engine is wrong");
//! let path = witness.line.move_texts(&*chess);
//! assert!(path == ["c2c4"] || path == ["e2e4"], "{path:?}");
//! assert_eq!(witness.diff.missing.len(), 1);
//! let hint = witness.diff.missing[0].hint.as_deref().unwrap_or_default();
//! assert!(hint.starts_with("en passant capture of the pawn on"), "{hint}");
//! assert!(witness.diff.extra.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! An engine that speaks UCI (`go perft N`) is driven the same way through
//! [`engines::UciEngine`] (and a perftree-style script through
//! [`engines::ScriptEngine`]); each call is bounded in time and output, and
//! the engine is killed when it overruns.
//!
//! ```no_run
//! use chesstool::chess::Chess;
//! use chesstool::engines::{Builtin, DivideFormat, Line, UciEngine};
//! use chesstool::rules::Rules;
//! use chesstool::verify::bisect::Checker;
//! use std::sync::Arc;
//! use std::time::Duration;
//!
//! let chess = Arc::new(Chess::new());
//! let words = vec!["/usr/games/stockfish".to_string()];
//! let timeout = Duration::from_secs(60);
//! let mut engine = UciEngine::new(Arc::clone(&chess), "stockfish", words, timeout, DivideFormat::Auto);
//! let mut reference = Builtin::new(Arc::clone(&chess));
//! let root = chess.parse_position("startpos")?;
//! let report = Checker::new(&*chess, &mut engine, &mut reference).check(&Line::new(root), 5, true)?;
//! assert!(report.witness.is_none(), "Stockfish agrees with us");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Perft of a variant
//!
//! A variant is read from Fairy-Stockfish's `variants.ini` format (pieces in
//! Betza notation, boards up to 16x16) and served through the same
//! [`rules::Rules`] trait.
//!
//! ```
//! use chesstool::rules::Rules;
//! use chesstool::variants::variant::user_ini;
//! use chesstool::variants::hunt::VariantRules;
//!
//! let ini = "[archbishops]\nmaxFile = 10\nmaxRank = 8\nking = k\nrook = r\nknight = n\n\
//!            customPiece1 = a:BN\nstartFen = rna1k2anr/10/10/10/10/10/10/RNA1K2ANR w - - 0 1\n";
//! let variant = user_ini::parse("variants.ini", ini)?.variant("archbishops")?;
//! let rules = VariantRules::new(variant, "variants.ini");
//! let start = rules.parse_position("startpos")?;
//! // Fairy-Stockfish (build 251126: `go perft 3`, this file as VariantPath) counts 117770.
//! assert_eq!(rules.perft(&start, 3), 117_770);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Draw a position
//!
//! Every game gives a [`rules::BoardView`]: files, ranks, the piece letter on
//! each square, the side to move, the hands, and the squares a hint may name
//! (the king in check, its checkers, pinned pieces, the e.p. square). The
//! binary draws witnesses from it (`divide --bisect --svg FILE`).
//!
//! ```
//! use chesstool::chess::Chess;
//! use chesstool::rules::{Rules, SquareMark};
//!
//! let chess = Chess::new();
//! let pos = chess.parse_position("4k3/8/8/8/1b6/8/3N4/4K2r w - - 0 1")?;
//! let view = chess.board_view(&pos).expect("chess can be drawn");
//! let e1 = view.parse_square("e1").unwrap();
//! assert_eq!(view.squares[e1], Some('K'));
//! assert_eq!(view.marks_of(e1), [SquareMark::Check]);
//! assert_eq!(view.marks_of(view.parse_square("d2").unwrap()), [SquareMark::Pinned]);
//! let mv = chess.move_squares(&pos, "e1f2").unwrap();
//! assert_eq!((mv.from, mv.to), (Some(e1), view.parse_square("f2").unwrap()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Where things are
//!
//! From the bottom layer up: [`board`] (squares, bitboards, pieces, moves),
//! [`attacks`], [`position`] (FEN, make move), [`movegen`], [`perft`],
//! [`tools`] (butterfly boards, magic numbers) and [`rules`]; the games
//! [`chess`], [`variants`], [`tictacchess`] and the opening [`book`]; the
//! hunt: [`engines`] and [`verify`]; and [`serve`], our generator as an
//! engine that others drive.
//!

#![warn(missing_docs)]

pub mod attacks;
pub mod board;
pub mod book;
pub mod chess;
pub mod engines;
pub mod input;
pub mod movegen;
pub mod perft;
pub mod position;
pub mod rules;
pub mod serve;
pub mod tictacchess;
pub mod tools;
pub mod variants;
pub mod verify;

pub use board::{Bitboard, ByColor, Color, File, Piece, Rank, Role, Square};
pub use movegen::{Move, MoveList};
pub use position::Position;
