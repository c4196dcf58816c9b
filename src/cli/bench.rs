//! `veletas bench`: its options, turned into [`BenchSettings`].

use std::path::PathBuf;

use clap::Args;

use veletas_engine::bench::BenchSettings;

use super::engine::{EvalArg, parse_eval};

/// Arguments of `bench`.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// A file of `DEPTH POSITION` lines instead of the built-in positions.
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// Random playouts per position and policy in each run (0 to 10,000,000; 0: skip the
    /// playouts).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(0..=10_000_000))]
    pub playouts: u32,
    /// Search iterations per position and thread count (0: skip the search).
    #[arg(long, default_value_t = 40_000)]
    pub search_iterations: u64,
    /// Threads of the second search run, for the scaling figure.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub search_threads: u32,
    /// Measured runs of every figure (the median is reported).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub runs: u32,
    /// Runs before the measured ones, not counted (warm caches, CPU frequency).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub warmup: u32,
    /// Print the figures as JSON (for scripts) instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Another veletas binary: run both alternately on the same positions and print each
    /// figure's ratio (this binary's rate divided by the other's).
    #[arg(long, value_name = "BINARY")]
    pub compare: Option<PathBuf>,
    /// The evaluation the search rows search with: net (the default, as the engine plays),
    /// learned, hand, or a weights FILE (as the engine's `--eval`). Passed on to a
    /// `--compare` binary only when given.
    #[arg(long, value_name = "EVAL|FILE", value_parser = parse_eval)]
    pub eval: Option<EvalArg>,
    /// Seed of the random playouts and searches (default 1); `veletas --seed N bench` is
    /// the same.
    #[arg(long)]
    pub seed: Option<u64>,
}

impl BenchArgs {
    /// The settings these arguments describe (its seed is resolved apart: `veletas --seed N
    /// bench` too); a weights file given to `--eval` is read here, once.
    pub fn settings(self) -> Result<BenchSettings, String> {
        let BenchArgs { file, playouts, search_iterations, search_threads, runs, warmup, json, compare, eval, seed: _ } =
            self;
        let eval_option = eval.as_ref().map(EvalArg::to_string);
        let eval = eval.unwrap_or_default().evaluation()?;
        Ok(BenchSettings {
            file,
            playouts,
            search_iterations,
            search_threads,
            runs,
            warmup,
            json,
            compare,
            eval,
            eval_option,
        })
    }
}
