//! Players: legal moves, determinism under a fixed seed and playout budget, tactics.

use veletas::rules::{Game, Move, PlayoutPolicy, Position, Rng, Variant};
use veletas::search::{Limits, Player, PlayerKind, SearchSettings};

fn budget(iterations: u64) -> Limits {
    Limits { iterations: Some(iterations), ..Default::default() }
}

fn player(kind: PlayerKind, seed: u64) -> Player {
    Player::new(SearchSettings { player: kind, seed, ..Default::default() })
}

/// A game of `size` after both setups and `plies` random turns.
fn random_game(size: u8, seed: u64, plies: usize) -> Game {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(Variant::from_size(size).unwrap());
    for _ in 0..plies + 2 {
        let Some(mv) = game.position().random_move(&mut rng, PlayoutPolicy::Uniform) else { break };
        game.play(mv).unwrap();
    }
    game
}

#[test]
fn every_player_returns_legal_moves_through_a_whole_game() {
    for kind in PlayerKind::ALL {
        for size in [7, 9] {
            let mut game = Game::new(Variant::from_size(size).unwrap());
            let mut p = player(kind, 3);
            while !game.position().is_over() {
                let result = p.choose(&game, &budget(200)).expect("a move while the game goes on");
                game.play(result.best).unwrap_or_else(|e| panic!("{kind} played {}: {e}", result.best));
            }
            assert!(p.choose(&game, &budget(10)).is_none());
        }
    }
}

#[test]
fn same_seed_and_budget_give_the_same_move() {
    let game = random_game(10, 5, 10);
    for kind in PlayerKind::ALL {
        let a = player(kind, 11).choose(&game, &budget(2000)).unwrap();
        let b = player(kind, 11).choose(&game, &budget(2000)).unwrap();
        assert_eq!(a.best, b.best, "{kind}");
        assert_eq!(a.visits, b.visits, "{kind}");
    }
}

#[test]
fn two_threads_with_a_budget_are_deterministic_too() {
    let game = random_game(10, 8, 6);
    let settings = SearchSettings { threads: 2, seed: 4, ..Default::default() };
    let a = Player::new(settings.clone()).choose(&game, &budget(4000)).unwrap();
    let b = Player::new(settings).choose(&game, &budget(4000)).unwrap();
    assert_eq!(a.best, b.best);
    assert_eq!(a.visits, 4000);
}

#[test]
fn search_reports_visits_candidates_and_a_principal_variation() {
    let game = random_game(10, 21, 4);
    let result = player(PlayerKind::Veletas, 1).choose(&game, &budget(3000)).unwrap();
    assert_eq!(result.visits, 3000);
    assert_eq!(result.pv.first(), Some(&result.best));
    assert!(!result.candidates.is_empty());
    assert!(result.candidates.windows(2).all(|w| w[0].visits >= w[1].visits));
    assert!((0.0..=1.0).contains(&result.win_rate));
    let mut pos: Position = game.position().clone();
    for mv in &result.pv {
        pos.play(*mv).expect("the principal variation is a legal line");
    }
}

#[test]
fn engine_takes_an_immediate_win() {
    // Black to move on 7x7 with one claim: shooting d2 immobilizes the shooter on d1
    // next to Black's group, which wins the game.
    let pos: Position = "7/7/2s4/7/7/2b1w2/Bbbsb1w b".parse().unwrap();
    let winning: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|&mv| {
            let mut next = pos.clone();
            next.play(mv).unwrap();
            next.winner() == Some(pos.side_to_move())
        })
        .collect();
    assert!(!winning.is_empty(), "the test position must have a winning turn");
    let game = Game::from_position(pos);
    let result = player(PlayerKind::Veletas, 2).choose(&game, &budget(100)).unwrap();
    assert!(winning.contains(&result.best), "played {}", result.best);
}

#[test]
fn setup_is_chosen_by_search_and_is_legal() {
    for size in [7, 9, 10] {
        let mut game = Game::new(Variant::from_size(size).unwrap());
        for _ in 0..2 {
            let result = player(PlayerKind::Veletas, 9).choose(&game, &budget(2000)).unwrap();
            game.play(result.best).unwrap();
        }
    }
}
