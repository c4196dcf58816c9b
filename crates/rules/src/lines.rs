//! Per-line occupancy words and lookup tables: the fast path for queen reach, its
//! size and picking its `k`-th square, with no popcount, no bit scan of a 128-bit
//! word and no branch per square.
//!
//! Every rank, file, diagonal and anti-diagonal of the 10x10 layout is a *line* of up
//! to ten squares, numbered from its lower (or left) end. A line's occupancy is a
//! 10-bit word: bit `p` is set when the square at position `p` blocks (a piece, or a
//! square off the board in use); positions beyond a short line's end are set for
//! good. [`REACH`] maps (occupancy, position) to the positions a queen there reaches
//! along the line, and their number.

use crate::bitboard::Bitboard;
use crate::facts::{SquareFacts, facts};
use crate::line_layout::{LINE_SLOTS, Slot, build_square_lines, line_of};
use crate::square::{MAX_SIZE, STRIDE, Square};

/// Number of lines: 10 ranks, 10 files, 19 diagonals, 19 anti-diagonals.
pub(crate) const LINES: usize = 58;

const N: usize = MAX_SIZE as usize;

/// Bit indices of the layout that can be squares (the rest never are).
#[cfg(test)]
const INDICES: usize = N * STRIDE as usize;

/// `(line, position)` of a square on each of its four lines (rank, file, diagonal,
/// anti-diagonal), by bit index. Padding indices get line 0, position 0 (never used);
/// the table has an entry for every `u8`, so that indexing it needs no bounds check.
static SQUARE_LINES: [[(Slot, u8); 4]; 256] = build_square_lines();

/// The bit index of the square at each position of each line (padding: 0, never used).
static LINE_SQUARES: [[u8; 16]; LINE_SLOTS] = build_line_squares();

/// Each line's occupancy with nothing on it: the positions beyond its end set.
static EMPTY_LINES: [u16; LINES] = build_empty_lines();

/// `REACH[occupancy * 10 + position]`: the positions reached from `position` along a
/// line with that occupancy (bits 0-9; the bit of `position` itself is ignored),
/// and their number in bits 10-13.
static REACH: [u16; 1024 * N] = build_reach();

/// The [`REACH`] entry of a line with occupancy `occupancy` at line position `pos`.
/// Not masked to 10 bits to spare the bounds check: with the mask the compiler turns the
/// four lookups of a reach into vector code, and random playouts ran 10% slower.
#[inline(always)]
fn reach_entry(occupancy: u16, pos: u8) -> u16 {
    REACH[usize::from(occupancy) * N + usize::from(pos)]
}

/// `SELECT[mask * 10 + k]`: the position of the `k`-th lowest set bit of a 10-bit mask
/// (padded, so that a masked `k` indexes it without a bounds check).
static SELECT: [u8; 1024 * N + 16] = build_select();

const fn build_line_squares() -> [[u8; 16]; LINE_SLOTS] {
    let mut table = [[0u8; 16]; LINE_SLOTS];
    let mut rank = 0;
    while rank < N {
        let mut file = 0;
        while file < N {
            let mut kind = 0;
            while kind < 4 {
                let (line, pos) = line_of(file, rank, kind);
                table[line][pos] = (rank * STRIDE as usize + file) as u8;
                kind += 1;
            }
            file += 1;
        }
        rank += 1;
    }
    table
}

const fn build_empty_lines() -> [u16; LINES] {
    let mut table = [0u16; LINES];
    let mut line = 0;
    while line < LINES {
        let len = if line < 2 * N {
            N
        } else {
            let d = (line - 2 * N) % (2 * N - 1);
            if d < N { d + 1 } else { 2 * N - 1 - d }
        };
        table[line] = (((1u32 << N) - 1) & !((1u32 << len) - 1)) as u16;
        line += 1;
    }
    table
}

const fn build_reach() -> [u16; 1024 * N] {
    let mut table = [0u16; 1024 * N];
    let mut occ = 0;
    while occ < 1024 {
        let mut pos = 0;
        while pos < N {
            let (mut mask, mut count) = (0u16, 0u16);
            let mut p = pos + 1;
            while p < N && occ >> p & 1 == 0 {
                mask |= 1 << p;
                count += 1;
                p += 1;
            }
            let mut p = pos;
            while p > 0 && occ >> (p - 1) & 1 == 0 {
                mask |= 1 << (p - 1);
                count += 1;
                p -= 1;
            }
            table[occ * N + pos] = mask | count << 10;
            pos += 1;
        }
        occ += 1;
    }
    table
}

const fn build_select() -> [u8; 1024 * N + 16] {
    let mut table = [0u8; 1024 * N + 16];
    let mut mask = 0;
    while mask < 1024 {
        let (mut k, mut p) = (0, 0);
        while p < N {
            if mask >> p & 1 != 0 {
                table[mask * N + k] = p as u8;
                k += 1;
            }
            p += 1;
        }
        mask += 1;
    }
    table
}

/// A queen's reach along the four lines through a square: per line, the reached
/// positions (bits 0-9) and their number (bits 10-13), as [`REACH`] gives them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reach {
    sq: u8,
    /// The four entries, line kind `k` in bits `16k..16k+16` (one word: built and read
    /// without narrow stores followed by a wide load).
    entries: u64,
}

/// Four reach entries in one word, line kind `k` in bits `16k..16k+16`.
#[inline(always)]
fn pack(entries: [u16; 4]) -> u64 {
    u64::from(entries[0]) | u64::from(entries[1]) << 16 | u64::from(entries[2]) << 32 | u64::from(entries[3]) << 48
}

impl Reach {
    /// The entry of line kind `kind` (0-3).
    #[inline(always)]
    fn entry(&self, kind: usize) -> u16 {
        (self.entries >> (16 * kind)) as u16
    }

    /// The number of squares reached.
    #[inline]
    pub(crate) fn count(&self) -> u32 {
        // The four counts side by side, summed into the top lane by one multiplication.
        let counts = (self.entries >> 10) & 0x000f_000f_000f_000f;
        (counts.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
    }

    /// The `k`-th reached square (`k` below [`Reach::count`]), lines in the order
    /// rank, file, diagonal, anti-diagonal and positions upwards along each line.
    #[inline]
    pub(crate) fn nth(&self, k: u32) -> Square {
        self.nth_with_kind(k).0
    }

    /// [`Reach::nth`] and the kind of the line (0-3: rank, file, diagonal,
    /// anti-diagonal) the square is on.
    #[inline]
    pub(crate) fn nth_with_kind(&self, k: u32) -> (Square, usize) {
        // Without branches (which line holds the `k`-th square is random in playouts, and
        // a mispredicted branch costs more than these instructions): lane `j` of `ends`
        // is the number of squares on lines 0..=j; the line is the number of lanes
        // 0..=2 whose end is at most `k`, found by subtracting lane-wise.
        const LANES: u64 = 0x0001_0001_0001_0001;
        const HIGH: u64 = 0x8000 * LANES;
        let ends = ((self.entries >> 10) & (0xf * LANES)).wrapping_mul(LANES);
        let passed = ((u64::from(k) * LANES) | HIGH).wrapping_sub(ends) & HIGH & 0x0000_8000_8000_8000;
        let kind = passed.count_ones() as usize;
        // The squares on the lines before `kind`: lane `kind - 1` of `ends` (0 for line 0).
        let before = ((ends << 16) >> (16 * kind)) as u32 & 0xffff;
        let k = k - before;
        let (line, _) = SQUARE_LINES[usize::from(self.sq)][kind & 3];
        let pos = SELECT[usize::from(self.entry(kind) & 0x3ff) * N + (k as usize & 15)];
        (Square::from_index_unchecked(u32::from(LINE_SQUARES[slot(line)][usize::from(pos & 15)])), kind)
    }

    /// The number of squares reached along the line of kind `kind` (0-3).
    #[inline]
    pub(crate) fn count_on(&self, kind: usize) -> u32 {
        u32::from(self.entry(kind) >> 10)
    }

    /// Whether `sq` is reached.
    #[inline]
    pub(crate) fn contains(&self, sq: Square) -> bool {
        let (a, b) = (&SQUARE_LINES[usize::from(self.sq)], &SQUARE_LINES[sq.index()]);
        (0..4).any(|kind| a[kind].0 == b[kind].0 && self.entry(kind) >> b[kind].1 & 1 != 0)
    }

    /// Calls `f` with every reached square, lines in the order rank, file, diagonal,
    /// anti-diagonal and positions upwards along each line (the order of [`Reach::nth`]).
    #[inline]
    pub(crate) fn for_each(&self, mut f: impl FnMut(Square)) {
        let lines = &SQUARE_LINES[usize::from(self.sq)];
        for kind in 0..4 {
            let entry = self.entry(kind);
            let squares = &LINE_SQUARES[slot(lines[kind].0)];
            let mut mask = entry & 0x3ff;
            while mask != 0 {
                let pos = mask.trailing_zeros() as usize & 15;
                mask &= mask - 1;
                f(Square::from_index_unchecked(u32::from(squares[pos])));
            }
        }
    }

    /// The reached squares as a bitboard (for tests).
    #[cfg(test)]
    pub(crate) fn bitboard(&self) -> Bitboard {
        (0..self.count()).map(|k| self.nth(k)).collect()
    }
}

/// The occupancy word of every line, kept next to the position's bitboards: what
/// blocks the line, and what does not block it but cannot be landed on (the shooters
/// in the modern rules, which queens pass over; always empty in the classic rules).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Lines {
    blocked: [u16; LINE_SLOTS],
    unlandable: [u16; LINE_SLOTS],
    /// Whether queens pass over unlandable squares at all (the modern rules): when not,
    /// the `unlandable` words are all zero and never read.
    passable: bool,
}

/// The index of `line` in the occupancy arrays.
#[inline(always)]
fn slot(line: Slot) -> usize {
    line as usize
}

/// One line's reach entry with the squares of `unlandable` removed (count recomputed).
#[inline]
fn land_only(entry: u16, unlandable: u16) -> u16 {
    if unlandable == 0 {
        entry
    } else {
        let mask = entry & 0x3ff & !unlandable;
        mask | (mask.count_ones() as u16) << 10
    }
}

impl Lines {
    /// The lines of a board whose blocked squares are `blockers` and whose other
    /// occupied squares (passed over, not landed on) are `unlandable` (squares of the
    /// 10x10 layout; anything else is ignored). `passable` tells whether there can be
    /// such squares (the modern rules).
    pub(crate) fn new(blockers: Bitboard, unlandable: Bitboard, passable: bool) -> Lines {
        let mut blocked = [0; LINE_SLOTS];
        blocked[..LINES].copy_from_slice(&EMPTY_LINES);
        let mut lines = Lines { blocked, unlandable: [0; LINE_SLOTS], passable };
        let layout = Bitboard(crate::bitboard::FULL_BOARD);
        for sq in blockers & layout {
            lines.toggle(sq);
        }
        for sq in unlandable & !blockers & layout {
            lines.toggle_unlandable(sq);
        }
        lines
    }

    /// Flips `sq` between empty and blocked on its four lines.
    #[inline]
    pub(crate) fn toggle(&mut self, sq: Square) {
        self.toggle_facts(facts(sq));
    }

    /// [`Lines::toggle`] of the square whose facts are `facts` (for a caller that has
    /// them at hand).
    #[inline(always)]
    pub(crate) fn toggle_facts(&mut self, facts: &SquareFacts) {
        for (line, bit) in facts.line_bits {
            self.blocked[slot(line)] ^= bit;
        }
    }

    /// Flips `sq` between empty and passable-but-occupied on its four lines.
    #[inline]
    pub(crate) fn toggle_unlandable(&mut self, sq: Square) {
        for (line, bit) in facts(sq).line_bits {
            self.unlandable[slot(line)] ^= bit;
        }
    }

    /// What a queen on `sq` reaches (the square's own occupancy is ignored).
    #[inline]
    pub(crate) fn reach(&self, sq: Square) -> Reach {
        if self.passable { self.reach_of::<true>(sq) } else { self.reach_of::<false>(sq) }
    }

    /// What a queen on `to` reaches once the square `vacated` is empty too (the
    /// shots after a shooter moved from `vacated` to `to`).
    #[cfg(test)]
    pub(crate) fn reach_without(&self, to: Square, vacated: Square) -> Reach {
        if self.passable {
            self.reach_without_of::<true>(to, vacated)
        } else {
            self.reach_without_of::<false>(to, vacated)
        }
    }

    /// Whether these lines let queens pass over unlandable squares (the modern rules):
    /// the `PASSABLE` argument of [`Lines::reach_of`] and [`Lines::reach_without_of`].
    #[inline]
    pub(crate) fn passable(&self) -> bool {
        self.passable
    }

    /// [`Lines::reach`] for lines whose [`Lines::passable`] is `PASSABLE`: hot loops
    /// choose once, so the classic path reads no `unlandable` word and takes no branch.
    #[inline(always)]
    pub(crate) fn reach_of<const PASSABLE: bool>(&self, sq: Square) -> Reach {
        let lines = &SQUARE_LINES[sq.index()];
        // Written out rather than with `array::map`, which the compiler does not always
        // inline.
        let entry = |(line, pos): (Slot, u8)| {
            let line = slot(line);
            let entry = reach_entry(self.blocked[line], pos);
            if PASSABLE { land_only(entry, self.unlandable[line]) } else { entry }
        };
        Reach {
            sq: sq.index() as u8,
            entries: pack([entry(lines[0]), entry(lines[1]), entry(lines[2]), entry(lines[3])]),
        }
    }

    /// Whether a queen on `sq` reaches no square at all (a trapped shooter): the four
    /// runs' landable squares, without counting them.
    #[inline]
    pub(crate) fn reaches_nothing(&self, sq: Square) -> bool {
        let lines = &SQUARE_LINES[sq.index()];
        let mut any = 0;
        for &(line, pos) in lines {
            let line = slot(line);
            let run = reach_entry(self.blocked[line], pos);
            any |= if self.passable { run & !self.unlandable[line] } else { run };
        }
        any & 0x3ff == 0
    }

    /// The number of squares reached from line position `pos` of `line`.
    #[inline]
    fn count_on<const PASSABLE: bool>(&self, (line, pos): (Slot, u8)) -> u32 {
        let line = slot(line);
        let entry = reach_entry(self.blocked[line], pos);
        if PASSABLE { (entry & 0x3ff & !self.unlandable[line]).count_ones() } else { u32::from(entry >> 10) }
    }

    /// The number of turns that move the shooter on `from` (each destination times its
    /// shots), for lines whose [`Lines::passable`] is `PASSABLE`, without listing them.
    ///
    /// A destination on one of `from`'s lines sees, along that line once `from` is
    /// vacated, the whole run `from` reached there (plus `from`, minus itself): as many
    /// shots as `from` had destinations on that line, under both rule sets (in the modern
    /// rules the run is bounded by blockers only, and `from` becomes landable while the
    /// destination does not). So only the destination's three other lines, which do not
    /// pass through `from`, are looked up.
    #[inline]
    pub(crate) fn count_moving_turns<const PASSABLE: bool>(&self, from: Square) -> u32 {
        self.count_moving_on::<PASSABLE, 0>(from)
            + self.count_moving_on::<PASSABLE, 1>(from)
            + self.count_moving_on::<PASSABLE, 2>(from)
            + self.count_moving_on::<PASSABLE, 3>(from)
    }

    /// [`Lines::count_moving_turns`] for the destinations on line kind `KIND` of `from`.
    #[inline(always)]
    fn count_moving_on<const PASSABLE: bool, const KIND: usize>(&self, from: Square) -> u32 {
        let (line, pos) = SQUARE_LINES[from.index()][KIND];
        let entry = reach_entry(self.blocked[slot(line)], pos);
        let mut mask = entry & 0x3ff;
        if PASSABLE {
            mask &= !self.unlandable[slot(line)];
        }
        let along = mask.count_ones();
        let mut total = along * along;
        let squares = &LINE_SQUARES[slot(line)];
        while mask != 0 {
            let to = usize::from(squares[mask.trailing_zeros() as usize & 15]);
            mask &= mask - 1;
            let to_lines = &SQUARE_LINES[to];
            for (kind, &other) in to_lines.iter().enumerate() {
                if kind != KIND {
                    total += self.count_on::<PASSABLE>(other);
                }
            }
        }
        total
    }

    /// The number of shots after the shooter on `from` moved to `to` along its line of
    /// kind `kind` (0-3), where `from_reach` is what `from` reaches: along that line the
    /// run `from` reached (see [`Lines::count_moving_turns`]), plus what `to` reaches
    /// along its three other lines, which do not pass through `from`. The same as the
    /// count of [`Lines::reach_without_of`]`(to, from)`, for lines whose
    /// [`Lines::passable`] is `PASSABLE`, with three lookups.
    #[inline]
    pub(crate) fn count_shots_after_move<const PASSABLE: bool>(
        &self,
        from_reach: &Reach,
        to: Square,
        kind: usize,
    ) -> u32 {
        let lines = &SQUARE_LINES[to.index()];
        let mut total = from_reach.count_on(kind);
        for (k, &line) in lines.iter().enumerate() {
            if k != kind {
                total += self.count_on::<PASSABLE>(line);
            }
        }
        total
    }

    /// The shots after the shooter on `from` moved to `to` along its line of kind `kind`
    /// (0-3), where `from_reach` is what `from` reaches: [`Lines::reach_without_of`]`(to,
    /// from)` with one lookup fewer. Along that line `to` sees the run `from` reached,
    /// with `from` in it and `to` itself out (see [`Lines::count_moving_turns`]); its
    /// three other lines do not pass through `from` and are looked up as they are.
    #[inline(always)]
    pub(crate) fn reach_after_move_of<const PASSABLE: bool>(
        &self,
        from_reach: &Reach,
        to: Square,
        kind: usize,
    ) -> Reach {
        let kind = kind & 3;
        let mut reach = self.reach_of::<PASSABLE>(to);
        let (from_pos, to_pos) = (SQUARE_LINES[usize::from(from_reach.sq)][kind].1, SQUARE_LINES[to.index()][kind].1);
        // `from`'s run never holds `from` and always holds `to`: flipping both bits
        // moves the one in and the other out, and keeps the count.
        let along = from_reach.entry(kind) ^ (1 << (from_pos & 15)) ^ (1 << (to_pos & 15));
        let lane = 16 * kind;
        reach.entries = (reach.entries & !(0xffff << lane)) | u64::from(along) << lane;
        reach
    }

    /// What a queen on `to` reaches once `vacated` is empty too (the shots after a shooter
    /// moved from `vacated` to `to`), for lines whose [`Lines::passable`] is `PASSABLE`.
    #[inline(always)]
    pub(crate) fn reach_without_of<const PASSABLE: bool>(&self, to: Square, vacated: Square) -> Reach {
        let (lines, others) = (&SQUARE_LINES[to.index()], &SQUARE_LINES[vacated.index()]);
        let entry = |kind: usize| {
            let (line, pos) = lines[kind];
            let (other, other_pos) = others[kind];
            let clear = u16::from(line == other) << other_pos;
            let line = slot(line);
            let entry = reach_entry(self.blocked[line] & !clear, pos);
            if PASSABLE { land_only(entry, self.unlandable[line] & !clear) } else { entry }
        };
        Reach { sq: to.index() as u8, entries: pack([entry(0), entry(1), entry(2), entry(3)]) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line_layout::SLOTS;
    use crate::{Phase, PlayoutPolicy, Position, Rng, Rules, Variant};

    /// Positions from random games on every size, every phase of play.
    fn sample_positions() -> Vec<Position> {
        let mut rng = Rng::new(2024);
        let mut out = Vec::new();
        for (variant, rules) in Variant::all().into_iter().flat_map(|v| Rules::all().map(|r| (v, r))) {
            for game in 0..12 {
                let mut pos = Position::with_rules(variant, rules);
                let policy = if game % 2 == 0 { PlayoutPolicy::Cheap } else { PlayoutPolicy::Uniform };
                while !pos.is_over() {
                    if pos.phase() == Phase::Play {
                        out.push(pos.clone());
                    }
                    let mv = pos.random_move(&mut rng, policy).unwrap();
                    pos.play_unchecked(mv);
                }
            }
        }
        out
    }

    #[test]
    fn lines_follow_the_blockers() {
        for pos in sample_positions() {
            let modern = pos.rules().is_modern();
            assert_eq!(pos.lines(), &Lines::new(pos.blockers(), !pos.empty_squares(), modern), "{pos}");
        }
    }

    #[test]
    fn reach_count_nth_and_contains_agree_with_the_bitboard_routines() {
        for pos in sample_positions() {
            let lines = pos.lines();
            let modern = pos.rules().is_modern();
            // Every square, empty or not (trapped ones included): whether a queen there
            // would reach nothing.
            for sq in pos.variant().board() & !pos.walls() {
                assert_eq!(lines.reaches_nothing(sq), pos.shooter_reach(sq).is_empty(), "{pos} {sq}");
            }
            for from in pos.shooters() {
                let slow = pos.shooter_reach(from);
                let fast = lines.reach(from);
                assert_eq!(fast.bitboard(), slow, "{pos} {from}");
                assert_eq!(fast.count(), slow.count());
                assert_eq!(pos.reach_count(from), slow.count());
                let listed: Bitboard = (0..fast.count()).map(|k| fast.nth(k)).collect();
                assert_eq!(listed, slow);
                for sq in pos.empty_squares() {
                    assert_eq!(fast.contains(sq), slow.contains(sq));
                }
                let mut listed = Vec::new();
                fast.for_each(|sq| listed.push(sq));
                assert_eq!(listed, (0..fast.count()).map(|k| fast.nth(k)).collect::<Vec<_>>());
                let moving: u32 = slow.iter().map(|to| pos.shots_after_move(from, to).count()).sum();
                let counted = if modern {
                    lines.count_moving_turns::<true>(from)
                } else {
                    lines.count_moving_turns::<false>(from)
                };
                assert_eq!(counted, moving, "{pos} {from}");
                for k in 0..fast.count() {
                    let (to, kind) = fast.nth_with_kind(k);
                    assert_eq!(to, fast.nth(k));
                    let counted = if modern {
                        lines.count_shots_after_move::<true>(&fast, to, kind)
                    } else {
                        lines.count_shots_after_move::<false>(&fast, to, kind)
                    };
                    assert_eq!(counted, pos.shots_after_move(from, to).count(), "{pos} {from}-{to}");
                }
                for k in 0..fast.count() {
                    let (to, kind) = fast.nth_with_kind(k);
                    let after = if modern {
                        lines.reach_after_move_of::<true>(&fast, to, kind)
                    } else {
                        lines.reach_after_move_of::<false>(&fast, to, kind)
                    };
                    let shots = lines.reach_without(to, from);
                    assert_eq!(after.entries, shots.entries, "{pos} {from}-{to}");
                }
                for to in slow {
                    let shots = lines.reach_without(to, from);
                    let slow_shots = pos.shots_after_move(from, to);
                    assert_eq!(shots.bitboard(), slow_shots, "{pos} {from}-{to}");
                    assert_eq!(shots.count(), slow_shots.count());
                    assert_eq!(pos.shots_after_move_count(from, to), slow_shots.count());
                }
            }
        }
    }

    #[test]
    fn every_square_of_every_line_is_listed_once() {
        let mut seen = [0u8; INDICES];
        for line in 0..LINES {
            let len = (EMPTY_LINES[line] | 0xfc00).trailing_zeros() as usize;
            for (pos, &sq) in LINE_SQUARES[line][..len].iter().enumerate() {
                let sq = usize::from(sq);
                seen[sq] += 1;
                assert!(SQUARE_LINES[sq].contains(&(SLOTS[line], pos as u8)));
            }
        }
        for (index, &n) in seen.iter().enumerate() {
            assert_eq!(n, if index % STRIDE as usize == 10 { 0 } else { 4 }, "{index}");
        }
    }
}
