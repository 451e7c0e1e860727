//! Move generation: what a move is (`vocabulary.rs`), the leg interpreter
//! (`movegen.rs`: `Tables`) with its simple paths, the built-in pawn's
//! direct path and the attack shapes, then a file per rule beyond a
//! piece's Betza (`pawns.rs`: double steps and en passant, `promotion.rs`,
//! `castling.rs`, `blast.rs`, `gate_moves.rs`, `game_end.rs`,
//! `played_rules.rs` with `royal_screen.rs`, `drops.rs`: hands and drops,
//! `shogi.rs`: shogi's promotions and drop rules, `setup.rs`: set-up phases
//! played with drops (`setup_count.rs` with `setup_cells.rs`: their drops
//! counted at perft's last ply),
//! `in_place_promotion.rs`: Sittuyin's promotion, `stones.rs`: stone games'
//! drops, jumps, flips and passes), legality (`legal.rs`) and playing a move and taking
//! it back (`play.rs`). Uses `board/`, `betza/` and `rules/` (layer 2).
//!
//! Each rule's file adds `impl Tables` methods that `movegen.rs` and
//! `play.rs` call only when the variant has the rule. Hands and drops are
//! in `drops.rs` (the hand itself is a field of `board/`'s `Position`,
//! the rule a field of `rules/`'s `Laws`); the moves limited to regions in
//! `regions.rs`, wall placing in `walls.rs`: each a file here, named by the
//! rule.

pub(crate) mod blast;
pub(crate) mod bound_drops;
pub(crate) mod castling;
pub(crate) mod drops;
pub(crate) mod game_end;
pub(crate) mod gate_moves;
pub(crate) mod gating;
pub(crate) mod in_place_promotion;
pub(crate) mod legal;
pub(crate) mod marks;
pub mod movegen;
pub(crate) mod palace;
pub(crate) mod passing;
pub(crate) mod pawn_path;
pub(crate) mod pawns;
pub mod play;
pub(crate) mod played_rules;
pub(crate) mod promotion;
pub(crate) mod regions;
pub(crate) mod royal_screen;
pub(crate) mod setup;
pub(crate) mod setup_cells;
pub(crate) mod setup_count;
pub(crate) mod shapes;
pub(crate) mod shogi;
pub(crate) mod simple_paths;
pub(crate) mod stone_bits;
pub(crate) mod stones;
pub mod vocabulary;
pub(crate) mod walls;
