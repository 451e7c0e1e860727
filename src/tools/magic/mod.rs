//! Magic numbers for sliding-piece attacks: the search (`magic-search`), an
//! independent verifier for magic files, the search for magics with fewer
//! index bits, and the packed layout (one shared table) with its steps.

pub mod bundle;
pub mod packed;
mod patterns;
mod place;
pub mod reduced;
pub mod refill;
pub mod search;
pub mod verify;
