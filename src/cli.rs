//! The command line: the engine (no subcommand), `perft`, `bench`, `check`, `match`, `tournament`,
//! `ratings`, `render`, `view`, `gui` and `generate`.
//!
//! `main.rs` only parses [`Cli`], sets up logging and calls [`run`]. Subcommands are the
//! variants of [`Subcommand`]; adding one means adding a variant and its arm in [`run`].

use std::io::{self, BufReader, BufWriter, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser};
use log::info;

use crate::player::search_player::MAX_THREADS;
use crate::player::time::MAX_THINKING;
use crate::player::{SearchPlayer, Setting};
use crate::protocol::{self, Engine};
use crate::rules::{Position, RuleSet, Rules, Variant};
use crate::search::eval::Evaluation;
use crate::search::{Algorithm, DEFAULT_MEMORY_MB, MAX_MEMORY_MB, MIN_MEMORY_MB, SearchParam, SearchSettings};

/// Veletas engine: speaks a GTP-style protocol on stdin/stdout.
///
/// The options before a subcommand are the engine's; a subcommand reads only those of
/// [`TOP_LEVEL_OPTIONS_READ`], and [`Cli::try_parse_checked`] refuses the others there
/// rather than ignore them.
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

/// The engine's player: which one, and how long it thinks (the protocol's `player`,
/// `movetime`, `playouts` and `threads` commands change them later).
#[derive(Args, Debug, Clone, PartialEq)]
pub struct EngineArgs {
    /// The player: random, greedy, uct (plain UCT baseline) or veletas (our engine).
    #[arg(long, default_value = "veletas", value_parser = parse_player)]
    pub player: Algorithm,
    /// Thinking time per move in seconds when the controller sets no clock.
    #[arg(long, value_name = "SECONDS", default_value_t = 1.0, value_parser = parse_movetime)]
    pub movetime: f64,
    /// A fixed number of playouts per move instead of the per-move time (0: off); with
    /// --seed the same position then always gives the same move. A clock set by
    /// time_settings still limits the time.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub playouts: u64,
    /// Search threads.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS as u64))]
    pub threads: u64,
    /// Memory of the search in MiB, for all threads together (the protocol's `memory`).
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_MEMORY_MB,
          value_parser = clap::value_parser!(u64).range(MIN_MEMORY_MB..=MAX_MEMORY_MB))]
    pub memory: u64,
    /// Resign when the win rate stays below THRESHOLD (0 to 1) for 3 turns in a row
    /// (default 0: never; the protocol's `resign_threshold`).
    #[arg(long, value_name = "THRESHOLD", default_value_t = 0.0, value_parser = parse_threshold)]
    pub resign: f64,
    /// Turn the solver off: no proven wins and losses in the tree (for strength tests).
    #[arg(long)]
    pub no_solver: bool,
    /// Ponder: search on the opponent's turn while waiting for its move, and keep the
    /// tree when it arrives (the protocol's `ponder`; off by default: an idle engine uses
    /// no CPU).
    #[arg(long)]
    pub ponder: bool,
    /// The static evaluation: learned (the default: the logistic model of
    /// crates/engine/data/eval-weights.txt, built in, learned from self-play), hand (the hand-written one)
    /// or a weights FILE written by `veletas train-eval -o FILE` (the learned evaluation with
    /// those weights, read at start; no rebuild needed).
    #[arg(long, value_name = "EVAL|FILE", default_value = "learned", value_parser = parse_eval)]
    pub eval: EvalArg,
    /// A search parameter for tuning matches, `NAME=VALUE` (repeatable): exploration,
    /// cutoff, prior-temperature, expand-visits, fpu or stay-prior (docs/strength.md); the defaults are the tuned values.
    #[arg(long = "search", value_name = "NAME=VALUE")]
    pub search: Vec<SearchParam>,
}

/// `--eval`: a built-in evaluation, or a weights file for the learned one.
#[derive(Clone, Debug, PartialEq)]
pub enum EvalArg {
    /// `hand` or `learned`.
    Builtin(Evaluation),
    /// A weights file (`veletas train-eval -o FILE`).
    File(std::path::PathBuf),
}

fn parse_eval(text: &str) -> Result<EvalArg, String> {
    match text.parse::<Evaluation>() {
        Ok(eval) => Ok(EvalArg::Builtin(eval)),
        Err(_) => Ok(EvalArg::File(text.into())),
    }
}

impl EvalArg {
    /// The evaluation to search with; a weights file is read and becomes the learned
    /// evaluation of this process.
    pub fn evaluation(&self) -> Result<Evaluation, String> {
        match self {
            EvalArg::Builtin(eval) => Ok(*eval),
            EvalArg::File(path) => {
                let shown = path.display();
                let text = veletas_rules::record::read_bounded(path, veletas_rules::record::MAX_SMALL_FILE_BYTES)
                    .map_err(|e| format!("--eval {shown}: not hand, learned or a readable weights file: {e}"))?;
                let model = crate::search::eval::EvalModel::parse(&text).map_err(|e| format!("--eval {shown}: {e}"))?;
                crate::search::eval::use_learned_model(model).map_err(|e| format!("--eval {shown}: {e}"))?;
                Ok(Evaluation::Learned)
            }
        }
    }
}

impl Default for EngineArgs {
    fn default() -> EngineArgs {
        EngineArgs {
            player: Algorithm::Veletas,
            movetime: 1.0,
            playouts: 0,
            threads: 1,
            memory: DEFAULT_MEMORY_MB,
            resign: 0.0,
            no_solver: false,
            ponder: false,
            eval: EvalArg::Builtin(Evaluation::Learned),
            search: Vec::new(),
        }
    }
}

impl EngineArgs {
    /// The player these arguments describe, with `seed`.
    pub fn player(&self, seed: u64) -> Result<SearchPlayer, String> {
        let settings = SearchSettings {
            player: self.player,
            seed,
            solver: !self.no_solver,
            eval: self.eval.evaluation()?,
            ..SearchSettings::default()
        };
        let settings = self.search.iter().fold(settings, |s, &p| s.with_param(p));
        let movetime = Duration::try_from_secs_f64(self.movetime).map_err(|e| e.to_string())?;
        SearchPlayer::new(settings)
            .with(Setting::Threads(self.threads as usize))?
            .with(Setting::MoveTime(movetime))?
            .with(Setting::Playouts(Some(self.playouts)))?
            .with(Setting::Memory(self.memory))?
            .with(Setting::Resign(self.resign))
    }
}

fn parse_player(text: &str) -> Result<Algorithm, String> {
    text.parse::<Algorithm>().map_err(|e| e.to_string())
}

fn parse_threshold(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err("the resign threshold must be a win rate from 0 to 1 (0: never resign)".to_string()),
    }
}

fn parse_movetime(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (crate::protocol::MIN_MOVETIME..=MAX_THINKING.as_secs_f64()).contains(&x) => Ok(x),
        _ => Err(format!(
            "the time per move must be a number of seconds from 0.001 to {}, not '{text}'",
            MAX_THINKING.as_secs()
        )),
    }
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
    Bench(crate::bench::BenchArgs),
    /// Makes a balanced openings file: candidate openings scored by an engine (see docs/book.md).
    Book(crate::book::BookArgs),
    /// Checks an engine's compliance with the protocol, one line per check (see docs/check.md).
    Check(crate::check::CheckArgs),
    /// Plays two protocol engines against each other and reports the result (see docs/match.md).
    Match(Box<crate::referee::MatchArgs>),
    /// Learns the weights of the learned evaluation from recorded games (see docs/learning.md).
    #[command(name = "train-eval")]
    TrainEval(crate::learn::TrainArgs),
    /// Plays a field of protocol engines (round robin, gauntlet or knockout) and rates it
    /// (see docs/tournament.md).
    Tournament(Box<crate::referee::tournament::TournamentArgs>),
    /// Rates the engines of record files: standings, crosstable, LOS (see docs/ratings.md).
    Ratings(crate::ratings::RatingsArgs),
    /// Draws one position as an SVG picture (see docs/pictures.md).
    Render(crate::picture::command::RenderArgs),
    /// Writes every game of record files into one self-contained HTML viewer (see docs/pictures.md).
    View(crate::picture::command::ViewArgs),
    /// Plays in the browser against protocol engines: a local web server (see docs/gui.md).
    Gui(veletas_gui::GuiArgs),
    /// Writes shell completions or the man page on stdout (see README.md, Install).
    #[command(
        after_help = "Examples:\n  veletas generate bash > ~/.local/share/bash-completion/completions/veletas\n  \
veletas generate zsh > ~/.zfunc/_veletas\n  veletas generate fish > ~/.config/fish/completions/veletas.fish\n  \
veletas generate man > ~/.local/share/man/man1/veletas.1"
    )]
    Generate {
        /// What to write.
        #[arg(value_enum)]
        what: crate::generate::Generated,
    },
}

/// Arguments of `perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Number of moves (plies) deep.
    pub depth: u32,
    /// The board of the default position (also accepted before `perft`).
    #[command(flatten)]
    pub board: BoardArgs,
    /// The position string (quoted or as separate words); default: the empty board of
    /// --size under --rules and --no-corners.
    pub position: Vec<String>,
    /// Print the count below each legal move, then the total.
    #[arg(long)]
    pub divide: bool,
    /// Threads to count on: the legal moves of the position are shared out among them.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub threads: u32,
}

/// `perft`'s board options: the same as the engine's `--size`, `--rules`, `--no-corners`
/// and `--claimed-block`, which may also be given before `perft`.
#[derive(Args, Debug, Clone, Default, PartialEq)]
pub struct BoardArgs {
    /// Board size of the default position: 7, 9 or 10 [default: 10].
    #[arg(long, value_parser = parse_size)]
    pub size: Option<u8>,
    /// The rule set of the default position: classic or modern [default: classic].
    #[arg(long, value_name = "RULES", value_parser = parse_rules)]
    pub rules: Option<RuleSet>,
    /// The no-corners option: the four corners do not exist.
    #[arg(long)]
    pub no_corners: bool,
    /// The claimed-block option of the modern rules.
    #[arg(long)]
    pub claimed_block: bool,
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

fn parse_rules(text: &str) -> Result<RuleSet, String> {
    text.parse::<RuleSet>().map_err(|e| e.to_string())
}

fn parse_size(text: &str) -> Result<u8, String> {
    match text.parse::<u8>() {
        Ok(size) if Variant::from_size(size).is_some() => Ok(size),
        _ => Err("the board size must be 7, 9 or 10".to_string()),
    }
}

fn default_seed() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(0)
}

/// Why a subcommand did not succeed. Every subcommand returns it, and [`run`] alone turns
/// it into the message, the exit code and the handling of a closed stdout.
#[derive(Debug)]
pub enum CommandError {
    /// The command could not do what was asked (bad options or input, an engine refused,
    /// a file that cannot be read or written): `veletas COMMAND: MESSAGE` (control
    /// characters shown as spaces), exit code 2.
    Usage {
        /// The subcommand (`match`, ...), empty for the engine itself.
        command: &'static str,
        /// One line.
        message: String,
    },
    /// The command ran and its verdict is no (`check` found a required check failing):
    /// nothing more is printed, exit code 1.
    Verdict,
    /// A signal stopped the games: `veletas COMMAND: TEXT` (what was played and how to
    /// resume, several lines), exit code 130.
    Interrupted {
        /// The subcommand.
        command: &'static str,
        /// The lines to print.
        text: String,
    },
    /// Reading or writing failed: `veletas: ERROR`, exit code 1; a closed stdout
    /// (broken pipe) is a success, as for any Unix filter.
    Io(io::Error),
}

impl From<io::Error> for CommandError {
    fn from(e: io::Error) -> CommandError {
        CommandError::Io(e)
    }
}

impl CommandError {
    /// The exit code, after printing the message on stderr.
    fn exit(self) -> ExitCode {
        match self {
            CommandError::Usage { command, message } => {
                let message: String = message.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
                match command {
                    "" => eprintln!("veletas: {message}"),
                    command => eprintln!("veletas {command}: {message}"),
                }
                ExitCode::from(2)
            }
            CommandError::Verdict => ExitCode::FAILURE,
            CommandError::Interrupted { command, text } => {
                eprint!("veletas {command}: {text}");
                ExitCode::from(130)
            }
            CommandError::Io(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            CommandError::Io(e) => {
                eprintln!("veletas: {e}");
                ExitCode::FAILURE
            }
        }
    }
}

/// The [`CommandError::Usage`] of `command` for an error `e`.
fn usage<E: std::fmt::Display>(command: &'static str) -> impl FnOnce(E) -> CommandError {
    move |e| CommandError::Usage { command, message: e.to_string() }
}

/// Writes `text` on stdout (a closed stdout is not an error: see [`CommandError::Io`]).
fn print(text: &str) -> Result<(), CommandError> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(CommandError::Io)
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
        None => engine(Position::with_rules(variant, rules), &cli.engine, cli.seed.unwrap_or_else(default_seed))?,
        Some(Subcommand::Perft(args)) => perft(Position::with_rules(variant, rules), &args)?,
        Some(Subcommand::Bench(args)) => crate::bench::run(&args, args.seed.or(cli.seed).unwrap_or(1))?,
        Some(Subcommand::Generate { what }) => crate::generate::write(what, &mut io::stdout().lock())?,
        Some(Subcommand::Render(args)) => crate::picture::command::render(&args).map_err(usage("render"))?,
        Some(Subcommand::View(args)) => crate::picture::command::view(&args).map_err(usage("view"))?,
        Some(Subcommand::Gui(args)) => gui(&args).map_err(usage("gui"))?,
        Some(Subcommand::Match(args)) => referee_match(&args)?,
        Some(Subcommand::Tournament(args)) => tournament(&args)?,
        Some(Subcommand::Check(args)) => check(&args)?,
        Some(Subcommand::Book(args)) => {
            let book = crate::book::run_book(&args).map_err(usage("book"))?;
            eprintln!("veletas book: kept {} of {} candidate openings", book.kept, book.scored.len());
        }
        Some(Subcommand::TrainEval(args)) => {
            let report = crate::learn::run(&args).map_err(usage("train-eval"))?;
            print(&report.to_string())?;
        }
        Some(Subcommand::Ratings(args)) if args.format == "html" => {
            crate::report::ratings_html(&args).map_err(usage("ratings"))?
        }
        Some(Subcommand::Ratings(args)) => {
            let output = crate::ratings::run_ratings(&args).map_err(usage("ratings"))?;
            match args.output.as_deref() {
                Some(path) => crate::picture::write_output(Some(path), output.as_bytes()).map_err(usage("ratings"))?,
                None => print(&output)?,
            }
        }
    }
    Ok(())
}

/// `veletas match`: the games (or `--dry-run`'s list) and the summary on stdout.
fn referee_match(args: &crate::referee::MatchArgs) -> Result<(), CommandError> {
    if args.common.dry_run {
        return print(&crate::referee::dry_run_match(args).map_err(usage("match"))?);
    }
    match crate::referee::run_match(args) {
        Ok(_) => Ok(()),
        Err(crate::referee::RefereeError::Interrupted(text)) => {
            Err(CommandError::Interrupted { command: "match", text })
        }
        Err(e) => Err(usage("match")(e)),
    }
}

/// `veletas check`: the report on stdout (lines or JSON); exit 0 only when every required
/// check passed, 1 when one did not, 2 when the check could not be run.
fn check(args: &crate::check::CheckArgs) -> Result<(), CommandError> {
    let report = crate::check::run_check(args).map_err(usage("check"))?;
    print(&if args.json { report.json() } else { report.to_string() })?;
    if report.passed() { Ok(()) } else { Err(CommandError::Verdict) }
}

/// `veletas tournament`: the games (or `--dry-run`'s list) and the standings on stdout.
fn tournament(args: &crate::referee::tournament::TournamentArgs) -> Result<(), CommandError> {
    use crate::referee::tournament::{dry_run, run_tournament, summary};
    if args.common.dry_run {
        return print(&dry_run(args).map_err(usage("tournament"))?);
    }
    // An engine that cannot be started is refused before any game (an error here), so the
    // standings never hold forfeits of an engine that never played.
    let report = run_tournament(args).map_err(usage("tournament"))?;
    let text = summary(&report, args.anchor.as_deref(), args.head_to_head).map_err(usage("tournament"))?;
    print(&text)?;
    match report.interrupted {
        Some(text) => Err(CommandError::Interrupted { command: "tournament", text }),
        None => Ok(()),
    }
}

/// Runs `veletas gui`, offering this very program as the default engine.
fn gui(args: &veletas_gui::GuiArgs) -> Result<(), String> {
    let program = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    veletas_gui::run(args, &program)
}

fn engine(start: Position, args: &EngineArgs, seed: u64) -> io::Result<()> {
    let player = args.player(seed).map_err(invalid)?;
    info!(
        "engine starting: {}, rules {}, player {}, movetime {} s, playouts {}, ponder {}",
        start.variant(),
        start.rules(),
        crate::player::Player::describe(&player),
        args.movetime,
        if args.playouts > 0 { args.playouts.to_string() } else { "off".to_string() },
        if args.ponder { "on" } else { "off" }
    );
    let mut engine = Engine::from_position(start, Box::new(player));
    engine.set_ponder(args.ponder);
    let stdout = io::stdout();
    // Not `stdin().lock()`: `analyze` watches the input from a second thread.
    let input = BufReader::with_capacity(1 << 16, io::stdin());
    protocol::run(input, BufWriter::new(stdout.lock()), &mut engine).map(|_| ())
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

fn perft(empty_board: Position, args: &PerftArgs) -> io::Result<()> {
    let position = if args.position.is_empty() {
        empty_board
    } else {
        let text = args.position.join(" ");
        text.parse::<Position>().map_err(|e| invalid(format!("invalid position '{text}': {e}")))?
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let start = Instant::now();
    let total = if args.divide && args.depth > 0 {
        let mut total = 0;
        for mv in position.legal_moves() {
            let mut next = position.clone();
            next.play_unchecked(mv);
            let count = next.perft_threads(args.depth - 1, args.threads as usize);
            writeln!(out, "{mv} {count}")?;
            total += count;
        }
        total
    } else {
        position.perft_threads(args.depth, args.threads as usize)
    };
    writeln!(out, "{total}")?;
    info!("perft {} = {total} in {:.3}s", args.depth, start.elapsed().as_secs_f64());
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

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
        &["check", "veletas"],
        &["match", "--engine", "a", "--engine", "b"],
        &["train-eval", "games.txt"],
        &["tournament", "--engine", "a", "--engine", "b"],
        &["ratings", "games.txt"],
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
        use crate::player::search_player::RESIGN_TURNS;
        let command = Cli::command();
        let resign = command.get_arguments().find(|a| a.get_id() == "resign").unwrap();
        let help = resign.get_help().unwrap().to_string();
        assert!(help.contains(&format!("for {RESIGN_TURNS} turns in a row")), "{help}");
    }

    #[test]
    fn protocol_md_describes_every_option_of_the_engine() {
        let doc = include_str!("../protocol.md");
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
