//! `veletas train-policy`: fits the move policy ([`crate::search::policy`]) to the first
//! steps' playouts recorded in self-play records (`veletas tournament --record-steps`, the
//! `steps=` annotation of docs/records.md) and writes its weights file.
//!
//! Every turn whose annotation has first steps is a sample: the position before the turn
//! and the share of the root's playouts each first step received ([`sample_of`]). Game k
//! (from 0, in file order) is held out when k is a multiple of `--holdout`; the fit
//! ([`fit_policy`], per rule family) uses the others. The report gives, per rule family,
//! the held-out cross-entropy and top-1 agreement of the search's old priors (a tenth for
//! not moving, the rest shared equally), of the built-in policy and of the fitted one.
//! docs/learning.md shows the pipeline.

use std::time::Instant;

use crate::learning::policy_fit::{
    PolicySample, cross_entropy, fit_policy, model_priors, sample_of, top1_agreement, uniform_priors,
};
use crate::learning::training_data::{GamesError, Trained, TrainingData};
use crate::search::policy::{PolicyModel, builtin_policy};
use veletas_rules::record::step_word;

/// What `veletas train-policy` learns from.
#[derive(Debug, Clone)]
pub struct TrainPolicySettings {
    /// Self-play games with first steps recorded, the held-out ones and the L2 penalty.
    pub data: TrainingData,
    /// The program's version, for the weights file's first lines.
    pub version: String,
}

/// The samples of the records, and what was read.
#[derive(Debug, Default)]
pub struct PolicyData {
    /// Samples of the training games.
    pub train: Vec<PolicySample>,
    /// Samples of the held-out games.
    pub test: Vec<PolicySample>,
    /// Games read.
    pub games: usize,
    /// Games with at least one turn's first steps.
    pub games_with_steps: usize,
    /// Turns whose first steps are no sample (a step not legal in the position).
    pub skipped: usize,
}

/// Reads the games of `data` into samples; game k (from 0, in file order) is held out
/// when k is a multiple of `holdout`. A file that cannot be read, or a game whose moves do
/// not replay, is an error naming the file.
pub fn read_policy_samples(data: &TrainingData) -> Result<PolicyData, GamesError> {
    let mut set = PolicyData::default();
    data.for_each_game(
        |_| true,
        |game| {
            set.games += 1;
            let mut any = false;
            game.replay(|i, position| {
                let Some(steps) = game.record.annotation(i).first_steps else { return };
                let counts: Vec<(String, f64)> =
                    steps.entries().iter().map(|&(step, visits)| (step_word(step), visits as f64)).collect();
                match sample_of(game.number, position, &counts) {
                    Ok(sample) => {
                        any = true;
                        if game.held_out { set.test.push(sample) } else { set.train.push(sample) }
                    }
                    Err(_) => set.skipped += 1,
                }
            })?;
            set.games_with_steps += usize::from(any);
            Ok(())
        },
    )?;
    Ok(set)
}

/// Why `veletas train-policy` ([`run`]) wrote no weights: the games' files cannot be read or
/// give it nothing to fit (the fit itself cannot fail).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrainPolicyError {
    /// A file, a game's start or a move cannot be read.
    #[error(transparent)]
    Games(#[from] GamesError),
    /// No turn of the games has its first steps recorded.
    #[error(
        "no first steps in the {games} games read: record them with veletas tournament --record-steps \
         (scripts/selfplay-data.sh -f)"
    )]
    NoFirstSteps {
        /// Games read.
        games: usize,
    },
    /// Every turn with first steps is in a held-out game.
    #[error(
        "no training positions: the first steps are all in held-out games ({games} games; every {holdout}th is held out)"
    )]
    AllHeldOut {
        /// Games read.
        games: usize,
        /// `--holdout`.
        holdout: u64,
    },
}

/// `veletas train-policy`: reads, fits and reports; the weights file's text is for the
/// command line to write.
pub fn run(args: &TrainPolicySettings) -> Result<Trained, TrainPolicyError> {
    let start = Instant::now();
    let data = read_policy_samples(&args.data)?;
    let read_secs = start.elapsed().as_secs_f64();
    if data.train.is_empty() && data.test.is_empty() {
        return Err(TrainPolicyError::NoFirstSteps { games: data.games });
    }
    if data.train.is_empty() {
        return Err(TrainPolicyError::AllHeldOut { games: data.games, holdout: args.data.holdout });
    }
    let start = Instant::now();
    let fitted = fit_policy(&data.train, args.data.l2, builtin_policy());
    let fit_secs = start.elapsed().as_secs_f64();
    let mut report = format!(
        "{} games ({} with first steps), {} training and {} held-out positions ({} skipped); read in {read_secs:.2} s, fitted in {fit_secs:.2} s\n",
        data.games,
        data.games_with_steps,
        data.train.len(),
        data.test.len(),
        data.skipped
    );
    let (table, summary) = held_out_table(&data.train, &data.test, &fitted);
    report.push_str(&table);
    let files: Vec<String> = args.data.files.iter().map(|f| f.display().to_string()).collect();
    let weights = format!(
        "# The learned move policy (crates/engine/src/search/policy.rs): FAMILY FEATURE WEIGHT.\n\
         # veletas {}: veletas train-policy {} --holdout {} --l2 {}\n\
         # {} games, {} positions ({} training); held-out cross-entropy: {}\n{}",
        args.version,
        files.join(" "),
        args.data.holdout,
        args.data.l2,
        data.games,
        data.train.len() + data.test.len(),
        data.train.len(),
        if summary.is_empty() { "no held-out positions".to_string() } else { summary.join("; ") },
        fitted.to_text()
    );
    Ok(Trained { report, weights })
}

/// The report's table: per rule family, the training and held-out positions, the held-out
/// cross-entropy and top-1 agreement of the search's old priors, the built-in policy and
/// `fitted`; and a one-line summary per family for the weights file's first lines.
pub fn held_out_table(train: &[PolicySample], test: &[PolicySample], fitted: &PolicyModel) -> (String, Vec<String>) {
    let mut report = String::new();
    report.push_str(
        "held-out cross-entropy (nats per position, lower is better) and top-1 agreement (the prior's first choice is the search's most visited first step):\n",
    );
    report.push_str("family   training  held out | cross-entropy: old priors  built-in  fitted | top-1: old priors  built-in  fitted\n");
    let mut summary = Vec::new();
    for (family, name) in [(0, "classic"), (1, "modern")] {
        let train = train.iter().filter(|s| s.family == family).count();
        let held: Vec<&PolicySample> = test.iter().filter(|s| s.family == family).collect();
        if train == 0 && held.is_empty() {
            continue;
        }
        let kept = if train == 0 { " (no training positions: the built-in weights kept)" } else { "" };
        if held.is_empty() {
            report.push_str(&format!("{name:8} {train:8} {:9} | no held-out positions{kept}\n", 0));
            continue;
        }
        let held: Vec<PolicySample> = held.into_iter().cloned().collect();
        let old = |s: &PolicySample| uniform_priors(s, 0.1);
        let built = |s: &PolicySample| model_priors(builtin_policy(), s);
        let new = |s: &PolicySample| model_priors(fitted, s);
        let (ce_old, ce_built, ce_new) =
            (cross_entropy(&held, old), cross_entropy(&held, built), cross_entropy(&held, new));
        report.push_str(&format!(
            "{name:8} {train:8} {:9} | {ce_old:25.4} {ce_built:9.4} {ce_new:7.4} | {:17.3} {:9.3} {:7.3}{kept}\n",
            held.len(),
            top1_agreement(&held, old),
            top1_agreement(&held, built),
            top1_agreement(&held, new),
        ));
        summary.push(format!("{name} {ce_old:.4} old priors, {ce_built:.4} built-in, {ce_new:.4} fitted"));
    }
    (report, summary)
}
