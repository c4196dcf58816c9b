//! The tools crate's own integration tests, through its library alone: the ratings and the
//! statistics against independent plain-Python references (the data in tests/ratings and
//! tests/stats), and the referee's summary wired to the statistics. The tests that drive the
//! `veletas` program and fake engines stay in the workspace's tests/tools.
//!
//! One test binary for the crate (Cargo finds `tests/*/main.rs`): put a new suite here as a
//! module, not in a new top-level `tests/*.rs` file.

mod ratings;
mod referee_stats;
mod stats_reference;
