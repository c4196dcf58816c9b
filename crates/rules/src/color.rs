//! The two players.

use std::fmt;
use std::ops::Not;
use std::str::FromStr;

/// A player: Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// The first player.
    Black,
    /// The second player.
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// 0 for Black, 1 for White: an index into per-colour arrays.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lowercase name, `black` or `white`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// The one-letter form used in position strings, `b` or `w`.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }
}

impl Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A string that is not a colour.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid color '{0}'")]
pub struct ParseColorError(pub String);

impl FromStr for Color {
    type Err = ParseColorError;

    /// Accepts `black`, `b`, `white`, `w` in any case.
    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Ok(Color::Black),
            "w" | "white" => Ok(Color::White),
            _ => Err(ParseColorError(crate::quoted_to(s, 16))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colors_parse_in_any_case() {
        assert_eq!("BLACK".parse(), Ok(Color::Black));
        assert_eq!("w".parse(), Ok(Color::White));
        assert!("red".parse::<Color>().is_err());
        assert_eq!(!Color::Black, Color::White);
    }
}
