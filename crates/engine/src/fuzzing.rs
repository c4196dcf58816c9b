//! The body of this crate's fuzz target (crates/engine/fuzz, cargo-fuzz layout): a protocol
//! session of arbitrary input, with the checks that must hold whatever the input (never a
//! panic; a refused protocol command changes nothing; positions round-trip). It lives here, in
//! the library, so that the fuzz target and the ordinary tests that replay the seed corpus
//! (`tests/program/fuzz_seeds.rs`) run the same checks on stable.

use veletas_rules::Variant;
use veletas_rules::fuzzing::position_round_trip;

use crate::player::RandomPlayer;
use crate::protocol::{Engine, parse_command, split_id};

/// Protocol commands that may run for long (a search, perft, a solver) or read files:
/// left out of fuzzed sessions, which must stay fast and touch nothing (the protocol's
/// property tests leave them out too).
pub const SLOW_OR_FILE_COMMANDS: [&str; 10] = [
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
