//! What the value network sees of a position: sparse one-hot inputs.
//!
//! Each square of the 10x10 layout (at its bit index, [`Square::index`], so 110 slots of
//! which the padding column's ten are never set) has one input per kind of content: a
//! black stone, a white stone, an unclaimed shooter, a shooter claimed by Black, one
//! claimed by White, a wall on the board (a missing corner under `no-corners`). An empty
//! square sets none. Five more inputs say what the squares cannot: White to move, the
//! modern rule family, and the board size (one of three). So a position sets at most one
//! input per square and three others: [`MAX_ACTIVE`].
//!
//! [`Planes`] holds the squares' contents as six bitboards; the inputs of a position are
//! the set bits of its planes, plane by plane, and then the flags. Two positions differ
//! in the inputs of [`Planes::diff`]: what a turn removed and added, usually two to four
//! inputs (the moved shooter, the shot, a claim), which is what the accumulator's
//! incremental update applies ([`super::accumulator`]).
//!
//! The board's eight symmetries (rotations and reflections) preserve the rules, so
//! training shows each position under a random one ([`Planes::transformed`]).

use veletas_rules::{Bitboard, Color, Position, Square};

/// The planes of square inputs, in input order.
pub const PLANES: usize = 6;
/// Slots per plane: the bit indices of the 10x10 layout.
pub const SLOTS: usize = 110;
/// The input of White to move.
pub const WHITE_TO_MOVE: u16 = (PLANES * SLOTS) as u16;
/// The input of the modern rule family.
pub const MODERN: u16 = WHITE_TO_MOVE + 1;
/// The first of the three board-size inputs (7x7, 9x9, 10x10).
pub const SIZE_BASE: u16 = MODERN + 1;
/// The number of inputs.
pub const INPUTS: usize = SIZE_BASE as usize + 3;
/// The most inputs a position sets: one per square of a 10x10 board and three flags.
pub const MAX_ACTIVE: usize = 100 + 3;

/// The contents of a position's squares by kind, and the flags: everything its inputs
/// are made of.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Planes {
    boards: [u128; PLANES],
    white_to_move: bool,
    modern: bool,
    size: u8,
}

/// The size input's offset from [`SIZE_BASE`] of a board size (7, 9 or 10).
fn size_slot(size: u8) -> u16 {
    match size {
        7 => 0,
        9 => 1,
        _ => 2,
    }
}

impl Planes {
    /// The planes of `pos`.
    pub fn of(pos: &Position) -> Planes {
        let variant = pos.variant();
        Planes {
            boards: [
                pos.stones(Color::Black).0,
                pos.stones(Color::White).0,
                pos.shooters().0,
                pos.claimed(Color::Black).0,
                pos.claimed(Color::White).0,
                (pos.walls() & variant.board()).0,
            ],
            white_to_move: pos.side_to_move() == Color::White,
            modern: pos.rules().is_modern(),
            size: variant.size(),
        }
    }

    /// The board size.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The inputs set, in increasing order, appended to `out`.
    pub fn active(&self, out: &mut impl Extend<u16>) {
        for (plane, &bits) in self.boards.iter().enumerate() {
            let base = (plane * SLOTS) as u16;
            out.extend(Bitboard(bits).iter().map(|sq| base + sq.index() as u16));
        }
        out.extend(self.white_to_move.then_some(WHITE_TO_MOVE));
        out.extend(self.modern.then_some(MODERN));
        out.extend(Some(SIZE_BASE + size_slot(self.size)));
    }

    /// The inputs `self` sets and `next` does not (`removed`), and those `next` sets and
    /// `self` does not (`added`), appended in increasing order.
    pub fn diff(&self, next: &Planes, removed: &mut Vec<u16>, added: &mut Vec<u16>) {
        for plane in 0..PLANES {
            let base = (plane * SLOTS) as u16;
            let (a, b) = (self.boards[plane], next.boards[plane]);
            removed.extend(Bitboard(a & !b).iter().map(|sq| base + sq.index() as u16));
            added.extend(Bitboard(b & !a).iter().map(|sq| base + sq.index() as u16));
        }
        let flags = |p: &Planes| {
            [p.white_to_move.then_some(WHITE_TO_MOVE), p.modern.then_some(MODERN), Some(SIZE_BASE + size_slot(p.size))]
        };
        for (was, is) in flags(self).into_iter().zip(flags(next)) {
            if was != is {
                removed.extend(was);
                added.extend(is);
            }
        }
    }

    /// The planes after the move of a shooter (`None`: no move) and before the shot, with
    /// the other side to move: the position after the turn but for the shot's stone
    /// ([`Planes::stone_input`]), when the turn claims no shooter.
    pub fn after_move(&self, shooter_move: Option<(Square, Square)>) -> Planes {
        let mut out = *self;
        if let Some((from, to)) = shooter_move {
            out.boards[2] = (out.boards[2] & !(1u128 << from.index())) | 1u128 << to.index();
        }
        out.white_to_move = !out.white_to_move;
        out
    }

    /// The input of a stone of `color` on `sq`.
    pub fn stone_input(color: Color, sq: Square) -> u16 {
        (color.index() * SLOTS + sq.index()) as u16
    }

    /// Square `sq` of a `size` board under symmetry `k` (as [`Planes::transformed`]).
    pub fn transform_square(sq: Square, size: u8, k: u8) -> Square {
        let n = size.saturating_sub(1);
        let (mut f, mut r) = (sq.file().min(n), sq.rank().min(n));
        if k & 1 != 0 {
            f = n - f;
        }
        if k & 2 != 0 {
            r = n - r;
        }
        if k & 4 != 0 {
            std::mem::swap(&mut f, &mut r);
        }
        Square::new(f, r).unwrap_or(sq)
    }

    /// The planes under symmetry `k` of the board (0 to 7; 0 is the identity): bit 0
    /// mirrors the files, bit 1 the ranks, bit 2 swaps files and ranks (after the mirrors).
    pub fn transformed(&self, k: u8) -> Planes {
        if k & 7 == 0 {
            return *self;
        }
        let map = |sq: Square| 1u128 << Planes::transform_square(sq, self.size, k).index();
        let mut out = *self;
        for (to, &from) in out.boards.iter_mut().zip(self.boards.iter()) {
            *to = Bitboard(from).iter().fold(0, |acc, sq| acc | map(sq));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use veletas_rules::{PlayoutPolicy, Rng, RuleSet, Rules, Variant};

    fn random_positions(rules: Rules, size: u8, seed: u64) -> Vec<Position> {
        let variant = Variant::from_size(size).expect("a size");
        let mut rng = Rng::new(seed);
        let mut out = vec![Position::with_rules(variant, rules)];
        let mut pos = Position::random_start(variant, rules, &mut rng);
        out.push(pos.clone());
        while !pos.is_over() {
            let Some(turn) = pos.random_turn(&mut rng, PlayoutPolicy::Uniform) else { break };
            pos.play_turn_unchecked(turn);
            out.push(pos.clone());
        }
        out
    }

    #[test]
    fn every_position_sets_at_most_max_active_inputs_below_inputs() {
        for size in [7, 9, 10] {
            for pos in random_positions(Rules::new(RuleSet::Modern, false, false).expect("rules"), size, 3) {
                let mut active = Vec::new();
                Planes::of(&pos).active(&mut active);
                assert!(active.len() <= MAX_ACTIVE);
                assert!(active.iter().all(|&i| usize::from(i) < INPUTS));
                assert!(active.windows(2).all(|w| w[0] < w[1]), "increasing");
            }
        }
    }

    #[test]
    fn the_diff_of_two_positions_turns_one_input_set_into_the_other() {
        let positions = random_positions(Rules::default(), 10, 5);
        assert!(positions.len() > 20, "a whole game: {} positions", positions.len());
        for pair in positions.windows(2) {
            let (a, b) = (Planes::of(&pair[0]), Planes::of(&pair[1]));
            let (mut removed, mut added, mut before, mut after) = (vec![], vec![], vec![], vec![]);
            a.diff(&b, &mut removed, &mut added);
            a.active(&mut before);
            b.active(&mut after);
            let mut rebuilt: Vec<u16> = before.into_iter().filter(|i| !removed.contains(i)).collect();
            rebuilt.extend(added);
            rebuilt.sort_unstable();
            assert_eq!(rebuilt, after);
        }
    }

    #[test]
    fn the_eight_symmetries_keep_the_counts_and_compose_to_the_identity() {
        for pos in random_positions(Rules::default(), 9, 7).iter().step_by(5) {
            let planes = Planes::of(pos);
            for k in 0..8u8 {
                let t = planes.transformed(k);
                for p in 0..PLANES {
                    assert_eq!(t.boards[p].count_ones(), planes.boards[p].count_ones());
                    assert_eq!(t.boards[p] & !board(9), 0, "stays on the board");
                }
                // Mirrors alone are their own inverse.
                if k < 4 {
                    assert_eq!(t.transformed(k), planes);
                }
            }
        }
    }

    fn board(size: u8) -> u128 {
        Variant::from_size(size).expect("size").board().0
    }
}
