//! Set-up phases played with drops (placement, Sittuyin): `mustDrop`
//! (with a piece in hand the side must drop when it legally can,
//! `mustDropType` naming the one kind that counts), bishops dropped on
//! opposite colours (`dropOppositeColoredBishop`) and castling rights
//! given to a king and rook dropped on their squares
//! (`castlingDroppedPiece`) and rooks dropped on the back rank only
//! (`sittuyinRookDrop`), as Fairy-Stockfish's `variant.h` names them.

use std::collections::BTreeMap;

/// A key's error, (line, message), as `keys.rs` has it (this file does not
/// import `keys.rs`, which imports it).
type KeyError = (Option<usize>, String);

/// A `true`/`false` key, false when absent.
fn flag(keys: &BTreeMap<String, (String, usize)>, k: &str) -> Result<bool, KeyError> {
    match keys.get(k).map(|(v, l)| (v.as_str(), *l)) {
        None | Some(("false", _)) => Ok(false),
        Some(("true", _)) => Ok(true),
        Some((v, l)) => Err((Some(l), format!("{k} = {v}: not true or false"))),
    }
}

/// The set-up rules of a variant with drops.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupDrops {
    /// `mustDrop`: while the side has a piece in hand (of `must_kind`
    /// when given), a move that is not a drop is legal only when no drop is.
    pub must_drop: bool,
    /// `mustDropType`: the kind `must_drop` is about (`None`: any kind);
    /// with it in hand, drops of other kinds are illegal.
    pub must_kind: Option<usize>,
    /// `dropOppositeColoredBishop`: the bishop kind, whose drops must leave
    /// the side's bishops on both colours.
    pub opposite_bishops: Option<usize>,
    /// `castlingDroppedPiece`: a king dropped on its castling square, or a
    /// rook dropped in a corner beside such a king, gains castling rights.
    pub castling_dropped: bool,
    /// `sittuyinRookDrop`: the rook kind, dropped only on the side's first rank.
    pub rook_back_rank: Option<usize>,
}

/// The set-up rules from the keys; `None` when none is set. `castling`:
/// the variant castles; `kind_of` finds a kind by letter.
pub(super) fn from_keys(
    keys: &BTreeMap<String, (String, usize)>,
    castling: bool,
    kind_of: &dyn Fn(char) -> Option<usize>,
) -> Result<Option<SetupDrops>, KeyError> {
    let line = |k: &str| keys.get(k).map(|x| x.1);
    let must_drop = flag(keys, "mustDrop")?;
    let must_kind = match keys.get("mustDropType") {
        None => None,
        Some((v, _)) if v == "*" => None,
        Some((v, l)) => {
            let c = v.chars().next().filter(|_| v.chars().count() == 1);
            Some(
                c.and_then(kind_of)
                    .ok_or_else(|| (Some(*l), format!("mustDropType = {v}: no piece with that letter")))?,
            )
        }
    };
    let opposite_bishops = if flag(keys, "dropOppositeColoredBishop")? {
        let b = kind_of('b').ok_or_else(|| {
            (line("dropOppositeColoredBishop"), "dropOppositeColoredBishop needs a bishop (b)".to_string())
        })?;
        Some(b)
    } else {
        None
    };
    let castling_dropped = flag(keys, "castlingDroppedPiece")?;
    let rook_back_rank = if flag(keys, "sittuyinRookDrop")? {
        let r =
            kind_of('r').ok_or_else(|| (line("sittuyinRookDrop"), "sittuyinRookDrop needs a rook (r)".to_string()))?;
        Some(r)
    } else {
        None
    };
    if castling_dropped && !castling {
        return Err((line("castlingDroppedPiece"), "castlingDroppedPiece = true needs castling".into()));
    }
    if must_kind.is_some() && !must_drop {
        return Err((line("mustDropType"), "mustDropType needs mustDrop = true".into()));
    }
    for k in ["mustCapture", "seirawanGating", "blastOnCapture"] {
        if must_drop && flag(keys, k)? {
            return Err((line(k), format!("{k} = true with mustDrop = true is not implemented")));
        }
    }
    if !must_drop && opposite_bishops.is_none() && !castling_dropped && rook_back_rank.is_none() {
        return Ok(None);
    }
    Ok(Some(SetupDrops { must_drop, must_kind, opposite_bishops, castling_dropped, rook_back_rank }))
}
