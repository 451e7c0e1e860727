//! Where each kind may move (`mobilityRegionWhiteKing`,
//! `mobilityRegionBlackCustomPiece1`, ...), as Fairy-Stockfish's
//! `variant.h` names the keys.

use super::region::Region;
use crate::variants::board::Geometry;
use std::collections::BTreeMap;

/// A section's keys (`keys.rs`'s `Keys`) and a key's error (line, message).
type Keys = BTreeMap<String, (String, usize)>;
type KeyError = (Option<usize>, String);

/// `mobilityRegionWhiteKing = d1 e1 f1 ...`, `mobilityRegionBlackCustomPiece1
/// = *2 *3`: per kind, where a piece of each side may move (a side without
/// the key anywhere), with the line of a key.
pub(super) fn from_keys(
    keys: &Keys,
    g: &Geometry,
    kind_of: &dyn Fn(char) -> Option<usize>,
) -> Result<Vec<(usize, [Region; 2], usize)>, KeyError> {
    let mut found: Vec<(usize, [Region; 2], usize)> = Vec::new();
    for (key, (value, line)) in keys.range("mobilityRegion".to_string()..) {
        let Some(rest) = key.strip_prefix("mobilityRegion") else { break };
        let (side, name) = match (rest.strip_prefix("White"), rest.strip_prefix("Black")) {
            (Some(n), _) => (0, n),
            (_, Some(n)) => (1, n),
            _ => return Err((Some(*line), format!("{key}: not mobilityRegionWhite... or mobilityRegionBlack..."))),
        };
        let mut piece = name.to_string();
        if let Some(first) = piece.get_mut(0..1) {
            first.make_ascii_lowercase();
        }
        let letter = keys.get(&piece).and_then(|(v, _)| v.chars().next());
        let kind =
            letter.and_then(kind_of).ok_or_else(|| (Some(*line), format!("{key}: this variant has no {piece}")))?;
        let region = Region::parse(g, value).map_err(|e| (Some(*line), format!("{key}: {e}")))?;
        let i = match found.iter().position(|(k, _, _)| *k == kind) {
            Some(i) => i,
            None => {
                let all = Region(vec![true; g.cells]);
                found.push((kind, [all.clone(), all], *line));
                found.len() - 1
            }
        };
        found[i].1[side] = region;
    }
    Ok(found)
}
