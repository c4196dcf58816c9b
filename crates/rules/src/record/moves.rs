//! A record's moves: [`RecordMove`], a turn's text as the move text holds it.
//!
//! A record keeps each move as written, not as the rules' [`Move`]: a record read and written
//! again is the same text byte for byte (`D4`, `h8,C3,f6` and `SWAP` stay as written, where
//! `Move` prints `d4`, `c3,f6,h8` and `swap`), and a lone square means a setup turn or a shot
//! by the position it is played in (7x7's setup), which a record read without replaying it
//! does not know. So a `RecordMove` is the text, checked once where it enters a record: a turn
//! in the notation (as [`Move`]'s `FromStr` reads it without a position), of at most
//! [`RecordMove::MAX_BYTES`] bytes. Whether it is legal is the replay's business: a record may
//! name squares off its board or a turn its position refuses, and only
//! [`super::GameRecord::replay`] says so.
//!
//! What the check guarantees: the text is 1 to 64 bytes of ASCII letters, digits, `-`, `/`
//! and `,` (what a turn's notation uses), so no whitespace, control character, brace, `%`,
//! `[`, `.` or result token: the writer puts it in the move text as it is, and the reader
//! reads it back as the same move, wherever the line breaks fall.

use std::fmt;
use std::str::FromStr;

use crate::moves::{Move, ParseMoveError};

/// A record's move: the text of one turn in the project's notation, as written (see the
/// module documentation for what it guarantees).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RecordMove(Box<str>);

/// A text that a record cannot hold as a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordMoveError {
    /// More than [`RecordMove::MAX_BYTES`] bytes.
    #[error("a move of more than {max} bytes", max = RecordMove::MAX_BYTES)]
    TooLong,
    /// Not a turn in the notation (whitespace, control characters and any other character
    /// the notation does not use included).
    #[error(transparent)]
    Notation(#[from] ParseMoveError),
}

impl RecordMove {
    /// The longest move, in bytes (`j10-a1/j1` takes 9, the longest legal setup 19).
    pub const MAX_BYTES: usize = 64;

    /// The move of `text`, if it is a turn in the notation of at most
    /// [`RecordMove::MAX_BYTES`] bytes.
    pub fn new(text: &str) -> Result<RecordMove, RecordMoveError> {
        if text.len() > RecordMove::MAX_BYTES {
            return Err(RecordMoveError::TooLong);
        }
        text.parse::<Move>()?;
        Ok(RecordMove(text.into()))
    }

    /// The move of a turn legal in its position, as [`Move`] prints it: a legal turn places at
    /// most 4 shooters and a stone, so its text is far within [`RecordMove::MAX_BYTES`], and
    /// [`Move`] reads back what it prints.
    pub(crate) fn of_legal(mv: Move) -> RecordMove {
        let text = mv.to_string();
        debug_assert!(RecordMove::new(&text).is_ok(), "a legal move's text '{text}' is a record move");
        RecordMove(text.into())
    }

    /// The text, as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether it is the swap (`swap` in any case): White moves again after it.
    pub fn is_swap(&self) -> bool {
        self.0.eq_ignore_ascii_case("swap")
    }
}

impl TryFrom<Move> for RecordMove {
    type Error = RecordMoveError;

    /// The move as [`Move`] prints it; an error for a setup of so many squares that its text
    /// is longer than [`RecordMove::MAX_BYTES`] (no legal one is).
    fn try_from(mv: Move) -> Result<RecordMove, RecordMoveError> {
        RecordMove::new(&mv.to_string())
    }
}

impl FromStr for RecordMove {
    type Err = RecordMoveError;

    /// As [`RecordMove::new`].
    fn from_str(s: &str) -> Result<RecordMove, RecordMoveError> {
        RecordMove::new(s)
    }
}

impl fmt::Display for RecordMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for RecordMove {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// A move hashes and compares as its text, so a `str` finds it in a set and moves join
/// into a text (`moves.join(" ")`).
impl std::borrow::Borrow<str> for RecordMove {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for RecordMove {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for RecordMove {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, Phase, PlayoutPolicy, Position, Rng, Rules, Variant};

    #[test]
    fn turns_in_the_notation_are_kept_as_written() {
        for text in ["d4", "D4", "b2,f6", "h8,C3,f6", "d4-d6/d5", "E2-E6/G8", "c3,e5,g7/d4", "swap", "SWAP", "j10"] {
            let mv = RecordMove::new(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(mv.as_str(), text);
            assert_eq!(mv.to_string(), text);
            assert_eq!(text.parse::<RecordMove>(), Ok(mv));
        }
        assert!(RecordMove::new("Swap").unwrap().is_swap());
        assert!(!RecordMove::new("d4").unwrap().is_swap());
    }

    #[test]
    fn whitespace_and_control_characters_are_refused_quoted() {
        for text in ["d4 ", " d4", "d4\n", "d4\td5", "d4-d6/ d5", "d\u{0}4", "d4\u{1b}[31m", "\u{85}"] {
            assert!(matches!(RecordMove::new(text), Err(RecordMoveError::Notation(_))), "{text:?}");
        }
        let message = RecordMove::new("d4\n").unwrap_err().to_string();
        assert!(message.starts_with("invalid move 'd4\\n': "), "{message}");
    }

    #[test]
    fn what_the_move_text_would_read_otherwise_is_refused() {
        // A comment, a move number, a result token, a tag or comment line, an empty token.
        for text in ["{d4}", "d4}", "1.", "1.d4", "B+", "W+", "*", "[d4", "%d4", "", "d4;d5", "d4!", "é4"] {
            assert!(matches!(RecordMove::new(text), Err(RecordMoveError::Notation(_))), "{text:?}");
        }
    }

    #[test]
    fn text_that_is_no_turn_is_refused() {
        for text in ["hello", "k1", "a11", "d4-", "d4-d6", "d4/d4", "a1,a1", "-", "/", ",", "swap2"] {
            assert!(matches!(RecordMove::new(text), Err(RecordMoveError::Notation(_))), "{text:?}");
        }
    }

    #[test]
    fn over_long_text_is_refused_before_it_is_read() {
        let squares: Vec<String> =
            (0..10).flat_map(|r| (0..10).map(move |f| format!("{}{}", (b'a' + f) as char, r + 1))).collect();
        let long = squares[..22].join(",");
        assert!(long.len() > RecordMove::MAX_BYTES && long.parse::<Move>().is_ok());
        assert_eq!(RecordMove::new(&long), Err(RecordMoveError::TooLong));
        assert_eq!(RecordMove::new(&"x".repeat(1 << 20)), Err(RecordMoveError::TooLong));
        assert_eq!(RecordMoveError::TooLong.to_string(), "a move of more than 64 bytes");
        let fits = squares[..16].join(",");
        assert!(fits.len() <= RecordMove::MAX_BYTES && RecordMove::new(&fits).is_ok());
        let setup: Move = long.parse().unwrap();
        assert_eq!(RecordMove::try_from(setup), Err(RecordMoveError::TooLong));
    }

    #[test]
    fn every_legal_turn_of_random_games_is_a_record_move() {
        let mut rng = Rng::new(7);
        for rules in Rules::all() {
            for size in [7, 9, 10] {
                let mut game = Game::from_position(Position::with_rules(Variant::from_size(size).unwrap(), rules));
                loop {
                    let position = game.position();
                    let next = match position.phase() {
                        Phase::BlackSetup | Phase::WhiteSetup => position.random_setup(&mut rng),
                        Phase::Play => {
                            for mv in position.legal_moves() {
                                assert_eq!(RecordMove::try_from(mv), Ok(RecordMove::of_legal(mv)), "{mv}");
                            }
                            position.random_move(&mut rng, PlayoutPolicy::Uniform)
                        }
                    };
                    let Some(mv) = next else { break };
                    assert_eq!(RecordMove::try_from(mv), Ok(RecordMove::of_legal(mv)), "{mv}");
                    game.play(mv).unwrap();
                }
            }
        }
        // The longest setup text a legal turn can have: White's four 10x10 shooters and a stone.
        let widest: Move = "a10,b10,c10,d10/e10".parse().unwrap();
        assert_eq!(RecordMove::of_legal(widest).as_str().len(), 19);
    }
}
