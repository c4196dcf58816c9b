//! `veletas train-eval` and `veletas train-policy`: their options, turned into
//! [`TrainSettings`] and [`TrainPolicySettings`].

use std::path::PathBuf;

use clap::Args;

use crate::learn::{TrainSettings, parse_l2, parse_value_mix};
use crate::train_policy::TrainPolicySettings;

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
    /// Train on (1 - L) x the game's result + L x the root value the search recorded for the
    /// side to move (the records' win rates), L from 0 to 1 (default 0: results only); the
    /// report compares the held-out log-loss of both fits against the results.
    #[arg(long, value_name = "L", default_value_t = 0.0, value_parser = parse_value_mix)]
    pub value_mix: f64,
}

impl From<TrainArgs> for TrainSettings {
    fn from(args: TrainArgs) -> TrainSettings {
        let TrainArgs { files, output, holdout, l2, value_mix } = args;
        TrainSettings { files, output, holdout, l2, value_mix }
    }
}

/// Arguments of `train-policy`.
#[derive(Args, Debug, Clone)]
pub struct TrainPolicyArgs {
    /// Record files of self-play games whose turns have first steps recorded
    /// (`veletas tournament --record-steps`).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Where the weights go (written to a temporary file, then renamed); load them with
    /// `veletas --policy FILE`.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Every N-th game (by its order in the files) is held out for testing.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u64).range(2..))]
    pub holdout: u64,
    /// L2 penalty on the weights, per sample: a number from 0 to 1e6.
    #[arg(long, default_value_t = 1e-4, value_parser = parse_l2)]
    pub l2: f64,
}

impl From<TrainPolicyArgs> for TrainPolicySettings {
    fn from(args: TrainPolicyArgs) -> TrainPolicySettings {
        let TrainPolicyArgs { files, output, holdout, l2 } = args;
        TrainPolicySettings { files, output, holdout, l2, version: env!("VELETAS_VERSION").to_string() }
    }
}
