//! The engine crate's own integration tests, through its library alone: the search, the solver,
//! the tactics suite, the winning-turn check, and the protocol through `run` (with proptest
//! properties over random command lines). The tests that drive the `veletas` program stay in
//! the workspace's tests/engine.
//!
//! One test binary for the crate (Cargo finds `tests/*/main.rs`): put a new suite here as a
//! module, not in a new top-level `tests/*.rs` file.

mod claimed_block;
mod protocol;
mod protocol_properties;
mod search;
mod search_pinned;
mod solver;
mod tactics;
mod winning_turn;
