//! Legal move generation, counting without lists, and perft.

use crate::rules::bitboard::{Bitboard, queen_reach};
use crate::rules::moves::{Move, Turn};
use crate::rules::position::{Phase, Position};
use crate::rules::square::Square;

impl Position {
    /// The squares where the side to move may place a shooter in its setup turn: on
    /// the board, empty, and not next to a shooter already placed.
    pub fn setup_squares(&self) -> Bitboard {
        self.empty_squares() & !self.shooters().neighbours()
    }

    /// Every legal move, in a fixed order. Empty once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        if self.is_over() {
            return moves;
        }
        match self.phase() {
            Phase::BlackSetup | Phase::WhiteSetup => {
                let k = self.variant().setup_count(self.side_to_move());
                for_each_setup(self.setup_squares(), k, Bitboard::EMPTY, &mut |squares| {
                    moves.push(Move::Setup(squares))
                });
            }
            Phase::Play => {
                let mut turns = Vec::with_capacity(4096);
                self.legal_turns(&mut turns);
                moves.extend(turns.into_iter().map(Move::Turn));
            }
        }
        moves
    }

    /// Appends every legal play turn to `turns` (nothing during setup or after the end):
    /// first the shots without a move, then each shooter's moves with their shots.
    pub fn legal_turns(&self, turns: &mut Vec<Turn>) {
        if self.phase() != Phase::Play || self.is_over() {
            return;
        }
        let blockers = self.blockers();
        let mut unmoved = Bitboard::EMPTY;
        for shooter in self.shooters() {
            unmoved |= queen_reach(shooter, blockers);
        }
        turns.extend(unmoved.iter().map(Turn::shot_only));
        for from in self.shooters() {
            let vacated = blockers ^ from.bitboard();
            for to in queen_reach(from, blockers) {
                for shot in queen_reach(to, vacated) {
                    turns.push(Turn::with_move(from, to, shot));
                }
            }
        }
    }

    /// The number of legal moves, counted without building a list.
    pub fn count_legal_moves(&self) -> u64 {
        if self.is_over() {
            return 0;
        }
        match self.phase() {
            Phase::BlackSetup | Phase::WhiteSetup => {
                count_setups(self.setup_squares(), self.variant().setup_count(self.side_to_move()))
            }
            Phase::Play => self.count_turns(),
        }
    }

    fn count_turns(&self) -> u64 {
        let blockers = self.blockers();
        let mut unmoved = Bitboard::EMPTY;
        let mut total = 0u64;
        for from in self.shooters() {
            let reach = queen_reach(from, blockers);
            unmoved |= reach;
            let vacated = blockers ^ from.bitboard();
            for to in reach {
                total += u64::from(queen_reach(to, vacated).count());
            }
        }
        total + u64::from(unmoved.count())
    }

    /// The number of positions exactly `depth` turns ahead (games that end sooner add
    /// nothing), counting the last ply in bulk.
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal_moves(),
            _ if self.is_over() => 0,
            _ if self.phase() == Phase::Play => {
                let mut turns = Vec::with_capacity(4096);
                self.legal_turns(&mut turns);
                turns
                    .into_iter()
                    .map(|turn| {
                        let mut next = self.clone();
                        next.play_turn_unchecked(turn);
                        next.perft(depth - 1)
                    })
                    .sum()
            }
            _ => {
                let mut total = 0;
                let k = self.variant().setup_count(self.side_to_move());
                for_each_setup(self.setup_squares(), k, Bitboard::EMPTY, &mut |squares| {
                    let mut next = self.clone();
                    next.play_unchecked(Move::Setup(squares));
                    total += next.perft(depth - 1);
                });
                total
            }
        }
    }
}

/// Squares above `sq` in bit order: the candidates that come after it in an ordered
/// enumeration of sets.
fn above(sq: Square) -> Bitboard {
    Bitboard(!((2u128 << sq.index()) - 1))
}

/// Calls `f` with every set of `k` pairwise non-adjacent squares from `allowed`,
/// each set once, added to `chosen`.
fn for_each_setup(allowed: Bitboard, k: u8, chosen: Bitboard, f: &mut impl FnMut(Bitboard)) {
    if k == 0 {
        f(chosen);
        return;
    }
    for sq in allowed {
        let rest = allowed & above(sq) & !sq.bitboard().neighbours();
        for_each_setup(rest, k - 1, chosen | sq.bitboard(), f);
    }
}

/// The number of sets of `k` pairwise non-adjacent squares from `allowed`.
fn count_setups(allowed: Bitboard, k: u8) -> u64 {
    match k {
        0 => 1,
        1 => u64::from(allowed.count()),
        _ => allowed.iter().map(|sq| count_setups(allowed & above(sq) & !sq.bitboard().neighbours(), k - 1)).sum(),
    }
}
