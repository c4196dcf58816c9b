//! Entering a turn by clicks, one square at a time, in the order of the rules: the
//! legal targets of each step, so that the page needs to know no rules.
//!
//! A turn is entered as a list of picks:
//!
//! - classic setup: the shooters' squares, one by one (no two adjacent, none next to a
//!   shooter already placed);
//! - modern setup: the shooters' squares (off the edge), then the square of the stone; or
//!   the swap, which the page offers as a button when [`Steps::swap`] says so;
//! - play: the shooter to move, its destination, then the shot; or [`NO_MOVE`] first
//!   (no shooter moves), then the shot.
//!
//! [`steps`] answers, for the picks so far, the squares the next pick may be, whether
//! "no move" may be, and, once the picks make a whole turn, that turn. A pick that is not
//! a target is an error, so every list of picks is checked from its first pick on.

use serde::Serialize;
use veletas_rules::{Bitboard, Move, Phase, Position, Square, Turn};

/// The pick that stands for "no shooter moves" in a play turn.
pub const NO_MOVE: &str = "-";

/// What may be picked next, or the turn the picks make.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Steps {
    /// What the next pick is (shown to the person), e.g. `the shooter to move`.
    pub prompt: String,
    /// The squares the next pick may be, in notation.
    pub targets: Vec<String>,
    /// Whether [`NO_MOVE`] may be picked next.
    pub no_move: bool,
    /// Whether White may swap instead (modern rules, White's setup turn, no pick yet).
    pub swap: bool,
    /// The turn the picks make, in notation, once they make a whole one.
    pub complete: Option<String>,
}

/// Why a list of picks is not the start of a legal turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadPick(pub String);

impl std::fmt::Display for BadPick {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn names(squares: impl IntoIterator<Item = Square>) -> Vec<String> {
    let mut list: Vec<Square> = squares.into_iter().collect();
    list.sort_by_key(|sq| sq.file_major_key());
    list.into_iter().map(|sq| sq.to_string()).collect()
}

fn square(pick: &str) -> Result<Square, BadPick> {
    pick.parse().map_err(|_| BadPick(format!("'{}' is not a square", veletas_rules::quoted_to(pick, 8))))
}

/// The targets of the next step after `picks` in `position`, or why the picks are wrong.
pub fn steps(position: &Position, picks: &[String]) -> Result<Steps, BadPick> {
    if position.is_over() {
        return Err(BadPick("the game is over".into()));
    }
    match position.phase() {
        Phase::BlackSetup | Phase::WhiteSetup => setup_steps(position, picks),
        Phase::Play => play_steps(position, picks),
    }
}

/// The setup squares the next shooter may go to after `chosen`.
fn setup_targets(position: &Position, chosen: Bitboard) -> Bitboard {
    let empty = position.empty_squares() & !position.walls() & !chosen;
    if position.rules().is_modern() {
        empty & position.variant().interior()
    } else {
        let near = (position.shooters() | chosen).neighbours() | position.shooters() | chosen;
        empty & !near
    }
}

fn setup_steps(position: &Position, picks: &[String]) -> Result<Steps, BadPick> {
    let count = usize::from(position.variant().setup_count(position.side_to_move()));
    let modern = position.rules().is_modern();
    let mut chosen = Bitboard::EMPTY;
    let mut stone = None;
    for (i, pick) in picks.iter().enumerate() {
        let sq = square(pick)?;
        if i < count {
            if !setup_targets(position, chosen).contains(sq) {
                return Err(BadPick(format!("a shooter cannot be placed on {sq}")));
            }
            chosen |= sq.bitboard();
        } else if modern && i == count {
            let free = position.empty_squares() & !position.walls() & !chosen;
            if !free.contains(sq) {
                return Err(BadPick(format!("the stone cannot be placed on {sq}")));
            }
            stone = Some(sq);
        } else {
            return Err(BadPick("the turn is already complete".into()));
        }
    }
    let placed = picks.len().min(count);
    let mut out = Steps { swap: picks.is_empty() && position.swap_available(), ..Steps::default() };
    if placed < count {
        out.prompt = format!("a square for shooter {} of {count}", placed + 1);
        out.targets = names(setup_targets(position, chosen));
        return Ok(out);
    }
    let mv = match (modern, stone) {
        (false, _) => Move::Setup(chosen),
        (true, Some(stone)) => Move::SetupWithStone { shooters: chosen, stone },
        (true, None) => {
            out.prompt = "a square for your stone".into();
            out.targets = names(position.empty_squares() & !position.walls() & !chosen);
            return Ok(out);
        }
    };
    position.check_move(mv).map_err(|e| BadPick(e.to_string()))?;
    out.complete = Some(mv.to_string());
    Ok(out)
}

fn play_steps(position: &Position, picks: &[String]) -> Result<Steps, BadPick> {
    let turns: Vec<Turn> = position
        .legal_moves()
        .into_iter()
        .filter_map(|mv| match mv {
            Move::Turn(turn) => Some(turn),
            _ => None,
        })
        .collect();
    let mut out = Steps::default();
    let no_move = picks.first().is_some_and(|p| p == NO_MOVE);
    let from = match picks.first() {
        Some(_) if no_move => None,
        Some(pick) => Some(square(pick)?),
        None => {
            out.prompt = "the shooter to move (or no move)".into();
            out.targets = names(turns.iter().filter_map(|t| t.shooter_move().map(|(from, _)| from)));
            out.targets.dedup();
            out.no_move = turns.iter().any(|t| t.shooter_move().is_none());
            return Ok(out);
        }
    };
    let with_from: Vec<Turn> = turns.into_iter().filter(|t| t.shooter_move().map(|(f, _)| f) == from).collect();
    if with_from.is_empty() {
        return Err(BadPick(match from {
            Some(sq) => format!("no shooter on {sq} can move"),
            None => "a shot without a move is not possible".into(),
        }));
    }
    let (to, shot_pick) = match (from, picks.get(1)) {
        (Some(_), None) => {
            out.prompt = "the shooter's destination".into();
            out.targets = names(with_from.iter().filter_map(|t| t.shooter_move().map(|(_, to)| to)));
            out.targets.dedup();
            return Ok(out);
        }
        (Some(_), Some(pick)) => (Some(square(pick)?), picks.get(2)),
        (None, pick) => (None, pick),
    };
    let with_to: Vec<Turn> = with_from.into_iter().filter(|t| t.shooter_move().map(|(_, t)| t) == to).collect();
    if with_to.is_empty() {
        return Err(BadPick("the shooter cannot move there".into()));
    }
    let Some(shot_pick) = shot_pick else {
        out.prompt = "the square to shoot at".into();
        out.targets = names(with_to.iter().map(|t| t.shot()));
        return Ok(out);
    };
    let shot = square(shot_pick)?;
    let expected = if from.is_some() { 3 } else { 2 };
    if picks.len() > expected {
        return Err(BadPick("the turn is already complete".into()));
    }
    match with_to.into_iter().find(|t| t.shot() == shot) {
        Some(turn) => {
            out.complete = Some(Move::Turn(turn).to_string());
            Ok(out)
        }
        None => Err(BadPick(format!("cannot shoot at {shot}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use veletas_rules::{Rules, Variant};

    fn picks(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn seven() -> Variant {
        Variant::from_size(7).unwrap()
    }

    #[test]
    fn a_classic_setup_is_entered_square_by_square_away_from_other_shooters() {
        let start = Position::new(seven());
        let first = steps(&start, &[]).unwrap();
        assert_eq!(first.targets.len(), 49);
        assert_eq!(steps(&start, &picks(&["d4"])).unwrap().complete.as_deref(), Some("d4"));
        let mut position = start.clone();
        position.play(position.parse_move("d4").unwrap()).unwrap();
        let white = steps(&position, &[]).unwrap();
        assert!(!white.targets.contains(&"c3".to_string()) && white.targets.contains(&"b2".to_string()));
        let second = steps(&position, &picks(&["b2"])).unwrap();
        assert!(!second.targets.contains(&"a1".to_string()) && !second.targets.contains(&"b2".to_string()));
        assert_eq!(steps(&position, &picks(&["b2", "f6"])).unwrap().complete.as_deref(), Some("b2,f6"));
        assert!(steps(&position, &picks(&["c3"])).is_err());
        assert!(steps(&position, &picks(&["b2", "f6", "a7"])).is_err());
    }

    #[test]
    fn a_play_turn_is_shooter_then_destination_then_shot() {
        let mut position = Position::new(seven());
        for mv in ["d4", "b2,f6"] {
            position.play(position.parse_move(mv).unwrap()).unwrap();
        }
        let first = steps(&position, &[]).unwrap();
        assert_eq!(first.targets, ["b2", "d4", "f6"]);
        assert!(first.no_move);
        let to = steps(&position, &picks(&["d4"])).unwrap();
        assert!(to.targets.contains(&"d7".to_string()));
        let shot = steps(&position, &picks(&["d4", "d7"])).unwrap();
        assert!(shot.targets.contains(&"d4".to_string()), "the vacated square can be shot at");
        let done = steps(&position, &picks(&["d4", "d7", "d4"])).unwrap();
        assert_eq!(done.complete.as_deref(), Some("d4-d7/d4"));
        assert_eq!(steps(&position, &picks(&[NO_MOVE, "d5"])).unwrap().complete.as_deref(), Some("d5"));
        for bad in
            [&["a1"][..], &["d4", "e6"], &["d4", "d7", "e5"], &[NO_MOVE, "d4"], &["zz"], &["d4", "d7", "d4", "a1"]]
        {
            assert!(steps(&position, &picks(bad)).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_modern_setup_places_shooters_off_the_edge_then_a_stone_and_offers_the_swap() {
        let rules = Rules::new(veletas_rules::RuleSet::Modern, false, false).unwrap();
        let mut position = Position::with_rules(seven(), rules);
        let first = steps(&position, &[]).unwrap();
        assert!(!first.targets.contains(&"a1".to_string()) && !first.swap);
        let stone = steps(&position, &picks(&["d4"])).unwrap();
        assert!(stone.targets.contains(&"a1".to_string()) && !stone.targets.contains(&"d4".to_string()));
        let done = steps(&position, &picks(&["d4", "a1"])).unwrap().complete.unwrap();
        position.play(position.parse_move(&done).unwrap()).unwrap();
        assert!(steps(&position, &[]).unwrap().swap);
    }
}
