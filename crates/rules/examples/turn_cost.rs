//! Plays recorded random games again with `play_turn_unchecked`, for counting the
//! instructions a turn costs under callgrind: run it with REPLAYS 1 and 11; the
//! difference over 10 x TURNS is the cost of one turn.
//!
//! Usage: cargo run --release -p veletas-rules --example turn_cost -- GAMES REPLAYS [classic|modern]

use std::hint::black_box;
use veletas_rules::{Phase, PlayoutPolicy, Position, Rng, Rules, Turn, Variant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let replays: u32 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let rules = match args.get(3).map(String::as_str) {
        Some("modern") => Rules::MODERN,
        _ => Rules::CLASSIC,
    };
    let mut rng = Rng::new(7);
    let mut recorded: Vec<(Position, Vec<Turn>)> = Vec::new();
    for game in 0..games {
        let mut pos = Position::with_rules(Variant::STANDARD, rules);
        while pos.phase() != Phase::Play {
            let mv = pos.random_move(&mut rng, PlayoutPolicy::Cheap).expect("a setup turn");
            pos.play_unchecked(mv);
        }
        let start = pos.clone();
        let policy = if game % 2 == 0 { PlayoutPolicy::Cheap } else { PlayoutPolicy::Uniform };
        let mut turns = Vec::new();
        while let Some(turn) = pos.random_turn(&mut rng, policy) {
            pos.play_turn_unchecked(turn);
            turns.push(turn);
        }
        recorded.push((start, turns));
    }
    let total: usize = recorded.iter().map(|(_, t)| t.len()).sum();
    let mut check = 0u64;
    for _ in 0..replays {
        for (start, turns) in &recorded {
            let mut pos = start.clone();
            for &turn in turns {
                pos.play_turn_unchecked(black_box(turn));
            }
            check += u64::from(black_box(&pos).claims(veletas_rules::Color::Black));
        }
    }
    println!("{games} games, {total} turns, replayed {replays} times (check {check})");
}
