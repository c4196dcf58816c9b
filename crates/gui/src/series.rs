//! The games open in the server ([`Registry`]) and matches of N games between two engines
//! ([`Series`]).
//!
//! A match is driven by the server's own game loop, as a single engine game is
//! ([`crate::engine_turn`]): when a game of the match ends, the next one is opened with the
//! colours exchanged (the first engine plays Black in the odd games), until N games are
//! played. Each game is a game of its own (its own id, view and record, appended to the
//! `--record` file as it ends, with its number in the `Round` tag); each one's view says
//! which game of the match it is, the running score and, once it is over, the next game's
//! id. Closing the game being played (or the server, on Ctrl-C) ends its engines at once
//! and starts no further game.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crate::new_game::NewGame;
use crate::series_view::{Series, SharedSeries};
use crate::session::{GameSession, Refusal, Settings, SharedGame, lock};

/// The most games open at once; the oldest is closed to make room for a new one.
pub const MAX_GAMES: usize = 64;

/// The most games of a match.
pub const MAX_MATCH_GAMES: u32 = 1000;

/// The games open in the server, by id.
#[derive(Default)]
pub struct Registry {
    games: Mutex<BTreeMap<u64, SharedGame>>,
    next_id: Mutex<u64>,
    /// Set once the server is closing: no game is opened any more.
    closing: AtomicBool,
}

impl Registry {
    /// A new game as `request` asks, opened (the oldest closed if [`MAX_GAMES`] are open);
    /// `series` makes it game `number` of a match.
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
        session.series = series;
        let shared = Arc::new(Mutex::new(session));
        let mut games = lock(&self.games);
        // Checked under the lock that close_all takes: a game is either closed by it or
        // never opened.
        if self.closing.load(Ordering::SeqCst) {
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

    /// Closes every game (killing its engines) and opens no other.
    pub fn close_all(&self) -> Vec<SharedGame> {
        self.closing.store(true, Ordering::SeqCst);
        let games: Vec<SharedGame> = lock(&self.games).values().cloned().collect();
        for game in &games {
            lock(game).close();
        }
        games
    }
}

/// Opens the first game of the match `request` asks for (two engines, `games` games).
pub fn start(registry: &Arc<Registry>, request: &NewGame, settings: &Settings) -> Result<SharedGame, Refusal> {
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
    Ok(game)
}

/// After a game has ended: notes its result in its match, if it belongs to one, and opens
/// the match's next game in `registry` (then returned, for its engine to be asked to move).
pub fn game_over(shared: &SharedGame, settings: &Settings, registry: &Registry) -> Option<SharedGame> {
    let (series, number, winner) = {
        let session = lock(shared);
        let (series, number) = session.series.clone()?;
        (series, number, session.winner_seat()?)
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
