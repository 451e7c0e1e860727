//! Our own generator as a `Divider`: the default reference, for any game
//! (`Rules::divide`; chess runs it on the fast path with its hash table).

use super::{Divide, Divider, EngineError, Line};
use crate::rules::Rules;
use std::sync::Arc;

/// Divides with chesstool's generator for the game `R`.
pub struct Builtin<R: Rules> {
    rules: Arc<R>,
}

impl<R: Rules> Builtin<R> {
    /// The built-in generator for the game `rules`.
    pub fn new(rules: Arc<R>) -> Builtin<R> {
        Builtin { rules }
    }
}

impl<R: Rules> Divider<R> for Builtin<R> {
    fn name(&self) -> String {
        "builtin".to_string()
    }

    /// The game's fastest divide (for chess, root moves in parallel): what
    /// bisection uses.
    fn divide(&mut self, line: &Line<R>, depth: u32) -> Result<Divide, EngineError> {
        let pos = line.position(&self.rules);
        Ok(self.answer(&pos, depth, |rules| rules.divide(&pos, depth)))
    }

    /// Each root move's count as soon as it is known (for chess, root moves
    /// one after the other in UCI order, each subtree on every thread).
    fn divide_each(
        &mut self,
        line: &Line<R>,
        depth: u32,
        on_move: &(dyn Fn(&str, u64) + Sync),
    ) -> Result<Divide, EngineError> {
        let pos = line.position(&self.rules);
        Ok(self
            .answer(&pos, depth, |rules| rules.divide_each(&pos, depth, &|m, n| on_move(&rules.move_text(&pos, m), n))))
    }
}

impl<R: Rules> Builtin<R> {
    fn answer(&self, pos: &R::Position, depth: u32, divide: impl FnOnce(&R) -> Vec<(R::Move, u64)>) -> Divide {
        if depth == 0 {
            return Divide { total: Some(1), ..Divide::default() };
        }
        let moves: Vec<(String, u64)> =
            divide(&self.rules).into_iter().map(|(m, n)| (self.rules.move_text(pos, m), n)).collect();
        let total = moves.iter().fold(0u64, |acc, (_, n)| acc.saturating_add(*n));
        Divide { moves, total: Some(total), repeated: Vec::new() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Chess;
    use crate::Position;

    #[test]
    fn startpos_depth_3() {
        let mut builtin = Builtin::new(Arc::new(Chess::new()));
        let d = builtin.divide(&Line::new(Position::startpos()), 3).unwrap();
        assert_eq!(d.moves.len(), 20);
        assert_eq!(d.total, Some(8902));
        assert!(d.moves.contains(&("e2e4".to_string(), 600)));
    }
}
