//! The tags of records: every tag name in one place ([`tag`]), and the typed values of
//! the tags that carry more than text ([`Termination`]; the time controls are in
//! [`super::time`], the rules in [`crate::Rules`]). `docs/records.md` describes each tag.

use std::fmt;
use std::str::FromStr;

/// The names of the tags the project writes and reads. A reader looks a tag up by one of
/// these (or by any other name: unknown tags are kept verbatim).
pub mod tag {
    /// The event: `--event` (default `veletas match`).
    pub const EVENT: &str = "Event";
    /// The day the game finished, UTC, `YYYY.MM.DD`.
    pub const DATE: &str = "Date";
    /// The game's number in a match (from 1), or its round in a tournament.
    pub const ROUND: &str = "Round";
    /// A tournament game's id.
    pub const GAME: &str = "Game";
    /// The fingerprint of a tournament's schedule (the one it started with, when it grew).
    pub const TOURNAMENT: &str = "Tournament";
    /// The settings that fix a tournament's schedule when the game was played:
    /// `round-robin; engines 3; games-per-pair 2; rounds 1; openings random seed 1`.
    pub const SCHEDULE: &str = "Schedule";
    /// Black's engine or player (after a swap: the one that played Black after it).
    pub const BLACK: &str = "Black";
    /// White's engine or player.
    pub const WHITE: &str = "White";
    /// Which `--engine` of a match played Black: `1` or `2`.
    pub const BLACK_ENGINE: &str = "BlackEngine";
    /// The board size.
    pub const SIZE: &str = "Size";
    /// The rules, when not plain classic.
    pub const RULES: &str = "Rules";
    /// Present when White swapped: who made Black's setup.
    pub const SWAP: &str = "Swap";
    /// The opening, in the openings-file form.
    pub const OPENING: &str = "Opening";
    /// The start position, when not the empty board.
    pub const START: &str = "Start";
    /// The time control ([`super::super::time::TimeControls`]).
    pub const TIME_CONTROL: &str = "TimeControl";
    /// The result, as the result token.
    pub const RESULT: &str = "Result";
    /// How the game ended ([`super::Termination`]).
    pub const TERMINATION: &str = "Termination";
    /// What happened, for an adjudicated game.
    pub const REASON: &str = "Reason";
    /// Black's engine's answer to `final_score`.
    pub const FINAL_SCORE_BLACK: &str = "FinalScoreBlack";
    /// White's engine's answer to `final_score`.
    pub const FINAL_SCORE_WHITE: &str = "FinalScoreWhite";
    /// Which engine's `final_score` disagreed with the result, and what it said.
    pub const DISAGREEMENT: &str = "Disagreement";
    /// The seconds Black's engine spent on `genmove` (under a clock).
    pub const TIME_USED_BLACK: &str = "TimeUsedBlack";
    /// The seconds White's engine spent on `genmove` (under a clock).
    pub const TIME_USED_WHITE: &str = "TimeUsedWhite";
    /// A reviewed game (`veletas analyse-games`): the reviewing engine's command line and
    /// budget, whose win rates the turns' annotations hold: `veletas --playouts 400`, or
    /// `veletas; movetime 1`.
    pub const ANALYSIS: &str = "Analysis";
    /// A reviewed game's number among the games of the review's record files (from 1).
    pub const ANALYSIS_GAME: &str = "AnalysisGame";
    /// A reviewed game's reviewing engine, by its replies to `name` and `version`.
    pub const ANALYSIS_ENGINE: &str = "AnalysisEngine";
}

/// How a game ended: the `Termination` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    /// A player won on the board.
    Normal,
    /// The loser answered `genmove` with `resign`.
    Resignation,
    /// The loser played an illegal move.
    IllegalMove,
    /// The loser answered `genmove` with `?`.
    GenmoveError,
    /// The loser wrote something that is not a well-formed reply, or a reply to
    /// `genmove` that is not a move.
    MalformedReply,
    /// The loser's process ended (crash, exit, closed output) or could not be started.
    Crash,
    /// The loser's move took longer than its clock allowed plus the margin.
    TimeForfeit,
    /// The loser did not answer another command within the command timeout.
    Timeout,
    /// The loser refused another command (`boardsize`, `play`, ...) with `?`.
    RejectedCommand,
}

impl Termination {
    /// Every termination, in report order.
    pub const ALL: [Termination; 9] = [
        Termination::Normal,
        Termination::Resignation,
        Termination::IllegalMove,
        Termination::GenmoveError,
        Termination::MalformedReply,
        Termination::Crash,
        Termination::TimeForfeit,
        Termination::Timeout,
        Termination::RejectedCommand,
    ];

    /// The name used in records and reports, e.g. `time forfeit`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Resignation => "resignation",
            Termination::IllegalMove => "illegal move",
            Termination::GenmoveError => "genmove error",
            Termination::MalformedReply => "malformed reply",
            Termination::Crash => "crash",
            Termination::TimeForfeit => "time forfeit",
            Termination::Timeout => "timeout",
            Termination::RejectedCommand => "rejected command",
        }
    }

    /// Whether a game that ended this way before either engine had made a move is void
    /// (no result): every failure to take part (an engine that could not be set up,
    /// crashed, timed out, refused or garbled a command or its move). A win on the board,
    /// a resignation and an illegal move are decisions about a move and always count.
    pub const fn voids_before_a_move(self) -> bool {
        !matches!(self, Termination::Normal | Termination::Resignation | Termination::IllegalMove)
    }

    /// The termination named `name` (as written by [`Termination::as_str`]).
    pub fn from_name(name: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text that names no termination (the text quoted).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown termination '{0}'")]
pub struct ParseTerminationError(String);

impl FromStr for Termination {
    type Err = ParseTerminationError;
    fn from_str(s: &str) -> Result<Termination, ParseTerminationError> {
        Termination::from_name(s).ok_or_else(|| ParseTerminationError(crate::quoted(s)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminations_read_back_by_name_and_others_are_refused_quoted() {
        for termination in Termination::ALL {
            assert_eq!(termination.as_str().parse(), Ok(termination));
        }
        assert_eq!("draw\u{1b}".parse::<Termination>().unwrap_err().to_string(), "unknown termination 'draw\\u{1b}'");
    }
}
