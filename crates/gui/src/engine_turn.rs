//! An engine's turn in a game: the engine is brought up to date with the game through the
//! protocol and asked for its move on a thread of its own, so that the server keeps answering
//! while it thinks. Its reply is checked with the rules; any misbehaviour loses the game for
//! it, with the reason (see [`crate::session`]).

use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use veletas_rules::{Color, Game, Move, Position, RuleSet};
use veletas_tools::referee::clock::{Clock, TimeControl, format_seconds};
use veletas_tools::referee::engine::{EngineClient, Failure, Reply};
use veletas_tools::referee::game::Termination;

use crate::analysis::{self, Kind};
use crate::series::Registry;
use crate::session::{EngineSeat, Settings, SharedGame, lock, now_ms, save_finished};

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
        control: session.controls[color.index()],
        clock: session.clocks[color.index()].clone(),
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
        && let Err(refusal) = analysis::start(shared, settings, index, seconds, None, Kind::Thinking)
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

/// A loss by the engine to move: how and why.
type Loss = (Termination, String);

fn failure_loss(command: &str, failure: Failure) -> Loss {
    match failure {
        Failure::Timeout => (Termination::Timeout, format!("no reply to '{command}' in time")),
        Failure::Exited(detail) => (Termination::Crash, format!("ended during '{command}': {detail}")),
        Failure::Malformed(detail) => (Termination::MalformedReply, format!("to '{command}': {detail}")),
        Failure::NotReading => (Termination::Timeout, format!("did not read '{command}' in time")),
    }
}

fn expect_ok(engine: &mut EngineClient, command: &str, timeout: Duration) -> Result<String, Loss> {
    match engine.command(command, timeout) {
        Ok(Reply { success: true, text }) => Ok(text),
        Ok(Reply { success: false, text }) => {
            Err((Termination::RejectedCommand, format!("'{command}' was refused: {text}")))
        }
        Err(failure) => Err(failure_loss(command, failure)),
    }
}

impl Job {
    fn run(self, engine: &Arc<Mutex<EngineSeat>>) {
        let result = {
            let mut seat = lock(engine);
            let result = self.genmove(&mut seat);
            if result.is_err() {
                seat.engine.kill();
                seat.known = None;
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
            Ok(Some((mv, replied_at, clock))) => {
                let _ = session.game.play(mv);
                session.moved_at = replied_at;
                session.clocks[color.index()] = clock;
                session.turn_played(color);
                if mv == Move::Swap {
                    session.swapped = !session.swapped;
                }
                session.version += 1;
            }
            Ok(None) => session.finish(!color, Termination::Resignation, format!("{color} resigned")),
            Err((termination, reason)) => session.finish(!color, termination, format!("{color}: {reason}")),
        }
        drop(session);
        save_finished(&self.shared, &self.settings);
        // (A match's games are played by the referee's game function: see crate::series.)
        // Engine against engine: the other one's move is next.
        kick(&self.shared, &self.settings, &self.games);
    }

    /// Brings the engine up to date with the game, asks for its move and checks it
    /// (played in `self.game`); `None` is a resignation.
    fn genmove(&self, seat: &mut EngineSeat) -> Result<Option<(Move, u64, Clock)>, Loss> {
        let timeout = self.settings.command_timeout;
        let started =
            seat.engine.ensure_running().map_err(|e| (Termination::Crash, format!("could not be started: {e}")))?;
        if started {
            seat.known = None;
            if let Some(killer) = seat.engine.killer() {
                let mut session = lock(&self.shared);
                if session.is_over() {
                    // Closed meanwhile: its killers have been used.
                    killer.kill();
                }
                session.killers.push(killer);
            }
            for command in seat.engine.command_line().init.clone() {
                expect_ok(&mut seat.engine, &command, timeout)?;
            }
        }
        let moves: Vec<Move> = self.game.moves().collect();
        let known = seat.known.take().filter(|known| moves.starts_with(known));
        let known = match known {
            Some(known) => known,
            None => {
                self.set_up(&mut seat.engine)?;
                Vec::new()
            }
        };
        let mut replay = Game::from_position(self.game.start().clone());
        for mv in &known {
            let _ = replay.play(*mv);
        }
        for &mv in &moves[known.len()..] {
            let color = replay.position().side_to_move();
            expect_ok(&mut seat.engine, &format!("play {color} {mv}"), timeout)?;
            let _ = replay.play(mv);
        }
        seat.known = Some(moves);
        let clock = self.clock.clone();
        let (left, stones) = clock.time_left();
        let color = self.color;
        expect_ok(&mut seat.engine, &format!("time_left {color} {} {stones}", format_seconds(left)), timeout)?;
        let command = format!("genmove {color}");
        let start = Instant::now();
        let reply = seat.engine.command(&command, clock.deadline(self.settings.margin));
        let replied_at = now_ms();
        let text = match reply {
            Ok(Reply { success: true, text }) => text,
            Ok(Reply { success: false, text }) => {
                return Err((Termination::GenmoveError, format!("'?' to genmove: {text}")));
            }
            Err(Failure::Timeout) => {
                let reason = format!("no move within {} s; killed", format_seconds(clock.allowed()));
                return Err((Termination::TimeForfeit, reason));
            }
            Err(failure) => return Err(failure_loss(&command, failure)),
        };
        if text.eq_ignore_ascii_case("resign") {
            return Ok(None);
        }
        let shown: String = text.chars().take(60).collect();
        if text.is_empty() || text.contains(char::is_whitespace) {
            return Err((Termination::MalformedReply, format!("'{shown}' is not a move")));
        }
        let mut game = self.game.clone();
        let mv = game
            .position()
            .parse_move(&text)
            .map_err(|e| (Termination::MalformedReply, format!("'{shown}' is not a move: {e}")))?;
        game.play(mv).map_err(|e| (Termination::IllegalMove, format!("played {mv}: {e}")))?;
        let mut clock = clock;
        clock
            .spend(start.elapsed().as_secs_f64(), self.settings.margin)
            .map_err(|e| (Termination::TimeForfeit, format!("played {mv} too late: {e}")))?;
        if let Some(known) = seat.known.as_mut() {
            known.push(mv);
        }
        Ok(Some((mv, replied_at, clock)))
    }

    /// Sets the engine up for a new game: size, rules, empty board, time control.
    fn set_up(&self, engine: &mut EngineClient) -> Result<(), Loss> {
        let timeout = self.settings.command_timeout;
        let start = self.game.start();
        expect_ok(engine, &format!("boardsize {}", start.variant().size()), timeout)?;
        if start.rules().set != RuleSet::Classic {
            expect_ok(engine, &format!("rules {}", start.rules().set), timeout)?;
        }
        if start.rules().no_corners {
            expect_ok(engine, "option no-corners on", timeout)?;
        }
        if start.rules().claimed_block() {
            expect_ok(engine, "option claimed-block on", timeout)?;
        }
        expect_ok(engine, "clear_board", timeout)?;
        if *start != Position::with_rules(start.variant(), start.rules()) {
            expect_ok(engine, &format!("set_position {start}"), timeout)?;
        }
        expect_ok(engine, &self.control.time_settings_command(), timeout)?;
        Ok(())
    }
}
