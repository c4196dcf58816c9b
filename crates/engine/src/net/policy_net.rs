//! The policy network: a correction of the linear move policy's scores
//! ([`crate::search::policy`]) from the whole board.
//!
//! The same sparse inputs as the value network ([`super::inputs`]), a first layer of H
//! units kept as an accumulator, a clipped ReLU, and [`HEADS`] outputs: a score for
//! leaving each square (`from`), one for arriving on each square (`to`), and one for not
//! moving (`stay`). A first step's score is the linear policy's plus `from[F] + to[T]` (or
//! plus `stay`); the priors are their softmax. So the network learns where shooters
//! should go and leave from in this position, and the linear features keep what they
//! know; a network of zeros is the linear policy.
//!
//! The file is text like the value network's, with `veletas-policy-net 1`, `layers 665 H
//! 221`, the linear policy's weights as `base` lines, then `b1`, `w1 INPUT ...`, `bo`,
//! `wo HEAD ...`. Inference is quantized as the value network's first two layers are:
//! int16 accumulator at scale [`QA`], int16 head weights at scale [`QB`] summed in int32
//! by the same kernels (scalar and AVX2 equal bit for bit).

use super::accumulator::Kernels;
use super::file::{self, Part, Written};
use super::inputs::{INPUTS, Planes, SLOTS};
use super::{ActiveInputs, MAX_HIDDEN1, NetFileError, OUT_BOUND, QA, QB, W1_BOUND, W2_BOUND};

/// The outputs: `from` for each slot, `to` for each slot, `stay`.
pub const HEADS: usize = 2 * SLOTS + 1;
/// The index of the `stay` head.
pub const STAY: usize = 2 * SLOTS;

const FORMAT: &str = "veletas-policy-net 1";

/// The head of leaving square slot `from`.
pub fn from_head(from: usize) -> usize {
    from
}

/// The head of arriving on square slot `to`.
pub fn to_head(to: usize) -> usize {
    SLOTS + to
}

/// A policy network's weights in single precision.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyNetWeights {
    h: usize,
    /// `INPUTS` columns of `h`.
    pub(crate) w1: Vec<f32>,
    pub(crate) b1: Vec<f32>,
    /// `HEADS` rows of `h`.
    pub(crate) wo: Vec<f32>,
    pub(crate) bo: Vec<f32>,
}

/// A policy network file's contents: the network and its `base` lines (the linear
/// policy's weights file, unparsed).
#[derive(Clone, Debug)]
pub struct ParsedPolicyNet {
    /// The weights.
    pub weights: PolicyNetWeights,
    /// The `base` lines, without the word `base`.
    pub base: String,
}

impl PolicyNetWeights {
    /// A network of `h` hidden units (a multiple of 16 up to [`MAX_HIDDEN1`]) whose heads
    /// are 0 everywhere.
    pub fn zeros(h: usize) -> Option<PolicyNetWeights> {
        (h > 0 && h.is_multiple_of(16) && h <= MAX_HIDDEN1).then(|| PolicyNetWeights {
            h,
            w1: vec![0.0; INPUTS * h],
            b1: vec![0.0; h],
            wo: vec![0.0; HEADS * h],
            bo: vec![0.0; HEADS],
        })
    }

    /// The hidden units.
    pub fn hidden(&self) -> usize {
        self.h
    }

    /// Clamps every weight into its layer's bound.
    pub fn clamp_to_bounds(&mut self) {
        self.w1.iter_mut().chain(self.b1.iter_mut()).for_each(|w| *w = w.clamp(-W1_BOUND, W1_BOUND));
        self.wo.iter_mut().for_each(|w| *w = w.clamp(-W2_BOUND, W2_BOUND));
        self.bo.iter_mut().for_each(|w| *w = w.clamp(-OUT_BOUND, OUT_BOUND));
    }

    /// The heads for the inputs set, in single precision (the reference).
    pub fn forward(&self, active: &[u16]) -> Vec<f32> {
        let mut z1 = self.b1.clone();
        for &i in active {
            let column = &self.w1[usize::from(i) * self.h..][..self.h];
            z1.iter_mut().zip(column).for_each(|(z, w)| *z += w);
        }
        let a1: Vec<f32> = z1.iter().map(|z| z.clamp(0.0, 1.0)).collect();
        (0..HEADS)
            .map(|k| self.bo[k] + self.wo[k * self.h..][..self.h].iter().zip(&a1).map(|(w, a)| w * a).sum::<f32>())
            .collect()
    }

    /// The file's text (see the module's notes).
    pub fn to_text(&self, comments: &[String], base: &str) -> String {
        let h = self.h;
        let parts = [
            Written { name: "b1", width: h, rows: false, values: &self.b1 },
            Written { name: "w1", width: h, rows: true, values: &self.w1 },
            Written { name: "bo", width: HEADS, rows: false, values: &self.bo },
            Written { name: "wo", width: h, rows: true, values: &self.wo },
        ];
        file::to_text(comments, FORMAT, &format!("layers {INPUTS} {h} {HEADS}"), base, &parts)
    }

    /// Reads a policy network file's text.
    pub fn parse(text: &str) -> Result<ParsedPolicyNet, NetFileError> {
        let head = file::read_head(text, FORMAT)?;
        let bad = |what: String| NetFileError::Line { line: head.line, what };
        let h = match head.sizes.as_deref() {
            Some(&[inputs, h, heads]) if inputs == INPUTS && heads == HEADS => h,
            _ => return Err(bad(format!("expected 'layers {INPUTS} H {HEADS}'"))),
        };
        let mut net = PolicyNetWeights::zeros(h)
            .ok_or_else(|| bad(format!("a hidden layer of {h} units (a multiple of 16 up to {MAX_HIDDEN1})")))?;
        let PolicyNetWeights { w1, b1, wo, bo, .. } = &mut net;
        let base = head.read_parts(&mut [
            Part { name: "b1", width: h, rows: false, values: b1, bound: W1_BOUND },
            Part { name: "w1", width: h, rows: true, values: w1, bound: W1_BOUND },
            Part { name: "bo", width: HEADS, rows: false, values: bo, bound: OUT_BOUND },
            Part { name: "wo", width: h, rows: true, values: wo, bound: W2_BOUND },
        ])?;
        Ok(ParsedPolicyNet { weights: net, base })
    }
}

/// The policy network the search runs.
#[derive(Clone, Debug, PartialEq)]
pub struct QuantizedPolicyNet {
    h: usize,
    w1: Vec<i16>,
    b1: Vec<i16>,
    wo: Vec<i16>,
    bo: Vec<i32>,
    kernels: Kernels,
}

impl QuantizedPolicyNet {
    /// `weights` rounded (clamped to their bounds first), run by `kernels`.
    pub fn new(weights: &PolicyNetWeights, kernels: Kernels) -> QuantizedPolicyNet {
        let mut w = weights.clone();
        w.clamp_to_bounds();
        let (qa, qb) = (f32::from(QA), f32::from(QB));
        let q16 = |v: &[f32], s: f32| v.iter().map(|&x| (x * s).round() as i16).collect::<Vec<i16>>();
        QuantizedPolicyNet {
            h: w.h,
            w1: q16(&w.w1, qa),
            b1: q16(&w.b1, qa),
            wo: q16(&w.wo, qb),
            bo: w.bo.iter().map(|&x| (x * qa * qb).round() as i32).collect(),
            kernels,
        }
    }

    /// The same network run by other kernels.
    pub fn with_kernels(&self, kernels: Kernels) -> QuantizedPolicyNet {
        QuantizedPolicyNet { kernels, ..self.clone() }
    }

    /// The heads for a position's planes (`out` gets [`HEADS`] values).
    pub fn heads(&self, planes: &Planes, out: &mut [f32; HEADS]) {
        let mut active = ActiveInputs::default();
        planes.active(&mut active);
        let mut z = [0i32; HEADS];
        self.kernels.evaluate(&self.b1, &self.w1, active.as_slice(), QA, &self.wo, &mut z);
        let scale = 1.0 / (f32::from(QA) * f32::from(QB));
        for ((o, z), b) in out.iter_mut().zip(&z).zip(&self.bo) {
            *o = (z + b) as f32 * scale;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use veletas_rules::{PlayoutPolicy, Position, Rng, Rules, Variant};

    pub(crate) fn random_policy_net(seed: u64) -> PolicyNetWeights {
        let mut rng = Rng::new(seed);
        let mut uniform = |scale: f32| (rng.below(20001) as f32 / 10000.0 - 1.0) * scale;
        let mut net = PolicyNetWeights::zeros(16).expect("size");
        net.w1.iter_mut().for_each(|w| *w = uniform(0.2));
        net.b1.iter_mut().for_each(|w| *w = uniform(0.5) + 0.3);
        net.wo.iter_mut().for_each(|w| *w = uniform(2.0));
        net.bo.iter_mut().for_each(|w| *w = uniform(1.0));
        net
    }

    #[test]
    fn a_policy_network_file_reads_back_and_damage_is_refused() {
        let net = random_policy_net(1);
        let text = net.to_text(&["a test".into()], "classic stay 0.5\n");
        let parsed = PolicyNetWeights::parse(&text).expect("reads");
        assert_eq!(parsed.weights, net);
        assert_eq!(parsed.base, "classic stay 0.5\n");
        for (bad, why) in [
            (text.replacen("veletas-policy-net 1", "veletas-net 1", 1), "not a network file"),
            (text.lines().filter(|l| !l.starts_with("wo 220 ")).collect::<Vec<_>>().join("\n"), "no 'wo 220'"),
            (format!("{text}bo 1\n"), "given twice"),
            (text.replacen("\nbo ", "\nbo 1e9 ", 1), "a number from"),
            (text.replacen("layers 665 16 221", "layers 665 16 220", 1), "expected 'layers"),
        ] {
            let err = PolicyNetWeights::parse(&bad).expect_err(why).to_string();
            assert!(err.contains(why), "{err} should say {why}");
        }
    }

    #[test]
    fn the_quantized_heads_follow_the_float_reference_and_the_kernels_agree() {
        let weights = random_policy_net(2);
        let net = QuantizedPolicyNet::new(&weights, Kernels::Scalar);
        let fast = net.with_kernels(Kernels::detect());
        let mut rng = Rng::new(3);
        let mut pos = Position::random_start(Variant::from_size(10).expect("size"), Rules::default(), &mut rng);
        let (mut worst, mut positions) = (0.0f32, 0);
        while !pos.is_over() {
            let planes = Planes::of(&pos);
            let (mut a, mut b) = ([0.0; HEADS], [0.0; HEADS]);
            net.heads(&planes, &mut a);
            fast.heads(&planes, &mut b);
            assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits));
            let mut active = Vec::new();
            planes.active(&mut active);
            let float = weights.forward(&active);
            worst = a.iter().zip(&float).map(|(x, y)| (x - y).abs()).fold(worst, f32::max);
            positions += 1;
            let Some(turn) = pos.random_turn(&mut rng, PlayoutPolicy::Uniform) else { break };
            pos.play_turn_unchecked(turn);
        }
        assert!(positions > 20, "{positions} positions");
        assert!(worst < 0.3, "worst difference {worst}");
    }
}
