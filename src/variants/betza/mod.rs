//! Betza notation: the XBetza parser and the compiler to leg code.

pub mod compile;
pub mod parse;

pub use compile::{compile, Compiled, Leg, Row};
pub use parse::{parse, BetzaError};
