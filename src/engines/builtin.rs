//! Our own generator as a `Divider`: the default reference.

use super::{Divide, Divider, EngineError, Line};
use crate::perft::{divide_fast, HashTable, TableTooLarge};
use std::sync::Arc;

/// Divides with chesstool's generator (the fast perft, root moves in
/// parallel), optionally with a shared hash table.
#[derive(Debug, Default, Clone)]
pub struct Builtin {
    table: Option<Arc<HashTable>>,
}

impl Builtin {
    /// Our generator with a hash table of `mb` MiB (0: none).
    pub fn with_hash(mb: usize) -> Result<Builtin, TableTooLarge> {
        Ok(Builtin { table: (mb > 0).then(|| HashTable::try_new(mb).map(Arc::new)).transpose()? })
    }
}

impl Divider for Builtin {
    fn name(&self) -> String {
        "builtin".to_string()
    }

    fn divide(&mut self, line: &Line, depth: u32) -> Result<Divide, EngineError> {
        let pos = line.position();
        let chess960 = line.chess960();
        if depth == 0 {
            return Ok(Divide { moves: Vec::new(), total: Some(1) });
        }
        let counts = divide_fast(&pos, depth, self.table.as_deref(), &|| {});
        let moves: Vec<(String, u64)> = counts.iter().map(|&(m, n)| (m.to_uci(chess960), n)).collect();
        let total = moves.iter().map(|(_, n)| n).sum();
        Ok(Divide { moves, total: Some(total) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    #[test]
    fn startpos_depth_3() {
        let d = Builtin::default().divide(&Line::new(Position::startpos()), 3).unwrap();
        assert_eq!(d.moves.len(), 20);
        assert_eq!(d.total, Some(8902));
        assert!(d.moves.contains(&("e2e4".to_string(), 600)));
    }
}
