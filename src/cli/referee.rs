//! `veletas match` and `veletas tournament`: their options (the shared ones in
//! [`CommonArgs`]), validated once into the referee's typed plans ([`MatchPlan`],
//! [`TournamentPlan`], [`CommonPlan`]: the runner is built from these), and running them.

use std::path::PathBuf;

use super::error::{Classified, CommandError, classified, print, usage};
use super::values::parse_rules;
use veletas_rules::{RuleSet, Rules};
use veletas_tools::referee::clock::parse_seconds;
use veletas_tools::referee::openings::OpeningBook;
use veletas_tools::referee::tournament::{Format, ShardSpec};
use veletas_tools::referee::{
    ByoYomiSpec, ClockSpec, CommonPlan, EngineFlags, Existing, MatchPlan, RecordPlan, RefereeError, SprtSpec,
    TimeControl, TournamentPlan, parse_concurrency, parse_count, parse_odds,
};

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
    /// the time of engine 2). Clocks follow the engines: after a modern swap each engine keeps
    /// its own.
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
    #[arg(long, value_name = "RULES", default_value = "classic", value_parser = parse_rules)]
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
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub movetime: Option<f64>,
    /// A clock per player: main time plus an increment per move, in seconds.
    #[arg(long, visible_alias = "tc", value_name = "MAIN[+INC]")]
    pub clock: Option<ClockSpec>,
    /// Canadian byo-yomi after the --clock main time: PERIOD seconds for STONES moves.
    #[arg(long, value_name = "PERIOD/STONES")]
    pub byoyomi: Option<ByoYomiSpec>,
    /// Seconds a move may exceed the clock before it loses on time.
    #[arg(long, value_name = "SECONDS", default_value = "0.1", value_parser = parse_seconds)]
    pub margin: f64,
    /// Seconds an engine has to answer any command other than genmove (start-up included).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds)]
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
    /// No line per game, only the summary (the progress line stays: see --no-progress).
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// No progress line on stderr (it is shown only when stderr is a terminal).
    #[arg(long)]
    pub no_progress: bool,
    /// At the end, write one self-contained HTML page with the results (standings,
    /// crosstable, LOS; a match's summary) and every game counted, in the game viewer.
    /// Written whole or not at all (docs/pictures.md).
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// While games run, rewrite this HTML page (at most every 2 s, and at the end) with the
    /// games in progress and the standings so far; the page reloads itself.
    #[arg(long, value_name = "FILE.html")]
    pub live: Option<PathBuf>,
    /// Ask engines that list `genmove_analyze_steps` for their moves with it and record,
    /// for each turn, the playouts of each first step at their root (training data for the
    /// move policy; docs/learning.md). Other engines play and are recorded as without it.
    #[arg(long)]
    pub record_steps: bool,
}

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
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = parse_count)]
    pub games_per_pair: usize,
    /// How many times the whole schedule is played (round robin and gauntlet). The whole
    /// schedule holds at most 1,000,000 games.
    #[arg(long, value_name = "R", default_value_t = 1, value_parser = parse_count)]
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

impl MatchArgs {
    /// Validates the options once into the referee's plan of the match.
    pub fn plan(self) -> Result<MatchPlan, RefereeError> {
        let MatchArgs { engines, games, time_odds, event, common } = self;
        let (flags, common) = common.plan(engines)?;
        MatchPlan::new(flags, games, time_odds, event, common)
    }
}

impl TournamentArgs {
    /// Validates the options once into the referee's plan of the tournament.
    pub fn plan(self) -> Result<TournamentPlan, RefereeError> {
        let TournamentArgs { engines, format, games_per_pair, rounds, shard, anchor, head_to_head, event, common } =
            self;
        let (flags, common) = common.plan(engines)?;
        TournamentPlan::new(flags, format, games_per_pair, rounds, shard, common)?
            .with_standings(anchor, head_to_head)
            .map(|plan| plan.with_event(event))
    }
}

impl CommonArgs {
    /// The engines as given (`engines`: the `--engine` values) and the shared options
    /// validated into the referee's typed plan: the rules as one value, the openings, the
    /// time control, the record file and what to do when it exists, the outputs.
    fn plan(self, engines: Vec<String>) -> Result<(EngineFlags, CommonPlan), RefereeError> {
        let usage = RefereeError::Usage;
        let flags = EngineFlags::new(engines, self.engines_file, self.each, self.options);
        let rules = Rules::new(self.rules, self.no_corners, self.claimed_block)
            .map_err(|e| usage(format!("--claimed-block: {e}")))?;
        // A file named by an option that is not an openings file is the option's fault.
        let book = OpeningBook::new(&self.openings, self.size, rules, self.random_setup, self.seed)
            .map_err(|e| usage(e.to_string()))?;
        let control =
            TimeControl::from_options(self.movetime, self.clock, self.byoyomi).map_err(|e| usage(e.to_string()))?;
        let existing = match (self.resume, self.overwrite) {
            (_, true) => Existing::Overwrite,
            (true, false) => Existing::Required,
            (false, false) => Existing::Resume,
        };
        let plan = CommonPlan::new(book, control)
            .with_timing(self.margin, self.command_timeout)?
            .with_concurrency(self.concurrency)?
            .with_record(self.record.map(|path| RecordPlan::new(path, existing, self.wait)))
            .with_logs(self.engine_log, self.log_protocol)
            .with_pages(self.report, self.live)
            .with_output(self.quiet, !self.no_progress, self.rating_interval)?
            .with_checks(self.check, self.record_steps)
            .with_sprt(self.sprt);
        Ok((flags, plan))
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
pub(super) fn parse_options<A, I, T>(name: &'static str, args: I) -> Result<A, clap::Error>
where
    A: clap::Args + clap::FromArgMatches,
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let command = A::augment_args(clap::Command::new(name).no_binary_name(true));
    A::from_arg_matches(&command.try_get_matches_from(args)?)
}

impl TournamentArgs {
    /// Parses options as on the command line (without the program and subcommand names).
    pub fn parse_from<I, T>(args: I) -> Result<TournamentArgs, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        parse_options("veletas tournament", args)
    }
}

/// `--anchor`: kept as written once [`veletas_tools::ratings::files::parse_anchor`] accepts it.
fn checked_anchor(text: &str) -> Result<String, veletas_tools::ratings::files::BadAnchor> {
    veletas_tools::ratings::files::parse_anchor(text).map(|_| text.to_string())
}

impl Classified for RefereeError {
    fn is_usage(&self) -> bool {
        RefereeError::is_usage(self)
    }
}

/// `veletas match`: the games (or `--dry-run`'s list) and the summary on stdout.
pub(super) fn play_match(args: MatchArgs) -> Result<(), CommandError> {
    let dry_run = args.common.dry_run;
    let plan = args.plan().map_err(classified("match"))?;
    if dry_run {
        return print(&veletas_tools::referee::dry_run_match(&plan).map_err(classified("match"))?);
    }
    match veletas_tools::referee::run_match(&plan) {
        Ok(_) => Ok(()),
        Err(RefereeError::Interrupted(text)) => Err(CommandError::Interrupted { command: "match", text }),
        Err(e) => Err(classified("match")(e)),
    }
}

/// `veletas tournament`: the games (or `--dry-run`'s list) and the standings on stdout.
pub(super) fn play_tournament(args: TournamentArgs) -> Result<(), CommandError> {
    use veletas_tools::referee::tournament::{dry_run, run_tournament, summary};
    let dry_run_only = args.common.dry_run;
    let plan = args.plan().map_err(classified("tournament"))?;
    if dry_run_only {
        return print(&dry_run(&plan).map_err(classified("tournament"))?);
    }
    // An engine that cannot be started is refused before any game (an error here), so the
    // standings never hold forfeits of an engine that never played.
    let report = run_tournament(&plan).map_err(classified("tournament"))?;
    let text = summary(&report, plan.anchor(), plan.head_to_head()).map_err(usage("tournament"))?;
    print(&text)?;
    match report.interrupted {
        Some(text) => Err(CommandError::Interrupted { command: "tournament", text }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_plan_of_the_default_options_has_the_referees_defaults() {
        let plan = MatchArgs::parse_from(["--engine", "a", "--engine", "b"]).unwrap().plan().unwrap();
        let common = plan.common();
        assert_eq!((plan.games(), plan.event()), (2, "veletas match"));
        assert_eq!((common.rules(), common.book().variant.size()), (Rules::default(), 10));
        assert_eq!(common.time_control(), TimeControl::MoveTime(1.0));
        assert_eq!(
            (common.margin(), common.command_timeout(), common.concurrency()),
            (0.1, Duration::from_secs(10), 1)
        );
        assert!(common.record().is_none() && common.engine_log_path().is_none() && common.sprt().is_none());
        let plan = TournamentArgs::parse_from(["--engine", "a", "--engine", "b"]).unwrap().plan().unwrap();
        assert_eq!((plan.event(), plan.anchor(), plan.engines().len()), ("veletas tournament", None, 2));
        assert_eq!(plan.common(), common);
    }

    #[test]
    fn every_option_reaches_the_plan() {
        let args = MatchArgs::parse_from([
            "--engine",
            "a=x",
            "--engine",
            "b=y",
            "-n",
            "6",
            "--time-odds",
            "2",
            "--event",
            "e",
            "--each",
            "restart=on",
            "--option",
            "a:dir=/",
            "--sprt",
            "0,5",
            "--size",
            "7",
            "--rules",
            "modern",
            "--no-corners",
            "--claimed-block",
            "--random-setup",
            "--movetime",
            "0.5",
            "--margin",
            "0.2",
            "--command-timeout",
            "3",
            "-j",
            "2",
            "--seed",
            "9",
            "--record",
            "r.txt",
            "--resume",
            "--wait",
            "--engine-log",
            "l.txt",
            "--check",
            "--log-protocol",
            "p.txt",
            "--rating-interval",
            "4",
            "-q",
            "--no-progress",
            "--report",
            "r.html",
            "--live",
            "l.html",
            "--record-steps",
        ])
        .unwrap();
        let plan = args.plan().unwrap();
        assert_eq!((plan.games(), plan.event()), (6, "e"));
        let odds = veletas_rules::record::TimeControls::Odds { control: TimeControl::MoveTime(0.5), factor: 2.0 };
        assert_eq!(plan.time_control_tag(), Some(odds));
        assert!(plan.engines().iter().all(|d| d.restart));
        let c = plan.common();
        assert_eq!(c.rules(), Rules::new(RuleSet::Modern, true, true).unwrap());
        assert_eq!(c.book().variant.size(), 7);
        assert_eq!((c.margin(), c.command_timeout(), c.concurrency()), (0.2, Duration::from_secs(3), 2));
        let record = c.record().unwrap();
        assert_eq!(
            (record.path(), record.existing(), record.wait()),
            (std::path::Path::new("r.txt"), Existing::Required, true)
        );
        assert_eq!(c.engine_log_path(), Some("l.txt".into()));
        assert_eq!((c.log_protocol().is_some(), c.report().is_some(), c.live().is_some()), (true, true, true));
        assert_eq!((c.rating_interval(), c.quiet(), c.progress()), (Some(4), true, false));
        assert_eq!((c.check(), c.record_steps(), c.sprt().is_some()), (true, true, true));
    }

    #[test]
    fn options_that_do_not_make_a_plan_are_usage_errors() {
        let refused = |extra: &[&str]| {
            let mut args = vec!["--engine", "a", "--engine", "b"];
            args.extend_from_slice(extra);
            MatchArgs::parse_from(args).unwrap().plan().unwrap_err()
        };
        let e = refused(&["--claimed-block"]);
        assert!(e.is_usage() && e.to_string().starts_with("--claimed-block: "), "{e}");
        let e = refused(&["--movetime", "1", "--clock", "10"]);
        assert!(e.is_usage(), "{e}");
        let e = refused(&["--games", "4", "--option", "c:odds=2"]);
        assert!(e.is_usage() && e.to_string().contains("no engine is named 'c'"), "{e}");
    }
}
