//! The engine's integration tests (the veletas-engine crate): the search, the solver, the tactics suite, the
//! protocol through `run`, over pipes and against protocol.md's example session, pondering, memory, bench
//! and train-eval through the binary.
//!
//! One test binary for the crate (Cargo finds `tests/*/main.rs`), so the test command links the
//! library once a layer rather than once a file: put a new suite here as a module, not in a new
//! top-level `tests/*.rs` file.

#[path = "../scratch/mod.rs"]
#[macro_use]
mod scratch;

mod bench_cli;
mod eval_file;
mod generations;
mod learning;
mod match_reproducible;
mod memory;
mod modern_protocol;
mod ponder;
mod protocol;
mod protocol_binary;
mod protocol_doc;
mod protocol_properties;
mod protocol_robustness;
mod protocol_search;
mod protocol_solver;
mod search;
mod search_pinned;
mod solver;
mod support;
mod tactics;
mod value_net;
mod winning_turn;
