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
mod report;
mod session;
mod settings;

use std::time::Instant;

use crate::referee::engine::EngineCommand;
use crate::referee::error::MAX_COMMAND_SHOWN;
use crate::referee::words::split_engine_name;
pub use report::{CheckGroup, CheckJson, CheckLineJson, CheckOutcome, CheckReport, CheckResult};
pub use settings::{CheckError, CheckOptions, CheckSettings};

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

#[cfg(test)]
mod tests {
    use super::*;
    use veletas_rules::Rules;

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
