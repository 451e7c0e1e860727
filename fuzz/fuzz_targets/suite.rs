#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| chesstool_fuzz::checks::formats::suite(data));
