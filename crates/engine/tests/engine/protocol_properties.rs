//! Protocol properties with proptest (issue 25): sessions of command lines drawn from the
//! command names and a pool of awkward arguments (huge, negative, NaN and malformed
//! numbers, squares off the board, moves, position strings, stray bytes). In every
//! session each refused command leaves the game, position and komi unchanged, and after
//! each accepted one the position prints as a string that parses back to itself
//! (`veletas_engine::fuzzing::protocol_session`, the fuzz target's body). Bounded to 64 sessions.

use proptest::prelude::*;
use veletas_engine::protocol::COMMANDS;
// Commands that search, run for long or read files: left out, as the fuzz target does.
use veletas_engine::fuzzing::SLOW_OR_FILE_COMMANDS;

/// Arguments that probe the parsers' edges.
const ARGUMENTS: [&str; 32] = [
    "7",
    "9",
    "10",
    "0",
    "-1",
    "1e-10",
    "1e300",
    "nan",
    "inf",
    "18446744073709551616",
    "99999999999999999999",
    "b",
    "w",
    "black",
    "x",
    "d4",
    "c3,e5",
    "b2,f6",
    "c5-c7/e7",
    "d4-d4/d4",
    "a1",
    "j10",
    "k11",
    "swap",
    "pass",
    "on",
    "off",
    "modern",
    "no-corners",
    "7/7/2s4/7/4s2/1s5/7",
    "7/7/7/7/7/7/18446744073709551615s7",
    "\u{0}\u{ff}",
];

fn line() -> impl Strategy<Value = String> {
    let names: Vec<&'static str> =
        COMMANDS.iter().map(|(name, _, _)| *name).filter(|n| !SLOW_OR_FILE_COMMANDS.contains(n)).collect();
    (
        prop::option::of(0u32..100),
        prop::sample::select(names),
        prop::collection::vec(prop::sample::select(ARGUMENTS.to_vec()), 0..4),
    )
        .prop_map(|(id, name, args)| {
            let id = id.map(|i| format!("{i} ")).unwrap_or_default();
            format!("{id}{name} {}", args.join(" ")).trim_end().to_string()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn refused_commands_change_nothing_and_accepted_ones_leave_a_valid_position(
        lines in prop::collection::vec(line(), 1..40)
    ) {
        // A session that sets a position first, so that play and undo have work to do.
        let session = format!("boardsize 7\nclear_board\n{}\n", lines.join("\n"));
        veletas_engine::fuzzing::protocol_session(session.as_bytes());
    }
}
