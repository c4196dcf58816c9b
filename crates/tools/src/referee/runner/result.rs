//! A game's result as the runner counts it: from a game just played ([`GameResult::of`]) or
//! from the record file on resume (`resume`, the one resume check).

use crate::referee::game::{PlayedGame, Termination};
use veletas_rules::Color;

/// One scheduled game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Its index in the schedule, from 0 (a knockout numbers its games as they are made).
    pub index: usize,
    /// The game's identity in records: `index + 1`, or `ROUND.MATCH.GAME` in a knockout.
    pub id: String,
    /// The schedule round (`--rounds`) or knockout round, from 1.
    pub round: usize,
    /// The engine (index in the field) playing Black at the start.
    pub black: usize,
    /// The engine playing White at the start.
    pub white: usize,
    /// The encounter's number: which opening is played (two games share one).
    pub encounter: u64,
}

/// One game's result, with the engines as they played it (after a swap, if any).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// Its index in the schedule, from 0 (a knockout's games are numbered by their id).
    pub index: usize,
    /// The game's identity (`Game` tag; a match's game number).
    pub id: String,
    /// The schedule or knockout round, from 1 (a match's game number).
    pub round: usize,
    /// The engine that played Black (index in the field).
    pub black: usize,
    /// The engine that played White.
    pub white: usize,
    /// The winner's colour; `None` for a void game (no engine moved), which counts for no one.
    pub winner: Option<Color>,
    /// How it ended.
    pub termination: Termination,
    /// Whether an engine's `final_score` disagreed with the result.
    pub disagreement: bool,
}

impl GameResult {
    /// The winning engine; `None` for a void game.
    pub fn winner_engine(&self) -> Option<usize> {
        self.winner.map(|winner| if winner == Color::Black { self.black } else { self.white })
    }

    /// The result of `played`, which the schedule planned as `scheduled`.
    pub(crate) fn of(scheduled: &ScheduledGame, played: &PlayedGame) -> GameResult {
        let (black, white) = played_engines(scheduled, played.swapped);
        GameResult {
            index: scheduled.index,
            id: scheduled.id.clone(),
            round: scheduled.round,
            black,
            white,
            winner: played.winner,
            termination: played.termination,
            disagreement: played.disagreement.is_some(),
        }
    }
}

/// The engines that played Black and White, after a swap if there was one.
pub(crate) fn played_engines(scheduled: &ScheduledGame, swapped: bool) -> (usize, usize) {
    if swapped { (scheduled.white, scheduled.black) } else { (scheduled.black, scheduled.white) }
}
