//! The games open in the server ([`Registry`]): opening one (its engines started and greeted
//! before it is, so that an engine that cannot start or hangs is refused with the request),
//! finding one by id, listing them for the start page ([`GameSummary`]), and the engines'
//! lifetimes ([`Registry::tidy`]).
//!
//! An engine process lives as long as its game needs it: a finished game's engines are
//! ended at once (within [`TIDY_EVERY`]); a game waiting for a person's turn that no page
//! has looked at for [`IDLE`] (left by New game, a closed tab) has its engines ended, and an
//! analysis asked for in it stopped (its engine is started again, and brought up to date,
//! when its turn comes). A game open in a tab is looked at by the tab's stream of live
//! updates (or its polls) and keeps its engines.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use veletas_rules::Color;

use crate::new_game::NewGame;
use crate::series_view::SharedSeries;
use crate::session::{GameSession, Refusal, Settings, SharedGame, lock};

pub use crate::series_view::MAX_GAMES;

/// How long a game waiting for a person's turn keeps its engines without a page looking at it.
pub const IDLE: Duration = Duration::from_secs(20);

/// How often the engines' lifetimes are looked after ([`Registry::tidy`]).
pub const TIDY_EVERY: Duration = Duration::from_millis(200);

/// The games open in the server, by id.
#[derive(Default)]
pub struct Registry {
    games: Mutex<BTreeMap<u64, SharedGame>>,
    next_id: Mutex<u64>,
    /// Set once the server is closing: no game is opened any more.
    closing: AtomicBool,
}

/// What the start page shows of an open game.
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    /// The game's id (its page is `#/games/ID`).
    pub id: u64,
    /// Board size.
    pub size: u8,
    /// The rules, as in records.
    pub rules: String,
    /// The names of Black's and White's players.
    pub players: [String; 2],
    /// The turns played.
    pub turns: usize,
    /// The first status line: who is to move, or the result.
    pub status: String,
    /// Whether the game is over.
    pub over: bool,
    /// For a match's game: its number and the match's games.
    pub series: Option<[u32; 2]>,
}

impl Registry {
    /// A new game as `request` asks, opened (the oldest closed if [`MAX_GAMES`] are open);
    /// `series` makes it game `number` of a match. The engines of a game that is not a
    /// match's later one are started and greeted first (their start-up commands and
    /// `list_commands`, within the command timeout): one that cannot start, or does not
    /// answer, refuses the request.
    pub fn open(
        &self,
        request: &NewGame,
        settings: &Settings,
        series: Option<(SharedSeries, u32)>,
    ) -> Result<SharedGame, Refusal> {
        let id = {
            let mut next = lock(&self.next_id);
            *next += 1;
            *next
        };
        let mut session = GameSession::new(id, request, settings)?;
        if series.as_ref().is_none_or(|(_, number)| *number == 1) {
            greet(&session, settings)?;
        }
        // A match's games are played by the referee's game function (see crate::series).
        session.refereed = series.is_some();
        session.series = series;
        let shared = Arc::new(Mutex::new(session));
        let mut games = lock(&self.games);
        // Checked under the lock that close_all takes: a game is either closed by it or
        // never opened.
        if self.closing.load(Ordering::SeqCst) {
            lock(&shared).close();
            return Err(Refusal::Conflict("the server is closing".into()));
        }
        while games.len() >= MAX_GAMES {
            if let Some((_, oldest)) = games.pop_first() {
                lock(&oldest).close();
            }
        }
        games.insert(id, Arc::clone(&shared));
        Ok(shared)
    }

    /// The open game `id`.
    pub fn get(&self, id: u64) -> Option<SharedGame> {
        lock(&self.games).get(&id).cloned()
    }

    /// The open games, the newest first.
    pub fn list(&self) -> Vec<GameSummary> {
        let games: Vec<SharedGame> = lock(&self.games).values().rev().cloned().collect();
        games.iter().map(|game| summary(&lock(game))).collect()
    }

    /// Whether the server is closing.
    pub fn is_closing(&self) -> bool {
        self.closing.load(Ordering::SeqCst)
    }

    /// Closes every game (killing its engines) and opens no other.
    pub fn close_all(&self) -> Vec<SharedGame> {
        self.closing.store(true, Ordering::SeqCst);
        let games: Vec<SharedGame> = lock(&self.games).values().cloned().collect();
        for game in &games {
            lock(game).close();
        }
        games
    }

    /// Ends the engine processes no game needs (see the module): those of finished games,
    /// and, `idle` after a page last looked at it, those of a game waiting for a person's
    /// turn, whose analysis asked for stops too. An engine busy (asked for a move) is left
    /// alone.
    pub fn tidy(&self, idle: Duration) {
        let games: Vec<SharedGame> = lock(&self.games).values().cloned().collect();
        for game in games {
            let engines = {
                let mut session = lock(&game);
                let unwatched = session.seen_at.elapsed() >= idle;
                if unwatched && session.analyses.values().any(|a| a.view.running && !a.view.thinking) {
                    crate::analysis::stop(&mut session);
                }
                if session.is_over() || (unwatched && session.waits_for_person()) {
                    session.engines.iter().flatten().cloned().collect()
                } else {
                    Vec::new()
                }
            };
            for engine in engines {
                if let Ok(mut engine) = engine.try_lock()
                    && engine.process_mut().is_some()
                {
                    engine.kill();
                }
            }
        }
    }
}

/// What the start page shows of a game.
fn summary(session: &GameSession) -> GameSummary {
    let position = session.game.start();
    GameSummary {
        id: session.id(),
        size: position.variant().size(),
        rules: position.rules().to_string(),
        players: session.player_names(),
        turns: session.game.moves().len(),
        status: session.status_lines().into_iter().next().unwrap_or_default(),
        over: session.is_over(),
        series: session.series.as_ref().map(|(series, number)| [*number, lock(series).view(*number).games]),
    }
}

/// Starts and greets the engines of `session` (see [`Registry::open`]); on a refusal, every
/// engine started is ended.
fn greet(session: &GameSession, settings: &Settings) -> Result<(), Refusal> {
    for color in Color::ALL {
        let Some(engine) = session.engines[session.seat(color)].clone() else { continue };
        let mut engine = lock(&engine);
        if let Err(fault) = engine.start(settings.command_timeout) {
            drop(engine);
            for engine in session.engines.iter().flatten() {
                lock(engine).kill();
            }
            let name = &session.player_names()[color.index()];
            return Err(Refusal::Bad(format!("{color}'s engine {name} cannot play: {fault}")));
        }
    }
    Ok(())
}

/// Runs [`Registry::tidy`] every [`TIDY_EVERY`] until the server closes.
pub fn keep_tidy(registry: &Arc<Registry>) {
    let registry = Arc::clone(registry);
    let spawned = std::thread::Builder::new().name("tidy".into()).spawn(move || {
        while !registry.is_closing() {
            std::thread::sleep(TIDY_EVERY);
            registry.tidy(IDLE);
        }
    });
    if let Err(e) = spawned {
        log::error!("no thread to end the engines of finished games: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::EngineSpec;
    use veletas_tools::referee::engine::EngineCommand;

    /// Settings with one engine, a shell that answers every command with an empty success.
    fn settings() -> Settings {
        let command =
            EngineCommand::parse(r#"sh -c 'while read id cmd rest; do printf "=%s\n\n" "$id"; done'"#).unwrap();
        Settings {
            engines: vec![EngineSpec { name: "echo".into(), command }],
            command_timeout: Duration::from_secs(10),
            margin: 0.5,
            record: None,
        }
    }

    fn running(game: &SharedGame) -> usize {
        let engines: Vec<_> = lock(game).engines.iter().flatten().cloned().collect();
        engines.iter().filter(|e| lock(e).is_running()).count()
    }

    #[test]
    fn a_game_waiting_for_a_person_no_page_looks_at_ends_its_engine_after_the_idle_time() {
        let registry = Registry::default();
        let settings = settings();
        let request: NewGame = serde_json::from_str(r#"{"size": 7, "rules": "classic", "black": null, "white": 0}"#)
            .expect("a new game request");
        let game = registry.open(&request, &settings, None).expect("the game opens");
        assert_eq!(running(&game), 1, "the engine is started with the game");
        registry.tidy(IDLE);
        assert_eq!(running(&game), 1, "a game looked at keeps its engine");
        let long_ago = std::time::Instant::now().checked_sub(IDLE + Duration::from_secs(1));
        lock(&game).seen_at = long_ago.expect("a past instant");
        registry.tidy(IDLE);
        assert_eq!(running(&game), 0, "the engine of a game nobody looks at ends");
        registry.close_all();
    }
}
