//! Regions: sets of cells of one board, as Fairy-Stockfish's region keys
//! name them (`*8` a rank, `a*` a file, `d4` a square).

use crate::variants::board::Geometry;

/// A set of cells of one board (indexed by mailbox cell).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Region(pub Vec<bool>);

impl Region {
    /// Is the cell in the region?
    #[inline]
    pub fn has(&self, cell: usize) -> bool {
        self.0.get(cell).copied().unwrap_or(false)
    }

    /// Is the region empty?
    pub fn is_empty(&self) -> bool {
        !self.0.iter().any(|&b| b)
    }

    /// Every cell of these 0-based ranks.
    pub fn ranks(g: &Geometry, ranks: &[u8]) -> Region {
        let mut cells = vec![false; g.cells];
        for sq in g.squares() {
            cells[sq] = ranks.contains(&g.coords(sq).1);
        }
        Region(cells)
    }

    /// Reads Fairy-Stockfish's region text: `*8` (a rank), `a*` (a file),
    /// `d4` (a square), separated by spaces; `-` is empty.
    pub fn parse(g: &Geometry, text: &str) -> Result<Region, String> {
        let mut cells = vec![false; g.cells];
        for symbol in text.split_whitespace() {
            if symbol == "-" {
                break;
            }
            let bad = || format!("{symbol:?} is not a rank (*8), file (a*) or square (d4) of this board");
            if let Some(rank) = symbol.strip_prefix('*') {
                let r: u8 = rank.parse().ok().filter(|r| (1..=g.height).contains(r)).ok_or_else(bad)?;
                for f in 0..g.width {
                    cells[g.cell(f, r - 1)] = true;
                }
            } else if let Some(file) = symbol.strip_suffix('*') {
                let f = file.bytes().next().filter(|_| file.len() == 1).ok_or_else(bad)?;
                let f = f.to_ascii_lowercase().wrapping_sub(b'a');
                if f >= g.width {
                    return Err(bad());
                }
                for r in 0..g.height {
                    cells[g.cell(f, r)] = true;
                }
            } else {
                cells[g.parse_square(symbol).ok_or_else(bad)?] = true;
            }
        }
        Ok(Region(cells))
    }
}
