//! The rules of a variant beyond its pieces' moves, as one typed struct
//! (`Laws`, Fairy-Stockfish's `variant.h`), read from `variants.ini` keys.
//! Uses `board/` (layer 1). The generator reads these fields, never the
//! variant's name.

pub mod laws;
