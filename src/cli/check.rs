//! `veletas check`: its options, validated into a [`CheckPlan`], and the report printed.

use clap::{Args, FromArgMatches};

use super::error::{CommandError, print, usage};
use super::values::{parse_rules, parse_size};
use veletas_rules::RuleSet;
use veletas_tools::check::{CheckError, CheckOptions, CheckPlan, CheckSettings};
use veletas_tools::referee::clock::parse_seconds;

/// Options of `veletas check`.
#[derive(Args, Clone, Debug, PartialEq)]
#[command(after_help = "The engine's command line comes last: given as separate words, everything after \
its program belongs to the engine (put the check's options first); given as one quoted word, the check's \
options may follow it.\n\n\
Examples:\n  veletas check --size 7 veletas --playouts 50\n  \
veletas check 'veletas --playouts 50' --size 9 --rules modern\n  \
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
    /// The strict protocol.md checks decide the exit status too (without it, only "plays
    /// refereed games" does).
    #[arg(long)]
    pub strict: bool,
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

impl CheckArgs {
    /// Validates the options once into the plan of the checks (`--json` is the command
    /// line's: how the report is printed).
    pub fn plan(&self) -> Result<CheckPlan, CheckError> {
        let CheckArgs { size, rules, movetime, margin, command_timeout, seed, .. } = *self;
        let settings = CheckSettings::new(&CheckOptions { size, rules, movetime, margin, command_timeout, seed })?;
        CheckPlan::new(&self.engine, settings, self.strict)
    }
}

impl CheckArgs {
    /// The check's options that follow an engine given as one quoted word (a first word
    /// with white space in it: a whole command line, `'veletas --playouts 50' --size 9`),
    /// which cannot be that engine's arguments, applied over those given before it. The
    /// words after an engine given word by word stay its arguments.
    pub fn with_options_after_quoted_engine(self) -> Result<CheckArgs, AfterEngineError> {
        let Some((first, rest)) = self.engine.split_first() else { return Ok(self) };
        if rest.is_empty() || !first.contains(char::is_whitespace) {
            return Ok(self);
        }
        let words = rest.iter().map(String::as_str).chain(["--", first.as_str()]);
        let command = CheckArgs::augment_args(clap::Command::new("veletas check").no_binary_name(true));
        let matches = command.try_get_matches_from(words).map_err(|e| {
            let text = e.to_string();
            let line = text.lines().next().unwrap_or_default().trim_start_matches("error: ").to_string();
            AfterEngineError::Options { engine: first.clone(), line }
        })?;
        let after = CheckArgs::from_arg_matches(&matches).map_err(AfterEngineError::Parse)?;
        if after.engine != [first.as_str()] {
            let word = after.engine.first().cloned().unwrap_or_default();
            return Err(AfterEngineError::NotAnOption { engine: first.clone(), word });
        }
        let given = |id: &str| matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
        Ok(CheckArgs {
            engine: after.engine,
            size: if given("size") { after.size } else { self.size },
            rules: if given("rules") { after.rules } else { self.rules },
            json: self.json || after.json,
            movetime: if given("movetime") { after.movetime } else { self.movetime },
            margin: if given("margin") { after.margin } else { self.margin },
            command_timeout: if given("command_timeout") { after.command_timeout } else { self.command_timeout },
            seed: if given("seed") { after.seed } else { self.seed },
            strict: self.strict || after.strict,
        })
    }
}

/// Why the words after an engine given as one quoted word are not the check's options.
#[derive(Debug, thiserror::Error)]
pub enum AfterEngineError {
    /// They are no options of the check: clap's first line.
    #[error("after the engine '{}' (one quoted word) come the check's options: {line}", veletas_rules::quoted(.engine))]
    Options {
        /// The engine's word.
        engine: String,
        /// clap's first line, without `error: `.
        line: String,
    },
    /// clap's matches did not make the options.
    #[error("{0}")]
    Parse(#[source] clap::Error),
    /// A word after the engine that is no option.
    #[error(
        "after the engine '{}' (one quoted word) come the check's options, not '{}'",
        veletas_rules::quoted(.engine),
        veletas_rules::quoted(.word)
    )]
    NotAnOption {
        /// The engine's word.
        engine: String,
        /// The word.
        word: String,
    },
}

/// `veletas check`: the report on stdout (lines or JSON); exit 0 only when the engine plays
/// refereed games (and with `--strict` passed the strict checks too), 1 when not, 2 when the
/// check could not be run.
pub(super) fn check(args: CheckArgs) -> Result<(), CommandError> {
    let args = args.with_options_after_quoted_engine().map_err(usage("check"))?;
    let json = args.json;
    let report = veletas_tools::check::run_check(&args.plan().map_err(usage("check"))?);
    print(&if json { report.json() } else { report.to_string() })?;
    if report.passed() { Ok(()) } else { Err(CommandError::Verdict) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(words: &[&str]) -> Result<CheckArgs, String> {
        CheckArgs::parse_from(words)
            .map_err(|e| e.to_string())?
            .with_options_after_quoted_engine()
            .map_err(|e| e.to_string())
    }

    #[test]
    fn options_after_an_engine_in_one_quoted_word_are_the_checks() {
        let args = parsed(&["--json", "--size", "10", "veletas --playouts 40", "--size", "9", "--seed", "3"]).unwrap();
        assert_eq!(args.engine, ["veletas --playouts 40"]);
        assert_eq!((args.size, args.seed, args.json, args.rules), (9, 3, true, RuleSet::Classic));
        let args = parsed(&["--size", "10", "veletas --playouts 40", "--rules", "modern"]).unwrap();
        assert_eq!((args.size, args.rules), (10, RuleSet::Modern));
        let error = parsed(&["veletas --playouts 40", "--level", "3"]).unwrap_err();
        assert!(error.contains("'veletas --playouts 40' (one quoted word)") && error.contains("--level"), "{error}");
        let error = parsed(&["veletas --playouts 40", "extra"]).unwrap_err();
        assert!(error.contains("not 'extra'"), "{error}");
    }

    #[test]
    fn words_after_an_engine_given_word_by_word_stay_its_arguments() {
        let args = parsed(&["--size", "9", "veletas", "--playouts", "40", "--size", "7"]).unwrap();
        assert_eq!(args.engine, ["veletas", "--playouts", "40", "--size", "7"]);
        assert_eq!(args.size, 9);
        assert_eq!(parsed(&["veletas --seed 1"]).unwrap().engine, ["veletas --seed 1"]);
    }
}
