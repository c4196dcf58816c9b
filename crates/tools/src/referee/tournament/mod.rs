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

pub mod field;
mod growth;
mod knockout;
mod report;
mod run;
pub mod schedule;
mod shard;

pub use crate::referee::runner::GameResult;
pub use knockout::{KnockoutMatch, KnockoutReport};
pub use report::summary;
pub use run::{TournamentReport, dry_run, run_tournament};
pub use schedule::{Format, Schedule, ScheduledGame};
pub use shard::ShardSpec;

use crate::referee::CommonArgs;

/// Options of `veletas tournament`.
#[derive(clap::Args, Clone, Debug, PartialEq)]
#[command(
    after_help = "Examples:\n  veletas tournament --engine 'a=veletas --seed 1' --engine 'b=veletas --player uct' \
--engine 'c=veletas --player greedy' --games-per-pair 4 --size 7 --movetime 0.1 -j 2 --record t.txt\n  \
veletas tournament --engines engines.toml --format gauntlet --rounds 2 --record t.txt\n  \
veletas tournament ... --shard 2/3 --record shard-{shard}.txt   # then: veletas ratings shard-*.txt\n\n\
See docs/tournament.md."
)]
pub struct TournamentArgs {
    /// An engine: `NAME=CMD ARGS` (NAME: letters, digits, `_`, `.`, `-`) or `CMD ARGS`
    /// (named by its `name` and `version` replies, numbered when repeated). Repeat it for
    /// every engine; the order is the seeding (gauntlet: the first plays all others).
    #[arg(long = "engine", value_name = "[NAME=]CMD ARGS")]
    pub engines: Vec<String>,
    /// round-robin (every pair), gauntlet (the first engine against each other) or knockout.
    #[arg(long, default_value = "round-robin")]
    pub format: Format,
    /// Games each pair plays per round (even: each opening twice, colours swapped); in a
    /// knockout, the games of each match before tie-break pairs.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = crate::referee::parse_count)]
    pub games_per_pair: usize,
    /// How many times the whole schedule is played (round robin and gauntlet). The whole
    /// schedule holds at most 1,000,000 games.
    #[arg(long, value_name = "R", default_value_t = 1, value_parser = crate::referee::parse_count)]
    pub rounds: usize,
    /// Play only shard K of N: the games whose index i has i mod N = K - 1. K may be
    /// `auto`: from $SLURM_ARRAY_TASK_ID (minus $SLURM_ARRAY_TASK_MIN, plus 1) or
    /// Kubernetes' $JOB_COMPLETION_INDEX (plus 1). `{shard}` in --record and
    /// --engine-log is replaced by K.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<ShardSpec>,
    /// Anchor the ratings: NAME=RATING (default: the field's mean is 0). Checked when the
    /// options are read (a rating from -100000 to 100000), the name once the engines are named.
    #[arg(long, value_name = "NAME=RATING", value_parser = checked_anchor)]
    pub anchor: Option<String>,
    /// Also print each pair's head-to-head score and Elo with its 95% interval.
    #[arg(long)]
    pub head_to_head: bool,
    /// The Event tag of the records.
    #[arg(long, default_value = "veletas tournament")]
    pub event: String,
    /// The options shared with `veletas match`.
    #[command(flatten)]
    pub common: CommonArgs,
}

impl TournamentArgs {
    /// Parses options as on the command line (without the program and subcommand names).
    pub fn parse_from<I, T>(args: I) -> Result<TournamentArgs, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        crate::referee::parse_options("veletas tournament", args)
    }
}

/// `--anchor`: kept as written once [`crate::ratings::files::parse_anchor`] accepts it.
fn checked_anchor(text: &str) -> Result<String, String> {
    crate::ratings::files::parse_anchor(text).map(|_| text.to_string())
}
