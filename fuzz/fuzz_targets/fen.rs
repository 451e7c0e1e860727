#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| chesstool_fuzz::checks::fen::fen(data));
