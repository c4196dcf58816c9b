//! The bodies of this crate's fuzz targets (crates/tools/fuzz, cargo-fuzz layout): each takes
//! the text of one file the referee reads (openings, engines), runs its parser, and checks what
//! must hold whatever the input (never a panic; what is accepted is usable). They live here, in
//! the library, so that the fuzz targets and the ordinary tests that replay the seed corpus
//! (`tests/program/fuzz_seeds.rs`) run the same checks on stable.

use std::path::Path;

use veletas_rules::Rules;

/// An openings file's text, for each rule set: refused with a message, or openings whose
/// moves are legal from their start (the parser replays them).
pub fn openings_file(text: &str) {
    for rules in [Rules::CLASSIC, Rules::MODERN] {
        if let Ok(openings) = crate::referee::openings::parse_openings(text, "fuzz", None, rules) {
            assert!(!openings.is_empty());
        }
    }
}

/// An engines file's text (TOML): refused with a message, or engines with commands.
pub fn engines_file(text: &str) {
    if let Ok((entries, _)) = crate::referee::field::parse_engines_file(text, "fuzz", Path::new(".")) {
        assert!(entries.iter().all(|e| !e.command.is_empty()));
    }
}
