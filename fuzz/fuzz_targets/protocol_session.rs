//! Protocol command lines: `veletas::fuzzing::protocol_session`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| veletas::fuzzing::protocol_session(data));
