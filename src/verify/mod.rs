//! Verifying engines: moves read by meaning, divides compared, bisection to
//! the first position whose move list is wrong.

pub mod bisect;
pub mod diff;
pub mod notation;
pub mod suite;
