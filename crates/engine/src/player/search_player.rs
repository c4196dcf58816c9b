//! The engine's player: the search ([`crate::search::Searcher`]) under the time control.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use log::info;

use crate::player::time::{self, TimePolicy};
use crate::player::{Decision, GtpClock, Player, Setting, SettingError, SolveError};
use crate::search::{self, Algorithm, Limits, MAX_MEMORY_MB, MIN_MEMORY_MB, SearchResult, SearchSettings, Solution};
use veletas_rules::Phase;
use veletas_rules::{Game, Move};

/// Thinking time per move when no clock is set and no playout budget either.
pub const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);
/// The most search threads a player accepts.
pub const MAX_THREADS: usize = 64;
/// With a resign threshold set, the player resigns after this many turns in a row whose
/// win rate was below it.
pub const RESIGN_TURNS: u32 = 3;

/// Chooses moves by search: the time for a move comes from the clock when one is set
/// ([`time::budget`]), else from the playout budget when one is set (deterministic for
/// a seed), else from the per-move time.
#[derive(Debug)]
pub struct SearchPlayer {
    search: search::Searcher,
    movetime: Duration,
    playouts: Option<u64>,
    policy: TimePolicy,
    /// Resign below this win rate (0: never).
    resign: f64,
    /// Per colour, its turns in a row in this game whose win rate was below `resign`.
    low_turns: [u32; 2],
    /// The moves of the game at the last decision (a shorter game means a new one or an
    /// undo: the count starts again).
    last_length: usize,
    /// Playouts the last search of `decide` started with, kept from earlier searches.
    inherited: u64,
}

impl SearchPlayer {
    /// A player with `settings`, [`DEFAULT_MOVETIME`] per move and no playout budget.
    pub fn new(settings: SearchSettings) -> SearchPlayer {
        SearchPlayer {
            search: search::Searcher::new(settings),
            movetime: DEFAULT_MOVETIME,
            playouts: None,
            policy: TimePolicy::default(),
            resign: 0.0,
            low_turns: [0; 2],
            last_length: 0,
            inherited: 0,
        }
    }

    /// The playouts through the root that the last search of [`Player::decide`] kept from
    /// earlier searches (its own, `analyze`, pondering) when it started.
    pub fn last_inherited(&self) -> u64 {
        self.inherited
    }

    /// The same player with `setting` changed (see [`Player::configure`]).
    pub fn with(mut self, setting: Setting) -> Result<SearchPlayer, SettingError> {
        self.configure(setting)?;
        Ok(self)
    }

    /// The search settings in force.
    pub fn settings(&self) -> &SearchSettings {
        self.search.settings()
    }

    /// The thinking time per move when no clock is set.
    pub fn movetime(&self) -> Duration {
        self.movetime
    }

    /// The resign threshold (0: never resigns).
    pub fn resign_threshold(&self) -> f64 {
        self.resign
    }

    /// Counts a turn whose search gave `win_rate` and tells whether to resign now.
    fn should_resign(&mut self, game: &Game, win_rate: f64) -> bool {
        let length = game.moves().len();
        if length <= self.last_length {
            self.low_turns = [0; 2];
        }
        self.last_length = length;
        let count = &mut self.low_turns[game.position().side_to_move().index()];
        if self.resign <= 0.0 || game.position().phase() != Phase::Play {
            *count = 0;
            return false;
        }
        *count = if win_rate < self.resign { *count + 1 } else { 0 };
        *count >= RESIGN_TURNS
    }

    /// The fixed playouts per move, if any.
    pub fn playouts(&self) -> Option<u64> {
        self.playouts
    }

    /// The limits of a search for the side to move in `game` under `clock`: the clock's
    /// budget (and the playout budget, if set, whichever ends first); without a clock the
    /// playout budget alone, or else the per-move time.
    pub fn limits(&self, game: &Game, clock: &GtpClock) -> Limits {
        let position = game.position();
        let moves_to_go = time::moves_to_go(position);
        match time::budget(clock, position.side_to_move(), moves_to_go, &self.policy) {
            Some(budget) => Limits { time: Some(budget), iterations: self.playouts, stop: None },
            None if self.playouts.is_some() => Limits { time: None, iterations: self.playouts, stop: None },
            None => Limits { time: Some(self.movetime), iterations: None, stop: None },
        }
    }

    fn replace_settings(&mut self, settings: SearchSettings) {
        if settings != *self.search.settings() {
            self.search = search::Searcher::new(settings);
        }
    }
}

fn describe_limits(limits: &Limits) -> String {
    match (limits.time, limits.iterations) {
        (Some(t), Some(n)) => format!("budget {:.3} s or {n} playouts", t.as_secs_f64()),
        (Some(t), None) => format!("budget {:.3} s", t.as_secs_f64()),
        (None, Some(n)) => format!("budget {n} playouts"),
        (None, None) => "no limit".to_string(),
    }
}

fn join_moves(moves: &[Move]) -> String {
    moves.iter().map(Move::to_string).collect::<Vec<_>>().join(" ")
}

impl Player for SearchPlayer {
    fn describe(&self) -> String {
        let s = self.search.settings();
        format!("{} (seed {}, {} thread{})", s.player, s.seed, s.threads, if s.threads == 1 { "" } else { "s" })
    }

    fn kind(&self) -> Algorithm {
        self.search.settings().player
    }

    fn decide(&mut self, game: &Game, clock: &GtpClock) -> Decision {
        self.decide_analyzed(game, clock).0
    }

    fn decide_analyzed(&mut self, game: &Game, clock: &GtpClock) -> (Decision, Option<SearchResult>) {
        let start = Instant::now();
        let limits = self.limits(game, clock);
        let side = game.position().side_to_move();
        let result = self.search.choose(game, &limits);
        self.inherited = result.as_ref().map_or(0, |r| r.inherited);
        match result {
            Some(result) => {
                info!(
                    "search: {side} plays {} after {} visits ({} inherited), win rate {:.1}%, time {:.3} s ({}), pv {}",
                    result.best,
                    result.visits,
                    result.inherited,
                    100.0 * result.win_rate,
                    start.elapsed().as_secs_f64(),
                    describe_limits(&limits),
                    join_moves(&result.pv)
                );
                if self.should_resign(game, result.win_rate) {
                    info!(
                        "search: {side} resigns: win rate below {:.1}% for {RESIGN_TURNS} turns",
                        100.0 * self.resign
                    );
                    return (Decision::Resign, Some(result));
                }
                (Decision::Play(result.best), Some(result))
            }
            None => (Decision::Resign, None),
        }
    }

    fn new_game(&mut self) {
        self.search.new_game();
        self.low_turns = [0; 2];
        self.last_length = 0;
    }

    fn configure(&mut self, setting: Setting) -> Result<(), SettingError> {
        let mut settings = self.search.settings().clone();
        match setting {
            Setting::Kind(kind) => settings.player = kind,
            Setting::Threads(n) if (1..=MAX_THREADS).contains(&n) => settings.threads = n,
            Setting::Threads(n) => return Err(SettingError::Threads(n)),
            Setting::MoveTime(t) if !t.is_zero() && t <= time::MAX_THINKING => {
                self.movetime = t;
                return Ok(());
            }
            Setting::MoveTime(t) => return Err(SettingError::MoveTime(t)),
            Setting::Playouts(n) => {
                self.playouts = n.filter(|&n| n > 0);
                return Ok(());
            }
            Setting::Memory(mb) if (MIN_MEMORY_MB..=MAX_MEMORY_MB).contains(&mb) => settings.memory_mb = mb,
            Setting::Memory(mb) => return Err(SettingError::Memory(mb)),
            Setting::Resign(t) if (0.0..=1.0).contains(&t) => {
                self.resign = t;
                return Ok(());
            }
            Setting::Resign(t) => return Err(SettingError::Resign(t)),
            Setting::Eval(eval) => settings.eval = eval,
            Setting::Policy(policy) => settings.policy = policy,
        }
        self.replace_settings(settings);
        Ok(())
    }

    fn memory_mb(&self) -> Option<u64> {
        Some(self.search.settings().memory_mb)
    }

    fn evaluation(&self) -> Option<crate::search::eval::StaticEval> {
        Some(self.search.settings().eval.clone())
    }

    fn policy(&self) -> Option<std::sync::Arc<crate::search::policy::PolicyWeights>> {
        Some(std::sync::Arc::clone(&self.search.settings().policy))
    }

    fn solve(&mut self, game: &Game, time: Duration) -> Result<Solution, SolveError> {
        let limits = Limits { time: Some(time), iterations: self.playouts, stop: None };
        let solution = self.search.solve(game, &limits);
        info!("solve: {solution:?}");
        Ok(solution)
    }

    /// Ponders until `stop`, or for the playout budget when one is set (as much as a move
    /// of its own), within the search's memory (see [`search::Searcher::ponder`]).
    fn ponder(&mut self, game: &Game, stop: &Arc<AtomicBool>) -> u64 {
        let start = Instant::now();
        let limits = Limits { time: None, iterations: self.playouts, stop: Some(Arc::clone(stop)) };
        let playouts = self.search.ponder(game, &limits);
        info!("ponder: {playouts} playouts in {:.3} s", start.elapsed().as_secs_f64());
        playouts
    }

    fn analyze(
        &mut self,
        game: &Game,
        interval: Duration,
        stop: &Arc<AtomicBool>,
        report: &mut dyn FnMut(&SearchResult),
    ) {
        let limits = Limits { time: None, iterations: None, stop: Some(Arc::clone(stop)) };
        let interval = interval.max(Duration::from_millis(10));
        if let Some(last) = self.search.analyze(game, &limits, interval, &mut |r| report(r)) {
            info!(
                "analysis: {} visits, best {} (win rate {:.1}%) after {:.3} s",
                last.visits,
                last.best,
                100.0 * last.win_rate,
                last.elapsed.as_secs_f64()
            );
            report(&last);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::TimeLeft;
    use veletas_rules::{Color, Variant};

    fn player() -> SearchPlayer {
        SearchPlayer::new(SearchSettings { seed: 5, ..Default::default() })
    }

    #[test]
    fn limits_follow_the_clock_then_the_playouts_then_the_movetime() {
        let game = Game::new(Variant::from_size(7).unwrap());
        let mut p = player();
        let none = GtpClock::default();
        assert_eq!(p.limits(&game, &none).time, Some(DEFAULT_MOVETIME));
        p.configure(Setting::Playouts(Some(300))).unwrap();
        let l = p.limits(&game, &none);
        assert_eq!((l.time, l.iterations), (None, Some(300)));
        let byo = GtpClock { main_time: 0.0, byo_yomi: 1.0, byo_yomi_stones: 1, ..GtpClock::default() };
        let l = p.limits(&game, &byo);
        assert!(l.time.is_some_and(|t| t < Duration::from_secs(1)));
        assert_eq!(l.iterations, Some(300));
        p.configure(Setting::Playouts(Some(0))).unwrap();
        p.configure(Setting::MoveTime(Duration::from_millis(250))).unwrap();
        assert_eq!(p.limits(&game, &none).time, Some(Duration::from_millis(250)));
        let mut low = byo;
        low.left[Color::Black.index()] = Some(TimeLeft { seconds: 0.2, stones: 1 });
        // The period's 0.2 s left, less a tenth of it kept back.
        let t = p.limits(&game, &low).time.expect("a time limit");
        assert!(t < Duration::from_millis(200) && t > Duration::from_millis(170), "{t:?}");
    }

    #[test]
    fn settings_are_checked() {
        let mut p = player();
        assert_eq!(p.configure(Setting::Threads(0)), Err(SettingError::Threads(0)));
        assert_eq!(p.configure(Setting::Threads(MAX_THREADS + 1)), Err(SettingError::Threads(MAX_THREADS + 1)));
        assert_eq!(p.configure(Setting::MoveTime(Duration::ZERO)), Err(SettingError::MoveTime(Duration::ZERO)));
        assert_eq!(p.settings().threads, 1);
        assert_eq!(p.movetime(), DEFAULT_MOVETIME);
        p.configure(Setting::Threads(2)).unwrap();
        p.configure(Setting::Kind(Algorithm::Uct)).unwrap();
        assert_eq!((p.settings().threads, p.kind(), p.settings().seed), (2, Algorithm::Uct, 5));
        assert_eq!(p.describe(), "uct (seed 5, 2 threads)");
    }

    #[test]
    fn fixed_playouts_are_deterministic() {
        let mut game = Game::new(Variant::from_size(7).unwrap());
        let clock = GtpClock::default();
        let make = || player().with(Setting::Playouts(Some(400))).unwrap();
        let (mut a, mut b) = (make(), make());
        for _ in 0..4 {
            let (da, db) = (a.decide(&game, &clock), b.decide(&game, &clock));
            assert_eq!(da, db);
            let Decision::Play(mv) = da else { panic!("resigned") };
            game.play(mv).unwrap();
        }
    }
}
