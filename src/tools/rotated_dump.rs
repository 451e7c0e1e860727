//! A dump of the four occupancy boards FUSc# keeps, in the layout of the
//! paper's appendix 6.1, and for one square the byte patterns and attack sets
//! the rotated tables give, checked against the magic lookup and the
//! reference ray walker.

use crate::attacks::rotated::{RotatedBoards, Rotation};
use crate::attacks::{magic, reference};
use crate::board::{Bitboard, Square};
use std::fmt::Write;

/// The names of one board row as the appendix prints it: eight square names,
/// with `|` where the board edge splits the byte. `row` 0 is the top row
/// (byte 7).
pub fn row_tokens(rotation: Rotation, row: u8) -> Vec<String> {
    let byte = 7 - row;
    let mut tokens = Vec::with_capacity(9);
    for col in 0..8 {
        tokens.push(rotation.square(byte * 8 + col).to_string());
        if rotation.edge_after(byte) == Some(col) {
            tokens.push("|".to_string());
        }
    }
    tokens
}

/// The same row with `1` for an occupied square and `0` for an empty one.
fn row_bits(boards: &RotatedBoards, rotation: Rotation, row: u8) -> Vec<&'static str> {
    let byte = 7 - row;
    let value = boards.board(rotation);
    let mut tokens = Vec::with_capacity(9);
    for col in 0..8 {
        let bit = byte * 8 + col;
        tokens.push(if value >> bit & 1 != 0 { "1" } else { "0" });
        if rotation.edge_after(byte) == Some(col) {
            tokens.push("|");
        }
    }
    tokens
}

/// All four boards: for each, a title line with its value in hex, then eight
/// rows of square names in the appendix's order, the same row as bits
/// (`1` occupied), and the row's byte value.
pub fn dump_boards(boards: &RotatedBoards) -> String {
    let mut out = String::new();
    for (i, rotation) in Rotation::ALL.into_iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let _ = writeln!(out, "{} = {:#018x}", rotation.name(), boards.board(rotation));
        for row in 0..8 {
            let names = row_tokens(rotation, row).join(" ");
            let bits = row_bits(boards, rotation, row).join(" ");
            let byte = (boards.board(rotation) >> (8 * (7 - row))) as u8;
            let _ = writeln!(out, "{names:<26}  {bits:<17}  byte {} = {byte:#04x}", 7 - row);
        }
    }
    out
}

/// One piece's attack set from the three implementations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttackCheck {
    /// The piece (`rook`, `bishop`, `queen`).
    pub piece: &'static str,
    /// The attacks read from the rotated boards.
    pub rotated: Bitboard,
    /// The attacks from the magic tables.
    pub magic: Bitboard,
    /// The attacks walked by the reference.
    pub reference: Bitboard,
}

impl AttackCheck {
    /// Whether the three agree.
    pub fn agrees(&self) -> bool {
        self.rotated == self.magic && self.magic == self.reference
    }
}

/// The line byte that one rotated board gives for a square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// The board.
    pub rotation: Rotation,
    /// The line's name: rank, file, a1h8 or a8h1 diagonal.
    pub line: &'static str,
    /// Which byte of the board holds it.
    pub byte: u8,
    /// The byte's value.
    pub value: u8,
    /// The squares the byte's bits stand for, bit 0 first, with `|` at an edge.
    pub squares: Vec<String>,
}

/// What the rotated boards give for a slider on one square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareReport {
    /// The square.
    pub square: Square,
    /// The byte of each rotated board.
    pub patterns: Vec<Pattern>,
    /// Each slider's attacks from the three implementations.
    pub attacks: Vec<AttackCheck>,
}

impl SquareReport {
    /// The report of `square` on the occupancy `boards`.
    pub fn new(boards: &RotatedBoards, square: Square) -> SquareReport {
        let occupied = boards.occupied();
        let patterns = Rotation::ALL
            .into_iter()
            .map(|rotation| {
                let byte = rotation.bit(square) >> 3;
                Pattern {
                    rotation,
                    line: match rotation {
                        Rotation::Normal => "rank",
                        Rotation::L90 => "file",
                        Rotation::A1h8 => "a1h8 diagonal",
                        Rotation::A8h1 => "a8h1 diagonal",
                    },
                    byte,
                    value: boards.pattern(rotation, square),
                    squares: row_tokens(rotation, 7 - byte),
                }
            })
            .collect();
        let rook = AttackCheck {
            piece: "rook",
            rotated: boards.rook_attacks(square),
            magic: magic::rook_attacks_magic(square, occupied),
            reference: reference::rook_attacks(square, occupied),
        };
        let bishop = AttackCheck {
            piece: "bishop",
            rotated: boards.bishop_attacks(square),
            magic: magic::bishop_attacks_magic(square, occupied),
            reference: reference::bishop_attacks(square, occupied),
        };
        let queen = AttackCheck {
            piece: "queen",
            rotated: boards.queen_attacks(square),
            magic: rook.magic | bishop.magic,
            reference: reference::queen_attacks(square, occupied),
        };
        SquareReport { square, patterns, attacks: vec![rook, bishop, queen] }
    }

    /// Every piece's three attack sets agree.
    pub fn agrees(&self) -> bool {
        self.attacks.iter().all(AttackCheck::agrees)
    }

    /// The report as text.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "square {}", self.square);
        for p in &self.patterns {
            let _ = writeln!(
                out,
                "{:<13} {:<6} byte {}  {:#04x}  bit 0 first: {}  squares: {}",
                p.line,
                p.rotation.name(),
                p.byte,
                p.value,
                (0..8).map(|b| if p.value >> b & 1 != 0 { '1' } else { '0' }).collect::<String>(),
                p.squares.join(" ")
            );
        }
        for a in &self.attacks {
            let verdict = if a.agrees() { "agree" } else { "DISAGREE" };
            let _ = writeln!(
                out,
                "{:<6} rotated {:#018x}  magic {:#018x}  reference {:#018x}  {verdict}",
                a.piece, a.rotated.0, a.magic.0, a.reference.0
            );
        }
        for a in &self.attacks {
            let squares: Vec<String> = a.rotated.into_iter().map(|s| s.to_string()).collect();
            let _ = writeln!(out, "{:<6} attacks {}", a.piece, squares.join(" "));
        }
        out
    }

    /// The report as JSON.
    pub fn to_json(&self) -> serde_json::Value {
        let patterns: Vec<_> = self
            .patterns
            .iter()
            .map(|p| {
                serde_json::json!({
                    "board": p.rotation.name(),
                    "line": p.line,
                    "byte": p.byte,
                    "value": p.value,
                    "squares": p.squares,
                })
            })
            .collect();
        let attacks: Vec<_> = self
            .attacks
            .iter()
            .map(|a| {
                serde_json::json!({
                    "piece": a.piece,
                    "rotated": hex(a.rotated.0),
                    "magic": hex(a.magic.0),
                    "reference": hex(a.reference.0),
                    "agree": a.agrees(),
                })
            })
            .collect();
        serde_json::json!({
            "square": self.square.to_string(),
            "patterns": patterns,
            "attacks": attacks,
            "agree": self.agrees(),
        })
    }
}

fn hex(v: u64) -> String {
    format!("{v:#018x}")
}

/// The four boards as JSON: each board's value, rows (appendix order, names
/// and `|`) and occupied squares.
pub fn boards_json(boards: &RotatedBoards) -> serde_json::Value {
    let mut out = serde_json::Map::new();
    for rotation in Rotation::ALL {
        let rows: Vec<Vec<String>> = (0..8).map(|row| row_tokens(rotation, row)).collect();
        let occupied: Vec<String> = (0..64)
            .filter(|bit| boards.board(rotation) >> bit & 1 != 0)
            .map(|bit| rotation.square(bit).to_string())
            .collect();
        out.insert(
            rotation.name().to_string(),
            serde_json::json!({
                "value": hex(boards.board(rotation)),
                "rows": rows,
                "occupied_by_bit": occupied,
            }),
        );
    }
    serde_json::Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_have_the_appendix_edges() {
        assert_eq!(row_tokens(Rotation::A1h8, 0).join(" "), "a8 | b1 c2 d3 e4 f5 g6 h7");
        assert_eq!(row_tokens(Rotation::A8h1, 7).join(" "), "a1 | b8 c7 d6 e5 f4 g3 h2");
        assert_eq!(row_tokens(Rotation::L90, 7).join(" "), "h8 h7 h6 h5 h4 h3 h2 h1");
    }

    #[test]
    fn every_square_agrees_on_random_boards() {
        let mut x = 0x1234_5678_9abc_def1u64;
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let boards = RotatedBoards::from_occupied(Bitboard(x & x.rotate_left(17)));
            for sq in Square::ALL {
                assert!(SquareReport::new(&boards, sq).agrees());
            }
        }
    }
}
