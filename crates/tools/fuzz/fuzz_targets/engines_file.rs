//! `veletas_tools::fuzzing::engines_file` on the input as UTF-8 text (other bytes are skipped: every
//! reader of these files refuses non-UTF-8 text before parsing).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        veletas_tools::fuzzing::engines_file(text);
    }
});
