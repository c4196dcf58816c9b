//! What a match or a tournament plays, validated once into types before anything runs.
//!
//! The command line's options are checked here, in one place, into a finished plan: the
//! engines as typed definitions ([`EngineDef`]), the rules as one [`Rules`] value inside the
//! openings ([`OpeningBook`]), the time control as one [`TimeControl`], the record file
//! with what to do when it exists ([`RecordPlan`]). The runner is built from such a plan
//! ([`CommonPlan`] and a [`MatchPlan`] or a tournament's plan), never from loose options.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::output::check_not_input;
use crate::referee::clock::TimeControl;
use crate::referee::engine::{EngineCommand, command_deadline};
use crate::referee::error::RefereeError;
use crate::referee::field::{self, EngineDef, EngineFlags};
use crate::referee::limits::{MAX_CONCURRENCY, MAX_GAMES};
use crate::referee::openings::OpeningBook;
use crate::referee::summary::SprtSpec;
use crate::referee::words::split_engine_name;
use veletas_rules::Rules;
use veletas_rules::record::TimeControls;

/// What a run does with a record file that already exists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Existing {
    /// Resume from the games it holds; a missing file is created (the default).
    #[default]
    Resume,
    /// Resume, and the file must exist (`--resume`).
    Required,
    /// Empty it first (`--overwrite`).
    Overwrite,
}

/// The record file every game is appended to, and how it is opened.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordPlan {
    path: PathBuf,
    existing: Existing,
    wait: bool,
}

impl RecordPlan {
    /// The record file `path`, treated as `existing` says when it exists; `wait`: wait for
    /// another referee writing it instead of refusing at once.
    pub fn new(path: PathBuf, existing: Existing, wait: bool) -> RecordPlan {
        RecordPlan { path, existing, wait }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What is done with the file when it exists.
    pub fn existing(&self) -> Existing {
        self.existing
    }

    /// Whether another referee writing the file is waited for.
    pub fn wait(&self) -> bool {
        self.wait
    }

    /// The same plan for the file at `path` (a shard's).
    pub(crate) fn at(&self, path: PathBuf) -> RecordPlan {
        RecordPlan { path, ..self.clone() }
    }
}

/// What a match and a tournament share, validated: the openings (board, rules), the
/// default time control, the timing of commands, concurrency, the record file, logs and
/// pages, and what is checked before the first game. Built with [`CommonPlan::new`] and
/// the `with_` methods, each of which checks its values.
#[derive(Clone, Debug, PartialEq)]
pub struct CommonPlan {
    book: OpeningBook,
    control: TimeControl,
    margin: f64,
    command_timeout: Duration,
    concurrency: usize,
    record: Option<RecordPlan>,
    engine_log: Option<PathBuf>,
    log_protocol: Option<PathBuf>,
    report: Option<PathBuf>,
    live: Option<PathBuf>,
    rating_interval: Option<usize>,
    quiet: bool,
    progress: bool,
    check: bool,
    record_steps: bool,
    sprt: Option<SprtSpec>,
}

impl CommonPlan {
    /// The plan of games from the openings of `book` (which hold the board and the
    /// [`Rules`]) under the default time control `control` (engines may have their own),
    /// with the command line's defaults for the rest: 0.1 s margin, 10 s per command, one
    /// game at a time, nothing written.
    pub fn new(book: OpeningBook, control: TimeControl) -> CommonPlan {
        CommonPlan {
            book,
            control,
            margin: 0.1,
            command_timeout: command_deadline(10.0),
            concurrency: 1,
            record: None,
            engine_log: None,
            log_protocol: None,
            report: None,
            live: None,
            rating_interval: None,
            quiet: false,
            progress: true,
            check: false,
            record_steps: false,
            sprt: None,
        }
    }

    /// With `margin` seconds a move may exceed the clock, and `command_timeout` seconds for
    /// any command other than `genmove`: each a number of seconds, at least 0.
    pub fn with_timing(self, margin: f64, command_timeout: f64) -> Result<CommonPlan, RefereeError> {
        for (option, seconds) in [("--margin", margin), ("--command-timeout", command_timeout)] {
            if !(seconds.is_finite() && seconds >= 0.0) {
                return Err(RefereeError::Usage(format!("{option} must be a number of seconds, not {seconds}")));
            }
        }
        Ok(CommonPlan { margin, command_timeout: command_deadline(command_timeout), ..self })
    }

    /// With `games` played at the same time, from 1 to [`MAX_CONCURRENCY`].
    pub fn with_concurrency(self, games: usize) -> Result<CommonPlan, RefereeError> {
        if games == 0 {
            return Err(RefereeError::Usage("--concurrency must be at least 1".into()));
        }
        if games > MAX_CONCURRENCY {
            return Err(RefereeError::Usage(format!("--concurrency must be at most {MAX_CONCURRENCY}, not {games}")));
        }
        Ok(CommonPlan { concurrency: games, ..self })
    }

    /// With every game appended to `record` (play resumes from what it holds).
    pub fn with_record(self, record: Option<RecordPlan>) -> CommonPlan {
        CommonPlan { record, ..self }
    }

    /// With the engines' stderr appended to `engine_log` (default: the record file's name
    /// plus `.engines.log`) and every protocol line to `log_protocol`.
    pub fn with_logs(self, engine_log: Option<PathBuf>, log_protocol: Option<PathBuf>) -> CommonPlan {
        CommonPlan { engine_log, log_protocol, ..self }
    }

    /// With the HTML `report` written at the end and the `live` page rewritten while games run.
    pub fn with_pages(self, report: Option<PathBuf>, live: Option<PathBuf>) -> CommonPlan {
        CommonPlan { report, live, ..self }
    }

    /// With a line per game unless `quiet`, the progress line on a terminal when
    /// `progress`, and the standings every `rating_interval` games (at least 1).
    pub fn with_output(
        self,
        quiet: bool,
        progress: bool,
        rating_interval: Option<u64>,
    ) -> Result<CommonPlan, RefereeError> {
        let rating_interval = match rating_interval {
            None => None,
            Some(0) => return Err(RefereeError::Usage("--rating-interval must be at least 1".into())),
            Some(n) => Some(usize::try_from(n).unwrap_or(usize::MAX)),
        };
        Ok(CommonPlan { quiet, progress, rating_interval, ..self })
    }

    /// With the required checks of `veletas check` run on every engine before the first
    /// game (`check`), and the first steps' playouts recorded (`record_steps`).
    pub fn with_checks(self, check: bool, record_steps: bool) -> CommonPlan {
        CommonPlan { check, record_steps, ..self }
    }

    /// With the run stopped when `sprt` decides (the first engine against the second).
    pub fn with_sprt(self, sprt: Option<SprtSpec>) -> CommonPlan {
        CommonPlan { sprt, ..self }
    }

    /// The openings, which hold the board and the rules.
    pub fn book(&self) -> &OpeningBook {
        &self.book
    }

    /// The rules the games are played under.
    pub fn rules(&self) -> Rules {
        self.book.rules
    }

    /// The default time control.
    pub fn time_control(&self) -> TimeControl {
        self.control
    }

    /// Seconds a move may exceed the clock.
    pub fn margin(&self) -> f64 {
        self.margin
    }

    /// The deadline of commands other than `genmove`.
    pub fn command_timeout(&self) -> Duration {
        self.command_timeout
    }

    /// Games played at the same time.
    pub fn concurrency(&self) -> usize {
        self.concurrency
    }

    /// The record file, if any.
    pub fn record(&self) -> Option<&RecordPlan> {
        self.record.as_ref()
    }

    /// The engine log given (`--engine-log`), without the default beside the record.
    pub fn engine_log(&self) -> Option<&Path> {
        self.engine_log.as_deref()
    }

    /// The engines' log file: `--engine-log`, else the record file's name plus `.engines.log`.
    pub fn engine_log_path(&self) -> Option<PathBuf> {
        self.engine_log.clone().or_else(|| self.record.as_ref().map(|r| engine_log_beside(r.path())))
    }

    /// The protocol log file.
    pub fn log_protocol(&self) -> Option<&Path> {
        self.log_protocol.as_deref()
    }

    /// The HTML report written at the end.
    pub fn report(&self) -> Option<&Path> {
        self.report.as_deref()
    }

    /// The live HTML page.
    pub fn live(&self) -> Option<&Path> {
        self.live.as_deref()
    }

    /// Every how many games the standings are printed.
    pub fn rating_interval(&self) -> Option<usize> {
        self.rating_interval
    }

    /// No line per game.
    pub fn quiet(&self) -> bool {
        self.quiet
    }

    /// The progress line, on a terminal.
    pub fn progress(&self) -> bool {
        self.progress
    }

    /// The required checks before the first game.
    pub fn check(&self) -> bool {
        self.check
    }

    /// The first steps' playouts recorded.
    pub fn record_steps(&self) -> bool {
        self.record_steps
    }

    /// The SPRT that stops the run.
    pub fn sprt(&self) -> Option<SprtSpec> {
        self.sprt
    }

    /// Checks, before any game, that the pages of `--report` and `--live` can be written
    /// and that no output (`--report`, `--live`, the engine log `log`) is the same file as
    /// an input (the record file `record`, `--openings`, the engines file `engines_file`)
    /// or as another output: the error is one line naming both.
    pub fn check_outputs(
        &self,
        record: Option<&Path>,
        log: Option<&Path>,
        engines_file: Option<&Path>,
    ) -> Result<(), RefereeError> {
        for (option, path) in [("--report", &self.report), ("--live", &self.live)] {
            if let Some(path) = path {
                crate::report::check_writable(option, path).map_err(|e| RefereeError::Output(e.to_string()))?;
            }
        }
        let mut taken: Vec<(&str, &Path)> = Vec::new();
        taken.extend(record.map(|path| ("--record", path)));
        taken.extend(self.book.file().map(|path| ("--openings", path)));
        taken.extend(engines_file.map(|path| ("--engines", path)));
        let outputs = [
            ("--engine-log", log),
            ("--log-protocol", self.log_protocol.as_deref()),
            ("--report", self.report.as_deref()),
            ("--live", self.live.as_deref()),
        ];
        for (option, path) in outputs {
            if let Some(path) = path {
                check_not_input((option, path), &taken).map_err(|e| RefereeError::Usage(e.into()))?;
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

    /// Logs [`CommonPlan::concurrency_warning`] for this machine, once, before any game.
    pub fn warn_about_concurrency(&self) {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        if let Some(warning) = self.concurrency_warning(cores) {
            log::warn!("{warning}");
        }
    }
}

/// The default engine log of a record file: its name plus `.engines.log`.
pub fn engine_log_beside(record: &Path) -> PathBuf {
    let mut name = record.as_os_str().to_os_string();
    name.push(".engines.log");
    PathBuf::from(name)
}

/// What `veletas match` plays, validated: two engines (engine 1 first, whose side the
/// scores are reported from, its clock scaled by the time odds), an even number of
/// games, the records' `TimeControl` tag and `Event`, and the shared plan.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchPlan {
    engines: Vec<EngineDef>,
    engines_file: Option<PathBuf>,
    games: usize,
    time_control: Option<TimeControls>,
    event: String,
    common: CommonPlan,
}

impl MatchPlan {
    /// The match of `engines` (`--engine` twice, or with an engines file: two in all, over
    /// the default time control of `common`), `games` games (even, positive, at most
    /// [`MAX_GAMES`]), engine 1's times multiplied by `time_odds` (0.01 to 100), the
    /// records' Event tag `event`.
    pub fn new(
        engines: EngineFlags,
        games: usize,
        time_odds: f64,
        event: String,
        common: CommonPlan,
    ) -> Result<MatchPlan, RefereeError> {
        let usage = RefereeError::Usage;
        if engines.file().is_none() && engines.flags().len() != 2 {
            let given = match engines.flags().len() {
                1 => "once".to_string(),
                n => format!("{n} times"),
            };
            return Err(usage(format!("give --engine exactly twice, not {given}")));
        }
        if games == 0 || games % 2 == 1 || games > MAX_GAMES {
            return Err(usage(format!(
                "--games must be even and positive (games come in pairs: one opening, colours swapped), not {games}"
            )));
        }
        if !(time_odds.is_finite() && (0.01..=100.0).contains(&time_odds)) {
            return Err(usage(format!("--time-odds must be a factor between 0.01 and 100, not {time_odds}")));
        }
        for text in engines.flags() {
            let (_, command) = split_engine_name(text);
            EngineCommand::parse(command)
                .map_err(|e| usage(format!("--engine '{}': {e}", veletas_rules::quoted(text))))?;
        }
        let (entries, each) = engines.entries().map_err(RefereeError::options)?;
        if entries.len() != 2 {
            return Err(usage(format!(
                "a match needs exactly two engines (--engine or --engines), not {}",
                entries.len()
            )));
        }
        let mut defs = field::resolve(&entries, &each, common.control).map_err(RefereeError::options)?;
        // The record's tag: one control, a match's time odds, or (engines on controls of
        // their own) each game's colours, decided when the game is recorded.
        let time_control = if defs[0].time_control == defs[1].time_control {
            let control = defs[0].time_control;
            if time_odds == 1.0 {
                Some(TimeControls::Same(control))
            } else {
                Some(TimeControls::Odds { control, factor: time_odds })
            }
        } else {
            None
        };
        defs[0].time_control = defs[0].time_control.scaled(time_odds);
        let engines_file = engines.file().map(Path::to_path_buf);
        Ok(MatchPlan { engines: defs, engines_file, games, time_control, event, common })
    }

    /// The two engines, engine 1 first.
    pub fn engines(&self) -> &[EngineDef] {
        &self.engines
    }

    /// The engines file the engines were read from, if any.
    pub fn engines_file(&self) -> Option<&Path> {
        self.engines_file.as_deref()
    }

    /// The number of games.
    pub fn games(&self) -> usize {
        self.games
    }

    /// The records' `TimeControl` tag, when one fits every game.
    pub fn time_control_tag(&self) -> Option<TimeControls> {
        self.time_control
    }

    /// The records' Event tag.
    pub fn event(&self) -> &str {
        &self.event
    }

    /// The plan shared with tournaments.
    pub fn common(&self) -> &CommonPlan {
        &self.common
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use veletas_rules::RuleSet;

    fn common() -> CommonPlan {
        let rules = Rules::new(RuleSet::Classic, false, false).unwrap();
        let book = OpeningBook::new(&[], Some(7), rules, false, 1).unwrap();
        CommonPlan::new(book, TimeControl::MoveTime(1.0))
    }

    #[test]
    fn more_games_at_once_than_cores_is_warned_about_and_no_more_is_not() {
        let plan = |j: usize| common().with_concurrency(j).unwrap();
        assert_eq!(plan(2).concurrency_warning(2), None);
        assert_eq!(plan(1).concurrency_warning(2), None);
        let warning = plan(8).concurrency_warning(2).expect("a warning");
        assert!(warning.starts_with("-j 8 plays more games at once than this machine has cores (2)"), "{warning}");
        assert!(!warning.contains('\n'));
    }

    #[test]
    fn a_plan_refuses_values_the_options_cannot_have() {
        assert!(common().with_concurrency(0).unwrap_err().to_string().contains("at least 1"));
        assert!(common().with_concurrency(MAX_CONCURRENCY + 1).is_err());
        assert!(common().with_timing(f64::NAN, 1.0).unwrap_err().to_string().contains("--margin"));
        assert!(common().with_timing(0.1, -1.0).unwrap_err().to_string().contains("--command-timeout"));
        assert!(common().with_output(false, true, Some(0)).is_err());
        let flags = || EngineFlags::new(vec!["a".into(), "b".into()], None, Vec::new(), Vec::new());
        let refused = |games, odds| MatchPlan::new(flags(), games, odds, "e".into(), common()).unwrap_err().to_string();
        assert!(refused(3, 1.0).contains("--games must be even and positive"));
        assert!(refused(2, 0.0).contains("--time-odds"));
    }

    #[test]
    fn a_match_plan_scales_engine_ones_clock_and_tags_the_odds() {
        let flags = EngineFlags::new(vec!["a=x".into(), "b=y".into()], None, Vec::new(), Vec::new());
        let plan = MatchPlan::new(flags, 4, 2.0, "e".into(), common()).unwrap();
        let controls: Vec<TimeControl> = plan.engines().iter().map(|d| d.time_control).collect();
        assert_eq!(controls, [TimeControl::MoveTime(2.0), TimeControl::MoveTime(1.0)]);
        assert_eq!(
            plan.time_control_tag(),
            Some(TimeControls::Odds { control: TimeControl::MoveTime(1.0), factor: 2.0 })
        );
        assert_eq!((plan.games(), plan.event()), (4, "e"));
    }
}
