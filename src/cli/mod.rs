//! The command line: the engine (no subcommand), `perft`, `bench`, `check`, `match`, `tournament`,
//! `ratings`, `analyse-games`, `render`, `view`, `gui` and `generate`.
//!
//! `main.rs` only parses [`Cli`], sets up logging and calls [`run`]. Subcommands are the
//! variants of [`Subcommand`]; adding one means adding a variant and its arm in [`run`].
//! The clap definitions live here, one module per subcommand family, and nowhere else:
//! each turns its parsed options into the settings of the library that runs the
//! subcommand (`MatchArgs` validated into `veletas_tools::referee::MatchPlan`, ...), in one step. Every
//! subcommand returns one [`CommandError`] ([`error`]), which [`run`] alone turns into the
//! message and the exit code. The modules import one way: this one uses the others, which
//! use only [`error`] and `values` (the shared value parsers).

mod bench;
mod book;
mod check;
mod engine;
pub mod error;
pub mod generate;
mod gui;
mod perft;
mod picture;
mod ratings;
mod referee;
mod review;
mod train;
mod values;

use std::io;
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser};

use error::{classified, print, usage};
use values::{parse_rules, parse_size};
use veletas_rules::{Position, RuleSet, Rules, Variant};

pub use bench::BenchArgs;
pub use check::CheckArgs;
pub use engine::{EngineArgs, EvalArg};
pub use error::CommandError;
pub use gui::GuiArgs;
pub use perft::{BoardArgs, PerftArgs};
pub use picture::{RenderArgs, ViewArgs};
pub use ratings::RatingsArgs;
pub use referee::{CommonArgs, MatchArgs, TournamentArgs};
pub use train::{TrainArgs, TrainNetArgs, TrainPolicyArgs};

/// Veletas engine: speaks a GTP-style protocol on stdin/stdout.
// (Not in the doc comment, which clap prints as the long help:) the options before a
// subcommand are the engine's; a subcommand reads only those of `TOP_LEVEL_OPTIONS_READ`,
// and `Cli::try_parse_checked` refuses the others there rather than ignore them.
#[derive(Parser, Debug)]
#[command(
    name = "veletas",
    version = env!("VELETAS_VERSION"),
    about = "Veletas engine: speaks a GTP-style protocol on stdin/stdout (see protocol.md)",
    after_help = "Without a subcommand, reads protocol commands from stdin and answers on stdout; \
logs go to stderr (set RUST_LOG=debug to see every command and reply).\n\n\
Examples:\n  printf 'boardsize 7\\nclear_board\\ngenmove b\\nshowboard\\n' | veletas --seed 1\n  \
veletas --movetime 0.1 --threads 2 --ponder\n  \
veletas --player uct --playouts 5000 --seed 7   # deterministic moves\n  \
veletas --rules modern --no-corners --size 9"
)]
pub struct Cli {
    /// Board size of the first game: 7, 9 or 10 (`boardsize` changes it later).
    #[arg(long, default_value_t = 10, value_parser = parse_size)]
    pub size: u8,
    /// The rule set: classic (the rulebook) or modern (setup stones, swap, shooters
    /// passed over); the protocol's `rules` command changes it later.
    #[arg(long, value_name = "RULES", default_value = "classic", value_parser = parse_rules)]
    pub rules: RuleSet,
    /// The no-corners option: the four corners do not exist (`option no-corners` later).
    #[arg(long)]
    pub no_corners: bool,
    /// The claimed-block option of the modern rules (boardspace.net's dialect): claimed
    /// shooters block moves and shots (`option claimed-block` later).
    #[arg(long)]
    pub claimed_block: bool,
    /// Seed of the random choices, for reproducible sessions (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The engine's player and its search settings.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// What to do instead of running the engine.
    #[command(subcommand)]
    pub command: Option<Subcommand>,
}

/// The subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum Subcommand {
    /// Counts the move sequences of a given depth (move-generation check).
    #[command(after_help = "Examples:\n  veletas perft 2 7/7/2s4/7/4s2/1s5/7 b\n  \
veletas perft 1 --size 9\n  veletas perft --divide 2 '7/7/2s4/7/4s2/1s5/7 b'\n  \
veletas perft --threads 2 3 '7/7/2s4/7/4s2/1s5/7 b'")]
    Perft(PerftArgs),
    /// Times move generation (perft), random playouts and the search on fixed positions.
    #[command(after_help = "Measures perft nodes/s, random playouts/s (cheap and uniform policies) and the \
search's iterations/s with one thread and with --search-threads threads (positions in play only), over \
--runs runs after --warmup runs, and prints each figure's median, range and spread (or JSON). With \
--compare OTHER it runs this binary and OTHER alternately on the same positions and prints each \
figure's ratio.\n\n\
Examples:\n  veletas bench\n  veletas bench --runs 9 --json\n  \
veletas bench --compare /path/to/old/veletas --runs 7")]
    Bench(BenchArgs),
    /// Makes a balanced openings file: candidate openings scored by an engine (see docs/book.md).
    Book(book::BookArgs),
    /// Checks an engine's compliance with the protocol, one line per check (see docs/check.md).
    Check(CheckArgs),
    /// Plays two protocol engines against each other and reports the result (see docs/match.md).
    Match(Box<MatchArgs>),
    /// Learns the weights of the learned evaluation from recorded games (see docs/learning.md).
    #[command(name = "train-eval")]
    TrainEval(TrainArgs),
    /// Learns the weights of the move policy from the first steps of recorded self-play
    /// searches (see docs/learning.md).
    #[command(name = "train-policy")]
    TrainPolicy(TrainPolicyArgs),
    /// Trains the value network, a correction of the learned evaluation, on recorded games
    /// (see docs/learning.md).
    #[command(name = "train-net")]
    TrainNet(TrainNetArgs),
    /// Plays a field of protocol engines (round robin, gauntlet or knockout) and rates it
    /// (see docs/tournament.md).
    Tournament(Box<TournamentArgs>),
    /// Rates the engines of record files: standings, crosstable, LOS (see docs/ratings.md).
    Ratings(RatingsArgs),
    /// Reviews recorded games: an engine analyses every position, and the games are written
    /// again with each turn's win rate (see docs/review.md).
    #[command(name = "analyse-games")]
    AnalyseGames(review::ReviewArgs),
    /// Draws one position as an SVG picture (see docs/pictures.md).
    Render(RenderArgs),
    /// Writes every game of record files into one self-contained HTML viewer (see docs/pictures.md).
    View(ViewArgs),
    /// Plays in the browser against protocol engines: a local web server (see docs/gui.md).
    Gui(GuiArgs),
    /// Writes shell completions or the man page on stdout (see README.md, Install).
    #[command(
        after_help = "Examples:\n  veletas generate bash > ~/.local/share/bash-completion/completions/veletas\n  \
veletas generate zsh > ~/.zfunc/_veletas\n  veletas generate fish > ~/.config/fish/completions/veletas.fish\n  \
veletas generate man > ~/.local/share/man/man1/veletas.1"
    )]
    Generate {
        /// What to write.
        #[arg(value_enum)]
        what: generate::Generated,
    },
}

/// The options before a subcommand that it reads (by the option's clap id), with the same
/// meaning as for the engine; the others are refused there ([`Cli::try_parse_checked`]).
pub const TOP_LEVEL_OPTIONS_READ: &[(&str, &[&str])] =
    &[("perft", &["size", "rules", "no_corners", "claimed_block"]), ("bench", &["seed"])];

/// Why the command line was refused: clap's own error (usage, `--help`, `--version`
/// included), or an option before a subcommand that does not read it.
#[derive(Debug)]
pub enum CliError {
    /// A refusal of clap's: print it with [`clap::Error::exit`].
    Clap(clap::Error),
    /// An option placed where it would be ignored: one line, exit code 2.
    Misplaced(String),
}

impl CliError {
    /// Prints the refusal and gives the exit status: `--help` and `--version` as clap prints
    /// them (stdout, exit 0); every other refusal as one line on stderr ([`clap_one_line`]),
    /// exit 2.
    pub fn exit(self) -> ExitCode {
        match self {
            CliError::Clap(e)
                if !e.use_stderr() || e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
            {
                e.exit()
            }
            CliError::Clap(e) => {
                eprintln!("{}", clap_one_line(e));
                ExitCode::from(2)
            }
            CliError::Misplaced(e) => {
                eprintln!("veletas: {e}");
                ExitCode::from(2)
            }
        }
    }
}

/// The most characters of a clap refusal's line.
pub const MAX_CLAP_LINE: usize = 400;

/// A refusal of clap's as one line: its error and its tips, without the usage and the
/// pointer to `--help` that clap adds on lines of their own (`error: unexpected argument
/// '--movtime' found | tip: a similar argument exists: '--movetime'`); the arguments it
/// repeats with their control characters escaped, the line cut at [`MAX_CLAP_LINE`].
pub fn clap_one_line(mut e: clap::Error) -> String {
    // The arguments clap repeats, escaped before it lays out its lines (a line break in an
    // argument must not start a line of the message).
    let context: Vec<_> = e.context().map(|(kind, value)| (kind, value.clone())).collect();
    for (kind, value) in context {
        let escaped = match value {
            clap::error::ContextValue::String(s) => clap::error::ContextValue::String(veletas_rules::quoted_to(&s, 60)),
            clap::error::ContextValue::Strings(v) => {
                clap::error::ContextValue::Strings(v.iter().map(|s| veletas_rules::quoted_to(s, 60)).collect())
            }
            other => other,
        };
        e.insert(kind, escaped);
    }
    let text = e.render().to_string();
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty())
        .collect();
    veletas_rules::quoted_to(&parts.join(" | "), MAX_CLAP_LINE)
}

impl Cli {
    /// Parses the command line like [`Parser::try_parse_from`], then refuses an option given
    /// before a subcommand that the subcommand does not read ([`TOP_LEVEL_OPTIONS_READ`]),
    /// naming where it belongs, and one given both before and after `perft` or `bench`.
    pub fn try_parse_checked<I, T>(args: I) -> Result<Cli, CliError>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let command = Cli::command();
        let matches = command.clone().try_get_matches_from(args).map_err(CliError::Clap)?;
        if let Some((name, sub)) = matches.subcommand() {
            misplaced_option(&command, &matches, name, sub).map_or(Ok(()), |e| Err(CliError::Misplaced(e)))?;
        }
        Cli::from_arg_matches(&matches).map_err(CliError::Clap)
    }
}

/// The refusal of an option given before subcommand `name`, if any.
fn misplaced_option(command: &clap::Command, matches: &ArgMatches, name: &str, sub: &ArgMatches) -> Option<String> {
    let read = TOP_LEVEL_OPTIONS_READ.iter().find(|(n, _)| *n == name).map_or(&[][..], |(_, ids)| *ids);
    let subcommand = command.find_subcommand(name)?;
    for arg in command.get_arguments() {
        let id = arg.get_id().as_str();
        if matches.value_source(id) != Some(ValueSource::CommandLine) {
            continue;
        }
        let Some(long) = arg.get_long() else { continue };
        let own = subcommand.get_arguments().find(|a| a.get_long() == Some(long));
        if read.contains(&id) {
            let twice = own.is_some_and(|a| sub.value_source(a.get_id().as_str()) == Some(ValueSource::CommandLine));
            if twice {
                return Some(format!("--{long} given both before and after `{name}`: give it once"));
            }
            continue;
        }
        return Some(match own {
            Some(_) => format!(
                "--{long} before `{name}` is an option of the engine (veletas without a subcommand), \
                 which {name} does not read: give {name}'s own --{long} after it (veletas {name} --{long} ...)"
            ),
            None => format!(
                "--{long} is an option of the engine (veletas without a subcommand): \
                 {name} has no --{long} (see veletas {name} --help)"
            ),
        });
    }
    None
}

fn default_seed() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(0)
}

/// Runs the program as the command line asks: the one place where an error becomes a
/// message and an exit code.
pub fn run(cli: Cli) -> ExitCode {
    match run_command(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => e.exit(),
    }
}

fn run_command(cli: Cli) -> Result<(), CommandError> {
    // `perft`'s own board options, given after it, count as if given before it.
    let board = match &cli.command {
        Some(Subcommand::Perft(args)) => args.board.clone(),
        _ => BoardArgs::default(),
    };
    let variant = Variant::from_size(board.size.unwrap_or(cli.size)).unwrap_or(Variant::STANDARD);
    let rule_set = board.rules.unwrap_or(cli.rules);
    let rules = Rules::new(rule_set, cli.no_corners || board.no_corners, cli.claimed_block || board.claimed_block)
        .map_err(|e| CommandError::Usage { command: "", message: format!("--claimed-block: {e}") })?;
    match cli.command {
        None => engine::run(Position::with_rules(variant, rules), &cli.engine, cli.seed.unwrap_or_else(default_seed))?,
        Some(Subcommand::Perft(args)) => perft::run(Position::with_rules(variant, rules), &args)?,
        Some(Subcommand::Bench(args)) => {
            let seed = args.seed.or(cli.seed).unwrap_or(1);
            let settings = args.settings().map_err(usage("bench"))?;
            use veletas_engine::bench::BenchError;
            match veletas_engine::bench::run(&settings, seed) {
                Err(BenchError::Input(message)) => return Err(usage("bench")(message)),
                Err(BenchError::Failed(message)) => return Err(error::failed("bench")(message)),
                Err(BenchError::Output(e)) => return Err(CommandError::Io(e)),
                Ok(()) => {}
            }
        }
        Some(Subcommand::Generate { what }) => generate::write(what, Cli::command(), &mut io::stdout().lock())?,
        Some(Subcommand::Render(args)) => {
            veletas_tools::picture::command::render(&args.into()).map_err(classified("render"))?
        }
        Some(Subcommand::View(args)) => {
            veletas_tools::picture::command::view(&args.into()).map_err(classified("view"))?
        }
        Some(Subcommand::Gui(args)) => gui::gui(args)?,
        Some(Subcommand::Match(args)) => ending_orphans(|| referee::play_match(*args))?,
        Some(Subcommand::Tournament(args)) => ending_orphans(|| referee::play_tournament(*args))?,
        Some(Subcommand::Check(args)) => ending_orphans(|| check::check(args))?,
        Some(Subcommand::Book(args)) => ending_orphans(|| book::book(args))?,
        Some(Subcommand::AnalyseGames(args)) => ending_orphans(|| review::analyse_games(args))?,
        Some(Subcommand::TrainEval(args)) => print(&train::train_eval(args).map_err(classified("train-eval"))?)?,
        Some(Subcommand::TrainPolicy(args)) => print(&train::train_policy(args).map_err(classified("train-policy"))?)?,
        Some(Subcommand::TrainNet(args)) => print(&train::train_net(args).map_err(classified("train-net"))?)?,
        Some(Subcommand::Ratings(args)) => ratings::ratings(args)?,
    }
    Ok(())
}

/// Runs a tool that starts engines with the referee's signal handling (a signal ends every
/// engine group; while games run, a first SIGINT or SIGTERM stops them in order:
/// `veletas_tools::referee::handle_signals`), as the adopter of the processes orphaned
/// below it, ending those left when it is done (`veletas_tools::referee::adopt_orphans`:
/// Linux). The command line owns the process's signals: no library call installs handlers.
fn ending_orphans<T>(run: impl FnOnce() -> T) -> T {
    veletas_tools::referee::handle_signals();
    veletas_tools::referee::adopt_orphans();
    let done = run();
    veletas_tools::referee::end_orphans();
    done
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use veletas_engine::search::Algorithm;

    #[test]
    fn default_engine_args_match_the_flags_defaults() {
        let cli = Cli::try_parse_from(["veletas"]).unwrap();
        assert_eq!(cli.engine, EngineArgs::default());
        let cli = Cli::try_parse_from([
            "veletas",
            "--player",
            "UCT",
            "--movetime",
            "0.1",
            "--playouts",
            "50",
            "--threads",
            "2",
        ])
        .unwrap();
        let player = cli.engine.player(3).unwrap();
        assert_eq!(
            (player.settings().player, player.settings().threads, player.settings().seed),
            (Algorithm::Uct, 2, 3)
        );
        assert_eq!((player.movetime(), player.playouts()), (Duration::from_millis(100), Some(50)));
        for bad in [&["--player", "chess"][..], &["--movetime", "0"], &["--threads", "0"], &["--threads", "65"]] {
            assert!(Cli::try_parse_from(std::iter::once("veletas").chain(bad.iter().copied())).is_err(), "{bad:?}");
        }
    }

    /// A short valid command line of every subcommand (clap must accept it).
    const SUBCOMMAND_LINES: &[&[&str]] = &[
        &["perft", "1"],
        &["bench"],
        &["book", "--engine", "veletas"],
        &["check", "veletas"],
        &["match", "--engine", "a", "--engine", "b"],
        &["train-eval", "games.txt"],
        &["train-policy", "games.txt"],
        &["train-net", "games.txt"],
        &["tournament", "--engine", "a", "--engine", "b"],
        &["ratings", "games.txt"],
        &["analyse-games", "games.txt", "--engine", "veletas", "-o", "out.txt"],
        &["render", "7/7/7/7/7/7/7 b"],
        &["view", "games.txt"],
        &["gui", "--no-browser"],
        &["generate", "bash"],
    ];

    #[test]
    fn every_option_before_every_subcommand_is_read_or_refused() {
        let command = Cli::command();
        let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
        let covered: Vec<&str> = SUBCOMMAND_LINES.iter().map(|l| l[0]).collect();
        assert_eq!(names, covered, "SUBCOMMAND_LINES must list every subcommand, in order");
        for arg in command.get_arguments() {
            let (id, long) = (arg.get_id().as_str(), format!("--{}", arg.get_long().unwrap()));
            let mut option = vec![long.clone()];
            if arg.get_action().takes_values() {
                let value = match arg.get_default_values().first() {
                    Some(v) => v.to_string_lossy().into_owned(),
                    None if id == "search" => "cutoff=5".to_string(),
                    None => "1".to_string(),
                };
                option.push(value);
            }
            for line in SUBCOMMAND_LINES {
                let argv =
                    std::iter::once("veletas").chain(option.iter().map(String::as_str)).chain(line.iter().copied());
                let read = TOP_LEVEL_OPTIONS_READ.iter().any(|(sub, ids)| *sub == line[0] && ids.contains(&id));
                match Cli::try_parse_checked(argv) {
                    Ok(_) => assert!(read, "{long} before {} is accepted but not read", line[0]),
                    Err(CliError::Misplaced(e)) => {
                        assert!(!read, "{long} before {} is read but refused: {e}", line[0]);
                        assert!(e.starts_with(&long) && !e.contains('\n'), "{e}");
                    }
                    Err(CliError::Clap(e)) => panic!("{long} before {}: {e}", line[0]),
                }
            }
        }
    }

    #[test]
    fn the_resign_help_gives_the_number_of_turns_the_player_waits() {
        use veletas_engine::player::search_player::RESIGN_TURNS;
        let command = Cli::command();
        let resign = command.get_arguments().find(|a| a.get_id() == "resign").unwrap();
        let help = resign.get_help().unwrap().to_string();
        assert!(help.contains(&format!("for {RESIGN_TURNS} turns in a row")), "{help}");
    }

    #[test]
    fn protocol_md_describes_every_option_of_the_engine() {
        let doc = include_str!("../../protocol.md");
        for arg in Cli::command().get_arguments() {
            let long = arg.get_long().unwrap();
            assert!(doc.contains(&format!("`--{long}")), "protocol.md does not describe --{long}");
        }
    }

    #[test]
    fn cli_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
