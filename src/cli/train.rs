//! `veletas train-eval` and `veletas train-policy`: their options (the games and the fit's
//! shared by both, [`TrainingArgs`]), turned into [`TrainSettings`] and
//! [`TrainPolicySettings`], and the weights file each writes; their one error, [`TrainError`]
//! (exit status 2 for the options and the files read, 1 for weights that cannot be written).

use std::path::{Path, PathBuf};

use clap::Args;

use super::error::Classified;
use veletas_engine::learning::eval_trainer::{TrainEvalError, TrainSettings, parse_value_mix};
use veletas_engine::learning::net_trainer::policy::TrainPolicyNetError;
use veletas_engine::learning::net_trainer::{TrainNetError, TrainNetSettings};
use veletas_engine::learning::policy_trainer::{TrainPolicyError, TrainPolicySettings};
use veletas_engine::learning::training_data::{Trained, TrainingData, parse_l2};
use veletas_engine::search::eval::{StaticEval, load_weights};
use veletas_tools::output::{SameFileError, WriteError, check_not_input, write_output};

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
    fn check_output(&self) -> Result<(), TrainError> {
        let Some(output) = &self.output else { return Ok(()) };
        let inputs: Vec<(&str, &Path)> = self.files.iter().map(|f| ("", f.as_path())).collect();
        Ok(check_not_input(("-o", output.as_path()), &inputs)?)
    }

    /// Writes the weights to `--output` (if given) and gives the report to print.
    fn finish<E: Into<TrainError>>(&self, trained: Result<Trained, E>) -> Result<String, TrainError> {
        let Trained { mut report, weights } = trained.map_err(Into::into)?;
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

/// Arguments of `train-net`.
#[derive(Args, Debug, Clone)]
pub struct TrainNetArgs {
    #[command(flatten)]
    pub data: TrainingArgs,
    /// Units of the two hidden layers: H1 (a multiple of 16, up to 512) and H2 (1 to 64).
    #[arg(long, value_name = "H1,H2", default_value = "64,16", value_parser = parse_hidden)]
    pub hidden: (usize, usize),
    /// Passes over the training positions.
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub epochs: u32,
    /// Positions per step.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub batch: u32,
    /// Adam's learning rate at the start (it decays along a cosine to a twentieth).
    #[arg(long, value_name = "RATE", default_value_t = 1e-3, value_parser = parse_rate)]
    pub lr: f64,
    /// Train on (1 - L) x the game's result + L x the recorded root value (0 to 1).
    #[arg(long, value_name = "L", default_value_t = 0.0, value_parser = parse_value_mix)]
    pub value_mix: f64,
    /// The seed of the initial weights, the sampling, the order and the symmetries.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The most training positions kept in memory (a uniform sample when the files hold
    /// more; a quarter of it for the held-out ones): default 4,000,000 for the value network
    /// (about 120 bytes each), 400,000 with --policy (about 1 kB each).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub max_positions: Option<u64>,
    /// Random turns played from each recorded position before it becomes a sample (the
    /// search's cheap playout policy: the search scores its leaves after --search cutoff
    /// such turns, 6 by default).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub random_plies: u32,
    /// The linear model the network corrects: a weights file of train-eval, or with
    /// --policy of train-policy (default: the built-in weights).
    #[arg(long, value_name = "FILE")]
    pub base: Option<PathBuf>,
    /// Train the policy network (the move policy's correction, for --policy FILE) on the
    /// first steps of records made with --record-steps, instead of the value network; it has
    /// one hidden layer, of H1 units.
    #[arg(long)]
    pub policy: bool,
}

impl TrainNetArgs {
    /// The command line as the network file's first lines give it, every setting spelt out
    /// (`max_positions`: the one in force).
    fn command_line(&self, max_positions: u64) -> String {
        let files: Vec<String> = self.data.files.iter().map(|f| f.display().to_string()).collect();
        // The value network's own settings, or the policy network's flag.
        let (policy, value_mix, random_plies) = if self.policy {
            (" --policy", String::new(), String::new())
        } else {
            ("", format!(" --value-mix {}", self.value_mix), format!(" --random-plies {}", self.random_plies))
        };
        format!(
            "veletas train-net{policy} {} --holdout {} --l2 {} --hidden {},{} --epochs {} --batch {} --lr {}{value_mix} --seed {} --max-positions {max_positions}{random_plies}{}",
            files.join(" "),
            self.data.holdout,
            self.data.l2,
            self.hidden.0,
            self.hidden.1,
            self.epochs,
            self.batch,
            self.lr,
            self.seed,
            self.base.as_ref().map(|b| format!(" --base {}", b.display())).unwrap_or_default(),
        )
    }
}

/// `--hidden H1,H2`.
fn parse_hidden(text: &str) -> Result<(usize, usize), String> {
    let parsed = text.split_once(',').and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)));
    match parsed {
        Some((h1, h2)) if veletas_engine::net::NetWeights::zeros(h1, h2).is_some() => Ok((h1, h2)),
        _ => Err("expected H1,H2: H1 a multiple of 16 from 16 to 512, H2 from 1 to 64".into()),
    }
}

/// `--lr`: a number above 0 and at most 1.
fn parse_rate(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 1.0 => Ok(x),
        _ => Err("expected a number above 0 and at most 1".into()),
    }
}

/// Why a training command did not write its weights: the options, the `--base` weights or
/// the games' files are at fault (exit status 2), or the fit failed, the weights could not
/// be written or the built-in ones are missing (exit status 1).
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// `-o` names one of the games' files.
    #[error(transparent)]
    Output(#[from] SameFileError),
    /// The `--base` weights cannot be read, or are of the other kind.
    #[error("--base {path}: {detail}")]
    Base {
        /// The file given.
        path: String,
        /// What is wrong with it.
        detail: String,
    },
    /// What `train-eval` refused (games' files that cannot be read or make no training
    /// data), or its fit failing while it ran.
    #[error(transparent)]
    Eval(#[from] TrainEvalError),
    /// What `train-policy` refused: games' files that cannot be read or hold no first steps.
    #[error(transparent)]
    Policy(#[from] TrainPolicyError),
    /// What `train-net` refused: its layers' sizes, games' files that cannot be read or
    /// make no training data.
    #[error(transparent)]
    Net(#[from] TrainNetError),
    /// What `train-net --policy` refused: its layer's size, games' files that cannot be
    /// read or hold no first steps.
    #[error(transparent)]
    PolicyNet(#[from] TrainPolicyNetError),
    /// The weights cannot be written to `-o`.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// The program was built without its learned weights (a broken build, not the input).
    #[error("the built-in learned weights are missing")]
    NoBuiltIn,
}

impl Classified for TrainError {
    fn is_usage(&self) -> bool {
        match self {
            TrainError::Output(_)
            | TrainError::Base { .. }
            | TrainError::Policy(_)
            | TrainError::Net(_)
            | TrainError::PolicyNet(_) => true,
            TrainError::Eval(e) => !e.is_fit_failure(),
            TrainError::Write(_) | TrainError::NoBuiltIn => false,
        }
    }
}

/// The [`TrainError::Base`] of the file `path`.
fn base_error(path: &Path, detail: impl std::fmt::Display) -> TrainError {
    TrainError::Base { path: path.display().to_string(), detail: detail.to_string() }
}

/// `veletas train-net`: the report, once the network is written.
pub fn train_net(args: TrainNetArgs) -> Result<String, TrainError> {
    args.data.check_output()?;
    if args.policy {
        return train_policy_net(args);
    }
    let max_positions = args.max_positions.unwrap_or(4_000_000);
    let base = match &args.base {
        None => match StaticEval::learned() {
            StaticEval::Learned(w) => (w.model().clone(), "the built-in learned weights".to_string()),
            _ => return Err(TrainError::NoBuiltIn),
        },
        Some(path) => match load_weights(path) {
            Ok(StaticEval::Learned(w)) => (w.model().clone(), path.display().to_string()),
            Ok(_) => return Err(base_error(path, "not a weights file of train-eval")),
            Err(e) => return Err(base_error(path, e)),
        },
    };
    let command = args.command_line(max_positions);
    let settings = TrainNetSettings {
        data: args.data.data(),
        hidden: args.hidden,
        epochs: args.epochs,
        batch: args.batch as usize,
        learning_rate: args.lr,
        value_mix: args.value_mix,
        seed: args.seed,
        max_positions: usize::try_from(max_positions).unwrap_or(usize::MAX),
        random_plies: args.random_plies,
        base,
        version: env!("VELETAS_VERSION").to_string(),
        command,
    };
    args.data.finish(veletas_engine::learning::net_trainer::run(&settings))
}

/// `veletas train-net --policy`: the report, once the network is written.
fn train_policy_net(args: TrainNetArgs) -> Result<String, TrainError> {
    let base = match &args.base {
        None => (veletas_engine::search::policy::builtin_policy().clone(), "the built-in move policy".to_string()),
        Some(path) => match veletas_engine::search::policy::load_policy(path) {
            Ok(w) if !w.has_net() => (w.model().clone(), path.display().to_string()),
            Ok(_) => return Err(base_error(path, "a policy network, not a weights file of train-policy")),
            Err(e) => return Err(base_error(path, e)),
        },
    };
    let max_positions = args.max_positions.unwrap_or(400_000);
    let command = args.command_line(max_positions);
    let settings = veletas_engine::learning::net_trainer::policy::TrainPolicyNetSettings {
        data: args.data.data(),
        hidden: args.hidden.0,
        epochs: args.epochs,
        batch: args.batch as usize,
        learning_rate: args.lr,
        seed: args.seed,
        max_positions: usize::try_from(max_positions).unwrap_or(usize::MAX),
        base,
        version: env!("VELETAS_VERSION").to_string(),
        command,
    };
    args.data.finish(veletas_engine::learning::net_trainer::policy::run(&settings))
}

/// `veletas train-eval`: the report, once the weights are written.
pub fn train_eval(args: TrainArgs) -> Result<String, TrainError> {
    args.data.check_output()?;
    let settings = TrainSettings {
        data: args.data.data(),
        value_mix: args.value_mix,
        pooled: args.pooled,
        version: env!("VELETAS_VERSION").to_string(),
    };
    args.data.finish(veletas_engine::learning::eval_trainer::run(&settings))
}

/// `veletas train-policy`: the report, once the weights are written.
pub fn train_policy(args: TrainPolicyArgs) -> Result<String, TrainError> {
    args.data.check_output()?;
    let settings = TrainPolicySettings { data: args.data.data(), version: env!("VELETAS_VERSION").to_string() };
    args.data.finish(veletas_engine::learning::policy_trainer::run(&settings))
}
