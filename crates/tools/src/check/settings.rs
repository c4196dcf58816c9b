//! What the checks need besides the engine: the command line's [`CheckOptions`], validated
//! once into [`CheckSettings`], and [`CheckError`] when they cannot be.

use std::time::Duration;

use crate::referee::engine::command_deadline;
use crate::referee::words::SplitError;
use veletas_rules::{RuleSet, Rules, RulesError, Variant};

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
