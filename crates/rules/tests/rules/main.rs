//! The rules' integration tests (the veletas-rules crate, through `veletas_rules`): published counts, the
//! slow references of tests/common and tests/modern_ref, frozen perft, properties over random games and the
//! rulebook's examples.
//!
//! One test binary for the crate (Cargo finds `tests/*/main.rs`), so the test command links the
//! library once a layer rather than once a file: put a new suite here as a module, not in a new
//! top-level `tests/*.rs` file.

#[path = "../common/mod.rs"]
mod common;
#[path = "../frozen_perft/mod.rs"]
mod frozen_perft;
#[path = "../modern_ref/mod.rs"]
mod modern_ref;

mod claimed_block;
mod known_counts;
mod modern_perft;
mod modern_properties;
mod modern_reference;
mod modern_rules;
mod perft;
mod position_strings;
mod properties;
mod reference;
mod round_trips;
mod rulebook;
