//! What a new game starts from: the time controls of its sides and its first position (the
//! empty board, a position string, or a record replayed up to a turn).

use veletas_rules::record::GameRecord;
use veletas_rules::{Game, Position, RuleSet, Rules, Variant};
use veletas_tools::referee::clock::{ByoYomiSpec, ClockSpec, TimeControl};

use super::Refusal;
use crate::new_game::{NewGame, SideTime};

/// The time controls of Black and White a new game request asks for: each side's own, else
/// the request's shared one.
pub(super) fn time_controls(request: &NewGame) -> Result<[TimeControl; 2], Refusal> {
    let [black, white] = request.side_times();
    let black = time_control(&black).map_err(|e| side_error("black", e))?;
    let white = time_control(&white).map_err(|e| side_error("white", e))?;
    Ok([black, white])
}

fn side_error(side: &str, refusal: Refusal) -> Refusal {
    match refusal {
        Refusal::Bad(message) => Refusal::Bad(format!("{side}'s time: {message}")),
        other => other,
    }
}

/// One side's time control.
fn time_control(request: &SideTime) -> Result<TimeControl, Refusal> {
    let text = |t: &Option<String>| t.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(str::to_string);
    let clock = text(&request.clock)
        .map(|c| c.parse::<ClockSpec>())
        .transpose()
        .map_err(|e| Refusal::Bad(format!("clock: {e}")))?;
    let byoyomi = text(&request.byoyomi)
        .map(|b| b.parse::<ByoYomiSpec>())
        .transpose()
        .map_err(|e| Refusal::Bad(format!("byoyomi: {e}")))?;
    let movetime = request.movetime.unwrap_or(1.0);
    if !(movetime.is_finite() && (0.01..=3600.0).contains(&movetime)) {
        return Err(Refusal::Bad("the time per move must be from 0.01 to 3600 seconds".into()));
    }
    let movetime = (clock.is_none() && byoyomi.is_none()).then_some(movetime);
    TimeControl::from_options(movetime, clock, byoyomi).map_err(|e| Refusal::Bad(e.to_string()))
}

/// The game a new game request starts from: the empty board of its size and rules, a
/// position string, or a record replayed up to a turn (with the record, whose annotations
/// the game keeps).
pub(super) fn starting_game(request: &NewGame) -> Result<(Game, Option<GameRecord>), Refusal> {
    let text = request.start.as_deref().map(str::trim).unwrap_or_default();
    if text.is_empty() {
        let variant = Variant::from_size(request.size)
            .ok_or_else(|| Refusal::Bad(format!("the board size must be 7, 9 or 10, not {}", request.size)))?;
        let set: RuleSet =
            request.rules.parse().map_err(|_| Refusal::Bad(format!("unknown rules '{}'", request.rules)))?;
        return Ok((Game::from_position(Position::with_rules(variant, Rules::from(set))), None));
    }
    if !text.contains('[') && !text.contains('.') {
        let position: Position = text.parse().map_err(|e| Refusal::Bad(format!("not a position string: {e}")))?;
        return Ok((Game::from_position(position), None));
    }
    let mut games =
        veletas_rules::record::parse_records(text).map_err(|e| Refusal::Bad(format!("not a record: {e}")))?;
    if games.is_empty() {
        return Err(Refusal::Bad("the record holds no game".into()));
    }
    let first = games.swap_remove(0);
    let game = first.replay(request.turn).map_err(|e| Refusal::Bad(format!("the record's game: {e}")))?;
    Ok((game, Some(first)))
}
