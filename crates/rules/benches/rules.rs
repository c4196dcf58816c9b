//! Criterion benchmarks of the rules core: move generation, perft with bulk counting,
//! and random playouts on 10x10.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use veletas_rules::{Game, PlayoutPolicy, Position, Rng, Variant};

/// 10x10 after Black `c3,f6,h8` and White `a1,c9,h2,j10`: 4,041 turns.
fn opening() -> Position {
    let mut game = Game::new(Variant::STANDARD);
    for text in ["c3,f6,h8", "a1,c9,h2,j10"] {
        let mv = game.position().parse_move(text).expect("valid notation");
        game.play(mv).expect("legal setup");
    }
    game.position().clone()
}

fn movegen(c: &mut Criterion) {
    let pos = opening();
    let turns = pos.count_legal_moves();
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(turns));
    group.bench_function("list_10x10_opening", |b| {
        let mut list = Vec::with_capacity(8192);
        b.iter(|| {
            list.clear();
            black_box(&pos).legal_turns(&mut list);
            list.len()
        })
    });
    group.bench_function("count_10x10_opening", |b| b.iter(|| black_box(&pos).count_legal_moves()));
    group.finish();
}

fn perft(c: &mut Criterion) {
    let pos = opening();
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.throughput(Throughput::Elements(15_557_219));
    group.bench_function("perft2_10x10_opening", |b| b.iter(|| black_box(&pos).perft(2)));
    group.finish();
}

fn playouts(c: &mut Criterion) {
    let pos = opening();
    let mut group = c.benchmark_group("playout");
    group.throughput(Throughput::Elements(1));
    for (name, policy) in [("cheap_10x10", PlayoutPolicy::Cheap), ("uniform_10x10", PlayoutPolicy::Uniform)] {
        let mut rng = Rng::new(1);
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut p = pos.clone();
                p.playout(&mut rng, policy)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, movegen, perft, playouts);
criterion_main!(benches);
