//! A game's result as the runner counts it: from a game just played ([`GameResult::of`]) or
//! from the record file on resume ([`recorded_result`], the one resume check).

use super::mismatch::RecordedGameError;
use super::{Competition, Field};
use crate::referee::game::{PlayedGame, Termination};
use veletas_rules::Color;
use veletas_rules::record::{GameRecord, tag};

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

/// The one resume check: a recorded game must be the game the schedule plans under its
/// identity: played under the same rules, from the same opening, by the same engines on
/// each colour (after a recorded swap, exchanged), with a result or void (a void game was
/// played: it is not played again, and counts for no one).
pub(super) fn recorded_result(
    field: &Field,
    competition: &dyn Competition,
    game: &GameRecord,
    scheduled: &ScheduledGame,
) -> Result<GameResult, RecordedGameError> {
    let (id, noun) = (competition.identity(scheduled), competition.noun());
    let size = field.book.variant.size().to_string();
    if let Some(recorded) = game.tag(tag::SIZE).map(str::trim).filter(|s| *s != size) {
        return Err(RecordedGameError::Size { id, recorded: recorded.to_string(), size });
    }
    // Options such as claimed-block leave the openings as they are: compare the rules too.
    match game.rules() {
        Ok(rules) if rules == field.book.rules => {}
        Ok(recorded) => return Err(RecordedGameError::Rules { id, noun, recorded, rules: field.book.rules }),
        Err(source) => return Err(RecordedGameError::Record { id, source }),
    }
    competition.check_place(field, game, scheduled)?;
    let opening = field.book.opening(scheduled.encounter).to_string();
    if game.tag(tag::OPENING) != Some(opening.as_str()) {
        let recorded = game.tag(tag::OPENING).unwrap_or("").to_string();
        return Err(RecordedGameError::Opening { id, noun, recorded, opening });
    }
    let swapped = game.tag(tag::SWAP).is_some();
    let (black, white) = played_engines(scheduled, swapped);
    if let Err(source) = competition.check_engines(field, game, black, white) {
        return Err(RecordedGameError::Engines { id, swapped, source });
    }
    if game.winner().is_none() && !game.is_void() {
        return Err(RecordedGameError::NoResult { id });
    }
    let winner = game.winner();
    let termination = match game.termination() {
        Ok(termination) => termination.unwrap_or(Termination::Normal),
        Err(source) => return Err(RecordedGameError::Record { id, source }),
    };
    Ok(GameResult {
        index: scheduled.index,
        id: scheduled.id.clone(),
        round: scheduled.round,
        black,
        white,
        winner,
        termination,
        disagreement: game.tag(tag::DISAGREEMENT).is_some(),
    })
}
