//! One table entry per bit index with what a turn looks up about that square: its set,
//! its neighbours, its orthogonal neighbours and its bit on each of its four lines.
//!
//! The entries are 64 bytes, one cache line each, all reached from one base address: a
//! classic turn looks up three squares (the moved shooter's two and the shot), and with
//! one table it needs one base register and one line per square instead of four tables'
//! worth (on random games that spared four instructions a turn, mostly register saves).
//! There is an entry for every `u8`, so that a lookup needs no bounds check; indices that
//! are not squares toggle nothing, and those past the layout have empty sets.

use crate::bitboard::Bitboard;
use crate::line_layout::{Slot, build_square_bits};
use crate::square::{MAX_SIZE, STRIDE, Square};

/// What a turn looks up about one square (see the module's documentation).
#[repr(C, align(64))]
pub(crate) struct SquareFacts {
    /// The square alone.
    pub(crate) bit: Bitboard,
    /// The squares orthogonally or diagonally next to it (including squares off smaller
    /// boards, as [`Bitboard::neighbours`] gives them).
    pub(crate) neighbours: Bitboard,
    /// The squares orthogonally next to it (likewise).
    pub(crate) orthogonal: Bitboard,
    /// The square's occupancy slot and bit on each of its four lines.
    pub(crate) line_bits: [(Slot, u16); 4],
}

static FACTS: [SquareFacts; 256] = build_facts();

const fn build_facts() -> [SquareFacts; 256] {
    let line_bits = build_square_bits();
    let mut table = [const {
        SquareFacts {
            bit: Bitboard(0),
            neighbours: Bitboard(0),
            orthogonal: Bitboard(0),
            line_bits: [(Slot::L0, 0); 4],
        }
    }; 256];
    let mut i = 0;
    while i < 256 {
        if i < 128 {
            table[i].bit = Bitboard(1u128 << i);
        }
        if i < (MAX_SIZE * STRIDE) as usize {
            table[i].neighbours = Bitboard(1u128 << i).neighbours();
            table[i].orthogonal = Bitboard(1u128 << i).orthogonal_neighbours();
        }
        table[i].line_bits = line_bits[i];
        i += 1;
    }
    table
}

/// The [`SquareFacts`] of `sq`.
#[inline(always)]
pub(crate) fn facts(sq: Square) -> &'static SquareFacts {
    &FACTS[sq.index()]
}

/// The squares orthogonally or diagonally next to `sq` (a table lookup; includes
/// squares off smaller boards, as [`Bitboard::neighbours`] does).
#[inline]
pub(crate) fn neighbours_of(sq: Square) -> Bitboard {
    facts(sq).neighbours
}

impl Square {
    /// The squares orthogonally or diagonally next to this one (a table lookup; includes
    /// squares off smaller boards: mask with the variant's board).
    #[inline]
    pub fn neighbours(self) -> Bitboard {
        neighbours_of(self)
    }

    /// The squares orthogonally next to this one (a table lookup; includes squares off
    /// smaller boards).
    #[inline]
    pub fn orthogonal_neighbours(self) -> Bitboard {
        facts(self).orthogonal
    }
}

/// The set of `sq` alone, by table lookup (a variable 128-bit shift takes several
/// instructions and branches or conditional moves): the same as [`Square::bitboard`].
#[inline(always)]
pub(crate) fn bit_of(sq: Square) -> Bitboard {
    facts(sq).bit
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_has_its_own_bit_neighbours_and_line_bits() {
        for index in 0..(MAX_SIZE * STRIDE) as u32 {
            if index % STRIDE as u32 == STRIDE as u32 - 1 {
                continue;
            }
            let sq = Square::from_index_unchecked(index);
            let f = facts(sq);
            assert_eq!(f.bit, sq.bitboard());
            assert_eq!(bit_of(sq), sq.bitboard());
            assert_eq!(neighbours_of(sq), sq.bitboard().neighbours());
            assert_eq!(sq.neighbours(), sq.bitboard().neighbours());
            assert_eq!(sq.orthogonal_neighbours(), sq.bitboard().orthogonal_neighbours());
            assert_eq!(f.neighbours, sq.bitboard().neighbours());
            assert_eq!(f.orthogonal, sq.bitboard().orthogonal_neighbours());
            assert!(f.line_bits.iter().all(|&(_, bit)| bit.count_ones() == 1));
        }
    }

    #[test]
    fn indices_past_the_layout_are_empty_and_padding_toggles_nothing() {
        let layout = (MAX_SIZE * STRIDE) as usize;
        for (index, f) in FACTS.iter().enumerate() {
            if index >= 128 {
                assert_eq!(f.bit, Bitboard(0), "index {index}");
            }
            if index >= layout {
                assert_eq!(f.neighbours, Bitboard(0), "index {index}");
                assert_eq!(f.orthogonal, Bitboard(0), "index {index}");
            }
            if index >= layout || index % STRIDE as usize == STRIDE as usize - 1 {
                assert!(f.line_bits.iter().all(|&(_, bit)| bit == 0), "index {index}");
            }
        }
    }
}
