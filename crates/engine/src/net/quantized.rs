//! The network the search runs: [`NetWeights`] rounded to integers.
//!
//! First layer: int16 at scale [`QA`] (biases too). With every weight and bias within
//! [`W1_BOUND`](super::W1_BOUND) = 1 and at most [`MAX_ACTIVE`] inputs set, the
//! accumulator stays within `(MAX_ACTIVE + 1) * QA` = 26,520 < 32,767: it never wraps.
//! Second layer: the clipped accumulator (0 to `QA`) times int16 weights at scale [`QB`],
//! summed in int32 (at most 512 units * 255 * 256: no overflow), plus the bias at scale
//! `QA * QB`. The rest (clip, last layer) in single precision, in one fixed order, shared
//! by both kernels.

use super::accumulator::Kernels;
use super::inputs::{INPUTS, MAX_ACTIVE, Planes};
use super::{MAX_HIDDEN1, MAX_HIDDEN2, NetWeights, QA, QB};

/// A quantized network and the kernels it runs with.
#[derive(Clone, Debug, PartialEq)]
pub struct QuantizedNet {
    h1: usize,
    h2: usize,
    w1: Vec<i16>,
    b1: Vec<i16>,
    w2: Vec<i16>,
    b2: Vec<i32>,
    w3: Vec<f32>,
    b3: f32,
    kernels: Kernels,
}

/// A first layer's accumulator, on the stack (room for the largest network).
#[derive(Clone, Debug)]
pub struct Accumulator {
    values: [i16; MAX_HIDDEN1],
}

impl Default for Accumulator {
    fn default() -> Accumulator {
        Accumulator { values: [0; MAX_HIDDEN1] }
    }
}

impl Accumulator {
    /// The first `n` values.
    pub fn values(&self, n: usize) -> &[i16] {
        &self.values[..n]
    }
}

fn round(x: f32, scale: f32) -> f32 {
    (x * scale).round()
}

impl QuantizedNet {
    /// `weights` rounded, run by `kernels` (weights out of their bounds are clamped to
    /// them first: a parsed file never has any).
    pub fn new(weights: &NetWeights, kernels: Kernels) -> QuantizedNet {
        let mut w = weights.clone();
        w.clamp_to_bounds();
        let (qa, qb) = (f32::from(QA), f32::from(QB));
        QuantizedNet {
            h1: w.hidden1(),
            h2: w.hidden2(),
            w1: w.w1.iter().map(|&x| round(x, qa) as i16).collect(),
            b1: w.b1.iter().map(|&x| round(x, qa) as i16).collect(),
            w2: w.w2.iter().map(|&x| round(x, qb) as i16).collect(),
            b2: w.b2.iter().map(|&x| round(x, qa * qb) as i32).collect(),
            w3: w.w3.clone(),
            b3: w.b3,
            kernels,
        }
    }

    /// The same network run by other kernels.
    pub fn with_kernels(&self, kernels: Kernels) -> QuantizedNet {
        QuantizedNet { kernels, ..self.clone() }
    }

    fn column(&self, input: u16) -> &[i16] {
        &self.w1[usize::from(input) * self.h1..][..self.h1]
    }

    /// `acc` from scratch for the inputs set.
    pub fn refresh(&self, active: &[u16], acc: &mut Accumulator) {
        let values = &mut acc.values[..self.h1];
        values.copy_from_slice(&self.b1);
        if active.iter().all(|&i| usize::from(i) < INPUTS) {
            self.kernels.add_columns(values, &self.w1, active);
        } else {
            for &i in active.iter().filter(|&&i| usize::from(i) < INPUTS) {
                self.kernels.add(values, self.column(i));
            }
        }
    }

    /// `acc` updated for a change of inputs: `removed` were set and are not, `added` are.
    pub fn update(&self, acc: &mut Accumulator, removed: &[u16], added: &[u16]) {
        let values = &mut acc.values[..self.h1];
        for &i in removed.iter().filter(|&&i| usize::from(i) < INPUTS) {
            self.kernels.sub(values, self.column(i));
        }
        for &i in added.iter().filter(|&&i| usize::from(i) < INPUTS) {
            self.kernels.add(values, self.column(i));
        }
    }

    /// The output (a logit to add to the linear model's) from an accumulator.
    pub fn output(&self, acc: &Accumulator) -> f32 {
        let mut z2 = [0i32; MAX_HIDDEN2];
        let z2 = &mut z2[..self.h2];
        self.kernels.dense(&acc.values[..self.h1], QA, &self.w2, z2);
        self.finish(z2)
    }

    /// The last layers from the second layer's integer sums.
    fn finish(&self, z2: &[i32]) -> f32 {
        let scale = 1.0 / (f32::from(QA) * f32::from(QB));
        let mut out = self.b3;
        for ((z, b), w) in z2.iter().zip(&self.b2).zip(&self.w3) {
            out += w * ((z + b) as f32 * scale).clamp(0.0, 1.0);
        }
        out
    }

    /// The output for the inputs of `acc` and one more, `input` (the accumulator stays as
    /// it is): a shot's stone added to the position after the turn's move.
    pub fn output_with(&self, acc: &Accumulator, input: u16) -> f32 {
        let mut z2 = [0i32; MAX_HIDDEN2];
        let z2 = &mut z2[..self.h2];
        let inputs = [input.min(INPUTS as u16 - 1)];
        self.kernels.evaluate(&acc.values[..self.h1], &self.w1, &inputs, QA, &self.w2, z2);
        self.finish(z2)
    }

    /// The output for a position's planes, from scratch.
    pub fn evaluate(&self, planes: &Planes) -> f32 {
        let mut active = ActiveInputs::default();
        planes.active(&mut active);
        let mut z2 = [0i32; MAX_HIDDEN2];
        let z2 = &mut z2[..self.h2];
        self.kernels.evaluate(&self.b1, &self.w1, active.as_slice(), QA, &self.w2, z2);
        self.finish(z2)
    }
}

/// A position's inputs on the stack (at most [`MAX_ACTIVE`]).
#[derive(Debug)]
pub struct ActiveInputs {
    items: [u16; MAX_ACTIVE],
    len: usize,
}

impl Default for ActiveInputs {
    fn default() -> ActiveInputs {
        ActiveInputs { items: [0; MAX_ACTIVE], len: 0 }
    }
}

impl Extend<u16> for ActiveInputs {
    fn extend<I: IntoIterator<Item = u16>>(&mut self, inputs: I) {
        inputs.into_iter().for_each(|i| self.push(i));
    }
}

impl ActiveInputs {
    /// Adds an input (past [`MAX_ACTIVE`], which no position reaches, it is dropped).
    pub fn push(&mut self, input: u16) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = input;
            self.len += 1;
        }
    }

    /// The inputs added.
    pub fn as_slice(&self) -> &[u16] {
        &self.items[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::super::weights::tests::random_net;
    use super::*;
    use veletas_rules::{PlayoutPolicy, Position, Rng, RuleSet, Rules, Variant};

    fn games(seed: u64) -> Vec<Position> {
        let mut out = Vec::new();
        let mut rng = Rng::new(seed);
        let rule_sets = [
            Rules::new(RuleSet::Classic, false, false),
            Rules::new(RuleSet::Classic, true, false),
            Rules::new(RuleSet::Modern, false, false),
            Rules::new(RuleSet::Modern, true, true),
        ];
        for rules in rule_sets.into_iter().map(|r| r.expect("rules")) {
            for size in [7, 9, 10] {
                let variant = Variant::from_size(size).expect("size");
                out.push(Position::with_rules(variant, rules));
                let mut pos = Position::random_start(variant, rules, &mut rng);
                out.push(pos.clone());
                while !pos.is_over() {
                    let Some(turn) = pos.random_turn(&mut rng, PlayoutPolicy::Uniform) else { break };
                    pos.play_turn_unchecked(turn);
                    out.push(pos.clone());
                }
            }
        }
        out
    }

    #[test]
    fn the_incremental_accumulator_equals_the_one_from_scratch_after_every_turn() {
        let net = QuantizedNet::new(&random_net(3), Kernels::detect());
        let positions = games(5);
        assert!(positions.len() > 12 * 20, "whole games: {} positions", positions.len());
        let mut acc = Accumulator::default();
        let mut previous: Option<Planes> = None;
        for pos in &positions {
            let planes = Planes::of(pos);
            match previous {
                // A new game starts from scratch.
                Some(prev) if prev.size() == planes.size() && pos.phase() != veletas_rules::Phase::BlackSetup => {
                    let (mut removed, mut added) = (Vec::new(), Vec::new());
                    prev.diff(&planes, &mut removed, &mut added);
                    net.update(&mut acc, &removed, &added);
                }
                _ => {
                    let mut active = Vec::new();
                    planes.active(&mut active);
                    net.refresh(&active, &mut acc);
                }
            }
            let mut active = Vec::new();
            planes.active(&mut active);
            let mut fresh = Accumulator::default();
            net.refresh(&active, &mut fresh);
            assert_eq!(acc.values(net.h1), fresh.values(net.h1));
            // The fused pass from scratch gives the accumulator's output.
            assert_eq!(net.output(&acc).to_bits(), net.evaluate(&planes).to_bits());
            previous = Some(planes);
        }
    }

    #[test]
    fn scalar_and_avx2_networks_give_the_same_outputs_bit_for_bit() {
        let net = QuantizedNet::new(&random_net(4), Kernels::Scalar);
        let fast = net.with_kernels(Kernels::detect());
        for pos in games(6) {
            let planes = Planes::of(&pos);
            assert_eq!(net.evaluate(&planes).to_bits(), fast.evaluate(&planes).to_bits());
        }
    }

    #[test]
    fn the_quantized_network_follows_the_float_reference() {
        let weights = random_net(7);
        let net = QuantizedNet::new(&weights, Kernels::detect());
        let (mut worst, mut total, mut count) = (0.0f32, 0.0f32, 0);
        for pos in games(8) {
            let planes = Planes::of(&pos);
            let mut active = Vec::new();
            planes.active(&mut active);
            let error = (net.evaluate(&planes) - weights.forward(&active)).abs();
            worst = worst.max(error);
            total += error;
            count += 1;
        }
        // Rounding to 1/255 in the first layer (up to a hundred inputs) and 1/64 in the
        // second, for outputs of a few units: hundredths on average, a tenth or so at worst.
        let mean = total / count as f32;
        assert!(mean < 0.03 && worst < 0.3, "mean difference {mean}, worst {worst}");
        assert!(worst > 0.0, "rounded, so not exact");
    }
}
