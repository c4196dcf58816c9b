//! The bodies of the fuzz targets (fuzz/, cargo-fuzz layout): each takes arbitrary input
//! for one parser that reads outside input, runs it, and checks what must hold whatever
//! the input (never a panic; round trips; a refused protocol command changes nothing).
//! They live here, in the library, so that the fuzz targets and the ordinary tests that
//! replay the seed corpus (`tests/program/fuzz_seeds.rs`) run the same checks on stable.

use std::path::Path;

use crate::player::RandomPlayer;
use crate::protocol::{Engine, parse_command, split_id};
use crate::rules::{Position, Rules, Variant};

/// Protocol commands that may run for long (a search, perft, a solver) or read files:
/// left out of fuzzed sessions, which must stay fast and touch nothing.
const SLOW_OR_FILE_COMMANDS: [&str; 10] = [
    "perft",
    "solve",
    "analyze",
    "loadgame",
    "eval",
    "player",
    "genmove",
    "reg_genmove",
    "kgs-genmove_cleanup",
    "ponder",
];

/// What a refused command must leave as it was: the position, the moves, the komi.
fn state(engine: &Engine) -> (String, usize, u64) {
    (engine.game().position().to_string(), engine.game().moves().len(), engine.komi().to_bits())
}

/// A protocol session: each line of `data` (UTF-8 or not) is parsed as a command and,
/// unless it is slow or reads a file, executed on a 7x7 engine with a random player.
/// Checks: a refused line (parse error or `?` reply) leaves the state unchanged; after
/// an accepted one the position prints as a position string that parses back to itself.
pub fn protocol_session(data: &[u8]) {
    let mut engine = Engine::new(Variant::from_size(7).unwrap_or(Variant::STANDARD), Box::new(RandomPlayer::new(1)));
    for line in data.split(|&b| b == b'\n').take(200) {
        let text = String::from_utf8_lossy(line);
        let (_, rest) = split_id(text.trim());
        if rest.split_whitespace().next().is_some_and(|w| SLOW_OR_FILE_COMMANDS.contains(&w)) {
            continue;
        }
        let before = state(&engine);
        let Ok(command) = parse_command(rest) else {
            assert_eq!(state(&engine), before);
            continue;
        };
        match engine.execute(command) {
            Err(_) => assert_eq!(state(&engine), before, "a refused '{rest}' changed the state"),
            Ok(_) => position_round_trip(engine.game().position()),
        }
    }
}

/// A position prints as a string that parses back to the same position, printing the same.
fn position_round_trip(position: &Position) {
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
            for mv in game.moves.iter().take(200) {
                let Ok(turn) = position.parse_move(mv) else { break };
                if position.play(turn).is_err() {
                    break;
                }
            }
        }
    }
}

/// An openings file's text, for each rule set: refused with a message, or openings whose
/// moves are legal from their start (the parser replays them).
pub fn openings_file(text: &str) {
    for rules in [Rules::CLASSIC, Rules::MODERN] {
        if let Ok(openings) = crate::referee::openings::parse_openings(text, "fuzz", None, rules) {
            assert!(!openings.is_empty());
        }
    }
}

/// An engines file's text (TOML): refused with a message, or engines with commands.
pub fn engines_file(text: &str) {
    if let Ok((entries, _)) = crate::referee::tournament::field::parse_engines_file(text, "fuzz", Path::new(".")) {
        assert!(entries.iter().all(|e| !e.command.is_empty()));
    }
}
