//! Players that choose moves: `random`, `greedy`, the plain `uct` baseline, and our
//! engine (`veletas`). Search uses the rules and never prints; it returns a typed result.

pub mod eval;
pub mod eval_model;
#[cfg(test)]
mod eval_tests;
mod linear_file;
pub mod mcts;
pub mod net_eval;
mod nodes;
pub mod policy;
pub mod setup;
mod stats;
pub mod tactics;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use mcts::{MctsConfig, RootTurn, Tree, Workspace};
use veletas_rules::{Color, Game, Move, Phase, PlayoutPolicy, Position, Rng, Square, Turn};

pub use linear_file::{LineError, LinearFileError};
pub use mcts::Proven;

/// Which algorithm chooses the moves (the protocol's `player NAME`, the `--player` option): two
/// that do not search (random, greedy) and two searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// A uniformly random legal move.
    Random,
    /// The turn with the best static evaluation, one ply deep.
    Greedy,
    /// Plain UCT over the split turn with uniform random playouts to the end.
    Uct,
    /// Our engine: MCTS with evaluation priors, cut-off playouts and a tactical solver.
    Veletas,
}

impl Algorithm {
    /// Every player, by name.
    pub const ALL: [Algorithm; 4] = [Algorithm::Random, Algorithm::Greedy, Algorithm::Uct, Algorithm::Veletas];

    /// The name used on the command line and in the protocol.
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Random => "random",
            Algorithm::Greedy => "greedy",
            Algorithm::Uct => "uct",
            Algorithm::Veletas => "veletas",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown player '{0}' (random, greedy, uct or veletas)")]
pub struct ParseAlgorithmError(pub String);

impl FromStr for Algorithm {
    type Err = ParseAlgorithmError;
    fn from_str(s: &str) -> Result<Algorithm, ParseAlgorithmError> {
        Algorithm::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ParseAlgorithmError(veletas_rules::quoted_to(s, 20)))
    }
}

/// Settings of a player: a plain struct.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchSettings {
    /// The algorithm.
    pub player: Algorithm,
    /// Seed of the player's random numbers.
    pub seed: u64,
    /// Search threads (all search one shared tree, with virtual loss).
    pub threads: usize,
    /// Plies of random play before the evaluation scores a playout.
    pub cutoff: u32,
    /// Memory for the search tree of all threads together, in MiB (see
    /// [`SearchSettings::max_nodes`]).
    pub memory_mb: u64,
    /// Keep the tree between moves when the game went on along it.
    pub tree_reuse: bool,
    /// Visits a leaf needs before the tree grows below it.
    pub expand_visits: u32,
    /// Visits a shooter's move (a shot-choice node) needs before its shots are added to
    /// the tree; before, a playout finishes the turn with a random shot.
    pub shot_expand_visits: u32,
    /// PUCT exploration constant of our engine (the baseline uses UCB1 with 0.7); `None`
    /// (the default): the value tuned for the evaluation ([`SearchSettings::exploration`]).
    pub exploration: Option<f32>,
    /// Softmax temperature of our engine's shot priors, in win-probability units; `None`
    /// (the default): the value tuned for the evaluation ([`SearchSettings::prior_temperature`]).
    pub prior_temperature: Option<f32>,
    /// The value our engine's PUCT gives a child without visits (first-play urgency).
    pub unvisited_value: f32,
    /// The prior share of not moving a shooter (the turn only shoots) at our engine's
    /// move-choice nodes, the moves sharing the rest equally: used only when
    /// [`move_policy`](Self::move_policy) is off.
    pub stay_prior: f32,
    /// Our engine's move-choice priors come from the learned move policy
    /// ([`policy`], `crates/engine/data/policy-weights.txt`; the default) instead of
    /// `stay_prior` and equal shares.
    pub move_policy: bool,
    /// The move policy's weights (built-in, or a file's: `--policy FILE`).
    pub policy: Arc<policy::PolicyWeights>,
    /// The static evaluation (hand-written or learned).
    pub eval: eval::StaticEval,
    /// Our engine proves wins and losses in the tree (MCTS-solver) and plays them.
    pub solver: bool,
    /// With a value network as the evaluation, the shot priors are its values too (else,
    /// the default, those of the linear model it corrects: as strong at equal playouts in
    /// the matches so far, and cheaper).
    pub net_priors: bool,
}

/// Our engine's PUCT exploration constant with a linear evaluation (tuned at equal time;
/// docs/strength.md).
pub const EXPLORATION: f32 = 1.4;
/// Our engine's PUCT exploration constant with a value network: its values are closer to
/// the truth, so the search trusts them sooner (tuned at equal time; docs/strength.md).
pub const NET_EXPLORATION: f32 = 1.0;
/// The softmax temperature of our engine's shot priors with a linear evaluation (tuned at
/// equal playouts; docs/strength.md).
pub const PRIOR_TEMPERATURE: f32 = 0.04;
/// The shot priors' temperature with a value network: flatter, so the search, which explores
/// less with a network, still looks at more shots (tuned at equal time; docs/strength.md).
pub const NET_PRIOR_TEMPERATURE: f32 = 0.06;

/// The default [`SearchSettings::stay_prior`].
pub const DEFAULT_STAY_PRIOR: f32 = 0.1;

/// The default memory of the search, in MiB.
pub const DEFAULT_MEMORY_MB: u64 = 256;
/// The least memory the search accepts, in MiB.
pub const MIN_MEMORY_MB: u64 = 16;
/// The most memory the search accepts, in MiB (1 TiB).
pub const MAX_MEMORY_MB: u64 = 1 << 20;
/// Memory left out of the trees' share for the rest of the program, in MiB.
pub const PROGRAM_MEMORY_MB: u64 = 8;

impl SearchSettings {
    /// The PUCT exploration constant in force: the one set, else the one tuned for the
    /// evaluation ([`NET_EXPLORATION`] with a value network, else [`EXPLORATION`]).
    pub fn exploration(&self) -> f32 {
        self.exploration.unwrap_or(match self.eval {
            eval::StaticEval::Net(_) => NET_EXPLORATION,
            _ => EXPLORATION,
        })
    }

    /// The shot priors' softmax temperature in force: the one set, else the one tuned for
    /// the evaluation ([`NET_PRIOR_TEMPERATURE`] with a value network, else
    /// [`PRIOR_TEMPERATURE`]).
    pub fn prior_temperature(&self) -> f32 {
        self.prior_temperature.unwrap_or(match self.eval {
            eval::StaticEval::Net(_) => NET_PRIOR_TEMPERATURE,
            _ => PRIOR_TEMPERATURE,
        })
    }

    /// The node limit of the search tree, which all threads share: the memory less the
    /// program's share ([`PROGRAM_MEMORY_MB`]), in nodes of [`mcts::NODE_BYTES`] bytes
    /// (node ids are 32 bits, so at most `u32::MAX` nodes).
    pub fn max_nodes(&self) -> usize {
        let bytes = self.memory_mb.saturating_sub(PROGRAM_MEMORY_MB).max(1).saturating_mul(1 << 20);
        let nodes = (bytes / mcts::NODE_BYTES as u64).min(u64::from(u32::MAX));
        usize::try_from(nodes).unwrap_or(usize::MAX).max(mcts::MIN_NODES)
    }
}

impl Default for SearchSettings {
    fn default() -> SearchSettings {
        SearchSettings {
            player: Algorithm::Veletas,
            seed: 0,
            threads: 1,
            cutoff: 6,
            memory_mb: DEFAULT_MEMORY_MB,
            tree_reuse: true,
            expand_visits: 4,
            shot_expand_visits: 1,
            exploration: None,
            prior_temperature: None,
            unvisited_value: stats::UNVISITED_VALUE,
            stay_prior: DEFAULT_STAY_PRIOR,
            move_policy: true,
            policy: policy::PolicyWeights::builtin(),
            solver: true,
            net_priors: false,
            eval: eval::StaticEval::Hand,
        }
    }
}

/// One tunable search parameter with its value, as `NAME=VALUE` (the CLI's `--search`):
/// `exploration`, `cutoff`, `prior-temperature`, `expand-visits`, `shot-expand-visits`, `fpu`, `stay-prior`,
/// `move-policy` or `net-priors`. For tuning matches;
/// the defaults are the tuned values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SearchParam {
    /// [`SearchSettings::exploration`], from 0.01 to 100.
    Exploration(f32),
    /// [`SearchSettings::cutoff`], from 0 to 200 plies.
    Cutoff(u32),
    /// [`SearchSettings::prior_temperature`], from 0.001 to 10.
    PriorTemperature(f32),
    /// [`SearchSettings::expand_visits`], from 1 to 1000.
    ExpandVisits(u32),
    /// [`SearchSettings::shot_expand_visits`], from 1 to 1000.
    ShotExpandVisits(u32),
    /// [`SearchSettings::unvisited_value`], from 0 to 1.
    Fpu(f32),
    /// [`SearchSettings::stay_prior`], from 0.001 to 0.999.
    StayPrior(f32),
    /// [`SearchSettings::move_policy`]: 1 on, 0 off.
    MovePolicy(bool),
    /// [`SearchSettings::net_priors`]: 1 on, 0 off.
    NetPriors(bool),
}

/// Why a `NAME=VALUE` search parameter was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSearchParamError(String);

impl fmt::Display for ParseSearchParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseSearchParamError {}

impl FromStr for SearchParam {
    type Err = ParseSearchParamError;
    fn from_str(s: &str) -> Result<SearchParam, ParseSearchParamError> {
        let err = |m: String| ParseSearchParamError(m);
        let (name, value) =
            s.split_once('=').ok_or_else(|| err(format!("expected NAME=VALUE, got '{}'", shorten(s))))?;
        let real = |lo: f32, hi: f32| -> Result<f32, ParseSearchParamError> {
            match value.trim().parse::<f32>() {
                Ok(x) if (lo..=hi).contains(&x) => Ok(x),
                _ => Err(err(format!("{name} must be a number from {lo} to {hi}, got '{}'", shorten(value)))),
            }
        };
        let whole = |lo: u32, hi: u32| -> Result<u32, ParseSearchParamError> {
            match value.trim().parse::<u32>() {
                Ok(x) if (lo..=hi).contains(&x) => Ok(x),
                _ => Err(err(format!("{name} must be a whole number from {lo} to {hi}, got '{}'", shorten(value)))),
            }
        };
        match name.trim() {
            "exploration" => Ok(SearchParam::Exploration(real(0.01, 100.0)?)),
            "cutoff" => Ok(SearchParam::Cutoff(whole(0, 200)?)),
            "prior-temperature" => Ok(SearchParam::PriorTemperature(real(0.001, 10.0)?)),
            "expand-visits" => Ok(SearchParam::ExpandVisits(whole(1, 1000)?)),
            "shot-expand-visits" => Ok(SearchParam::ShotExpandVisits(whole(1, 1000)?)),
            "fpu" => Ok(SearchParam::Fpu(real(0.0, 1.0)?)),
            "stay-prior" => Ok(SearchParam::StayPrior(real(0.001, 0.999)?)),
            "move-policy" => Ok(SearchParam::MovePolicy(whole(0, 1)? == 1)),
            "net-priors" => Ok(SearchParam::NetPriors(whole(0, 1)? == 1)),
            other => Err(err(format!(
                "unknown search parameter '{}' (exploration, cutoff, prior-temperature, expand-visits, shot-expand-visits, fpu, stay-prior, move-policy, net-priors)",
                shorten(other)
            ))),
        }
    }
}

/// A setting's text as a message quotes it: at most 30 characters, controls escaped.
fn shorten(s: &str) -> String {
    veletas_rules::quoted_to(s, 30)
}

impl SearchSettings {
    /// These settings with `param` set.
    pub fn with_param(mut self, param: SearchParam) -> SearchSettings {
        match param {
            SearchParam::Exploration(x) => self.exploration = Some(x),
            SearchParam::Cutoff(x) => self.cutoff = x,
            SearchParam::PriorTemperature(x) => self.prior_temperature = Some(x),
            SearchParam::ExpandVisits(x) => self.expand_visits = x,
            SearchParam::ShotExpandVisits(x) => self.shot_expand_visits = x,
            SearchParam::Fpu(x) => self.unvisited_value = x,
            SearchParam::StayPrior(x) => self.stay_prior = x,
            SearchParam::MovePolicy(on) => self.move_policy = on,
            SearchParam::NetPriors(on) => self.net_priors = on,
        }
        self
    }
}

/// When a search stops: whichever limit comes first.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Thinking time.
    pub time: Option<Duration>,
    /// Playouts (iterations) in all threads together.
    pub iterations: Option<u64>,
    /// Raised by another thread to stop the search.
    pub stop: Option<Arc<AtomicBool>>,
}

/// One candidate move of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// Playouts through it.
    pub visits: u64,
    /// Estimated probability that the side to move wins after it.
    pub win_rate: f64,
    /// The principal variation starting with it.
    pub pv: Vec<Move>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play.
    pub best: Move,
    /// Estimated probability that the side to move wins.
    pub win_rate: f64,
    /// Playouts in this search, all threads.
    pub visits: u64,
    /// Playouts through the root kept from earlier searches (tree reuse, analysis,
    /// pondering) when this search started, all threads.
    pub inherited: u64,
    /// Expected line of play, starting with `best`.
    pub pv: Vec<Move>,
    /// Candidates, most visited first (empty for players that do not search).
    pub candidates: Vec<Candidate>,
    /// The root's first steps (a shooter's move, or none: `None`) that received playouts,
    /// with their playouts (the kept tree's included), most visited first; empty for a
    /// move chosen without search. The protocol's `genmove_analyze_steps` reports them.
    pub first_steps: Vec<(Option<(Square, Square)>, u64)>,
    /// The outcome of the position with best play, when the search proved it (the
    /// solver; an immediate win counts).
    pub proven: Option<Proven>,
    /// Bytes the search tree holds.
    pub memory_used: u64,
    /// The search's memory limit in bytes ([`SearchSettings::memory_mb`]).
    pub memory_limit: u64,
    /// Time spent.
    pub elapsed: Duration,
}

/// What [`Searcher::solve`] found about the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solution {
    /// The side to move wins with best play: this turn wins fastest among the wins
    /// found, the game ending after `turns` turns of both players (1: at once; 3: a win
    /// on the side's second turn).
    Win(Turn, u8),
    /// Every turn loses with best play; the game lasts `turns` more turns of both players
    /// along the longest loss found (2: the opponent wins on its next turn).
    Loss(u8),
    /// Not proven within the limits.
    Unknown,
}

/// The search: its settings, random numbers, and the tree kept between moves (the
/// [`crate::player::SearchPlayer`] runs it under the clock).
#[derive(Debug)]
pub struct Searcher {
    settings: SearchSettings,
    rng: Rng,
    tree: Option<Tree>,
    /// The game (start and moves) the tree's root stands for.
    tree_game: Option<(Position, Vec<Move>)>,
    scratch: Vec<Turn>,
}

const PV_LENGTH: usize = 8;

/// [`Searcher::ponder`] stops once a tree holds this share (percent) of its node limit: a
/// tree past half of it is not reused (it would cost memory), which would waste the
/// pondering.
pub const PONDER_FILL_PERCENT: u64 = 40;
/// Playouts a search thread claims at once from a shared budget (see [`Searcher::run_tree`]).
const CLAIM_BATCH: u64 = 16;
/// Playouts per thread between two checks of the trees' size while pondering.
const PONDER_CHUNK: u64 = 256;

impl Searcher {
    /// A player with `settings`.
    pub fn new(settings: SearchSettings) -> Searcher {
        let rng = Self::first_rng(settings.seed);
        Searcher { settings, rng, tree: None, tree_game: None, scratch: Vec::new() }
    }

    /// The random generator a player of `seed` starts with.
    fn first_rng(seed: u64) -> Rng {
        Rng::new(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    /// Starts afresh for a new game: forgets the tree and restarts the random choices from
    /// the seed, so that a game's moves do not depend on the games played before it (a
    /// referee reusing the process then gets the same games as with a fresh process).
    pub fn new_game(&mut self) {
        self.clear();
        self.rng = Self::first_rng(self.settings.seed);
    }

    /// The settings in force.
    pub fn settings(&self) -> &SearchSettings {
        &self.settings
    }

    /// Every turn of the tree's root at `pos` with the playouts through it (turns never
    /// visited left out), for training the move policy on the search's choices; empty
    /// when the kept tree is not rooted at `pos` (no search, a player that does not
    /// search, or a move found without searching).
    pub fn root_visits(&self, pos: &Position) -> Vec<(Turn, u64)> {
        match &self.tree {
            Some(tree) if tree.position() == pos => tree.root_turns().iter().map(|r| (r.turn, r.visits)).collect(),
            _ => Vec::new(),
        }
    }

    /// Forgets the tree kept between moves.
    pub fn clear(&mut self) {
        self.tree = None;
        self.tree_game = None;
    }

    fn mcts_config(&self) -> MctsConfig {
        let baseline = self.settings.player == Algorithm::Uct;
        MctsConfig {
            baseline,
            exploration: if baseline { 0.7 } else { self.settings.exploration() },
            cutoff: self.settings.cutoff,
            prior_temperature: self.settings.prior_temperature(),
            max_nodes: self.settings.max_nodes(),
            expand_visits: self.settings.expand_visits,
            shot_expand_visits: self.settings.shot_expand_visits,
            unvisited_value: self.settings.unvisited_value,
            stay_prior: self.settings.stay_prior,
            move_policy: self.settings.move_policy,
            policy: Arc::clone(&self.settings.policy),
            solver: self.settings.solver && !baseline,
            net_priors: self.settings.net_priors,
            eval: self.settings.eval.clone(),
        }
    }

    /// Chooses a move for the side to move in `game`, or `None` once the game is over.
    pub fn choose(&mut self, game: &Game, limits: &Limits) -> Option<SearchResult> {
        self.analyze(game, limits, Duration::MAX, &mut |_| {})
    }

    /// Like [`Searcher::choose`], calling `progress` with the search's view every `interval`.
    pub fn analyze(
        &mut self,
        game: &Game,
        limits: &Limits,
        interval: Duration,
        progress: &mut dyn FnMut(&SearchResult),
    ) -> Option<SearchResult> {
        let start = Instant::now();
        let pos = game.position();
        if pos.is_over() {
            return None;
        }
        let memory_limit = self.settings.memory_mb << 20;
        let simple = |best: Move| SearchResult {
            best,
            win_rate: 0.5,
            visits: 0,
            inherited: 0,
            pv: vec![best],
            candidates: Vec::new(),
            first_steps: Vec::new(),
            proven: None,
            memory_used: 0,
            memory_limit,
            elapsed: start.elapsed(),
        };
        if pos.phase() != Phase::Play {
            let best = match self.settings.player {
                Algorithm::Veletas => setup::choose_setup(pos, &mut self.rng, limits, start),
                _ => pos.random_setup(&mut self.rng),
            }?;
            return Some(simple(best));
        }
        match self.settings.player {
            Algorithm::Random => pos.random_move(&mut self.rng, PlayoutPolicy::Uniform).map(simple),
            Algorithm::Greedy => self.greedy(pos).map(simple),
            Algorithm::Uct | Algorithm::Veletas => {
                if self.settings.player == Algorithm::Veletas
                    && let Some(win) = tactics::winning_turn(pos)
                {
                    let mut result = simple(Move::Turn(win));
                    result.win_rate = 1.0;
                    result.proven = Some(Proven { winner: pos.side_to_move(), turns: 1 });
                    return Some(result);
                }
                self.prepare_tree(game);
                let visits_before = self.tree.as_ref().map_or(0, Tree::root_visits);
                let deadline = limits.time.map(|t| start + t);
                let mut remaining = limits.iterations;
                loop {
                    let next_report = Instant::now() + interval.min(Duration::from_secs(86_400));
                    let chunk_end = deadline.map_or(next_report, |d| d.min(next_report));
                    let done = self.run_tree(Some(chunk_end), remaining, limits.stop.as_deref());
                    remaining = remaining.map(|r| r.saturating_sub(done));
                    let finished = remaining == Some(0)
                        || self.tree.as_ref().is_none_or(Tree::is_settled)
                        || deadline.is_some_and(|d| Instant::now() >= d)
                        || limits.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
                        || (deadline.is_none() && remaining.is_none() && limits.stop.is_none());
                    let visits = self.tree.as_ref().map_or(0, |t| t.root_visits().saturating_sub(visits_before));
                    let result = self.result(pos, visits, visits_before, start);
                    if finished {
                        return result;
                    }
                    if let Some(r) = &result {
                        progress(r);
                    }
                }
            }
        }
    }

    /// Searches `game` ahead of time, normally on the opponent's turn, so that the next
    /// search keeps the tree (see [`SearchSettings::tree_reuse`]): until `limits.stop` is
    /// raised or `limits.iterations` are run (`limits.time` is ignored), and never once a
    /// tree holds [`PONDER_FILL_PERCENT`] of its node limit, so that it stays reusable.
    /// Nothing happens for a finished game, a setup turn, players that keep no tree
    /// (random, greedy) or with tree reuse off. Returns the playouts run (all threads).
    pub fn ponder(&mut self, game: &Game, limits: &Limits) -> u64 {
        let pos = game.position();
        let searches = matches!(self.settings.player, Algorithm::Uct | Algorithm::Veletas);
        if pos.is_over() || pos.phase() != Phase::Play || !searches || !self.settings.tree_reuse {
            return 0;
        }
        self.prepare_tree(game);
        let stop = limits.stop.as_deref();
        let tree_bytes = self.settings.max_nodes() as u64 * mcts::NODE_BYTES as u64;
        let full = tree_bytes / 100 * PONDER_FILL_PERCENT;
        let chunk = PONDER_CHUNK * self.settings.threads.max(1) as u64;
        let mut done = 0u64;
        loop {
            let budget = limits.iterations.map_or(chunk, |n| n.saturating_sub(done).min(chunk));
            if budget == 0
                || stop.is_some_and(|s| s.load(Ordering::Relaxed))
                || self.tree.as_ref().is_none_or(|t| t.is_settled() || t.memory_used() >= full)
            {
                return done;
            }
            done += self.run_tree(None, Some(budget), stop);
        }
    }

    /// Tries to prove the outcome of `game` for the side to move within `limits`, with our
    /// engine's search and its solver whatever the player (the kept trees are left as
    /// they are). A setup turn or a finished game is [`Solution::Unknown`].
    pub fn solve(&self, game: &Game, limits: &Limits) -> Solution {
        let pos = game.position();
        if pos.phase() != Phase::Play || pos.is_over() {
            return Solution::Unknown;
        }
        let settings =
            SearchSettings { player: Algorithm::Veletas, solver: true, tree_reuse: false, ..self.settings.clone() };
        let Some(result) = Searcher::new(settings).choose(game, limits) else { return Solution::Unknown };
        match (result.proven, result.best) {
            (Some(p), Move::Turn(turn)) if p.winner == pos.side_to_move() => Solution::Win(turn, p.turns),
            (Some(p), _) if p.winner != pos.side_to_move() => Solution::Loss(p.turns),
            _ => Solution::Unknown,
        }
    }

    fn greedy(&mut self, pos: &Position) -> Option<Move> {
        self.scratch.clear();
        pos.legal_turns(&mut self.scratch);
        let side = pos.side_to_move();
        let mut best: Option<(f64, Turn)> = None;
        for &turn in &self.scratch {
            let mut next = pos.clone();
            next.play_turn_unchecked(turn);
            // A little noise breaks ties between equal turns at random.
            let p = eval::evaluate_with(&next, &self.settings.eval);
            let value = (if side == veletas_rules::Color::Black { p } else { 1.0 - p }) + 1e-9 * self.rng.unit();
            if best.is_none_or(|(v, _)| value > v) {
                best = Some((value, turn));
            }
        }
        best.map(|(_, turn)| Move::Turn(turn))
    }

    /// The tree for `game`: the kept one moved down along the turns played since, when
    /// it can be, else a new one.
    fn prepare_tree(&mut self, game: &Game) {
        let reusable = self.settings.tree_reuse
            && self.tree.as_ref().is_some_and(|t| !t.is_crowded())
            && self.tree_game.as_ref().is_some_and(|(start, moves)| {
                start == game.start()
                    && game.moves().len() >= moves.len()
                    && game.moves().zip(moves).all(|(a, b)| a == *b)
            });
        let done = self.tree_game.as_ref().map_or(0, |(_, moves)| moves.len());
        self.tree_game = Some((game.start().clone(), game.moves().collect()));
        if reusable {
            let new: Option<Vec<Turn>> = game
                .moves()
                .skip(done)
                .map(|mv| match mv {
                    Move::Turn(t) => Some(t),
                    Move::Setup(_) | Move::SetupWithStone { .. } | Move::Swap => None,
                })
                .collect();
            if let Some(new) = new
                && let Some(tree) = self.tree.as_mut()
                && tree.advance(&new)
                && tree.position() == game.position()
            {
                return;
            }
        }
        self.tree = Some(Tree::new(self.mcts_config(), game.position().clone()));
    }

    /// Runs the tree until `deadline`, `iterations` or `stop`; returns the iterations run.
    /// Several threads search the one tree; the budget is shared, so exactly `iterations`
    /// playouts run unless the time, the stop flag or a proof at the root ends the search.
    fn run_tree(&mut self, deadline: Option<Instant>, iterations: Option<u64>, stop: Option<&AtomicBool>) -> u64 {
        let n = self.settings.threads.max(1) as u64;
        let seeds: Vec<u64> = (0..n).map(|_| self.rng.next_u64()).collect();
        let Some(tree) = self.tree.as_mut() else { return 0 };
        let out_of_time =
            || deadline.is_some_and(|d| Instant::now() >= d) || stop.is_some_and(|s| s.load(Ordering::Relaxed));
        if n == 1 {
            let (mut rng, mut ws) = (Rng::new(seeds[0]), Workspace::new(false));
            let mut done = 0u64;
            // A proven root needs no more search.
            while iterations.is_none_or(|b| done < b) && !tree.is_settled() {
                if done.is_multiple_of(16) && done > 0 && out_of_time() {
                    break;
                }
                tree.iterate_alone(&mut ws, &mut rng);
                done += 1;
            }
            return done;
        }
        let tree = &*tree;
        let claimed = AtomicU64::new(0);
        let work = |seed: u64| -> u64 {
            let (mut rng, mut ws) = (Rng::new(seed), Workspace::new(true));
            let mut done = 0u64;
            // Playouts claimed from the shared budget and not run yet: a thread claims
            // them a batch at a time, so that the threads do not write the one counter
            // at every playout.
            let mut held = 0u64;
            while !tree.is_settled() {
                if done.is_multiple_of(16) && done > 0 && out_of_time() {
                    break;
                }
                if let Some(budget) = iterations {
                    if held == 0 {
                        let before = claimed.fetch_add(CLAIM_BATCH, Ordering::Relaxed);
                        held = budget.saturating_sub(before).min(CLAIM_BATCH);
                    }
                    if held == 0 {
                        break;
                    }
                    held -= 1;
                }
                tree.iterate(&mut ws, &mut rng);
                done += 1;
            }
            done
        };
        std::thread::scope(|scope| {
            let work = &work;
            let handles: Vec<_> = seeds.iter().map(|&seed| scope.spawn(move || work(seed))).collect();
            handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
        })
    }

    /// The search's answer from the tree: the turn to play, its win rate, the candidates
    /// and the figures. In steps: rank the root's turns, choose among them (a proof first,
    /// then our engine's safety check), describe the best ten.
    fn result(&mut self, pos: &Position, visits: u64, inherited: u64, start: Instant) -> Option<SearchResult> {
        let side = pos.side_to_move();
        let tree = self.tree.as_ref()?;
        let ranked = ranked_root_turns(tree, side);
        let proven = tree.proven_turn();
        let chosen = match proven {
            // A proven root: the fastest win, else the longest loss.
            Some((turn, _)) => Some(turn),
            None if self.settings.player == Algorithm::Veletas => safe_turn(pos, &ranked, side),
            None => ranked.first().map(|r| r.turn),
        };
        let best = match chosen {
            Some(t) => t,
            None => pos.random_turn(&mut self.rng, PlayoutPolicy::Uniform)?,
        };
        let candidates = candidates(tree, &ranked, best, side);
        let win_rate = match proven {
            Some((_, p)) => f64::from(u8::from(p.winner == side)),
            None => candidates.iter().find(|c| c.mv == Move::Turn(best)).map_or(0.5, |c| c.win_rate),
        };
        // Most visited first; a stable sort keeps the tree's order among equals.
        let mut first_steps = tree.root_first_steps();
        first_steps.sort_by_key(|&(_, visits)| std::cmp::Reverse(visits));
        Some(SearchResult {
            best: Move::Turn(best),
            win_rate,
            visits,
            inherited,
            pv: tree.principal_variation(best, PV_LENGTH),
            candidates,
            first_steps,
            proven: proven.map(|(_, p)| p),
            memory_used: tree.memory_used(),
            memory_limit: self.settings.memory_mb << 20,
            elapsed: start.elapsed(),
        })
    }
}

/// Whether `turn` is proven lost for `side`, the side that plays it.
fn proven_lost(turn: &RootTurn, side: Color) -> bool {
    turn.proof.is_some_and(|p| p.winner != side)
}

/// The root's turns, best first: turns proven lost last, after every turn that may still
/// hold; then by visits, then by value, then in notation order.
fn ranked_root_turns(tree: &Tree, side: Color) -> Vec<RootTurn> {
    let mut ranked = tree.root_turns();
    ranked.sort_by(|a, b| {
        proven_lost(a, side)
            .cmp(&proven_lost(b, side))
            .then(b.visits.cmp(&a.visits))
            .then(b.value.total_cmp(&a.value))
            .then((a.turn.shooter_move(), a.turn.shot()).cmp(&(b.turn.shooter_move(), b.turn.shot())))
    });
    ranked
}

/// Our engine's choice among the ranked turns: never hand the opponent an immediate win
/// when a safer turn exists (among the best twelve that may still hold, else among every
/// legal turn not proven lost); the best-ranked turn when none is safer.
fn safe_turn(pos: &Position, ranked: &[RootTurn], side: Color) -> Option<Turn> {
    let best = ranked.first().map(|r| r.turn);
    let safe = ranked
        .iter()
        .take(12)
        .filter(|r| !proven_lost(r, side))
        .map(|r| r.turn)
        .find(|&t| !tactics::hands_over_win(pos, t));
    if safe.is_some() {
        return safe;
    }
    if best.is_some_and(|t| tactics::hands_over_win(pos, t)) {
        let mut all = Vec::new();
        pos.legal_turns(&mut all);
        let lost: Vec<Turn> = ranked.iter().filter(|r| proven_lost(r, side)).map(|r| r.turn).collect();
        if let Some(t) = all.into_iter().find(|&t| !lost.contains(&t) && !tactics::hands_over_win(pos, t)) {
            return Some(t);
        }
    }
    best
}

/// The ten best-ranked turns as candidates with their win rates and lines, `best` first
/// among them if it would not be there.
fn candidates(tree: &Tree, ranked: &[RootTurn], best: Turn, side: Color) -> Vec<Candidate> {
    let candidate = |r: &RootTurn| Candidate {
        mv: Move::Turn(r.turn),
        visits: r.visits,
        win_rate: match r.proof {
            Some(p) => f64::from(u8::from(p.winner == side)),
            None if r.visits > 0 => r.value / r.visits as f64,
            None => 0.5,
        },
        pv: tree.principal_variation(r.turn, PV_LENGTH),
    };
    let mut candidates: Vec<Candidate> = ranked.iter().take(10).map(candidate).collect();
    if !candidates.iter().any(|c| c.mv == Move::Turn(best))
        && let Some(r) = ranked.iter().find(|r| r.turn == best)
    {
        candidates.insert(0, candidate(r));
        candidates.truncate(10);
    }
    candidates
}
