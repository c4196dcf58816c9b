//! The program's integration tests (the `veletas` crate: the command line that wires the
//! layers): options in their places, every command the docs show run and compared, those
//! they write inline parsed, the documents' option lists against the command line, the scripts' usage lines, completions,
//! the man page and the version.
//!
//! One test binary for the crate (Cargo finds `tests/*/main.rs`), so the test command links the
//! library once a layer rather than once a file: put a new suite here as a module, not in a new
//! top-level `tests/*.rs` file.

#[path = "../scratch/mod.rs"]
#[macro_use]
mod scratch;

mod absurd_options;
mod bounded_inputs;
mod cli_options;
mod docs_examples;
mod docs_inline;
mod docs_options;
mod exit_status;
mod fuzz_seeds;
mod generate;
mod gui_cli;
mod scripts_usage;
mod support;
