//! `veletas check`: a compliance test of any engine against protocol.md, in the spirit of
//! fastchess's `--compliance` and GNU Go's GTP regression.
//!
//! The engine is started as the referee starts it and spoken to through the referee's
//! own client ([`crate::referee::engine`]), so every read has a deadline and a size limit.
//! `probes` holds the checks themselves (`extensions` those of the optional commands); this
//! module holds the request, the result of each check and the report (text or JSON).
//! `docs/check.md` says what each check asks.
//!
//! The greeting `match` and `tournament` send every engine before their first game
//! (`protocol_version` and `name` must be answered) is the controller's
//! ([`EngineClient::greet`](crate::referee::engine::EngineClient::greet)); [`required_checks`]
//! is what their `--check` runs.

mod extensions;
mod probes;
mod session;

use std::fmt;
use std::time::{Duration, Instant};

use crate::referee::MAX_COMMAND_SHOWN;
use crate::referee::engine::{EngineCommand, command_deadline};
use crate::referee::words::SplitError;
use crate::referee::words::split_engine_name;
use veletas_rules::{RuleSet, Rules, RulesError, Variant};

/// What `veletas check` checks, validated once before the engine starts: the engine's
/// command line and the name given it, the checks' settings, and whether the strict checks
/// decide the verdict (the command line's `CheckArgs` become this with [`CheckPlan::new`]).
#[derive(Clone, Debug, PartialEq)]
pub struct CheckPlan {
    name: Option<String>,
    command: EngineCommand,
    settings: CheckSettings,
    strict: bool,
}

impl CheckPlan {
    /// The check of the engine `engine` (`[NAME=]CMD ARGS...`, as one word or as separate
    /// words) under `settings`; the strict protocol.md checks decide the verdict too when
    /// `strict`.
    pub fn new(engine: &[String], settings: CheckSettings, strict: bool) -> Result<CheckPlan, CheckError> {
        let (name, command) = engine_command(engine)?;
        Ok(CheckPlan { name, command, settings, strict })
    }

    /// The name given the engine (`NAME=`), if any.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The engine's command line.
    pub fn command(&self) -> &EngineCommand {
        &self.command
    }

    /// The checks' settings.
    pub fn settings(&self) -> &CheckSettings {
        &self.settings
    }
}

/// The engine's given name (`NAME=`) and its command line, from `engine`: one word (a
/// whole command line) or separate words.
fn engine_command(engine: &[String]) -> Result<(Option<String>, EngineCommand), CheckError> {
    let Some((first, rest)) = engine.split_first() else {
        return Err(CheckError::NoEngine);
    };
    let (name, first) = split_engine_name(first);
    let name = name.map(str::to_string);
    if rest.is_empty() {
        let command = EngineCommand::parse(first).map_err(|error| CheckError::Command {
            shown: veletas_rules::quoted_to(first, MAX_COMMAND_SHOWN),
            error,
        })?;
        return Ok((name, command));
    }
    let quote = |w: &str| {
        if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c)) {
            w.to_string()
        } else {
            format!("'{}'", w.replace('\'', r"'\''"))
        }
    };
    let text = std::iter::once(first).chain(rest.iter().map(String::as_str)).map(quote).collect::<Vec<_>>();
    let command = EngineCommand {
        text: text.join(" "),
        program: first.to_string(),
        args: rest.to_vec(),
        dir: None,
        init: Vec::new(),
    };
    Ok((name, command))
}

/// How a check ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckOutcome {
    /// It passed; what was seen.
    Pass(String),
    /// It failed; why.
    Fail(String),
    /// It was not run; why.
    Skip(String),
}

impl CheckOutcome {
    /// `pass`, `fail` or `skip`.
    pub fn word(&self) -> &'static str {
        match self {
            CheckOutcome::Pass(_) => "pass",
            CheckOutcome::Fail(_) => "fail",
            CheckOutcome::Skip(_) => "skip",
        }
    }

    /// The detail or reason.
    pub fn detail(&self) -> &str {
        match self {
            CheckOutcome::Pass(d) | CheckOutcome::Fail(d) | CheckOutcome::Skip(d) => d,
        }
    }
}

/// Which verdict a check counts toward.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckGroup {
    /// "Plays refereed games": what the referee's games need (start-up, names, the
    /// commands a game sends, `genmove` under each clock, `final_score`, a whole game,
    /// `quit`). It decides `--check` and the exit status.
    Play,
    /// "Strict protocol.md": what the games do not need (error replies and their words,
    /// names' case, GTP framing, `undo`, `reg_genmove`, every required command listed). It
    /// decides the exit status only with `--strict`.
    Strict,
    /// Extensions, and the clock checks of an engine without clock commands: never decide.
    Optional,
}

impl CheckGroup {
    /// `play`, `strict` or `optional`.
    pub fn word(self) -> &'static str {
        match self {
            CheckGroup::Play => "play",
            CheckGroup::Strict => "strict",
            CheckGroup::Optional => "optional",
        }
    }
}

/// One check's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckResult {
    /// Its short name, such as `genmove-main-time`.
    pub id: &'static str,
    /// The verdict it counts toward.
    pub group: CheckGroup,
    /// How it ended.
    pub outcome: CheckOutcome,
}

/// The report of `veletas check`.
#[derive(Clone, Debug)]
pub struct CheckReport {
    /// The engine's name: the given one, or its `name` and `version` replies.
    pub engine: String,
    /// The command line.
    pub command: String,
    /// The board size checked.
    pub size: u8,
    /// The rules checked.
    pub rules: Rules,
    /// Every check, in the order run.
    pub checks: Vec<CheckResult>,
    /// The extensions of protocol.md the engine offers (`known_command` says `true`).
    pub extensions: Vec<String>,
    /// Seconds the whole check took.
    pub seconds: f64,
    /// Whether the strict checks decide the verdict too (`--strict`).
    pub strict: bool,
}

impl CheckReport {
    /// Whether every check of `group` passed.
    pub fn all_passed(&self, group: CheckGroup) -> bool {
        self.checks.iter().filter(|c| c.group == group).all(|c| matches!(c.outcome, CheckOutcome::Pass(_)))
    }

    /// Whether the check `check` decides the verdict.
    fn decides(&self, check: &CheckResult) -> bool {
        check.group == CheckGroup::Play || (self.strict && check.group == CheckGroup::Strict)
    }

    /// The verdict (and the exit status): the engine plays refereed games, and with
    /// `--strict` it passed the strict checks too.
    pub fn passed(&self) -> bool {
        self.checks.iter().filter(|c| self.decides(c)).all(|c| matches!(c.outcome, CheckOutcome::Pass(_)))
    }

    /// The first check that decides the verdict and did not pass, if any.
    pub fn first_failure(&self) -> Option<&CheckResult> {
        self.checks.iter().find(|c| self.decides(c) && !matches!(c.outcome, CheckOutcome::Pass(_)))
    }

    fn count(&self, group: CheckGroup, word: &str) -> usize {
        self.checks.iter().filter(|c| c.group == group && c.outcome.word() == word).count()
    }

    /// One verdict's line: `yes` or `NO`, the counts, and the checks that did not pass.
    fn verdict(&self, group: CheckGroup) -> String {
        let all = self.checks.iter().filter(|c| c.group == group).count();
        let not: Vec<&str> =
            self.checks.iter().filter(|c| c.group == group && c.outcome.word() != "pass").map(|c| c.id).collect();
        let (failed, skipped) = (self.count(group, "fail"), self.count(group, "skip"));
        let word = if self.all_passed(group) { "yes" } else { "NO" };
        let list = if not.is_empty() { String::new() } else { format!(": {}", not.join(", ")) };
        format!(
            "{word} ({} of {all} checks passed, {failed} failed, {skipped} skipped{list})",
            self.count(group, "pass")
        )
    }

    /// The report as one JSON object ([`CheckJson`], serialized by serde_json).
    pub fn json(&self) -> String {
        let json = CheckJson {
            engine: self.engine.clone(),
            command: self.command.clone(),
            size: self.size,
            rules: self.rules.to_string(),
            passed: self.passed(),
            plays_games: self.all_passed(CheckGroup::Play),
            strict_protocol: self.all_passed(CheckGroup::Strict),
            strict: self.strict,
            seconds: (self.seconds * 1000.0).round() / 1000.0,
            extensions: self.extensions.clone(),
            checks: self
                .checks
                .iter()
                .map(|c| CheckLineJson {
                    id: c.id.to_string(),
                    required: self.decides(c),
                    group: c.group.word().to_string(),
                    result: c.outcome.word().to_string(),
                    detail: c.outcome.detail().to_string(),
                })
                .collect(),
        };
        // Serializing strings, numbers and booleans cannot fail.
        serde_json::to_string(&json).map_or_else(|e| format!("{{\"error\":{:?}}}\n", e.to_string()), |t| t + "\n")
    }
}

/// `veletas check --json`: the report as serde_json writes it (see docs/check.md).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CheckJson {
    /// The engine's name.
    pub engine: String,
    /// Its command line.
    pub command: String,
    /// The board size checked.
    pub size: u8,
    /// The rules checked.
    pub rules: String,
    /// The verdict and exit status: `plays_games`, and with `--strict` `strict_protocol` too.
    pub passed: bool,
    /// Whether every check of the group `play` passed (the engine plays refereed games).
    pub plays_games: bool,
    /// Whether every check of the group `strict` passed (strict protocol.md).
    pub strict_protocol: bool,
    /// Whether `--strict` was given (then `strict_protocol` decides too).
    pub strict: bool,
    /// Seconds the whole check took (to the millisecond).
    pub seconds: f64,
    /// The extensions the engine offers.
    pub extensions: Vec<String>,
    /// Every check, in the order run.
    pub checks: Vec<CheckLineJson>,
}

/// One check of [`CheckJson`].
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CheckLineJson {
    /// Its short name.
    pub id: String,
    /// Whether it decides the verdict (`group` `play`, or `strict` with `--strict`).
    pub required: bool,
    /// `play`, `strict` or `optional`.
    pub group: String,
    /// `pass`, `fail` or `skip`.
    pub result: String,
    /// What happened.
    pub detail: String,
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.size;
        writeln!(f, "checking {} ({}) on {size}x{size}, {} rules", self.engine, self.command, self.rules)?;
        let width = self.checks.iter().map(|c| c.id.len()).max().unwrap_or(0);
        for check in &self.checks {
            let word = match check.outcome {
                CheckOutcome::Pass(_) => "pass",
                CheckOutcome::Fail(_) => "FAIL",
                CheckOutcome::Skip(_) => "skip",
            };
            let kind = match check.group {
                CheckGroup::Play => "",
                CheckGroup::Strict => " (strict)",
                CheckGroup::Optional => " (optional)",
            };
            let detail: String = check.outcome.detail().chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
            writeln!(f, "{word} {:width$} {detail}{kind}", check.id)?;
        }
        let extensions = if self.extensions.is_empty() { "none".to_string() } else { self.extensions.join(" ") };
        writeln!(f, "extensions: {extensions}")?;
        writeln!(f, "plays refereed games: {}", self.verdict(CheckGroup::Play))?;
        if self.checks.iter().any(|c| c.group == CheckGroup::Strict) {
            writeln!(f, "strict protocol.md: {}", self.verdict(CheckGroup::Strict))?;
        }
        let verdict = match (self.all_passed(CheckGroup::Play), self.all_passed(CheckGroup::Strict)) {
            (true, true) => "compliant",
            (true, false) if self.strict => "NOT compliant (--strict)",
            (true, false) => "plays refereed games, not strictly compliant",
            (false, _) => "NOT compliant",
        };
        writeln!(
            f,
            "summary: {verdict} (optional: {} passed, {} failed, {} skipped) in {:.1} s",
            self.count(CheckGroup::Optional, "pass"),
            self.count(CheckGroup::Optional, "fail"),
            self.count(CheckGroup::Optional, "skip"),
            self.seconds
        )
    }
}

/// The checks' options as the command line gives them, before they are validated into
/// [`CheckSettings`] (ripgrep's low-level arguments to its high-level ones).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CheckOptions {
    /// The board size: 7, 9 or 10.
    pub size: u8,
    /// The rule set.
    pub rules: RuleSet,
    /// Seconds per move of the whole game the engine plays against itself.
    pub movetime: f64,
    /// Seconds a move may exceed its clock.
    pub margin: f64,
    /// Seconds for any command without a clock (start-up included).
    pub command_timeout: f64,
    /// Seed of the random moves.
    pub seed: u64,
}

impl Default for CheckOptions {
    /// `veletas check`'s defaults: 7x7, classic rules, 0.2 s a move with a 0.1 s margin,
    /// 10 s for a command without a clock, seed 1.
    fn default() -> CheckOptions {
        CheckOptions { size: 7, rules: RuleSet::Classic, movetime: 0.2, margin: 0.1, command_timeout: 10.0, seed: 1 }
    }
}

/// What the checks need to know besides the engine, validated once ([`CheckSettings::new`]
/// from the command line's [`CheckOptions`], or [`CheckSettings::for_games`] for the
/// `--check` of `match` and `tournament`); nothing is changed afterwards.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CheckSettings {
    variant: Variant,
    rules: Rules,
    command_timeout: Duration,
    margin: f64,
    movetime: f64,
    seed: u64,
}

impl CheckSettings {
    /// The checks `options` ask for: on a board of `size` (7, 9 or 10) under the rule set
    /// `rules`, the whole game at `movetime` seconds a move (each move `margin` seconds over
    /// it at most), `command_timeout` seconds for any command without a clock, random
    /// moves from `seed`.
    pub fn new(options: &CheckOptions) -> Result<CheckSettings, CheckError> {
        let CheckOptions { size, rules, movetime, margin, command_timeout, seed } = *options;
        let variant = Variant::from_size(size).ok_or(CheckError::Size)?;
        let rules = Rules::new(rules, false, false)?;
        for (option, seconds) in [("--movetime", movetime), ("--margin", margin)] {
            if !(seconds.is_finite() && seconds >= 0.0) {
                return Err(CheckError::Seconds { option, seconds });
            }
        }
        Ok(CheckSettings { variant, rules, command_timeout: command_deadline(command_timeout), margin, movetime, seed })
    }

    /// The required checks as `match` and `tournament` run them before their games
    /// (`--check`): their board and rule set, their deadline for commands without a clock
    /// and their margin; the whole game at 0.2 s a move, random moves from seed 1.
    pub fn for_games(variant: Variant, rules: RuleSet, command_timeout: Duration, margin: f64) -> CheckSettings {
        CheckSettings { variant, rules: rules.into(), command_timeout, margin, movetime: 0.2, seed: 1 }
    }

    /// The board.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The deadline of commands without a clock.
    pub fn command_timeout(&self) -> Duration {
        self.command_timeout
    }

    /// How far, in seconds, a move may exceed its clock.
    pub fn margin(&self) -> f64 {
        self.margin
    }

    /// Seconds per move in the whole game.
    pub fn movetime(&self) -> f64 {
        self.movetime
    }

    /// Seed of the random moves.
    pub fn seed(&self) -> u64 {
        self.seed
    }
}

/// Why `veletas check` cannot check at all: its options are wrong (the engine's command
/// line, the board size, the rules). An engine that fails is a report, not this error.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// No engine given.
    #[error("no engine command")]
    NoEngine,
    /// The engine's command line (one word) cannot be split into words.
    #[error("engine '{shown}': {error}")]
    Command {
        /// The command line, quoted and cut short.
        shown: String,
        /// Why.
        #[source]
        error: SplitError,
    },
    /// A board size other than 7, 9 or 10.
    #[error("the board size must be 7, 9 or 10")]
    Size,
    /// Rules that are none.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A number of seconds that is none.
    #[error("{option} must be a number of seconds, not {seconds}")]
    Seconds {
        /// The option.
        option: &'static str,
        /// What it was.
        seconds: f64,
    },
}

/// A required check that did not pass ([`required_checks`]): `check ID fail: DETAIL`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("check {id} {}: {}", .outcome.word(), .outcome.detail())]
pub struct CheckFailed {
    /// The check.
    pub id: &'static str,
    /// How it ended (failed, or skipped after another failed).
    pub outcome: CheckOutcome,
}

/// Runs every check of `plan` on its engine and returns the report.
pub fn run_check(plan: &CheckPlan) -> CheckReport {
    let (command, settings) = (&plan.command, &plan.settings);
    let started = Instant::now();
    let (checks, name, extensions) = probes::run_all(command, settings, true);
    let engine = plan.name.clone().or(name).unwrap_or_else(|| command.program.clone());
    CheckReport {
        engine,
        command: command.text.clone(),
        size: settings.variant().size(),
        rules: settings.rules(),
        checks,
        extensions,
        seconds: started.elapsed().as_secs_f64(),
        strict: plan.strict,
    }
}

/// Runs the checks of "plays refereed games" only (for `--check` of `match` and
/// `tournament`): `Err` names the first that did not pass and why.
pub fn required_checks(command: &EngineCommand, settings: &CheckSettings) -> Result<(), CheckFailed> {
    let (checks, _, _) = probes::run_all(command, settings, false);
    match checks.into_iter().find(|c| c.group == CheckGroup::Play && !matches!(c.outcome, CheckOutcome::Pass(_))) {
        None => Ok(()),
        Some(c) => Err(CheckFailed { id: c.id, outcome: c.outcome }),
    }
}

use crate::referee::engine::controller::shorten;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_is_one_word_or_several() {
        let settings = |size| CheckSettings::new(&CheckOptions { size, ..CheckOptions::default() });
        let plan = |engine: &[&str]| {
            let engine: Vec<String> = engine.iter().map(|w| w.to_string()).collect();
            CheckPlan::new(&engine, settings(7).unwrap(), false).unwrap()
        };
        let one = plan(&["x=veletas --seed 1"]);
        assert_eq!((one.name(), one.command().program.as_str()), (Some("x"), "veletas"));
        assert_eq!(one.command().args, ["--seed", "1"]);
        let several = plan(&["veletas", "--size", "7", "--player", "a b"]);
        assert_eq!((several.name(), several.command().args.len()), (None, 4));
        assert_eq!(several.command().text, "veletas --size 7 --player 'a b'");
        assert_eq!(settings(8).unwrap_err().to_string(), "the board size must be 7, 9 or 10");
        assert!(CheckPlan::new(&[], settings(7).unwrap(), false).is_err());
    }

    #[test]
    fn the_report_passes_only_when_every_required_check_passes() {
        let check = |id, group, outcome| CheckResult { id, group, outcome };
        let mut report = CheckReport {
            engine: "e".into(),
            command: "e".into(),
            size: 7,
            rules: Rules::CLASSIC,
            checks: vec![
                check("a", CheckGroup::Play, CheckOutcome::Pass("ok".into())),
                check("b", CheckGroup::Optional, CheckOutcome::Fail("no".into())),
            ],
            extensions: vec!["position".into()],
            seconds: 1.0,
            strict: false,
        };
        assert!(report.passed());
        assert!(report.to_string().contains("summary: compliant"));
        let json: CheckJson = serde_json::from_str(&report.json()).unwrap();
        assert!(json.passed);
        assert_eq!((json.checks[1].id.as_str(), json.checks[1].result.as_str()), ("b", "fail"));
        assert_eq!((json.size, json.extensions.as_slice()), (report.size, report.extensions.as_slice()));
        report.checks.push(check("s", CheckGroup::Strict, CheckOutcome::Fail("words".into())));
        assert!(report.passed(), "a strict failure decides only with --strict");
        assert!(report.to_string().contains("strict protocol.md: NO (0 of 1 checks passed, 1 failed, 0 skipped: s)"));
        report.strict = true;
        assert!(!report.passed());
        assert_eq!(report.first_failure().map(|c| c.id), Some("s"));
        report.strict = false;
        report.checks.push(check("c", CheckGroup::Play, CheckOutcome::Skip("later".into())));
        assert!(!report.passed());
        assert_eq!(report.first_failure().map(|c| c.id), Some("c"));
    }
}
