//! `veletas tournament`: a scheduler of referee games for a whole field of engines.
//!
//! It is not a second referee: every game is played by [`crate::referee::game::play_game`],
//! with the match's adjudication, clocks, openings and record format. What it adds:
//!
//! - [`field`]: the engines, from `--engine NAME=CMD`, an engines file, `--each` and
//!   `--option`;
//! - [`schedule`]: which engines meet in game `i`, a pure function of the command, so
//!   games can be played in any order, whole or in shards (`--shard K/N`);
//! - `run`: workers, the record file and resume, knockout rounds, the output;
//! - the standings, crosstable and LOS matrix come from [`crate::ratings`].
//!
//! `docs/tournament.md` describes the behaviour for users.

mod end;
pub mod field;
mod growth;
mod knockout;
mod run;
pub mod schedule;
mod shard;

pub use crate::referee::runner::{GameResult, ScheduledGame};
pub use end::summary;
pub use knockout::{KnockoutMatch, KnockoutReport};
pub use run::{TournamentReport, dry_run, run_tournament};
pub use schedule::{Format, Schedule};
pub use shard::ShardSpec;

use crate::referee::CommonSettings;

/// What `veletas tournament` plays (the command line's `TournamentArgs` become these).
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentSettings {
    /// The engines (`[NAME=]CMD ARGS`), in seeding order (gauntlet: the first plays all
    /// others).
    pub engines: Vec<String>,
    /// Round robin, gauntlet or knockout.
    pub format: Format,
    /// Games each pair plays per round (in a knockout, each match's games before tie-break
    /// pairs).
    pub games_per_pair: usize,
    /// How many times the whole schedule is played (round robin and gauntlet).
    pub rounds: usize,
    /// Play only this shard of the games.
    pub shard: Option<ShardSpec>,
    /// Anchor the ratings: `NAME=RATING` (see [`crate::ratings::files::parse_anchor`]).
    pub anchor: Option<String>,
    /// Also print each pair's head-to-head score.
    pub head_to_head: bool,
    /// The Event tag of the records.
    pub event: String,
    /// The settings shared with `veletas match`.
    pub common: CommonSettings,
}
