//! The match referee: `veletas match` plays two protocol engines against each other.
//!
//! The referee talks to engines only through the protocol (GTP 2 framing), as an
//! outside referee would, and keeps the authoritative game with the rules library.
//! [`MatchSettings`] say what to play (the command line builds them from its options) and
//! [`run_match`] plays the match:
//!
//! - [`engine`]: engine processes, every read and write with a deadline and bounded, kill
//!   and restart;
//! - `process`: process groups ended whole (on a signal too), writes with deadlines;
//! - `orphans`: processes that left an engine's group, adopted and ended (Linux);
//! - [`game`]: one refereed game and its adjudication;
//! - [`clock`]: time controls and clocks;
//! - [`openings`]: random setups or openings from a file;
//! - `record_file`: the record file, locked to one writer and never ending in half a game;
//! - `error`: why a match or tournament could not be played ([`RefereeError`]);
//! - [`veletas_rules::record`]: the record file format (`docs/records.md`) and its parser;
//! - [`summary`]: the statistics and reports, on top of [`crate::stats`];
//! - [`words`]: splitting engine command lines without a shell;
//! - [`traffic`]: the protocol log and the engines' stderr log, each line with its engine's name;
//! - `runner`: the one runner of matches (`matches`) and tournaments ([`tournament`]).
//!
//! `docs/match.md` describes the behaviour for users.

pub mod clock;
pub mod engine;
mod error;
pub mod game;
mod matches;
pub mod openings;
mod orphans;
mod process;
pub(crate) mod record_file;
mod runner;
pub mod summary;
pub mod tournament;
pub mod traffic;
pub mod words;

use std::path::{Path, PathBuf};

use crate::output::check_not_input;
use openings::OpeningBook;

use veletas_rules::{RuleSet, Rules};

pub use clock::{ByoYomiSpec, ClockSpec, TimeControl};
pub use error::{MAX_COMMAND_SHOWN, RefereeError};
pub use game::{PlayedGame, Termination};
pub use matches::{dry_run_match, run_match};
pub use orphans::{adopt_orphans, end_orphans};
pub use process::handle_signals;
pub use record_file::today;
pub use runner::GameResult;
pub use summary::{GameOutcome, MatchSummary, SprtSpec};
pub use veletas_rules::record::{GameRecord, RecordError, parse_complete_records, parse_records};

/// What `veletas match` plays: its own settings and those it shares with `veletas
/// tournament` (the command line's `MatchArgs` become these).
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSettings {
    /// The engines' command lines (`[NAME=]CMD ARGS`): with [`CommonSettings::engines_file`],
    /// two in all; engine 1 first, whose side the scores are reported from.
    pub engines: Vec<String>,
    /// Number of games, even (at most [`MAX_GAMES`]): consecutive games form pairs playing
    /// one opening with colours swapped.
    pub games: usize,
    /// Time odds: every time of engine 1's clock multiplied by this factor.
    pub time_odds: f64,
    /// The Event tag of the records.
    pub event: String,
    /// The settings shared with `tournament`.
    pub common: CommonSettings,
}

/// The settings `veletas match` and `veletas tournament` share: the games' rules and
/// openings, time, concurrency, the record file and logs (docs/match.md names the
/// options they come from).
#[derive(Clone, Debug, PartialEq)]
pub struct CommonSettings {
    /// An engines file (TOML); its engines come before those given one by one.
    pub engines_file: Option<PathBuf>,
    /// An option for every engine (`KEY=VALUE`).
    pub each: Vec<String>,
    /// An option for one named engine (`NAME:KEY=VALUE`), overriding `each`.
    pub options: Vec<String>,
    /// Stop when this SPRT of the first engine against the second decides.
    pub sprt: Option<SprtSpec>,
    /// List the games this process would play instead of playing them.
    pub dry_run: bool,
    /// Board size (default 10, or the size of the openings file).
    pub size: Option<u8>,
    /// The rule set.
    pub rules: RuleSet,
    /// The no-corners option.
    pub no_corners: bool,
    /// The claimed-block option of the modern rules.
    pub claimed_block: bool,
    /// Start every pair from a random-setup position instead of random setup turns.
    pub random_setup: bool,
    /// Fixed time per move, in seconds.
    pub movetime: Option<f64>,
    /// A clock per player.
    pub clock: Option<ClockSpec>,
    /// Canadian byo-yomi after the clock's main time.
    pub byoyomi: Option<ByoYomiSpec>,
    /// Seconds a move may exceed the clock before it loses on time.
    pub margin: f64,
    /// Seconds an engine has to answer any command other than genmove.
    pub command_timeout: f64,
    /// Games played at the same time (1 to [`MAX_CONCURRENCY`]).
    pub concurrency: usize,
    /// The openings file and its options (`order=`, `start=`, `plies=`), as given.
    pub openings: Vec<String>,
    /// Seed of the random openings.
    pub seed: u64,
    /// The record file (appended to; play resumes from what it holds).
    pub record: Option<PathBuf>,
    /// Require the record file to exist.
    pub resume: bool,
    /// Empty the record file instead of resuming.
    pub overwrite: bool,
    /// Wait for another referee writing the record file instead of refusing at once.
    pub wait: bool,
    /// Where the engines' stderr goes (default: see [`CommonSettings::engine_log_path`]).
    pub engine_log: Option<PathBuf>,
    /// Run the required checks of `veletas check` on every engine before the first game.
    pub check: bool,
    /// The protocol log file.
    pub log_protocol: Option<PathBuf>,
    /// Print the standings every N games (and at the end).
    pub rating_interval: Option<u64>,
    /// No line per game, only the summary.
    pub quiet: bool,
    /// No progress line (shown only when stderr is a terminal, `-q` or not).
    pub no_progress: bool,
    /// The HTML report written at the end.
    pub report: Option<PathBuf>,
    /// The live HTML page rewritten while games run.
    pub live: Option<PathBuf>,
    /// Record the playouts of each first step at the root of engines that list
    /// `genmove_analyze_steps` (asking for their moves with it).
    pub record_steps: bool,
}

impl Default for CommonSettings {
    /// The settings of the command line's defaults: classic rules, 1 s per move, 0.1 s
    /// margin, 10 s per command, one game at a time, seed 1, nothing written.
    fn default() -> CommonSettings {
        CommonSettings {
            engines_file: None,
            each: Vec::new(),
            options: Vec::new(),
            sprt: None,
            dry_run: false,
            size: None,
            rules: RuleSet::Classic,
            no_corners: false,
            claimed_block: false,
            random_setup: false,
            movetime: None,
            clock: None,
            byoyomi: None,
            margin: 0.1,
            command_timeout: 10.0,
            concurrency: 1,
            openings: Vec::new(),
            seed: 1,
            record: None,
            resume: false,
            overwrite: false,
            wait: false,
            engine_log: None,
            check: false,
            log_protocol: None,
            rating_interval: None,
            quiet: false,
            no_progress: false,
            report: None,
            live: None,
            record_steps: false,
        }
    }
}

impl CommonSettings {
    /// Checks, before any game, that the pages of `--report` and `--live` can be written
    /// and that no output (`--report`, `--live`, the engine log `log`) is the same file as
    /// an input (the record file `record`, `--openings`, `inputs`) or as another output:
    /// the error is one line naming both.
    pub fn check_outputs(
        &self,
        record: Option<&Path>,
        log: Option<&Path>,
        inputs: &[(&str, &Path)],
    ) -> Result<(), RefereeError> {
        for (option, path) in [("--report", &self.report), ("--live", &self.live)] {
            if let Some(path) = path {
                crate::report::check_writable(option, path).map_err(RefereeError::Output)?;
            }
        }
        let mut taken: Vec<(&str, &Path)> = inputs.to_vec();
        taken.extend(record.map(|path| ("--record", path)));
        // The openings file is the first word of --openings (its options follow it).
        taken.extend(
            self.openings.first().map(|file| ("--openings", Path::new(file.strip_prefix("file=").unwrap_or(file)))),
        );
        taken.extend(self.engines_file.as_deref().map(|path| ("--engines", path)));
        let outputs = [
            ("--engine-log", log),
            ("--log-protocol", self.log_protocol.as_deref()),
            ("--report", self.report.as_deref()),
            ("--live", self.live.as_deref()),
        ];
        for (option, path) in outputs {
            if let Some(path) = path {
                check_not_input((option, path), &taken).map_err(RefereeError::Usage)?;
                taken.push((option, path));
            }
        }
        Ok(())
    }

    /// The warning for a `-j` above the machine's cores (`cores`), if it is: each game
    /// runs two engines, and an engine waiting for a core still spends its clock.
    pub fn concurrency_warning(&self, cores: usize) -> Option<String> {
        (self.concurrency > cores).then(|| {
            format!(
                "-j {} plays more games at once than this machine has cores ({cores}): engines wait for a core \
                 while their clocks run, so timed results suffer; -j {cores} or less is safer",
                self.concurrency
            )
        })
    }

    /// Logs [`CommonSettings::concurrency_warning`] for this machine, once, before any game.
    pub fn warn_about_concurrency(&self) {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        if let Some(warning) = self.concurrency_warning(cores) {
            log::warn!("{warning}");
        }
    }

    /// The rules the games are played under, if the options go with the rule set.
    pub fn rules(&self) -> Result<Rules, String> {
        Rules::new(self.rules, self.no_corners, self.claimed_block).map_err(|e| format!("--claimed-block: {e}"))
    }

    /// The openings these settings give (`--openings`, else random ones of `--size`, the
    /// rules, `--random-setup` and `--seed`).
    pub fn opening_book(&self) -> Result<OpeningBook, RefereeError> {
        let rules = self.rules().map_err(RefereeError::Usage)?;
        // A file named by an option that is not an openings file is the option's fault.
        OpeningBook::new(&self.openings, self.size, rules, self.random_setup, self.seed)
            .map_err(|e| RefereeError::Usage(e.to_string()))
    }

    /// The engines' log file: `--engine-log`, else the record file's name plus `.engines.log`.
    pub fn engine_log_path(&self) -> Option<PathBuf> {
        self.engine_log.clone().or_else(|| self.record.as_deref().map(engine_log_beside))
    }
}

/// The default engine log of a record file: its name plus `.engines.log`.
pub fn engine_log_beside(record: &std::path::Path) -> PathBuf {
    let mut name = record.as_os_str().to_os_string();
    name.push(".engines.log");
    PathBuf::from(name)
}

impl MatchSettings {
    /// The rules the match is played under, if the options go with the rule set.
    pub fn rules(&self) -> Result<Rules, String> {
        self.common.rules()
    }
}

/// The most games one match or tournament schedules (`--games`, and games per pair times
/// pairs times rounds): every planned game costs the referee a few bytes while it runs, so
/// a bound keeps an absurd count from allocating gigabytes before the first game.
pub const MAX_GAMES: usize = 1_000_000;

/// The most games played at the same time (`-j`).
pub const MAX_CONCURRENCY: usize = 256;

/// A count of games (`--games`, `--games-per-pair`, `--rounds`): a whole number from 0
/// to [`MAX_GAMES`] (what else a count must be, even or positive, its command checks).
pub fn parse_count(text: &str) -> Result<usize, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if n <= MAX_GAMES as u64 => Ok(n as usize),
        Ok(_) => Err(format!("{} is more than {MAX_GAMES} games", veletas_rules::quoted(text))),
        Err(_) if text.trim().chars().all(|c| c.is_ascii_digit()) && !text.trim().is_empty() => {
            Err(format!("{} is more than {MAX_GAMES} games", veletas_rules::quoted(text)))
        }
        Err(_) => Err(format!("'{}' is not a whole number", veletas_rules::quoted(text))),
    }
}

/// A number of games at the same time (`-j`): from 1 to [`MAX_CONCURRENCY`].
pub fn parse_concurrency(text: &str) -> Result<usize, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if (1..=MAX_CONCURRENCY as u64).contains(&n) => Ok(n as usize),
        _ => Err(format!("'{}' is not a number of games from 1 to {MAX_CONCURRENCY}", veletas_rules::quoted(text))),
    }
}

/// A time-odds factor (`--time-odds F`, the engine option `odds=F`): from 0.01 to 100.
pub fn parse_odds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && (0.01..=100.0).contains(&x) => Ok(x),
        _ => Err(format!("'{}' is not a factor between 0.01 and 100", veletas_rules::quoted(text))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_games_at_once_than_cores_is_warned_about_and_no_more_is_not() {
        let args = |j: usize| CommonSettings { concurrency: j, ..CommonSettings::default() };
        assert_eq!(args(2).concurrency_warning(2), None);
        assert_eq!(args(1).concurrency_warning(2), None);
        let warning = args(8).concurrency_warning(2).expect("a warning");
        assert!(warning.starts_with("-j 8 plays more games at once than this machine has cores (2)"), "{warning}");
        assert!(!warning.contains('\n'));
    }
}
