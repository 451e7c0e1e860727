//! The magic file format (`magic-search --format json`) and its independent
//! check. The check shares nothing with the search: it enumerates each mask's
//! subsets with its own loop, computes every index from the file's numbers
//! with its own formula, takes the attack sets from the library's reference
//! ray walker, and fills one table of `table_entries` slots for all entries.

use crate::attacks::reference;
use crate::board::{Bitboard, Square};
use crate::input::quote as clip;
use serde::{Deserialize, Serialize};

/// A whole magic file: every entry shares one table of `table_entries` slots.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MagicFile {
    /// A name for the table's layout.
    pub layout: String,
    /// The size of the shared table, in slots.
    pub table_entries: u64,
    /// One entry per slider and square.
    pub magics: Vec<MagicEntry>,
}

/// One square's numbers. The index of occupancy `occ` is
/// `offset + (((occ & mask) * magic) >> shift)`, or with `black`,
/// `offset + (((occ | !mask) * magic) >> shift)` (wrapping multiply).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MagicEntry {
    /// `rook` or `bishop`.
    pub piece: String,
    /// The square's name (`e4`).
    pub square: String,
    /// The relevant occupancy mask, in hex.
    pub mask: String,
    /// The multiplier, in hex.
    pub magic: String,
    /// The right shift of the product.
    pub shift: u32,
    /// Where the square's slots start in the shared table.
    pub offset: u64,
    /// Whether it is the black form.
    pub black: bool,
}

/// Formats a 64-bit value as the file writes it.
pub fn hex(v: u64) -> String {
    format!("{v:#018x}")
}

/// The file cannot be checked at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// Not JSON of a magic file.
    #[error("malformed magic file: {0}")]
    Json(String),
    /// A field of an entry that cannot be read.
    #[error("entry {index}: bad {field} {value:?}")]
    Field {
        /// The entry, counted from 0.
        index: usize,
        /// The field's name.
        field: &'static str,
        /// Its text.
        value: String,
    },
    /// A table larger than the checker holds.
    #[error("table_entries {0} is larger than the checker's limit of {LIMIT} slots")]
    TooLarge(u64),
}

const LIMIT: u64 = 1 << 26;

/// One check that failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Two occupancies land on one slot with different attack sets.
    Collision {
        /// The slot.
        slot: u64,
        /// The first occupancy: piece, square, occupancy, attacks.
        first: (String, String, u64, u64),
        /// The second, alike.
        second: (String, String, u64, u64),
    },
    /// An index falls outside the table.
    OutOfRange {
        /// `rook` or `bishop`.
        piece: String,
        /// The square's name.
        square: String,
        /// The occupancy.
        occupancy: u64,
        /// The index it gives.
        index: u64,
    },
    /// The mask misses squares whose occupancy changes the attacks.
    MaskTooSmall {
        /// `rook` or `bishop`.
        piece: String,
        /// The square's name.
        square: String,
        /// The squares missing from the mask.
        missing: u64,
    },
    /// The mask holds squares outside the relevant-occupancy mask (the check
    /// walks every subset of the mask, so the mask must be exactly that one).
    MaskTooLarge {
        /// `rook` or `bishop`.
        piece: String,
        /// The square's name.
        square: String,
        /// The squares too many.
        extra: u64,
    },
    /// A piece and square given twice, or one of the expected ones missing.
    Duplicate {
        /// `rook` or `bishop`.
        piece: String,
        /// The square's name.
        square: String,
    },
    /// An expected piece and square without an entry.
    Missing {
        /// `rook` or `bishop`.
        piece: String,
        /// The square's name.
        square: String,
    },
    /// A shift of 64 or more.
    BadShift {
        /// `rook` or `bishop`.
        piece: String,
        /// The square's name.
        square: String,
        /// The shift.
        shift: u32,
    },
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::Collision { slot, first, second } => write!(
                f,
                "collision at slot {slot}: {} {} occupancy {} (attacks {}) and {} {} occupancy {} (attacks {})",
                first.0,
                first.1,
                hex(first.2),
                hex(first.3),
                second.0,
                second.1,
                hex(second.2),
                hex(second.3)
            ),
            Problem::OutOfRange { piece, square, occupancy, index } => {
                write!(f, "{piece} {square}: occupancy {} has index {index}, outside the table", hex(*occupancy))
            }
            Problem::MaskTooSmall { piece, square, missing } => {
                write!(f, "{piece} {square}: mask misses relevant squares {}", hex(*missing))
            }
            Problem::MaskTooLarge { piece, square, extra } => {
                write!(f, "{piece} {square}: mask holds squares {} outside the relevant-occupancy mask", hex(*extra))
            }
            Problem::Duplicate { piece, square } => write!(f, "{piece} {square} given twice"),
            Problem::Missing { piece, square } => write!(f, "{piece} {square} missing"),
            Problem::BadShift { piece, square, shift } => {
                write!(f, "{piece} {square}: shift {shift} is not below 64")
            }
        }
    }
}

/// The outcome of a check.
#[derive(Clone, Debug, Default)]
pub struct Verification {
    /// Entries checked.
    pub entries: usize,
    /// Occupancies checked.
    pub occupancies: u64,
    /// Slots holding at least one attack set.
    pub slots_used: u64,
    /// Every problem found, up to `MAX_REPORTED`; `problem_count` counts all.
    pub problems: Vec<Problem>,
    /// Every problem found.
    pub problem_count: u64,
}

/// At most this many problems are kept (all are counted).
pub const MAX_REPORTED: usize = 10_000;

impl Verification {
    /// Whether no problem was found.
    pub fn ok(&self) -> bool {
        self.problem_count == 0
    }

    fn report(&mut self, p: Problem) {
        self.problem_count += 1;
        if self.problems.len() < MAX_REPORTED {
            self.problems.push(p);
        }
    }
}

/// Reads a magic file (JSON).
pub fn parse(text: &str) -> Result<MagicFile, FileError> {
    serde_json::from_str(text).map_err(|e| FileError::Json(e.to_string()))
}

fn parse_hex(index: usize, field: &'static str, value: &str) -> Result<u64, FileError> {
    let digits = value.strip_prefix("0x").or_else(|| value.strip_prefix("0X"));
    digits.and_then(|d| u64::from_str_radix(d, 16).ok()).ok_or_else(|| FileError::Field {
        index,
        field,
        value: clip(value),
    })
}

/// Checks every entry of `file` for every subset of its mask. `expect_both`
/// also reports any rook or bishop square that the file lacks.
pub fn verify(file: &MagicFile, expect_both: bool) -> Result<Verification, FileError> {
    verify_pieces(file, if expect_both { &["rook", "bishop"] } else { &[] })
}

/// As [`verify`], reporting every square of the `expected` pieces (`rook`,
/// `bishop`) that the file lacks: a file that is to be complete.
pub fn verify_pieces(file: &MagicFile, expected: &[&str]) -> Result<Verification, FileError> {
    let squares: Vec<(&str, Square)> =
        expected.iter().flat_map(|&piece| Square::ALL.iter().map(move |&sq| (piece, sq))).collect();
    verify_squares(file, &squares)
}

/// As [`verify`], reporting every expected piece and square that the file lacks.
pub fn verify_squares(file: &MagicFile, expected: &[(&str, Square)]) -> Result<Verification, FileError> {
    if file.table_entries > LIMIT {
        return Err(FileError::TooLarge(file.table_entries));
    }
    struct Parsed {
        piece: String,
        square: Square,
        mask: u64,
        magic: u64,
        shift: u32,
        offset: u64,
        black: bool,
        rook: bool,
    }
    let mut parsed = Vec::with_capacity(file.magics.len());
    for (index, e) in file.magics.iter().enumerate() {
        let rook = match e.piece.as_str() {
            "rook" => true,
            "bishop" => false,
            _ => return Err(FileError::Field { index, field: "piece", value: clip(&e.piece) }),
        };
        let square = Square::parse(&e.square).ok_or_else(|| FileError::Field {
            index,
            field: "square",
            value: clip(&e.square),
        })?;
        parsed.push(Parsed {
            piece: e.piece.clone(),
            square,
            mask: parse_hex(index, "mask", &e.mask)?,
            magic: parse_hex(index, "magic", &e.magic)?,
            shift: e.shift,
            offset: e.offset,
            black: e.black,
            rook,
        });
    }
    let mut v = Verification { entries: parsed.len(), ..Verification::default() };
    let mut seen = [[false; 64]; 2];
    for p in &parsed {
        let slot = &mut seen[usize::from(!p.rook)][p.square.index()];
        if *slot {
            v.report(Problem::Duplicate { piece: p.piece.clone(), square: p.square.to_string() });
        }
        *slot = true;
    }
    for &(piece, sq) in expected {
        if !seen[usize::from(piece != "rook")][sq.index()] {
            v.report(Problem::Missing { piece: piece.to_string(), square: sq.to_string() });
        }
    }
    // slot -> (entry number, occupancy, attacks); entry u32::MAX = empty.
    let mut table: Vec<(u32, u64, u64)> = vec![(u32::MAX, 0, 0); file.table_entries as usize];
    for (n, p) in parsed.iter().enumerate() {
        let relevant = if p.rook { reference::rook_mask(p.square).0 } else { reference::bishop_mask(p.square).0 };
        if relevant & !p.mask != 0 {
            v.report(Problem::MaskTooSmall {
                piece: p.piece.clone(),
                square: p.square.to_string(),
                missing: relevant & !p.mask,
            });
            continue;
        }
        // Only the relevant mask's subsets are walked: at most 2^12 of them.
        if p.mask & !relevant != 0 {
            v.report(Problem::MaskTooLarge {
                piece: p.piece.clone(),
                square: p.square.to_string(),
                extra: p.mask & !relevant,
            });
            continue;
        }
        if p.shift >= 64 {
            v.report(Problem::BadShift { piece: p.piece.clone(), square: p.square.to_string(), shift: p.shift });
            continue;
        }
        // Every subset of the mask, by walking a counter through its bits.
        let bits: Vec<u32> = (0..64).filter(|b| p.mask >> b & 1 == 1).collect();
        debug_assert!(bits.len() <= 12);
        for counter in 0u64..(1u64 << bits.len()) {
            let mut occ = 0u64;
            for (i, b) in bits.iter().enumerate() {
                if counter >> i & 1 == 1 {
                    occ |= 1 << b;
                }
            }
            let attacks = if p.rook {
                reference::rook_attacks(p.square, Bitboard(occ)).0
            } else {
                reference::bishop_attacks(p.square, Bitboard(occ)).0
            };
            let key = if p.black { occ | !p.mask } else { occ };
            let index = p.offset.checked_add(key.wrapping_mul(p.magic) >> p.shift);
            v.occupancies += 1;
            let index = match index {
                Some(i) if i < file.table_entries => i,
                _ => {
                    v.report(Problem::OutOfRange {
                        piece: p.piece.clone(),
                        square: p.square.to_string(),
                        occupancy: occ,
                        index: index.unwrap_or(u64::MAX),
                    });
                    continue;
                }
            };
            let slot = &mut table[index as usize];
            if slot.0 == u32::MAX {
                *slot = (n as u32, occ, attacks);
                v.slots_used += 1;
            } else if slot.2 != attacks {
                let first = &parsed[slot.0 as usize];
                let first = (first.piece.clone(), first.square.to_string(), slot.1, slot.2);
                v.report(Problem::Collision {
                    slot: index,
                    first,
                    second: (p.piece.clone(), p.square.to_string(), occ, attacks),
                });
            }
        }
    }
    Ok(v)
}

/// Rust source for a magic file: an array of entries and the table size, in
/// the form `crate::attacks::magic` could build its table from.
pub fn to_rust(file: &MagicFile) -> Result<String, FileError> {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "//! Magic numbers written by `chesstool magic-search` (layout {}).", file.layout);
    let _ = writeln!(out, "//! Index of occupancy `occ`: `offset + (((occ & mask) * magic) >> shift)`, or for a");
    let _ = writeln!(out, "//! black entry `offset + (((occ | !mask) * magic) >> shift)` (wrapping multiply).");
    let _ = writeln!(out, "//! All entries share one table of `TABLE_ENTRIES` slots.");
    let _ = writeln!(out);
    let _ = writeln!(out, "/// One square's numbers.");
    let _ = writeln!(out, "#[derive(Copy, Clone, Debug)]");
    let _ = writeln!(out, "pub struct MagicEntry {{");
    let _ = writeln!(out, "    pub mask: u64,");
    let _ = writeln!(out, "    pub magic: u64,");
    let _ = writeln!(out, "    pub shift: u32,");
    let _ = writeln!(out, "    pub offset: usize,");
    let _ = writeln!(out, "    pub black: bool,");
    let _ = writeln!(out, "}}");
    let _ = writeln!(out);
    let _ = writeln!(out, "pub const TABLE_ENTRIES: usize = {};", file.table_entries);
    for (piece, name) in [("rook", "ROOK"), ("bishop", "BISHOP")] {
        let entries: Vec<&MagicEntry> = file.magics.iter().filter(|e| e.piece == piece).collect();
        if entries.is_empty() {
            continue;
        }
        let mut by_square: Vec<Option<&MagicEntry>> = vec![None; 64];
        for (index, e) in file.magics.iter().enumerate().filter(|(_, e)| e.piece == piece) {
            let sq = Square::parse(&e.square).ok_or_else(|| FileError::Field {
                index,
                field: "square",
                value: e.square.clone(),
            })?;
            by_square[sq.index()] = Some(e);
        }
        let _ = writeln!(out);
        if by_square.iter().all(Option::is_some) {
            let _ = writeln!(out, "pub const {name}_MAGICS: [MagicEntry; 64] = [");
        } else {
            let _ = writeln!(out, "/// Only the squares searched; `None` for the others.");
            let _ = writeln!(out, "pub const {name}_MAGICS: [Option<MagicEntry>; 64] = [");
        }
        let complete = by_square.iter().all(Option::is_some);
        for (sq, e) in by_square.iter().enumerate() {
            match e {
                Some(e) => {
                    let body = format!(
                        "MagicEntry {{ mask: {}, magic: {}, shift: {}, offset: {}, black: {} }}",
                        e.mask, e.magic, e.shift, e.offset, e.black
                    );
                    let body = if complete { body } else { format!("Some({body})") };
                    let _ = writeln!(out, "    /* {} */ {body},", Square::new(sq as u8));
                }
                None => {
                    let _ = writeln!(out, "    /* {} */ None,", Square::new(sq as u8));
                }
            }
        }
        let _ = writeln!(out, "];");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::magic::{BISHOP_MAGIC_ENTRIES, ROOK_MAGIC_ENTRIES};

    /// The library's own magics, as a file.
    fn library_file() -> MagicFile {
        let mut magics = Vec::new();
        let rook_size = 102_400;
        for (piece, entries, base) in [("rook", &ROOK_MAGIC_ENTRIES, 0), ("bishop", &BISHOP_MAGIC_ENTRIES, rook_size)] {
            for (sq, e) in entries.iter().enumerate() {
                magics.push(MagicEntry {
                    piece: piece.into(),
                    square: Square::new(sq as u8).to_string(),
                    mask: hex(e.mask),
                    magic: hex(e.magic),
                    shift: e.shift,
                    offset: (base + e.offset) as u64,
                    black: false,
                });
            }
        }
        MagicFile { layout: "fancy".into(), table_entries: 107_648, magics }
    }

    #[test]
    fn the_librarys_magics_pass() {
        let v = verify(&library_file(), true).unwrap();
        assert!(v.ok(), "{:?}", &v.problems[..v.problems.len().min(3)]);
        assert_eq!(v.occupancies, 107_648);
    }

    #[test]
    fn a_broken_magic_is_caught() {
        let mut file = library_file();
        file.magics[0].magic = hex(0x1234);
        let v = verify(&file, true).unwrap();
        assert!(!v.ok());
        assert!(matches!(v.problems[0], Problem::Collision { .. }));
        let mut file = library_file();
        file.magics[5].offset = 102_400 - 10;
        assert!(!verify(&file, true).unwrap().ok());
        let mut file = library_file();
        file.magics.pop();
        let v = verify(&file, true).unwrap();
        assert!(matches!(v.problems[0], Problem::Missing { .. }));
    }

    #[test]
    fn a_mask_beyond_the_relevant_squares_is_caught() {
        for mask in [0x7fff_ffff_ffff_ffff, u64::MAX, 0x0101_0101_0101_01fe | 1 << 63] {
            let mut file = library_file();
            file.magics[0].mask = hex(mask);
            let v = verify(&file, true).unwrap();
            assert!(matches!(v.problems[0], Problem::MaskTooLarge { .. }), "{:?}", v.problems);
        }
    }

    #[test]
    fn malformed_files_are_errors() {
        assert!(matches!(parse("{"), Err(FileError::Json(_))));
        let mut file = library_file();
        file.magics[3].magic = "12".into();
        assert!(matches!(verify(&file, true), Err(FileError::Field { field: "magic", .. })));
    }

    #[test]
    fn rust_output_lists_every_square() {
        let text = to_rust(&library_file()).unwrap();
        assert!(text.contains("pub const ROOK_MAGICS: [MagicEntry; 64]"));
        assert_eq!(text.matches("MagicEntry { mask").count(), 128);
    }
}
