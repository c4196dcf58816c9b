//! Perft: the fast `Position::perft` against the reference perft (built on the slow
//! reference generator) at small depths, and against the counts frozen in
//! `tests/data/perft.txt`, which the reference computed once.
//!
//! `cargo test --release --test perft -- --ignored` checks the entries marked `slow`
//! with the fast perft and recomputes every frozen count with the reference (minutes).

use crate::common;
use crate::frozen_perft;

use std::sync::Mutex;

use common::reference::RefPos;
use common::sample::Sample;
use frozen_perft::Entry;
use veletas_rules::Position;

/// The entries of `tests/data/perft.txt`.
fn frozen() -> Vec<Entry> {
    frozen_perft::parse(include_str!("../data/perft.txt"))
}

fn position(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Checks the fast perft against the reference perft at every depth up to `depth`.
fn assert_perft_agrees(text: &str, depth: u32) {
    let fast = position(text);
    let reference = RefPos::parse(text);
    for d in 1..=depth {
        assert_eq!(fast.perft(d), reference.perft(d), "perft({d}) of {text}");
    }
}

#[test]
fn perft_agrees_with_reference_on_7x7() {
    for (text, depth) in [
        ("7/7/7/7/7/7/7 b", 3),
        ("7/7/7/3s3/7/7/7 w", 2),
        ("7/7/2s4/7/4s2/1s5/7 b", 2),
        ("1s5/7/7/7/7/1s5/4s2 b", 2),
        ("wb2w1w/wsb1bws/2wb2w/w2wbbb/1bww1bb/2wbwbw/b4bB b", 4),
        ("4w1s/b1b2w1/bs2w2/2b1w1w/1b1bb2/wbs4/2bwww1 b", 3),
    ] {
        assert_perft_agrees(text, depth);
    }
}

#[test]
fn perft_agrees_with_reference_on_9x9() {
    for (text, depth) in [
        ("9/9/9/9/9/9/9/9/9 b", 2),
        ("4s4/9/4s4/9/9/1s3s3/9/3s5/9 b", 2),
        ("w2wwbb2/2wwb1b1w/1bb1bsw2/b1bww1bb1/2bBbb3/wbswwbww1/wbb1bw2w/1wwwbwbw1/wswbBb1bb w", 4),
    ] {
        assert_perft_agrees(text, depth);
    }
}

#[test]
fn perft_agrees_with_reference_on_10x10() {
    for (text, depth) in [
        ("10/10/10/10/10/10/10/10/10/10 b", 1),
        ("9s/2s7/7s2/10/5s4/10/10/2s7/7s2/s9 b", 2),
        ("wbb1b1s3/1b1w1w4/4wbw1sw/1b3w3w/s1b2sw1w1/b3bw4/1b5w2/b2sswb1b1/9b/5sw3 b", 2),
        ("WBw3w3/wbbwbwbb1w/wbbb1wwbw1/b2sb1wWw1/1bwbbswbbb/ww1wbbbwwW/3bw1wwwb/b1bsbbww2/2wwbb3w/4w3b1 b", 4),
    ] {
        assert_perft_agrees(text, depth);
    }
}

#[test]
fn frozen_perft_counts_match() {
    let entries = frozen();
    assert!(entries.iter().filter(|e| !e.slow).count() >= 10);
    for entry in entries.iter().filter(|e| !e.slow) {
        assert_eq!(position(&entry.position).perft(entry.depth), entry.count, "{} ; {}", entry.position, entry.depth);
    }
}

#[test]
#[ignore]
fn slow_frozen_perft_counts_match() {
    for entry in frozen().iter().filter(|e| e.slow) {
        assert_eq!(position(&entry.position).perft(entry.depth), entry.count, "{} ; {}", entry.position, entry.depth);
    }
}

/// Recomputes every frozen count with the reference, on all available cores (CI: a
/// sample of the entries, see [`Sample`]).
#[test]
#[ignore]
fn reference_confirms_frozen_perft_counts() {
    let sample = Sample::from_env();
    let entries: Vec<Entry> =
        frozen().into_iter().enumerate().filter(|(i, _)| sample.keeps(*i)).map(|(_, entry)| entry).collect();
    let next = Mutex::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = {
                        let mut next = next.lock().unwrap();
                        *next += 1;
                        *next - 1
                    };
                    let Some(entry) = entries.get(i) else { break };
                    let count = RefPos::parse(&entry.position).perft(entry.depth);
                    assert_eq!(count, entry.count, "{} ; {}", entry.position, entry.depth);
                }
            });
        }
    });
}
