//! Choosing a setup turn by search: sample candidate placements and keep the ones whose
//! random games go best, halving the field round by round.
//!
//! Under the modern rules the placements carry a stone (the random setups draw it); Black
//! ranks its setups by how balanced they are, since White may swap (`setup_value`), and
//! in White's setup turn the swap is decided after the placements are compared
//! (`should_swap`).

use std::time::Instant;

use crate::search::Limits;
use veletas_rules::{Move, Phase, PlayoutPolicy, Position, Rng};

/// Candidates sampled (all of them when there are fewer legal setups).
const CANDIDATES: usize = 32;
/// Playouts per candidate in the first round when no limit is given.
const DEFAULT_PLAYOUTS: u64 = 20_000;

/// A setup turn for the side to move, chosen by playouts within `limits`.
pub fn choose_setup(pos: &Position, rng: &mut Rng, limits: &Limits, start: Instant) -> Option<Move> {
    let all = pos.count_legal_moves();
    let mut candidates: Vec<Move> = if all <= CANDIDATES as u64 * 2 {
        // The swap is decided after the placements are compared (see `should_swap`).
        pos.legal_moves().into_iter().filter(|&mv| mv != Move::Swap).collect()
    } else {
        let mut list = Vec::with_capacity(CANDIDATES);
        for _ in 0..CANDIDATES * 4 {
            if list.len() == CANDIDATES {
                break;
            }
            let mv = pos.random_setup(rng)?;
            if mv != Move::Swap && !list.contains(&mv) {
                list.push(mv);
            }
        }
        list
    };
    if candidates.is_empty() {
        return None;
    }
    let side = pos.side_to_move();
    // Black's modern setup will face White's swap.
    let pie = pos.rules().is_modern() && pos.phase() == Phase::BlackSetup;
    let budget = limits.iterations.unwrap_or(DEFAULT_PLAYOUTS).max(1);
    let deadline = limits.time.map(|t| start + t);
    let stopped = || {
        deadline.is_some_and(|d| Instant::now() >= d)
            || limits.stop.as_ref().is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
    };
    let mut scores = vec![(0u64, 0u64); candidates.len()];
    let mut spent = 0u64;
    let rounds = (candidates.len() as f64).log2().ceil().max(1.0) as u64;
    while candidates.len() > 1 {
        let per = (budget / rounds / candidates.len() as u64).max(1);
        for (mv, score) in candidates.iter().zip(scores.iter_mut()) {
            for _ in 0..per {
                if spent >= budget || stopped() {
                    break;
                }
                let mut p = pos.clone();
                p.play_unchecked(*mv);
                score.0 += u64::from(p.playout(rng, PlayoutPolicy::Cheap) == side);
                score.1 += 1;
                spent += 1;
            }
        }
        let mut order: Vec<usize> = (0..candidates.len()).collect();
        let rate = |s: &(u64, u64)| if s.1 == 0 { 0.0 } else { setup_value(s.0 as f64 / s.1 as f64, pie) };
        order.sort_by(|&a, &b| rate(&scores[b]).total_cmp(&rate(&scores[a])));
        let keep = candidates.len().div_ceil(2);
        let out_of_time = spent >= budget || stopped();
        let keep = if out_of_time { 1 } else { keep };
        candidates = order[..keep].iter().map(|&i| candidates[i]).collect();
        scores = order[..keep].iter().map(|&i| scores[i]).collect();
    }
    let best = candidates.first().copied()?;
    if pos.swap_available() && scores.first().is_some_and(|s| s.1 > 0 && should_swap(s.0 as f64 / s.1 as f64)) {
        return Some(Move::Swap);
    }
    Some(best)
}

/// How a setup whose playouts the mover wins at `win_rate` ranks. Facing the swap (Black's
/// modern setup) a setup worth `v` is worth `min(v, 1 - v)`, since White takes it over
/// whenever it is better than half: the most balanced setup is the best.
fn setup_value(win_rate: f64, facing_swap: bool) -> f64 {
    if facing_swap { win_rate.min(1.0 - win_rate) } else { win_rate }
}

/// The swap decision (modern rules, White's setup turn): swapping hands White's
/// placement to the opponent and takes over Black's setup, so it is worth
/// `1 - value of the best placement`; swap when that beats placing, that is when even
/// the best placement found wins less than half of its playouts.
fn should_swap(best_placement_win_rate: f64) -> bool {
    best_placement_win_rate < 0.5
}

#[cfg(test)]
mod tests {
    use super::*;
    use veletas_rules::{Rules, Variant};

    #[test]
    fn facing_the_swap_the_most_balanced_setup_ranks_first() {
        assert!(setup_value(0.55, true) > setup_value(0.7, true));
        assert!(setup_value(0.48, true) > setup_value(0.3, true));
        assert_eq!(setup_value(0.7, false), 0.7);
    }

    #[test]
    fn swap_only_when_the_best_placement_loses() {
        assert!(should_swap(0.3));
        assert!(!should_swap(0.5));
        assert!(!should_swap(0.7));
    }

    #[test]
    fn a_modern_white_setup_is_a_placement_or_the_swap() {
        let mut pos = Position::with_rules(Variant::from_size(7).unwrap(), Rules::MODERN);
        pos.play(pos.parse_move("d4/a1").unwrap()).unwrap();
        let mut rng = Rng::new(3);
        let limits = Limits { iterations: Some(400), ..Limits::default() };
        for _ in 0..4 {
            let mv = choose_setup(&pos, &mut rng, &limits, Instant::now()).unwrap();
            assert!(pos.is_legal(mv), "{mv}");
            assert!(matches!(mv, Move::Swap | Move::SetupWithStone { .. }), "{mv}");
        }
    }
}
