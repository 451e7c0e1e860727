//! Stone games: drops that must touch or enclose (`enclosingDrop`), the
//! stones they flip (`flipEnclosedPieces`), the free opening squares
//! (`enclosingDropStart`), drops without a hand (`freeDrops`), the pass
//! when a side has no move (`passOnStalemate`) and the end at a full board
//! (`adjudicateFullBoard`), as Fairy-Stockfish's `variant.h` names them:
//! Ataxx, Othello (flipello) and Reversi (flipersi).

use super::region::Region;
use crate::variants::board::Geometry;
use std::collections::BTreeMap;

/// A section's keys (`keys.rs`'s `Keys`) and a key's error (line, message).
type Keys = BTreeMap<String, (String, usize)>;
type KeyError = (Option<usize>, String);

/// Fairy-Stockfish's `EnclosingRule` for drops and flips.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enclosing {
    /// Ataxx: a drop next to an own stone; the enemy stones next to the
    /// square a stone lands on flip.
    Ataxx,
    /// Reversi: a drop that encloses a line of enemy stones between it
    /// and an own stone; every such line flips, in all directions at once.
    Reversi,
}

/// The rules of a stone game (a variant with `enclosingDrop`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stones {
    /// Where a drop may go (`enclosingDrop`).
    pub drop: Enclosing,
    /// What a stone that lands flips (`flipEnclosedPieces`), if anything.
    pub flip: Option<Enclosing>,
    /// While one of these cells is empty, drops go only there
    /// (`enclosingDropStart`: Reversi's free opening).
    pub start: Region,
    /// Drops take nothing from a hand, and the FEN has none (`freeDrops`).
    pub free_drops: bool,
    /// Per side: with no move, the side passes (`passOnStalemate`); two
    /// passes in a row end the game.
    pub pass_on_stalemate: [bool; 2],
    /// A full board ends the game (`adjudicateFullBoard`).
    pub full_board_ends: bool,
}

/// The keys read here.
pub const STONE_KEYS: &[&str] = &[
    "enclosingDrop",
    "enclosingDropStart",
    "flipEnclosedPieces",
    "freeDrops",
    "passOnStalemate",
    "passOnStalemateWhite",
    "passOnStalemateBlack",
    "adjudicateFullBoard",
];

/// The stone rules of a section, `None` without `enclosingDrop`; the
/// keys that only make sense with it are refused without it.
pub(super) fn from_keys(
    keys: &Keys,
    g: &Geometry,
    flag: &dyn Fn(&str, bool) -> Result<bool, KeyError>,
) -> Result<Option<Stones>, KeyError> {
    let get = |k: &str| keys.get(k).map(|(v, l)| (v.as_str(), *l));
    let rule = |k: &str| -> Result<Option<Enclosing>, KeyError> {
        match get(k) {
            None | Some(("none", _)) => Ok(None),
            Some(("ataxx", _)) => Ok(Some(Enclosing::Ataxx)),
            Some(("reversi", _)) => Ok(Some(Enclosing::Reversi)),
            Some((v, l)) => Err((Some(l), format!("{k} = {v}: only none, ataxx and reversi are implemented"))),
        }
    };
    let both = flag("passOnStalemate", false)?;
    let pass_on_stalemate = [flag("passOnStalemateWhite", both)?, flag("passOnStalemateBlack", both)?];
    let Some(drop) = rule("enclosingDrop")? else {
        for k in STONE_KEYS {
            let set = match *k {
                "enclosingDropStart" => get(k).is_some_and(|(v, _)| v != "-" && !v.is_empty()),
                "flipEnclosedPieces" => rule(k)?.is_some(),
                _ => flag(k, false)?,
            };
            if set {
                let l = get(k).map(|x| x.1);
                return Err((l, format!("{k} without enclosingDrop is not implemented")));
            }
        }
        return Ok(None);
    };
    if !flag("pieceDrops", false)? {
        return Err((get("enclosingDrop").map(|x| x.1), "enclosingDrop needs pieceDrops = true".into()));
    }
    let start = match get("enclosingDropStart") {
        None => Region(vec![false; g.cells]),
        Some((v, l)) => Region::parse(g, v).map_err(|e| (Some(l), format!("enclosingDropStart: {e}")))?,
    };
    Ok(Some(Stones {
        drop,
        flip: rule("flipEnclosedPieces")?,
        start,
        free_drops: flag("freeDrops", false)?,
        pass_on_stalemate,
        full_board_ends: flag("adjudicateFullBoard", false)?,
    }))
}
