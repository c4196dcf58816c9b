//! The situations that tell the rule sets apart (issue 6), and the modern position
//! string and setup rules.

use veletas_rules::{
    Color, Game, IllegalMove, Move, ParsePositionError, Phase, Piece, Position, Rng, RuleSet, Rules, Square, Variant,
};

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn pos(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn check(position: &Position, text: &str) -> Result<(), IllegalMove> {
    let mv = position.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
    position.check_move(mv)
}

fn played(position: &Position, text: &str) -> Position {
    let mut next = position.clone();
    next.play(next.parse_move(text).unwrap()).unwrap_or_else(|e| panic!("{text} at {position}: {e}"));
    next
}

/// A position string of a `size` board with `pieces` (square, letter), then `tail`.
fn board(size: u8, pieces: &[(&str, char)], tail: &str) -> String {
    let mut ranks = Vec::new();
    for rank in (0..size).rev() {
        let (mut text, mut run) = (String::new(), 0);
        for file in 0..size {
            let here = Square::new(file, rank).unwrap();
            match pieces.iter().find(|(name, _)| sq(name) == here) {
                Some(&(_, c)) => {
                    if run > 0 {
                        text += &run.to_string();
                        run = 0;
                    }
                    text.push(c);
                }
                None => run += 1,
            }
        }
        if run > 0 {
            text += &run.to_string();
        }
        ranks.push(text);
    }
    format!("{} {tail}", ranks.join("/"))
}

fn start(rules: Rules) -> Position {
    Position::with_rules(Variant::STANDARD, rules)
}

#[test]
fn adjacent_setup_with_a_stone_is_legal_in_modern_and_not_in_classic() {
    assert_eq!(check(&start(Rules::MODERN), "d4,e5,e6/a1"), Ok(()));
    assert_eq!(check(&start(Rules::CLASSIC), "d4,e5,e6/a1"), Err(IllegalMove::NoSetupStone));
    assert!(matches!(check(&start(Rules::CLASSIC), "d4,e5,e6"), Err(IllegalMove::Adjacent(..))));
    assert_eq!(check(&start(Rules::MODERN), "d4,e5,e6"), Err(IllegalMove::StoneExpected(Color::Black, 3)));
    let after = played(&start(Rules::MODERN), "d4,e5,e6/a1");
    assert_eq!(after.stones(Color::Black), sq("a1").bitboard());
    assert_eq!(after.phase(), Phase::WhiteSetup);
    assert!(after.swap_available());
}

#[test]
fn a_setup_shooter_on_the_edge_is_legal_only_in_classic() {
    assert_eq!(check(&start(Rules::CLASSIC), "a5,c3,h8"), Ok(()));
    assert_eq!(check(&start(Rules::MODERN), "a5,c3,h8/b5"), Err(IllegalMove::ShooterOnEdge(sq("a5"))));
    // The stone may go on the edge, and next to a shooter.
    assert_eq!(check(&start(Rules::MODERN), "b5,c3,h8/a5"), Ok(()));
    assert!("b5,c3,h8/b5".parse::<Move>().is_err());
    let stone_on_shooter = Move::SetupWithStone { shooters: sq("b5").bitboard(), stone: sq("b5") };
    let seven = Position::with_rules(Variant::from_size(7).unwrap(), Rules::MODERN);
    assert_eq!(seven.check_move(stone_on_shooter), Err(IllegalMove::Occupied(sq("b5"))));
    assert_eq!(check(&seven, "g4/d4"), Err(IllegalMove::ShooterOnEdge(sq("g4"))));
    assert_eq!(check(&seven, "f6/g7"), Ok(()));
    assert_eq!(seven.count_legal_moves(), 25 * 48);
}

#[test]
fn white_may_swap_once_and_then_must_place() {
    let black_done = played(&start(Rules::MODERN), "c3,f6,h8/a1");
    assert_eq!(black_done.to_string(), "10/10/7s2/10/5s4/10/10/2s7/10/b9 w modern swap");
    assert_eq!(check(&black_done, "swap"), Ok(()));
    let seven = played(&Position::with_rules(Variant::from_size(7).unwrap(), Rules::MODERN), "d4/a1");
    assert_eq!(seven.legal_moves()[0], Move::Swap);
    assert_eq!(seven.legal_moves().iter().filter(|&&mv| mv == Move::Swap).count(), 1);
    let swapped = played(&black_done, "swap");
    assert_eq!(swapped.side_to_move(), Color::White);
    assert_eq!(swapped.phase(), Phase::WhiteSetup);
    assert!(!swapped.swap_available());
    assert_eq!(swapped.to_string(), "10/10/7s2/10/5s4/10/10/2s7/10/b9 w modern noswap");
    assert_eq!(swapped.count_legal_moves() + 1, black_done.count_legal_moves());
    assert_eq!(check(&swapped, "swap"), Err(IllegalMove::SwapUnavailable));
    assert_eq!(pos(&swapped.to_string()), swapped);
    let placed = played(&swapped, "b2,c9,h2,i9/j10");
    assert_eq!(placed.phase(), Phase::Play);
    assert_eq!(placed.side_to_move(), Color::Black);
    assert_eq!(check(&placed, "swap"), Err(IllegalMove::SwapUnavailable));
    // White may also place without swapping; the swap is never available elsewhere.
    assert_eq!(check(&black_done, "b2,c9,h2,i9/j10"), Ok(()));
    assert_eq!(check(&start(Rules::MODERN), "swap"), Err(IllegalMove::SwapUnavailable));
    assert_eq!(check(&played(&start(Rules::CLASSIC), "c3,f6,h8"), "swap"), Err(IllegalMove::SwapUnavailable));
    // Undo through a game restores the swap.
    let mut game = Game::from_position(black_done.clone());
    game.play(Move::Swap).unwrap();
    assert_eq!(game.undo(), Ok(Move::Swap));
    assert_eq!(game.position(), &black_done);
}

#[test]
fn a_shot_passes_over_the_vacated_square_and_an_unclaimed_shooter_only_in_modern() {
    let pieces = [
        ("d4", 's'),
        ("d2", 's'),
        ("g7", 's'),
        ("h3", 's'),
        ("b8", 's'),
        ("i9", 's'),
        ("f5", 's'),
        ("a10", 'b'),
        ("j1", 'w'),
    ];
    let modern = pos(&board(10, &pieces, "b modern"));
    let classic = pos(&board(10, &pieces, "b"));
    assert_eq!(check(&modern, "d4-d7/d1"), Ok(()));
    assert_eq!(check(&classic, "d4-d7/d1"), Err(IllegalMove::ShotBlocked(sq("d7"), sq("d1"), sq("d2"))));
    assert_eq!(check(&classic, "d4-d7/d3"), Ok(()));
    let after = played(&modern, "d4-d7/d1");
    assert_eq!(after.piece_at(sq("d1")), Some(Piece::Stone(Color::Black)));
    assert_eq!(after.piece_at(sq("d2")), Some(Piece::Shooter));
    // Moves pass over shooters too, but never land on one or pass a stone.
    assert_eq!(check(&modern, "d2-d5/d2"), Ok(()));
    assert_eq!(check(&modern, "d2-d4/d1"), Err(IllegalMove::Occupied(sq("d4"))));
    assert!(matches!(check(&classic, "d2-d5/d2"), Err(IllegalMove::PathBlocked(..))));
    let stone_on_d3 = played(&modern, "d3");
    assert_eq!(check(&stone_on_d3, "d2-d5/j10"), Err(IllegalMove::PathBlocked(sq("d2"), sq("d5"), sq("d3"))));
}

/// 7x7: a shooter on b2 walled by stones on a1, a2, a3, b1, b3, c1 and a shooter on
/// c2 (unclaimed, or claimed by Black with `c2`), before the stone on c3.
fn walled_b2(c2: char, tail: &str) -> Position {
    let pieces = [
        ("a1", 'b'),
        ("a2", 'b'),
        ("a3", 'w'),
        ("b1", 'b'),
        ("b3", 'b'),
        ("c1", 'w'),
        ("b2", 's'),
        ("c2", c2),
        ("c5", 's'),
    ];
    pos(&board(7, &pieces, tail))
}

#[test]
fn a_shooter_walled_by_stones_and_a_shooter_is_claimed_in_classic_and_free_in_modern() {
    for c2 in ['s', 'B'] {
        let classic = played(&walled_b2(c2, "b"), "c3");
        assert!(matches!(classic.piece_at(sq("b2")), Some(Piece::Claimed(_))), "{classic}");
        let modern = played(&walled_b2(c2, "b modern"), "c3");
        assert_eq!(modern.piece_at(sq("b2")), Some(Piece::Shooter), "{modern}");
        assert!(!modern.is_immobilized(sq("b2")));
        assert_eq!(check(&modern, "b2-d2/b2"), Ok(()), "{modern}");
        assert_eq!(modern.shooter_reach(sq("b2")), ["d2", "e2", "f2", "g2"].iter().map(|s| sq(s)).collect());
        // Once d2 is filled too, b2 is trapped in modern as well (then e2.. are cut off).
        let trapped = played(&modern, "d2");
        assert!(matches!(trapped.piece_at(sq("b2")), Some(Piece::Claimed(_))), "{trapped}");
    }
}

#[test]
fn no_corners_removes_the_corners_from_play() {
    let rules = Rules::MODERN.with_no_corners(true);
    let start = start(rules);
    assert_eq!(check(&start, "c3,f6,h8/a1"), Err(IllegalMove::MissingCorner(sq("a1"))));
    assert_eq!(check(&start, "c3,f6,h8/j10"), Err(IllegalMove::MissingCorner(sq("j10"))));
    assert_eq!(start.empty_squares().count(), 96);
    assert_eq!(start.count_legal_moves(), 41_664 * 93);
    assert_eq!(Position::with_rules(Variant::STANDARD, Rules::MODERN).count_legal_moves(), 41_664 * 97);
    // Nothing on a corner in a position string.
    assert_eq!("s6/7/7/7/7/7/7 b no-corners".parse::<Position>(), Err(ParsePositionError::Corner(sq("a7"))));
    // Classic with no-corners: a shooter whose only free neighbour would be the corner
    // is immobilized; a shot cannot cross the missing corner either.
    let pieces = [
        ("a2", 'b'),
        ("a3", 'b'),
        ("b1", 'w'),
        ("b3", 'w'),
        ("c1", 'b'),
        ("c2", 'w'),
        ("b2", 's'),
        ("e5", 's'),
        ("c5", 's'),
    ];
    let plain = pos(&board(7, &pieces, "b"));
    let no_corners = pos(&board(7, &pieces, "b no-corners"));
    assert_eq!(played(&plain, "c3").piece_at(sq("b2")), Some(Piece::Shooter));
    assert!(matches!(played(&no_corners, "c3").piece_at(sq("b2")), Some(Piece::Claimed(_))));
    assert!(!no_corners.shooter_reach(sq("b2")).contains(sq("a1")));
}

#[test]
fn modern_position_strings_round_trip_and_are_checked_strictly() {
    let cases = [
        "7/7/7/7/7/7/7 b modern",
        "7/7/7/7/7/7/7 b no-corners",
        "7/7/7/7/7/7/7 b modern no-corners",
        "7/7/7/3s3/7/7/b6 w modern swap",
        "7/7/7/3s3/7/7/b6 w modern noswap",
        "7/7/7/3s3/7/7/1b5 w modern swap no-corners",
    ];
    for text in cases {
        assert_eq!(pos(text).to_string(), text);
    }
    // Words in any order; swap is the default in White's modern setup.
    assert_eq!(pos("7/7/7/3s3/7/7/1b5 w no-corners modern").to_string(), "7/7/7/3s3/7/7/1b5 w modern swap no-corners");
    assert_eq!(pos("7/7/7/7/7/7/7 b classic"), pos("7/7/7/7/7/7/7 b"));
    assert_eq!(pos("7/7/7/7/7/7/7 b modern").rules().set, RuleSet::Modern);
    let err = |text: &str| text.parse::<Position>().unwrap_err();
    let twice = |a: &str, b: &str| ParsePositionError::RepeatedWord(a.into(), b.into());
    assert_eq!(err("7/7/7/7/7/7/7 b modern modern"), twice("modern", "modern"));
    assert_eq!(err("7/7/7/7/7/7/7 b modern classic"), twice("modern", "classic"));
    assert_eq!(err("7/7/7/3s3/7/7/b6 w modern swap noswap"), twice("swap", "noswap"));
    assert_eq!(err("7/7/7/7/7/7/7 b no-corners no-corners"), twice("no-corners", "no-corners"));
    assert_eq!(err("7/7/7/7/7/7/7 b modern swap"), ParsePositionError::SwapWord);
    assert_eq!(err("7/7/7/3s3/7/7/b6 w swap"), ParsePositionError::SwapWord);
    assert_eq!(err("7/7/7/s6/7/7/b6 w modern"), ParsePositionError::EdgeShooter(sq("a4")));
    assert_eq!(err("7/7/7/3s3/7/7/7 w modern"), ParsePositionError::SetupStones);
    assert_eq!(err("7/7/7/3s3/7/7/bb5 w modern"), ParsePositionError::SetupStones);
    assert_eq!(err("7/7/7/3s3/7/7/w6 w modern"), ParsePositionError::SetupStones);
    assert_eq!(err("7/7/7/7/7/7/b6 b modern"), ParsePositionError::SetupStones);
    assert_eq!(err("7/7/7/3s3/7/7/b6 b modern"), ParsePositionError::SetupSide(Color::White));
    // Adjacent setup shooters are fine in modern, not in classic.
    assert!("9/9/9/9/3ss4/9/9/9/b8 w modern".parse::<Position>().is_ok());
    assert!(matches!(err("9/9/9/9/3ss4/9/9/9/9 w"), ParsePositionError::AdjacentShooters(..)));
    // In play, an unclaimed shooter with no legal move is rejected; a walled one that
    // can still pass over a shooter is not.
    assert_eq!(err("7/7/7/7/wbb4/bss4/sbw4 b modern"), ParsePositionError::Immobilized(sq("a1")));
    assert!("7/7/7/7/wb5/bss4/sbw4 b modern".parse::<Position>().is_ok());
    assert_eq!(err("7/7/7/7/wb5/bss4/sbw4 b"), ParsePositionError::Immobilized(sq("a1")));
}

#[test]
fn random_start_puts_every_shooter_off_the_edge_with_black_to_move() {
    let mut rng = Rng::new(11);
    for variant in Variant::all() {
        for rules in Rules::all() {
            for _ in 0..20 {
                let p = Position::random_start(variant, rules, &mut rng);
                assert_eq!(p.phase(), Phase::Play);
                assert_eq!(p.side_to_move(), Color::Black);
                assert_eq!(p.shooters().count(), u32::from(variant.shooters()));
                assert_eq!(p.shooters() & !variant.interior(), veletas_rules::Bitboard::EMPTY);
                assert!(p.stones(Color::Black).is_empty() && p.stones(Color::White).is_empty());
                if !rules.is_modern() {
                    assert!((p.shooters() & p.shooters().neighbours()).is_empty());
                }
                assert_eq!(pos(&p.to_string()), p);
                assert!(p.count_legal_moves() > 0);
            }
        }
    }
    let same = |seed| Position::random_start(Variant::STANDARD, Rules::MODERN, &mut Rng::new(seed));
    assert_eq!(same(5), same(5));
}
