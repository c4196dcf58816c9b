//! Players: whatever chooses the engine's moves for `genmove`.
//!
//! The protocol layer owns a `Box<dyn Player>` and asks it for a [`Decision`] with the
//! game so far and the [`GtpClock`] the controller announced. The engine's player is
//! [`SearchPlayer`], which turns the clock into a time limit ([`time::budget`]) for the
//! search ([`crate::search`]), which knows nothing of clocks. [`RandomPlayer`] is a
//! minimal player for tests.

pub mod length;
pub mod search_player;
pub mod time;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::search::{Algorithm, SearchResult, Solution};
use veletas_rules::{Color, Game, Move, PlayoutPolicy, Rng};

pub use search_player::SearchPlayer;

/// What a player does on its turn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Decision {
    /// Play this (legal) move.
    Play(Move),
    /// Give up the game.
    Resign,
}

/// The time remaining for one player, as announced by `time_left`.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct TimeLeft {
    /// Seconds left on the player's clock.
    pub seconds: f64,
    /// Moves to play in that time (0: main time, or no byo-yomi period running).
    pub stones: u32,
}

/// The time control announced by `time_settings`, and the latest `time_left` per player.
///
/// Times are seconds and may be fractional. `byo_yomi > 0` with `byo_yomi_stones == 0`
/// means no time limit at all, as in GTP.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct GtpClock {
    /// Main time in seconds.
    pub main_time: f64,
    /// Length of one byo-yomi period in seconds.
    pub byo_yomi: f64,
    /// Stones to play in each byo-yomi period.
    pub byo_yomi_stones: u32,
    /// The last `time_left` for Black and White (by [`Color::index`]).
    pub left: [Option<TimeLeft>; 2],
    /// The seconds added to a player's main time after each of its moves (a Fischer
    /// increment), as seen in the first `time_left` after one of our moves: GTP cannot
    /// announce it ([`time::observe_time_left`]). 0 until seen.
    pub increment: f64,
    /// Our own account of each colour's main time after our last move with it
    /// ([`time::charge`]), until the next `time_left` for it replaces it.
    pub charged: [Option<f64>; 2],
}

impl GtpClock {
    /// Whether the controller set no limit (`time_settings` never sent, or the GTP
    /// "no time limit" form: byo-yomi time but zero stones).
    pub fn is_unlimited(&self) -> bool {
        self.byo_yomi_stones == 0 && (self.byo_yomi > 0.0 || self.main_time == 0.0)
    }

    /// The last time left announced for `color`.
    pub fn time_left(&self, color: Color) -> Option<TimeLeft> {
        self.left.get(color.index()).copied().flatten()
    }
}

/// A setting of a player that the protocol or the command line changes.
#[derive(Clone, PartialEq, Debug)]
pub enum Setting {
    /// The algorithm.
    Kind(Algorithm),
    /// Thinking time per move when no clock is set.
    MoveTime(Duration),
    /// A fixed number of playouts per move (`None`: think for a time instead).
    Playouts(Option<u64>),
    /// Search threads.
    Threads(usize),
    /// Memory of the search in MiB, all threads together.
    Memory(u64),
    /// Resign when the win rate stays below this (0 to 1; 0: never) for
    /// [`search_player::RESIGN_TURNS`] turns in a row.
    Resign(f64),
    /// The static evaluation, with the learned one's weights (`--eval`, the protocol's
    /// `eval`).
    Eval(crate::search::eval::StaticEval),
    /// The move policy's weights (`--policy`, the protocol's `policy`).
    Policy(std::sync::Arc<crate::search::policy::PolicyWeights>),
}

/// Why a player refuses a setting ([`Player::configure`]); nothing changed. The protocol
/// replies with these words.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SettingError {
    /// The player has no settings.
    #[error("cannot change the settings of the {0} player")]
    NoSettings(Algorithm),
    /// A number of threads beyond [`search_player::MAX_THREADS`].
    #[error("threads must be 1 to {max}, not {0}", max = search_player::MAX_THREADS)]
    Threads(usize),
    /// A time per move of zero or beyond [`time::MAX_THINKING`].
    #[error("the time per move must be above 0 and at most {most} s, not {0:?}", most = time::MAX_THINKING.as_secs())]
    MoveTime(Duration),
    /// A memory limit outside the search's range, in MB.
    #[error("memory must be {min} to {max} MB, not {0}", min = crate::search::MIN_MEMORY_MB, max = crate::search::MAX_MEMORY_MB)]
    Memory(u64),
    /// A resign threshold outside 0 to 1.
    #[error("the resign threshold must be 0 to 1, not {0}")]
    Resign(f64),
}

/// Why a player cannot solve a position ([`Player::solve`]). The protocol replies with
/// these words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The player does not search.
    #[error("cannot solve: the {0} player does not search")]
    NoSearch(Algorithm),
}

/// Something that chooses moves. The engine calls [`Player::decide`] only when the game
/// is not over, with the side to move being the player's colour.
pub trait Player {
    /// A short description for logs, such as `random`.
    fn describe(&self) -> String;

    /// The algorithm choosing the moves.
    fn kind(&self) -> Algorithm;

    /// Chooses a move for the side to move in `game`, within the limits of `clock`.
    fn decide(&mut self, game: &Game, clock: &GtpClock) -> Decision;

    /// [`Player::decide`], with the search's final view when the player searched
    /// (`genmove_analyze`); players that do not search give `None`.
    fn decide_analyzed(&mut self, game: &Game, clock: &GtpClock) -> (Decision, Option<SearchResult>) {
        (self.decide(game, clock), None)
    }

    /// Called when a new game starts (`clear_board`, `boardsize`, `set_position`), so a
    /// player can drop what it learned about the previous one.
    fn new_game(&mut self) {}

    /// Changes a setting; an error (and nothing changed) if the player has no such
    /// setting or refuses its value.
    fn configure(&mut self, setting: Setting) -> Result<(), SettingError> {
        let _ = setting;
        Err(SettingError::NoSettings(self.kind()))
    }

    /// The static evaluation in force, for players that have one.
    fn evaluation(&self) -> Option<crate::search::eval::StaticEval> {
        None
    }

    /// The move policy's weights in force, for players that have them.
    fn policy(&self) -> Option<std::sync::Arc<crate::search::policy::PolicyWeights>> {
        None
    }

    /// The search's memory limit in MiB, for players that search.
    fn memory_mb(&self) -> Option<u64> {
        None
    }

    /// Tries to prove the outcome of `game` (not over) for the side to move within
    /// `time` (and the playout budget, if the player has one). Players that do not
    /// search cannot: an error.
    fn solve(&mut self, game: &Game, time: Duration) -> Result<Solution, SolveError> {
        let _ = (game, time);
        Err(SolveError::NoSearch(self.kind()))
    }

    /// Searches `game` (not over) on the opponent's turn, to keep what it finds for the
    /// player's next move, until `stop` is raised (or a limit of the player's own);
    /// returns the playouts run. Players that keep nothing between moves do nothing (the
    /// default) and return 0 at once.
    fn ponder(&mut self, game: &Game, stop: &Arc<AtomicBool>) -> u64 {
        let _ = (game, stop);
        0
    }

    /// Analyses `game` (not over) until `stop` is raised, calling `report` with the
    /// search's view about every `interval` and once more at the end. A player that does
    /// not search may report its choice once and return at once.
    fn analyze(
        &mut self,
        game: &Game,
        interval: Duration,
        stop: &Arc<AtomicBool>,
        report: &mut dyn FnMut(&SearchResult),
    ) {
        let _ = (game, interval, stop, report);
    }
}

/// Plays a uniformly random legal move; seedable, so sessions are reproducible.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: Rng,
    seed: u64,
}

impl RandomPlayer {
    /// A random player whose choices follow from `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { rng: Rng::new(seed), seed }
    }
}

impl Player for RandomPlayer {
    fn describe(&self) -> String {
        format!("random (seed {})", self.seed)
    }

    fn kind(&self) -> Algorithm {
        Algorithm::Random
    }

    fn decide(&mut self, game: &Game, _clock: &GtpClock) -> Decision {
        match game.position().random_move(&mut self.rng, PlayoutPolicy::Uniform) {
            Some(mv) => Decision::Play(mv),
            None => Decision::Resign,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use veletas_rules::Variant;

    #[test]
    fn random_player_is_reproducible_and_legal() {
        let game = Game::new(Variant::STANDARD);
        let (mut a, mut b) = (RandomPlayer::new(3), RandomPlayer::new(3));
        let clock = GtpClock::default();
        for _ in 0..5 {
            let (da, db) = (a.decide(&game, &clock), b.decide(&game, &clock));
            assert_eq!(da, db);
            let Decision::Play(mv) = da else { panic!("resigned on an empty board") };
            assert!(game.position().is_legal(mv));
        }
    }

    #[test]
    fn unlimited_clock_forms() {
        assert!(GtpClock::default().is_unlimited());
        let timed = GtpClock { main_time: 60.0, ..GtpClock::default() };
        assert!(!timed.is_unlimited());
        let gtp_none = GtpClock { main_time: 60.0, byo_yomi: 1.0, ..GtpClock::default() };
        assert!(gtp_none.is_unlimited());
    }
}
