//! Win rates in match records: the referee asks an engine that lists `genmove_analyze`
//! for its moves with it and records each turn's win rate and visits
//! (`{54.12%/1200 0.832s}`); an engine that does not list it plays with `genmove` and its
//! turns carry their time only.

use crate::support::veletas;
use veletas_rules::record::GameRecord;
use veletas_tools::referee::parse_records;

const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");
const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");

/// Plays a 2-game 7x7 match of `one` against `two` and returns its records.
fn match_records(name: &str, one: &str, two: &str) -> Vec<GameRecord> {
    let dir = scratch!(name);
    let record = dir.join("m.txt");
    let out = veletas(&[
        "match",
        "--engine",
        one,
        "--engine",
        two,
        "--games",
        "2",
        "--size",
        "7",
        "-q",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    parse_records(&std::fs::read_to_string(&record).unwrap()).unwrap()
}

/// The turns of `game` played by `color`'s engine after the opening, with their annotations.
fn annotated_turns(game: &GameRecord, black: bool) -> Vec<veletas_rules::record::Annotation> {
    let opening = game.tag("Opening").unwrap().split_whitespace().count();
    let mut position = game.start_position().unwrap();
    let mut turns = Vec::new();
    for (turn, text) in game.moves().iter().enumerate() {
        let mover_black = position.side_to_move() == veletas_rules::Color::Black;
        if turn >= opening && mover_black == black {
            turns.push(game.annotation(turn));
        }
        let mv = position.parse_move(text.as_str()).unwrap();
        position.play(mv).unwrap();
    }
    turns
}

#[test]
fn a_match_of_our_engines_records_the_win_rate_of_every_searched_turn() {
    let engine = |seed: u32| format!("{VELETAS} --seed {seed} --playouts 200");
    let games = match_records("ours", &engine(1), &engine(2));
    for game in &games {
        for black in [true, false] {
            let turns = annotated_turns(game, black);
            assert!(!turns.is_empty());
            assert!(turns.iter().all(|a| a.time.is_some()), "every turn timed");
            // Turns chosen by search carry an evaluation (setup turns and immediate wins
            // report no visits, so none).
            let searched: Vec<_> = turns.iter().filter_map(|a| a.evaluation).collect();
            assert!(searched.len() * 2 >= turns.len(), "{turns:?}");
            // A move's visits are this search's 200 playouts at most, plus what the tree kept
            // from the turns before (tree reuse): the k-th search's at most 200 * k.
            assert!(
                searched
                    .iter()
                    .enumerate()
                    .all(|(k, e)| e.visits > 0 && e.visits <= 200 * (k as u64 + 1) && e.winrate.hundredths() <= 10_000),
                "{searched:?}"
            );
        }
        assert!(game.to_string().contains("%/"), "{game}");
    }
}

#[test]
fn an_engine_without_genmove_analyze_plays_with_genmove_and_records_times_only() {
    let fake = format!("{FAKE} --seed 3");
    let games = match_records("fake", &fake, &format!("{VELETAS} --seed 2 --playouts 100"));
    assert_eq!(games.len(), 2);
    for game in &games {
        assert!(game.winner().is_some());
        let fake_black = game.tag("BlackEngine") == Some("1");
        let fake_turns = annotated_turns(game, fake_black);
        assert!(!fake_turns.is_empty() && fake_turns.iter().all(|a| a.time.is_some() && a.evaluation.is_none()));
        let ours = annotated_turns(game, !fake_black);
        assert!(ours.iter().any(|a| a.evaluation.is_some()), "{game}");
    }
}
