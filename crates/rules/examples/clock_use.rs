//! The share of the clock each engine used, from match records with a clock: the
//! referee's `TimeUsedBlack` and `TimeUsedWhite` tags against what the clock gave
//! (main time plus an increment per move of that colour), and the time forfeits.
//!
//! Usage: `cargo run --release -p veletas-rules --example clock_use -- RECORD_FILE...`
//!
//! Prints, per engine name: games, the mean share of the clock used per game, the
//! smallest and largest share, the mean share in the longer half of its games (by its own
//! moves: where the clock could run short), its own moves per game, and its losses on time.

use std::collections::BTreeMap;

use veletas_rules::Color;
use veletas_rules::record::{GameRecord, Termination, TimeControl, TimeControls, read_games};

#[derive(Default)]
struct Usage {
    shares: Vec<f64>,
    /// (own moves, share) per game.
    games: Vec<(usize, f64)>,
    moves: usize,
    forfeits: usize,
}

/// Main time and increment of a game whose sides both ran on one Fischer clock.
fn fischer(record: &GameRecord) -> Option<(f64, f64)> {
    match record.time_controls().ok()?? {
        TimeControls::Same(TimeControl::Fischer { main, increment }) => Some((main, increment)),
        _ => None,
    }
}

fn main() {
    let mut by_engine: BTreeMap<String, Usage> = BTreeMap::new();
    for path in std::env::args().skip(1) {
        let records = read_games(std::path::Path::new(&path)).unwrap_or_else(|e| panic!("{path}: {e}")).games;
        for record in records {
            let Some((main, inc)) = fischer(&record) else { continue };
            let Ok(game) = record.replay(None) else { continue };
            // The genmoves each colour answered: the turns it played after the opening.
            let opening_turns = record.opening().map_or(0, |o| o.split_whitespace().count());
            let mut pos = game.start().clone();
            let mut moves = [0usize; 2];
            for (i, mv) in game.moves().enumerate() {
                if i >= opening_turns {
                    moves[pos.side_to_move().index()] += 1;
                }
                pos.play_unchecked(mv);
            }
            let forfeit = record.termination().ok().flatten() == Some(Termination::TimeForfeit);
            let loser = record.winner().map(|w| !w);
            for color in Color::ALL {
                let Some(used) = record.time_used(color).ok().flatten() else { continue };
                let name = record.player(color).unwrap_or("?").to_string();
                let usage = by_engine.entry(name).or_default();
                let n = moves[color.index()];
                // The clock it had: main time and an increment after each move it made.
                let given = main + inc * n as f64;
                if given > 0.0 {
                    usage.shares.push(used / given);
                    usage.games.push((n, used / given));
                }
                usage.moves += n;
                if forfeit && loser == Some(color) {
                    usage.forfeits += 1;
                }
            }
        }
    }
    println!("engine  games  clock_used_mean  min    max    longer_half  moves_per_game  time_forfeits");
    for (name, u) in by_engine.iter_mut() {
        u.games.sort_by_key(|g| g.0);
        let longer = &u.games[u.games.len() / 2..];
        let longer_mean = longer.iter().map(|g| g.1).sum::<f64>() / longer.len().max(1) as f64;
        let n = u.shares.len().max(1) as f64;
        let mean = u.shares.iter().sum::<f64>() / n;
        let min = u.shares.iter().copied().fold(f64::INFINITY, f64::min);
        let max = u.shares.iter().copied().fold(0.0, f64::max);
        println!(
            "{name}  {}  {:.1}%  {:.1}%  {:.1}%  {:.1}%  {:.1}  {}",
            u.shares.len(),
            100.0 * mean,
            100.0 * min,
            100.0 * max,
            100.0 * longer_mean,
            u.moves as f64 / n,
            u.forfeits
        );
    }
}
