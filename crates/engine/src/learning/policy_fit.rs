//! Learning the move policy ([`crate::search::policy`]) from the searches of self-play
//! games: each searched position is a sample, its target the share of the root's
//! playouts that went through each first step (a shooter's move, or none), and the model
//! a softmax over the moves' features. The weights maximise the targets' likelihood
//! (cross-entropy, with a small L2 penalty) by Newton's method with Levenberg-Marquardt
//! damping, one rule family at a time. docs/learning.md shows the pipeline.
//!
//! A sample file has one line per searched position:
//! `GAME | POSITION | MOVE:PLAYOUTS ...`, `MOVE` being `-` for no move or `FROM-TO`
//! (`crates/engine/examples/policy_data.rs` writes them).

use std::collections::HashMap;

use crate::learning::linear_solver::solve;
use crate::search::policy::{MOVE_FEATURES, MoveContext, MoveFeatures, PolicyModel, family};
use veletas_rules::record::step_word;
use veletas_rules::{Phase, Position, Square, quoted};

/// One searched position: every first step's features and its share of the playouts.
#[derive(Clone, Debug)]
pub struct PolicySample {
    /// The game the position comes from (samples are held out by game).
    pub game: u64,
    /// The rule family ([`family`]).
    pub family: usize,
    /// Features of every legal first step, the no-move choice first.
    pub features: Vec<StoredFeatures>,
    /// The share of the playouts of each step, in the same order (summing to 1).
    pub target: Vec<f64>,
}

/// A move's features as a sample keeps them: in single precision, which holds them exactly
/// (counts over 4, 8 or 16, and ±1), at half the memory of [`MoveFeatures`] (a 10x10
/// position has about 70 first steps: 5 kB a sample).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StoredFeatures(pub [f32; MOVE_FEATURES]);

impl StoredFeatures {
    fn of(features: &MoveFeatures) -> StoredFeatures {
        StoredFeatures(features.0.map(|x| x as f32))
    }

    /// Feature `k`.
    fn at(&self, k: usize) -> f64 {
        f64::from(self.0[k])
    }
}

/// Every legal first step of `pos`: no move, then each shooter's moves.
pub fn first_steps(pos: &Position) -> Vec<Option<(Square, Square)>> {
    let mut moves = vec![None];
    for from in pos.shooters() {
        moves.extend(pos.shooter_reach(from).iter().map(|to| Some((from, to))));
    }
    moves
}

/// Why a sample line ([`parse_sample`]) or a searched position ([`sample_of`]) gives no
/// sample.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SampleError {
    /// The line is not `GAME | POSITION | MOVE:PLAYOUTS ...`.
    #[error("expected GAME | POSITION | MOVE:PLAYOUTS ...")]
    Shape,
    /// The game number is not a whole number (the text, as [`quoted`] quotes it).
    #[error("bad game number '{0}'")]
    GameNumber(String),
    /// The position cannot be read (the reason).
    #[error("{0}")]
    Position(String),
    /// A word is not `MOVE:PLAYOUTS` (the word, as [`quoted`] quotes it).
    #[error("expected MOVE:PLAYOUTS, got '{0}'")]
    Visit(String),
    /// A playout count is not a finite number at least zero (the word, as [`quoted`] quotes it).
    #[error("bad playouts '{0}'")]
    Playouts(String),
    /// The position is over or not yet in play.
    #[error("the position is not in play")]
    NotInPlay,
    /// A step is not one of the position's legal first steps (the step, as [`quoted`] quotes it).
    #[error("'{0}' is not a legal first step")]
    IllegalStep(String),
    /// No step received a playout.
    #[error("no playouts")]
    NoPlayouts,
}

/// Reads one sample line (see the module's notes); `None` for a blank or `#` line.
pub fn parse_sample(line: &str) -> Result<Option<PolicySample>, SampleError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let parts: Vec<&str> = line.split(" | ").collect();
    let [game, position, visits] = parts[..] else {
        return Err(SampleError::Shape);
    };
    let game = game.trim().parse::<u64>().map_err(|_| SampleError::GameNumber(quoted(game)))?;
    let pos: Position = position.parse().map_err(|e| SampleError::Position(format!("{e}")))?;
    let mut counts = Vec::new();
    for word in visits.split_whitespace() {
        let (step, count) = word.split_once(':').ok_or_else(|| SampleError::Visit(quoted(word)))?;
        let count = count
            .parse::<f64>()
            .ok()
            .filter(|c| c.is_finite() && *c >= 0.0)
            .ok_or_else(|| SampleError::Playouts(quoted(word)))?;
        counts.push((step.to_string(), count));
    }
    sample_of(game, &pos, &counts).map(Some)
}

/// The sample of `pos` (of game `game`) whose first steps (in [`step_word`]'s notation)
/// received these playouts: an error when the position is not in play, a step is not
/// one of its legal first steps, or no step has playouts.
pub fn sample_of(game: u64, pos: &Position, counts: &[(String, f64)]) -> Result<PolicySample, SampleError> {
    if pos.phase() != Phase::Play || pos.is_over() {
        return Err(SampleError::NotInPlay);
    }
    let steps = first_steps(pos);
    let index: HashMap<String, usize> = steps.iter().enumerate().map(|(i, &s)| (step_word(s), i)).collect();
    let mut target = vec![0.0; steps.len()];
    for (step, count) in counts {
        let i = *index.get(step).ok_or_else(|| SampleError::IllegalStep(quoted(step)))?;
        target[i] += count;
    }
    let total: f64 = target.iter().sum();
    if total <= 0.0 {
        return Err(SampleError::NoPlayouts);
    }
    target.iter_mut().for_each(|t| *t /= total);
    let context = MoveContext::new(pos);
    let features = steps.iter().map(|&s| StoredFeatures::of(&context.features(pos, s))).collect();
    Ok(PolicySample { game, family: family(pos), features, target })
}

/// The model's priors for a sample.
fn probabilities(w: &[f64; MOVE_FEATURES], sample: &PolicySample) -> Vec<f64> {
    let scores: Vec<f64> =
        sample.features.iter().map(|f| w.iter().zip(f.0.iter()).map(|(a, b)| a * f64::from(*b)).sum::<f64>()).collect();
    let best = scores.iter().copied().fold(f64::MIN, f64::max);
    let exp: Vec<f64> = scores.iter().map(|s| (s - best).exp()).collect();
    let total: f64 = exp.iter().sum();
    exp.iter().map(|e| e / total).collect()
}

/// The mean cross-entropy of the targets under priors `p` (nats per position).
pub fn cross_entropy(samples: &[PolicySample], p: impl Fn(&PolicySample) -> Vec<f64>) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let q = p(s);
            s.target.iter().zip(q.iter()).filter(|(t, _)| **t > 0.0).map(|(t, q)| -t * q.max(1e-300).ln()).sum::<f64>()
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The share of samples whose most likely step under `p` is the search's most visited.
pub fn top1_agreement(samples: &[PolicySample], p: impl Fn(&PolicySample) -> Vec<f64>) -> f64 {
    let argmax = |v: &[f64]| v.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map_or(0, |(i, _)| i);
    let hits = samples.iter().filter(|s| argmax(&p(s)) == argmax(&s.target)).count();
    hits as f64 / samples.len().max(1) as f64
}

/// The priors the search used before the policy: `stay` for no move, the rest shared.
pub fn uniform_priors(sample: &PolicySample, stay: f64) -> Vec<f64> {
    let n = sample.target.len();
    if n == 1 {
        return vec![1.0];
    }
    let mut p = vec![(1.0 - stay) / (n - 1) as f64; n];
    p[0] = stay;
    p
}

/// The model's priors for a sample.
pub fn model_priors(model: &PolicyModel, sample: &PolicySample) -> Vec<f64> {
    probabilities(&model.weights[sample.family], sample)
}

/// The penalised objective of weights `w` on `samples` (mean cross-entropy + L2).
fn objective(samples: &[&PolicySample], w: &[f64; MOVE_FEATURES], l2: f64) -> f64 {
    let n = samples.len().max(1) as f64;
    let ce: f64 = samples
        .iter()
        .map(|s| {
            let q = probabilities(w, s);
            s.target.iter().zip(q.iter()).filter(|(t, _)| **t > 0.0).map(|(t, q)| -t * q.max(1e-300).ln()).sum::<f64>()
        })
        .sum();
    ce / n + l2 * w.iter().map(|x| x * x).sum::<f64>()
}

/// Fits one family's weights by damped Newton steps; `None` when there is nothing to fit.
#[allow(clippy::needless_range_loop)] // dense gradient and Hessian: indices read best
fn fit_family(samples: &[&PolicySample], l2: f64) -> Option<[f64; MOVE_FEATURES]> {
    if samples.is_empty() {
        return None;
    }
    const N: usize = MOVE_FEATURES;
    let n = samples.len() as f64;
    let mut w = [0.0; N];
    let mut value = objective(samples, &w, l2);
    let mut damping = 1e-3;
    for _ in 0..100 {
        let mut gradient = [0.0; N];
        let mut hessian = vec![0.0; N * N];
        for s in samples {
            let q = probabilities(&w, s);
            let mut mean = [0.0; N];
            for (f, &p) in s.features.iter().zip(q.iter()) {
                for k in 0..N {
                    mean[k] += p * f.at(k);
                }
            }
            for ((f, &p), &t) in s.features.iter().zip(q.iter()).zip(s.target.iter()) {
                for k in 0..N {
                    gradient[k] += (p - t) * f.at(k) / n;
                    let dk = f.at(k) - mean[k];
                    if dk == 0.0 {
                        continue;
                    }
                    for j in 0..N {
                        hessian[k * N + j] += p * dk * (f.at(j) - mean[j]) / n;
                    }
                }
            }
        }
        for k in 0..N {
            gradient[k] += 2.0 * l2 * w[k];
            hessian[k * N + k] += 2.0 * l2;
        }
        // Levenberg-Marquardt: raise the damping until a step lowers the objective.
        let mut improved = false;
        while damping < 1e12 {
            let mut damped = hessian.clone();
            for k in 0..N {
                damped[k * N + k] += damping * (1.0 + hessian[k * N + k]);
            }
            let Some(step) = solve(damped, gradient.to_vec(), N) else {
                damping *= 10.0;
                continue;
            };
            let mut next = w;
            for k in 0..N {
                next[k] -= step[k];
            }
            let next_value = objective(samples, &next, l2);
            if next_value.is_finite() && next_value <= value {
                let decrease = value - next_value;
                w = next;
                value = next_value;
                damping = (damping / 10.0).max(1e-9);
                improved = decrease > 1e-10;
                break;
            }
            damping *= 10.0;
        }
        if !improved {
            break;
        }
    }
    Some(w)
}

/// Fits the policy on `samples` (each family on its own samples; a family without
/// samples keeps `start`'s weights).
pub fn fit_policy(samples: &[PolicySample], l2: f64, start: &PolicyModel) -> PolicyModel {
    let mut model = start.clone();
    for family in 0..2 {
        let mine: Vec<&PolicySample> = samples.iter().filter(|s| s.family == family).collect();
        if let Some(w) = fit_family(&mine, l2) {
            model.weights[family] = w;
        }
    }
    model
}

#[cfg(test)]
mod tests {
    use super::*;
    use veletas_rules::Rng;

    /// Samples whose targets are a known policy's priors, on positions of random games.
    fn samples_of(truth: &PolicyModel, count: usize) -> Vec<PolicySample> {
        let mut rng = Rng::new(5);
        let mut out = Vec::new();
        let mut game = 0;
        while out.len() < count {
            game += 1;
            let mut pos: Position = "9s/2s7/7s2/10/5s4/10/10/2s7/7s2/s9 b".parse().unwrap();
            for _ in 0..40 {
                if pos.is_over() {
                    break;
                }
                let steps = first_steps(&pos);
                let mut priors = Vec::new();
                truth.priors(&pos, &steps, &mut priors);
                let visits: Vec<String> =
                    steps.iter().zip(priors.iter()).map(|(&s, p)| format!("{}:{}", step_word(s), p * 1e6)).collect();
                let line = format!("{game} | {} | {}", pos, visits.join(" "));
                out.extend(parse_sample(&line).unwrap());
                let turn = pos.random_turn(&mut rng, veletas_rules::PlayoutPolicy::Uniform).unwrap();
                pos.play_turn_unchecked(turn);
            }
        }
        out
    }

    #[test]
    fn the_fit_recovers_a_known_policy() {
        let mut truth = PolicyModel::zero();
        truth.weights[0][0] = 1.5; // stay
        truth.weights[0][2] = 2.0; // to_free
        truth.weights[0][11] = 0.7; // lead_to
        truth.weights[0][15] = -1.0; // distance
        let samples = samples_of(&truth, 300);
        let fitted = fit_policy(&samples, 0.0, &PolicyModel::zero());
        for k in [0, 2, 11, 15] {
            assert!((fitted.weights[0][k] - truth.weights[0][k]).abs() < 0.05, "{k}: {:?}", fitted.weights[0]);
        }
        let learned = cross_entropy(&samples, |s| model_priors(&fitted, s));
        let uniform = cross_entropy(&samples, |s| uniform_priors(s, 0.1));
        assert!(learned < uniform, "{learned} vs {uniform}");
        assert_eq!(fitted.weights[1], [0.0; MOVE_FEATURES]); // no modern samples
    }

    #[test]
    fn bad_sample_lines_are_refused_with_the_reason() {
        assert!(parse_sample("# comment").unwrap().is_none());
        assert_eq!(parse_sample("1 | 7/7/2s4/7/4s2/1s5/7 b").unwrap_err(), SampleError::Shape);
        let pos = "7/7/2s4/7/4s2/1s5/7 b";
        assert_eq!(parse_sample(&format!("x | {pos} | -:1")).unwrap_err(), SampleError::GameNumber("x".into()));
        assert!(matches!(parse_sample("1 | 7/7 b | -:1").unwrap_err(), SampleError::Position(_)));
        assert_eq!(parse_sample(&format!("1 | {pos} | -")).unwrap_err(), SampleError::Visit("-".into()));
        assert_eq!(parse_sample(&format!("1 | {pos} | -:-2")).unwrap_err(), SampleError::Playouts("-:-2".into()));
        assert_eq!(parse_sample(&format!("1 | {pos} | -:NaN")).unwrap_err(), SampleError::Playouts("-:NaN".into()));
        let illegal = parse_sample(&format!("1 | {pos} | a1-a9:3")).unwrap_err();
        assert_eq!(illegal.to_string(), "'a1-a9' is not a legal first step");
        assert_eq!(parse_sample(&format!("1 | {pos} | -:0")).unwrap_err(), SampleError::NoPlayouts);
        let escape = parse_sample(&format!("1 | {pos} | \u{1b}[2J:1")).unwrap_err();
        assert_eq!(escape, SampleError::IllegalStep("\\u{1b}[2J".into()));
        let long = "z".repeat(1000);
        assert_eq!(
            parse_sample(&format!("{long} | {pos} | -:1")).unwrap_err(),
            SampleError::GameNumber(format!("{}...", "z".repeat(40)))
        );
        let ok = parse_sample(&format!("1 | {pos} | -:1 b2-b3:3")).unwrap().unwrap();
        assert_eq!(ok.target.iter().sum::<f64>(), 1.0);
        assert_eq!(ok.target[0], 0.25);
    }
}
