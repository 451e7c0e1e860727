//! Verifying engines, for any game (`R: Rules`): divides compared by
//! meaning, bisection to the first position whose move list is wrong, notes
//! on pasted divides, perft suites.

pub mod bisect;
pub mod diff;
pub mod fuzz;
pub mod paste;
pub mod route;
pub mod suite;
pub mod walk;
pub mod witness;
