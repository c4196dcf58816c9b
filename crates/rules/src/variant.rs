//! The three variants of the game, chosen by board size.

use std::fmt;

use crate::bitboard::{Bitboard, FULL_BOARD, board_mask};
use crate::color::Color;
use crate::square::STRIDE;

/// A variant: board size, number of shooters, how many each player places in setup,
/// and how many claims win.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Variant {
    size: u8,
    shooters: u8,
    black_setup: u8,
    white_setup: u8,
    claims_to_win: u8,
}

const VARIANTS: [Variant; 3] = [
    Variant { size: 7, shooters: 3, black_setup: 1, white_setup: 2, claims_to_win: 2 },
    Variant { size: 9, shooters: 5, black_setup: 2, white_setup: 3, claims_to_win: 3 },
    Variant { size: 10, shooters: 7, black_setup: 3, white_setup: 4, claims_to_win: 4 },
];

const BOARDS: [u128; 3] = [board_mask(7), board_mask(9), board_mask(10)];

/// The squares of each board that are not on its edge.
const INTERIORS: [u128; 3] = [interior_mask(7), interior_mask(9), interior_mask(10)];

/// The four corner squares of each board.
const CORNERS: [u128; 3] = [corner_mask(7), corner_mask(9), corner_mask(10)];

const fn interior_mask(size: u8) -> u128 {
    // The board one smaller, shifted up one rank and right one file, minus its top
    // rank and right file.
    (board_mask(size - 2) << (STRIDE as u32 + 1)) & board_mask(size)
}

const fn corner_mask(size: u8) -> u128 {
    let top = (size - 1) as u32 * STRIDE as u32;
    1 | 1 << (size - 1) | 1 << top | 1 << (top + size as u32 - 1)
}

impl Variant {
    /// The standard game: 10x10, 7 shooters.
    pub const STANDARD: Variant = VARIANTS[2];

    /// The variant played on a `size` x `size` board (7, 9 or 10).
    pub fn from_size(size: u8) -> Option<Variant> {
        VARIANTS.iter().copied().find(|v| v.size == size)
    }

    /// Every variant, smallest first.
    pub fn all() -> [Variant; 3] {
        VARIANTS
    }

    fn table_index(self) -> usize {
        match self.size {
            7 => 0,
            9 => 1,
            _ => 2,
        }
    }

    /// Board side length.
    pub const fn size(self) -> u8 {
        self.size
    }

    /// Number of shooters in the game.
    pub const fn shooters(self) -> u8 {
        self.shooters
    }

    /// How many shooters `color` places in its setup turn.
    pub const fn setup_count(self, color: Color) -> u8 {
        match color {
            Color::Black => self.black_setup,
            Color::White => self.white_setup,
        }
    }

    /// Claims needed to win: a majority of the shooters.
    pub const fn claims_to_win(self) -> u8 {
        self.claims_to_win
    }

    /// The squares of the board.
    #[inline]
    pub fn board(self) -> Bitboard {
        Bitboard(BOARDS[self.table_index()])
    }

    /// The squares of the board that are not on its edge (where modern setups place
    /// shooters).
    #[inline]
    pub fn interior(self) -> Bitboard {
        Bitboard(INTERIORS[self.table_index()])
    }

    /// The four corner squares of the board.
    #[inline]
    pub fn corners(self) -> Bitboard {
        Bitboard(CORNERS[self.table_index()])
    }

    /// The squares of the 10x10 layout that are not on this board: permanent blockers.
    #[inline]
    pub fn walls(self) -> Bitboard {
        Bitboard(FULL_BOARD & !BOARDS[self.table_index()])
    }
}

impl fmt::Display for Variant {
    /// For example `10x10, 7 shooters (black places 3, white 4), 4 claims win`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{0}x{0}, {1} shooters (black places {2}, white {3}), {4} claims win",
            self.size, self.shooters, self.black_setup, self.white_setup, self.claims_to_win
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interior_and_corners_have_the_expected_squares() {
        for v in Variant::all() {
            let n = u32::from(v.size());
            assert_eq!(v.interior().count(), (n - 2) * (n - 2));
            assert_eq!(v.corners().count(), 4);
            assert_eq!(v.corners() & !v.board(), Bitboard::EMPTY);
            assert_eq!(v.interior() & !v.board(), Bitboard::EMPTY);
            let edge = v.board() & !v.interior();
            assert_eq!(edge.count(), 4 * (n - 1));
            assert_eq!(v.corners() & v.interior(), Bitboard::EMPTY);
        }
    }
}
