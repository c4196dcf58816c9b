//! The `claimed-block` option of the modern rules (boardspace.net's dialect): the
//! situations that tell it apart from our modern rules, each checked with the fast
//! rules and the plain reference in `tests/modern_ref`; and how the option is set (position
//! strings, records). The protocol's side (`option`, `rules`, the situations played through
//! `run`) is the engine crate's (crates/engine/tests/engine/claimed_block.rs).

use crate::modern_ref;

use modern_ref::RefPos;
use veletas_rules::record::GameRecord;
use veletas_rules::{Color, IllegalMove, Move, ParsePositionError, Position, Rules, RulesError, Variant};

fn pos(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn mv(position: &Position, text: &str) -> Move {
    position.parse_move(text).unwrap()
}

/// Whether `text` is legal at `position` for the fast rules, and for the reference.
fn legal_both(position: &Position, text: &str) -> bool {
    let fast = position.is_legal(mv(position, text));
    let slow = RefPos::from_fast(position).find(text).is_some();
    assert_eq!(fast, slow, "fast and reference disagree on {text} at {position}");
    fast
}

/// 7x7: an unclaimed shooter on a1, a shooter claimed by Black on c1, another on d4.
const PAST: &str = "7/7/5w1/3s3/7/2b4/s1B4 b modern";

#[test]
fn a_move_past_a_claimed_shooter_is_blocked_only_with_claimed_block() {
    let (modern, block) = (pos(PAST), pos(&format!("{PAST} claimed-block")));
    assert!(legal_both(&modern, "a1-e1/e2"));
    assert!(!legal_both(&block, "a1-e1/e2"));
    let err = block.check_move(mv(&block, "a1-e1/e2")).unwrap_err();
    assert_eq!(err.to_string(), "the path from a1 to e1 is blocked at c1");
    // Up to the claimed shooter the path is open.
    assert!(legal_both(&block, "a1-b1/b7"));
}

#[test]
fn a_shot_past_a_claimed_shooter_is_blocked_only_with_claimed_block() {
    let (modern, block) = (pos(PAST), pos(&format!("{PAST} claimed-block")));
    // After a move: d4-d1, then a shot back along rank 1 over c1.
    assert!(legal_both(&modern, "d4-d1/b1"));
    assert!(!legal_both(&block, "d4-d1/b1"));
    let err = block.check_move(mv(&block, "d4-d1/b1")).unwrap_err();
    assert_eq!(err, IllegalMove::ShotBlocked("d1".parse().unwrap(), "b1".parse().unwrap(), "c1".parse().unwrap()));
    // Without a move: only a1 sees e1, over c1.
    assert!(legal_both(&modern, "e1"));
    assert!(!legal_both(&block, "e1"));
    assert_eq!(
        block.check_move(mv(&block, "e1")).unwrap_err().to_string(),
        "no unclaimed shooter has a clear line to e1"
    );
}

#[test]
fn unclaimed_shooters_are_still_passed_over_with_claimed_block() {
    let block = pos(&format!("{PAST} claimed-block"));
    // a1 to e5 along the diagonal over the unclaimed shooter on d4, then a shot back over it.
    assert!(legal_both(&block, "a1-e5/c3"));
    assert!(legal_both(&block, "a1-f6/b2"));
}

/// 7x7: a1 can leave only along rank 1 over the shooter Black claimed on b1 (a2 aside).
const TRAP: &str = "7/7/3s3/7/b6/1b5/sB5 b modern";

#[test]
fn a_shooter_trapped_only_because_a_claimed_shooter_blocks_is_claimed() {
    for (rules, trapped) in [("", false), (" claimed-block", true)] {
        let start = pos(&format!("{TRAP}{rules}"));
        let mut fast = start.clone();
        let shot = mv(&fast, "a2");
        fast.play(shot).unwrap();
        let mut slow = RefPos::from_fast(&start);
        slow.play(&slow.find("a2").unwrap());
        assert_eq!(RefPos::from_fast(&fast), slow, "{rules}");
        // Trapped: Black's group a2-a3 is next to it, so Black claims it: a second claim wins.
        let expected = if trapped { Some(Color::Black) } else { None };
        assert_eq!(fast.winner(), expected, "{rules}: {fast}");
        assert_eq!(slow.winner(), expected.map(|c| c == Color::Black));
    }
    // Set up directly, such a shooter is immobilized: no position.
    let err = "7/7/3s3/7/b6/bb5/sB5 b modern claimed-block".parse::<Position>().unwrap_err();
    assert_eq!(err, ParsePositionError::Immobilized("a1".parse().unwrap()));
    assert!("7/7/3s3/7/b6/bb5/sB5 b modern".parse::<Position>().is_ok());
}

#[test]
fn the_counts_differ_and_agree_with_the_reference() {
    for text in [PAST, TRAP] {
        for rules in ["", " claimed-block"] {
            let position = pos(&format!("{text}{rules}"));
            let reference = RefPos::from_fast(&position);
            assert_eq!(position.perft(1), reference.perft(1), "{position}");
        }
        assert_ne!(pos(text).perft(1), pos(&format!("{text} claimed-block")).perft(1));
    }
}

#[test]
fn the_option_needs_the_modern_rules() {
    assert_eq!(Rules::new(veletas_rules::RuleSet::Classic, false, true), Err(RulesError::ClaimedBlockNeedsModern));
    let err = "7/7/7/7/7/7/7 b claimed-block".parse::<Position>().unwrap_err();
    assert_eq!(err, ParsePositionError::Rules(RulesError::ClaimedBlockNeedsModern));
    assert_eq!(
        err.to_string(),
        "claimed-block is an option of the modern rules only (in the classic rules every shooter blocks)"
    );
    // Position strings: the word in any order, written after no-corners.
    let p = pos("7/7/7/3s3/7/7/1b5 w claimed-block no-corners modern noswap");
    assert_eq!(p.to_string(), "7/7/7/3s3/7/7/1b5 w modern noswap no-corners claimed-block");
    assert_eq!(p.rules(), Rules::BOARDSPACE.with_no_corners(true));
    assert_eq!(
        Position::with_rules(Variant::STANDARD, Rules::BOARDSPACE).to_string(),
        "10/10/10/10/10/10/10/10/10/10 b modern claimed-block"
    );
}

#[test]
fn records_carry_the_option_in_the_rules_tag() {
    let mut record = GameRecord::default();
    record.set_tag("Size", "7");
    record.set_tag("Rules", "modern claimed-block");
    assert_eq!(record.rules(), Ok(Rules::BOARDSPACE));
    record.set_tag("Rules", "modern no-corners claimed-block");
    assert_eq!(record.rules(), Ok(Rules::BOARDSPACE.with_no_corners(true)));
    assert_eq!(record.start_position().unwrap().to_string(), "7/7/7/7/7/7/7 b modern no-corners claimed-block");
    for bad in ["classic claimed-block", "modern claimed-block claimed-block", "claimed-block"] {
        record.set_tag("Rules", bad);
        assert!(record.rules().is_err(), "{bad}");
    }
}

/// 7x7, rank 1: a white stone, three shooters b1 c1 d1, a white stone. c1 can only go to
/// c2; Black's shot there traps it, and Black claims it (its group c2-c3).
const SHADOW: &str = "7/7/7/7/2b4/1b1b3/wsssw2 b modern";

#[test]
fn a_shooter_claimed_in_the_game_blocks_from_then_on() {
    for (rules, blocked) in [("", false), (" claimed-block", true)] {
        let mut fast = pos(&format!("{SHADOW}{rules}"));
        let mut slow = RefPos::from_fast(&fast);
        // The claim, then d1 leaves the claimed shooter's shadow, emptying a square next to it.
        for text in ["c2", "d1-e2/e3"] {
            let m = mv(&fast, text);
            fast.play(m).unwrap();
            slow.play(&slow.find(text).unwrap());
            assert_eq!(RefPos::from_fast(&fast), slow, "{rules}: {text}");
        }
        assert_eq!(fast.claims(Color::Black), 1, "{fast}");
        // b1 over the claimed c1 to the emptied d1, and the shot on from there.
        assert_eq!(legal_both(&fast, "b1-d1/f3"), !blocked, "{fast}");
        if blocked {
            let err = fast.check_move(mv(&fast, "b1-d1/f3")).unwrap_err();
            assert_eq!(err.to_string(), "the path from b1 to d1 is blocked at c1");
        }
        // The position after the claim is the position its string describes.
        assert_eq!(fast.to_string().parse::<Position>().as_ref(), Ok(&fast));
        assert_eq!(fast.perft(1), slow.perft(1), "{fast}");
    }
}
