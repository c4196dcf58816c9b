//! The evaluation with a value network (`eval::StaticEval::Net`): the learned linear model's
//! logit plus the network's correction, and the network file that holds both.
//!
//! A network file (`veletas train-net -o FILE`, the format in [`crate::net`]) carries the
//! linear model it was trained on top of as its `base` lines, so a network always runs
//! beside the very weights it corrects, whatever the binary's built-in ones are. The
//! search's shot priors keep using the linear model alone (`eval::evaluate_linear`): they
//! are computed shot by shot with the evaluation's incremental pass; the network scores
//! the playouts' leaves.

use super::eval_model::EvalModel;
use crate::net::accumulator::Kernels;
use crate::net::inputs::Planes;
use crate::net::{Accumulator, ActiveInputs, NetFileError, NetWeights, QuantizedNet};
use veletas_rules::{Color, Position, Square};

/// A value network beside the linear model it corrects.
#[derive(Clone, Debug, PartialEq)]
pub struct NetEval {
    model: EvalModel,
    net: QuantizedNet,
    file: Option<String>,
}

/// Why a network file's text is not an evaluation.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NetEvalError {
    /// The network's part.
    #[error("{0}")]
    Net(#[from] NetFileError),
    /// The `base` lines are no linear model.
    #[error("the network's base model: {0}")]
    Base(#[source] super::linear_file::LinearFileError),
}

impl NetEval {
    /// The evaluation of a network file's text; `file` names it (for `eval` to report).
    pub fn parse(text: &str, file: Option<String>) -> Result<NetEval, NetEvalError> {
        let parsed = NetWeights::parse(text)?;
        let model = EvalModel::parse(&parsed.base).map_err(NetEvalError::Base)?;
        Ok(NetEval::new(model, &parsed.weights, file))
    }

    /// The evaluation of `weights` on top of linear `model`, with this machine's fastest
    /// kernels.
    pub fn new(model: EvalModel, weights: &NetWeights, file: Option<String>) -> NetEval {
        NetEval { model, net: QuantizedNet::new(weights, Kernels::detect()), file }
    }

    /// The linear model.
    pub fn model(&self) -> &EvalModel {
        &self.model
    }

    /// The file it was read from.
    pub fn file(&self) -> Option<&str> {
        self.file.as_deref()
    }

    /// The accumulator of the position after the move `shooter_move` of `pos` (`None`:
    /// none) and before its shot, the other side to move ([`NetEval::logit_after_shot`]).
    pub fn after_move(&self, pos: &Position, shooter_move: Option<(Square, Square)>) -> Accumulator {
        let mut active = ActiveInputs::default();
        Planes::of(pos).after_move(shooter_move).active(&mut active);
        let mut acc = Accumulator::default();
        self.net.refresh(active.as_slice(), &mut acc);
        acc
    }

    /// Black's logit after the shot on `shot` by `mover`, from the accumulator of
    /// [`NetEval::after_move`] and the linear model's logit there: the same number as
    /// [`NetEval::logit`] on the position after the turn (a turn that claims no shooter).
    pub fn logit_after_shot(&self, acc: &Accumulator, base_logit: f64, mover: Color, shot: Square) -> f64 {
        let out = self.net.output_with(acc, Planes::stone_input(mover, shot));
        (base_logit + f64::from(out)).clamp(-30.0, 30.0)
    }

    /// Black's logit for `pos` given the linear model's logit there.
    pub fn logit(&self, pos: &Position, base_logit: f64) -> f64 {
        (base_logit + f64::from(self.net.evaluate(&Planes::of(pos)))).clamp(-30.0, 30.0)
    }
}
