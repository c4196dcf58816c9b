//! Squares of the board and their notation (`a1`..`j10`).

use std::fmt;
use std::str::FromStr;

/// Number of bit positions per rank in the board layout: ten files plus one padding
/// column, so that shifting a bitboard sideways never wraps onto the next rank.
pub const STRIDE: u8 = 11;

/// The largest board size the layout holds.
pub const MAX_SIZE: u8 = 10;

/// A square of a board of up to 10x10, identified by file and rank (both from 0).
///
/// Whether the square lies on the board of a given variant is checked by the
/// position, not here: `j10` is a valid square but not on a 7x7 board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

impl Square {
    /// The square on `file` and `rank` (both counted from 0), if both are below 10.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < MAX_SIZE && rank < MAX_SIZE { Some(Square(rank * STRIDE + file)) } else { None }
    }

    /// The square at a bit index of the layout ([`Square::index`]), if the index is one of
    /// a square (below 110 and not in the padding column).
    pub const fn from_index(index: u32) -> Option<Square> {
        if index < (MAX_SIZE * STRIDE) as u32 && index % STRIDE as u32 != 10 { Some(Square(index as u8)) } else { None }
    }

    /// The square at a bit index of the layout, unchecked: for hot paths that decode an
    /// index they took from [`Square::index`] or a bitboard of real squares. Any other
    /// index gives a square that is on no board (debug builds stop at it).
    #[doc(hidden)]
    pub const fn from_index_unchecked(index: u32) -> Square {
        debug_assert!(index < (MAX_SIZE * STRIDE) as u32 && index % STRIDE as u32 != 10);
        Square(index as u8)
    }

    /// The bit index of this square in a [`Bitboard`](crate::Bitboard).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, from 0 (`a`).
    pub const fn file(self) -> u8 {
        self.0 % STRIDE
    }

    /// The rank, from 0 (rank `1`).
    pub const fn rank(self) -> u8 {
        self.0 / STRIDE
    }

    /// `a` and `b` in notation order (by file, then rank), for messages naming both.
    pub fn in_notation_order(a: Square, b: Square) -> (Square, Square) {
        if a.file_major_key() <= b.file_major_key() { (a, b) } else { (b, a) }
    }

    /// Sort key for notation: by file, then rank.
    pub const fn file_major_key(self) -> (u8, u8) {
        (self.file(), self.rank())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// A string that is not a square (`a1`..`j10`, any case).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid square '{0}'")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let err = || ParseSquareError(crate::quoted_to(s, 16));
        let bytes = s.as_bytes();
        let (&letter, digits) = bytes.split_first().ok_or_else(err)?;
        let file = letter.to_ascii_lowercase().wrapping_sub(b'a');
        let rank: u8 = match digits {
            [d @ b'1'..=b'9'] => d - b'0',
            [b'1', b'0'] => 10,
            _ => return Err(err()),
        };
        Square::new(file, rank - 1).ok_or_else(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_round_trips_through_notation() {
        for rank in 0..10 {
            for file in 0..10 {
                let sq = Square::new(file, rank).unwrap();
                assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
                assert_eq!(sq.to_string().to_uppercase().parse::<Square>(), Ok(sq));
            }
        }
    }

    #[test]
    fn malformed_squares_are_rejected() {
        for bad in ["", "a", "a0", "a11", "k1", "a01", "1a", "a1 ", "é1", "j100"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
        assert_eq!("J10".parse::<Square>().unwrap().to_string(), "j10");
        assert_eq!("i3".parse::<Square>().unwrap().file(), 8);
    }
}
