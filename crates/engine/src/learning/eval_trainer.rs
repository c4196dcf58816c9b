//! `veletas train-eval`: learns the weights of the learned evaluation
//! ([`crate::search::eval::StaticEval::Learned`]) from the outcomes of recorded games.
//!
//! Every position in play of every game that ended normally is a sample: its features
//! ([`crate::search::eval::analyse`]) and whether Black went on to win. A logistic
//! regression (maximum likelihood with a small L2 penalty, by Newton's method) fits the
//! weights on the games whose number is not a multiple of `--holdout`; the others are held
//! out, and the held-out log-loss of the learned model is reported beside that of the
//! hand-written evaluation. Each rule family (classic, modern) with enough training
//! positions gets weights of its own ([`fit`]). docs/learning.md describes the whole
//! pipeline.

use std::time::Instant;

use crate::learning::linear_solver::solve;
use crate::learning::training_data::{GamesError, Trained, TrainingData};
use crate::search::eval::{EvalModel, FAMILY_NAMES, FEATURES, Features, analyse, family, feature_names};
use veletas_rules::record::{GameRecord, Termination};
use veletas_rules::{Color, Phase};

/// What `veletas train-eval` learns from and how (the command line's `TrainArgs` become
/// these).
#[derive(Debug, Clone)]
pub struct TrainSettings {
    /// The games, the held-out ones and the L2 penalty (on every weight but the bias).
    pub data: TrainingData,
    /// The share L of the search's recorded root value in the targets (0 to 1; see
    /// [`mixed_targets`]); 0: the game results alone.
    pub value_mix: f64,
    /// One set of weights for both rule families, fitted to all positions (`--pooled`).
    pub pooled: bool,
    /// The program's version, for the weights file's first lines.
    pub version: String,
}

/// `--value-mix`: a number from 0 to 1.
pub fn parse_value_mix(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("'{text}' is not a number from 0 to 1")),
    }
}

/// One position: its rule family, its features and the outcome (1 when Black won).
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// The position's rule family ([`family`]).
    pub family: usize,
    /// The position's features.
    pub features: Features,
    /// The target: 1.0 when Black won the game, else 0.0 ([`mixed_targets`] mixes in
    /// the search's value).
    pub black_won: f64,
    /// Black's chance by the search of the side to move here, when the record has it (the
    /// win rate annotated on the turn played from this position).
    pub value: Option<f64>,
}

/// The samples with targets `(1 - mix) * result + mix * value` (Black's chance by the
/// recorded root value of the side to move); a sample without a recorded value keeps its
/// result.
pub fn mixed_targets(samples: &[Sample], mix: f64) -> Vec<Sample> {
    samples
        .iter()
        .map(|s| Sample { black_won: (1.0 - mix) * s.black_won + mix * s.value.unwrap_or(s.black_won), ..*s })
        .collect()
}

/// Training and held-out samples, and what was skipped.
#[derive(Debug, Default)]
pub struct DataSet {
    /// Samples of the training games.
    pub train: Vec<Sample>,
    /// Samples of the held-out games.
    pub test: Vec<Sample>,
    /// Games used.
    pub games: usize,
    /// Games skipped (no result, or not ended on the board).
    pub skipped: usize,
}

/// Whether a game counts: won on the board (a bad Termination tag is no such game).
pub(crate) fn ended_on_the_board(game: &GameRecord) -> bool {
    matches!(game.termination(), Ok(None | Some(Termination::Normal))) && game.winner().is_some()
}

/// Reads the games of `data` that ended on the board into samples (the others are counted
/// as skipped); game k of those (from 0, in file order) is held out when k is a multiple of
/// `holdout`.
pub fn read_samples(data: &TrainingData) -> Result<DataSet, TrainEvalError> {
    let mut set = DataSet::default();
    // The model has no board-size feature: one size per training run.
    let mut size: Option<(u8, String)> = None;
    let skipped = data.for_each_game(ended_on_the_board, |game| {
        let shown = game.file.display();
        let black_won = if game.record.winner() == Some(Color::Black) { 1.0 } else { 0.0 };
        let this = game.start()?.variant().size();
        match &size {
            None => size = Some((this, shown.to_string())),
            Some((first, file)) if *first != this => {
                return Err(TrainEvalError::Sizes {
                    file: shown.to_string(),
                    size: this,
                    first_file: file.clone(),
                    first_size: *first,
                });
            }
            Some(_) => {}
        }
        set.games += 1;
        let target = if game.held_out { &mut set.test } else { &mut set.train };
        Ok(game.replay(|i, position| {
            if position.phase() == Phase::Play
                && let Some((_, features)) = analyse(position)
            {
                // The search from this position: the win rate of the turn played from it,
                // for its mover.
                let value = game.record.annotation(i).evaluation.map(|e| match position.side_to_move() {
                    Color::Black => e.winrate.probability(),
                    Color::White => e.winrate.other_side().probability(),
                });
                target.push(Sample { family: family(position), features, black_won, value });
            }
        })?)
    })?;
    set.skipped = skipped;
    Ok(set)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// `ln(1 + e^x)` without overflow.
fn softplus(x: f64) -> f64 {
    if x > 0.0 { x + (-x).exp().ln_1p() } else { x.exp().ln_1p() }
}

/// The mean log-loss (natural log) of probabilities `p` of the samples (NaN for none).
pub fn log_loss(samples: &[Sample], p: impl Fn(&Sample) -> f64) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let total: f64 = samples
        .iter()
        .map(|s| {
            let q = p(s).clamp(1e-12, 1.0 - 1e-12);
            -(s.black_won * q.ln() + (1.0 - s.black_won) * (1.0 - q).ln())
        })
        .sum();
    total / samples.len() as f64
}

/// Why `veletas train-eval` ([`run`], [`read_samples`]) wrote no weights: the games' files
/// (the user's to mend) or the fit itself (a failure while it ran, see
/// [`TrainEvalError::is_fit_failure`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TrainEvalError {
    /// A file, a game's start or a move cannot be read.
    #[error(transparent)]
    Games(#[from] GamesError),
    /// The files hold games of two board sizes.
    #[error(
        "{file}: a {size}x{size} game, but {first_file} began with {first_size}x{first_size} games: \
         the model has no board-size feature, so train on one size at a time"
    )]
    Sizes {
        /// The file of the game of the other size.
        file: String,
        /// Its size.
        size: u8,
        /// The file of the first game.
        first_file: String,
        /// The first game's size.
        first_size: u8,
    },
    /// The fit to the game results found no weights.
    #[error(transparent)]
    Fit(#[from] FitError),
    /// The fit to the mixed targets of `--value-mix` found no weights.
    #[error("--value-mix {mix}: {source}")]
    MixFit {
        /// The share L of `--value-mix`.
        mix: f64,
        /// Why.
        source: FitError,
    },
}

impl TrainEvalError {
    /// Whether the fit failed while it ran (did not converge, got stuck, came out worse than
    /// a constant, or found the weights undetermined) rather than the games' files giving it
    /// nothing to fit.
    pub fn is_fit_failure(&self) -> bool {
        match self {
            TrainEvalError::Fit(e) | TrainEvalError::MixFit { source: e, .. } => !matches!(e, FitError::NoSamples),
            TrainEvalError::Games(_) | TrainEvalError::Sizes { .. } => false,
        }
    }
}

/// Why [`fit`] found no weights.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FitError {
    /// No training position.
    #[error("no training positions")]
    NoSamples,
    /// The curvature is singular: the features do not determine the weights.
    #[error("the training data do not determine the weights")]
    Undetermined,
    /// Newton's method did not reach the minimum within its iterations.
    #[error("the fit did not converge in {0} Newton steps (too few or too one-sided games?): nothing written")]
    NoConvergence(usize),
    /// No step lowers the loss while the gradient says the minimum is not reached.
    #[error("the fit is stuck: no step lowers the loss any more (decrement {0:.3e}): nothing written")]
    Stuck(f64),
    /// The fitted weights predict their own training positions worse than the constant
    /// rate does (a correct fit never can: the constant is one of the models).
    #[error(
        "the fit predicts its own training positions worse than a constant (log-loss {learned:.4} against \
         {constant:.4}): nothing written"
    )]
    WorseThanConstant {
        /// The learned model's training log-loss.
        learned: f64,
        /// The constant rate's training log-loss.
        constant: f64,
    },
}

/// Newton iterations before [`fit`] gives up (it needs about ten).
const MAX_NEWTON_STEPS: usize = 100;

/// The largest Levenberg-Marquardt damping tried before the fit is declared stuck.
const MAX_DAMPING: f64 = 1e12;

/// The Newton decrement `gᵀ H⁻¹ g` (twice the decrease a full step predicts, in nats per
/// position) under which the fit is final.
const DECREMENT_TOLERANCE: f64 = 1e-14;

/// The penalized mean loss the fit minimizes: mean `ln(1 + e^z) - y z` over the samples
/// (`z` the logit, `y` the outcome) plus `l2 / 2` times the squared weights but the bias.
fn objective(samples: &[Sample], w: &[f64; FEATURES], l2: f64) -> f64 {
    let data: f64 = samples
        .iter()
        .map(|s| {
            let z: f64 = w.iter().zip(&s.features.0).map(|(a, b)| a * b).sum();
            softplus(z) - s.black_won * z
        })
        .sum();
    data / samples.len() as f64 + 0.5 * l2 * w[1..].iter().map(|x| x * x).sum::<f64>()
}

/// The fewest training positions of a rule family for weights of its own; a family with
/// fewer takes the weights fitted to all positions.
pub const MIN_FAMILY_POSITIONS: usize = 2000;

/// The weights of both rule families: those fitted to all `samples` ([`fit_weights`]),
/// and, unless `pooled`, for each family with at least [`MIN_FAMILY_POSITIONS`] samples
/// (and not the only one) those fitted to its own.
pub fn fit(samples: &[Sample], l2: f64, pooled: bool) -> Result<EvalModel, FitError> {
    let mut model = EvalModel::shared(fit_weights(samples, l2)?);
    if !pooled {
        for (family, weights) in model.weights.iter_mut().enumerate() {
            let own: Vec<Sample> = samples.iter().filter(|s| s.family == family).copied().collect();
            if own.len() >= MIN_FAMILY_POSITIONS && own.len() < samples.len() {
                *weights = fit_weights(&own, l2)?;
            }
        }
    }
    Ok(model)
}

/// Maximum-likelihood logistic regression with an L2 penalty `l2` per sample on every
/// weight but the bias (feature 0), by Newton's method from the hand-written model: each
/// step is damped (Levenberg-Marquardt) until it lowers the penalized loss as the
/// quadratic model predicts, and the fit ends when the Newton decrement says the minimum
/// is reached. A fit
/// that does not converge, or ends worse than the constant rate on its own training data,
/// is an error.
pub fn fit_weights(samples: &[Sample], l2: f64) -> Result<[f64; FEATURES], FitError> {
    if samples.is_empty() {
        return Err(FitError::NoSamples);
    }
    let n = FEATURES;
    let m = samples.len() as f64;
    let mut w = [0.0; FEATURES];
    w[1] = 1.0; // start from the hand-written evaluation
    let mut value = objective(samples, &w, l2);
    let mut converged = false;
    let mut damping = 0.0;
    for _ in 0..MAX_NEWTON_STEPS {
        let mut grad = vec![0.0; n];
        let mut hess = vec![0.0; n * n];
        for s in samples {
            let f = &s.features.0;
            let p = sigmoid(w.iter().zip(f).map(|(a, b)| a * b).sum::<f64>());
            let r = p - s.black_won;
            let h = p * (1.0 - p);
            for i in 0..n {
                grad[i] += r * f[i];
                for j in 0..=i {
                    hess[i * n + j] += h * f[i] * f[j];
                }
            }
        }
        for i in 0..n {
            for j in 0..i {
                hess[j * n + i] = hess[i * n + j];
            }
        }
        for i in 0..n {
            grad[i] /= m;
            for j in 0..n {
                hess[i * n + j] /= m;
            }
            if i > 0 {
                grad[i] += l2 * w[i];
                hess[i * n + i] += l2;
            }
            hess[i * n + i] += 1e-9;
        }
        let step = solve(hess.clone(), grad.clone(), n).ok_or(FitError::Undetermined)?;
        let decrement: f64 = grad.iter().zip(&step).map(|(g, d)| g * d).sum();
        if !decrement.is_finite() {
            return Err(FitError::Undetermined);
        }
        if decrement < DECREMENT_TOLERANCE {
            converged = true;
            break;
        }
        // Step control (Levenberg-Marquardt): the step solves (H + μ I) δ = g and is taken
        // only if it lowers the loss by at least a quarter of the decrease `gᵀ δ` that the
        // quadratic model predicts; otherwise μ grows tenfold (a shorter step, turning
        // towards the gradient) and the step is tried again. μ shrinks after each success.
        // Where the logits saturate the curvature is almost 0 and the plain Newton step
        // astronomically long: this is what kept the weights from diverging.
        let mut accepted = false;
        while damping <= MAX_DAMPING {
            let mut damped = hess.clone();
            for i in 0..n {
                damped[i * n + i] += damping;
            }
            let step = if damping == 0.0 { Some(step.clone()) } else { solve(damped, grad.clone(), n) };
            if let Some(step) = step {
                let predicted: f64 = grad.iter().zip(&step).map(|(g, d)| g * d).sum();
                let next: [f64; FEATURES] = std::array::from_fn(|i| w[i] - step[i]);
                let next_value = objective(samples, &next, l2);
                if predicted > 0.0 && next_value <= value - 0.25 * predicted {
                    w = next;
                    value = next_value;
                    damping = if damping < 1e-9 { 0.0 } else { damping / 10.0 };
                    accepted = true;
                    break;
                }
            }
            damping = if damping == 0.0 { 1e-8 } else { damping * 10.0 };
        }
        if !accepted {
            // No step lowers the loss: the minimum within rounding if the decrement is
            // small, otherwise the fit is stuck.
            if decrement < 1e-8 {
                converged = true;
                break;
            }
            return Err(FitError::Stuck(decrement));
        }
    }
    if !converged {
        return Err(FitError::NoConvergence(MAX_NEWTON_STEPS));
    }
    check_against_constant(samples, &EvalModel::shared(w))?;
    Ok(w)
}

/// Refuses `model` when it predicts `samples` worse than the constant rate of Black wins
/// does (beyond rounding): a sign of a fit gone wrong.
pub fn check_against_constant(samples: &[Sample], model: &EvalModel) -> Result<(), FitError> {
    let rate = samples.iter().map(|s| s.black_won).sum::<f64>() / samples.len().max(1) as f64;
    let constant = log_loss(samples, |_| rate);
    let learned = log_loss(samples, |s| sigmoid(model.logit(s.family, &s.features)));
    let finite = model.weights.iter().flatten().all(|x| x.is_finite());
    if !finite || learned.is_nan() || learned > constant + 1e-9 {
        return Err(FitError::WorseThanConstant { learned, constant });
    }
    Ok(())
}

/// `veletas train-eval`: reads, fits and reports; the weights file's text is for the
/// command line to write.
pub fn run(args: &TrainSettings) -> Result<Trained, TrainEvalError> {
    let start = Instant::now();
    let data = read_samples(&args.data)?;
    let read_secs = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let l2 = args.data.l2;
    let model = fit(&data.train, l2, args.pooled)?;
    // With --value-mix, the weights written are those fitted to the mixed targets; the
    // report compares both fits on the held-out game results.
    let results_only = model.clone();
    let model = if args.value_mix > 0.0 {
        fit(&mixed_targets(&data.train, args.value_mix), l2, args.pooled)
            .map_err(|source| TrainEvalError::MixFit { mix: args.value_mix, source })?
    } else {
        model
    };
    let fit_secs = start.elapsed().as_secs_f64();
    let hand = |s: &Sample| sigmoid(s.features.0[1]);
    let learned = |s: &Sample| sigmoid(model.logit(s.family, &s.features));
    let rate = |samples: &[Sample]| samples.iter().map(|s| s.black_won).sum::<f64>() / samples.len().max(1) as f64;
    let base_rate = rate(&data.train);
    let mut report = format!(
        "{} games ({} skipped), {} training and {} held-out positions; read in {read_secs:.2} s, fitted in {fit_secs:.2} s\n",
        data.games,
        data.skipped,
        data.train.len(),
        data.test.len()
    );
    report.push_str("held-out log-loss (nats per position; lower is better):\n");
    let held_out_constant = log_loss(&data.test, |_| base_rate);
    report.push_str(&format!("  constant (Black wins {:.1}%)  {held_out_constant:.4}\n", base_rate * 100.0));
    report.push_str(&format!("  hand-written evaluation     {:.4}\n", log_loss(&data.test, hand)));
    let held_out_learned = log_loss(&data.test, learned);
    report.push_str(&format!("  learned evaluation          {held_out_learned:.4}\n"));
    if held_out_learned > held_out_constant {
        report.push_str(
            "  (the learned evaluation predicts the held-out games worse than the constant: too few games to learn from?)\n",
        );
    }
    let by_family: Vec<(usize, Vec<Sample>, Vec<Sample>)> = (0..2)
        .map(|f| {
            let pick = |set: &[Sample]| set.iter().filter(|s| s.family == f).copied().collect::<Vec<Sample>>();
            (f, pick(&data.train), pick(&data.test))
        })
        .filter(|(_, train, test)| !train.is_empty() || !test.is_empty())
        .collect();
    if by_family.len() > 1 {
        report.push_str("  by rule family:  training  held out  constant  hand    learned  weights\n");
        for (f, train, test) in &by_family {
            let own = model.weights[*f] != model.weights[1 - *f];
            report.push_str(&format!(
                "    {:8} {:>12} {:>9} {:9.4} {:7.4} {:8.4}  {}\n",
                FAMILY_NAMES[*f],
                train.len(),
                test.len(),
                log_loss(test, |_| rate(train)),
                log_loss(test, hand),
                log_loss(test, learned),
                if own { "its own" } else { "fitted to all positions" },
            ));
        }
    }
    if args.value_mix > 0.0 {
        let valued = data.train.iter().filter(|s| s.value.is_some()).count();
        report.push_str(&format!(
            "value mix {}: targets (1 - {0}) x result + {0} x recorded root value ({valued} of {} training positions have one);\n  held-out log-loss against the results: fitted to the results {:.4}, to the mix {held_out_learned:.4}\n",
            args.value_mix,
            data.train.len(),
            log_loss(&data.test, |s| sigmoid(results_only.logit(s.family, &s.features))),
        ));
    }
    report.push_str(&format!(
        "training log-loss: constant {:.4}, hand {:.4}, learned {:.4}\n",
        log_loss(&data.train, |_| base_rate),
        log_loss(&data.train, hand),
        log_loss(&data.train, learned)
    ));
    let names = feature_names();
    if model.weights[0] == model.weights[1] {
        report.push_str("weights:\n");
        for (name, w) in names.iter().zip(model.weights[0].iter()) {
            report.push_str(&format!("  {name:19} {w:+.4}\n"));
        }
    } else {
        report.push_str("weights:              classic   modern\n");
        for (i, name) in names.iter().enumerate() {
            report.push_str(&format!("  {name:19} {:+.4}  {:+.4}\n", model.weights[0][i], model.weights[1][i]));
        }
    }
    let files: Vec<String> = args.data.files.iter().map(|f| f.display().to_string()).collect();
    let weights = format!(
        "# Learned evaluation weights: veletas train-eval {} --holdout {} --l2 {}{}{}\n# veletas {}; {} games, {} positions; held-out log-loss hand {:.4}, learned {:.4}\n{}",
        files.join(" "),
        args.data.holdout,
        l2,
        if args.value_mix > 0.0 { format!(" --value-mix {}", args.value_mix) } else { String::new() },
        if args.pooled { " --pooled" } else { "" },
        args.version,
        data.games,
        data.train.len() + data.test.len(),
        log_loss(&data.test, hand),
        held_out_learned,
        model.to_text()
    );
    Ok(Trained { report, weights })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(x: f64, won: bool) -> Sample {
        family_sample(0, x, won)
    }

    fn family_sample(family: usize, x: f64, won: bool) -> Sample {
        let mut f = [0.0; FEATURES];
        f[0] = 1.0;
        f[2] = x;
        Sample { family, features: Features(f), black_won: if won { 1.0 } else { 0.0 }, value: None }
    }

    /// `per_x` samples of `family` at each x from -2 to 2 in steps of 0.1, won in
    /// proportion to sigmoid(bias + slope x).
    fn law(family: usize, bias: f64, slope: f64, per_x: usize) -> Vec<Sample> {
        let mut samples = Vec::new();
        for step in -20..=20 {
            let x = f64::from(step) / 10.0;
            let wins = (sigmoid(bias + slope * x) * per_x as f64).round() as usize;
            samples.extend((0..wins).map(|_| family_sample(family, x, true)));
            samples.extend((wins..per_x).map(|_| family_sample(family, x, false)));
        }
        samples
    }

    #[test]
    fn the_fit_recovers_a_known_logistic_law() {
        // P(win | x) = sigmoid(0.5 + 1.5 x), sampled exactly in proportion.
        let mut samples = Vec::new();
        for step in -20..=20 {
            let x = f64::from(step) / 10.0;
            let p = sigmoid(0.5 + 1.5 * x);
            let wins = (p * 1000.0).round() as usize;
            samples.extend((0..wins).map(|_| sample(x, true)));
            samples.extend((wins..1000).map(|_| sample(x, false)));
        }
        let model = fit(&samples, 0.0, false).unwrap();
        assert!((model.weights[0][0] - 0.5).abs() < 0.01, "{:?}", model.weights);
        assert!((model.weights[0][2] - 1.5).abs() < 0.01, "{:?}", model.weights);
        assert!(log_loss(&samples, |s| sigmoid(model.logit(0, &s.features))) < log_loss(&samples, |_| 0.5));
    }

    #[test]
    fn a_saturated_start_is_stepped_down_not_thrown_to_huge_weights() {
        // The hand logit (feature 1, where the fit starts from weight 1) is ±40: p is 0 or
        // 1 at the start, the curvature almost 0, and a full Newton step is astronomically
        // long (plain Newton ended at a bias of -2.7e8 on 20 random games). The law is
        // P(win) = 0.6 on the + side and 0.4 on the - side.
        let mut samples = Vec::new();
        for (x, wins) in [(40.0, 60), (-40.0, 40)] {
            for k in 0..100 {
                let mut f = [0.0; FEATURES];
                f[0] = 1.0;
                f[1] = x;
                samples.push(Sample {
                    family: 0,
                    features: Features(f),
                    black_won: if k < wins { 1.0 } else { 0.0 },
                    value: None,
                });
            }
        }
        let model = fit(&samples, 0.0, false).unwrap();
        let logit = |p: f64| (p / (1.0 - p)).ln();
        assert!(model.weights[0][0].abs() < 1e-6, "{:?}", model.weights);
        assert!((model.weights[0][1] - logit(0.6) / 40.0).abs() < 1e-6, "{:?}", model.weights);
        assert!(log_loss(&samples, |s| sigmoid(model.logit(0, &s.features))) < log_loss(&samples, |_| 0.5));
    }

    #[test]
    fn value_mixes_move_the_targets_towards_the_recorded_values() {
        let valued = Sample { value: Some(0.8), ..sample(1.0, false) };
        let plain = sample(1.0, true);
        let mixed = mixed_targets(&[valued, plain], 0.25);
        assert!((mixed[0].black_won - 0.2).abs() < 1e-12, "{:?}", mixed[0]);
        assert_eq!(mixed[1].black_won, 1.0, "no value: the result");
        assert_eq!(mixed_targets(&[valued], 0.0)[0].black_won, 0.0);
        assert!(parse_value_mix("0.5").is_ok() && parse_value_mix("1.5").is_err() && parse_value_mix("x").is_err());
    }

    #[test]
    fn a_model_worse_than_the_constant_on_its_training_data_is_refused() {
        let samples: Vec<Sample> = (0..10).map(|k| sample(f64::from(k), k % 2 == 0)).collect();
        let mut weights = [0.0; FEATURES];
        weights[2] = 5.0;
        let err = check_against_constant(&samples, &EvalModel::shared(weights)).unwrap_err();
        assert!(matches!(err, FitError::WorseThanConstant { .. }), "{err}");
        assert!(err.to_string().contains("nothing written"));
        assert!(check_against_constant(&samples, &EvalModel::shared([0.0; FEATURES])).is_ok());
        weights[2] = f64::NAN;
        assert!(check_against_constant(&samples, &EvalModel::shared(weights)).is_err());
    }

    #[test]
    fn each_rule_family_with_enough_positions_gets_its_own_weights() {
        // Classic positions follow sigmoid(0.5 + 1.5 x), modern ones sigmoid(-0.5 - x).
        let mut samples = law(0, 0.5, 1.5, 100);
        samples.extend(law(1, -0.5, -1.0, 100));
        let model = fit(&samples, 0.0, false).unwrap();
        let [classic, modern] = model.weights;
        assert!((classic[0] - 0.5).abs() < 0.02 && (classic[2] - 1.5).abs() < 0.02, "{classic:?}");
        assert!((modern[0] + 0.5).abs() < 0.02 && (modern[2] + 1.0).abs() < 0.02, "{modern:?}");
        // --pooled: one set, fitted to both, the same for each family.
        let pooled = fit(&samples, 0.0, true).unwrap();
        assert_eq!(pooled.weights[0], pooled.weights[1]);
        assert!((pooled.weights[0][2] - classic[2]).abs() > 0.5, "{pooled:?}");
        let per = |m: &EvalModel| log_loss(&samples, |s| sigmoid(m.logit(s.family, &s.features)));
        assert!(per(&model) < per(&pooled) - 0.01);
        // A family under MIN_FAMILY_POSITIONS takes the weights fitted to all positions.
        let mut few = law(0, 0.5, 1.5, 100);
        few.extend(law(1, -0.5, -1.0, 1));
        assert!(few.iter().filter(|s| s.family == 1).count() < MIN_FAMILY_POSITIONS);
        let model = fit(&few, 0.0, false).unwrap();
        assert_eq!(model.weights[1], fit(&few, 0.0, true).unwrap().weights[1]);
        assert_ne!(model.weights[0], model.weights[1]);
        // One family only: one set for both.
        let model = fit(&law(1, -0.5, -1.0, 100), 0.0, false).unwrap();
        assert_eq!(model.weights[0], model.weights[1]);
    }

    #[test]
    fn weights_files_round_trip_and_bad_ones_are_refused() {
        let model = EvalModel::shared(std::array::from_fn(|i| i as f64 / 4.0));
        assert_eq!(EvalModel::parse(&model.to_text()).unwrap(), model);
        assert!(!model.to_text().contains("classic"), "one set: NAME WEIGHT lines, as before families");
        assert!(EvalModel::parse("bias 1\n").unwrap_err().to_string().contains("no classic weight for 'hand_logit'"));
        assert!(EvalModel::parse("speed 1\n").unwrap_err().to_string().contains("unknown feature"));
        assert!(EvalModel::parse("bias x\n").unwrap_err().to_string().contains("bad weight"));
        assert!(EvalModel::parse(&format!("{}bias 2\n", model.to_text())).unwrap_err().to_string().contains("twice"));
        // Weights of their own per family: FAMILY NAME WEIGHT lines, read back the same.
        let mut split = model.clone();
        split.weights[1][3] = -2.5;
        let text = split.to_text();
        assert!(text.contains("modern black_to_move -2.500000\n") && text.contains("classic bias "), "{text}");
        assert_eq!(EvalModel::parse(&text).unwrap(), split);
        // A shared line and one family's line mixed: the other family's weight is the shared one.
        let mixed = model.to_text().replace("black_to_move 0.750000\n", "classic black_to_move 0.750000\n");
        let err = EvalModel::parse(&mixed).unwrap_err().to_string();
        assert!(err.contains("no modern weight for 'black_to_move'"), "{err}");
        let mixed = mixed + "modern black_to_move -2.5\n";
        assert_eq!(EvalModel::parse(&mixed).unwrap(), split);
        let twice = format!("{}classic bias 1\n", model.to_text());
        assert!(EvalModel::parse(&twice).unwrap_err().to_string().contains("'bias' given twice for the classic rules"));
        assert!(EvalModel::parse("odd bias 1\n").unwrap_err().to_string().contains("unknown rule family 'odd'"));
        assert!(EvalModel::parse("classic bias 1 2\n").unwrap_err().to_string().contains("expected NAME WEIGHT"));
        // The weights built into the binary parse.
        assert!(EvalModel::parse(crate::search::eval::LEARNED_WEIGHTS).is_ok());
    }
}
