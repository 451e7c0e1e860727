//! Walling (Fairy-Stockfish's `wallingRule`, `wallingRegionWhite`,
//! `wallingRegionBlack`): every move also turns a square into a wall that no
//! piece may enter or cross. Amazons' arrow, duck chess's duck, the trail of
//! Snailtrail and Joust, Isolation's removed squares.

use super::region::Region;
use crate::variants::board::Geometry;
use std::collections::BTreeMap;

/// Where the wall of a move may go (Fairy-Stockfish's `WallingRule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WallRule {
    /// Shot from the destination as the moved piece moves (Amazons' arrow).
    Arrow,
    /// Any empty square; the walls already standing are lifted first (the duck).
    Duck,
    /// The square the piece leaves (Snailtrail, Joust).
    Past,
    /// Any empty square (Isolation).
    Static,
    /// An empty square on the board's edge or next to a wall (Atlantis).
    Edge,
}

/// The walling rule of a variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Walling {
    /// Where the wall goes.
    pub rule: WallRule,
    /// Per side, the squares a wall may be placed on.
    pub region: [Region; 2],
}

/// The keys read here.
pub const KEYS: &[&str] = &["wallingRule", "wallingRegionWhite", "wallingRegionBlack"];

/// The walling rule of a section, `None` without one (`wallingRule = none`).
pub(super) fn from_keys(
    keys: &BTreeMap<String, (String, usize)>,
    g: &Geometry,
) -> Result<Option<Walling>, (Option<usize>, String)> {
    let Some((value, line)) = keys.get("wallingRule") else { return Ok(None) };
    let rule = match value.as_str() {
        "none" => return Ok(None),
        "arrow" => WallRule::Arrow,
        "duck" => WallRule::Duck,
        "past" => WallRule::Past,
        "static" => WallRule::Static,
        "edge" => WallRule::Edge,
        v => return Err((Some(*line), format!("wallingRule = {v}: not none, arrow, duck, past, static or edge"))),
    };
    let all = Region::ranks(g, &(0..g.height).collect::<Vec<_>>());
    let region = |k: &str| match keys.get(k) {
        None => Ok(all.clone()),
        Some((v, l)) => Region::parse(g, v).map_err(|e| (Some(*l), format!("{k}: {e}"))),
    };
    Ok(Some(Walling { rule, region: [region("wallingRegionWhite")?, region("wallingRegionBlack")?] }))
}
