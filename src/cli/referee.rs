//! `veletas match` and `veletas tournament`: their options (the shared ones in
//! [`CommonArgs`]), turned into the referee's plain settings ([`MatchSettings`],
//! [`TournamentSettings`], [`CommonSettings`]) in one step, and running them.

use std::path::PathBuf;

use super::error::{Classified, CommandError, classified, print, usage};
use super::values::parse_rules;
use crate::referee::clock::parse_seconds;
use crate::referee::tournament::{Format, ShardSpec, TournamentSettings};
use crate::referee::{
    ByoYomiSpec, ClockSpec, CommonSettings, MatchSettings, RefereeError, SprtSpec, parse_concurrency, parse_count,
    parse_odds,
};
use crate::rules::RuleSet;

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

impl From<MatchArgs> for MatchSettings {
    fn from(args: MatchArgs) -> MatchSettings {
        // Every field named, so that an option added to the one and not the other does not build.
        let MatchArgs { engines, games, time_odds, event, common } = args;
        MatchSettings { engines, games, time_odds, event, common: common.into() }
    }
}

impl From<CommonArgs> for CommonSettings {
    fn from(args: CommonArgs) -> CommonSettings {
        // Every field named, so that an option added to the one and not the other does not build.
        let CommonArgs {
            engines_file,
            each,
            options,
            sprt,
            dry_run,
            size,
            rules,
            no_corners,
            claimed_block,
            random_setup,
            movetime,
            clock,
            byoyomi,
            margin,
            command_timeout,
            concurrency,
            openings,
            seed,
            record,
            resume,
            overwrite,
            wait,
            engine_log,
            check,
            log_protocol,
            rating_interval,
            quiet,
            no_progress,
            report,
            live,
            record_steps,
        } = args;
        CommonSettings {
            engines_file,
            each,
            options,
            sprt,
            dry_run,
            size,
            rules,
            no_corners,
            claimed_block,
            random_setup,
            movetime,
            clock,
            byoyomi,
            margin,
            command_timeout,
            concurrency,
            openings,
            seed,
            record,
            resume,
            overwrite,
            wait,
            engine_log,
            check,
            log_protocol,
            rating_interval,
            quiet,
            no_progress,
            report,
            live,
            record_steps,
        }
    }
}

impl From<TournamentArgs> for TournamentSettings {
    fn from(args: TournamentArgs) -> TournamentSettings {
        // Every field named, so that an option added to the one and not the other does not build.
        let TournamentArgs { engines, format, games_per_pair, rounds, shard, anchor, head_to_head, event, common } =
            args;
        TournamentSettings {
            engines,
            format,
            games_per_pair,
            rounds,
            shard,
            anchor,
            head_to_head,
            event,
            common: common.into(),
        }
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

/// `--anchor`: kept as written once [`crate::ratings::files::parse_anchor`] accepts it.
fn checked_anchor(text: &str) -> Result<String, String> {
    crate::ratings::files::parse_anchor(text).map(|_| text.to_string())
}

impl Classified for RefereeError {
    fn is_usage(&self) -> bool {
        RefereeError::is_usage(self)
    }
}

/// `veletas match`: the games (or `--dry-run`'s list) and the summary on stdout.
pub(super) fn play_match(args: MatchArgs) -> Result<(), CommandError> {
    let args = MatchSettings::from(args);
    if args.common.dry_run {
        return print(&crate::referee::dry_run_match(&args).map_err(classified("match"))?);
    }
    match crate::referee::run_match(&args) {
        Ok(_) => Ok(()),
        Err(RefereeError::Interrupted(text)) => Err(CommandError::Interrupted { command: "match", text }),
        Err(e) => Err(classified("match")(e)),
    }
}

/// `veletas tournament`: the games (or `--dry-run`'s list) and the standings on stdout.
pub(super) fn play_tournament(args: TournamentArgs) -> Result<(), CommandError> {
    let args = TournamentSettings::from(args);
    use crate::referee::tournament::{dry_run, run_tournament, summary};
    if args.common.dry_run {
        return print(&dry_run(&args).map_err(classified("tournament"))?);
    }
    // An engine that cannot be started is refused before any game (an error here), so the
    // standings never hold forfeits of an engine that never played.
    let report = run_tournament(&args).map_err(classified("tournament"))?;
    let text = summary(&report, args.anchor.as_deref(), args.head_to_head).map_err(usage("tournament"))?;
    print(&text)?;
    match report.interrupted {
        Some(text) => Err(CommandError::Interrupted { command: "tournament", text }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_settings_of_the_default_options_are_the_referees_defaults() {
        let args = MatchArgs::parse_from(["--engine", "a", "--engine", "b"]).unwrap();
        assert_eq!(MatchSettings::from(args).common, CommonSettings::default());
        let args = TournamentArgs::parse_from(["--engine", "a", "--engine", "b"]).unwrap();
        assert_eq!(TournamentSettings::from(args).common, CommonSettings::default());
    }

    #[test]
    fn every_option_reaches_its_setting() {
        let args = MatchArgs::parse_from([
            "--engine",
            "a",
            "--engine",
            "b",
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
            "--dry-run",
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
            "--report",
            "r.html",
            "--live",
            "l.html",
        ])
        .unwrap();
        let settings = MatchSettings::from(args);
        assert_eq!((settings.games, settings.time_odds, settings.event.as_str()), (6, 2.0, "e"));
        let c = settings.common;
        assert_eq!((c.each.len(), c.options.len(), c.sprt.is_some(), c.dry_run), (1, 1, true, true));
        assert_eq!(
            (c.size, c.rules, c.no_corners, c.claimed_block, c.random_setup),
            (Some(7), RuleSet::Modern, true, true, true)
        );
        assert_eq!((c.movetime, c.margin, c.command_timeout, c.concurrency, c.seed), (Some(0.5), 0.2, 3.0, 2, 9));
        assert_eq!(
            (c.record.is_some(), c.resume, c.overwrite, c.wait, c.engine_log.is_some()),
            (true, true, false, true, true)
        );
        assert_eq!((c.check, c.log_protocol.is_some(), c.rating_interval, c.quiet), (true, true, Some(4), true));
        assert_eq!((c.report.is_some(), c.live.is_some()), (true, true));
    }
}
