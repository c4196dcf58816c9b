//! The immediate-win finder (`search::tactics::winning_turn`) against brute force (every
//! legal turn played out) on every position of many random games: it finds a win exactly
//! when one exists, and what it finds wins. The default run is short; the `#[ignore]`d
//! one (run in release by scripts/test.sh) plays thousands of games, enough to reach the
//! rare turns whose shot only decides who claims a shooter the move closed.

use veletas_engine::search::tactics::winning_turn;
use veletas_rules::{Move, Phase, PlayoutPolicy, Position, Rng, Rules, Variant};

/// Every legal turn that wins at once, found by playing each out.
fn brute_force_winning_turns(pos: &Position) -> Vec<String> {
    let mut turns = Vec::new();
    pos.legal_turns(&mut turns);
    turns
        .into_iter()
        .filter(|&t| {
            let mut next = pos.clone();
            next.play_turn_unchecked(t);
            next.winner() == Some(pos.side_to_move())
        })
        .map(|t| t.to_string())
        .collect()
}

fn brute_force_wins(pos: &Position) -> bool {
    !brute_force_winning_turns(pos).is_empty()
}

/// Plays `games` random games of every size and rule set (both playout policies) and
/// checks every position in play; returns how many positions had a win.
fn check(games: usize, seed: u64, rule_sets: &[Rules]) -> usize {
    let mut rng = Rng::new(seed);
    let mut with_win = 0;
    for variant in Variant::all() {
        for (i, &rules) in rule_sets.iter().enumerate() {
            for game in 0..games {
                let policy = if game % 2 == 0 { PlayoutPolicy::Uniform } else { PlayoutPolicy::Cheap };
                let mut pos = Position::with_rules(variant, rules);
                while !pos.is_over() {
                    if pos.phase() == Phase::Play {
                        let fast = winning_turn(&pos);
                        let slow = brute_force_wins(&pos);
                        assert_eq!(fast.is_some(), slow, "rules {i}, {pos}");
                        if let Some(t) = fast {
                            let mut next = pos.clone();
                            next.play(Move::Turn(t)).expect("a legal turn");
                            assert_eq!(next.winner(), Some(pos.side_to_move()), "{pos}: {t}");
                            with_win += 1;
                        }
                    }
                    let mv = pos.random_move(&mut rng, policy).expect("a move while the game is on");
                    pos.play_unchecked(mv);
                }
            }
        }
    }
    with_win
}

/// Black has 3 claims of 4. Moving c6-c2 closes the shooter on d1, whose orthogonal
/// groups tie 3-3 (white's a1-c1, black's e1-e3), so White would claim it; only a shot
/// that grows black's group (d3 or e4) makes it Black's. Filling c2 with a stone alone
/// leaves the tie, and every other shot after c6-c2 too.
#[test]
fn finds_the_win_whose_shot_only_grows_a_group_next_to_the_closed_shooter() {
    let pos: Position = "B1B1B5/10/7s2/10/2s7/9s/10/4b5/3wb5/wwwsb5 b".parse().expect("a position");
    assert!(brute_force_wins(&pos));
    let turn = winning_turn(&pos).expect("the win is found");
    assert!(["c6-c2/d3", "c6-c2/e4"].contains(&turn.to_string().as_str()), "{turn}");
}

/// Modern rules, 9x9, Black has 2 claims of 3. The shooter on d4 reaches only f6 (over
/// the claimed shooter on e5), and its orthogonal groups tie 2-2 (black d5-d6 and e4,
/// white b4-c4 and d3-e3), so a shot on f6 would trap it for White. Only moving i6-f6
/// traps it and leaves the shot free: e6 grows black's d5-d6 and makes the claim Black's.
#[test]
fn finds_the_modern_win_whose_move_traps_and_whose_shot_grows_a_group() {
    let pos: Position = "9/9/6w2/1w1b4s/2BbW4/1wwsb4/2Bww4/1w7/9 b modern".parse().expect("a position");
    let winning = brute_force_winning_turns(&pos);
    assert_eq!(winning, ["i6-f6/e6"]);
    assert_eq!(winning_turn(&pos).map(|t| t.to_string()).as_deref(), Some("i6-f6/e6"));
}

#[test]
fn finds_a_win_exactly_when_one_exists() {
    assert!(check(20, 5, &Rules::all()) > 100);
}

#[test]
#[ignore = "slow: thousands of games, run in release by scripts/test.sh"]
fn finds_a_win_exactly_when_one_exists_over_many_games() {
    assert!(check(1000, 6, &[Rules::CLASSIC, Rules::CLASSIC.with_no_corners(true)]) > 10_000);
}

#[test]
#[ignore = "slow: hundreds of games, run in release by scripts/test.sh"]
fn finds_a_win_exactly_when_one_exists_over_many_modern_games() {
    let modern: Vec<Rules> = Rules::all().into_iter().filter(|r| r.is_modern()).collect();
    assert!(modern.len() >= 3);
    assert!(check(1000, 7, &modern) > 1000);
}
