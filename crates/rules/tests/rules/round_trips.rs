//! Parse-print round trips as proptest properties (issue 25): positions reached by random
//! games under every rule set and size print as position strings that parse back to the
//! same position; every legal turn prints as text that parses back to the same turn; a
//! game written as a record parses back to the same record and replays to the same
//! position. The case count is bounded (64 per property) so the suite takes seconds.

use proptest::prelude::*;
use veletas_rules::record::{GameRecord, RecordMove, parse_records, tag};
use veletas_rules::{Move, Phase, PlayoutPolicy, Position, Rng, Rules, Variant};

/// A position after `plies` random turns from the empty board of `size` under `rules`
/// (uniform setup turns, then uniform play turns: enumerating every setup turn of a
/// 10x10 board would take millions), and the turns played.
fn random_game(size: u8, rules: Rules, seed: u64, plies: usize) -> (Position, Vec<Move>) {
    let mut position = Position::with_rules(Variant::from_size(size).unwrap(), rules);
    let mut rng = Rng::new(seed);
    let mut played = Vec::new();
    for _ in 0..plies {
        let next = match position.phase() {
            Phase::BlackSetup | Phase::WhiteSetup => position.random_setup(&mut rng),
            Phase::Play => position.random_move(&mut rng, PlayoutPolicy::Uniform),
        };
        let Some(mv) = next else { break };
        position.play(mv).unwrap();
        played.push(mv);
    }
    (position, played)
}

fn game_strategy() -> impl Strategy<Value = (u8, Rules, u64, usize)> {
    (prop::sample::select(vec![7u8, 9, 10]), prop::sample::select(Rules::all().to_vec()), any::<u64>(), 0usize..80)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn positions_print_and_parse_back_to_themselves((size, rules, seed, plies) in game_strategy()) {
        let (position, _) = random_game(size, rules, seed, plies);
        let text = position.to_string();
        let again: Position = text.parse().map_err(|e| TestCaseError::fail(format!("'{text}': {e}")))?;
        prop_assert_eq!(&again, &position);
        prop_assert_eq!(again.to_string(), text);
    }

    #[test]
    fn every_turn_prints_and_parses_back_to_itself((size, rules, seed, plies) in game_strategy()) {
        // Every turn of the game (setup turns included), and in play every legal turn.
        let (position, played) = random_game(size, rules, seed, plies);
        let mut replay = Position::with_rules(Variant::from_size(size).unwrap(), rules);
        for mv in played {
            let text = mv.to_string();
            prop_assert_eq!(replay.parse_move(&text).ok(), Some(mv), "'{}' in '{}'", text, replay);
            replay.play(mv).unwrap();
        }
        if position.phase() == Phase::Play {
            for mv in position.legal_moves() {
                let text = mv.to_string();
                prop_assert_eq!(position.parse_move(&text).ok(), Some(mv), "'{}' in '{}'", text, position);
            }
        }
    }

    #[test]
    fn records_print_parse_and_replay_to_the_same_game((size, rules, seed, plies) in game_strategy()) {
        let (position, played) = random_game(size, rules, seed, plies);
        let start = Position::with_rules(Variant::from_size(size).unwrap(), rules);
        let mut record = GameRecord::default();
        record.set_tag(tag::EVENT, format!("round \"trip\" {seed}"));
        record.set_tag(tag::START, start.to_string());
        record.set_moves(played.iter().map(|&mv| RecordMove::try_from(mv).unwrap()).collect()).unwrap();
        record.result = position.winner();
        let text = record.to_string();
        let parsed = parse_records(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(parsed.len(), 1);
        prop_assert_eq!(&parsed[0], &record);
        let replayed = parsed[0].position_after(None).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(replayed, position);
    }
}
