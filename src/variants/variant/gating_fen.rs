//! The castling field of a Seirawan-gating variant, as Fairy-Stockfish
//! reads and writes it: `K` and `Q` are castling rights that also make the
//! king's and that rook's squares gates; other file letters (`BCDFG`) are
//! gates of the pieces standing there (`KQBCDFGkqbcdfg`).

use super::definition::Variant;
use crate::variants::board::{cell_side, Position, Side, BLACK, EMPTY, NO_SQUARE, OFF, WHITE};

impl Variant {
    /// The back rank of `side`, where its gates are.
    fn gate_rank(&self, side: Side) -> u8 {
        if side == WHITE {
            0
        } else {
            self.geometry.height - 1
        }
    }

    /// Does the hand of `side` feed gates (pieces in it, or captures that
    /// may fill it)? Fairy-Stockfish writes gates only then.
    fn gates_live(&self, pos: &Position, side: Side) -> bool {
        self.tables.laws.drops.as_ref().is_some_and(|d| d.captures_to_hand) || pos.hands[side].iter().any(|&n| n > 0)
    }

    /// A letter of the castling field other than `K`/`Q`: a gate on that
    /// file where a piece of its side stands (returns true), or, with the
    /// hand empty for good, a Chess960 castling right (returns false).
    pub(super) fn parse_gate_letter(&self, pos: &mut Position, ch: char) -> Result<bool, String> {
        let upper = ch.to_ascii_uppercase();
        if upper == 'K' || upper == 'Q' {
            return Ok(false);
        }
        let side = if ch.is_ascii_uppercase() { WHITE } else { BLACK };
        let g = &self.geometry;
        let file = upper as u8 - b'A';
        if !upper.is_ascii_uppercase() || file >= g.width {
            return Err(format!("'{ch}' is not K, Q or a file letter"));
        }
        let sq = g.cell(file, self.gate_rank(side));
        let v = pos.cells[sq];
        if !self.gates_live(pos, side) && self.tables.laws.castling.is_some() {
            return Ok(false);
        }
        // Fairy-Stockfish keeps gates only on occupied squares.
        if v != EMPTY && v != OFF && cell_side(v) == side {
            pos.gates[side] |= 1 << file;
        }
        Ok(true)
    }

    /// After the castling field: each castling right makes its king's and
    /// rook's squares gates; a gated king without rights castles with its
    /// gated rooks (Fairy-Stockfish's "castling rights for 960 gating").
    pub(super) fn castling_gates(&self, pos: &mut Position) {
        let g = self.geometry;
        for side in [WHITE, BLACK] {
            let king = self.tables.castling_king(pos, side);
            if king == NO_SQUARE {
                continue;
            }
            let (kf, kr) = g.coords(king as usize);
            if kr != self.gate_rank(side) {
                continue;
            }
            let rights = pos.castle[side];
            if rights.iter().any(|&r| r != NO_SQUARE) {
                pos.gates[side] |= 1 << kf;
                for r in rights.into_iter().filter(|&r| r != NO_SQUARE) {
                    pos.gates[side] |= 1 << g.coords(r as usize).0;
                }
            } else if pos.gates[side] >> kf & 1 == 1 && self.gates_live(pos, side) {
                for f in 0..g.width {
                    let sq = g.cell(f, kr);
                    if pos.gates[side] >> f & 1 == 1 && self.is_castling_rook(pos, sq, side) {
                        pos.castle[side][usize::from(sq < king as usize)] = sq as u16;
                    }
                }
            }
        }
    }

    /// The castling field: each side's `K`/`Q`, then its other gates.
    pub(super) fn gating_castling_text(&self, pos: &Position) -> String {
        let g = &self.geometry;
        let mut out = String::new();
        for (side, base) in [(WHITE, b'A'), (BLACK, b'a')] {
            let mut implied = 0u16;
            for (wing, letter) in [(0, b'K'), (1, b'Q')] {
                let rook = pos.castle[side][wing];
                if rook == NO_SQUARE {
                    continue;
                }
                out.push((letter + base - b'A') as char);
                implied |= 1 << g.coords(rook as usize).0;
                let king = self.tables.castling_king(pos, side);
                if king != NO_SQUARE {
                    implied |= 1 << g.coords(king as usize).0;
                }
            }
            if self.gates_live(pos, side) {
                let gates = pos.gates[side] & !implied;
                out.extend((0..g.width).filter(|f| gates >> f & 1 == 1).map(|f| (base + f) as char));
            }
        }
        out
    }
}
