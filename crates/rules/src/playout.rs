//! Random turns and random games, without building move lists.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::lines::{Lines, Reach};
use crate::moves::{Move, Turn};
use crate::position::{Phase, Position};
use crate::rng::Rng;
use crate::ruleset::Rules;
use crate::square::Square;
use crate::variant::Variant;

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
    /// A uniformly random legal setup turn (the modern swap included, as one of the
    /// legal turns), or `None` outside setup or once over.
    pub fn random_setup(&self, rng: &mut Rng) -> Option<Move> {
        if self.phase() == Phase::Play || self.is_over() {
            return None;
        }
        let allowed = self.setup_squares();
        let k = self.variant().setup_count(self.side_to_move());
        if allowed.count() < u32::from(k) {
            return None;
        }
        if self.rules().is_modern() {
            if self.swap_available() && rng.below_u64(self.count_legal_moves()) == 0 {
                return Some(Move::Swap);
            }
            // Any k distinct allowed squares, then the stone on another empty square:
            // every (set, stone) pair is equally likely, since each set leaves the same
            // number of stone squares.
            let shooters = random_subset(allowed, k, rng)?;
            let stones = self.empty_squares() & !shooters;
            let stone = stones.nth(rng.below(stones.count().max(1)))?;
            return Some(Move::SetupWithStone { shooters, stone });
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

    /// A position in play with all the shooters of `variant` on random squares off the
    /// edge, no stones, Black to move: the random-setup option (and random openings).
    /// Under the classic rules the shooters are also pairwise non-adjacent, as classic
    /// setups require. Every such placement is equally likely.
    pub fn random_start(variant: Variant, rules: Rules, rng: &mut Rng) -> Position {
        let start = Position::with_rules(variant, rules);
        let allowed = variant.interior() & start.empty_squares();
        let shooters = loop {
            let Some(chosen) = random_subset(allowed, variant.shooters(), rng) else {
                unreachable!("every board has more interior squares than shooters")
            };
            if rules.is_modern() || (chosen & chosen.neighbours()).is_empty() {
                break chosen;
            }
        };
        let none = [Bitboard::EMPTY; 2];
        Position::from_parts(variant, rules, false, none, shooters, none, Color::Black)
    }

    /// A random legal play turn drawn with `policy`, or `None` outside play or once over.
    pub fn random_turn(&self, rng: &mut Rng, policy: PlayoutPolicy) -> Option<Turn> {
        if self.phase() != Phase::Play || self.is_over() {
            return None;
        }
        match policy {
            PlayoutPolicy::Cheap if self.lines().passable() => self.cheap_turn::<true>(rng),
            PlayoutPolicy::Cheap => self.cheap_turn::<false>(rng),
            PlayoutPolicy::Uniform if self.lines().passable() => self.uniform_turn::<true>(rng),
            PlayoutPolicy::Uniform => self.uniform_turn::<false>(rng),
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
        if self.lines().passable() { self.play_out::<true>(rng, policy) } else { self.play_out::<false>(rng, policy) }
    }

    /// The play-phase loop of [`Position::playout`], for lines whose passability is
    /// `PASSABLE` (chosen once per playout).
    fn play_out<const PASSABLE: bool>(&mut self, rng: &mut Rng, policy: PlayoutPolicy) -> Color {
        loop {
            if let Some(winner) = self.winner() {
                return winner;
            }
            // Between claims the game cannot end: play on without checking.
            loop {
                let turn = match policy {
                    PlayoutPolicy::Cheap => self.cheap_turn::<PASSABLE>(rng),
                    PlayoutPolicy::Uniform => self.uniform_turn::<PASSABLE>(rng),
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

    fn cheap_turn<const PASSABLE: bool>(&self, rng: &mut Rng) -> Option<Turn> {
        let n = self.shooters().count();
        if n == 0 {
            return None;
        }
        let from = nth_square(self.shooters(), rng.below(n));
        let lines = self.lines();
        let reach = lines.reach_of::<PASSABLE>(from);
        let count = reach.count();
        if count == 0 {
            return None;
        }
        let pick = rng.below(count + 1);
        if pick < count {
            let (to, kind) = reach.nth_with_kind(pick);
            let shots = lines.reach_after_move_of::<PASSABLE>(&reach, to, kind);
            let shot = shots.nth(rng.below(shots.count()));
            Some(Turn::with_move(from, to, shot))
        } else {
            Some(Turn::shot_only(reach.nth(rng.below(count))))
        }
    }

    fn uniform_turn<const PASSABLE: bool>(&self, rng: &mut Rng) -> Option<Turn> {
        let sampler = UniformSampler::<PASSABLE>::new(self)?;
        loop {
            let group = rng.below(sampler.groups);
            let slot = rng.below(sampler.bound);
            if let Some(turn) = sampler.turn_at(group, slot) {
                return Some(turn);
            }
        }
    }
}

/// `k` distinct squares of `allowed`, every set equally likely (`None` if too few).
fn random_subset(allowed: Bitboard, k: u8, rng: &mut Rng) -> Option<Bitboard> {
    let mut chosen = Bitboard::EMPTY;
    for _ in 0..k {
        let left = allowed & !chosen;
        chosen |= left.nth(rng.below(left.count().max(1)))?.bitboard();
    }
    Some(chosen)
}

/// The `k`-th lowest square of `set`, which has more than `k` squares: the lowest bit
/// cleared `k` times, fast for the few shooters of a board. (The branch-free
/// [`Bitboard::select`] gives the same square, but as the cheap policy's first step it
/// made playouts 14% slower: a longer chain of dependent instructions.)
#[inline]
fn nth_square(set: Bitboard, k: u32) -> Square {
    let mut bits = set.0;
    for _ in 0..k {
        bits &= bits.wrapping_sub(1);
    }
    Square::from_index_unchecked(bits.trailing_zeros())
}

/// The unclaimed shooters (at most 8 are listed) and their number.
#[inline]
fn shooter_list(shooters: Bitboard) -> ([Square; 8], u32) {
    let mut list = [Square::from_index_unchecked(0); 8];
    let mut n = 0;
    for sq in shooters.iter().take(8) {
        list[n] = sq;
        n += 1;
    }
    (list, n as u32)
}

/// Exactly uniform random turns by rejection, without counting every turn.
///
/// The legal turns are split into groups of at most `bound` turns each: one group per
/// (shooter, destination) pair, holding that move's shots, and one group per shooter
/// for the shots without a move that no earlier shooter (in bit order) sees, so a shot
/// seen by several shooters is in one group only. `bound` is the most squares a queen
/// reaches on the empty board, capped by the number of empty squares plus one (the
/// vacated square). A draw picks a group and a slot in `0..bound` uniformly and
/// independently; the slot holds the group's `slot`-th turn, if it has that many, and
/// otherwise the draw is rejected and repeated. Every legal turn sits in exactly one
/// (group, slot) cell, each cell is drawn with the same probability, so the accepted
/// turn is uniform over the legal turns.
struct UniformSampler<'a, const PASSABLE: bool> {
    lines: &'a Lines,
    shooters: [Square; 8],
    reaches: [Reach; 8],
    /// Destinations of each shooter.
    counts: [u32; 8],
    /// Number of (shooter, destination) pairs: the groups below it are pairs.
    pairs: u32,
    groups: u32,
    bound: u32,
}

impl<'a, const PASSABLE: bool> UniformSampler<'a, PASSABLE> {
    fn new(pos: &'a Position) -> Option<UniformSampler<'a, PASSABLE>> {
        let (shooters, n) = shooter_list(pos.shooters());
        if n == 0 {
            return None;
        }
        let lines = pos.lines();
        let mut reaches = [lines.reach_of::<PASSABLE>(shooters[0]); 8];
        let mut counts = [0u32; 8];
        let mut pairs = 0;
        for i in 0..n as usize {
            reaches[i] = lines.reach_of::<PASSABLE>(shooters[i]);
            counts[i] = reaches[i].count();
            pairs += counts[i];
        }
        let bound = max_reach(pos.variant().size()).min(pos.empty_squares().count() + 1);
        Some(UniformSampler { lines, shooters, reaches, counts, pairs, groups: pairs + n, bound })
    }

    /// The turn in cell (`group`, `slot`), if that cell holds one.
    #[inline]
    fn turn_at(&self, group: u32, slot: u32) -> Option<Turn> {
        if group >= self.pairs {
            let i = (group - self.pairs) as usize;
            if slot >= self.counts[i] {
                return None;
            }
            let shot = self.reaches[i].nth(slot);
            if self.reaches[..i].iter().any(|r| r.contains(shot)) {
                return None;
            }
            return Some(Turn::shot_only(shot));
        }
        let (mut group, mut i) = (group, 0);
        while group >= self.counts[i] {
            group -= self.counts[i];
            i += 1;
        }
        let from = self.shooters[i];
        let (to, kind) = self.reaches[i].nth_with_kind(group);
        // Most draws are rejected: count the shots with three lookups first, and list
        // them only for a draw that holds one.
        if slot >= self.lines.count_shots_after_move::<PASSABLE>(&self.reaches[i], to, kind) {
            return None;
        }
        let shots = self.lines.reach_after_move_of::<PASSABLE>(&self.reaches[i], to, kind);
        Some(Turn::with_move(from, to, shots.nth(slot)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// The turns of every (group, slot) cell of the uniform sampler.
    fn cells<const PASSABLE: bool>(pos: &Position) -> Vec<Turn> {
        let sampler = UniformSampler::<PASSABLE>::new(pos).unwrap();
        let mut cells = Vec::new();
        for group in 0..sampler.groups {
            cells.extend((0..sampler.bound).filter_map(|slot| sampler.turn_at(group, slot)));
        }
        cells
    }

    #[test]
    fn uniform_cells_hold_every_legal_turn_exactly_once() {
        let mut rng = Rng::new(99);
        for variant in crate::Variant::all() {
            for (game, rules) in (0..16).zip(Rules::all().into_iter().cycle()) {
                let mut pos = if game % 8 == 7 {
                    Position::random_start(variant, rules, &mut rng)
                } else {
                    Position::with_rules(variant, rules)
                };
                while !pos.is_over() {
                    if pos.phase() == Phase::Play {
                        let cells = if pos.lines().passable() { cells::<true>(&pos) } else { cells::<false>(&pos) };
                        let mut legal = Vec::new();
                        pos.legal_turns(&mut legal);
                        let set: HashSet<Turn> = cells.iter().copied().collect();
                        assert_eq!(set.len(), cells.len(), "a turn in two cells: {pos}");
                        assert_eq!(set, legal.into_iter().collect::<HashSet<_>>(), "{pos}");
                    }
                    let mv = pos.random_move(&mut rng, PlayoutPolicy::Cheap).unwrap();
                    pos.play_unchecked(mv);
                }
            }
        }
    }

    #[test]
    fn cheap_turns_are_legal_and_reach_every_kind() {
        let mut rng = Rng::new(5);
        for variant in crate::Variant::all() {
            for (_, rules) in (0..20).zip(Rules::all().into_iter().cycle()) {
                let mut pos = Position::with_rules(variant, rules);
                while !pos.is_over() {
                    let mv = pos.random_move(&mut rng, PlayoutPolicy::Cheap).unwrap();
                    assert!(pos.is_legal(mv), "{pos} {mv}");
                    pos.play_unchecked(mv);
                }
            }
        }
    }
}
