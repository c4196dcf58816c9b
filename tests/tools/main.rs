//! The tools' tests that need the program (the veletas-tools crate through the `veletas` binary and fake
//! engines): the referee, tournaments and their scripts with misbehaving fake engines, the pictures and the
//! reports. The ratings and statistics against their independent references are the crate's own tests
//! (crates/tools/tests/tools).
//!
//! One test binary for the crate (Cargo finds `tests/*/main.rs`), so the test command links the
//! library once a layer rather than once a file: put a new suite here as a module, not in a new
//! top-level `tests/*.rs` file.
#[path = "../scratch/mod.rs"]
#[macro_use]
mod scratch;

mod analyse_games;
mod annotations_read;
mod book;
mod build_commit_script;
mod check_cli;
mod check_referee;
mod cluster;
mod engine_text;
mod hostile_engines;
mod hostile_records;
mod match_resume;
mod messages;
mod modern_referee;
mod openings;
mod output_paths;
mod pictures;
mod ratings_cli;
mod record_results;
mod record_steps;
mod record_writer;
mod referee;
mod referee_scripts;
mod referee_winrates;
mod refused_engines;
mod reports;
mod rules_names;
mod runner_options;
mod same_verdict;
mod scheduler_stop;
mod stats_extremes;
mod support;
mod tournament;
mod tournament_growth;
mod tournament_scripts;
mod tournament_unstartable;
mod untimed_engine;
mod void_games;
