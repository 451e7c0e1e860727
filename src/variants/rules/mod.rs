//! The rules of a variant beyond its pieces' moves: pawns (double steps,
//! en passant), promotion, castling and the game ends that change the move
//! list, as one typed struct (`Laws`, Fairy-Stockfish's `variant.h`), read
//! from `variants.ini` keys with Fairy-Stockfish's names and meanings
//! (`src/variant.h`, `src/parser.cpp` of pyffish 0.0.90). The generator
//! reads this struct, never the variant's name.
//!
//! A rule family is a file (`pawns.rs`, `promotion.rs`, `castling.rs`,
//! `game_end.rs`, `gates.rs`, `drops.rs`, `bounds.rs`, `palace.rs`, `passing.rs`, `walls.rs`, `stones.rs`), a field of `Laws` (`laws.rs`) and its keys
//! in `keys.rs`. Uses `board/` (layer 1).

mod bounds;
mod castling;
mod drops;
mod game_end;
mod gates;
mod keys;
mod laws;
mod mobility;
mod palace;
mod passing;
mod pawns;
mod promotion;
mod region;
mod setup;
mod shogi;
mod stones;
mod walls;

pub use bounds::Bounds;
pub use castling::Castling;
pub use drops::Drops;
pub use game_end::{Extinction, Flag};
pub use gates::Cambodian;
pub use keys::{from_keys, is_law_key, KeyError, Keys, LAW_KEYS};
pub use laws::Laws;
pub use palace::{Diagonal, Palace};
pub use passing::Passing;
pub use pawns::{PawnLaws, Rushes};
pub use promotion::{Mandatory, Promotion};
pub use region::Region;
pub use setup::SetupDrops;
pub use shogi::{promoted_letter, Shogi};
pub use stones::{Enclosing, Stones, STONE_KEYS};
pub use walls::{WallRule, Walling, KEYS as WALL_KEYS};
