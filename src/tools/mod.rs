//! Tools taken from the source documents: Hartmann's butterfly boards, a dump
//! of FUSc#'s rotated occupancy boards, and a magic-number search. Library
//! code: they return text and values; `cli` prints them.

pub mod butterfly;
pub mod magic_bundle;
pub mod magic_packed;
pub mod magic_reduced;
pub mod magic_refill;
pub mod magic_search;
pub mod magic_verify;
pub mod rotated_dump;
