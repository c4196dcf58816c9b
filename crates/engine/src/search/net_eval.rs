//! The evaluation with a value network ([`StaticEval::Net`]): the learned linear model's
//! logit plus the network's correction, and the network file that holds both.
//!
//! A network file (`veletas train-net -o FILE`, the format in [`crate::net`]) carries the
//! linear model it was trained on top of as its `base` lines, so a network always runs
//! beside the very weights it corrects, whatever the binary's built-in ones are. The
//! search's shot priors keep using the linear model alone ([`StaticEval::for_priors`]):
//! they are computed shot by shot with [`super::eval::ShotEvaluator`]'s incremental
//! pass; the network scores the playouts' leaves.

use std::sync::{Arc, OnceLock};

use super::eval::{EvalModel, LearnedWeights, StaticEval};
use crate::net::accumulator::Kernels;
use crate::net::inputs::Planes;
use crate::net::{Accumulator, ActiveInputs, NetFileError, NetWeights, QuantizedNet};
use veletas_rules::{Color, Position, Square};

/// A value network beside the linear model it corrects.
#[derive(Clone, Debug, PartialEq)]
pub struct NetEval {
    base: StaticEval,
    model: EvalModel,
    net: QuantizedNet,
    file: Option<String>,
}

/// Why a network file's text is not an evaluation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetEvalError {
    /// The network's part.
    #[error("{0}")]
    Net(#[from] NetFileError),
    /// The `base` lines are no linear model.
    #[error("the network's base model: {0}")]
    Base(String),
}

/// The value network built into the binary (`crates/engine/data/value-net.txt`).
pub const VALUE_NET: &str = include_str!("../../data/value-net.txt");

/// The built-in value network as an evaluation (`--eval net`), parsed once; `None` should
/// the file not parse (which a test rules out).
pub fn builtin() -> Option<StaticEval> {
    static NET: OnceLock<Option<Arc<NetEval>>> = OnceLock::new();
    NET.get_or_init(|| match NetEval::parse(VALUE_NET, None) {
        Ok(net) => Some(Arc::new(net)),
        Err(e) => {
            log::error!("the built-in value network: {e}");
            None
        }
    })
    .as_ref()
    .map(|net| StaticEval::Net(Arc::clone(net)))
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
        let base = StaticEval::Learned(Arc::new(LearnedWeights::new(model.clone(), file.clone())));
        NetEval { base, model, net: QuantizedNet::new(weights, Kernels::detect()), file }
    }

    /// The linear model the network corrects, as an evaluation.
    pub fn base(&self) -> &StaticEval {
        &self.base
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::weights_for_tests;
    use crate::search::eval::{ShotEvaluator, analyse, family};
    use veletas_rules::{PlayoutPolicy, Rng, RuleSet, Rules, Turn, Variant};

    #[test]
    fn the_built_in_network_parses_and_names_itself_net() {
        let eval = builtin().expect("the built-in network parses");
        assert_eq!(eval.to_string(), "net");
        assert_eq!("net".parse::<StaticEval>(), Ok(eval));
    }

    #[test]
    fn a_shot_scored_from_the_accumulator_after_the_move_equals_the_position_after_the_turn() {
        let model = match StaticEval::learned() {
            StaticEval::Learned(w) => w.model().clone(),
            _ => unreachable!("the built-in evaluation is learned"),
        };
        let net = NetEval::new(model, &weights_for_tests(5), None);
        let eval = StaticEval::Net(Arc::new(net.clone()));
        let mut rng = Rng::new(17);
        let mut checked = 0;
        for rules in [RuleSet::Classic, RuleSet::Modern] {
            let rules = Rules::new(rules, false, false).expect("rules");
            let mut pos = Position::random_start(Variant::from_size(9).expect("size"), rules, &mut rng);
            while !pos.is_over() {
                if pos.phase() == veletas_rules::Phase::Play {
                    let moves = [None].into_iter().chain(
                        pos.shooters()
                            .iter()
                            .flat_map(|from| pos.shooter_reach(from).iter().take(2).map(move |to| Some((from, to)))),
                    );
                    for shooter_move in moves.collect::<Vec<_>>() {
                        let shots = ShotEvaluator::new(&pos, shooter_move, &eval);
                        let acc = net.after_move(&pos, shooter_move);
                        let targets = match shooter_move {
                            Some((from, to)) => pos.shots_after_move(from, to),
                            None => pos
                                .shooters()
                                .iter()
                                .fold(veletas_rules::Bitboard::EMPTY, |a, s| a | pos.shooter_reach(s)),
                        };
                        for shot in targets {
                            let Some(base) = shots.logit(shot) else { continue };
                            let mut next = pos.clone();
                            next.play_turn_unchecked(Turn::new(shooter_move, shot));
                            let Some((_, features)) = analyse(&next) else { continue };
                            let scratch = net.logit(&next, net.model().logit(family(&next), &features));
                            let fast = net.logit_after_shot(&acc, base, pos.side_to_move(), shot);
                            assert_eq!(fast.to_bits(), scratch.to_bits());
                            checked += 1;
                        }
                    }
                }
                let Some(turn) = pos.random_turn(&mut rng, PlayoutPolicy::Uniform) else { break };
                pos.play_turn_unchecked(turn);
            }
        }
        assert!(checked > 1000, "{checked} shots checked");
    }
}
