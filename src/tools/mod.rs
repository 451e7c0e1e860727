//! Tools taken from the source documents: Hartmann's butterfly boards, a dump
//! of FUSc#'s rotated occupancy boards, and the magic-number work. Library
//! code: they return text and values; the binary prints them.

pub mod butterfly;
pub mod magic;
pub mod rotated_dump;
