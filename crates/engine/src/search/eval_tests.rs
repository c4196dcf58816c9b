//! The value network's evaluation against the evaluation it joins: the built-in network,
//! and the shot priors scored from the accumulator after the move (bit for bit).

use std::sync::Arc;

use crate::net::weights_for_tests;
use crate::search::eval::{ShotEvaluator, StaticEval, analyse, family};
use crate::search::net_eval::NetEval;
use veletas_rules::{PlayoutPolicy, Position, Rng, RuleSet, Rules, Turn, Variant};

#[test]
fn the_built_in_network_parses_and_names_itself_net() {
    let eval = StaticEval::net().expect("the built-in network parses");
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
                        None => {
                            pos.shooters().iter().fold(veletas_rules::Bitboard::EMPTY, |a, s| a | pos.shooter_reach(s))
                        }
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
