//! The rulebook's examples and the rules' corner cases, each on a hand-built position.
//!
//! Positions are drawn as diagrams (rank 10, 9 or 7 at the top; `.` empty, `s` unclaimed
//! shooter, `b`/`w` stones, `B`/`W` shooters claimed by Black/White), turned into
//! position strings and parsed.

use veletas_rules::{Color, IllegalMove, Move, Piece, Position, Square, Variant};

/// The position string of a diagram, with `side` (`b` or `w`) to move.
fn position_string(rows: &str, side: char) -> String {
    let mut ranks = Vec::new();
    for row in rows.lines().map(|line| line.split_whitespace().collect::<String>()).filter(|row| !row.is_empty()) {
        let mut rank = String::new();
        let mut run = 0;
        for c in row.chars() {
            if c == '.' {
                run += 1;
                continue;
            }
            if run > 0 {
                rank += &run.to_string();
                run = 0;
            }
            rank.push(c);
        }
        if run > 0 {
            rank += &run.to_string();
        }
        ranks.push(rank);
    }
    format!("{} {side}", ranks.join("/"))
}

/// The position of a diagram (which must be valid), checked to print back the same.
fn diagram(rows: &str, side: char) -> Position {
    let text = position_string(rows, side);
    let pos: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(pos.to_string(), text);
    pos
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn squares(names: &[&str]) -> veletas_rules::Bitboard {
    names.iter().map(|name| sq(name)).collect()
}

/// A move in notation, read in the position's phase.
fn mv(pos: &Position, text: &str) -> Move {
    pos.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn check(pos: &Position, text: &str) -> Result<(), IllegalMove> {
    pos.check_move(mv(pos, text))
}

/// Plays a legal move (that is also in the legal move list) and returns the result.
fn after(pos: &Position, text: &str) -> Position {
    let m = mv(pos, text);
    assert!(pos.legal_moves().contains(&m), "{text} is not listed as legal in {pos}");
    let mut next = pos.clone();
    next.play(m).unwrap_or_else(|e| panic!("{text} in {pos}: {e}"));
    next
}

// The rulebook's four examples.

/// Example 1: White moves a shooter (here along a file) and then shoots along a
/// diagonal from the square it moved to, two squares away.
#[test]
fn example_white_moves_then_shoots_from_the_new_square() {
    let pos = diagram(
        "
        s . . . . . . . . s
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . s . . . . . . .
        . . . . . . . . . .
        . . . . . . . s . .
        . . . b . w . . . .
        . s . . s . . . . .
        . . . . . . . . . s
        ",
        'w',
    );
    assert_eq!(check(&pos, "e2-e6/g8"), Ok(()));
    let next = after(&pos, "e2-e6/g8");
    assert_eq!(next.piece_at(sq("e2")), None);
    assert_eq!(next.piece_at(sq("e6")), Some(Piece::Shooter));
    assert_eq!(next.piece_at(sq("g8")), Some(Piece::Stone(Color::White)));
    assert_eq!(next.side_to_move(), Color::Black);
    assert_eq!(next.claims(Color::Black) + next.claims(Color::White), 0);
    // A move is one straight line, and so is the shot from the destination.
    assert_eq!(check(&pos, "e2-f4/f8"), Err(IllegalMove::NotOnLine(sq("e2"), sq("f4"))));
    assert_eq!(check(&pos, "e2-e6/f8"), Err(IllegalMove::NotOnLine(sq("e6"), sq("f8"))));
    // The shot comes from the moved shooter, not from where it stood.
    assert_eq!(check(&pos, "e2-e6/g2"), Err(IllegalMove::NotOnLine(sq("e6"), sq("g2"))));
}

/// Example 2: a move and a shot may not jump over a stone.
#[test]
fn example_moves_and_shots_do_not_jump_over_stones() {
    let pos = diagram(
        "
        s . . . . . . . . s
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . b . . .
        . . . . . . . . . .
        s . . . w . . . . .
        . . . . b . . s . .
        . . . . . . . . . .
        . s . . s . . . . .
        . . . . . . . . . s
        ",
        'w',
    );
    // The stone on e4 blocks the move up the e file (the nearest blocker is named).
    assert_eq!(check(&pos, "e2-e7/e9"), Err(IllegalMove::PathBlocked(sq("e2"), sq("e7"), sq("e4"))));
    assert_eq!(check(&pos, "e2-e6/e9"), Err(IllegalMove::PathBlocked(sq("e2"), sq("e6"), sq("e4"))));
    assert!(pos.is_legal(mv(&pos, "e2-e3/e1")));
    // From g4 the stone on g7 blocks the shot up the g file.
    assert_eq!(check(&pos, "e2-g4/g6"), Ok(()));
    assert_eq!(check(&pos, "e2-g4/g8"), Err(IllegalMove::ShotBlocked(sq("g4"), sq("g8"), sq("g7"))));
    assert_eq!(check(&pos, "e2-g4/g10"), Err(IllegalMove::ShotBlocked(sq("g4"), sq("g10"), sq("g7"))));
    // Without a move no shooter sees past the stones either.
    assert_eq!(check(&pos, "e8"), Err(IllegalMove::NoShooterSees(sq("e8"))));
}

/// Example 3: Black claims the immobilized shooter with the biggest orthogonally
/// adjacent group; White's bigger group touches the shooter only diagonally.
#[test]
fn example_black_claims_with_biggest_orthogonal_group_and_diagonal_white_group_is_irrelevant() {
    let pos = diagram(
        "
        s . . . . . . . . s
        . . . . . s . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . w w b . . . . .
        . w w b s b . . . .
        . . w w b b . . . .
        . . . . . . . s . .
        . . . . . . . . . .
        s . . . . . . . . s
        ",
        'b',
    );
    // White's group of six (b5 c4 c5 c6 d4 d6) touches e5 only at its corners d4 and d6.
    assert_eq!(pos.biggest_adjacent_group(sq("e5"), Color::White), 0);
    let next = after(&pos, "f6");
    assert_eq!(next.biggest_adjacent_group(sq("e5"), Color::Black), 5);
    assert_eq!(next.biggest_adjacent_group(sq("e5"), Color::White), 0);
    assert_eq!(next.claimed(Color::Black), sq("e5").bitboard());
    assert!(next.claimed(Color::White).is_empty());
    assert_eq!(next.piece_at(sq("e5")), Some(Piece::Claimed(Color::Black)));
    assert_eq!(next.winner(), None);
}

/// Example 4: White ends her turn immobilizing a shooter whose biggest adjacent black
/// and white groups are the same size, so Black, her opponent, claims it.
#[test]
fn example_tie_after_white_immobilizes_goes_to_black() {
    let pos = diagram(
        "
        s . . . . . . . . s
        . . s . . . . . . .
        . . . . . . . s . .
        . . . . . . . . . .
        . . b b b w . . . .
        . . w w s w . . . .
        . . w b b . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        s . . . . . . . . s
        ",
        'w',
    );
    let next = after(&pos, "j1-j4/f4");
    // Black: c6 d6 e6 (3) and d4 e4 (2); White: c4 c5 d5 (3) and f4 f5 f6 (3).
    assert_eq!(next.biggest_adjacent_group(sq("e5"), Color::Black), 3);
    assert_eq!(next.biggest_adjacent_group(sq("e5"), Color::White), 3);
    assert_eq!(next.claimed(Color::Black), sq("e5").bitboard());
    assert!(next.claimed(Color::White).is_empty());
}

// Moving and shooting.

#[test]
fn shooting_back_onto_the_vacated_square_is_legal() {
    let pos = diagram(
        "
        . . . . . . s
        . . . . . . .
        . . . . . . .
        . . . s . . .
        . . . . . . .
        . . . . . . .
        s . . . . . .
        ",
        'b',
    );
    for text in ["d4-d6/d4", "d4-d5/d4", "d4-a7/d4", "d4-g4/d4"] {
        let next = after(&pos, text);
        assert_eq!(next.piece_at(sq("d4")), Some(Piece::Stone(Color::Black)), "{text}");
    }
    // The vacated square no longer blocks: a shot may pass through it.
    let next = after(&pos, "d4-e5/c3");
    assert_eq!(next.piece_at(sq("c3")), Some(Piece::Stone(Color::Black)));
    assert_eq!(next.piece_at(sq("d4")), None);
    assert_eq!(next.piece_at(sq("e5")), Some(Piece::Shooter));
}

/// A shooter may step into a pocket and fill its vacated square, immobilizing itself;
/// here that stone also joins two black groups into the biggest one.
#[test]
fn a_shooter_that_shoots_back_into_its_own_pocket_is_claimed() {
    let pos = diagram(
        "
        . . . . . . s
        . . . . . . .
        . . . . . . .
        . . . . . . .
        b b s . . . .
        w . b . . . .
        w w b . . . s
        ",
        'b',
    );
    let next = after(&pos, "c3-b2/c3");
    assert_eq!(next.biggest_adjacent_group(sq("b2"), Color::Black), 5);
    assert_eq!(next.biggest_adjacent_group(sq("b2"), Color::White), 3);
    assert_eq!(next.claimed(Color::Black), sq("b2").bitboard());
}

#[test]
fn moves_are_blocked_by_shooters_stones_and_claimed_shooters() {
    let pos = diagram(
        "
        s . . . . . . . .
        . . . . . . . . .
        . . . . s . . . .
        . . . . . . . . .
        . . . . s . b . .
        . . . . . . . . .
        . . B . . . . . .
        w . . . . . . . .
        . b . . . . . . s
        ",
        'w',
    );
    // Through them...
    assert_eq!(check(&pos, "e5-e8/e9"), Err(IllegalMove::PathBlocked(sq("e5"), sq("e8"), sq("e7"))));
    assert_eq!(check(&pos, "e5-h5/h1"), Err(IllegalMove::PathBlocked(sq("e5"), sq("h5"), sq("g5"))));
    assert_eq!(check(&pos, "e5-b2/b5"), Err(IllegalMove::PathBlocked(sq("e5"), sq("b2"), sq("c3"))));
    // ...onto them...
    assert_eq!(check(&pos, "e5-e7/e6"), Err(IllegalMove::Occupied(sq("e7"))));
    assert_eq!(check(&pos, "e5-g5/g6"), Err(IllegalMove::Occupied(sq("g5"))));
    assert_eq!(check(&pos, "e5-c3/c4"), Err(IllegalMove::Occupied(sq("c3"))));
    // ...and shots past them.
    assert_eq!(check(&pos, "e5-e6/e8"), Err(IllegalMove::ShotBlocked(sq("e6"), sq("e8"), sq("e7"))));
    assert_eq!(check(&pos, "e5-f5/h5"), Err(IllegalMove::ShotBlocked(sq("f5"), sq("h5"), sq("g5"))));
    assert_eq!(check(&pos, "e5-d4/b2"), Err(IllegalMove::ShotBlocked(sq("d4"), sq("b2"), sq("c3"))));
    // The closest legal moves are fine.
    for text in ["e5-e6/e4", "e5-f5/f9", "e5-d4/d1"] {
        assert_eq!(check(&pos, text), Ok(()), "{text}");
    }
    // A claimed shooter neither moves nor shoots: only c3 sees a1 and b2.
    assert_eq!(check(&pos, "c3-c2/c1"), Err(IllegalMove::ClaimedShooter(sq("c3"))));
    assert_eq!(check(&pos, "a1"), Err(IllegalMove::NoShooterSees(sq("a1"))));
    assert_eq!(check(&pos, "b2"), Err(IllegalMove::NoShooterSees(sq("b2"))));
    assert!(pos.legal_moves().iter().all(|m| !m.to_string().starts_with("c3-")));
    assert_eq!(check(&pos, "d6-d7/d8"), Err(IllegalMove::NoShooter(sq("d6"))));
}

/// A turn without a move is named by its target alone: two shooters seeing the same
/// square give one turn, not two.
#[test]
fn a_shot_seen_by_two_shooters_is_one_turn() {
    let pos = diagram(
        "
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        s . s . . . s
        ",
        'b',
    );
    let b1 = mv(&pos, "b1");
    assert_eq!(pos.legal_moves().iter().filter(|&&m| m == b1).count(), 1);
    let shots = pos.legal_moves().into_iter().filter(|m| !m.to_string().contains('-')).count();
    // a1 sees 13 squares (a2-a7, b1, b2-g7), c1 16 (c2-c7, b1, d1-f1, b2, a3, d2-g5),
    // g1 15 (g2-g7, d1-f1, f2-a7); together 31 different squares.
    assert_eq!(shots, 31);
}

// Claims.

/// A shooter hemmed in by the edge and other shooters touches no group, so the
/// opponent of the player who moved claims it, whoever that is.
#[test]
fn shooter_immobilized_by_edge_and_shooters_goes_to_opponent_of_mover() {
    let rows = "
        . . . . . . . . s
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        s s . . . . . . .
        s . . . s . . . .
        ";
    for (side, mover) in [('b', Color::Black), ('w', Color::White)] {
        let next = after(&diagram(rows, side), "e1-b1/e4");
        assert_eq!(next.claimed(!mover), sq("a1").bitboard(), "{mover} moved");
        assert!(next.claimed(mover).is_empty());
        assert_eq!(next.piece_at(sq("b1")), Some(Piece::Shooter));
    }
}

/// Groups are orthogonal: a black group touching the shooter only at a corner does
/// not count, so with no orthogonal group the claim goes to White.
#[test]
fn diagonally_touching_group_does_not_count() {
    let pos = diagram(
        "
        . . . . . . . . s
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . s . . . .
        . . . . . . . . .
        . . b b . . . . .
        s . b . . . . . .
        s s . . . . . . .
        ",
        'b',
    );
    let next = after(&pos, "b2");
    assert_eq!(next.biggest_adjacent_group(sq("a1"), Color::Black), 0);
    assert_eq!(next.claimed(Color::White), sq("a1").bitboard());
    assert!(next.claimed(Color::Black).is_empty());
}

/// Equal biggest groups: the opponent of the mover claims, for either mover.
#[test]
fn tie_goes_to_opponent_of_mover() {
    let rows = "
        . . . . . . s
        . . . . . . .
        . . . . s . .
        . . . . . . .
        b . . . . . .
        b . . . . . .
        s w w . . . .
        ";
    for (side, mover) in [('b', Color::Black), ('w', Color::White)] {
        let next = after(&diagram(rows, side), "e5-b2/b7");
        assert_eq!(next.biggest_adjacent_group(sq("a1"), Color::Black), 2);
        assert_eq!(next.biggest_adjacent_group(sq("a1"), Color::White), 2);
        assert_eq!(next.claimed(!mover), sq("a1").bitboard(), "{mover} moved");
        assert!(next.claimed(mover).is_empty());
    }
}

/// One shot immobilizes a1 and c1 at once; each is judged on its own groups, so Black
/// claims one and White the other.
#[test]
fn two_shooters_claimed_in_one_turn_can_go_to_different_players() {
    let pos = diagram(
        "
        . . . . . . s
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        b b b w w . .
        s . s w w . .
        ",
        'w',
    );
    let next = after(&pos, "b1");
    // a1: Black a2 b2 c2 (3) against White b1 (1). c1: White d1 d2 e1 e2 (4) against
    // Black a2 b2 c2 (3) and White b1 (1).
    assert_eq!(next.claimed(Color::Black), sq("a1").bitboard());
    assert_eq!(next.claimed(Color::White), sq("c1").bitboard());
    assert_eq!(next.winner(), None);
    assert_eq!(next.side_to_move(), Color::Black);
}

/// Black's shot gives White (tie) her second shooter: White wins on Black's turn.
#[test]
fn winner_can_be_the_player_who_did_not_move() {
    let pos = diagram(
        "
        . . . . . . W
        . . . . . . .
        . . . . . . .
        . . . s . . .
        w . . . . . .
        w b . . . . .
        s . . . . . .
        ",
        'b',
    );
    let next = after(&pos, "b1");
    assert_eq!(next.claims(Color::White), 2);
    assert_eq!(next.winner(), Some(Color::White));
    assert!(next.is_over());
    assert!(next.legal_moves().is_empty());
    assert_eq!(next.count_legal_moves(), 0);
    assert_eq!(next.perft(1), 0);
    assert_eq!(check(&next, "d4-d5/d6"), Err(IllegalMove::GameOver));
}

// Setup.

#[test]
fn setup_shooters_may_not_touch_any_shooter_of_either_player() {
    let mut pos = Position::new(Variant::STANDARD);
    assert_eq!(check(&pos, "c3,d4,h8"), Err(IllegalMove::Adjacent(sq("c3"), sq("d4"))));
    assert_eq!(check(&pos, "c3,c4,h8"), Err(IllegalMove::Adjacent(sq("c3"), sq("c4"))));
    assert_eq!(check(&pos, "c3,f6"), Err(IllegalMove::SetupCount(Color::Black, 3, 2)));
    assert_eq!(check(&pos, "e2-e6/g8"), Err(IllegalMove::SetupExpected(Color::Black, 3)));
    pos = after(&pos, "c3,f6,h8");
    assert_eq!(pos.to_string(), "10/10/7s2/10/5s4/10/10/2s7/10/10 w");
    // White's shooters may not touch Black's, diagonally or orthogonally...
    assert_eq!(check(&pos, "a1,c9,h2,d4"), Err(IllegalMove::Adjacent(sq("c3"), sq("d4"))));
    assert_eq!(check(&pos, "a1,c9,h2,g6"), Err(IllegalMove::Adjacent(sq("f6"), sq("g6"))));
    assert_eq!(check(&pos, "a1,c9,h2,h7"), Err(IllegalMove::Adjacent(sq("h7"), sq("h8"))));
    // ...nor each other, nor stand on them.
    assert_eq!(check(&pos, "a1,a2,h2,j10"), Err(IllegalMove::Adjacent(sq("a1"), sq("a2"))));
    assert_eq!(check(&pos, "a1,c3,h2,j10"), Err(IllegalMove::Occupied(sq("c3"))));
    assert_eq!(check(&pos, "a1,c9,h2"), Err(IllegalMove::SetupCount(Color::White, 4, 3)));
    let done = after(&pos, "a1,c9,h2,j10");
    assert_eq!(done.side_to_move(), Color::Black);
    assert_eq!(check(&done, "a3,c5,e7"), Err(IllegalMove::PlayExpected));
    // Every White setup listed on 7x7 keeps clear of Black's d4 and of itself.
    let seven = after(&Position::new(Variant::from_size(7).unwrap()), "d4");
    let near_d4 = squares(&["c3", "c4", "c5", "d3", "d4", "d5", "e3", "e4", "e5"]);
    let setups = seven.legal_moves();
    assert_eq!(setups.len(), 676);
    for setup in setups {
        let Move::Setup(placed) = setup else { panic!("{setup} is not a setup") };
        assert!((placed & near_d4).is_empty() && placed.count() == 2, "{setup}");
        let [a, b] = [placed.first().unwrap(), placed.iter().last().unwrap()];
        assert!(a.file().abs_diff(b.file()) > 1 || a.rank().abs_diff(b.rank()) > 1, "{setup}");
    }
}

#[test]
fn black_places_one_shooter_on_7x7_and_a_lone_square_is_read_by_phase() {
    let pos = Position::new(Variant::from_size(7).unwrap());
    assert_eq!(mv(&pos, "d4"), Move::Setup(sq("d4").bitboard()));
    let next = after(&pos, "d4");
    assert_eq!(next.to_string(), "7/7/7/3s3/7/7/7 w");
    assert_eq!(check(&next, "a1"), Err(IllegalMove::SetupCount(Color::White, 2, 1)));
    assert_eq!(check(&next, "h8,a1"), Err(IllegalMove::OffBoard(sq("h8"), 7)));
    let done = after(&next, "a1,g7");
    assert_eq!(check(&done, "g8"), Err(IllegalMove::OffBoard(sq("g8"), 7)));
    assert_eq!(check(&done, "d4-d7/d8"), Err(IllegalMove::OffBoard(sq("d8"), 7)));
}
