//! Position strings that are no position, each rejected with its specific error.

use veletas_rules::{Color, ParsePositionError, Position, Square};

fn parse(text: &str) -> Result<Position, ParsePositionError> {
    text.parse()
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

#[test]
fn wrong_shape_is_rejected_with_what_is_wrong() {
    for text in ["", "   "] {
        assert_eq!(parse(text), Err(ParsePositionError::Empty), "{text:?}");
    }
    assert_eq!(parse("7/7/7/7/7/7/7"), Err(ParsePositionError::MissingSide));
    assert_eq!(parse("  7/7/7/7/7/7/7  "), Err(ParsePositionError::MissingSide));
    assert_eq!(parse("7/7/7/7/7/7/7 b w"), Err(ParsePositionError::UnknownWord("w".into())));
    assert_eq!(parse("7/7/7/7/7/7/7 b 1"), Err(ParsePositionError::UnknownWord("1".into())));
    assert_eq!(
        parse("7/7/7/7/7/7/7 b extraordinarily-long-word"),
        Err(ParsePositionError::UnknownWord("extraordinarily-...".into()))
    );
    // The ranks are read before the side: a single word says what is wrong with it.
    assert_eq!(parse("garbage"), Err(ParsePositionError::Size(1)));
    assert_eq!(parse("garbage").unwrap_err().to_string(), "1 rank: the board must be 7x7, 9x9 or 10x10");
    assert_eq!(parse("7/7/7/7/7/7/6x"), Err(ParsePositionError::Character('x', 1)));
    assert_eq!(
        parse("7/7/7/7/7/7/7").unwrap_err().to_string(),
        "the side to move ('b' or 'w') is missing after the ranks"
    );
}

#[test]
fn wrong_side_to_move_letter_is_rejected() {
    assert_eq!(parse("7/7/7/7/7/7/7 x"), Err(ParsePositionError::Side("x".into())));
    assert_eq!(parse("7/7/7/7/7/7/7 B"), Err(ParsePositionError::Side("B".into())));
    assert_eq!(parse("7/7/7/7/7/7/7 black"), Err(ParsePositionError::Side("black".into())));
}

#[test]
fn board_sizes_other_than_7_9_10_are_rejected() {
    assert_eq!(parse("7/7/7/7/7/7 b"), Err(ParsePositionError::Size(6)));
    assert_eq!(parse("8/8/8/8/8/8/8/8 b"), Err(ParsePositionError::Size(8)));
    assert_eq!(parse("10/10/10/10/10/10/10/10/10/10/10 b"), Err(ParsePositionError::Size(11)));
    assert_eq!(parse("7 b"), Err(ParsePositionError::Size(1)));
}

#[test]
fn ranks_of_the_wrong_length_are_rejected() {
    // Ranks are numbered from 1 at the bottom; the first rank in the string is the top.
    assert_eq!(parse("7/7/7/6/7/7/7 b"), Err(ParsePositionError::RankLength { rank: 4, found: 6, size: 7 }));
    assert_eq!(parse("8/7/7/7/7/7/7 b"), Err(ParsePositionError::RankLength { rank: 7, found: 8, size: 7 }));
    assert_eq!(parse("7/7/7/7/7/7/s7 b"), Err(ParsePositionError::RankLength { rank: 1, found: 8, size: 7 }));
    assert_eq!(parse("7/7/7/7/7/7/ b"), Err(ParsePositionError::RankLength { rank: 1, found: 0, size: 7 }));
    assert_eq!(
        parse("10/10/10/10/10/10/10/10/10/11 b"),
        Err(ParsePositionError::RankLength { rank: 1, found: 11, size: 10 })
    );
    assert_eq!(parse("9/9/9/9/9/9/9/9/19 b"), Err(ParsePositionError::RankLength { rank: 1, found: 19, size: 9 }));
    // A digit after a digit continues the number: 3 then 4 is 34, not 7.
    assert_eq!(parse("7/7/7/34/7/7/7 b"), Err(ParsePositionError::RankLength { rank: 4, found: 34, size: 7 }));
}

#[test]
fn unknown_characters_and_zero_runs_are_rejected() {
    assert_eq!(parse("7/7/7/3x3/7/7/7 b"), Err(ParsePositionError::Character('x', 4)));
    assert_eq!(parse("7/7/7/7/7/7/3S3 b"), Err(ParsePositionError::Character('S', 1)));
    assert_eq!(parse("7/7/7/7/7/7/3.3 b"), Err(ParsePositionError::Character('.', 1)));
    assert_eq!(parse("7/07/7/7/7/7/7 b"), Err(ParsePositionError::Character('0', 6)));
    assert_eq!(parse("7/7/7/7/7/7/70 b"), Err(ParsePositionError::RankLength { rank: 1, found: 70, size: 7 }));
}

#[test]
fn shooter_counts_that_no_phase_has_are_rejected() {
    // 7x7: 0 (Black's setup), 1 (White's) or 3.
    assert_eq!(parse("7/7/7/7/7/7/s5s w"), Err(ParsePositionError::ShooterCount { found: 2, black: 1, all: 3 }));
    assert_eq!(parse("s5s/7/7/7/7/7/s1s1s1s b"), Err(ParsePositionError::ShooterCount { found: 6, black: 1, all: 3 }));
    // 9x9: 0, 2 or 5; claimed shooters count too.
    assert_eq!(parse("9/9/9/9/4s4/9/9/9/9 w"), Err(ParsePositionError::ShooterCount { found: 1, black: 2, all: 5 }));
    assert_eq!(parse("s7s/9/9/9/9/9/9/9/s7B b"), Err(ParsePositionError::ShooterCount { found: 4, black: 2, all: 5 }));
    // 10x10: 0, 3 or 7.
    assert_eq!(
        parse("s1s6s/10/10/10/10/10/10/10/10/s1s1s1s1s1 b"),
        Err(ParsePositionError::ShooterCount { found: 8, black: 3, all: 7 })
    );
}

#[test]
fn stones_or_claims_during_setup_are_rejected() {
    assert_eq!(parse("7/7/7/3s3/7/7/b6 w"), Err(ParsePositionError::StonesDuringSetup));
    assert_eq!(parse("7/7/7/7/7/7/w6 b"), Err(ParsePositionError::StonesDuringSetup));
    assert_eq!(parse("7/7/7/3B3/7/7/7 w"), Err(ParsePositionError::StonesDuringSetup));
}

#[test]
fn adjacent_shooters_during_setup_are_rejected() {
    assert_eq!(parse("9/9/9/9/9/9/9/1s7/s8 w"), Err(ParsePositionError::AdjacentShooters(sq("a1"), sq("b2"))));
    assert_eq!(
        parse("10/10/10/10/4ss4/10/10/10/10/9s w"),
        Err(ParsePositionError::AdjacentShooters(sq("e6"), sq("f6")))
    );
    // After setup shooters may stand side by side.
    assert!(parse("7/7/7/7/7/7/sss4 b").is_ok());
}

#[test]
fn wrong_side_for_a_setup_phase_is_rejected() {
    assert_eq!(parse("7/7/7/7/7/7/7 w"), Err(ParsePositionError::SetupSide(Color::Black)));
    assert_eq!(parse("7/7/7/3s3/7/7/7 b"), Err(ParsePositionError::SetupSide(Color::White)));
    assert_eq!(parse("10/10/7s2/10/5s4/10/10/2s7/10/10 b"), Err(ParsePositionError::SetupSide(Color::White)));
    // In play either side may be to move.
    assert!(parse("7/7/7/3s3/7/7/s5s b").is_ok() && parse("7/7/7/3s3/7/7/s5s w").is_ok());
}

#[test]
fn an_unclaimed_immobilized_shooter_is_rejected() {
    // a1 behind stones on a2, b1 and b2.
    assert_eq!(parse("7/7/7/3s3/7/bw5/sb4s b"), Err(ParsePositionError::Immobilized(sq("a1"))));
    // i4 walled in by the edge, shooters, stones and a claimed shooter.
    assert_eq!(parse("s8/9/9/9/7ws/7Bs/7bs/9/9 w"), Err(ParsePositionError::Immobilized(sq("i4"))));
    // The same square claimed is fine.
    assert!(parse("7/7/7/3s3/7/bw5/Bb4s b").is_ok());
}

/// A majority for both players needs more shooters than the game has (2 + 2 > 3,
/// 3 + 3 > 5, 4 + 4 > 7), so such a string is already rejected for its shooter count;
/// `ParsePositionError::BothWin` cannot be produced.
#[test]
fn both_players_at_a_majority_is_rejected() {
    assert_eq!(parse("BB5/7/7/7/7/7/WW5 b"), Err(ParsePositionError::ShooterCount { found: 4, black: 1, all: 3 }));
    assert_eq!(
        parse("BBB6/9/9/9/9/9/9/9/WWW6 b"),
        Err(ParsePositionError::ShooterCount { found: 6, black: 2, all: 5 })
    );
    assert_eq!(
        parse("BBBB6/10/10/10/10/10/10/10/10/WWWW6 w"),
        Err(ParsePositionError::ShooterCount { found: 8, black: 3, all: 7 })
    );
    // One player at a majority is a finished game.
    let over = parse("BB5/7/7/7/7/7/s6 w").unwrap();
    assert_eq!(over.winner(), Some(Color::Black));
    assert!(over.legal_moves().is_empty());
}

#[test]
fn valid_strings_parse_and_print_back_unchanged() {
    for text in [
        "7/7/7/7/7/7/7 b",
        "9/9/9/9/9/9/9/9/9 b",
        "10/10/10/10/10/10/10/10/10/10 b",
        "10/10/7s2/10/5s4/10/10/2s7/10/10 w",
        "9s/2s7/7s2/10/5s4/10/10/2s7/7s2/s9 b",
        "WBw3w3/wbbwbwbb1w/wbbb1wwbw1/b2sb1wWw1/1bwbbswbbb/ww1wbbbwwW/3bw1wwwb/b1bsbbww2/2wwbb3w/4w3b1 b",
    ] {
        assert_eq!(parse(text).unwrap().to_string(), text);
    }
}
