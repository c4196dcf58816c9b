//! Immediate wins: turns that end the game in the mover's favour at once.

use crate::rules::{Phase, Position, Turn};

/// Whether the side to move might win this turn: it needs `k` more claims, and a turn
/// can only claim shooters with at most two empty neighbours (the shot and a shooter's
/// destination fill two, a vacated square frees at most one), plus the moved shooter.
fn may_win_now(pos: &Position) -> bool {
    let side = pos.side_to_move();
    let needed = u32::from(pos.variant().claims_to_win()).saturating_sub(pos.claims(side));
    let empty = pos.empty_squares();
    let tight = pos.shooters().iter().filter(|s| (s.bitboard().neighbours() & empty).count() <= 3).count() as u32;
    tight + 1 >= needed
}

/// A turn that wins the game for the side to move right away, if there is one.
pub fn winning_turn(pos: &Position, scratch: &mut Vec<Turn>) -> Option<Turn> {
    if pos.phase() != Phase::Play || pos.is_over() || !may_win_now(pos) {
        return None;
    }
    let side = pos.side_to_move();
    scratch.clear();
    pos.legal_turns(scratch);
    let near = pos.shooters().neighbours() | pos.shooters();
    scratch.iter().copied().find(|&turn| {
        let touched = match turn.shooter_move() {
            Some((_, to)) => to.bitboard() | turn.shot().bitboard(),
            None => turn.shot().bitboard(),
        };
        if (touched & near).is_empty() && turn.shooter_move().is_none() {
            return false;
        }
        let mut next = pos.clone();
        next.play_turn_unchecked(turn);
        next.winner() == Some(side)
    })
}

/// Whether playing `turn` lets the opponent win on the next turn (or loses at once).
pub fn hands_over_win(pos: &Position, turn: Turn, scratch: &mut Vec<Turn>) -> bool {
    let mut next = pos.clone();
    next.play_turn_unchecked(turn);
    match next.winner() {
        Some(winner) => winner != pos.side_to_move(),
        None => winning_turn(&next, scratch).is_some(),
    }
}
