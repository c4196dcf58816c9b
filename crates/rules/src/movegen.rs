//! Legal move generation, counting without lists, and perft.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use crate::bitboard::Bitboard;
use crate::moves::{Move, Turn};
use crate::position::{Phase, Position};
use crate::square::Square;

impl Position {
    /// The squares where the side to move may place a shooter in its setup turn: on
    /// the board and empty; classic: not next to a shooter already placed; modern: not
    /// on the edge.
    pub fn setup_squares(&self) -> Bitboard {
        if self.rules().is_modern() {
            self.empty_squares() & self.variant().interior()
        } else {
            self.empty_squares() & !self.shooters().neighbours()
        }
    }

    /// Calls `f` with every legal setup move (nothing outside setup): the swap first
    /// when it is available, then the placements.
    pub fn for_each_setup_move(&self, mut f: impl FnMut(Move)) {
        if self.phase() == Phase::Play || self.is_over() {
            return;
        }
        let k = self.variant().setup_count(self.side_to_move());
        if !self.rules().is_modern() {
            for_each_setup(self.setup_squares(), k, false, Bitboard::EMPTY, &mut |squares| f(Move::Setup(squares)));
            return;
        }
        if self.swap_available() {
            f(Move::Swap);
        }
        let empty = self.empty_squares();
        for_each_setup(self.setup_squares(), k, true, Bitboard::EMPTY, &mut |shooters| {
            for stone in empty & !shooters {
                f(Move::SetupWithStone { shooters, stone });
            }
        });
    }

    /// Every legal move, in a fixed order. Empty once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        if self.is_over() {
            return moves;
        }
        match self.phase() {
            Phase::BlackSetup | Phase::WhiteSetup => self.for_each_setup_move(|mv| moves.push(mv)),
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
        let mut unmoved = Bitboard::EMPTY;
        for shooter in self.shooters() {
            unmoved |= self.shooter_reach(shooter);
        }
        turns.extend(unmoved.iter().map(Turn::shot_only));
        for from in self.shooters() {
            for to in self.shooter_reach(from) {
                for shot in self.shots_after_move(from, to) {
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
                let allowed = self.setup_squares();
                let k = self.variant().setup_count(self.side_to_move());
                if self.rules().is_modern() {
                    // Any k allowed squares, then the stone on any other empty square.
                    let stones = u64::from(self.empty_squares().count()).saturating_sub(u64::from(k));
                    binomial(allowed.count(), k) * stones + u64::from(self.swap_available())
                } else {
                    count_setups(allowed, k)
                }
            }
            Phase::Play => self.count_turns(),
        }
    }

    fn count_turns(&self) -> u64 {
        if self.lines().passable() { self.count_turns_of::<true>() } else { self.count_turns_of::<false>() }
    }

    /// [`Position::count_turns`] for lines whose passability is `PASSABLE`: the shots
    /// without a move (the union of the shooters' reaches), plus each shooter's moving
    /// turns counted along the per-line tables.
    fn count_turns_of<const PASSABLE: bool>(&self) -> u64 {
        let lines = self.lines();
        let mut unmoved = Bitboard::EMPTY;
        let mut total = 0u64;
        for from in self.shooters() {
            unmoved |= self.shooter_reach(from);
            total += u64::from(lines.count_moving_turns::<PASSABLE>(from));
        }
        total + u64::from(unmoved.count())
    }

    /// Calls `f` with every legal play turn (in play and not over), in an order of its
    /// own (not that of [`Position::legal_turns`]): the fast path for perft.
    fn for_each_turn<const PASSABLE: bool>(&self, mut f: impl FnMut(Turn)) {
        let lines = self.lines();
        let mut unmoved = Bitboard::EMPTY;
        for from in self.shooters() {
            unmoved |= self.shooter_reach(from);
            lines.reach_of::<PASSABLE>(from).for_each(|to| {
                lines.reach_without_of::<PASSABLE>(to, from).for_each(|shot| f(Turn::with_move(from, to, shot)));
            });
        }
        unmoved.iter().for_each(|shot| f(Turn::shot_only(shot)));
    }

    /// The number of positions exactly `depth` turns ahead (games that end sooner add
    /// nothing), counting the last ply in bulk.
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal_moves(),
            _ if self.is_over() => 0,
            _ if self.phase() == Phase::Play => {
                if self.lines().passable() {
                    self.perft_play::<true>(depth)
                } else {
                    self.perft_play::<false>(depth)
                }
            }
            _ => {
                let mut total = 0;
                self.for_each_setup_move(|mv| {
                    let mut next = self.clone();
                    next.play_unchecked(mv);
                    total += next.perft(depth - 1);
                });
                total
            }
        }
    }

    /// [`Position::perft`] in play, `depth` at least 2: one child position reused.
    fn perft_play<const PASSABLE: bool>(&self, depth: u32) -> u64 {
        let mut total = 0;
        let mut next = self.clone();
        self.for_each_turn::<PASSABLE>(|turn| {
            next.clone_from(self);
            next.apply_turn(turn);
            total += next.perft(depth - 1);
        });
        total
    }

    /// [`Position::perft`] with the legal moves of this position shared out among
    /// `threads` threads (1: no extra thread). Same count, less wall time at depth 2 and
    /// more.
    pub fn perft_threads(&self, depth: u32, threads: usize) -> u64 {
        if threads <= 1 || depth < 2 || self.is_over() {
            return self.perft(depth);
        }
        let moves = self.legal_moves();
        let next_move = AtomicUsize::new(0);
        let total = AtomicU64::new(0);
        std::thread::scope(|scope| {
            for _ in 0..threads.min(moves.len()) {
                scope.spawn(|| {
                    let mut sum = 0;
                    // Moves are handed out one at a time, so a thread that drew cheap
                    // subtrees takes more of them.
                    while let Some(&mv) = moves.get(next_move.fetch_add(1, Ordering::Relaxed)) {
                        let mut next = self.clone();
                        next.play_unchecked(mv);
                        sum += next.perft(depth - 1);
                    }
                    total.fetch_add(sum, Ordering::Relaxed);
                });
            }
        });
        total.into_inner()
    }
}

/// Squares above `sq` in bit order: the candidates that come after it in an ordered
/// enumeration of sets.
fn above(sq: Square) -> Bitboard {
    Bitboard(!((2u128 << sq.index()) - 1))
}

/// Calls `f` with every set of `k` squares from `allowed` (pairwise non-adjacent
/// unless `adjacent_ok`), each set once, added to `chosen`.
fn for_each_setup(allowed: Bitboard, k: u8, adjacent_ok: bool, chosen: Bitboard, f: &mut impl FnMut(Bitboard)) {
    if k == 0 {
        f(chosen);
        return;
    }
    for sq in allowed {
        let apart = if adjacent_ok { Bitboard::EMPTY } else { sq.bitboard().neighbours() };
        let rest = allowed & above(sq) & !apart;
        for_each_setup(rest, k - 1, adjacent_ok, chosen | sq.bitboard(), f);
    }
}

/// The number of ways to choose `k` of `n` things.
pub(crate) fn binomial(n: u32, k: u8) -> u64 {
    let k = u64::from(k);
    let n = u64::from(n);
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
}

/// The number of sets of `k` pairwise non-adjacent squares from `allowed`.
fn count_setups(allowed: Bitboard, k: u8) -> u64 {
    match k {
        0 => 1,
        1 => u64::from(allowed.count()),
        _ => allowed.iter().map(|sq| count_setups(allowed & above(sq) & !sq.bitboard().neighbours(), k - 1)).sum(),
    }
}
