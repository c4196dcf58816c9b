//! `veletas train-eval` and `veletas train-policy`: their options (the games and the fit's
//! shared by both, [`TrainingArgs`]), turned into [`TrainSettings`] and
//! [`TrainPolicySettings`], and the weights file each writes.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::learn::{TrainSettings, parse_value_mix};
use crate::train_policy::TrainPolicySettings;
use crate::training::{Trained, TrainingData, parse_l2};
use veletas_tools::output::{check_not_input, write_output};

/// The options both training commands take: the games, the held-out share, the penalty and
/// where the weights go.
#[derive(Args, Debug, Clone)]
pub struct TrainingArgs {
    /// Record files of the training games: self-play tournaments (for train-policy, played
    /// with --record-steps).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Where the weights go (written whole through a temporary file, never over one of the
    /// games' files); load them with veletas --eval FILE or --policy FILE.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Every N-th game (by its order in the files) is held out for testing.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u64).range(2..))]
    pub holdout: u64,
    /// L2 penalty on the weights (the evaluation's bias spared), per sample: a number from 0
    /// to 1e6.
    #[arg(long, default_value_t = 1e-4, value_parser = parse_l2)]
    pub l2: f64,
}

impl TrainingArgs {
    fn data(&self) -> TrainingData {
        TrainingData { files: self.files.clone(), holdout: self.holdout, l2: self.l2 }
    }

    /// Refuses, before anything is read, an output that is one of the games' files.
    fn check_output(&self) -> Result<(), String> {
        let Some(output) = &self.output else { return Ok(()) };
        let inputs: Vec<(&str, &Path)> = self.files.iter().map(|f| ("", f.as_path())).collect();
        check_not_input(("-o", output.as_path()), &inputs)
    }

    /// Writes the weights to `--output` (if given) and gives the report to print.
    fn finish(&self, trained: Trained) -> Result<String, String> {
        let Trained { mut report, weights } = trained;
        if let Some(output) = &self.output {
            write_output(Some(output.as_path()), weights.as_bytes())?;
            report.push_str(&format!("weights written to {}\n", output.display()));
        }
        Ok(report)
    }
}

/// Arguments of `train-eval`.
#[derive(Args, Debug, Clone)]
pub struct TrainArgs {
    #[command(flatten)]
    pub data: TrainingArgs,
    /// Train on (1 - L) x the game's result + L x the root value the search recorded for the
    /// side to move (the records' win rates), L from 0 to 1 (default 0: results only); the
    /// report compares the held-out log-loss of both fits against the results.
    #[arg(long, value_name = "L", default_value_t = 0.0, value_parser = parse_value_mix)]
    pub value_mix: f64,
    /// One set of weights for both rule families, fitted to all positions (by default each
    /// family with at least 2000 training positions gets its own).
    #[arg(long)]
    pub pooled: bool,
}

/// Arguments of `train-policy`.
#[derive(Args, Debug, Clone)]
pub struct TrainPolicyArgs {
    #[command(flatten)]
    pub data: TrainingArgs,
}

/// `veletas train-eval`: the report, once the weights are written.
pub fn train_eval(args: TrainArgs) -> Result<String, String> {
    args.data.check_output()?;
    let settings = TrainSettings {
        data: args.data.data(),
        value_mix: args.value_mix,
        pooled: args.pooled,
        version: env!("VELETAS_VERSION").to_string(),
    };
    args.data.finish(crate::learn::run(&settings)?)
}

/// `veletas train-policy`: the report, once the weights are written.
pub fn train_policy(args: TrainPolicyArgs) -> Result<String, String> {
    args.data.check_output()?;
    let settings = TrainPolicySettings { data: args.data.data(), version: env!("VELETAS_VERSION").to_string() };
    args.data.finish(crate::train_policy::run(&settings)?)
}
