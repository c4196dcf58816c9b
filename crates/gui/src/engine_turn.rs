//! An engine's turn in a game: the engine is brought up to date with the game through the
//! protocol and asked for its move on a thread of its own, so that the server keeps answering
//! while it thinks. Its reply is checked with the rules; any misbehaviour loses the game for
//! it, with the reason (see [`crate::session`]).

use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use veletas_rules::record::Evaluation;
use veletas_rules::{Color, Game, Move};
use veletas_tools::referee::clock::{Clock, TimeControl};
use veletas_tools::referee::engine::EngineClient;
use veletas_tools::referee::engine::controller::{Fault, Setup};
use veletas_tools::referee::game::Termination;

use crate::analysis::{self, Kind};
use crate::registry::Registry;
use crate::session::{Settings, SharedGame, lock, now_ms, save_finished};

/// Starts the engine's move if an engine is to move and none is thinking (`games`: the
/// games open in the server). A match's games are left to the referee ([`crate::series`]).
pub fn kick(shared: &SharedGame, settings: &Arc<Settings>, games: &Arc<Registry>) {
    let mut session = lock(shared);
    if session.is_over() || session.thinking || session.refereed {
        return;
    }
    let color = session.game.position().side_to_move();
    let seat = session.seat(color);
    let Some(engine) = session.engines[seat].clone() else { return };
    session.thinking = true;
    session.version += 1;
    let job = Job {
        turns: session.game.moves().len(),
        epoch: session.epoch,
        game: session.game.clone(),
        color,
        control: session.control(color),
        clock: session.clock(color).clone(),
        shared: Arc::clone(shared),
        settings: Arc::clone(settings),
        games: Arc::clone(games),
    };
    let thinking = session.engine_of(color).filter(|_| session.show_thinking);
    // The thinking lasts at most as long as the engine may think (it stops at its move; the
    // bound matters for an engine that stops reporting, which is checked only at a report).
    let seconds = job.clock.deadline(settings.margin).as_secs_f64().clamp(0.1, analysis::THINKING_SECONDS);
    drop(session);
    let spawned = thread::Builder::new().name("engine-move".into()).spawn(move || job.run(&engine));
    if let Err(e) = spawned {
        let mut session = lock(shared);
        session.finish(!color, Termination::Crash, format!("{color}: no thread for the engine: {e}"));
        return;
    }
    // The engine's thinking, shown while it plays: a second process of it analysing the
    // same position (`genmove` itself reports nothing), stopped by its move.
    if let Some(index) = thinking
        && let Err(refusal) = analysis::start(shared, settings, index, seconds, None, &[], Kind::Thinking)
    {
        log::debug!("the engine's thinking is not shown: {refusal:?}");
    }
}

/// One engine move being asked for.
struct Job {
    /// The game's number of turns and its undo epoch when the move was asked for: a reply
    /// to a game that has changed since (undo, resignation, closed) is dropped. (Not the
    /// view's version, which analysis reports bump.)
    turns: usize,
    epoch: u64,
    game: Game,
    color: Color,
    control: TimeControl,
    /// The clock of the colour to move, as it stands before this turn.
    clock: Clock,
    shared: SharedGame,
    settings: Arc<Settings>,
    /// The games open in the server.
    games: Arc<Registry>,
}

/// An engine's move, the win rate it reported with it, when its reply came (ms) and its
/// clock after it.
type Moved = (Move, Option<Evaluation>, u64, Clock);

impl Job {
    fn run(self, engine: &Arc<Mutex<EngineClient>>) {
        let result = {
            let mut engine = lock(engine);
            let result = self.genmove(&mut engine);
            if result.is_err() {
                engine.kill();
            }
            result
        };
        let mut session = lock(&self.shared);
        if session.is_over() || session.epoch != self.epoch || session.game.moves().len() != self.turns {
            return; // The game changed meanwhile (undo, resign, closed): the reply is stale.
        }
        session.thinking = false;
        let color = self.color;
        match result {
            Ok(Some((mv, evaluation, replied_at, clock))) => {
                let _ = session.game.play(mv);
                session.moved_at = replied_at;
                // The clock of the engine that moved (its seat's: it follows it through a swap).
                let seat = session.seat(color);
                session.clocks[seat] = clock;
                // The win rate an engine that lists `genmove_analyze` reported is kept, as the
                // referee keeps it.
                session.turn_played(color, evaluation);
                if mv == Move::Swap {
                    session.swapped = !session.swapped;
                }
                session.version += 1;
            }
            Ok(None) => session.finish(!color, Termination::Resignation, format!("{color} resigned")),
            Err(fault) => session.finish(!color, fault.termination(), format!("{color}: {fault}")),
        }
        drop(session);
        save_finished(&self.shared, &self.settings);
        // (A match's games are played by the referee's game function: see crate::series.)
        // Engine against engine: the other one's move is next.
        kick(&self.shared, &self.settings, &self.games);
    }

    /// Brings the engine up to date with the game, asks for its move and checks it, as the
    /// referee does; `None` is a resignation.
    fn genmove(&self, engine: &mut EngineClient) -> Result<Option<Moved>, Fault> {
        let timeout = self.settings.command_timeout;
        let started = engine.ensure_running().map_err(|e| Fault::not_started(&e))?;
        if let Some(killer) = engine.killer() {
            let mut session = lock(&self.shared);
            if session.is_over() || session.epoch != self.epoch {
                // Closed meanwhile (its killers have been used), or taken back by Undo.
                killer.kill();
            }
            // Undo stops the search by ending the process.
            session.thinking_killer = Some(killer.clone());
            if started {
                session.killers.push(killer);
            }
        }
        engine.start(timeout)?;
        engine.catch_up(&Setup::of_game(&self.game, Some(self.control)), &self.game, timeout)?;
        let mut clock = self.clock.clone();
        engine.time_left(self.color, &clock, timeout)?;
        let mut game = self.game.clone();
        let mut elapsed = Duration::ZERO;
        let played =
            engine.genmove(engine.capabilities().ask(false), &mut game, &mut clock, self.settings.margin, &mut elapsed);
        let replied_at = now_ms();
        let played = played?;
        Ok(played.mv.map(|mv| (mv, played.evaluation, replied_at, clock)))
    }
}
