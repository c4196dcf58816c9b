//! Random turns and random games, without building move lists.

use crate::rules::bitboard::{Bitboard, queen_reach};
use crate::rules::color::Color;
use crate::rules::moves::{Move, Turn};
use crate::rules::position::{Phase, Position};
use crate::rules::rng::Rng;

/// How random turns are drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PlayoutPolicy {
    /// Cheap and biased: an unclaimed shooter uniformly; then uniformly one of its
    /// destinations or staying put (each counted once); then a shot uniformly from
    /// where the shooter stands. A shot reachable by several unmoved shooters is
    /// therefore likelier than one only a single shooter reaches, and turns of a
    /// shooter with few destinations are likelier than those of a free one.
    Cheap,
    /// Exactly uniform over the legal turns, by rejection sampling.
    Uniform,
}

/// The largest number of squares a queen reaches on an empty board of `size`.
fn max_reach(size: u8) -> u32 {
    let n = u32::from(size);
    // A central square sees n-1 squares along its rank and its file; along the two
    // diagonals 2(n-1) on odd boards, one fewer on even ones.
    if n % 2 == 1 { 4 * (n - 1) } else { 4 * (n - 1) - 1 }
}

impl Position {
    /// A uniformly random legal setup turn, or `None` outside setup or once over.
    pub fn random_setup(&self, rng: &mut Rng) -> Option<Move> {
        if self.phase() == Phase::Play || self.is_over() {
            return None;
        }
        let allowed = self.setup_squares();
        let k = self.variant().setup_count(self.side_to_move());
        if allowed.count() < u32::from(k) {
            return None;
        }
        // Draw k distinct allowed squares uniformly and retry while two are adjacent:
        // every valid set is equally likely.
        loop {
            let mut chosen = Bitboard::EMPTY;
            let mut rejected = false;
            for _ in 0..k {
                let left = allowed & !chosen;
                let sq = left.nth(rng.below(left.count()))?;
                rejected |= !(chosen & sq.bitboard().neighbours()).is_empty();
                chosen |= sq.bitboard();
            }
            if !rejected {
                return Some(Move::Setup(chosen));
            }
        }
    }

    /// A random legal play turn drawn with `policy`, or `None` outside play or once over.
    pub fn random_turn(&self, rng: &mut Rng, policy: PlayoutPolicy) -> Option<Turn> {
        if self.phase() != Phase::Play || self.is_over() {
            return None;
        }
        match policy {
            PlayoutPolicy::Cheap => self.cheap_turn(rng),
            PlayoutPolicy::Uniform => self.uniform_turn(rng),
        }
    }

    /// A random legal move of either phase, or `None` once the game is over.
    pub fn random_move(&self, rng: &mut Rng, policy: PlayoutPolicy) -> Option<Move> {
        match self.phase() {
            Phase::Play => self.random_turn(rng, policy).map(Move::Turn),
            Phase::BlackSetup | Phase::WhiteSetup => self.random_setup(rng),
        }
    }

    /// Plays random moves until the game ends and returns the winner.
    pub fn playout(&mut self, rng: &mut Rng, policy: PlayoutPolicy) -> Color {
        while self.phase() != Phase::Play {
            match self.random_setup(rng) {
                Some(mv) => self.play_unchecked(mv),
                None => unreachable!("setup squares never run out on the supported boards"),
            }
        }
        loop {
            if let Some(winner) = self.winner() {
                return winner;
            }
            // Between claims the game cannot end: play on without checking.
            loop {
                let turn = match policy {
                    PlayoutPolicy::Cheap => self.cheap_turn(rng),
                    PlayoutPolicy::Uniform => self.uniform_turn(rng),
                };
                match turn {
                    Some(turn) => {
                        if self.apply_turn(turn) {
                            break;
                        }
                    }
                    None => unreachable!("a position in play that is not over always has a turn"),
                }
            }
        }
    }

    fn cheap_turn(&self, rng: &mut Rng) -> Option<Turn> {
        let shooters = self.shooters();
        let from = shooters.nth(rng.below(shooters.count()))?;
        let blockers = self.blockers();
        let reach = queen_reach(from, blockers);
        let pick = rng.below(reach.count() + 1);
        match reach.nth(pick) {
            Some(to) => {
                let shots = queen_reach(to, blockers ^ from.bitboard());
                let shot = shots.nth(rng.below(shots.count()))?;
                Some(Turn::with_move(from, to, shot))
            }
            None => {
                let shot = reach.nth(rng.below(reach.count()))?;
                Some(Turn::shot_only(shot))
            }
        }
    }

    fn uniform_turn(&self, rng: &mut Rng) -> Option<Turn> {
        let blockers = self.blockers();
        // Groups of turns, each of at most `bound` turns: one group per (shooter,
        // destination) pair, and one per shooter for the shots without a move that no
        // earlier shooter sees. Pick a group and a slot uniformly; accept if the slot
        // holds a turn. Every legal turn is in exactly one group and one slot.
        let mut reaches = [Bitboard::EMPTY; 8];
        let mut unmoved = [Bitboard::EMPTY; 8];
        let mut shooters = [self.shooters().first()?; 8];
        let mut seen = Bitboard::EMPTY;
        let mut n = 0;
        let mut pairs = 0;
        for (i, sq) in self.shooters().iter().take(8).enumerate() {
            shooters[i] = sq;
            reaches[i] = queen_reach(sq, blockers);
            unmoved[i] = reaches[i] & !seen;
            seen |= reaches[i];
            pairs += reaches[i].count();
            n = i + 1;
        }
        let bound = max_reach(self.variant().size()).min(self.empty_squares().count() + 1);
        let groups = pairs + n as u32;
        loop {
            let mut group = rng.below(groups);
            let slot = rng.below(bound);
            if group >= pairs {
                let i = (group - pairs) as usize;
                if let Some(shot) = unmoved[i].nth(slot) {
                    return Some(Turn::shot_only(shot));
                }
                continue;
            }
            let mut i = 0;
            while group >= reaches[i].count() {
                group -= reaches[i].count();
                i += 1;
            }
            let from = shooters[i];
            let to = reaches[i].nth(group)?;
            if let Some(shot) = queen_reach(to, blockers ^ from.bitboard()).nth(slot) {
                return Some(Turn::with_move(from, to, shot));
            }
        }
    }
}
