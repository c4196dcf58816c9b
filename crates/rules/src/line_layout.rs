//! The numbering of the lines of the 10x10 layout (every rank, file, diagonal and
//! anti-diagonal, as [`Slot`]s) and each square's line and position on its four lines:
//! the layout that both the per-line occupancy words ([`crate::lines`]) and the per-square
//! table ([`crate::facts`]) are built on.

use crate::square::{MAX_SIZE, STRIDE};

const N: usize = MAX_SIZE as usize;

/// The length of the occupancy arrays: the lines, padded to a power of two (the
/// number of [`Slot`]s).
pub(crate) const LINE_SLOTS: usize = 64;

/// Defines [`Slot`] with one variant per slot and [`SLOTS`], every slot by number.
macro_rules! slots {
    ($($name:ident)*) => {
        /// A line number, below [`LINE_SLOTS`] by its type: indexing an array of
        /// [`LINE_SLOTS`] entries with it needs neither a mask nor a bounds check.
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        #[repr(u8)]
        pub(crate) enum Slot {
            $($name),*
        }

        /// Every slot, by number.
        pub(crate) const SLOTS: [Slot; LINE_SLOTS] = [$(Slot::$name),*];
    };
}

slots!(L0 L1 L2 L3 L4 L5 L6 L7 L8 L9 L10 L11 L12 L13 L14 L15 L16 L17 L18 L19 L20 L21 L22 L23 L24 L25 L26 L27 L28 L29 L30 L31 L32 L33 L34 L35 L36 L37 L38 L39 L40 L41 L42 L43 L44 L45 L46 L47 L48 L49 L50 L51 L52 L53 L54 L55 L56 L57 L58 L59 L60 L61 L62 L63);

/// The line and the position on it of the square at `file`, `rank` (from 0), on its line
/// of `kind`: 0 its rank, 1 its file, 2 its diagonal, 3 its anti-diagonal.
pub(crate) const fn line_of(file: usize, rank: usize, kind: usize) -> (usize, usize) {
    match kind {
        0 => (rank, file),
        1 => (N + file, rank),
        2 => (2 * N + (file + N - 1 - rank), if file < rank { file } else { rank }),
        _ => {
            let a = file + rank;
            (4 * N - 1 + a, if a >= N { file - (a - (N - 1)) } else { file })
        }
    }
}

/// `(line, position)` of the square at each bit index on each of its four lines (padding
/// indices: line 0, position 0).
pub(crate) const fn build_square_lines() -> [[(Slot, u8); 4]; 256] {
    let mut table = [[(Slot::L0, 0u8); 4]; 256];
    let mut rank = 0;
    while rank < N {
        let mut file = 0;
        while file < N {
            let mut kind = 0;
            while kind < 4 {
                let (line, pos) = line_of(file, rank, kind);
                table[rank * STRIDE as usize + file][kind] = (SLOTS[line], pos as u8);
                kind += 1;
            }
            file += 1;
        }
        rank += 1;
    }
    table
}

/// The occupancy slot and bit of the square at each bit index on each of its four lines
/// (so that a toggle is a load and an exclusive or per line): the `line_bits` of
/// [`crate::facts::SquareFacts`].
pub(crate) const fn build_square_bits() -> [[(Slot, u16); 4]; 256] {
    let lines = build_square_lines();
    let mut table = [[(Slot::L0, 0u16); 4]; 256];
    let mut i = 0;
    while i < 256 {
        let mut kind = 0;
        while kind < 4 {
            let (line, pos) = lines[i][kind];
            // Padding indices toggle nothing (never used).
            let bit = if i < (N * STRIDE as usize) && i % STRIDE as usize != N { 1u16 << pos } else { 0 };
            table[i][kind] = (line, bit);
            kind += 1;
        }
        i += 1;
    }
    table
}
