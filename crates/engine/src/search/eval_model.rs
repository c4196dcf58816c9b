//! The learned linear evaluation's model: its features' names and layout, the weights by
//! rule family ([`EvalModel`]: read from and written to weights files), and the built-in
//! weights (`crates/engine/data/eval-weights.txt`).
//!
//! Below both evaluations that use it: [`super::eval`] computes the features and the
//! logit; [`super::net_eval`] adds a value network's correction to that logit.

use std::sync::{Arc, OnceLock};

use veletas_rules::Position;

use super::linear_file::{LinearFileError, LinearFormat, read_linear};

/// Liberty buckets of the learned features: 1, 2, 3, 4, 5-6, 7 and more.
pub(crate) const BUCKETS: usize = 6;

pub(crate) fn bucket(libs: usize) -> usize {
    match libs {
        0 | 1 => 0,
        2 => 1,
        3 => 2,
        4 => 3,
        5 | 6 => 4,
        _ => 5,
    }
}

/// The number of features.
pub const FEATURES: usize = 4 + 2 * BUCKETS;

/// The names of the features, in order (the weights file uses them).
pub fn feature_names() -> [String; FEATURES] {
    let mut names: [String; FEATURES] = std::array::from_fn(|_| String::new());
    names[0] = "bias".into();
    names[1] = "hand_logit".into();
    names[2] = "claims".into();
    names[3] = "black_to_move".into();
    let labels = ["1", "2", "3", "4", "5_6", "7_plus"];
    for (b, label) in labels.iter().enumerate() {
        names[4 + b] = format!("control_libs_{label}");
        names[4 + BUCKETS + b] = format!("tempo_libs_{label}");
    }
    names
}

/// A position's features, from Black's point of view: a bias, the hand-written
/// evaluation's logit, the claim difference, who moves, and per liberty bucket of the
/// unclaimed shooters the sum of `tanh(0.6 (black group - white group))` next to them
/// (control) and the number of them where the groups are level, signed by who moves
/// (tempo).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features(pub [f64; FEATURES]);

/// The learned evaluation's weights, and the file they were read from (`None`: the
/// built-in ones).
#[derive(Clone, Debug, PartialEq)]
pub struct LearnedWeights {
    model: EvalModel,
    file: Option<String>,
}

impl LearnedWeights {
    /// `model`, read from `file` (`None`: built in).
    pub fn new(model: EvalModel, file: Option<String>) -> LearnedWeights {
        LearnedWeights { model, file }
    }

    /// The model.
    pub fn model(&self) -> &EvalModel {
        &self.model
    }

    /// The file the weights were read from; `None` for the built-in ones.
    pub fn file(&self) -> Option<&str> {
        self.file.as_deref()
    }
}

/// The rule family's index in [`EvalModel::weights`] (and the move policy's): 0 for the
/// classic rules, 1 for the modern rules.
pub fn family(pos: &Position) -> usize {
    usize::from(pos.rules().is_modern())
}

/// The rule families' names, by index.
pub use super::linear_file::FAMILY_NAMES;

/// Weights of the learned evaluation: one per feature and rule family.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalModel {
    /// Weights by rule family (`[classic, modern]`, see [`family`]), in feature order.
    pub weights: [[f64; FEATURES]; 2],
}

impl EvalModel {
    /// The model with the same `weights` for both rule families.
    pub fn shared(weights: [f64; FEATURES]) -> EvalModel {
        EvalModel { weights: [weights; 2] }
    }

    /// The model's logit for `features` of a position of rule family `family`.
    pub fn logit(&self, family: usize, features: &Features) -> f64 {
        let weights = &self.weights[family & 1];
        weights.iter().zip(features.0.iter()).map(|(w, f)| w * f).sum::<f64>().clamp(-30.0, 30.0)
    }

    /// Reads `NAME WEIGHT` lines (the weight of both rule families) and `FAMILY NAME
    /// WEIGHT` lines (`classic` or `modern`: that family's); `#` comments and blank lines
    /// skipped. Every feature of both families must be given once.
    pub fn parse(text: &str) -> Result<EvalModel, LinearFileError> {
        let names = feature_names();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let format =
            LinearFormat { what: "weights", model: "evaluation", names: &names, shared_lines: true, bound: None };
        Ok(EvalModel { weights: read_linear(text, &format)? })
    }

    /// The model as a weights file: `NAME WEIGHT` lines when both families share their
    /// weights, else `FAMILY NAME WEIGHT` lines.
    pub fn to_text(&self) -> String {
        let names = feature_names();
        if self.weights[0] == self.weights[1] {
            return names.iter().zip(self.weights[0].iter()).map(|(n, w)| format!("{n} {w:.6}\n")).collect();
        }
        let mut out = String::new();
        for (family, weights) in FAMILY_NAMES.iter().zip(self.weights.iter()) {
            for (n, w) in names.iter().zip(weights.iter()) {
                out.push_str(&format!("{family} {n} {w:.6}\n"));
            }
        }
        out
    }
}

/// The learned weights built into the binary (`crates/engine/data/eval-weights.txt`).
pub const LEARNED_WEIGHTS: &str = include_str!("../../data/eval-weights.txt");

/// The built-in weights, parsed once from [`LEARNED_WEIGHTS`] (a file a test checks;
/// should it not parse, the hand-written evaluation's weights stand in).
pub(crate) fn builtin_weights() -> &'static Arc<LearnedWeights> {
    static BUILTIN: OnceLock<Arc<LearnedWeights>> = OnceLock::new();
    BUILTIN.get_or_init(|| {
        let model = EvalModel::parse(LEARNED_WEIGHTS).unwrap_or_else(|e| {
            log::error!("{e}");
            let mut weights = [0.0; FEATURES];
            weights[1] = 1.0;
            EvalModel::shared(weights)
        });
        Arc::new(LearnedWeights { model, file: None })
    })
}
