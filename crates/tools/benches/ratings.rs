//! Criterion benchmark of the field ratings: 100 engines rated from 100,000 games (the
//! figure quoted in docs/ratings.md; the target is well under a second).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use veletas_rules::{Color, Rng};
use veletas_tools::ratings::{RatedGame, RatingOptions, rate};

/// 100 engines 10 Elo apart (990 Elo from first to last), 100,000 games between random
/// pairs with random colours, results drawn from the model (fixed seed).
fn field() -> Vec<RatedGame> {
    let mut rng = Rng::new(7);
    let names: Vec<String> = (0..100).map(|i| format!("engine-{i:03}")).collect();
    (0..100_000)
        .map(|_| {
            let a = rng.below(100) as usize;
            let b = (a + 1 + rng.below(99) as usize) % 100;
            let p = veletas_tools::stats::expected_score((b as f64 - a as f64) * 10.0);
            let winner = if rng.unit() < p { Color::Black } else { Color::White };
            RatedGame::new(&names[a], &names[b], winner)
        })
        .collect()
}

fn ratings(c: &mut Criterion) {
    let games = field();
    let options = RatingOptions::default();
    let standings = rate(&games, &options).expect("a connected field");
    assert_eq!(standings.engines.len(), 100);
    let mut group = c.benchmark_group("ratings");
    group.sample_size(20);
    group.bench_function("rate_100_engines_100000_games", |b| b.iter(|| rate(black_box(&games), &options)));
    group.bench_function("text_100_engines", |b| b.iter(|| black_box(&standings).text(true).len()));
    group.finish();
}

criterion_group!(benches, ratings);
criterion_main!(benches);
