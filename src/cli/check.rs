//! `veletas check`: its options, turned into a [`CheckRequest`], and the report printed.

use clap::Args;

use super::error::{CommandError, print, usage};
use super::values::{parse_rules, parse_size};
use crate::check::CheckRequest;
use crate::referee::clock::parse_seconds;
use crate::rules::RuleSet;

/// Options of `veletas check`.
#[derive(Args, Clone, Debug, PartialEq)]
#[command(after_help = "The engine's command line comes last: everything after it belongs to the engine \
(give it as one quoted word, or put the check's options first).\n\n\
Examples:\n  veletas check --size 7 veletas --playouts 50\n  \
veletas check --json 'mine=./my-engine --level 3'\n\nSee docs/check.md.")]
pub struct CheckArgs {
    /// The engine: `[NAME=]CMD ARGS...`, as one quoted word or as separate words.
    #[arg(value_name = "[NAME=]CMD ARGS", required = true, num_args = 1.., trailing_var_arg = true,
          allow_hyphen_values = true)]
    pub engine: Vec<String>,
    /// Board size of the checks: 7, 9 or 10.
    #[arg(long, default_value_t = 7, value_parser = parse_size)]
    pub size: u8,
    /// The rule set: classic or modern (then `rules modern` is required of the engine).
    #[arg(long, value_name = "RULES", default_value = "classic", value_parser = parse_rules)]
    pub rules: RuleSet,
    /// Print the report as one JSON object instead of lines.
    #[arg(long)]
    pub json: bool,
    /// Time per move of the whole game the engine plays against itself, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "0.2", value_parser = parse_seconds)]
    pub movetime: f64,
    /// Seconds a move may exceed its clock before the check fails.
    #[arg(long, value_name = "SECONDS", default_value = "0.1", value_parser = parse_seconds)]
    pub margin: f64,
    /// Seconds the engine has to answer any command without a clock (start-up included).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds)]
    pub command_timeout: f64,
    /// Seed of the random moves the checks play.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl CheckArgs {
    /// Parses options as on the command line (without the program and subcommand names).
    pub fn parse_from<I, T>(args: I) -> Result<CheckArgs, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        super::referee::parse_options("veletas check", args)
    }
}

impl From<CheckArgs> for CheckRequest {
    /// The request of `args` (`--json` is the command line's: how the report is printed).
    fn from(args: CheckArgs) -> CheckRequest {
        let CheckArgs { engine, size, rules, json: _, movetime, margin, command_timeout, seed } = args;
        CheckRequest { engine, size, rules, movetime, margin, command_timeout, seed }
    }
}

/// `veletas check`: the report on stdout (lines or JSON); exit 0 only when every required
/// check passed, 1 when one did not, 2 when the check could not be run.
pub(super) fn check(args: CheckArgs) -> Result<(), CommandError> {
    let json = args.json;
    let report = crate::check::run_check(&CheckRequest::from(args)).map_err(usage("check"))?;
    print(&if json { report.json() } else { report.to_string() })?;
    if report.passed() { Ok(()) } else { Err(CommandError::Verdict) }
}
