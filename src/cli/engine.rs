//! The engine's own options (`veletas` without a subcommand): which player, and how long
//! it thinks; and running the engine on stdin and stdout.

use std::io::{self, BufReader, BufWriter};
use std::time::Duration;

use clap::Args;
use log::info;

use super::error::{CommandError, usage};
use veletas_engine::player::search_player::MAX_THREADS;
use veletas_engine::player::time::MAX_THINKING;
use veletas_engine::player::{SearchPlayer, Setting};
use veletas_engine::protocol::{self, Engine};
use veletas_engine::search::eval::{LoadWeightsError, StaticEval, load_weights};
use veletas_engine::search::policy::{PolicyWeights, load_policy};
use veletas_engine::search::{Algorithm, DEFAULT_MEMORY_MB, MAX_MEMORY_MB, MIN_MEMORY_MB, SearchParam, SearchSettings};
use veletas_rules::Position;

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
    /// The static evaluation: net (the default: the value network of
    /// crates/engine/data/value-net.txt on top of the learned linear model, built in, learned from
    /// self-play), learned (the linear model alone: crates/engine/data/eval-weights.txt), hand (the
    /// hand-written one), or a FILE written by `veletas train-eval -o FILE` or `veletas train-net -o FILE`
    /// (read at start; no rebuild needed).
    #[arg(long, value_name = "EVAL|FILE", default_value = "net", value_parser = parse_eval)]
    pub eval: EvalArg,
    /// The move policy's weights: builtin (the default: crates/engine/data/policy-weights.txt,
    /// built in) or a weights FILE written by `veletas train-policy -o FILE` (read at start;
    /// no rebuild needed; the protocol's `policy`).
    #[arg(long, value_name = "builtin|FILE")]
    pub policy: Option<std::path::PathBuf>,
    /// A search parameter for tuning matches, `NAME=VALUE` (repeatable): exploration,
    /// cutoff, prior-temperature, expand-visits, shot-expand-visits, fpu, stay-prior, move-policy or net-priors (docs/strength.md); the defaults are the tuned values.
    #[arg(long = "search", value_name = "NAME=VALUE")]
    pub search: Vec<SearchParam>,
}

/// `--eval`: a built-in evaluation, or a weights file for the learned one.
#[derive(Clone, Debug, PartialEq)]
pub enum EvalArg {
    /// `hand`, `learned` or `net`.
    Builtin(StaticEval),
    /// A weights file (`veletas train-eval -o FILE`).
    File(std::path::PathBuf),
}

pub(crate) fn parse_eval(text: &str) -> Result<EvalArg, String> {
    match text.parse::<StaticEval>() {
        Ok(eval) => Ok(EvalArg::Builtin(eval)),
        Err(_) => Ok(EvalArg::File(text.into())),
    }
}

impl Default for EvalArg {
    /// The engine's default: the built-in value network (the linear model if a build had none).
    fn default() -> EvalArg {
        EvalArg::Builtin(StaticEval::net().unwrap_or_else(StaticEval::learned))
    }
}

impl std::fmt::Display for EvalArg {
    /// As given: `hand`, `learned`, `net` or the file's path.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalArg::Builtin(eval) => eval.fmt(f),
            EvalArg::File(path) => path.display().fmt(f),
        }
    }
}

impl EvalArg {
    /// The evaluation to search with; a weights file is read (as the protocol's `eval
    /// FILE` reads it: [`load_weights`]) and its weights are the learned evaluation's.
    pub fn evaluation(&self) -> Result<StaticEval, String> {
        match self {
            EvalArg::Builtin(eval) => Ok(eval.clone()),
            EvalArg::File(path) => load_weights(path).map_err(|e| {
                let shown = path.display();
                match e {
                    LoadWeightsError::Read(e) => {
                        format!("--eval {shown}: not hand, learned, net or a readable weights file: {e}")
                    }
                    e => format!("--eval {shown}: {e}"),
                }
            }),
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
            eval: EvalArg::default(),
            policy: None,
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
            policy: self.policy_weights()?,
            ..SearchSettings::default()
        };
        let settings = self.search.iter().fold(settings, |s, &p| s.with_param(p));
        let movetime = Duration::try_from_secs_f64(self.movetime).map_err(|e| e.to_string())?;
        let configured = || {
            SearchPlayer::new(settings)
                .with(Setting::Threads(self.threads as usize))?
                .with(Setting::MoveTime(movetime))?
                .with(Setting::Playouts(Some(self.playouts)))?
                .with(Setting::Memory(self.memory))?
                .with(Setting::Resign(self.resign))
        };
        configured().map_err(|e| e.to_string())
    }
}

impl EngineArgs {
    /// The move policy's weights: the built-in ones, or a file's, read as the protocol's
    /// `policy FILE` reads it ([`load_policy`]).
    fn policy_weights(&self) -> Result<std::sync::Arc<PolicyWeights>, String> {
        match &self.policy {
            Some(path) if path.as_os_str() != "builtin" => load_policy(path).map_err(|e| {
                let shown = path.display();
                match e {
                    LoadWeightsError::Read(e) => {
                        format!("--policy {shown}: not builtin or a readable weights file: {e}")
                    }
                    e => format!("--policy {shown}: {e}"),
                }
            }),
            _ => Ok(PolicyWeights::builtin()),
        }
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
        Ok(x) if (veletas_engine::protocol::MIN_MOVETIME..=MAX_THINKING.as_secs_f64()).contains(&x) => Ok(x),
        _ => Err(format!(
            "the time per move must be a number of seconds from 0.001 to {}, not '{}'",
            MAX_THINKING.as_secs(),
            veletas_rules::quoted(text)
        )),
    }
}

/// Runs the engine on stdin and stdout from `start` with the player of `args`.
pub(super) fn run(start: Position, args: &EngineArgs, seed: u64) -> Result<(), CommandError> {
    // A bad `--eval FILE` (or another option the player refuses) is a usage error.
    let player = args.player(seed).map_err(usage(""))?;
    info!(
        "engine starting: {}, rules {}, player {}, movetime {} s, playouts {}, ponder {}",
        start.variant(),
        start.rules(),
        veletas_engine::player::Player::describe(&player),
        args.movetime,
        if args.playouts > 0 { args.playouts.to_string() } else { "off".to_string() },
        if args.ponder { "on" } else { "off" }
    );
    let mut engine = Engine::from_position(start, Box::new(player));
    engine.set_ponder(args.ponder);
    let stdout = io::stdout();
    // Not `stdin().lock()`: `analyze` watches the input from a second thread.
    let input = BufReader::with_capacity(1 << 16, io::stdin());
    Ok(protocol::run(input, BufWriter::new(stdout.lock()), &mut engine).map(|_| ())?)
}
