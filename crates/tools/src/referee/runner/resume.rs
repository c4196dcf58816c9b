//! The one resume check: a game found in the record file must be the game the schedule
//! plans under its identity, or the run stops and says why.

use super::competition::Competition;
use super::field::Field;
use super::mismatch::RecordedGameError;
use super::result::{GameResult, ScheduledGame, played_engines};
use crate::referee::game::Termination;
use veletas_rules::record::{GameRecord, tag};

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
