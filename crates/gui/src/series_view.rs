//! A match of N games between two engines as its games see it ([`Series`]): its first
//! game's request, its score and the ids of its games, and what the page is shown of it
//! ([`SeriesView`]). The games of the match are opened by [`crate::series`].

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use serde::Serialize;

use crate::new_game::NewGame;

/// The most games open at once (the registry closes the oldest to make room for a new one);
/// a match's view lists at most the last these of its games.
pub const MAX_GAMES: usize = 64;

/// A match of N games between two engines.
pub struct Series {
    /// The first game's request: its Black is the first engine, its White the second.
    request: NewGame,
    /// The names of the first and the second engine.
    names: [String; 2],
    /// Each finished game's winner: 0 the first engine, 1 the second (`None`: no result).
    results: BTreeMap<u32, Option<usize>>,
    /// The id of each game opened, by its number.
    ids: BTreeMap<u32, u64>,
    /// The match is stopped: no further game starts, and the game being played stops
    /// before its next `genmove` (the referee's stop flag).
    stopped: Arc<AtomicBool>,
}

/// A match shared between the games' threads.
pub type SharedSeries = Arc<Mutex<Series>>;

/// What the page is shown of a game's match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeriesView {
    /// This game's number, from 1.
    pub game: u32,
    /// The games of the match.
    pub games: u32,
    /// The first and the second engine.
    pub names: [String; 2],
    /// Their wins in the match up to this game (this one's too once it is over).
    pub score: [u32; 2],
    /// The id of the game played after this one, once it has started.
    pub next: Option<u64>,
    /// Whether the match was stopped before its end.
    pub stopped: bool,
    /// The games of the match opened so far, in order (at most the last
    /// [`MAX_GAMES`], which stay open to be looked at).
    pub played: Vec<SeriesGame>,
}

/// A game of a match, as its other games' views list it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeriesGame {
    /// Its number in the match, from 1.
    pub number: u32,
    /// Its id.
    pub id: u64,
    /// Whether it is over.
    pub over: bool,
    /// The name of the engine that won it (`None` while it is played, or for no result).
    pub winner: Option<String>,
}

impl Series {
    /// A match whose first game is `request` (its Black the first engine, named first in
    /// `names`), no game of it opened yet.
    pub fn new(request: NewGame, names: [String; 2]) -> Series {
        Series {
            request,
            names,
            results: BTreeMap::new(),
            ids: BTreeMap::new(),
            stopped: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The view of the match from its game `number`.
    pub fn view(&self, number: u32) -> SeriesView {
        let mut score = [0; 2];
        for winner in self.results.range(..=number).filter_map(|(_, w)| w.as_ref()) {
            score[*winner] += 1;
        }
        SeriesView {
            game: number,
            games: self.games(),
            names: self.names.clone(),
            score,
            next: self.ids.get(&(number + 1)).copied(),
            stopped: self.is_stopped(),
            // The last ones only: older games are closed to make room in the server anyway.
            played: self
                .ids
                .iter()
                .skip(self.ids.len().saturating_sub(MAX_GAMES))
                .map(|(&number, &id)| {
                    let result = self.results.get(&number);
                    let winner = result.copied().flatten().and_then(|seat| self.names.get(seat).cloned());
                    SeriesGame { number, id, over: result.is_some(), winner }
                })
                .collect(),
        }
    }

    /// The games of the match.
    fn games(&self) -> u32 {
        self.request.games.unwrap_or(1)
    }

    /// Stops the match: no further game starts, and the game being played stops before
    /// its next `genmove`, with no result.
    pub fn stop(&mut self) {
        self.stopped.store(true, Ordering::SeqCst);
    }

    /// Whether the match is stopped.
    pub fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::SeqCst)
    }

    /// The flag that stops the match, for the referee's game function.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stopped)
    }

    /// Notes that game `number` has been opened as game `id`.
    pub fn opened(&mut self, number: u32, id: u64) {
        self.ids.insert(number, id);
    }

    /// Notes the end of game `number`, won by `seat` (0: the seat that started as Black;
    /// `None`: no result), once only; the request of the next game if the match goes on.
    pub fn game_over(&mut self, number: u32, seat: Option<usize>) -> Option<NewGame> {
        if self.results.contains_key(&number) {
            return None;
        }
        // Seat 0 is the first engine in the odd games.
        let first = |seat: usize| usize::from((seat == 0) == number.is_multiple_of(2));
        self.results.insert(number, seat.map(first));
        if self.is_stopped() || number >= self.games() {
            return None;
        }
        Some(self.request_of(number + 1))
    }

    /// The request of game `number`: the first engine plays Black in the odd games.
    fn request_of(&self, number: u32) -> NewGame {
        let mut request = self.request.clone();
        if number.is_multiple_of(2) {
            std::mem::swap(&mut request.black, &mut request.white);
            std::mem::swap(&mut request.black_time, &mut request.white_time);
        }
        request
    }
}
