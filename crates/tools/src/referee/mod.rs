//! The match referee: `veletas match` plays two protocol engines against each other.
//!
//! The referee talks to engines only through the protocol (GTP 2 framing), as an
//! outside referee would, and keeps the authoritative game with the rules library.
//! A [`MatchPlan`] says what to play (the command line validates its options into one,
//! `plan`) and [`run_match`] plays the match:
//!
//! - [`engine`]: engine processes, every read and write with a deadline and bounded, kill
//!   and restart;
//! - `process`: process groups ended whole (on a signal too), writes with deadlines;
//! - `orphans`: processes that left an engine's group, adopted and ended (Linux);
//! - [`game`]: one refereed game and its adjudication;
//! - [`clock`]: time controls and clocks;
//! - [`openings`]: random setups or openings from a file;
//! - `record_file`: the record file, locked to one writer and never ending in half a game;
//! - `plan`: the options validated once into types ([`CommonPlan`], [`MatchPlan`]);
//! - `error`: why a match or tournament could not be played ([`RefereeError`]);
//! - [`veletas_rules::record`]: the record file format (`docs/records.md`) and its parser;
//! - [`summary`]: the statistics and reports, on top of [`crate::stats`];
//! - [`field`]: the engines of a match or tournament, from `--engine`, an engines file, `--each`
//!   and `--option`;
//! - `limits`: the bounds of a match's counts ([`MAX_GAMES`], [`MAX_CONCURRENCY`]) and their parsers;
//! - [`words`]: splitting engine command lines without a shell;
//! - [`traffic`]: the protocol log and the engines' stderr log, each line with its engine's name;
//! - `runner`: the one runner of matches (`matches`) and tournaments ([`tournament`]).
//!
//! `docs/match.md` describes the behaviour for users.

pub mod clock;
pub mod engine;
pub(crate) mod error;
pub mod field;
pub mod game;
mod limits;
mod matches;
pub mod openings;
mod orphans;
mod plan;
mod process;
pub(crate) mod record_file;
mod runner;
pub mod summary;
pub mod tournament;
pub mod traffic;
pub mod words;

pub use clock::{ByoYomiSpec, ClockSpec, TimeControl};
pub use error::{MAX_COMMAND_SHOWN, RefereeError};
pub use field::EngineFlags;
pub use game::{PlayedGame, Termination};
pub use limits::{
    ConcurrencyError, CountError, MAX_CONCURRENCY, MAX_GAMES, OddsError, parse_concurrency, parse_count, parse_odds,
};
pub use matches::{dry_run_match, run_match};
pub use orphans::{adopt_orphans, end_orphans};
pub use plan::{CommonPlan, Existing, MatchPlan, RecordPlan, engine_log_beside};
pub use process::handle_signals;
pub use record_file::today;
pub use runner::GameResult;
pub use summary::{GameOutcome, MatchSummary, SprtSpec};
pub use tournament::TournamentPlan;
pub use veletas_rules::record::{GameRecord, RecordError, parse_complete_records, parse_records};
