//! The GUI's whole-game review of its open game: an engine analyses the position before every
//! turn, a bounded time each, through [`veletas_tools::review::Reviewer`] (the very code
//! `veletas analyse-games` runs, so the same engine at a fixed budget gives the same win
//! rates), in an engine process of its own. Each position's figures fill the game's
//! analyses as they come (the move list's marks and the win-rate graph are drawn from them)
//! and the turns' notes (the saved record's win rates and best lines); the page shows the
//! progress ([`ReviewView`]). Stop, turns taken back and closing the game end it at once:
//! its engine is killed.

use std::sync::Arc;
use std::thread;

use veletas_rules::Game;
use veletas_rules::IllegalMove;
use veletas_tools::referee::engine::controller::Fault;
use veletas_tools::review::{PositionReview, ReviewError, Reviewer};

use crate::analysis_view::TurnAnalysis;
use crate::review_view::{ReviewState, ReviewView};
use crate::session::{GameSession, Refusal, Settings, SharedGame, lock};

/// The longest time per position a review may ask for, in seconds.
pub const MAX_SECONDS: f64 = 60.0;

/// The shortest time per position a review may ask for, in seconds.
pub const MIN_SECONDS: f64 = 0.05;

/// Starts a review of the game by engine `engine` (an index into the settings' engines),
/// `seconds` per position; refused while one runs, for a game without turns, or for an
/// engine or a time that is not offered.
pub fn start(shared: &SharedGame, settings: &Arc<Settings>, engine: usize, seconds: f64) -> Result<(), Refusal> {
    let spec = settings.engines.get(engine).ok_or_else(|| Refusal::Bad(format!("there is no engine {engine}")))?;
    if !(seconds.is_finite() && (MIN_SECONDS..=MAX_SECONDS).contains(&seconds)) {
        return Err(Refusal::Bad(format!("a review takes from {MIN_SECONDS} to {MAX_SECONDS} seconds a position")));
    }
    let mut session = lock(shared);
    if session.review.as_ref().is_some_and(|r| r.view.running) {
        return Err(Refusal::Conflict("the game is being reviewed: stop it first".into()));
    }
    let moves: Vec<_> = session.game.moves().collect();
    if moves.is_empty() {
        return Err(Refusal::Conflict("the game has no turn to review".into()));
    }
    let run = session.review.as_ref().map_or(0, |r| r.run) + 1;
    let epoch = session.epoch;
    let view = ReviewView { engine: spec.name.clone(), total: moves.len(), running: true, ..Default::default() };
    session.review = Some(ReviewState { view, run, killer: None });
    session.version += 1;
    session.analysers += 1;
    let start = session.game.start().clone();
    drop(session);
    let (shared, command, name) = (Arc::clone(shared), spec.command.clone(), spec.name.clone());
    // The engine's own budget may end a position's search first; the clock is the bound.
    let timeout = seconds + settings.command_timeout.as_secs_f64();
    let current = move |session: &GameSession| {
        !session.closed && session.epoch == epoch && session.review.as_ref().is_some_and(|r| r.run == run)
    };
    let spawned = thread::Builder::new().name("review".into()).spawn(move || {
        let ended = review(&shared, &current, &command, &name, seconds, timeout, start, &moves);
        let mut session = lock(&shared);
        session.analysers -= 1;
        if current(&session)
            && let Some(review) = session.review.as_mut()
        {
            review.view.running = false;
            review.view.error = ended.err().map(|e| e.to_string());
            review.killer = None;
            session.version += 1;
        }
    });
    spawned.map(|_| ()).map_err(|e| Refusal::Conflict(format!("no thread for the review: {e}")))
}

/// Why a review ended early: one line, shown on the page.
#[derive(Debug, thiserror::Error)]
enum ReviewRunError {
    /// The engine could not be started or greeted.
    #[error(transparent)]
    Start(#[from] ReviewError),
    /// The engine failed on a position.
    #[error("{engine}, before turn {turn}: {fault}")]
    Engine {
        /// The engine's name.
        engine: String,
        /// The turn (from 1) whose position it was asked about.
        turn: usize,
        /// What it did.
        #[source]
        fault: Box<Fault>,
    },
    /// The game's own moves do not replay.
    #[error("replaying the game: {0}")]
    Replay(#[source] IllegalMove),
}

/// Runs the review of the game from `start` through `moves` while `current` says it is the
/// game's; an error says why it ended early (nothing once it is no longer current).
#[allow(clippy::too_many_arguments)]
fn review(
    shared: &SharedGame,
    current: &dyn Fn(&GameSession) -> bool,
    command: &veletas_tools::referee::engine::EngineCommand,
    name: &str,
    seconds: f64,
    timeout: f64,
    start: veletas_rules::Position,
    moves: &[veletas_rules::Move],
) -> Result<(), ReviewRunError> {
    let mut reviewer = Reviewer::start(command, name, Some(seconds), timeout)?;
    {
        let mut session = lock(shared);
        if !current(&session) {
            reviewer.quit();
            return Ok(());
        }
        let killer = reviewer.killer();
        session.killers.extend(killer.clone());
        if let Some(review) = session.review.as_mut() {
            review.killer = killer;
        }
    }
    let mut game = Game::from_position(start);
    let mut result = Ok(());
    for (turn, mv) in moves.iter().enumerate() {
        let analysed = reviewer.analyse(&game);
        let mut session = lock(shared);
        if !current(&session) {
            break;
        }
        match analysed {
            Ok(found) => session.reviewed(turn, game.position().side_to_move(), reviewer.name(), found),
            Err(fault) => {
                let engine = reviewer.name().to_string();
                result = Err(ReviewRunError::Engine { engine, turn: turn + 1, fault: Box::new(fault) });
                break;
            }
        }
        drop(session);
        if let Err(e) = game.play(*mv) {
            result = Err(ReviewRunError::Replay(e));
            break;
        }
    }
    reviewer.quit();
    result
}

impl GameSession {
    /// Keeps what the review found of the position before turn `turn` (from 0), `to_move`
    /// to move there: its analysis (the graph's and the move list's win rate) and the turn's
    /// note (the record's), and counts it done.
    fn reviewed(&mut self, turn: usize, to_move: veletas_rules::Color, engine: &str, found: PositionReview) {
        if let Some(analysis) = TurnAnalysis::reviewed(to_move, engine.to_string(), turn, &found) {
            self.analyses.insert(turn, analysis);
        }
        self.note_review(turn, found);
        if let Some(review) = self.review.as_mut() {
            review.view.done = turn + 1;
        }
        self.version += 1;
    }
}
