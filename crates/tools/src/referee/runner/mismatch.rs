//! Why a recorded game is not the game this run plays under its identity: the errors of
//! the resume check ([`super::resume::recorded_result`]) and of the competitions' own
//! checks ([`super::Competition::check_place`], [`super::Competition::check_engines`]).

use veletas_rules::Rules;
use veletas_rules::record::RecordError;

/// Why a recorded game is not in its place by what else fixes it
/// ([`super::Competition::check_place`]): the time controls, or a tournament's schedule.
#[derive(Debug, thiserror::Error)]
pub enum PlaceError {
    /// Another time control (`round`: a match names the game's round first).
    #[error(
        "{}the record was made with time control '{}', this run has '{expected}'",
        round_prefix(*.round),
        .recorded.as_deref().unwrap_or("none")
    )]
    TimeControl {
        /// The match's round, from 1.
        round: Option<usize>,
        /// The time controls recorded, if any.
        recorded: Option<String>,
        /// This run's.
        expected: String,
    },
    /// A tag that does not read (`round`: a match names the game's round first).
    #[error("{}{source}", round_prefix(*.round))]
    Record {
        /// The match's round, from 1.
        round: Option<usize>,
        /// Why.
        source: RecordError,
    },
    /// A tournament's game of another fingerprint without a `Schedule` tag.
    #[error("it has no Schedule tag")]
    NoSchedule,
    /// A tournament's game whose `Schedule` tag does not place it here (the tournament's
    /// reason: a tag that does not read, or settings that move it).
    #[error(transparent)]
    Schedule(Box<dyn std::error::Error + Send + Sync>),
}

/// `round N: ` before a match's reasons.
fn round_prefix(round: Option<usize>) -> String {
    round.map_or(String::new(), |round| format!("round {round}: "))
}

/// A recorded game that names other engines than this run has on its colours
/// ([`super::Competition::check_engines`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EnginesMismatch {
    /// A match's `BlackEngine` tag names the other engine (or none).
    #[error("engine {engine} plays Black, not engine {}", .recorded.as_deref().unwrap_or("?"))]
    BlackEngine {
        /// This run's engine on Black, from 1.
        engine: usize,
        /// The tag's value.
        recorded: Option<String>,
    },
    /// A tournament's `Black` or `White` tag names another engine.
    #[error("{side} is '{recorded}', this tournament plays '{name}' there")]
    Name {
        /// The tag.
        side: &'static str,
        /// Its value.
        recorded: String,
        /// This run's engine there.
        name: String,
    },
}

/// Why a recorded game is not the game the schedule plans under its identity `id`
/// (`round 3`, `game 3`) in this `noun` (`match`, `tournament`).
#[derive(Debug, thiserror::Error)]
pub enum RecordedGameError {
    /// Another board size.
    #[error("{id}: the record was made with --size {recorded}, this run has --size {size}")]
    Size {
        /// The game.
        id: String,
        /// The size recorded.
        recorded: String,
        /// This run's.
        size: String,
    },
    /// Other rules.
    #[error("game {id} was played under the {recorded} rules, this {noun} plays {rules}")]
    Rules {
        /// The game.
        id: String,
        /// The competition.
        noun: &'static str,
        /// The rules recorded.
        recorded: Rules,
        /// This run's.
        rules: Rules,
    },
    /// A tag that does not read.
    #[error("{id}: {source}")]
    Record {
        /// The game.
        id: String,
        /// Why.
        source: RecordError,
    },
    /// What else fixes its place differs.
    #[error(transparent)]
    Place(#[from] PlaceError),
    /// Another opening.
    #[error("{id} has opening '{}', this {noun} plays '{opening}' there", veletas_rules::quoted(.recorded))]
    Opening {
        /// The game.
        id: String,
        /// The competition.
        noun: &'static str,
        /// The opening recorded.
        recorded: String,
        /// This run's.
        opening: String,
    },
    /// Other engines (`swapped`: after a recorded swap).
    #[error("{id}{}: {source}", if *.swapped { " after the swap" } else { "" })]
    Engines {
        /// The game.
        id: String,
        /// Whether the record has a swap.
        swapped: bool,
        /// Why.
        source: EnginesMismatch,
    },
    /// Neither a result nor void.
    #[error("{id} has no result")]
    NoResult {
        /// The game.
        id: String,
    },
}

/// A record file that holds games of another competition, as a resume refuses it: the
/// game's `position` in the file (from 1) and why it is not this run's.
#[derive(Debug, thiserror::Error)]
#[error(
    "holds games of a different {noun} (game {position} of the file: {source}); use --overwrite or another --record"
)]
pub struct DifferentGames {
    /// The competition (`match`, `tournament`).
    pub noun: &'static str,
    /// The game's position in the file, from 1.
    pub position: usize,
    /// Why it is not this run's.
    pub source: RecordedGameError,
}
