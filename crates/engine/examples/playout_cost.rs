//! Runs random playouts from the bench positions (`crates/engine/data/bench.txt`), for counting the
//! instructions a playout costs under callgrind: run it with PLAYOUTS N and 2N; the
//! difference over 4N (four positions) is the cost of one playout. It uses only the
//! rules' public interface of v0.1.0, so the same file measures that version too.
//!
//! Usage: cargo run --release -p veletas-engine --example playout_cost -- PLAYOUTS [cheap|uniform]

use std::hint::black_box;
use veletas_rules::{Color, PlayoutPolicy, Position, Rng};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let playouts: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let policy = match args.get(2).map(String::as_str) {
        Some("uniform") => PlayoutPolicy::Uniform,
        _ => PlayoutPolicy::Cheap,
    };
    let positions: Vec<Position> = include_str!("../data/bench.txt")
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| line.split_once(' ').expect("DEPTH POSITION").1.parse().expect("a position string"))
        .collect();
    let mut rng = Rng::new(11);
    let mut black = 0u32;
    for position in &positions {
        for _ in 0..playouts {
            if black_box(position.clone()).playout(&mut rng, policy) == Color::Black {
                black += 1;
            }
        }
    }
    println!("{playouts} playouts from {} positions, Black won {black}", positions.len());
}
