//! The three variants of the game, chosen by board size.

use std::fmt;

use crate::rules::bitboard::{Bitboard, FULL_BOARD, board_mask};
use crate::rules::color::Color;

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
