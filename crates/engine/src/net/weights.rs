//! The network's weights in single precision, the float forward pass (the reference of
//! the quantized one), and the network file.
//!
//! A network file is text: `#` comments (provenance: the program, the command, the
//! data), then
//!
//! ```text
//! veletas-net 1
//! layers INPUTS H1 H2
//! base LINE            (one per line of the linear model the network corrects)
//! b1 H1 numbers
//! w1 INPUT H1 numbers  (one line per input, every input once)
//! b2 H2 numbers
//! w2 UNIT H1 numbers   (one line per unit of the second layer, every unit once)
//! b3 NUMBER
//! w3 H2 numbers
//! ```
//!
//! Every number finite and within its layer's bound ([`super::W1_BOUND`] ...), every
//! line once; anything else refuses the whole file (nothing half loaded). The `base`
//! lines are handed back unparsed: the linear model is the evaluation's
//! ([`crate::search::eval::EvalModel`]).

use super::file::{self, Part, Written};
use super::inputs::INPUTS;
use super::{MAX_HIDDEN1, MAX_HIDDEN2, OUT_BOUND, W1_BOUND, W2_BOUND};

/// The file's format line.
const FORMAT: &str = "veletas-net 1";

/// A network's weights in single precision.
#[derive(Clone, Debug, PartialEq)]
pub struct NetWeights {
    h1: usize,
    h2: usize,
    /// First layer: `INPUTS` columns of `h1`, then the biases.
    pub(crate) w1: Vec<f32>,
    pub(crate) b1: Vec<f32>,
    /// Second layer: `h2` rows of `h1`, then the biases.
    pub(crate) w2: Vec<f32>,
    pub(crate) b2: Vec<f32>,
    /// Output: `h2` weights and the bias.
    pub(crate) w3: Vec<f32>,
    pub(crate) b3: f32,
}

/// Why a network file is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetFileError {
    /// No `veletas-net 1` line first.
    #[error("not a network file (no 'veletas-net 1' line)")]
    Format,
    /// A line that does not belong.
    #[error("line {line}: {what}")]
    Line {
        /// Its number, from 1.
        line: usize,
        /// What is wrong.
        what: String,
    },
    /// A part given nowhere.
    #[error("the file has no '{0}'")]
    Missing(String),
}

/// A network file's contents: the network and its `base` lines (the linear model's
/// file, unparsed).
#[derive(Clone, Debug)]
pub struct ParsedNet {
    /// The weights.
    pub weights: NetWeights,
    /// The `base` lines, without the word `base`.
    pub base: String,
}

impl NetWeights {
    /// A network of `h1` and `h2` hidden units (`h1` a multiple of 16 up to
    /// [`MAX_HIDDEN1`], `h2` from 1 to [`MAX_HIDDEN2`]) whose output is 0 everywhere.
    pub fn zeros(h1: usize, h2: usize) -> Option<NetWeights> {
        let ok = h1 > 0 && h1.is_multiple_of(16) && h1 <= MAX_HIDDEN1 && (1..=MAX_HIDDEN2).contains(&h2);
        ok.then(|| NetWeights {
            h1,
            h2,
            w1: vec![0.0; INPUTS * h1],
            b1: vec![0.0; h1],
            w2: vec![0.0; h2 * h1],
            b2: vec![0.0; h2],
            w3: vec![0.0; h2],
            b3: 0.0,
        })
    }

    /// The first hidden layer's units.
    pub fn hidden1(&self) -> usize {
        self.h1
    }

    /// The second hidden layer's units.
    pub fn hidden2(&self) -> usize {
        self.h2
    }

    /// Clamps every weight into its layer's bound (what the file allows).
    pub fn clamp_to_bounds(&mut self) {
        self.w1.iter_mut().chain(self.b1.iter_mut()).for_each(|w| *w = w.clamp(-W1_BOUND, W1_BOUND));
        self.w2.iter_mut().for_each(|w| *w = w.clamp(-W2_BOUND, W2_BOUND));
        self.b2.iter_mut().chain(self.w3.iter_mut()).for_each(|w| *w = w.clamp(-OUT_BOUND, OUT_BOUND));
        self.b3 = self.b3.clamp(-OUT_BOUND, OUT_BOUND);
    }

    /// The output (a logit to add to the linear model's) for the inputs set, in single
    /// precision: the reference of the quantized network.
    pub fn forward(&self, active: &[u16]) -> f32 {
        let mut z1 = self.b1.clone();
        for &i in active {
            let column = &self.w1[usize::from(i) * self.h1..][..self.h1];
            z1.iter_mut().zip(column).for_each(|(z, w)| *z += w);
        }
        let a1: Vec<f32> = z1.iter().map(|z| z.clamp(0.0, 1.0)).collect();
        let mut out = self.b3;
        for k in 0..self.h2 {
            let row = &self.w2[k * self.h1..][..self.h1];
            let z2 = self.b2[k] + row.iter().zip(&a1).map(|(w, a)| w * a).sum::<f32>();
            out += self.w3[k] * z2.clamp(0.0, 1.0);
        }
        out
    }

    /// The file's text: `comments` (each becomes a `# ` line), the format, the layers,
    /// the `base` lines (a linear model's file, its comments left out) and the weights.
    pub fn to_text(&self, comments: &[String], base: &str) -> String {
        let (h1, h2) = (self.h1, self.h2);
        let parts = [
            Written { name: "b1", width: h1, rows: false, values: &self.b1 },
            Written { name: "w1", width: h1, rows: true, values: &self.w1 },
            Written { name: "b2", width: h2, rows: false, values: &self.b2 },
            Written { name: "w2", width: h1, rows: true, values: &self.w2 },
            Written { name: "b3", width: 1, rows: false, values: std::slice::from_ref(&self.b3) },
            Written { name: "w3", width: h2, rows: false, values: &self.w3 },
        ];
        file::to_text(comments, FORMAT, &format!("layers {INPUTS} {h1} {h2}"), base, &parts)
    }

    /// Reads a network file's text (see the module's notes).
    pub fn parse(text: &str) -> Result<ParsedNet, NetFileError> {
        let head = file::read_head(text, FORMAT)?;
        let bad = |what: String| NetFileError::Line { line: head.line, what };
        let (h1, h2) = match head.sizes.as_deref() {
            None => return Err(bad("expected 'layers INPUTS H1 H2'".into())),
            Some(&[inputs, h1, h2]) if inputs == INPUTS => (h1, h2),
            Some(_) => return Err(bad(format!("expected 'layers {INPUTS} H1 H2'"))),
        };
        let mut net = NetWeights::zeros(h1, h2).ok_or_else(|| {
            bad(format!(
                "hidden layers of {h1} and {h2} units (H1 a multiple of 16 up to {MAX_HIDDEN1}, H2 1 to {MAX_HIDDEN2})"
            ))
        })?;
        let NetWeights { w1, b1, w2, b2, w3, b3, .. } = &mut net;
        let base = head.read_parts(&mut [
            Part { name: "b1", width: h1, rows: false, values: b1, bound: W1_BOUND },
            Part { name: "w1", width: h1, rows: true, values: w1, bound: W1_BOUND },
            Part { name: "b2", width: h2, rows: false, values: b2, bound: OUT_BOUND },
            Part { name: "w2", width: h1, rows: true, values: w2, bound: W2_BOUND },
            Part { name: "b3", width: 1, rows: false, values: std::slice::from_mut(b3), bound: OUT_BOUND },
            Part { name: "w3", width: h2, rows: false, values: w3, bound: OUT_BOUND },
        ])?;
        Ok(ParsedNet { weights: net, base })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use veletas_rules::Rng;

    pub(crate) fn random_net(seed: u64) -> NetWeights {
        let mut rng = Rng::new(seed);
        let mut uniform = |scale: f32| (rng.below(20001) as f32 / 10000.0 - 1.0) * scale;
        let mut net = NetWeights::zeros(32, 8).expect("sizes");
        net.w1.iter_mut().for_each(|w| *w = uniform(0.2));
        net.b1.iter_mut().for_each(|w| *w = uniform(0.5) + 0.3);
        net.w2.iter_mut().for_each(|w| *w = uniform(1.0));
        net.b2.iter_mut().for_each(|w| *w = uniform(0.3));
        net.w3.iter_mut().for_each(|w| *w = uniform(2.0));
        net.b3 = uniform(0.5);
        net
    }

    #[test]
    fn a_network_file_reads_back_as_the_same_weights() {
        let net = random_net(1);
        let text = net.to_text(&["made by a test".into()], "# a comment\nbias 0.5\nclassic claims 1.25\n");
        let parsed = NetWeights::parse(&text).expect("reads");
        assert_eq!(parsed.weights, net);
        assert_eq!(parsed.base, "bias 0.5\nclassic claims 1.25\n");
    }

    #[test]
    fn damaged_network_files_are_refused_with_the_reason() {
        let text = random_net(2).to_text(&[], "");
        let cases: Vec<(String, &str)> = vec![
            (text.replacen("veletas-net 1", "veletas-net 2", 1), "not a network file"),
            (text.replacen("layers 665 32 8", "layers 665 30 8", 1), "multiple of 16"),
            (text.lines().filter(|l| !l.starts_with("w1 17 ")).collect::<Vec<_>>().join("\n"), "no 'w1 17'"),
            (format!("{text}b3 0.5\n"), "given twice"),
            (text.replacen("b3 ", "b3 NaN ", 1), "a number from"),
            (text.replacen("b3 ", "b3 1e9 ", 1), "a number from"),
            (format!("{text}w2 8 1\n"), "index below 8"),
            (format!("{text}junk\n"), "expected base"),
        ];
        for (bad, why) in cases {
            let err = NetWeights::parse(&bad).expect_err(why).to_string();
            assert!(err.contains(why), "{err} should say {why}");
        }
    }
}
