//! The game the engine counts in, set up from its options: standard chess
//! and Chess960 on the fast path (with its hash table and threads), every
//! other variant through the variant generator. Behind one object-safe
//! trait, so that the protocol loop holds one value whatever the game.

use crate::chess::Chess;
use crate::rules::Rules;
use crate::variants::hunt::iccs::MoveNotation;
use crate::variants::hunt::VariantRules;
use crate::variants::variant::{builtin, user_ini};
use std::sync::Arc;

/// What the options say about the game (UCI_Variant, VariantPath,
/// UCI_Chess960, Threads, Hash, and the protocol's notation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// The variant's name (`chess` for standard chess and Chess960).
    pub variant: String,
    /// A variants.ini file (Fairy-Stockfish's VariantPath); empty: none.
    pub variant_path: String,
    /// UCI_Chess960: castling written king-takes-rook, X-FEN read as Chess960.
    pub chess960: bool,
    /// Worker threads, 0 for every core.
    pub threads: usize,
    /// The hash table in MiB (chess only), 0 for none.
    pub hash_mb: usize,
    /// Moves and positions in USI notation (a USI session).
    pub usi: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            variant: "chess".to_string(),
            variant_path: String::new(),
            chess960: false,
            threads: 0,
            hash_mb: 0,
            usi: false,
        }
    }
}

/// A game with its current position.
pub trait Game: Send {
    /// Sets the position: `startpos` or a FEN (SFEN for USI variants), then
    /// the moves. On an error the position is unset, so that no count of
    /// another position is given for it.
    fn set_position(&mut self, root: &str, moves: &[&str]) -> Result<(), String>;

    /// Plays one move from the current position.
    fn play(&mut self, text: &str) -> Result<(), String>;

    /// The divide of the current position (moves as this game's engines
    /// print them, sorted by their text).
    fn divide(&self, depth: u32) -> Result<Vec<(String, u64)>, String>;

    /// The current position as text (FEN, or SFEN in USI notation).
    fn position_text(&self) -> Result<String, String>;

    /// The deepest perft allowed.
    fn max_depth(&self) -> u32;
}

/// A `Rules` game and its position (`Err`: why there is none).
struct Played<R: Rules> {
    rules: R,
    pos: Result<R::Position, String>,
    pool: Option<Arc<rayon::ThreadPool>>,
}

impl<R: Rules> Played<R> {
    fn new(rules: R, pool: Option<Arc<rayon::ThreadPool>>) -> Played<R> {
        let pos = rules.parse_position("startpos").map_err(|e| format!("no start position: {e}"));
        Played { rules, pos, pool }
    }

    fn resolve(&self, root: &str, moves: &[&str]) -> Result<R::Position, String> {
        let mut pos = self.rules.parse_position(root).map_err(|e| format!("bad position {root:?}: {e}"))?;
        for (i, text) in moves.iter().enumerate() {
            let mv = self.rules.read_move(&pos, text).map_err(|e| format!("move {} {text:?}: {e}", i + 1))?;
            pos = self.rules.play(&pos, mv);
        }
        Ok(pos)
    }
}

impl<R: Rules> Game for Played<R>
where
    R::Position: Send,
{
    fn set_position(&mut self, root: &str, moves: &[&str]) -> Result<(), String> {
        let pos = self.resolve(root, moves);
        let result = pos.as_ref().map(|_| ()).map_err(Clone::clone);
        self.pos = pos.map_err(|e| format!("no position (the last one was refused: {e})"));
        result
    }

    fn play(&mut self, text: &str) -> Result<(), String> {
        let pos = self.pos.as_ref().map_err(Clone::clone)?;
        let mv = self.rules.read_move(pos, text).map_err(|e| e.to_string())?;
        self.pos = Ok(self.rules.play(pos, mv));
        Ok(())
    }

    fn divide(&self, depth: u32) -> Result<Vec<(String, u64)>, String> {
        let pos = self.pos.as_ref().map_err(Clone::clone)?;
        if depth > self.rules.max_depth() {
            return Err(format!("depth {depth} is more than {}", self.rules.max_depth()));
        }
        if depth == 0 {
            return Ok(Vec::new());
        }
        let count = || self.rules.divide(pos, depth);
        let counts = match &self.pool {
            Some(pool) => pool.install(count),
            None => count(),
        };
        let mut lines: Vec<(String, u64)> =
            counts.into_iter().map(|(m, n)| (self.rules.move_text(pos, m), n)).collect();
        lines.sort();
        Ok(lines)
    }

    fn position_text(&self) -> Result<String, String> {
        self.pos.as_ref().map(|p| self.rules.position_text(p)).map_err(Clone::clone)
    }

    fn max_depth(&self) -> u32 {
        self.rules.max_depth()
    }
}

/// Whether `name` is standard chess, counted on the fast path.
pub fn is_chess(name: &str) -> bool {
    name.eq_ignore_ascii_case("chess")
}

/// The game that `settings` describe, at its start position.
pub fn build(settings: &Settings) -> Result<Box<dyn Game>, String> {
    if is_chess(&settings.variant) {
        let chess = Chess::new()
            .chess960(settings.chess960)
            .with_hash(settings.hash_mb)
            .map_err(|e| format!("Hash {}: {e}", settings.hash_mb))?
            .with_threads(settings.threads)
            .map_err(|e| format!("Threads {}: {e}", settings.threads))?;
        return Ok(Box::new(Played::new(chess, None)));
    }
    let name = settings.variant.as_str();
    let path = settings.variant_path.as_str();
    let variant = if path.is_empty() {
        builtin::load(name).map_err(|e| e.to_string())?
    } else {
        user_ini::load_with_builtins(path, name).map_err(|e| e.to_string())?
    };
    let notation = if settings.usi { MoveNotation::Usi } else { MoveNotation::Fairy };
    let rules = VariantRules::new(variant, path).with_notation(notation);
    let pool = match settings.threads {
        0 => None,
        n => Some(Arc::new(
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| format!("Threads {n}: cannot start the thread pool: {e}"))?,
        )),
    };
    Ok(Box::new(Played::new(rules, pool)))
}

/// The names `UCI_Variant` offers: the built-ins, then those of the
/// VariantPath file (`path` empty: none) that are not built-ins.
pub fn variant_names(path: &str) -> Result<Vec<String>, String> {
    let mut names = builtin::file().names();
    if !path.is_empty() {
        let text = crate::input::Input::open(std::path::Path::new(path))
            .and_then(|i| i.text(crate::input::VARIANTS_INI))
            .map_err(|e| format!("{}: {}", crate::input::quote(path), e.reason()))?;
        let file = user_ini::parse(path, &text).map_err(|e| e.to_string())?;
        for name in file.names() {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    Ok(names)
}
