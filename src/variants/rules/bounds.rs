//! Where pieces may go: a mobility region per kind and side
//! (`mobilityRegionWhiteKing = d1 e1 f1 ...`: Xiangqi's palace and river),
//! the soldier's sideways steps that come only after the river
//! (`soldierPromotionRank`) and the flying general (`flyingGeneral`), as
//! Fairy-Stockfish's `variant.h` names them.

use super::region::Region;
use crate::variants::board::Side;
use std::collections::BTreeMap;

/// The bounds of a variant's pieces; the default bounds nothing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Bounds {
    /// Per kind, where a piece of each side may move and attack (`None`:
    /// anywhere). The Betza pawn's region is `PawnLaws::mobility`.
    pub regions: Vec<Option<[Region; 2]>>,
    /// The soldier (`soldier = p`): its kind and the 0-based rank, counted
    /// from its own side, from which it also steps sideways.
    pub soldier: Option<(usize, u8)>,
    /// The royal pieces may not face each other on a file with nothing
    /// between (Fairy-Stockfish counts it as an attack on both).
    pub flying_general: bool,
}

impl Bounds {
    /// Does any bound act on the moves of `kind`?
    pub fn binds(&self, kind: usize) -> bool {
        self.regions.get(kind).is_some_and(Option::is_some) || self.soldier.is_some_and(|(k, _)| k == kind)
    }

    /// The region of `kind` for `side`, if it has one.
    pub fn region(&self, kind: usize, side: Side) -> Option<&Region> {
        self.regions.get(kind).and_then(Option::as_ref).map(|r| &r[side])
    }

    /// May a piece of `kind` and `side` go from (`fx`, `fy`) to cell `to`
    /// at (`tx`, `ty`) of a board `height` ranks high?
    #[inline]
    pub fn allows(&self, kind: usize, side: Side, from: (i8, i8), to: usize, dest: (i8, i8), height: u8) -> bool {
        if self.region(kind, side).is_some_and(|r| !r.has(to)) {
            return false;
        }
        match self.soldier {
            Some((k, rank)) if k == kind && from.1 == dest.1 => {
                let own = if side == 0 { from.1 } else { height as i8 - 1 - from.1 };
                own >= rank as i8
            }
            _ => true,
        }
    }
}

/// The bounds of the pieces: the mobility regions but the Betza pawn's
/// (`PawnLaws::mobility`), the soldier's river and the flying general.
pub(super) fn from_keys(
    keys: &BTreeMap<String, (String, usize)>,
    flying_general: bool,
    regions: Vec<(usize, [Region; 2], usize)>,
    betza_pawn: Option<usize>,
    kind_of: &dyn Fn(char) -> Option<usize>,
) -> Result<Bounds, (Option<usize>, String)> {
    let mut bounds = Bounds { flying_general, ..Bounds::default() };
    for (kind, region, _) in regions.into_iter().filter(|(k, _, _)| Some(*k) != betza_pawn) {
        if bounds.regions.len() <= kind {
            bounds.regions.resize(kind + 1, None);
        }
        bounds.regions[kind] = Some(region);
    }
    let soldier = keys.get("soldier").and_then(|(v, _)| v.chars().next()).and_then(kind_of);
    if let Some((v, l)) = keys.get("soldierPromotionRank") {
        let rank: u8 = v
            .parse()
            .ok()
            .filter(|&r| r >= 1)
            .ok_or_else(|| (Some(*l), format!("soldierPromotionRank = {v}: not a rank")))?;
        // From the first rank on (the default) it steps sideways anywhere.
        if rank > 1 {
            let kind =
                soldier.ok_or_else(|| (Some(*l), "soldierPromotionRank needs a soldier (soldier = p)".to_string()))?;
            bounds.soldier = Some((kind, rank - 1));
        }
    }
    Ok(bounds)
}
