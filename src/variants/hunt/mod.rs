//! What the hunt needs from a variant: the `Rules` trait
//! (`VariantRules`), hints on moves and rules, the fuzz walks' bias and the
//! FEN read by meaning, the board view of the witness picture, and
//! `betza show`, USI move notation (`usi`), xiangqi's ICCS (`iccs`) and
//! stone games' flips and passes (`stone_hints`). Uses every room below and
//! `crate::rules` (layer 5).

pub mod betza_show;
pub mod board_view;
pub mod bound_hints;
pub mod dialect;
pub mod drop_hints;
pub mod fuzz;
pub mod iccs;
pub mod motifs;
pub mod move_hints;
pub mod palace_hints;
pub mod rule_hints;
pub mod stone_hints;
pub mod usi;
pub mod variant_rules;
pub mod wall_hints;

pub use variant_rules::VariantRules;
