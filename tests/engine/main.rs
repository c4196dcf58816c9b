//! The engine's tests that need the program (the veletas-engine crate through the `veletas` binary and its
//! command line): the protocol over pipes and against protocol.md's example session, pondering, memory,
//! bench and train-eval. The search, the solver, the tactics suite and the protocol through `run` are the
//! crate's own tests (crates/engine/tests/engine).
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
mod protocol_binary;
mod protocol_doc;
mod protocol_robustness;
mod protocol_search;
mod protocol_solver;
mod support;
mod value_net;
