//! `veletas train-eval`: learns the weights of the learned evaluation
//! ([`crate::search::eval::StaticEval::Learned`]) from the outcomes of recorded games.
//!
//! Every position in play of every game that ended normally is a sample: its features
//! ([`crate::search::eval::analyse`]) and whether Black went on to win. A logistic
//! regression (maximum likelihood with a small L2 penalty, by Newton's method) fits the
//! weights on the games whose number is not a multiple of `--holdout`; the others are held
//! out, and the held-out log-loss of the learned model is reported beside that of the
//! hand-written evaluation. docs/learning.md describes the whole pipeline.

use std::path::PathBuf;
use std::time::Instant;

use crate::linear::solve;
use crate::search::eval::{EvalModel, FEATURES, Features, analyse, feature_names};
use veletas_rules::record::{Termination, read_games};
use veletas_rules::{Color, Phase};

/// What `veletas train-eval` learns from and where the weights go (the command line's
/// `TrainSettings` become these).
#[derive(Debug, Clone)]
pub struct TrainSettings {
    /// Record files of the training games.
    pub files: Vec<PathBuf>,
    /// Where the weights go (written to a temporary file, then renamed).
    pub output: Option<PathBuf>,
    /// Every N-th game (by its order in the files) is held out for testing (N at least 2).
    pub holdout: u64,
    /// L2 penalty on the weights (not the bias), per sample (see [`parse_l2`]).
    pub l2: f64,
    /// The share L of the search's recorded root value in the targets (0 to 1; see
    /// [`mixed_targets`]); 0: the game results alone.
    pub value_mix: f64,
}

/// `--value-mix`: a number from 0 to 1.
pub fn parse_value_mix(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("'{text}' is not a number from 0 to 1")),
    }
}

/// `--l2`: a finite number from 0 to 1e6.
pub fn parse_l2(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=1e6).contains(&x) => Ok(x),
        _ => Err(format!("'{text}' is not a number from 0 to 1e6")),
    }
}

/// One position: its features and the outcome (1 when Black won).
#[derive(Clone, Copy, Debug)]
pub struct Sample {
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

/// Reads the games of `files` into samples; game k (from 0, in file order) is held out
/// when k is a multiple of `holdout`.
pub fn read_samples(files: &[PathBuf], holdout: u64) -> Result<DataSet, String> {
    let mut data = DataSet::default();
    let mut k = 0u64;
    // The model has no board-size feature: one size per training run.
    let mut size: Option<(u8, String)> = None;
    for path in files {
        let shown = path.display();
        // Bounded, as every record file is read; a file still being written may end in the
        // middle of a game: that game is left out.
        let games = read_games(path).map_err(|e| format!("{shown}: {e}"))?.games;
        for game in games {
            // Only games won on the board (a bad Termination tag is no such game).
            let normal = matches!(game.termination(), Ok(None | Some(Termination::Normal)));
            let Some(winner) = game.winner().filter(|_| normal) else {
                data.skipped += 1;
                continue;
            };
            let black_won = if winner == Color::Black { 1.0 } else { 0.0 };
            let mut position = game.start_position().map_err(|e| format!("{shown}: {e}"))?;
            let this = position.variant().size();
            match &size {
                None => size = Some((this, shown.to_string())),
                Some((first, file)) if *first != this => {
                    return Err(format!(
                        "{shown}: a {this}x{this} game, but {file} began with {first}x{first} games: \
                         the model has no board-size feature, so train on one size at a time"
                    ));
                }
                Some(_) => {}
            }
            let held_out = k.is_multiple_of(holdout);
            k += 1;
            data.games += 1;
            let target = if held_out { &mut data.test } else { &mut data.train };
            for (i, text) in game.moves.iter().enumerate() {
                let mv = position.parse_move(text).map_err(|e| format!("{shown}: '{text}': {e}"))?;
                position.play(mv).map_err(|e| format!("{shown}: '{text}': {e}"))?;
                if position.phase() == Phase::Play
                    && let Some((_, features)) = analyse(&position)
                {
                    // The search from this position: the next turn's win rate, for its mover.
                    let value = game.annotation(i + 1).evaluation.map(|e| match position.side_to_move() {
                        Color::Black => e.winrate.probability(),
                        Color::White => e.winrate.other_side().probability(),
                    });
                    target.push(Sample { features, black_won, value });
                }
            }
        }
    }
    Ok(data)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// `ln(1 + e^x)` without overflow.
fn softplus(x: f64) -> f64 {
    if x > 0.0 { x + (-x).exp().ln_1p() } else { x.exp().ln_1p() }
}

/// The mean log-loss (natural log) of probabilities `p` for the samples.
pub fn log_loss(samples: &[Sample], p: impl Fn(&Features) -> f64) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let total: f64 = samples
        .iter()
        .map(|s| {
            let q = p(&s.features).clamp(1e-12, 1.0 - 1e-12);
            -(s.black_won * q.ln() + (1.0 - s.black_won) * (1.0 - q).ln())
        })
        .sum();
    total / samples.len() as f64
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

/// Maximum-likelihood logistic regression with an L2 penalty `l2` per sample on every
/// weight but the bias (feature 0), by Newton's method from the hand-written model: each
/// step is damped (Levenberg-Marquardt) until it lowers the penalized loss as the
/// quadratic model predicts, and the fit ends when the Newton decrement says the minimum
/// is reached. A fit
/// that does not converge, or ends worse than the constant rate on its own training data,
/// is an error.
pub fn fit(samples: &[Sample], l2: f64) -> Result<EvalModel, FitError> {
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
    let model = EvalModel { weights: w };
    check_against_constant(samples, &model)?;
    Ok(model)
}

/// Refuses `model` when it predicts `samples` worse than the constant rate of Black wins
/// does (beyond rounding): a sign of a fit gone wrong.
pub fn check_against_constant(samples: &[Sample], model: &EvalModel) -> Result<(), FitError> {
    let rate = samples.iter().map(|s| s.black_won).sum::<f64>() / samples.len().max(1) as f64;
    let constant = log_loss(samples, |_| rate);
    let learned = log_loss(samples, |f| sigmoid(model.logit(f)));
    let finite = model.weights.iter().all(|x| x.is_finite());
    if !finite || learned.is_nan() || learned > constant + 1e-9 {
        return Err(FitError::WorseThanConstant { learned, constant });
    }
    Ok(())
}

/// `veletas train-eval`: reads, fits, reports and writes the weights.
pub fn run(args: &TrainSettings) -> Result<String, String> {
    let start = Instant::now();
    let data = read_samples(&args.files, args.holdout)?;
    let read_secs = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let model = fit(&data.train, args.l2).map_err(|e| e.to_string())?;
    // With --value-mix, the weights written are those fitted to the mixed targets; the
    // report compares both fits on the held-out game results.
    let results_only = model.clone();
    let model = if args.value_mix > 0.0 {
        fit(&mixed_targets(&data.train, args.value_mix), args.l2)
            .map_err(|e| format!("--value-mix {}: {e}", args.value_mix))?
    } else {
        model
    };
    let fit_secs = start.elapsed().as_secs_f64();
    let hand = |f: &Features| sigmoid(f.0[1]);
    let learned = |f: &Features| sigmoid(model.logit(f));
    let base_rate = data.train.iter().map(|s| s.black_won).sum::<f64>() / data.train.len().max(1) as f64;
    let mut report = format!(
        "{} games ({} skipped), {} training and {} held-out positions; read in {read_secs:.2} s, fitted in {fit_secs:.2} s\n",
        data.games,
        data.skipped,
        data.train.len(),
        data.test.len()
    );
    report.push_str("held-out log-loss (nats per position; lower is better):\n");
    report.push_str(&format!(
        "  constant (Black wins {:.1}%)  {:.4}\n",
        base_rate * 100.0,
        log_loss(&data.test, |_| base_rate)
    ));
    report.push_str(&format!("  hand-written evaluation     {:.4}\n", log_loss(&data.test, hand)));
    let (held_out_learned, held_out_constant) = (log_loss(&data.test, learned), log_loss(&data.test, |_| base_rate));
    report.push_str(&format!("  learned evaluation          {held_out_learned:.4}\n"));
    if held_out_learned > held_out_constant {
        report.push_str(
            "  (the learned evaluation predicts the held-out games worse than the constant: too few games to learn from?)\n",
        );
    }
    if args.value_mix > 0.0 {
        let valued = data.train.iter().filter(|s| s.value.is_some()).count();
        report.push_str(&format!(
            "value mix {}: targets (1 - {0}) x result + {0} x recorded root value ({valued} of {} training positions have one);\n  held-out log-loss against the results: fitted to the results {:.4}, to the mix {held_out_learned:.4}\n",
            args.value_mix,
            data.train.len(),
            log_loss(&data.test, |f| sigmoid(results_only.logit(f))),
        ));
    }
    report.push_str(&format!(
        "training log-loss: constant {:.4}, hand {:.4}, learned {:.4}\nweights:\n",
        log_loss(&data.train, |_| base_rate),
        log_loss(&data.train, hand),
        log_loss(&data.train, learned)
    ));
    for (name, w) in feature_names().iter().zip(model.weights.iter()) {
        report.push_str(&format!("  {name:16} {w:+.4}\n"));
    }
    if let Some(path) = &args.output {
        let files: Vec<String> = args.files.iter().map(|f| f.display().to_string()).collect();
        let text = format!(
            "# Learned evaluation weights: veletas train-eval {} --holdout {} --l2 {}{}\n# {} games, {} positions; held-out log-loss hand {:.4}, learned {:.4}\n{}",
            files.join(" "),
            args.holdout,
            args.l2,
            if args.value_mix > 0.0 { format!(" --value-mix {}", args.value_mix) } else { String::new() },
            data.games,
            data.train.len() + data.test.len(),
            log_loss(&data.test, hand),
            log_loss(&data.test, learned),
            model.to_text()
        );
        let mut tmp = path.clone().into_os_string();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))?;
        report.push_str(&format!("weights written to {}\n", path.display()));
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(x: f64, won: bool) -> Sample {
        let mut f = [0.0; FEATURES];
        f[0] = 1.0;
        f[2] = x;
        Sample { features: Features(f), black_won: if won { 1.0 } else { 0.0 }, value: None }
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
        let model = fit(&samples, 0.0).unwrap();
        assert!((model.weights[0] - 0.5).abs() < 0.01, "{:?}", model.weights);
        assert!((model.weights[2] - 1.5).abs() < 0.01, "{:?}", model.weights);
        assert!(log_loss(&samples, |f| sigmoid(model.logit(f))) < log_loss(&samples, |_| 0.5));
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
                    features: Features(f),
                    black_won: if k < wins { 1.0 } else { 0.0 },
                    value: None,
                });
            }
        }
        let model = fit(&samples, 0.0).unwrap();
        let logit = |p: f64| (p / (1.0 - p)).ln();
        assert!(model.weights[0].abs() < 1e-6, "{:?}", model.weights);
        assert!((model.weights[1] - logit(0.6) / 40.0).abs() < 1e-6, "{:?}", model.weights);
        assert!(log_loss(&samples, |f| sigmoid(model.logit(f))) < log_loss(&samples, |_| 0.5));
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
        let err = check_against_constant(&samples, &EvalModel { weights }).unwrap_err();
        assert!(matches!(err, FitError::WorseThanConstant { .. }), "{err}");
        assert!(err.to_string().contains("nothing written"));
        assert!(check_against_constant(&samples, &EvalModel { weights: [0.0; FEATURES] }).is_ok());
        weights[2] = f64::NAN;
        assert!(check_against_constant(&samples, &EvalModel { weights }).is_err());
    }

    #[test]
    fn weights_files_round_trip_and_bad_ones_are_refused() {
        let model = EvalModel { weights: std::array::from_fn(|i| i as f64 / 4.0) };
        assert_eq!(EvalModel::parse(&model.to_text()).unwrap(), model);
        assert!(EvalModel::parse("bias 1\n").unwrap_err().contains("no weight for 'hand_logit'"));
        assert!(EvalModel::parse("speed 1\n").unwrap_err().contains("unknown feature"));
        assert!(EvalModel::parse("bias x\n").unwrap_err().contains("bad weight"));
        assert!(EvalModel::parse(&format!("{}bias 2\n", model.to_text())).unwrap_err().contains("twice"));
        // The weights built into the binary parse.
        assert!(EvalModel::parse(crate::search::eval::LEARNED_WEIGHTS).is_ok());
    }
}
