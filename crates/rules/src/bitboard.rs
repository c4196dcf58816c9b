//! 128-bit bitboards over an 11-column layout (ten files and one padding column),
//! plus the precomputed line tables that queen moves and shots use.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::square::{MAX_SIZE, STRIDE, Square};

/// A set of squares, one bit per square at [`Square::index`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of squares in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds `sq`.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// The lowest square of the set, if any.
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 { None } else { Some(Square::from_index_unchecked(self.0.trailing_zeros())) }
    }

    /// The `k`-th lowest square of the set (from 0), if the set has more than `k` squares.
    pub fn nth(self, k: u32) -> Option<Square> {
        if k < self.count() { Some(self.select(k)) } else { None }
    }

    /// The `k`-th lowest square of the set (from 0), which has more than `k` squares;
    /// without branches, since in random playouts `k` is random and a mispredicted
    /// branch costs more than the instructions.
    #[inline]
    pub(crate) fn select(self, k: u32) -> Square {
        let low = self.0 as u64;
        let low_count = low.count_ones();
        let high = u32::from(k >= low_count);
        let word = if high == 1 { (self.0 >> 64) as u64 } else { low };
        Square::from_index_unchecked(64 * high + select_u64(word, k - low_count * high))
    }

    /// The squares orthogonally or diagonally next to some square of the set (the
    /// set itself not included unless a square neighbours another). Includes
    /// squares off smaller boards: mask with the variant's board.
    pub const fn neighbours(self) -> Bitboard {
        let [a, b, c, d, e, f, g, h] = shifted_eight_ways(self.0);
        Bitboard((a | b | c | d | e | f | g | h) & FULL_BOARD)
    }

    /// The squares orthogonally or diagonally next to at least two squares of the set
    /// (as [`Bitboard::neighbours`] is next to at least one): a count of the eight
    /// shifted sets, carried no further than two. Includes squares off smaller boards.
    pub const fn neighbours_twice(self) -> Bitboard {
        let shifted = shifted_eight_ways(self.0);
        let (mut once, mut twice) = (0u128, 0u128);
        let mut i = 0;
        while i < shifted.len() {
            twice |= once & shifted[i];
            once |= shifted[i];
            i += 1;
        }
        Bitboard(twice & FULL_BOARD)
    }

    /// The squares orthogonally next to some square of the set.
    pub const fn orthogonal_neighbours(self) -> Bitboard {
        let b = self.0;
        let s = STRIDE as u32;
        Bitboard(((b << 1) | (b >> 1) | (b << s) | (b >> s)) & FULL_BOARD)
    }

    /// The squares of the set, lowest first.
    pub const fn iter(self) -> Squares {
        Squares { low: self.0 as u64, high: (self.0 >> 64) as u64 }
    }
}

/// The set `b` moved one square in each of the eight directions (off the board's files
/// into the padding column, which the callers mask off).
#[inline(always)]
const fn shifted_eight_ways(b: u128) -> [u128; 8] {
    let s = STRIDE as u32;
    [b << 1, b >> 1, b << s, b >> s, b << (s + 1), b >> (s + 1), b << (s - 1), b >> (s - 1)]
}

/// The `k`-th lowest set bit of `x` (which must have more than `k` bits set).
#[inline]
fn select_u64(x: u64, k: u32) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the bmi2 target feature is enabled at compile time.
        let bit = unsafe { std::arch::x86_64::_pdep_u64(1u64 << k, x) };
        bit.trailing_zeros()
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        // Narrow down to a byte by halves without branches, then look the byte up.
        let (mut x, mut k, mut base) = (x, k, 0);
        for width in [32u32, 16, 8] {
            let low = (x & ((1u64 << width) - 1)).count_ones();
            let up = u32::from(k >= low);
            x >>= width * up;
            k -= low * up;
            base += width * up;
        }
        base + u32::from(SELECT_BYTE[(x & 0xff) as usize][k as usize & 7])
    }
}

/// `SELECT_BYTE[byte][k]`: the position of the `k`-th lowest set bit of `byte`.
#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
static SELECT_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut k, mut bit) = (0, 0);
        while bit < 8 {
            if byte >> bit & 1 != 0 {
                table[byte][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// Iterator over the squares of a [`Bitboard`], lowest first. The two 64-bit halves are
/// scanned one after the other: a bit scan and a lowest-bit clear of a 128-bit word take
/// twice the instructions.
#[derive(Clone, Debug)]
pub struct Squares {
    low: u64,
    high: u64,
}

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.low != 0 {
            let index = self.low.trailing_zeros();
            self.low &= self.low - 1;
            Some(Square::from_index_unchecked(index))
        } else if self.high != 0 {
            let index = 64 + self.high.trailing_zeros();
            self.high &= self.high - 1;
            Some(Square::from_index_unchecked(index))
        } else {
            None
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.low.count_ones() + self.high.count_ones()) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    fn into_iter(self) -> Squares {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, |b, sq| b | sq.bitboard())
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl Square {
    /// The bitboard holding just this square.
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(1u128 << self.index())
    }
}

/// Every square of the 10x10 layout (the padding column excluded).
pub const FULL_BOARD: u128 = board_mask(MAX_SIZE);

/// The squares of a `size` x `size` board in the lower left of the layout.
pub const fn board_mask(size: u8) -> u128 {
    let mut mask = 0u128;
    let mut rank = 0;
    while rank < size {
        let mut file = 0;
        while file < size {
            mask |= 1u128 << (rank * STRIDE + file);
            file += 1;
        }
        rank += 1;
    }
    mask
}

/// The eight queen directions as (file step, rank step). The first four increase the
/// bit index, the last four decrease it.
const DIRECTIONS: [(i8, i8); 8] = [(1, 0), (-1, 1), (0, 1), (1, 1), (-1, 0), (1, -1), (0, -1), (-1, -1)];

/// `RAYS[d][i]`: the squares from bit index `i` in direction `d` up to the edge of the
/// 10x10 layout, the start excluded. Index 127 (never a square) holds empty rays, the
/// sentinel that ends a scan in an increasing direction; the decreasing directions use
/// `a1` (index 0), whose decreasing rays are empty anyway.
static RAYS: [[u128; 128]; 8] = build_rays();

const fn build_rays() -> [[u128; 128]; 8] {
    let mut rays = [[0u128; 128]; 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = DIRECTIONS[d];
        let mut rank = 0i8;
        while rank < MAX_SIZE as i8 {
            let mut file = 0i8;
            while file < MAX_SIZE as i8 {
                let mut ray = 0u128;
                let (mut f, mut r) = (file + df, rank + dr);
                while f >= 0 && r >= 0 && f < MAX_SIZE as i8 && r < MAX_SIZE as i8 {
                    ray |= 1u128 << (r as u8 * STRIDE + f as u8);
                    f += df;
                    r += dr;
                }
                rays[d][(rank as u8 * STRIDE + file as u8) as usize] = ray;
                file += 1;
            }
            rank += 1;
        }
        d += 1;
    }
    rays
}

/// The empty squares a queen on `sq` reaches when `blockers` are occupied: along each
/// of the 8 lines up to the first blocker, jumping over nothing. `blockers` must hold
/// every square off the board in use (see [`crate::Variant::walls`]).
#[inline]
pub fn queen_reach(sq: Square, blockers: Bitboard) -> Bitboard {
    let i = sq.index();
    let occ = blockers.0;
    let mut reach = 0u128;
    let mut d = 0;
    while d < 4 {
        let ray = RAYS[d][i];
        let first = ((ray & occ) | (1u128 << 127)).trailing_zeros() as usize;
        reach |= ray ^ RAYS[d][first];
        d += 1;
    }
    while d < 8 {
        let ray = RAYS[d][i];
        let first = 127 - ((ray & occ) | 1).leading_zeros() as usize;
        reach |= ray ^ RAYS[d][first];
        d += 1;
    }
    Bitboard(reach & !occ)
}

/// `LINES_THROUGH[i]`: the squares on the rank, file and diagonals through bit index `i`
/// of the 10x10 layout, the square itself included.
static LINES_THROUGH: [u128; 128] = {
    let mut table = [0u128; 128];
    let mut i = 0;
    while i < 127 {
        let mut d = 0;
        while d < 8 {
            table[i] |= RAYS[d][i];
            d += 1;
        }
        if i % STRIDE as usize != MAX_SIZE as usize && i < (MAX_SIZE * STRIDE) as usize {
            table[i] |= 1u128 << i;
        }
        i += 1;
    }
    table
};

/// The squares on the four lines through `sq` (itself included): what a change on `sq`
/// can matter to, queen-wise.
#[inline]
pub(crate) fn lines_through(sq: Square) -> Bitboard {
    Bitboard(LINES_THROUGH[sq.index() & 127])
}

/// The squares strictly between `a` and `b` if they share a rank, file or diagonal.
pub fn between(a: Square, b: Square) -> Option<Bitboard> {
    (0..8).find_map(|d| {
        let ray = RAYS[d][a.index()];
        if ray >> b.index() & 1 != 0 { Some(Bitboard(ray & !RAYS[d][b.index()] & !(1u128 << b.index()))) } else { None }
    })
}

/// If every square of `squares` (not empty) lies on one of the 8 rays leaving `from`, the
/// one nearest to `from`: a stone there cuts the whole ray beyond it.
pub fn nearest_on_ray(from: Square, squares: Bitboard) -> Option<Square> {
    if squares.is_empty() {
        return None;
    }
    let s = squares.0;
    // Rays 0-3 run towards higher bit indices, 4-7 towards lower ones.
    let d = (0..8).find(|&d| s & !RAYS[d][from.index()] == 0)?;
    Some(Square::from_index_unchecked(if d < 4 { s.trailing_zeros() } else { 127 - s.leading_zeros() }))
}

/// How many squares of `squares` lie off the ray leaving `from` that holds most of them
/// (squares off all 8 rays count too).
pub fn off_fullest_ray(from: Square, squares: Bitboard) -> u32 {
    let s = squares.0;
    let fullest = (0..8).map(|d| (s & RAYS[d][from.index()]).count_ones()).max().unwrap_or(0);
    s.count_ones() - fullest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn nearest_on_ray_finds_the_square_that_cuts_a_one_ray_set() {
        let set = |names: &[&str]| names.iter().fold(Bitboard::EMPTY, |b, n| b | sq(n).bitboard());
        assert_eq!(nearest_on_ray(sq("d4"), set(&["f6", "g7", "e5"])), Some(sq("e5")));
        assert_eq!(nearest_on_ray(sq("d4"), set(&["a1", "b2"])), Some(sq("b2")));
        assert_eq!(nearest_on_ray(sq("d4"), set(&["d9", "d6"])), Some(sq("d6")));
        assert_eq!(nearest_on_ray(sq("d4"), set(&["b4", "a4"])), Some(sq("b4")));
        assert_eq!(nearest_on_ray(sq("d4"), set(&["d6", "e5"])), None);
        assert_eq!(nearest_on_ray(sq("d4"), set(&["d6", "d2"])), None);
        assert_eq!(nearest_on_ray(sq("d4"), set(&["e6"])), None);
        assert_eq!(nearest_on_ray(sq("d4"), Bitboard::EMPTY), None);
        assert_eq!(off_fullest_ray(sq("d4"), set(&["d6", "d7", "d2", "e6"])), 2);
        assert_eq!(off_fullest_ray(sq("d4"), set(&["d6", "d7"])), 0);
        assert_eq!(off_fullest_ray(sq("d4"), Bitboard::EMPTY), 0);
    }

    #[test]
    fn queen_on_empty_board_reaches_its_lines() {
        let walls = Bitboard(FULL_BOARD & !board_mask(10));
        assert_eq!(queen_reach(sq("e5"), walls).count(), 35);
        assert_eq!(queen_reach(sq("a1"), walls).count(), 27);
        let walls7 = Bitboard(FULL_BOARD & !board_mask(7));
        assert_eq!(queen_reach(sq("a1"), walls7).count(), 18);
        assert_eq!(queen_reach(sq("d4"), walls7).count(), 24);
    }

    #[test]
    fn queen_stops_before_blockers() {
        let blockers = sq("e7").bitboard() | sq("c3").bitboard();
        let reach = queen_reach(sq("e5"), blockers);
        assert!(reach.contains(sq("e6")) && !reach.contains(sq("e7")) && !reach.contains(sq("e8")));
        assert!(reach.contains(sq("d4")) && !reach.contains(sq("c3")) && !reach.contains(sq("b2")));
        assert!(reach.contains(sq("j10")) && reach.contains(sq("a9")));
    }

    #[test]
    fn neighbours_twice_are_the_squares_next_to_two_or_more() {
        let mut rng = crate::Rng::new(9);
        for _ in 0..200 {
            let mut set = Bitboard::EMPTY;
            for sq in (0..MAX_SIZE * STRIDE).filter_map(|i| Square::from_index(i as u32)) {
                if rng.below(3) == 0 {
                    set |= sq.bitboard();
                }
            }
            let twice = set.neighbours_twice();
            for sq in (0..MAX_SIZE * STRIDE).filter_map(|i| Square::from_index(i as u32)) {
                let next = (sq.bitboard().neighbours() & set).count();
                assert_eq!(twice.contains(sq), next >= 2, "{sq}");
            }
            assert!((twice & !Bitboard(FULL_BOARD)).is_empty());
        }
    }

    #[test]
    fn neighbours_never_wrap_around_edges() {
        assert_eq!(sq("a1").bitboard().neighbours().count(), 3);
        assert_eq!(sq("j5").bitboard().neighbours().count(), 5);
        assert_eq!(sq("j10").bitboard().neighbours().count(), 3);
        assert_eq!(sq("e5").bitboard().orthogonal_neighbours().count(), 4);
        assert_eq!(sq("a5").bitboard().orthogonal_neighbours().count(), 3);
    }

    #[test]
    fn lines_through_a_square_are_its_queen_lines() {
        let walls = Bitboard(FULL_BOARD & !board_mask(10));
        for rank in 0..10 {
            for file in 0..10 {
                let s = Square::new(file, rank).unwrap();
                assert_eq!(lines_through(s), queen_reach(s, walls) | s.bitboard(), "{s}");
            }
        }
    }

    #[test]
    fn nth_selects_in_order() {
        let b: Bitboard = ["a1", "c3", "j10", "b7"].iter().map(|s| sq(s)).collect();
        let listed: Vec<Square> = b.iter().collect();
        for (k, s) in listed.iter().enumerate() {
            assert_eq!(b.nth(k as u32), Some(*s));
        }
        assert_eq!(b.nth(4), None);
        // Random sets of the layout, dense and sparse, in both halves of the word.
        let mut rng = crate::Rng::new(17);
        for density in [2u64, 8, 32, 64] {
            for _ in 0..500 {
                let set: Bitboard = Bitboard(FULL_BOARD).iter().filter(|_| rng.next_u64() % 64 < density).collect();
                for (k, s) in set.iter().enumerate() {
                    assert_eq!(set.select(k as u32), s, "{:x} {k}", set.0);
                }
                assert_eq!(set.nth(set.count()), None);
            }
        }
    }

    #[test]
    fn between_lists_the_squares_on_a_line() {
        assert_eq!(between(sq("e2"), sq("e6")).unwrap().count(), 3);
        assert_eq!(between(sq("a1"), sq("c3")).unwrap(), sq("b2").bitboard());
        assert_eq!(between(sq("a1"), sq("b3")), None);
        assert_eq!(between(sq("a1"), sq("b1")), Some(Bitboard::EMPTY));
    }
}
