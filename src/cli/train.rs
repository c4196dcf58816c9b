//! `veletas train-eval`: its options, turned into [`TrainSettings`].

use std::path::PathBuf;

use clap::Args;

use crate::learn::{TrainSettings, parse_l2};

/// Arguments of `train-eval`.
#[derive(Args, Debug, Clone)]
pub struct TrainArgs {
    /// Record files of the training games (e.g. self-play tournaments).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Where the weights go (written to a temporary file, then renamed).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Every N-th game (by its order in the files) is held out for testing.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u64).range(2..))]
    pub holdout: u64,
    /// L2 penalty on the weights (not the bias), per sample: a number from 0 to 1e6.
    #[arg(long, default_value_t = 1e-4, value_parser = parse_l2)]
    pub l2: f64,
}

impl From<TrainArgs> for TrainSettings {
    fn from(args: TrainArgs) -> TrainSettings {
        let TrainArgs { files, output, holdout, l2 } = args;
        TrainSettings { files, output, holdout, l2 }
    }
}
