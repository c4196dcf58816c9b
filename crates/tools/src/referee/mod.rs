//! The match referee: `veletas match` plays two protocol engines against each other.
//!
//! The referee talks to engines only through the protocol (GTP 2 framing), as an
//! outside referee would, and keeps the authoritative game with the rules library.
//! [`MatchArgs`] are the command-line options (a clap `Args` struct to flatten into a
//! subcommand) and [`run_match`] plays the match:
//!
//! - [`engine`]: engine processes, every read and write with a deadline and bounded, kill
//!   and restart;
//! - `process`: process groups ended whole (on a signal too), writes with deadlines;
//! - [`game`]: one refereed game and its adjudication;
//! - [`clock`]: time controls and clocks;
//! - [`openings`]: random setups or openings from a file;
//! - `record_file`: the record file, locked to one writer and never ending in half a game;
//! - [`veletas_rules::record`]: the record file format (`docs/records.md`) and its parser;
//! - [`summary`]: the statistics and reports, on top of [`crate::stats`];
//! - [`words`]: splitting engine command lines without a shell;
//! - [`traffic`]: the protocol log and the engines' stderr log, each line with its engine's name;
//! - `runner`: the one runner of matches (`matches`) and tournaments ([`tournament`]).
//!
//! `docs/match.md` describes the behaviour for users.

pub mod clock;
pub mod engine;
pub mod game;
mod matches;
pub mod openings;
mod process;
mod record_file;
mod runner;
pub mod summary;
pub mod tournament;
pub mod traffic;
pub mod words;

use std::path::{Path, PathBuf};

use crate::output::check_not_input;

use veletas_rules::{RuleSet, Rules};

pub use clock::{ByoYomiSpec, ClockSpec, TimeControl};
pub use game::{PlayedGame, Termination};
pub use matches::{dry_run_match, run_match};
pub use runner::{GameResult, today};
pub use summary::{GameOutcome, MatchSummary, SprtSpec};
pub use veletas_rules::record::{GameRecord, RecordError, parse_complete_records, parse_records};

/// Options of `veletas match`.
#[derive(clap::Args, Clone, Debug, PartialEq)]
#[command(after_help = "Example: veletas match --engine 'veletas --seed 1' --engine 'veletas --seed 2' \
                        --games 100 --size 7 --movetime 0.1 --concurrency 2 --record games.txt")]
pub struct MatchArgs {
    /// An engine command line, split like a shell would but run without one; give it
    /// twice (engine 1, then engine 2), or with --engines so that there are two in all.
    /// Scores are reported from engine 1's side.
    /// `NAME=CMD ARGS` names the engine (letters, digits, `_`, `.`, `-`); otherwise its
    /// `name` and `version` replies name it.
    #[arg(long = "engine", value_name = "[NAME=]CMD ARGS", required_unless_present = "engines_file")]
    pub engines: Vec<String>,
    /// Number of games, even (at most 1,000,000); consecutive games form pairs playing one
    /// opening with colours swapped.
    #[arg(long, short = 'n', default_value_t = 2, value_parser = parse_count)]
    pub games: usize,
    /// Time odds: every time of engine 1's clock multiplied by FACTOR (e.g. 2 gives it twice
    /// the time of engine 2). Clocks belong to colours, so after a modern swap each engine keeps
    /// the clock of the colour it now plays.
    #[arg(long, value_name = "FACTOR", default_value = "1", value_parser = parse_odds)]
    pub time_odds: f64,
    /// The Event tag of the records.
    #[arg(long, default_value = "veletas match")]
    pub event: String,
    /// The options `match` and `tournament` share.
    #[command(flatten)]
    pub common: CommonArgs,
}

/// The options `veletas match` and `veletas tournament` share: the games' rules and
/// openings, time, concurrency, the record file and logs.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct CommonArgs {
    /// An engines file (TOML): `[[engine]]` tables with name, command, dir, init, restart,
    /// movetime, clock, byoyomi, odds, and an optional `[each]` table. Its engines come
    /// before those of --engine.
    #[arg(long = "engines", value_name = "FILE")]
    pub engines_file: Option<PathBuf>,
    /// An option for every engine: restart=on|off, dir=PATH, init=COMMAND, movetime=S,
    /// clock=MAIN[+INC], byoyomi=PERIOD/STONES, odds=F.
    #[arg(long, value_name = "KEY=VALUE")]
    pub each: Vec<String>,
    /// An option for one named engine, overriding --each.
    #[arg(long = "option", value_name = "NAME:KEY=VALUE")]
    pub options: Vec<String>,
    /// Stop when an SPRT of the first engine against the second decides (on complete
    /// pairs; two engines only).
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]", allow_hyphen_values = true)]
    pub sprt: Option<SprtSpec>,
    /// Print the games this process would play (number, engines, opening) and exit
    /// without starting any engine; names not given are shown as command lines.
    #[arg(long)]
    pub dry_run: bool,
    /// Board size: 7, 9 or 10 (default 10, or the size of the openings file).
    #[arg(long)]
    pub size: Option<u8>,
    /// The rule set: classic or modern (sent to the engines with `rules` unless classic).
    #[arg(long, value_name = "RULES", default_value = "classic", value_parser = parse_rule_set)]
    pub rules: RuleSet,
    /// The no-corners option (sent to the engines with `option no-corners on`).
    #[arg(long)]
    pub no_corners: bool,
    /// The claimed-block option of the modern rules, boardspace.net's dialect (sent to
    /// the engines with `option claimed-block on`).
    #[arg(long)]
    pub claimed_block: bool,
    /// Start every pair from a random-setup position (every shooter on a random square
    /// off the edge, no stones, Black to move) instead of random setup turns.
    #[arg(long, conflicts_with = "openings")]
    pub random_setup: bool,
    /// Fixed time per move, in seconds (the default time control is 1 s per move).
    #[arg(long, value_name = "SECONDS", value_parser = clock::parse_seconds)]
    pub movetime: Option<f64>,
    /// A clock per player: main time plus an increment per move, in seconds.
    #[arg(long, visible_alias = "tc", value_name = "MAIN[+INC]")]
    pub clock: Option<ClockSpec>,
    /// Canadian byo-yomi after the --clock main time: PERIOD seconds for STONES moves.
    #[arg(long, value_name = "PERIOD/STONES")]
    pub byoyomi: Option<ByoYomiSpec>,
    /// Seconds a move may exceed the clock before it loses on time.
    #[arg(long, value_name = "SECONDS", default_value = "0.1", value_parser = clock::parse_seconds)]
    pub margin: f64,
    /// Seconds an engine has to answer any command other than genmove (start-up included).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = clock::parse_seconds)]
    pub command_timeout: f64,
    /// Games played at the same time, each worker with its own engine processes (1 to 256).
    #[arg(long, short = 'j', default_value_t = 1, value_parser = parse_concurrency)]
    pub concurrency: usize,
    /// Openings file: one opening per line, moves from the empty board or a position
    /// string followed by moves (default: random setups drawn from the seed). After the
    /// file, cutechess's words: `order=sequential|random` (random: shuffled by --seed),
    /// `start=N` (begin at the file's Nth opening), `plies=N` (play at most N moves of each).
    #[arg(long, value_name = "FILE [order=..] [start=N] [plies=N]", num_args = 1..=4)]
    pub openings: Vec<String>,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Record file: every game is appended to it. If it exists, play resumes: the
    /// games it holds are not played again.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Require the record file to exist (resuming is automatic anyway).
    #[arg(long, requires = "record")]
    pub resume: bool,
    /// Start over: empty the record file instead of resuming.
    #[arg(long, requires = "record", conflicts_with = "resume")]
    pub overwrite: bool,
    /// When another referee is writing the record file, wait for it to finish (then resume
    /// from what it wrote) instead of refusing at once.
    #[arg(long, requires = "record")]
    pub wait: bool,
    /// Where the engines' stderr goes (appended); default: the record file name plus
    /// `.engines.log`, or nowhere without a record file.
    #[arg(long, value_name = "FILE")]
    pub engine_log: Option<PathBuf>,
    /// Before the first game, run the required checks of `veletas check` on every engine
    /// (on the games' board and rule set) and refuse to start if one fails.
    #[arg(long)]
    pub check: bool,
    /// Write every line sent to and received from every engine to FILE (appended), each
    /// with the time, the game number and the engine's name.
    #[arg(long, value_name = "FILE")]
    pub log_protocol: Option<PathBuf>,
    /// Print the standings every N games (and at the end), terminal or not.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub rating_interval: Option<u64>,
    /// No line per game, only the summary.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// At the end, write one self-contained HTML page with the results (standings,
    /// crosstable, LOS; a match's summary) and every game counted, in the game viewer.
    /// Written whole or not at all (docs/pictures.md).
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// While games run, rewrite this HTML page (at most every 2 s, and at the end) with the
    /// games in progress and the standings so far; the page reloads itself.
    #[arg(long, value_name = "FILE.html")]
    pub live: Option<PathBuf>,
}

impl CommonArgs {
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
                crate::report::check_writable(option, path).map_err(RefereeError::Usage)?;
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

    /// Logs [`CommonArgs::concurrency_warning`] for this machine, once, before any game.
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

fn parse_rule_set(text: &str) -> Result<RuleSet, String> {
    text.parse::<RuleSet>().map_err(|e| e.to_string())
}

impl MatchArgs {
    /// The rules the match is played under, if the options go with the rule set.
    pub fn rules(&self) -> Result<Rules, String> {
        self.common.rules()
    }
}

impl MatchArgs {
    /// Parses options as on the command line (without the program and subcommand names):
    /// for tests and for callers that build option lists.
    pub fn parse_from<I, T>(args: I) -> Result<MatchArgs, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        parse_options("veletas match", args)
    }
}

/// Parses a subcommand's options (a clap `Args` struct) from a list without the program
/// and subcommand names.
pub(crate) fn parse_options<A, I, T>(name: &'static str, args: I) -> Result<A, clap::Error>
where
    A: clap::Args + clap::FromArgMatches,
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let command = A::augment_args(clap::Command::new(name).no_binary_name(true));
    A::from_arg_matches(&command.try_get_matches_from(args)?)
}

/// Why a match could not be played.
#[derive(Debug, thiserror::Error)]
pub enum RefereeError {
    /// Options that do not make a match.
    #[error("{0}")]
    Usage(String),
    /// An engine that cannot be started at all.
    #[error("cannot start engine '{command}': {detail}")]
    Engine {
        /// The engine's command line.
        command: String,
        /// What went wrong.
        detail: String,
    },
    /// An engine refused before the first game: it did not answer `protocol_version` and
    /// `name` at start-up, or failed a required check of `--check`.
    #[error("engine '{command}' is refused: {detail}")]
    Refused {
        /// The engine's command line.
        command: String,
        /// Why.
        detail: String,
    },
    /// A file that cannot be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A signal stopped the games before their end: what was played and how to resume.
    #[error("{0}")]
    Interrupted(String),
    /// A record file that cannot be resumed.
    #[error("{path}: {detail}")]
    Record {
        /// The record file.
        path: PathBuf,
        /// What is wrong with it.
        detail: String,
    },
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
        Ok(_) => Err(format!("{text} is more than {MAX_GAMES} games")),
        Err(_) if text.trim().chars().all(|c| c.is_ascii_digit()) && !text.trim().is_empty() => {
            Err(format!("{text} is more than {MAX_GAMES} games"))
        }
        Err(_) => Err(format!("'{text}' is not a whole number")),
    }
}

fn parse_concurrency(text: &str) -> Result<usize, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if (1..=MAX_CONCURRENCY as u64).contains(&n) => Ok(n as usize),
        _ => Err(format!("'{text}' is not a number of games from 1 to {MAX_CONCURRENCY}")),
    }
}

/// A time-odds factor (`--time-odds F`, the engine option `odds=F`): from 0.01 to 100.
pub(crate) fn parse_odds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && (0.01..=100.0).contains(&x) => Ok(x),
        _ => Err(format!("'{text}' is not a factor between 0.01 and 100")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_games_at_once_than_cores_is_warned_about_and_no_more_is_not() {
        let args = |j: &str| MatchArgs::parse_from(["--engine", "a", "--engine", "b", "-j", j]).unwrap().common;
        assert_eq!(args("2").concurrency_warning(2), None);
        assert_eq!(args("1").concurrency_warning(2), None);
        let warning = args("8").concurrency_warning(2).expect("a warning");
        assert!(warning.starts_with("-j 8 plays more games at once than this machine has cores (2)"), "{warning}");
        assert!(!warning.contains('\n'));
    }
}
