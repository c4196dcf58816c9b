//! Perft for the modern rules: the fast `Position::perft` against the counts frozen in
//! `tests/data/modern_perft.txt` (computed by the reference in `tests/modern_ref`), and
//! against the reference directly at small depths.
//!
//! `cargo test --release --test modern_perft -- --ignored` checks the `slow` entries
//! with the fast perft and recomputes every frozen count with the reference.

use crate::frozen_perft;
use crate::modern_ref;

use frozen_perft::Entry;
use modern_ref::RefPos;
use veletas_rules::Position;

/// The entries of `tests/data/modern_perft.txt`.
fn frozen() -> Vec<Entry> {
    frozen_perft::parse(include_str!("../data/modern_perft.txt"))
}

fn position(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn fast_perft_matches_the_frozen_modern_counts() {
    let entries = frozen();
    assert!(entries.len() >= 10);
    for entry in entries.iter().filter(|e| !e.slow) {
        assert_eq!(
            position(&entry.position).perft(entry.depth),
            entry.count,
            "{} depth {}",
            entry.position,
            entry.depth
        );
    }
}

#[test]
fn fast_perft_matches_the_reference_at_depth_two_in_play() {
    for text in [
        "7/7/2ss3/3s3/7/1b5/5w1 b modern",
        "1wb4/5s1/s2b3/2b4/4w1s/3w3/1w1b3 b modern no-corners",
        "7/7/5w1/3s3/7/2b4/s1B4 b modern claimed-block",
        "7/7/3s3/7/b6/1b5/sB5 b modern claimed-block",
    ] {
        let pos = position(text);
        let reference = RefPos::from_fast(&pos);
        assert_eq!(pos.perft(1), reference.perft(1), "{text}");
        assert_eq!(pos.perft(2), reference.perft(2), "{text}");
    }
}

#[test]
#[ignore = "minutes: recomputes every frozen count with the reference"]
fn reference_perft_reproduces_every_frozen_modern_count() {
    // The fast perft checks every slow entry; the reference, CI's sample of the entries.
    let sample = crate::common::sample::Sample::from_env();
    for (i, entry) in frozen().into_iter().enumerate() {
        let pos = position(&entry.position);
        if entry.slow {
            assert_eq!(pos.perft(entry.depth), entry.count, "fast: {} depth {}", entry.position, entry.depth);
        }
        if !sample.keeps(i) {
            continue;
        }
        let start = std::time::Instant::now();
        let count = RefPos::from_fast(&pos).perft(entry.depth);
        println!("{} ; {} ; {count} (reference {:.1?})", entry.position, entry.depth, start.elapsed());
        assert_eq!(count, entry.count, "reference: {} depth {}", entry.position, entry.depth);
    }
}
