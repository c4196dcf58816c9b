//! What `veletas check` found: how each check ended ([`CheckOutcome`]), its group, and the
//! whole report as text or JSON ([`CheckReport`]).

use std::fmt;

use veletas_rules::Rules;

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
