//! The checks behind every fuzz target. They are plain functions of bytes
//! that panic when a property fails, so the same code runs under libFuzzer
//! (`cargo +nightly fuzz run TARGET`) and under a stable `cargo test` in the
//! main crate, which replays every committed corpus file
//! (`tests/fuzz_corpus.rs` includes `tests/fuzz_checks/mod.rs` by path). The
//! checks live in the main crate's tests/, so that its package (which holds
//! the tests but not this crate) still builds them.

#[path = "../../tests/fuzz_checks/mod.rs"]
pub mod checks;
