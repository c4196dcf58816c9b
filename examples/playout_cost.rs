//! Runs cheap random playouts from the bench positions, for counting the instructions
//! a playout costs under callgrind: run it with PLAYOUTS N and 2N; the difference over
//! N is the cost of one playout per bench position.
//!
//! Usage: cargo run --release --example playout_cost -- PLAYOUTS [cheap|uniform]

use std::hint::black_box;
use veletas::rules::{Color, PlayoutPolicy, Rng};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let playouts: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let policy = match args.get(2).map(String::as_str) {
        Some("uniform") => PlayoutPolicy::Uniform,
        _ => PlayoutPolicy::Cheap,
    };
    let positions = veletas::bench::parse_bench(veletas::bench::BENCH_POSITIONS).expect("the built-in positions");
    let mut rng = Rng::new(11);
    let mut black = 0u32;
    for bench in &positions {
        for _ in 0..playouts {
            if black_box(bench.position.clone()).playout(&mut rng, policy) == Color::Black {
                black += 1;
            }
        }
    }
    println!("{playouts} playouts from {} positions, Black won {black}", positions.len());
}
