//! The record module's tests: writing, reading and replaying games, through the public API and the
//! fields a test builds a record from.

use super::*;

fn mv(text: &str) -> RecordMove {
    RecordMove::new(text).unwrap()
}

#[test]
fn modern_records_carry_the_rules_and_number_around_the_swap() {
    let mut record = GameRecord::default();
    record.set_tag("Size", "7");
    record.set_tag("Rules", "modern no-corners");
    record.moves = ["d4/b1", "swap", "c5,e3/g6", "d4-f4/c4"].map(mv).to_vec();
    record.result = None;
    let text = record.to_string();
    assert!(text.contains("1. d4/b1 swap c5,e3/g6 2. d4-f4/c4 *"), "{text}");
    assert_eq!(parse_records(&text).unwrap(), vec![record.clone()]);
    let end = record.position_after(None).unwrap();
    assert_eq!(end.to_string(), "7/6w/2s4/2b2s1/4s2/7/1b5 w modern no-corners");
    record.set_tag("Rules", "modern corners");
    assert!(record.start_position().is_err());
    record.set_tag("Rules", "classic");
    assert!(record.position_after(None).is_err());
}

pub(super) const SAMPLE: &str =
    "[Event \"test \\\"quoted\\\"\"]\n[Size \"7\"]\n\n1. d4 b2,f6 {a comment\nover lines} 2. d4-d6/d5\nf6-f3/e4 B+\n\n";

#[test]
fn parses_tags_moves_comments_and_result() {
    let games = parse_records(SAMPLE).unwrap();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.tag("Event"), Some("test \"quoted\""));
    assert_eq!(g.moves, ["d4", "b2,f6", "d4-d6/d5", "f6-f3/e4"]);
    assert_eq!(g.winner(), Some(Color::Black));
    assert_eq!(g.position_after(Some(2)).unwrap().to_string().split(' ').nth(1), Some("b"));
}

#[test]
fn writing_then_reading_gives_the_same_game() {
    let mut g = parse_records(SAMPLE).unwrap().remove(0);
    g.set_tag("Reason", "back\\slash and \"quotes\"");
    let text = g.to_string();
    assert_eq!(parse_records(&text).unwrap(), vec![g.clone()]);
    let twice = format!("{text}{text}");
    assert_eq!(parse_records(&twice).unwrap().len(), 2);
}

#[test]
fn annotations_belong_to_the_move_they_follow_and_other_comments_are_ignored() {
    let text =
        "[Size \"7\"]\n\n1. d4 {0.012s} b2,f6 {a note} {0.5s} 2. {1s} d4-d6/d5 {54.12%/1200\n0.832s} f6-f3/e4 *\n";
    let game = parse_records(text).unwrap().remove(0);
    assert_eq!(game.annotation(0).to_string(), "0.012s");
    assert!(game.annotation(1).is_empty(), "only the first comment after a move annotates it");
    assert_eq!(game.annotation(2).to_string(), "54.12%/1200 0.832s", "a comment may span lines");
    assert!(game.annotation(3).is_empty());
    assert_eq!(game.moves, ["d4", "b2,f6", "d4-d6/d5", "f6-f3/e4"]);
    let written = game.to_string();
    assert!(written.ends_with("1. d4 {0.012s} b2,f6 2. d4-d6/d5 {54.12%/1200 0.832s} f6-f3/e4 *\n\n"), "{written}");
    assert_eq!(parse_records(&written).unwrap(), vec![game.clone()]);
    // Written once more: the same bytes.
    assert_eq!(parse_records(&written).unwrap()[0].to_string(), written);
    let mut plain = game;
    for turn in 0..4 {
        plain.set_annotation(turn, Annotation::default());
    }
    assert!(!plain.has_annotations());
    assert!(plain.to_string().ends_with("1. d4 b2,f6 2. d4-d6/d5 f6-f3/e4 *\n\n"));
}

#[test]
fn unknown_tags_and_their_order_survive_a_round_trip() {
    let text = "[Zeta \"last \\\"first\\\"\"]\n[Size \"7\"]\n[Custom_1 \"x\"]\n[TimeControl \"black movetime 1; white clock 10+0.1\"]\n\n1. d4 {0.5s} *\n\n";
    let game = parse_records(text).unwrap().remove(0);
    assert_eq!(game.to_string(), text);
    assert_eq!(game.tags().map(|(n, _)| n).collect::<Vec<_>>(), ["Zeta", "Size", "Custom_1", "TimeControl"]);
    assert!(game.time_controls().unwrap().unwrap().any_clock());
    let mut bad = game.clone();
    bad.set_tag(tag::TERMINATION, "won on time");
    assert_eq!(
        bad.termination().unwrap_err().to_string(),
        "bad Termination tag 'won on time': unknown termination 'won on time'"
    );
}

#[test]
fn white_first_games_number_with_dots() {
    let g = GameRecord {
        tags: vec![("Start".into(), "7/7/7/3s3/7/7/7 w".into())],
        moves: vec![mv("b2,f6"), mv("d4-d6/d5")],
        annotations: Vec::new(),
        result: None,
    };
    assert!(g.to_string().contains("1... b2,f6 2. d4-d6/d5 *"));
    assert_eq!(parse_records(&g.to_string()).unwrap(), vec![g.clone()]);
    assert!(g.replay(None).is_ok());
}

#[test]
fn incomplete_tails_are_cut_and_errors_located() {
    let partial = format!("{SAMPLE}[Event \"cut\"]\n\n1. d4 b2");
    assert!(parse_records(&partial).is_err());
    let (games, end) = parse_complete_records(&partial).unwrap();
    assert_eq!((games.len(), end), (1, SAMPLE.len() - 1));
    // Cut inside a tag line: the cut line is dropped with its game.
    let cut_tag = format!("{SAMPLE}[Event \"cu");
    let (games, end) = parse_complete_records(&cut_tag).unwrap();
    assert_eq!((games.len(), end), (1, SAMPLE.len() - 1));
    // The same bad line with its line break is an error.
    assert!(parse_complete_records(&format!("{cut_tag}\n")).is_err());
    let err = parse_records("1. d4 B+\n[Bad tag]\n").unwrap_err();
    assert_eq!(err.line, Some(2));
    assert!(parse_records("[Size \"7\"]\n1. d4 B+ d5\n").is_err());
    let bad_move = parse_records("[Size \"7\"]\n1. d4 d4 B+\n").unwrap().remove(0);
    assert!(bad_move.replay(None).unwrap_err().message.contains("turn 2"));
}

#[test]
fn move_text_that_is_no_turn_is_refused_at_its_line() {
    let err = parse_records("[Size \"7\"]\n\n1. d4 b2,f6\n2. d4-d6/d5 hello B+\n").unwrap_err();
    assert_eq!(err.line, Some(4));
    assert!(err.message.starts_with("invalid move 'hello': "), "{err}");
    let long = format!("1. {} *\n", "a1,".repeat(30));
    assert_eq!(parse_records(&long).unwrap_err().to_string(), "line 1: a move of more than 64 bytes");
    let many = format!("{} *\n", "d4 ".repeat(MAX_MOVES + 1));
    assert_eq!(parse_records(&many).unwrap_err().to_string(), "line 1: more than 2000 moves in one game");
}

#[test]
fn a_record_holds_at_most_the_moves_a_reader_reads() {
    let mut record = GameRecord::default();
    assert_eq!(record.set_moves(vec![mv("d4"); MAX_MOVES + 1]), Err(TooManyMoves));
    assert!(record.moves().is_empty(), "unchanged");
    record.set_moves(vec![mv("d4"); MAX_MOVES]).unwrap();
    assert_eq!(parse_records(&record.to_string()).unwrap()[0].moves().len(), MAX_MOVES);
}

#[test]
fn a_games_turns_are_written_as_the_rules_print_them() {
    let mut record = parse_records(SAMPLE).unwrap().remove(0);
    let game = record.replay(None).unwrap();
    record.set_moves(vec![mv("D4"), mv("f6,B2"), mv("d4-d6/d5"), mv("f6-f3/e4")]).unwrap();
    record.set_moves_of(&game);
    assert_eq!(record.moves(), ["d4", "b2,f6", "d4-d6/d5", "f6-f3/e4"]);
    assert_eq!(record.to_string(), parse_records(SAMPLE).unwrap()[0].to_string());
}
