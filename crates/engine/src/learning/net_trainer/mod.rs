//! `veletas train-net`: trains the value network ([`crate::net`]) on recorded games.
//!
//! Every position in play of every game that ended on the board is a sample: its planes
//! ([`Planes`]), the linear model's logit there (the base the network corrects: the
//! built-in learned weights, or `--base FILE`'s), and the target: 1 when Black won, 0
//! when White did, mixed with the search's recorded root value by `--value-mix`. Every
//! N-th game is held out (as `train-eval` does, [`TrainingData`]). Memory is bounded
//! whatever the number of records: at most `--max-positions` training samples (and a
//! quarter of that held out) are kept, a uniform sample of them when there are more
//! (reservoir sampling), about 120 bytes each.
//!
//! Training: minibatches in a seeded random order, each sample shown under a random
//! symmetry of the board, the log-loss's gradients by hand ([`backprop`]), Adam with
//! decoupled weight decay (`--l2`), the learning rate decaying along a cosine to a
//! twentieth. After each epoch the held-out log-loss is measured; the weights written
//! are those of the best epoch. The same command on the same files gives the same file.

use std::time::Instant;

pub mod backprop;
pub mod policy;

use backprop::{Adam, Params, Pass, backward, forward, log_loss, sigmoid};

use crate::learning::eval_trainer::ended_on_the_board;
use crate::learning::training_data::{GamesError, Trained, TrainingData};
use crate::net::NetWeights;
use crate::net::inputs::Planes;
use crate::search::eval::{EvalModel, FAMILY_NAMES, analyse, family};
use veletas_rules::{Color, Phase, PlayoutPolicy, Rng};

/// What `veletas train-net` learns from and how.
#[derive(Debug, Clone)]
pub struct TrainNetSettings {
    /// The games, the held-out ones, and the weight decay (`l2`).
    pub data: TrainingData,
    /// Units of the two hidden layers (checked: [`NetWeights::zeros`]).
    pub hidden: (usize, usize),
    /// Passes over the training samples.
    pub epochs: u32,
    /// Samples per step.
    pub batch: usize,
    /// Adam's learning rate at the start.
    pub learning_rate: f64,
    /// The share of the recorded root value in the targets (0 to 1).
    pub value_mix: f64,
    /// The seed of the initial weights, the reservoir, the order and the symmetries.
    pub seed: u64,
    /// The most training samples kept (a quarter of it held out).
    pub max_positions: usize,
    /// Random turns played from each position before it becomes a sample (the search's
    /// cheap playout policy, as before its leaves are evaluated): the network learns the
    /// positions it will score, with the result of the game they came from.
    pub random_plies: u32,
    /// The linear model the network corrects, and how to name it in the file.
    pub base: (EvalModel, String),
    /// The program's version and the command line, for the file's first lines.
    pub version: String,
    /// The command line.
    pub command: String,
}

/// One position.
#[derive(Clone, Copy, Debug)]
struct Sample {
    planes: Planes,
    /// The base model's logit.
    base: f32,
    /// Black's target probability.
    target: f32,
    family: u8,
}

/// A bounded uniform sample of a stream (reservoir sampling).
struct Reservoir {
    items: Vec<Sample>,
    capacity: usize,
    seen: u64,
}

impl Reservoir {
    fn new(capacity: usize) -> Reservoir {
        Reservoir { items: Vec::new(), capacity, seen: 0 }
    }

    fn offer(&mut self, sample: Sample, rng: &mut Rng) {
        self.seen += 1;
        if self.items.len() < self.capacity {
            self.items.push(sample);
        } else {
            let j = rng.below_u64(self.seen) as usize;
            if let Some(slot) = self.items.get_mut(j) {
                *slot = sample;
            }
        }
    }
}

/// The samples read, and what the reading saw.
struct Data {
    train: Reservoir,
    test: Reservoir,
    games: usize,
    skipped: usize,
}

fn read(settings: &TrainNetSettings, rng: &mut Rng) -> Result<Data, GamesError> {
    let cap = settings.max_positions.max(1);
    let mut data = Data { train: Reservoir::new(cap), test: Reservoir::new((cap / 4).max(1)), games: 0, skipped: 0 };
    let model = &settings.base.0;
    let mix = settings.value_mix;
    // Its own generator: the reservoir's draws stay those of the games alone.
    let mut plies_rng = Rng::new(settings.seed ^ 0x005e_ed0f_91a7);
    let skipped = settings.data.for_each_game(ended_on_the_board, |game| {
        data.games += 1;
        let won = if game.record.winner() == Some(Color::Black) { 1.0 } else { 0.0 };
        let mut samples = Vec::new();
        game.replay(|i, original| {
            if original.phase() != Phase::Play {
                return;
            }
            let mut played = original.clone();
            for _ in 0..settings.random_plies {
                match played.random_turn(&mut plies_rng, PlayoutPolicy::Cheap) {
                    Some(turn) => played.play_turn_unchecked(turn),
                    None => break,
                }
            }
            let position = &played;
            let Some((_, features)) = analyse(position) else { return };
            let fam = family(position);
            let value = game.record.annotation(i).evaluation.map(|e| match original.side_to_move() {
                Color::Black => e.winrate.probability(),
                Color::White => e.winrate.other_side().probability(),
            });
            let target = (1.0 - mix) * won + mix * value.unwrap_or(won);
            samples.push(Sample {
                planes: Planes::of(position),
                base: model.logit(fam, &features) as f32,
                target: target as f32,
                family: fam as u8,
            });
        })?;
        let store = if game.held_out { &mut data.test } else { &mut data.train };
        for s in samples {
            store.offer(s, rng);
        }
        Ok(())
    })?;
    data.skipped = skipped;
    Ok(data)
}

/// The mean log-loss of a set under a logit function (NaN for none).
fn mean_loss(samples: &[&Sample], mut logit: impl FnMut(&Sample) -> f64) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    samples.iter().map(|s| log_loss(logit(s), f64::from(s.target))).sum::<f64>() / samples.len() as f64
}

/// The samples of a rule family (`None`: all).
fn of_family(set: &[Sample], family: Option<u8>) -> Vec<&Sample> {
    set.iter().filter(|s| family.is_none_or(|f| s.family == f)).collect()
}

/// The network's logit of a sample (no symmetry).
fn net_logit(p: &Params, s: &Sample, pass: &mut Pass, active: &mut Vec<u16>) -> f64 {
    active.clear();
    s.planes.active(active);
    f64::from(s.base) + forward(p, active, pass)
}

fn held_out_loss(p: &Params, test: &[Sample]) -> f64 {
    let (mut pass, mut active) = (Pass::default(), Vec::new());
    let all: Vec<&Sample> = test.iter().collect();
    mean_loss(&all, |s| net_logit(p, s, &mut pass, &mut active))
}

/// Why `veletas train-net` ([`run`]) wrote no network: its layers' sizes, or games' files
/// that cannot be read or give it nothing to learn from (the training itself cannot fail).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrainNetError {
    /// `--hidden` sizes the network cannot have.
    #[error(
        "--hidden {h1},{h2}: the first layer's units a multiple of 16 up to {}, the second's 1 to {}",
        crate::net::MAX_HIDDEN1,
        crate::net::MAX_HIDDEN2
    )]
    Hidden {
        /// The first layer's units.
        h1: usize,
        /// The second layer's units.
        h2: usize,
    },
    /// A file, a game's start or a move cannot be read.
    #[error(transparent)]
    Games(#[from] GamesError),
    /// No training position: no game ended on the board.
    #[error("no position to learn from: no game in the files ended on the board")]
    NoPositions,
}

/// `veletas train-net`: reads, trains and reports; the network file's text is for the
/// command line to write.
pub fn run(settings: &TrainNetSettings) -> Result<Trained, TrainNetError> {
    let (h1, h2) = settings.hidden;
    if NetWeights::zeros(h1, h2).is_none() {
        return Err(TrainNetError::Hidden { h1, h2 });
    }
    let mut rng = Rng::new(settings.seed);
    let start = Instant::now();
    let data = read(settings, &mut rng)?;
    let read_secs = start.elapsed().as_secs_f64();
    let (train, test) = (data.train.items, data.test.items);
    if train.is_empty() {
        return Err(TrainNetError::NoPositions);
    }
    let mut p = Params::initial(h1, h2, &mut rng);
    let mut adam = Adam::new(&p);
    let steps_per_epoch = train.len().div_ceil(settings.batch.max(1));
    let total_steps = (steps_per_epoch * settings.epochs as usize).max(1);
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let (mut pass, mut da1, mut active) = (Pass::default(), Vec::new(), Vec::new());
    let mut grad = Params::zeros(h1, h2);
    let mut best = (held_out_loss(&p, &test), p.clone(), 0u32);
    let mut epochs_report = String::new();
    let fit_start = Instant::now();
    let mut step = 0usize;
    for epoch in 1..=settings.epochs {
        // Fisher-Yates with the seeded generator.
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below_u64(i as u64 + 1) as usize);
        }
        let mut train_loss = 0.0;
        for batch in order.chunks(settings.batch.max(1)) {
            grad.values.iter_mut().for_each(|g| *g = 0.0);
            for &i in batch {
                let s = &train[i as usize];
                active.clear();
                s.planes.transformed(rng.below(8) as u8).active(&mut active);
                let logit = f64::from(s.base) + forward(&p, &active, &mut pass);
                train_loss += log_loss(logit, f64::from(s.target));
                backward(&p, &active, &pass, sigmoid(logit) - f64::from(s.target), &mut grad, &mut da1);
            }
            let progress = step as f64 / total_steps as f64;
            let lr = settings.learning_rate * (0.05 + 0.95 * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos()));
            adam.step(&mut p, &grad, batch.len(), lr, settings.data.l2);
            step += 1;
        }
        let held = held_out_loss(&p, &test);
        epochs_report.push_str(&format!(
            "  epoch {epoch:>3}: training {:.4}, held out {held:.4}\n",
            train_loss / train.len() as f64
        ));
        log::info!("train-net: epoch {epoch}: held-out log-loss {held:.4}");
        if held < best.0 || test.is_empty() {
            best = (held, p.clone(), epoch);
        }
    }
    let fit_secs = fit_start.elapsed().as_secs_f64();
    let samples_per_sec = (train.len() as f64 * f64::from(settings.epochs)) / fit_secs.max(1e-9);
    let (_, p, best_epoch) = best;
    let mut report = format!(
        "{} games ({} skipped), {} training and {} held-out positions (of {} and {} read); read in {read_secs:.2} s, \
         trained in {fit_secs:.2} s ({samples_per_sec:.0} samples/s)\n",
        data.games,
        data.skipped,
        train.len(),
        test.len(),
        data.train.seen,
        data.test.seen
    );
    report.push_str(&format!("network: {} inputs, {h1} and {h2} hidden units; epochs:\n", crate::net::inputs::INPUTS));
    report.push_str(&epochs_report);
    report.push_str(&format!("kept the weights of epoch {best_epoch}\n"));
    report.push_str("held-out log-loss (nats per position; lower is better):\n");
    report.push_str("  rule family  positions  constant  linear  network\n");
    let rate = |set: &[&Sample]| set.iter().map(|s| f64::from(s.target)).sum::<f64>() / set.len().max(1) as f64;
    for fam in [None, Some(0u8), Some(1u8)] {
        let (tr, te) = (of_family(&train, fam), of_family(&test, fam));
        if te.is_empty() || (fam.is_some() && te.len() == test.len()) {
            continue;
        }
        let constant = rate(&tr).clamp(1e-6, 1.0 - 1e-6);
        let c = (constant / (1.0 - constant)).ln();
        report.push_str(&format!(
            "  {:11} {:>10} {:9.4} {:7.4} {:8.4}\n",
            fam.map_or("all", |f| FAMILY_NAMES[usize::from(f)]),
            te.len(),
            mean_loss(&te, |_| c),
            mean_loss(&te, |s| f64::from(s.base)),
            mean_loss(&te, |s| net_logit(&p, s, &mut pass, &mut active)),
        ));
    }
    let comments = vec![
        format!("veletas value network, made by veletas {}", settings.version),
        format!("command: {}", settings.command),
        format!(
            "data: {} games, {} training and {} held-out positions; base model: {}",
            data.games,
            train.len(),
            test.len(),
            settings.base.1
        ),
        format!("kept epoch {best_epoch} of {}; held-out log-loss {:.4}", settings.epochs, held_out_loss(&p, &test)),
    ];
    let weights = p.to_weights().to_text(&comments, &settings.base.0.to_text());
    Ok(Trained { report, weights })
}
