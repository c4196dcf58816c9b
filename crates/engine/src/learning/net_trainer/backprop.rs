//! The value network's training arithmetic: the forward pass with what backpropagation
//! needs kept, the gradients of the log-loss written out by hand, and Adam.
//!
//! The parameters are kept in double precision while training (so that the gradient
//! check against finite differences is exact to many digits) and rounded to single
//! precision for the file ([`Params::to_weights`]). The first layer's inputs are sparse:
//! its gradient touches only the columns of the inputs set.

use crate::net::inputs::INPUTS;
use crate::net::{NetWeights, OUT_BOUND, W1_BOUND, W2_BOUND};
use veletas_rules::Rng;

/// The network's parameters (or their gradients, or Adam's moments): the layout of
/// [`NetWeights`] in one flat vector.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    h1: usize,
    h2: usize,
    /// w1 (`INPUTS` columns of `h1`), b1, w2 (`h2` rows of `h1`), b2, w3, b3.
    pub(crate) values: Vec<f64>,
}

/// Offsets of each part in [`Params::values`].
#[derive(Clone, Copy, Debug)]
struct Layout {
    b1: usize,
    w2: usize,
    b2: usize,
    w3: usize,
    b3: usize,
    len: usize,
}

impl Params {
    fn layout(h1: usize, h2: usize) -> Layout {
        let b1 = INPUTS * h1;
        let w2 = b1 + h1;
        let b2 = w2 + h2 * h1;
        let w3 = b2 + h2;
        let b3 = w3 + h2;
        Layout { b1, w2, b2, w3, b3, len: b3 + 1 }
    }

    /// Zeros in the shape of a network of `h1` and `h2` hidden units.
    pub fn zeros(h1: usize, h2: usize) -> Params {
        Params { h1, h2, values: vec![0.0; Params::layout(h1, h2).len] }
    }

    /// A starting point: small random first and second layers biased into the clipped
    /// ReLUs' linear range, and an output layer of zeros (so training starts from the
    /// linear model the network corrects).
    pub fn initial(h1: usize, h2: usize, rng: &mut Rng) -> Params {
        let mut p = Params::zeros(h1, h2);
        let l = Params::layout(h1, h2);
        let mut uniform = |scale: f64| (rng.unit() * 2.0 - 1.0) * scale;
        for w in &mut p.values[..l.b1] {
            *w = uniform(0.05);
        }
        for b in &mut p.values[l.b1..l.w2] {
            *b = 0.3 + uniform(0.1);
        }
        let scale = (3.0 / h1 as f64).sqrt();
        for w in &mut p.values[l.w2..l.b2] {
            *w = uniform(scale);
        }
        for b in &mut p.values[l.b2..l.w3] {
            *b = 0.3 + uniform(0.1);
        }
        p
    }

    /// The parameters of `weights`.
    pub fn from_weights(weights: &NetWeights) -> Params {
        let mut p = Params::zeros(weights.hidden1(), weights.hidden2());
        let l = Params::layout(p.h1, p.h2);
        let parts: [(&[f32], usize); 6] = [
            (&weights.w1, 0),
            (&weights.b1, l.b1),
            (&weights.w2, l.w2),
            (&weights.b2, l.b2),
            (&weights.w3, l.w3),
            (std::slice::from_ref(&weights.b3), l.b3),
        ];
        for (part, at) in parts {
            p.values[at..at + part.len()].iter_mut().zip(part).for_each(|(v, &w)| *v = f64::from(w));
        }
        p
    }

    /// The weights in single precision (within the file's bounds).
    pub fn to_weights(&self) -> NetWeights {
        let l = Params::layout(self.h1, self.h2);
        let mut w = NetWeights::zeros(self.h1, self.h2).unwrap_or_else(unreachable_sizes);
        let f = |s: &[f64]| s.iter().map(|&x| x as f32).collect::<Vec<f32>>();
        w.w1 = f(&self.values[..l.b1]);
        w.b1 = f(&self.values[l.b1..l.w2]);
        w.w2 = f(&self.values[l.w2..l.b2]);
        w.b2 = f(&self.values[l.b2..l.w3]);
        w.w3 = f(&self.values[l.w3..l.b3]);
        w.b3 = self.values[l.b3] as f32;
        w.clamp_to_bounds();
        w
    }

    /// Clamps every parameter into the file's bound for its layer.
    fn clamp_to_bounds(&mut self) {
        let l = Params::layout(self.h1, self.h2);
        for (i, v) in self.values.iter_mut().enumerate() {
            let bound = if i < l.w2 {
                W1_BOUND
            } else if i < l.b2 {
                W2_BOUND
            } else {
                OUT_BOUND
            };
            *v = v.clamp(-f64::from(bound), f64::from(bound));
        }
    }
}

/// Sizes are checked when the trainer's settings are made; this is never reached.
fn unreachable_sizes() -> NetWeights {
    NetWeights::zeros(16, 1).unwrap_or_else(|| unreachable!("16 and 1 are valid sizes"))
}

/// A forward pass's intermediate values, kept for the backward pass.
#[derive(Clone, Debug, Default)]
pub struct Pass {
    z1: Vec<f64>,
    a1: Vec<f64>,
    z2: Vec<f64>,
    a2: Vec<f64>,
    /// The network's output (the logit's correction).
    pub out: f64,
}

/// The network's output for the inputs `active`, keeping the pass in `pass`.
pub fn forward(p: &Params, active: &[u16], pass: &mut Pass) -> f64 {
    let (h1, h2) = (p.h1, p.h2);
    let l = Params::layout(h1, h2);
    pass.z1.clear();
    pass.z1.extend_from_slice(&p.values[l.b1..l.w2]);
    for &i in active {
        let column = &p.values[usize::from(i) * h1..][..h1];
        pass.z1.iter_mut().zip(column).for_each(|(z, w)| *z += w);
    }
    pass.a1.clear();
    pass.a1.extend(pass.z1.iter().map(|z| z.clamp(0.0, 1.0)));
    pass.z2.clear();
    pass.a2.clear();
    let mut out = p.values[l.b3];
    for k in 0..h2 {
        let row = &p.values[l.w2 + k * h1..][..h1];
        let z = p.values[l.b2 + k] + row.iter().zip(&pass.a1).map(|(w, a)| w * a).sum::<f64>();
        let a = z.clamp(0.0, 1.0);
        pass.z2.push(z);
        pass.a2.push(a);
        out += p.values[l.w3 + k] * a;
    }
    pass.out = out;
    out
}

fn inside(z: f64) -> bool {
    z > 0.0 && z < 1.0
}

/// Adds to `grad` the gradient of the loss with respect to the parameters, given the
/// pass of `active` and `d_out`, the loss's derivative with respect to the output
/// (for the log-loss of the logistic: the probability minus the target). `da1`: scratch.
pub fn backward(p: &Params, active: &[u16], pass: &Pass, d_out: f64, grad: &mut Params, da1: &mut Vec<f64>) {
    let (h1, h2) = (p.h1, p.h2);
    let l = Params::layout(h1, h2);
    let g = &mut grad.values;
    g[l.b3] += d_out;
    da1.clear();
    da1.resize(h1, 0.0);
    for k in 0..h2 {
        g[l.w3 + k] += d_out * pass.a2[k];
        if !inside(pass.z2[k]) {
            continue;
        }
        let dz2 = d_out * p.values[l.w3 + k];
        g[l.b2 + k] += dz2;
        let row = l.w2 + k * h1;
        for j in 0..h1 {
            g[row + j] += dz2 * pass.a1[j];
            da1[j] += dz2 * p.values[row + j];
        }
    }
    for (d, &z) in da1.iter_mut().zip(&pass.z1) {
        if !inside(z) {
            *d = 0.0;
        }
    }
    for (gb, d) in g[l.b1..l.w2].iter_mut().zip(da1.iter()) {
        *gb += d;
    }
    for &i in active {
        let column = &mut g[usize::from(i) * h1..][..h1];
        column.iter_mut().zip(da1.iter()).for_each(|(gw, d)| *gw += d);
    }
}

/// Adam's state: the moments of every parameter and the steps taken.
#[derive(Clone, Debug)]
pub struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    steps: i32,
}

impl Adam {
    /// A fresh optimizer for parameters shaped like `p`.
    pub fn new(p: &Params) -> Adam {
        Adam { m: vec![0.0; p.values.len()], v: vec![0.0; p.values.len()], steps: 0 }
    }

    /// One step of `lr` along the mean gradient `grad` (summed over `batch` samples), with
    /// decoupled weight decay `decay` on every weight (AdamW; biases spared), then the
    /// parameters clamped into the file's bounds.
    pub fn step(&mut self, p: &mut Params, grad: &Params, batch: usize, lr: f64, decay: f64) {
        let l = Params::layout(p.h1, p.h2);
        let is_bias = |i: usize| (l.b1..l.w2).contains(&i) || (l.b2..l.w3).contains(&i) || i == l.b3;
        self.step_values(&mut p.values, &grad.values, batch, lr, decay, is_bias);
        p.clamp_to_bounds();
    }

    /// [`Adam::step`] on any flat parameters: `is_bias` says which are spared the decay
    /// (the caller clamps them afterwards).
    pub fn step_values(
        &mut self,
        values: &mut [f64],
        grad: &[f64],
        batch: usize,
        lr: f64,
        decay: f64,
        is_bias: impl Fn(usize) -> bool,
    ) {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        const EPS: f64 = 1e-8;
        self.steps += 1;
        let c1 = 1.0 - B1.powi(self.steps);
        let c2 = 1.0 - B2.powi(self.steps);
        let scale = 1.0 / batch.max(1) as f64;
        for (i, ((w, &g), (m, v))) in
            values.iter_mut().zip(grad).zip(self.m.iter_mut().zip(self.v.iter_mut())).enumerate()
        {
            let g = g * scale;
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            let step = (*m / c1) / ((*v / c2).sqrt() + EPS);
            if !is_bias(i) {
                *w -= lr * decay * *w;
            }
            *w -= lr * step;
        }
    }

    /// A fresh optimizer for `n` parameters.
    pub fn with_len(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n], steps: 0 }
    }
}

/// The logistic function.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The log-loss (natural log) of logit `x` for target probability `t`, without overflow.
pub fn log_loss(x: f64, t: f64) -> f64 {
    // -t ln s(x) - (1 - t) ln(1 - s(x)) = softplus(x) - t x
    let softplus = if x > 0.0 { x + (-x).exp().ln_1p() } else { x.exp().ln_1p() };
    softplus - t * x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::QuantizedNet;
    use crate::net::accumulator::Kernels;
    use crate::net::inputs::SIZE_BASE;

    fn random_active(rng: &mut Rng) -> Vec<u16> {
        let mut active: Vec<u16> = (0..30).map(|_| rng.below(SIZE_BASE as u32) as u16).collect();
        active.sort_unstable();
        active.dedup();
        active.push(SIZE_BASE + 2);
        active
    }

    fn loss(p: &Params, samples: &[(Vec<u16>, f64, f64)]) -> f64 {
        let mut pass = Pass::default();
        samples.iter().map(|(a, base, t)| log_loss(base + forward(p, a, &mut pass), *t)).sum()
    }

    #[test]
    fn the_gradients_match_finite_differences() {
        let mut rng = Rng::new(3);
        let mut p = Params::initial(16, 4, &mut rng);
        // A non-zero output layer, so that every layer has a gradient.
        let l = Params::layout(16, 4);
        for i in l.w3..=l.b3 {
            p.values[i] = rng.unit() * 2.0 - 1.0;
        }
        let samples: Vec<(Vec<u16>, f64, f64)> =
            (0..8).map(|_| (random_active(&mut rng), rng.unit() - 0.5, rng.unit())).collect();
        let mut grad = Params::zeros(16, 4);
        let (mut pass, mut da1) = (Pass::default(), Vec::new());
        for (a, base, t) in &samples {
            let out = forward(&p, a, &mut pass);
            backward(&p, a, &pass, sigmoid(base + out) - t, &mut grad, &mut da1);
        }
        // Every output-layer parameter, and parameters of the inputs set elsewhere.
        let mut checked = Vec::from_iter(l.b1..l.len);
        checked.extend(samples[0].0.iter().map(|&i| usize::from(i) * 16 + 3));
        let eps = 1e-6;
        let mut nonzero = 0;
        for i in checked {
            let (mut plus, mut minus) = (p.clone(), p.clone());
            plus.values[i] += eps;
            minus.values[i] -= eps;
            let numeric = (loss(&plus, &samples) - loss(&minus, &samples)) / (2.0 * eps);
            let analytic = grad.values[i];
            assert!(
                (numeric - analytic).abs() <= 1e-6 * analytic.abs().max(1.0),
                "parameter {i}: {analytic} by hand, {numeric} by differences"
            );
            nonzero += usize::from(analytic.abs() > 1e-9);
        }
        assert!(nonzero > 50, "the check saw real gradients ({nonzero})");
    }

    #[test]
    fn training_learns_a_known_function_of_the_inputs() {
        // A rule the network can represent: Black wins when more of the inputs set are
        // among 0..100 than among 100..200.
        let mut rng = Rng::new(9);
        let samples: Vec<(Vec<u16>, f64)> = (0..2000)
            .map(|_| {
                let mut active: Vec<u16> = (0..20).map(|_| rng.below(200) as u16).collect();
                active.sort_unstable();
                active.dedup();
                let left = active.iter().filter(|&&i| i < 100).count();
                let target = if 2 * left > active.len() { 1.0 } else { 0.0 };
                (active, target)
            })
            .collect();
        let mut p = Params::initial(32, 8, &mut rng);
        let mut adam = Adam::new(&p);
        let (mut pass, mut da1) = (Pass::default(), Vec::new());
        let mean_loss = |p: &Params| {
            let mut pass = Pass::default();
            samples.iter().map(|(a, t)| log_loss(forward(p, a, &mut pass), *t)).sum::<f64>() / samples.len() as f64
        };
        let before = mean_loss(&p);
        for _ in 0..20 {
            for batch in samples.chunks(64) {
                let mut grad = Params::zeros(32, 8);
                for (a, t) in batch {
                    let out = forward(&p, a, &mut pass);
                    backward(&p, a, &pass, sigmoid(out) - t, &mut grad, &mut da1);
                }
                adam.step(&mut p, &grad, batch.len(), 3e-3, 0.0);
            }
        }
        let after = mean_loss(&p);
        assert!(before > 0.6 && after < 0.25, "log-loss {before} before, {after} after");
        // And the quantized network written from it agrees with the sign of the rule.
        let net = QuantizedNet::new(&p.to_weights(), Kernels::detect());
        let mut acc = crate::net::Accumulator::default();
        let agree = samples
            .iter()
            .filter(|(a, t)| {
                net.refresh(a, &mut acc);
                (net.output(&acc) > 0.0) == (*t > 0.5)
            })
            .count();
        assert!(agree * 10 > samples.len() * 9, "{agree} of {} agree", samples.len());
    }
}
