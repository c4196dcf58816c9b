//! Game lengths from match records, for the clock: for every play-phase position of every
//! game, the side to move's turns still to come, next to what the time manager expects.
//!
//! Usage: `cargo run --release --example game_lengths -- RECORD_FILE...`
//!
//! Prints a table by empty squares (in bands of 10): positions, the mean and the 90th
//! percentile of the turns the side to move still played, and today's estimate
//! ([`veletas::player::time::expected_moves`]).

use veletas::player::time::expected_moves;
use veletas::rules::{Move, Phase};

fn main() {
    let mut rows: Vec<(u32, u32, u32)> = Vec::new(); // (empty squares, own turns to come, estimate)
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let records = veletas::record::parse_records(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        for record in records {
            let Ok(game) = record.replay(None) else { continue };
            let moves: Vec<Move> = game.moves().collect();
            let mut pos = game.start().clone();
            let total = moves.len();
            for (i, mv) in moves.iter().enumerate() {
                if pos.phase() == Phase::Play {
                    // Turns still to come in the game, this one included; the side to
                    // move plays every other one.
                    let left = (total - i) as u32;
                    rows.push((pos.empty_squares().count(), left.div_ceil(2), expected_moves(&pos)));
                }
                pos.play_unchecked(*mv);
            }
        }
    }
    println!("empty  positions  own_turns_mean  own_turns_p90  estimate_mean");
    for band in (0..10).rev() {
        let mut own: Vec<u32> = rows.iter().filter(|r| r.0 / 10 == band).map(|r| r.1).collect();
        if own.is_empty() {
            continue;
        }
        own.sort_unstable();
        let est: Vec<u32> = rows.iter().filter(|r| r.0 / 10 == band).map(|r| r.2).collect();
        let mean = own.iter().sum::<u32>() as f64 / own.len() as f64;
        let p90 = own[own.len() * 9 / 10];
        let est_mean = est.iter().sum::<u32>() as f64 / est.len() as f64;
        println!(
            "{:>2}-{:<2}  {:>9}  {:>14.1}  {:>13}  {:>13.1}",
            band * 10,
            band * 10 + 9,
            own.len(),
            mean,
            p90,
            est_mean
        );
    }
}
