//! Turns and their notation: setup turns (`c3,f6,h8`; modern `c3,e5,g7/d4`), the
//! modern swap (`swap`) and play turns (`e2-e6/g8`, `g8`).

use std::fmt;
use std::str::FromStr;

use crate::bitboard::Bitboard;
use crate::square::Square;

/// A play turn: an optional shooter move, then the shot (the stone placed).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Turn {
    shooter_move: Option<(Square, Square)>,
    shot: Square,
}

impl Turn {
    /// A turn that moves the shooter on `from` to `to`, then shoots at `shot`.
    pub const fn with_move(from: Square, to: Square, shot: Square) -> Turn {
        Turn { shooter_move: Some((from, to)), shot }
    }

    /// A turn with an optional shooter move (origin, destination), then the shot at `shot`.
    pub const fn new(shooter_move: Option<(Square, Square)>, shot: Square) -> Turn {
        Turn { shooter_move, shot }
    }

    /// A turn that moves no shooter and shoots at `shot`.
    pub const fn shot_only(shot: Square) -> Turn {
        Turn { shooter_move: None, shot }
    }

    /// The shooter's move (origin, destination), if the turn moves one.
    pub const fn shooter_move(self) -> Option<(Square, Square)> {
        self.shooter_move
    }

    /// The square where the stone is placed.
    pub const fn shot(self) -> Square {
        self.shot
    }
}

/// A turn of either phase.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A classic setup turn: the squares where the player places its shooters.
    Setup(Bitboard),
    /// A modern setup turn: shooters (off the edge) and one stone of the player's colour.
    SetupWithStone {
        /// The squares of the shooters placed.
        shooters: Bitboard,
        /// The square of the stone placed.
        stone: Square,
    },
    /// The modern swap (pie rule): White's setup turn that leaves the board unchanged;
    /// the players exchange colours, so White is to move again, without the swap.
    Swap,
    /// A turn in play.
    Turn(Turn),
}

impl Move {
    /// The squares of a setup turn, in notation order (by file, then rank).
    fn setup_squares(squares: Bitboard) -> Vec<Square> {
        let mut list: Vec<Square> = squares.iter().collect();
        list.sort_by_key(|sq| sq.file_major_key());
        list
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.shooter_move {
            Some((from, to)) => write!(f, "{from}-{to}/{}", self.shot),
            None => write!(f, "{}", self.shot),
        }
    }
}

impl fmt::Display for Move {
    /// The canonical lowercase notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Turn(turn) => turn.fmt(f),
            Move::Setup(squares) => write_squares(f, *squares),
            Move::SetupWithStone { shooters, stone } => {
                write_squares(f, *shooters)?;
                write!(f, "/{stone}")
            }
            Move::Swap => f.write_str("swap"),
        }
    }
}

fn write_squares(f: &mut fmt::Formatter<'_>, squares: Bitboard) -> fmt::Result {
    for (i, sq) in Move::setup_squares(squares).into_iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{sq}")?;
    }
    Ok(())
}

fn parse_squares(text: &str, list: &str) -> Result<Bitboard, ParseMoveError> {
    let mut squares = Bitboard::EMPTY;
    for part in list.split(',') {
        let sq = parse_square(text, part, "expected squares joined by commas")?;
        if squares.contains(sq) {
            return Err(ParseMoveError::new(text, "a square is listed twice"));
        }
        squares |= sq.bitboard();
    }
    Ok(squares)
}

/// A string that is not a turn in the notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid move '{text}': {reason}")]
pub struct ParseMoveError {
    text: String,
    reason: &'static str,
}

impl ParseMoveError {
    fn new(text: &str, reason: &'static str) -> ParseMoveError {
        ParseMoveError { text: crate::quoted::quoted(text), reason }
    }
}

fn parse_square(text: &str, part: &str, reason: &'static str) -> Result<Square, ParseMoveError> {
    part.parse().map_err(|_| ParseMoveError::new(text, reason))
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses the notation without knowing the position: `swap` is the swap, squares
    /// joined by commas are a classic setup turn, the same followed by `/` and a square a
    /// modern setup turn (`c3,e5,g7/d4`, or `d4/a1` with one shooter), `from-to/shot` a
    /// turn with a shooter move, and a lone square a shot without a move. (A lone square
    /// is also the classic 7x7 setup turn of Black: [`crate::Position::parse_move`]
    /// reads it by the phase.)
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        if s.eq_ignore_ascii_case("swap") {
            return Ok(Move::Swap);
        }
        if let Some((shooters, stone)) = s.split_once('/').filter(|(path, _)| !path.contains('-')) {
            let shooters = parse_squares(s, shooters)?;
            let stone = parse_square(s, stone, "expected shooters/stone")?;
            if shooters.contains(stone) {
                return Err(ParseMoveError::new(s, "the stone is on a shooter's square"));
            }
            Ok(Move::SetupWithStone { shooters, stone })
        } else if s.contains(',') {
            Ok(Move::Setup(parse_squares(s, s)?))
        } else if let Some((path, shot)) = s.split_once('/') {
            let (from, to) = path.split_once('-').ok_or_else(|| ParseMoveError::new(s, "expected from-to/shot"))?;
            let from = parse_square(s, from, "expected from-to/shot")?;
            let to = parse_square(s, to, "expected from-to/shot")?;
            let shot = parse_square(s, shot, "expected from-to/shot")?;
            Ok(Move::Turn(Turn::with_move(from, to, shot)))
        } else {
            let shot = parse_square(s, s, "expected a square, from-to/shot, or squares joined by commas")?;
            Ok(Move::Turn(Turn::shot_only(shot)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_is_canonical_lowercase() {
        assert_eq!("E2-E6/G8".parse::<Move>().unwrap().to_string(), "e2-e6/g8");
        assert_eq!("h8,C3,f6".parse::<Move>().unwrap().to_string(), "c3,f6,h8");
        assert_eq!("c9,a1,j10,h2".parse::<Move>().unwrap().to_string(), "a1,c9,h2,j10");
        assert_eq!("g8".parse::<Move>().unwrap(), Move::Turn(Turn::shot_only("g8".parse().unwrap())));
        assert_eq!("G7,c3,E5/D4".parse::<Move>().unwrap().to_string(), "c3,e5,g7/d4");
        assert_eq!("d4/a1".parse::<Move>().unwrap().to_string(), "d4/a1");
        assert_eq!("SWAP".parse::<Move>().unwrap(), Move::Swap);
        assert_eq!(Move::Swap.to_string(), "swap");
    }

    #[test]
    fn malformed_moves_are_parse_errors() {
        for bad in ["", "e2-e6", "e2-e6/", "c3,c3", "c3,", ",c3", "e2-e6/g8/h9", "e2--e6/g8", "x1", "e2-e6-e7/g8"] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
        for bad in ["c3/c3", "c3,d4/", "/d4", "c3,d4/d4", "c3/d4/e5", "swapp", "c3,,d4/e5"] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
    }
}
