//! Protocol command lines: `veletas_engine::fuzzing::protocol_session`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| veletas_engine::fuzzing::protocol_session(data));
