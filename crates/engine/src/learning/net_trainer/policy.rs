//! `veletas train-net --policy`: trains the policy network ([`crate::net::policy_net`])
//! on the first steps self-play searches recorded (`--record-steps`).
//!
//! Every turn whose annotation has first steps is a sample: the position before it, each
//! legal first step with the linear policy's score there (the base the network corrects)
//! and its share of the root's playouts (the target). The loss is the cross-entropy of
//! the targets under the softmax of base + `from[F] + to[T]` (or + `stay`); its gradients
//! are written out by hand. Symmetries, held-out games, Adam, the schedule, the bounded
//! reservoir and the best epoch as in the value network's training ([`super`]).

use std::time::Instant;

use super::backprop::Adam;
use crate::learning::policy_fit::first_steps;
use crate::learning::training_data::{GamesError, Trained, TrainingData};
use crate::net::inputs::{INPUTS, Planes};
use crate::net::policy_net::{HEADS, PolicyNetWeights, STAY, from_head, to_head};
use crate::net::{OUT_BOUND, W1_BOUND, W2_BOUND};
use crate::search::eval::{FAMILY_NAMES, family};
use crate::search::policy::{MoveContext, PolicyModel};
use veletas_rules::{Phase, Rng, Square};

/// What `veletas train-net --policy` learns from and how.
#[derive(Debug, Clone)]
pub struct TrainPolicyNetSettings {
    /// The games, the held-out ones, and the weight decay (`l2`).
    pub data: TrainingData,
    /// Hidden units (a multiple of 16 up to 512).
    pub hidden: usize,
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions per step.
    pub batch: usize,
    /// Adam's learning rate at the start.
    pub learning_rate: f64,
    /// The seed.
    pub seed: u64,
    /// The most training positions kept (a quarter of it held out), about 1 kB each.
    pub max_positions: usize,
    /// The linear policy the network corrects, and how to name it.
    pub base: (PolicyModel, String),
    /// The program's version.
    pub version: String,
    /// The command line.
    pub command: String,
}

/// A first step of a sample: its squares' slots (`from` = `u8::MAX`: no move), the base
/// score and the target share.
#[derive(Clone, Copy, Debug)]
struct Step {
    from: u8,
    to: u8,
    base: f32,
    target: f32,
}

#[derive(Clone, Debug)]
struct Sample {
    planes: Planes,
    family: u8,
    steps: Vec<Step>,
}

impl Sample {
    /// The heads of step `s` under symmetry `k`.
    fn heads(&self, s: &Step, k: u8) -> (usize, Option<usize>) {
        if s.from == u8::MAX {
            return (STAY, None);
        }
        let size = self.planes.size();
        let map = |slot: u8| {
            let sq = Square::from_index(u32::from(slot)).map(|sq| Planes::transform_square(sq, size, k));
            sq.map_or(0, |sq| sq.index())
        };
        (from_head(map(s.from)), Some(to_head(map(s.to))))
    }
}

/// Flat parameters: w1 (`INPUTS` x h), b1, wo (`HEADS` x h), bo.
struct Params {
    h: usize,
    values: Vec<f64>,
}

impl Params {
    fn b1(&self) -> usize {
        INPUTS * self.h
    }
    fn wo(&self) -> usize {
        self.b1() + self.h
    }
    fn bo(&self) -> usize {
        self.wo() + HEADS * self.h
    }
    fn len(h: usize) -> usize {
        (INPUTS + 1 + HEADS) * h + HEADS
    }

    fn initial(h: usize, rng: &mut Rng) -> Params {
        let mut p = Params { h, values: vec![0.0; Params::len(h)] };
        let mut uniform = |scale: f64| (rng.unit() * 2.0 - 1.0) * scale;
        let (b1, wo) = (p.b1(), p.wo());
        for w in &mut p.values[..b1] {
            *w = uniform(0.05);
        }
        for b in &mut p.values[b1..wo] {
            *b = 0.3 + uniform(0.1);
        }
        // The heads start at zero: the linear policy.
        p
    }

    fn clamp(&mut self) {
        let (wo, bo) = (self.wo(), self.bo());
        for (i, v) in self.values.iter_mut().enumerate() {
            let bound = if i < wo {
                W1_BOUND
            } else if i < bo {
                W2_BOUND
            } else {
                OUT_BOUND
            };
            *v = v.clamp(-f64::from(bound), f64::from(bound));
        }
    }

    fn to_weights(&self) -> PolicyNetWeights {
        let mut w = PolicyNetWeights::zeros(self.h).unwrap_or_else(|| unreachable!("sizes are checked first"));
        let f = |s: &[f64]| s.iter().map(|&x| x as f32).collect::<Vec<f32>>();
        w.w1 = f(&self.values[..self.b1()]);
        w.b1 = f(&self.values[self.b1()..self.wo()]);
        w.wo = f(&self.values[self.wo()..self.bo()]);
        w.bo = f(&self.values[self.bo()..]);
        w.clamp_to_bounds();
        w
    }
}

/// Scratch of one forward pass.
#[derive(Default)]
struct Pass {
    active: Vec<u16>,
    z1: Vec<f64>,
    a1: Vec<f64>,
    heads: Vec<f64>,
    logits: Vec<f64>,
    probs: Vec<f64>,
}

/// The priors of a sample under symmetry `k` into `pass.probs`; returns its cross-entropy.
fn forward(p: &Params, s: &Sample, k: u8, pass: &mut Pass) -> f64 {
    let h = p.h;
    pass.active.clear();
    s.planes.transformed(k).active(&mut pass.active);
    pass.z1.clear();
    pass.z1.extend_from_slice(&p.values[p.b1()..p.wo()]);
    for &i in &pass.active {
        let column = &p.values[usize::from(i) * h..][..h];
        pass.z1.iter_mut().zip(column).for_each(|(z, w)| *z += w);
    }
    pass.a1.clear();
    pass.a1.extend(pass.z1.iter().map(|z| z.clamp(0.0, 1.0)));
    pass.heads.clear();
    let (wo, bo) = (p.wo(), p.bo());
    pass.heads.extend(
        (0..HEADS).map(|k| {
            p.values[bo + k] + p.values[wo + k * h..][..h].iter().zip(&pass.a1).map(|(w, a)| w * a).sum::<f64>()
        }),
    );
    pass.logits.clear();
    for step in &s.steps {
        let (a, b) = s.heads(step, k);
        pass.logits.push(f64::from(step.base) + pass.heads[a] + b.map_or(0.0, |b| pass.heads[b]));
    }
    softmax(&pass.logits, &mut pass.probs);
    s.steps
        .iter()
        .zip(&pass.probs)
        .filter(|(t, _)| t.target > 0.0)
        .map(|(t, q)| -f64::from(t.target) * q.max(1e-300).ln())
        .sum()
}

fn softmax(logits: &[f64], out: &mut Vec<f64>) {
    let best = logits.iter().copied().fold(f64::MIN, f64::max);
    out.clear();
    out.extend(logits.iter().map(|l| (l - best).exp()));
    let total: f64 = out.iter().sum();
    out.iter_mut().for_each(|e| *e /= total);
}

/// Adds the gradient of the sample's cross-entropy (after [`forward`]) to `grad`.
fn backward(p: &Params, s: &Sample, k: u8, pass: &Pass, grad: &mut [f64], d_heads: &mut [f64], da1: &mut Vec<f64>) {
    let h = p.h;
    d_heads.iter_mut().for_each(|d| *d = 0.0);
    for (step, q) in s.steps.iter().zip(&pass.probs) {
        let g = q - f64::from(step.target);
        let (a, b) = s.heads(step, k);
        d_heads[a] += g;
        if let Some(b) = b {
            d_heads[b] += g;
        }
    }
    da1.clear();
    da1.resize(h, 0.0);
    let (wo, bo) = (p.wo(), p.bo());
    for (k, &d) in d_heads.iter().enumerate() {
        if d == 0.0 {
            continue;
        }
        grad[bo + k] += d;
        let row = wo + k * h;
        for j in 0..h {
            grad[row + j] += d * pass.a1[j];
            da1[j] += d * p.values[row + j];
        }
    }
    for (d, &z) in da1.iter_mut().zip(&pass.z1) {
        if z <= 0.0 || z >= 1.0 {
            *d = 0.0;
        }
    }
    let b1 = p.b1();
    for (g, d) in grad[b1..b1 + h].iter_mut().zip(da1.iter()) {
        *g += d;
    }
    for &i in &pass.active {
        grad[usize::from(i) * h..][..h].iter_mut().zip(da1.iter()).for_each(|(g, d)| *g += d);
    }
}

/// The training and held-out samples kept, and the games, the steps skipped and the
/// samples read.
struct Read {
    train: Vec<Sample>,
    test: Vec<Sample>,
    games: u64,
    skipped: u64,
    read: u64,
}

fn read(settings: &TrainPolicyNetSettings, rng: &mut Rng) -> Result<Read, GamesError> {
    let cap = settings.max_positions.max(1);
    let (mut train, mut test) = (Vec::new(), Vec::new());
    let (mut seen, mut games, mut skipped) = ([0u64; 2], 0u64, 0u64);
    let model = &settings.base.0;
    settings.data.for_each_game(
        |_| true,
        |game| {
            games += 1;
            game.replay(|i, pos| {
                let Some(counts) = game.record.annotation(i).first_steps else { return };
                if pos.phase() != Phase::Play || pos.is_over() {
                    return;
                }
                let moves = first_steps(pos);
                let mut target = vec![0.0f64; moves.len()];
                for &(step, visits) in counts.entries() {
                    match moves.iter().position(|m| *m == step) {
                        Some(at) => target[at] += visits as f64,
                        None => {
                            skipped += 1;
                            return;
                        }
                    }
                }
                let total: f64 = target.iter().sum();
                if total <= 0.0 {
                    return;
                }
                let context = MoveContext::new(pos);
                let fam = family(pos);
                let steps = moves
                    .iter()
                    .zip(&target)
                    .map(|(&m, &t)| {
                        let (from, to) = m.map_or((u8::MAX, 0), |(f, t)| (f.index() as u8, t.index() as u8));
                        let base = model.score(fam, &context.features(pos, m)) as f32;
                        Step { from, to, base, target: (t / total) as f32 }
                    })
                    .collect();
                let sample = Sample { planes: Planes::of(pos), family: fam as u8, steps };
                let (store, n, limit) = if game.held_out {
                    (&mut test, &mut seen[1], (cap / 4).max(1))
                } else {
                    (&mut train, &mut seen[0], cap)
                };
                *n += 1;
                if store.len() < limit {
                    store.push(sample);
                } else if let Some(slot) = store.get_mut(rng.below_u64(*n) as usize) {
                    *slot = sample;
                }
            })
        },
    )?;
    Ok(Read { train, test, games, skipped, read: seen[0] + seen[1] })
}

/// Held-out cross-entropy and top-1 agreement of the base policy and of the network.
fn held_out(p: &Params, test: &[&Sample]) -> (f64, f64, f64, f64) {
    let mut pass = Pass::default();
    let (mut ce_base, mut ce_net, mut top_base, mut top_net) = (0.0, 0.0, 0.0, 0.0);
    let argmax = |v: &[f64]| v.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map_or(0, |(i, _)| i);
    for s in test {
        let best = argmax(&s.steps.iter().map(|t| f64::from(t.target)).collect::<Vec<_>>());
        ce_net += forward(p, s, 0, &mut pass);
        top_net += f64::from(u8::from(argmax(&pass.probs) == best));
        let logits: Vec<f64> = s.steps.iter().map(|t| f64::from(t.base)).collect();
        let mut probs = Vec::new();
        softmax(&logits, &mut probs);
        ce_base += s
            .steps
            .iter()
            .zip(&probs)
            .filter(|(t, _)| t.target > 0.0)
            .map(|(t, q)| -f64::from(t.target) * q.max(1e-300).ln())
            .sum::<f64>();
        top_base += f64::from(u8::from(argmax(&probs) == best));
    }
    let n = test.len().max(1) as f64;
    (ce_base / n, ce_net / n, top_base / n, top_net / n)
}

/// Why `veletas train-net --policy` ([`run`]) wrote no network: its layer's size, or games'
/// files that cannot be read or hold no first steps (the training itself cannot fail).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrainPolicyNetError {
    /// A `--hidden` size the network cannot have.
    #[error("--hidden {0}: the policy network's units, a multiple of 16 up to 512")]
    Hidden(usize),
    /// A file, a game's start or a move cannot be read.
    #[error(transparent)]
    Games(#[from] GamesError),
    /// No training game has its first steps recorded.
    #[error(
        "no first steps in the training games ({games} games read): record them with veletas tournament \
         --record-steps (scripts/selfplay-data.sh -f)"
    )]
    NoFirstSteps {
        /// Games read.
        games: u64,
    },
}

/// `veletas train-net --policy`: reads, trains and reports.
pub fn run(settings: &TrainPolicyNetSettings) -> Result<Trained, TrainPolicyNetError> {
    let h = settings.hidden;
    if PolicyNetWeights::zeros(h).is_none() {
        return Err(TrainPolicyNetError::Hidden(h));
    }
    let mut rng = Rng::new(settings.seed);
    let start = Instant::now();
    let Read { train, test, games, skipped, read: read_count } = read(settings, &mut rng)?;
    let read_secs = start.elapsed().as_secs_f64();
    if train.is_empty() {
        return Err(TrainPolicyNetError::NoFirstSteps { games });
    }
    let mut p = Params::initial(h, &mut rng);
    let mut adam = Adam::with_len(p.values.len());
    let mut grad = vec![0.0; p.values.len()];
    let (mut pass, mut d_heads, mut da1) = (Pass::default(), vec![0.0; HEADS], Vec::new());
    let all_test: Vec<&Sample> = test.iter().collect();
    let mut best = (held_out(&p, &all_test).1, p.values.clone(), 0u32);
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let total_steps = (train.len().div_ceil(settings.batch.max(1)) * settings.epochs as usize).max(1);
    let (mut step, mut epochs) = (0usize, String::new());
    let fit_start = Instant::now();
    let bo = p.bo();
    let b1 = p.b1();
    let wo = p.wo();
    for epoch in 1..=settings.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below_u64(i as u64 + 1) as usize);
        }
        let mut loss = 0.0;
        for batch in order.chunks(settings.batch.max(1)) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for &i in batch {
                let s = &train[i as usize];
                let k = rng.below(8) as u8;
                loss += forward(&p, s, k, &mut pass);
                backward(&p, s, k, &pass, &mut grad, &mut d_heads, &mut da1);
            }
            let progress = step as f64 / total_steps as f64;
            let lr = settings.learning_rate * (0.05 + 0.95 * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos()));
            let is_bias = |i: usize| (b1..wo).contains(&i) || i >= bo;
            adam.step_values(&mut p.values, &grad, batch.len(), lr, settings.data.l2, is_bias);
            p.clamp();
            step += 1;
        }
        let (_, held, _, top) = held_out(&p, &all_test);
        epochs.push_str(&format!(
            "  epoch {epoch:>3}: training {:.4}, held out {held:.4} (top-1 {top:.3})\n",
            loss / train.len() as f64
        ));
        log::info!("train-net --policy: epoch {epoch}: held-out cross-entropy {held:.4}");
        if held < best.0 || test.is_empty() {
            best = (held, p.values.clone(), epoch);
        }
    }
    let fit_secs = fit_start.elapsed().as_secs_f64();
    p.values = best.1;
    let mut report = format!(
        "{games} games, {} training and {} held-out positions (of {read_count} read; {skipped} skipped: a step not \
         legal); read in {read_secs:.2} s, trained in {fit_secs:.2} s ({:.0} samples/s)\n",
        train.len(),
        test.len(),
        (train.len() as f64 * f64::from(settings.epochs)) / fit_secs.max(1e-9)
    );
    report.push_str(&format!("policy network: {INPUTS} inputs, {h} hidden units, {HEADS} heads; epochs:\n{epochs}"));
    report.push_str(&format!("kept the weights of epoch {}\n", best.2));
    report.push_str("held-out cross-entropy (nats per position) and top-1 agreement with the search:\n");
    report.push_str("  rule family  positions  linear  network  top-1 linear  network\n");
    for fam in [None, Some(0u8), Some(1u8)] {
        let set: Vec<&Sample> = test.iter().filter(|s| fam.is_none_or(|f| s.family == f)).collect();
        if set.is_empty() || (fam.is_some() && set.len() == test.len()) {
            continue;
        }
        let (ce_base, ce_net, top_base, top_net) = held_out(&p, &set);
        report.push_str(&format!(
            "  {:11} {:>10} {ce_base:7.4} {ce_net:8.4} {top_base:13.3} {top_net:8.3}\n",
            fam.map_or("all", |f| FAMILY_NAMES[usize::from(f)]),
            set.len()
        ));
    }
    let (ce_base, ce_net, _, _) = held_out(&p, &all_test);
    let comments = vec![
        format!("veletas policy network, made by veletas {}", settings.version),
        format!("command: {}", settings.command),
        format!(
            "data: {games} games, {} training and {} held-out positions; base policy: {}",
            train.len(),
            test.len(),
            settings.base.1
        ),
        format!(
            "kept epoch {} of {}; held-out cross-entropy: linear {ce_base:.4}, network {ce_net:.4}",
            best.2, settings.epochs
        ),
    ];
    let weights = p.to_weights().to_text(&comments, &settings.base.0.to_text());
    Ok(Trained { report, weights })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(rng: &mut Rng) -> Sample {
        use veletas_rules::{Position, Rules, Variant};
        let pos = Position::random_start(Variant::from_size(7).expect("size"), Rules::default(), rng);
        let moves = first_steps(&pos);
        let raw: Vec<f64> = moves.iter().map(|_| rng.unit()).collect();
        let total: f64 = raw.iter().sum();
        let steps = moves
            .iter()
            .zip(&raw)
            .map(|(&m, &t)| {
                let (from, to) = m.map_or((u8::MAX, 0), |(f, t)| (f.index() as u8, t.index() as u8));
                Step { from, to, base: (rng.unit() - 0.5) as f32, target: (t / total) as f32 }
            })
            .collect();
        Sample { planes: Planes::of(&pos), family: 0, steps }
    }

    #[test]
    fn the_policy_gradients_match_finite_differences() {
        let mut rng = Rng::new(4);
        let mut p = Params::initial(16, &mut rng);
        let (wo, bo) = (p.wo(), p.bo());
        for v in &mut p.values[wo..] {
            *v = rng.unit() - 0.5;
        }
        let samples: Vec<Sample> = (0..3).map(|_| sample(&mut rng)).collect();
        let mut grad = vec![0.0; p.values.len()];
        let (mut pass, mut d_heads, mut da1) = (Pass::default(), vec![0.0; HEADS], Vec::new());
        let k = 5;
        for s in &samples {
            forward(&p, s, k, &mut pass);
            backward(&p, s, k, &pass, &mut grad, &mut d_heads, &mut da1);
        }
        let loss = |p: &Params| {
            let mut pass = Pass::default();
            samples.iter().map(|s| forward(p, s, k, &mut pass)).sum::<f64>()
        };
        let mut active = Vec::new();
        samples[0].planes.transformed(k).active(&mut active);
        let mut checked: Vec<usize> = (p.b1()..p.b1() + 16).collect();
        checked.extend((bo..bo + HEADS).step_by(7));
        checked.extend((wo..bo).step_by(97));
        checked.extend(active.iter().map(|&i| usize::from(i) * 16 + 5));
        let mut nonzero = 0;
        for i in checked {
            let (mut plus, mut minus) =
                (Params { h: 16, values: p.values.clone() }, Params { h: 16, values: p.values.clone() });
            plus.values[i] += 1e-6;
            minus.values[i] -= 1e-6;
            let numeric = (loss(&plus) - loss(&minus)) / 2e-6;
            assert!(
                (numeric - grad[i]).abs() <= 1e-6 * grad[i].abs().max(1.0),
                "parameter {i}: {} by hand, {numeric}",
                grad[i]
            );
            nonzero += usize::from(grad[i].abs() > 1e-9);
        }
        assert!(nonzero > 20, "{nonzero} non-zero gradients checked");
    }
}
