//! Janggi's palace lines and cannon (`diagonalLines`, `janggiCannon`, as
//! Fairy-Stockfish's `variant.h` and `piece.cpp` name them): a piece on a
//! cell of the diagonal lines also moves along them, each as its kind
//! does (the general and guards a step, soldiers a step forwards, chariots
//! slide, cannons hop), and the Janggi cannon may neither hop over nor
//! take a cannon.

use super::region::Region;
use std::collections::BTreeMap;

/// How a kind moves along the palace's diagonal lines (Fairy-Stockfish
/// picks it by piece type: wazir, soldier, rook, Janggi cannon).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Diagonal {
    /// One step (the general and guards: a wazir's `F`).
    Step,
    /// One step forwards (the soldier: `fF`).
    Forward,
    /// A slide (the chariot: `B`).
    Slide,
    /// A hop over one screen that is not a cannon (the cannon: `pB`).
    Hop,
}

/// The palace lines and the cannons bound by them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Palace {
    /// The cells of the diagonal lines (`diagonalLines`; empty: none).
    pub lines: Region,
    /// Per kind, how it moves along the lines (`None`: it does not).
    pub diagonal: Vec<Option<Diagonal>>,
    /// Kinds (a mask) that are Janggi cannons: a hop needs exactly one
    /// screen, never a cannon, and a cannon is never taken by one.
    pub cannons: u64,
}

impl Palace {
    /// How `kind` moves along the lines, if it does.
    #[inline]
    pub fn diagonal(&self, kind: usize) -> Option<Diagonal> {
        self.diagonal.get(kind).copied().flatten()
    }

    /// Is `kind` a Janggi cannon?
    #[inline]
    pub fn is_cannon(&self, kind: usize) -> bool {
        self.cannons >> kind & 1 == 1
    }
}

/// The palace rules from `diagonalLines` and the pieces' keys; `None`
/// without diagonal lines and Janggi cannons.
pub(super) fn from_keys(
    keys: &BTreeMap<String, (String, usize)>,
    g: &crate::variants::board::Geometry,
    kind_of: &dyn Fn(char) -> Option<usize>,
) -> Result<Option<Palace>, (Option<usize>, String)> {
    let letter = |k: &str| keys.get(k).and_then(|(v, _)| v.chars().next()).filter(|&c| c != '-').and_then(kind_of);
    let lines = match keys.get("diagonalLines") {
        Some((v, l)) => Region::parse(g, v).map_err(|e| (Some(*l), format!("diagonalLines: {e}")))?,
        None => Region::default(),
    };
    let cannon = letter("janggiCannon");
    if lines.is_empty() && cannon.is_none() {
        return Ok(None);
    }
    let mut palace = Palace { lines, diagonal: Vec::new(), cannons: cannon.map_or(0, |k| 1 << k) };
    // The king moves along the lines when it moves as a wazir (Janggi's
    // `kingType`; `king = k:W`).
    let wazir_king = keys.get("king").and_then(|(v, _)| v.split_once(':')).is_some_and(|(_, b)| b == "W");
    let kinds = [
        (letter("wazir"), Diagonal::Step),
        (if wazir_king { letter("king") } else { None }, Diagonal::Step),
        (letter("soldier"), Diagonal::Forward),
        (letter("rook"), Diagonal::Slide),
        (cannon, Diagonal::Hop),
    ];
    if !palace.lines.is_empty() {
        for (kind, how) in kinds {
            if let Some(k) = kind {
                if palace.diagonal.len() <= k {
                    palace.diagonal.resize(k + 1, None);
                }
                palace.diagonal[k] = Some(how);
            }
        }
    }
    Ok(Some(palace))
}
