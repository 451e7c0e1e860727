//! Our own generator as a `Divider`: the default reference.

use super::{Divide, Divider, EngineError, Line};
use crate::perft::perft;
use rayon::prelude::*;

/// Divides with chesstool's generator (root moves in parallel).
#[derive(Debug, Default, Clone, Copy)]
pub struct Builtin;

impl Divider for Builtin {
    fn name(&self) -> String {
        "builtin".to_string()
    }

    fn divide(&mut self, line: &Line, depth: u32) -> Result<Divide, EngineError> {
        let pos = line.position();
        let chess960 = line.chess960();
        let moves: Vec<(String, u64)> = pos
            .legal_moves()
            .as_slice()
            .par_iter()
            .map(|&m| (m.to_uci(chess960), if depth == 0 { 0 } else { perft(&pos.play(m), depth - 1) }))
            .collect();
        let total = if depth == 0 { 1 } else { moves.iter().map(|(_, n)| n).sum() };
        Ok(Divide { moves: if depth == 0 { Vec::new() } else { moves }, total: Some(total) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    #[test]
    fn startpos_depth_3() {
        let d = Builtin.divide(&Line::new(Position::startpos()), 3).unwrap();
        assert_eq!(d.moves.len(), 20);
        assert_eq!(d.total, Some(8902));
        assert!(d.moves.contains(&("e2e4".to_string(), 600)));
    }
}
