//! The command line: the engine (no subcommand), `perft` and `bench`.
//!
//! `main.rs` only parses [`Cli`], sets up logging and calls [`run`]. Subcommands are the
//! variants of [`Subcommand`]; adding one means adding a variant and its arm in [`run`].

use std::io::{self, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::{Args, Parser};
use log::info;

use crate::player::search_player::MAX_THREADS;
use crate::player::{SearchPlayer, Setting};
use crate::protocol::{self, Engine};
use crate::rules::{Phase, PlayoutPolicy, Position, Rng, RuleSet, Rules, Variant};
use crate::search::{PlayerKind, SearchSettings};

/// The bench positions built into the binary (`data/bench.txt`).
pub const BENCH_POSITIONS: &str = include_str!("../data/bench.txt");

/// Veletas engine: speaks a GTP-style protocol on stdin/stdout.
#[derive(Parser, Debug)]
#[command(
    name = "veletas",
    version,
    about = "Veletas engine: speaks a GTP-style protocol on stdin/stdout (see protocol.md)",
    after_help = "Without a subcommand, reads protocol commands from stdin and answers on stdout; \
logs go to stderr (set RUST_LOG=debug to see every command and reply).\n\n\
Examples:\n  printf 'boardsize 7\\nclear_board\\ngenmove b\\nshowboard\\n' | veletas --seed 1\n  \
veletas --movetime 0.1 --threads 2\n  \
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
    pub player: PlayerKind,
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
}

impl Default for EngineArgs {
    fn default() -> EngineArgs {
        EngineArgs { player: PlayerKind::Veletas, movetime: 1.0, playouts: 0, threads: 1 }
    }
}

impl EngineArgs {
    /// The player these arguments describe, with `seed`.
    pub fn player(&self, seed: u64) -> Result<SearchPlayer, String> {
        let settings = SearchSettings { player: self.player, seed, ..SearchSettings::default() };
        let movetime = Duration::try_from_secs_f64(self.movetime).map_err(|e| e.to_string())?;
        SearchPlayer::new(settings)
            .with(Setting::Threads(self.threads as usize))?
            .with(Setting::MoveTime(movetime))?
            .with(Setting::Playouts(Some(self.playouts)))
    }
}

fn parse_player(text: &str) -> Result<PlayerKind, String> {
    text.parse::<PlayerKind>().map_err(|e| e.to_string())
}

fn parse_movetime(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 86_400.0 => Ok(x),
        _ => Err("the time per move must be a number of seconds above 0 and at most 86400".to_string()),
    }
}

/// The subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum Subcommand {
    /// Counts the move sequences of a given depth (move-generation check).
    #[command(after_help = "Examples:\n  veletas perft 2 7/7/2s4/7/4s2/1s5/7 b\n  \
veletas --size 9 perft 1\n  veletas perft --divide 2 '7/7/2s4/7/4s2/1s5/7 b'\n  \
veletas perft --threads 2 3 '7/7/2s4/7/4s2/1s5/7 b'")]
    Perft(PerftArgs),
    /// Times move generation (perft), random playouts and the search on fixed positions.
    #[command(after_help = "Prints, per position, the perft nodes and nodes/s, random playouts/s, and the \
search's iterations/s with one thread and with --search-threads threads (positions in play only).\n\n\
Examples:\n  veletas bench\n  veletas bench --file data/bench.txt --playouts 200 --search-iterations 5000")]
    Bench(BenchArgs),
    /// Plays two protocol engines against each other and reports the result (see docs/match.md).
    Match(Box<crate::referee::MatchArgs>),
}

/// Arguments of `perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Number of moves (plies) deep.
    pub depth: u32,
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

/// Arguments of `bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// A file of `DEPTH POSITION` lines instead of the built-in positions.
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// Random playouts per position.
    #[arg(long, default_value_t = 1000)]
    pub playouts: u32,
    /// Search iterations per position and thread count (0: skip the search).
    #[arg(long, default_value_t = 40_000)]
    pub search_iterations: u64,
    /// Threads of the second search run, for the scaling figure.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub search_threads: u32,
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

/// Runs the program as the command line asks.
pub fn run(cli: Cli) -> ExitCode {
    let variant = Variant::from_size(cli.size).unwrap_or(Variant::STANDARD);
    let rules = match Rules::new(cli.rules, cli.no_corners, cli.claimed_block) {
        Ok(rules) => rules,
        Err(e) => {
            eprintln!("veletas: --claimed-block: {e}");
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        None => engine(Position::with_rules(variant, rules), &cli.engine, cli.seed.unwrap_or_else(default_seed)),
        Some(Subcommand::Perft(args)) => perft(Position::with_rules(variant, rules), &args),
        Some(Subcommand::Bench(args)) => bench(&args, cli.seed.unwrap_or(1)),
        Some(Subcommand::Match(args)) => {
            return match crate::referee::run_match(&args) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("veletas match: {e}");
                    ExitCode::from(2)
                }
            };
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("veletas: {e}");
            ExitCode::FAILURE
        }
    }
}

fn engine(start: Position, args: &EngineArgs, seed: u64) -> io::Result<()> {
    let player = args.player(seed).map_err(invalid)?;
    info!(
        "engine starting: {}, rules {}, player {}, movetime {} s, playouts {}",
        start.variant(),
        start.rules(),
        crate::player::Player::describe(&player),
        args.movetime,
        if args.playouts > 0 { args.playouts.to_string() } else { "off".to_string() }
    );
    let mut engine = Engine::from_position(start, Box::new(player));
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

/// A bench position: the perft depth to time and the position.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchPosition {
    /// Perft depth.
    pub depth: u32,
    /// The position.
    pub position: Position,
}

/// Reads `DEPTH POSITION` lines, skipping empty lines and `#` comments.
pub fn parse_bench(text: &str) -> Result<Vec<BenchPosition>, String> {
    let mut positions = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |what: String| format!("bench line {}: {what}", n + 1);
        let (depth, position) = line.split_once(' ').ok_or_else(|| err("expected DEPTH POSITION".into()))?;
        let depth = depth.parse().map_err(|_| err(format!("invalid depth '{depth}'")))?;
        let position = position.parse().map_err(|e| err(format!("{e}")))?;
        positions.push(BenchPosition { depth, position });
    }
    Ok(positions)
}

fn bench(args: &BenchArgs, seed: u64) -> io::Result<()> {
    let text = match &args.file {
        Some(path) => std::fs::read_to_string(path)?,
        None => BENCH_POSITIONS.to_string(),
    };
    let positions = parse_bench(&text).map_err(invalid)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut rng = Rng::new(seed);
    let (mut nodes, mut perft_time, mut playouts, mut playout_time) = (0u64, 0f64, 0u64, 0f64);
    let mut search_rates = Vec::new();
    for BenchPosition { depth, position } in &positions {
        let start = Instant::now();
        let count = position.perft(*depth);
        let perft_secs = start.elapsed().as_secs_f64();
        let start = Instant::now();
        for _ in 0..args.playouts {
            position.clone().playout(&mut rng, PlayoutPolicy::Cheap);
        }
        let playout_secs = start.elapsed().as_secs_f64();
        writeln!(
            out,
            "{position} | perft {depth}: {count} nodes, {:.0} nodes/s | {} playouts, {:.0} playouts/s",
            rate(count, perft_secs),
            args.playouts,
            rate(u64::from(args.playouts), playout_secs)
        )?;
        nodes += count;
        perft_time += perft_secs;
        playouts += u64::from(args.playouts);
        playout_time += playout_secs;
        if args.search_iterations > 0 && position.phase() == Phase::Play {
            let one = search_rate(position, 1, args.search_iterations, seed);
            let many = search_rate(position, args.search_threads as usize, args.search_iterations, seed);
            writeln!(
                out,
                "  search: {:.0} iterations/s on 1 thread, {:.0} on {} ({:.2}x)",
                one,
                many,
                args.search_threads,
                if one > 0.0 { many / one } else { 0.0 }
            )?;
            search_rates.push((one, many));
        }
        out.flush()?;
    }
    writeln!(
        out,
        "total: {nodes} nodes, {:.0} nodes/s; {playouts} playouts, {:.0} playouts/s",
        rate(nodes, perft_time),
        rate(playouts, playout_time)
    )?;
    if !search_rates.is_empty() {
        let n = search_rates.len() as f64;
        let one = search_rates.iter().map(|r| r.0).sum::<f64>() / n;
        let many = search_rates.iter().map(|r| r.1).sum::<f64>() / n;
        writeln!(
            out,
            "search: {one:.0} iterations/s on 1 thread, {many:.0} on {} ({:.2}x), mean over {} positions",
            args.search_threads,
            if one > 0.0 { many / one } else { 0.0 },
            search_rates.len()
        )?;
    }
    out.flush()
}

/// Iterations per second of our engine's search from `position` with `threads` threads,
/// over a fixed budget (wall-clock time, all threads together).
fn search_rate(position: &Position, threads: usize, iterations: u64, seed: u64) -> f64 {
    let settings = SearchSettings { threads, seed, tree_reuse: false, ..SearchSettings::default() };
    let mut player = crate::search::Player::new(settings);
    let game = crate::rules::Game::from_position(position.clone());
    let limits = crate::search::Limits { iterations: Some(iterations), ..Default::default() };
    let start = Instant::now();
    let visits = player.choose(&game, &limits).map_or(0, |r| r.visits);
    rate(visits, start.elapsed().as_secs_f64())
}

fn rate(count: u64, seconds: f64) -> f64 {
    if seconds > 0.0 { count as f64 / seconds } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_bench_positions_parse() {
        let positions = parse_bench(BENCH_POSITIONS).unwrap();
        assert!(positions.len() >= 3);
        assert!(positions.iter().all(|p| !p.position.is_over()));
    }

    #[test]
    fn bench_errors_name_the_line() {
        assert_eq!(parse_bench("\n2\n"), Err("bench line 2: expected DEPTH POSITION".to_string()));
        assert!(parse_bench("x 7/7/7/7/7/7/7 b").unwrap_err().contains("invalid depth"));
    }

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
            (PlayerKind::Uct, 2, 3)
        );
        assert_eq!((player.movetime(), player.playouts()), (Duration::from_millis(100), Some(50)));
        for bad in [&["--player", "chess"][..], &["--movetime", "0"], &["--threads", "0"], &["--threads", "65"]] {
            assert!(Cli::try_parse_from(std::iter::once("veletas").chain(bad.iter().copied())).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn cli_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
