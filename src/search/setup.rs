//! Choosing a setup turn by search: sample candidate placements and keep the ones whose
//! random games go best, halving the field round by round.

use std::time::Instant;

use crate::rules::{Move, PlayoutPolicy, Position, Rng};
use crate::search::Limits;

/// Candidates sampled (all of them when there are fewer legal setups).
const CANDIDATES: usize = 32;
/// Playouts per candidate in the first round when no limit is given.
const DEFAULT_PLAYOUTS: u64 = 20_000;

/// A setup turn for the side to move, chosen by playouts within `limits`.
pub fn choose_setup(pos: &Position, rng: &mut Rng, limits: &Limits, start: Instant) -> Option<Move> {
    let all = pos.count_legal_moves();
    let mut candidates: Vec<Move> = if all <= CANDIDATES as u64 * 2 {
        pos.legal_moves()
    } else {
        let mut list = Vec::with_capacity(CANDIDATES);
        for _ in 0..CANDIDATES * 4 {
            if list.len() == CANDIDATES {
                break;
            }
            let mv = pos.random_setup(rng)?;
            if !list.contains(&mv) {
                list.push(mv);
            }
        }
        list
    };
    if candidates.is_empty() {
        return None;
    }
    let side = pos.side_to_move();
    let budget = limits.iterations.unwrap_or(DEFAULT_PLAYOUTS).max(1);
    let deadline = limits.time.map(|t| start + t);
    let mut scores = vec![(0u64, 0u64); candidates.len()];
    let mut spent = 0u64;
    let rounds = (candidates.len() as f64).log2().ceil().max(1.0) as u64;
    while candidates.len() > 1 {
        let per = (budget / rounds / candidates.len() as u64).max(1);
        for (mv, score) in candidates.iter().zip(scores.iter_mut()) {
            for _ in 0..per {
                if deadline.is_some_and(|d| Instant::now() >= d) || spent >= budget {
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
        let rate = |s: &(u64, u64)| if s.1 == 0 { 0.0 } else { s.0 as f64 / s.1 as f64 };
        order.sort_by(|&a, &b| rate(&scores[b]).total_cmp(&rate(&scores[a])));
        let keep = candidates.len().div_ceil(2);
        let out_of_time = deadline.is_some_and(|d| Instant::now() >= d) || spent >= budget;
        let keep = if out_of_time { 1 } else { keep };
        candidates = order[..keep].iter().map(|&i| candidates[i]).collect();
        scores = order[..keep].iter().map(|&i| scores[i]).collect();
    }
    candidates.first().copied()
}
