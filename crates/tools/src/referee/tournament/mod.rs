//! `veletas tournament`: a scheduler of referee games for a whole field of engines.
//!
//! It is not a second referee: every game is played by [`crate::referee::game::play_game`],
//! with the match's adjudication, clocks, openings and record format. What it adds:
//!
//! - the engines, from `--engine NAME=CMD`, an engines file, `--each` and `--option`, come
//!   from [`crate::referee::field`], which `match` reads them with too;
//! - [`schedule`]: which engines meet in game `i`, a pure function of the command, so
//!   games can be played in any order, whole or in shards (`--shard K/N`);
//! - `run`: workers, the record file and resume, knockout rounds, the output;
//! - the standings, crosstable and LOS matrix come from [`crate::ratings`].
//!
//! `docs/tournament.md` describes the behaviour for users.

mod end;
mod growth;
mod knockout;
mod run;
pub mod schedule;
mod shard;

use crate::referee::field::EngineFlags;
pub use crate::referee::runner::{GameResult, ScheduledGame};
pub use end::{StandingsError, summary};
pub use knockout::{KnockoutMatch, KnockoutReport};
pub use run::{TournamentReport, dry_run, run_tournament};
pub use schedule::{Format, FormatError, Schedule, ScheduleError};
pub use shard::{ShardError, ShardSpec, ShardSpecError};

use std::path::{Path, PathBuf};

use crate::referee::error::RefereeError;
use crate::referee::field::EngineDef;
use crate::referee::plan::CommonPlan;

/// What `veletas tournament` plays, validated: the engines as typed definitions in seeding
/// order (gauntlet: the first plays all others), the schedule (format, games per pair,
/// rounds, this process's shard), the record file and engine log of the shard, the
/// standings' anchor, the records' Event tag and the shared plan.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentPlan {
    engines: Vec<EngineDef>,
    engines_file: Option<PathBuf>,
    games: run::Plan,
    anchor: Option<String>,
    head_to_head: bool,
    event: String,
    common: CommonPlan,
}

impl TournamentPlan {
    /// The tournament of `engines` (at least two, over the default time control of
    /// `common`) in `format`, `games_per_pair` games each pair plays per round (even; in a
    /// knockout, each match's games before tie-break pairs), the whole schedule played
    /// `rounds` times, only `shard` of it when given. The Event tag is `veletas tournament`
    /// and the ratings are not anchored until the `with_` methods say otherwise.
    pub fn new(
        engines: EngineFlags,
        format: Format,
        games_per_pair: usize,
        rounds: usize,
        shard: Option<ShardSpec>,
        common: CommonPlan,
    ) -> Result<TournamentPlan, RefereeError> {
        let (games, defs) = run::Plan::new(&engines, format, games_per_pair, rounds, shard, &common)?;
        Ok(TournamentPlan {
            engines: defs,
            engines_file: engines.file().map(Path::to_path_buf),
            games,
            anchor: None,
            head_to_head: false,
            event: "veletas tournament".into(),
            common,
        })
    }

    /// With the records' Event tag `event`.
    pub fn with_event(self, event: String) -> TournamentPlan {
        TournamentPlan { event, ..self }
    }

    /// With the standings anchored by `anchor` (`NAME=RATING`, see
    /// [`crate::ratings::files::parse_anchor`]; the name is checked once the engines are
    /// named), and each pair's head-to-head score printed when `head_to_head`.
    pub fn with_standings(self, anchor: Option<String>, head_to_head: bool) -> Result<TournamentPlan, RefereeError> {
        if let Some(text) = &anchor {
            crate::ratings::files::parse_anchor(text).map_err(|e| RefereeError::Usage(e.to_string()))?;
        }
        Ok(TournamentPlan { anchor, head_to_head, ..self })
    }

    /// The engines, in seeding order.
    pub fn engines(&self) -> &[EngineDef] {
        &self.engines
    }

    /// The standings' anchor (`NAME=RATING`).
    pub fn anchor(&self) -> Option<&str> {
        self.anchor.as_deref()
    }

    /// Whether each pair's head-to-head score is printed.
    pub fn head_to_head(&self) -> bool {
        self.head_to_head
    }

    /// The records' Event tag.
    pub fn event(&self) -> &str {
        &self.event
    }

    /// The plan shared with matches.
    pub fn common(&self) -> &CommonPlan {
        &self.common
    }
}
