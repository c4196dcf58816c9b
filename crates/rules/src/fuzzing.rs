//! The bodies of this crate's fuzz targets (crates/rules/fuzz, cargo-fuzz layout): each takes
//! arbitrary input for one parser of outside input, runs it, and checks what must hold whatever
//! the input (never a panic; round trips). They live here, in the library, so that the fuzz
//! targets and the ordinary tests that replay the seed corpus (`tests/program/fuzz_seeds.rs`)
//! run the same checks on stable.

use crate::position::Position;

/// A position prints as a string that parses back to the same position, printing the same.
pub fn position_round_trip(position: &Position) {
    let text = position.to_string();
    let again: Position = text.parse().unwrap_or_else(|e| panic!("'{text}' does not parse back: {e}"));
    assert_eq!(again.to_string(), text);
    assert_eq!(&again, position, "'{text}'");
}

/// A position string: refused, or parsed into a position that round-trips; each of its
/// legal turns prints as text that parses back to the same turn.
pub fn position_string(text: &str) {
    let Ok(position) = text.parse::<Position>() else { return };
    position_round_trip(&position);
    for mv in position.legal_moves().into_iter().take(50) {
        let shown = mv.to_string();
        assert_eq!(position.parse_move(&shown).ok(), Some(mv), "turn '{shown}' in '{position}'");
    }
}

/// A record file's text: refused, or parsed into games that print as text that parses
/// back to the same games; each game's start position is readable or refused cleanly.
pub fn record_file(text: &str) {
    let Ok(games) = crate::record::parse_records(text) else { return };
    let printed: String = games.iter().map(ToString::to_string).collect();
    let again = crate::record::parse_records(&printed).unwrap_or_else(|e| panic!("printed records do not parse: {e}"));
    assert_eq!(again, games);
    for game in games.iter().take(20) {
        if let Ok(mut position) = game.start_position() {
            for mv in game.moves().iter().take(200) {
                let Ok(turn) = position.parse_move(mv.as_str()) else { break };
                if position.play(turn).is_err() {
                    break;
                }
            }
        }
    }
}
