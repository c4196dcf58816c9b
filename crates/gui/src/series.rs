//! Matches of N games between two engines ([`crate::series_view::Series`]), played on the
//! server's [`Registry`] of open games.
//!
//! A match is played on a thread of its own, each game through the referee's game function
//! ([`play_game_observed`], as `veletas match` plays them): its observer feeds the game's
//! session (each turn, the clocks, the turn's time and reported win rate) and starts the
//! engine's thinking shown during its turns. When a game of the match ends, the next one is
//! opened with the colours exchanged (the first engine plays Black in the odd games), until
//! N games are played. Each game is a game of its own (its own id, view and record, appended
//! to the `--record` file as it ends, with its number in the `Round` tag); each one's view
//! says which game of the match it is, the running score and, once it is over, the next
//! game's id. Closing the game being played (or the server, on Ctrl-C) stops the match (the
//! referee's stop flag), ends its engines at once and starts no further game; that game
//! has no result.

use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use veletas_rules::{Color, Move, Position};
use veletas_tools::referee::engine::EngineClient;
use veletas_tools::referee::game::{GameSettings, Progress, Termination, play_game_observed};
use veletas_tools::referee::openings::Opening;

use crate::analysis::{self, Kind};
use crate::new_game::NewGame;
use crate::registry::Registry;
use crate::series_view::Series;
use crate::session::{Refusal, Settings, SharedGame, lock, now_ms, save_finished};

/// The most games of a match.
pub const MAX_MATCH_GAMES: u32 = 1000;

/// Opens the first game of the match `request` asks for (two engines, `games` games) and
/// starts the match's thread.
pub fn start(registry: &Arc<Registry>, request: &NewGame, settings: &Arc<Settings>) -> Result<SharedGame, Refusal> {
    let games = request.games.unwrap_or(1);
    if !(1..=MAX_MATCH_GAMES).contains(&games) {
        return Err(Refusal::Bad(format!("a match has 1 to {MAX_MATCH_GAMES} games")));
    }
    let (Some(first), Some(second)) = (request.black, request.white) else {
        return Err(Refusal::Bad("a match is played by two engines".into()));
    };
    let name = |i: usize| settings.engines.get(i).map(|e| e.name.clone()).unwrap_or_default();
    // Both time controls given per side, so that they follow the engines when colours change.
    let mut request = request.clone();
    let [black, white] = request.side_times();
    (request.black_time, request.white_time) = (Some(black), Some(white));
    let series = Arc::new(Mutex::new(Series::new(request.clone(), [name(first), name(second)])));
    let game = registry.open(&request, settings, Some((Arc::clone(&series), 1)))?;
    // Never a game's lock inside the match's (a game's close takes them the other way).
    let id = lock(&game).id();
    lock(&series).opened(1, id);
    let (first, settings_, registry_) = (Arc::clone(&game), Arc::clone(settings), Arc::clone(registry));
    let spawned = thread::Builder::new().name("match".into()).spawn(move || play_match(first, &settings_, &registry_));
    if let Err(e) = spawned {
        lock(&game).end(None, Termination::Crash, format!("no thread for the match: {e}"));
    }
    Ok(game)
}

/// Plays the match's games from `shared` (its first) on, until its end or until it stops.
fn play_match(mut shared: SharedGame, settings: &Arc<Settings>, registry: &Registry) {
    loop {
        if !referee_game(&shared, settings) {
            return;
        }
        save_finished(&shared, settings);
        match game_over(&shared, settings, registry) {
            Some(next) => shared = next,
            None => return,
        }
    }
}

/// Plays the game of `shared` through the referee's game function, its session fed by the
/// observer; `false` when the game was closed meanwhile (the match then stops).
fn referee_game(shared: &SharedGame, settings: &Arc<Settings>) -> bool {
    let (seats, opening, time_controls, stop) = {
        let session = lock(shared);
        if session.is_over() {
            return !session.closed;
        }
        // Black's engine first: the referee's first engine plays Black (until a swap).
        let order = [Color::Black, Color::White].map(|c| session.seat(c));
        let (Some(black), Some(white)) = (session.engines[order[0]].clone(), session.engines[order[1]].clone()) else {
            return false;
        };
        let start = session.game.start().clone();
        let plain = Position::with_rules(start.variant(), start.rules());
        let opening = Opening {
            start: (start != plain).then(|| start.clone()),
            moves: session.game.moves().collect(),
            variant: start.variant(),
            rules: start.rules(),
        };
        let stop = session.series.as_ref().map(|(series, _)| lock(series).stop_flag());
        ([black, white], opening, order.map(|seat| session.controls[seat]), stop)
    };
    // The engines are lent to the referee for the game, and their processes started here so
    // that closing the game can end them while they think.
    let mut engines = seats.clone().map(|seat| {
        let mut seat = lock(&seat);
        let idle = EngineClient::new(seat.command_line().clone(), None);
        std::mem::replace(&mut *seat, idle)
    });
    for engine in &mut engines {
        // A process that cannot be started loses the game, as the referee reports.
        let _ = engine.ensure_running();
    }
    let closed = {
        let mut session = lock(shared);
        for killer in engines.iter().filter_map(EngineClient::killer) {
            if session.closed {
                killer.kill();
            }
            session.killers.push(killer);
        }
        session.closed
    };
    let played = if closed {
        None
    } else {
        let game_settings = GameSettings {
            time_controls,
            margin: settings.margin,
            command_timeout: settings.command_timeout,
            stop,
            record_steps: false,
        };
        let mut observer = |progress: &Progress| observe(shared, settings, progress);
        Some(play_game_observed(&mut engines, &game_settings, 0, &opening, true, &mut observer))
    };
    for (seat, engine) in seats.iter().zip(engines) {
        *lock(seat) = engine;
    }
    let mut session = lock(shared);
    session.thinking = false;
    session.version += 1;
    if let Some(played) = played
        && !session.is_over()
    {
        let reason = if played.stopped { "stopped before its end: no result".into() } else { played.reason };
        session.end(played.winner, played.termination, reason);
    }
    !session.closed
}

/// Brings the game's session up to the referee's game (its turns, clocks, each turn's time
/// and win rate) and starts the thinking shown of the engine to move.
fn observe(shared: &SharedGame, settings: &Arc<Settings>, progress: &Progress) {
    let mut session = lock(shared);
    if session.is_over() {
        return;
    }
    let known = session.game.moves().len();
    let (took, evaluation) = progress.last.map_or((Duration::ZERO, None), |note| (note.time, note.evaluation));
    for mv in progress.game.moves().skip(known) {
        let color = session.game.position().side_to_move();
        if session.game.play(mv).is_err() {
            break;
        }
        let swapped = session.swapped != (mv == Move::Swap);
        session.set_clocks_by_color(progress.clocks, swapped);
        session.moved_at = now_ms();
        session.turn_noted(color, took, evaluation);
        if mv == Move::Swap {
            session.swapped = !session.swapped;
        }
    }
    let swapped = session.swapped;
    session.set_clocks_by_color(progress.clocks, swapped);
    let over = session.is_over();
    session.thinking = !over;
    session.version += 1;
    let color = session.game.position().side_to_move();
    let thinking = session.engine_of(color).filter(|_| session.show_thinking && !over);
    // The thinking lasts at most as long as the engine may think (it stops at its move).
    let seconds = session.clock(color).deadline(settings.margin).as_secs_f64().clamp(0.1, analysis::THINKING_SECONDS);
    drop(session);
    if let Some(index) = thinking
        && let Err(refusal) = analysis::start(shared, settings, index, seconds, None, &[], Kind::Thinking)
    {
        log::debug!("the engine's thinking is not shown: {refusal:?}");
    }
}

/// After a game has ended: notes its result in its match, if it belongs to one, and opens
/// the match's next game in `registry` (then returned, for its engine to be asked to move).
pub fn game_over(shared: &SharedGame, settings: &Settings, registry: &Registry) -> Option<SharedGame> {
    let (series, number, winner) = {
        let session = lock(shared);
        let (series, number) = session.series.clone()?;
        if !session.is_over() {
            return None;
        }
        (series, number, session.winner_seat())
    };
    let request = lock(&series).game_over(number, winner)?;
    // Opened without the match's lock: opening may close the oldest game.
    let next = match registry.open(&request, settings, Some((Arc::clone(&series), number + 1))) {
        Ok(next) => next,
        Err(refusal) => {
            log::info!("the match's game {} does not start: {refusal:?}", number + 1);
            return None;
        }
    };
    let id = lock(&next).id();
    let mut match_ = lock(&series);
    if match_.is_stopped() {
        drop(match_);
        lock(&next).close();
        return None;
    }
    match_.opened(number + 1, id);
    Some(next)
}
