//! Move counts and perft figures published with the rules-core issue.

use veletas_rules::{Game, Position, Variant};

fn game_after(size: u8, moves: &[&str]) -> Game {
    let mut game = Game::new(Variant::from_size(size).unwrap());
    for text in moves {
        let mv = game.position().parse_move(text).unwrap();
        game.play(mv).unwrap();
    }
    game
}

#[test]
fn setup_counts_match_the_published_figures() {
    assert_eq!(game_after(10, &[]).position().count_legal_moves(), 129_984);
    assert_eq!(game_after(10, &["c3,f6,h8"]).position().count_legal_moves(), 720_731);
    assert_eq!(game_after(9, &[]).position().count_legal_moves(), 2_968);
    assert_eq!(game_after(9, &["c3,g7"]).position().count_legal_moves(), 30_186);
    assert_eq!(game_after(7, &[]).position().count_legal_moves(), 49);
    assert_eq!(game_after(7, &["d4"]).position().count_legal_moves(), 676);
}

#[test]
fn setup_lists_match_setup_counts() {
    for (size, moves) in [(9, vec![]), (9, vec!["c3,g7"]), (7, vec![]), (7, vec!["d4"])] {
        let game = game_after(size, &moves);
        let pos = game.position();
        assert_eq!(pos.legal_moves().len() as u64, pos.count_legal_moves());
    }
}

#[test]
fn first_turn_counts_on_10x10_match() {
    let game = game_after(10, &["c3,f6,h8", "a1,c9,h2,j10"]);
    assert_eq!(game.position().count_legal_moves(), 4_041);
    assert_eq!(game.position().legal_moves().len(), 4_041);
    assert_eq!(game.position().perft(2), 15_557_219);
}

#[test]
fn perft_on_7x7_matches() {
    let pos: Position = "7/7/2s4/7/4s2/1s5/7 b".parse().unwrap();
    assert_eq!(pos.perft(1), 1_034);
    assert_eq!(pos.perft(2), 940_718);
}
