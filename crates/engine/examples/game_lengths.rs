//! Game lengths from match records, for the clock: for every play-phase position of every
//! game, the side to move's turns still to come, next to what the time manager expects.
//!
//! Usage: `cargo run --release -p veletas-engine --example game_lengths -- [--fit OUT] RECORD_FILE...`
//!
//! With `--fit OUT`, first fits the length model ([`veletas_engine::player::length`]) to the
//! games, one linear model per board size and rule set, writes its weights to `OUT` (the
//! engine's are `crates/engine/data/game-lengths.txt`) and tabulates with them; otherwise tabulates
//! with the built-in weights. The table, per board size and rule set and by empty
//! squares (in bands of 10): positions, the mean and the 90th percentile of the turns the
//! side to move still played, the old estimate (a quarter of the empty squares, 8 to 30)
//! and the model's ([`veletas_engine::player::length::expected_turns`]), both as means, and the
//! share of positions whose real count is at most the model's estimate.

use std::collections::BTreeMap;

use veletas_engine::player::length::{self, LengthFeatures, LengthModel};
use veletas_rules::{Move, Phase, Position, RuleSet};

/// One play-phase position: its features, empty squares, own turns to come, old estimate.
struct Row {
    features: LengthFeatures,
    position: Position,
    empty: u32,
    own: u32,
}

fn old_estimate(pos: &Position) -> u32 {
    (pos.empty_squares().count() / 4).clamp(8, 30)
}

fn rule_set(modern: bool) -> RuleSet {
    if modern { RuleSet::Modern } else { RuleSet::Classic }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let fit_to = match args.iter().position(|a| a == "--fit") {
        Some(i) if i + 1 < args.len() => {
            let out = args.remove(i + 1);
            args.remove(i);
            Some(out)
        }
        Some(_) => panic!("--fit needs a file name"),
        None => None,
    };
    let mut rows: BTreeMap<(u8, bool), Vec<Row>> = BTreeMap::new();
    let mut games: BTreeMap<(u8, bool), usize> = BTreeMap::new();
    for path in &args {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let records = veletas_rules::record::parse_records(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        for record in records {
            let Ok(game) = record.replay(None) else { continue };
            let moves: Vec<Move> = game.moves().collect();
            let mut pos = game.start().clone();
            // Keyed by size and whether the rules are modern (`RuleSet` has no order).
            let key = (pos.variant().size(), pos.rules().is_modern());
            *games.entry(key).or_default() += 1;
            let total = moves.len();
            for (i, mv) in moves.iter().enumerate() {
                if pos.phase() == Phase::Play {
                    // Turns still to come in the game, this one included; the side to
                    // move plays every other one.
                    let left = (total - i) as u32;
                    rows.entry(key).or_default().push(Row {
                        features: length::features(&pos),
                        position: pos.clone(),
                        empty: pos.empty_squares().count(),
                        own: left.div_ceil(2),
                    });
                }
                pos.play_unchecked(*mv);
            }
        }
    }
    let model = match &fit_to {
        Some(out) => {
            let mut model = LengthModel::default();
            let mut header = format!(
                "# Turns the side to move still plays, by board size and rule set: the least-squares fit of\n\
                 # `cargo run --release -p veletas-engine --example game_lengths -- --fit {out} {}`\n",
                args.join(" ")
            );
            for (&(size, modern), list) in &rows {
                let rules = rule_set(modern);
                let samples: Vec<(LengthFeatures, f64)> = list.iter().map(|r| (r.features, f64::from(r.own))).collect();
                let Some(weights) = veletas_engine::learning::length_fit::fit(&samples, 1e-6) else { continue };
                model.set(size, rules, weights);
                header.push_str(&format!(
                    "# {size} {rules}: {} games, {} positions\n",
                    games.get(&(size, modern)).copied().unwrap_or(0),
                    list.len()
                ));
            }
            let text = header + &model.to_text();
            let tmp = format!("{out}.tmp");
            std::fs::write(&tmp, text).unwrap_or_else(|e| panic!("{tmp}: {e}"));
            std::fs::rename(&tmp, out).unwrap_or_else(|e| panic!("{out}: {e}"));
            model
        }
        None => length::length_model().clone(),
    };
    for (&(size, modern), list) in &rows {
        let rules = rule_set(modern);
        println!("{size}x{size} {rules}: {} games", games.get(&(size, modern)).copied().unwrap_or(0));
        println!(
            "empty  positions  own_turns_mean  own_turns_p90  old_estimate  new_estimate  within_new  rmse_old  rmse_new"
        );
        for band in (0..10).rev() {
            let band_rows: Vec<&Row> = list.iter().filter(|r| r.empty / 10 == band).collect();
            if band_rows.is_empty() {
                continue;
            }
            let mut own: Vec<u32> = band_rows.iter().map(|r| r.own).collect();
            own.sort_unstable();
            let n = band_rows.len() as f64;
            let mean = own.iter().map(|&x| f64::from(x)).sum::<f64>() / n;
            let p90 = own[own.len() * 9 / 10];
            let old = band_rows.iter().map(|r| f64::from(old_estimate(&r.position))).sum::<f64>() / n;
            let new: Vec<f64> = band_rows.iter().map(|r| length::expected_turns_with(&model, &r.position)).collect();
            let new_mean = new.iter().sum::<f64>() / n;
            let within = band_rows.iter().zip(&new).filter(|(r, e)| f64::from(r.own) <= **e).count() as f64 / n;
            let rmse = |estimates: &mut dyn Iterator<Item = f64>| {
                let sum: f64 = band_rows.iter().zip(estimates).map(|(r, e)| (f64::from(r.own) - e).powi(2)).sum();
                (sum / n).sqrt()
            };
            let rmse_old = rmse(&mut band_rows.iter().map(|r| f64::from(old_estimate(&r.position))));
            let rmse_new = rmse(&mut new.iter().copied());
            println!(
                "{:>2}-{:<2}  {:>9}  {:>14.1}  {:>13}  {:>12.1}  {:>12.1}  {:>9.0}%  {:>8.1}  {:>8.1}",
                band * 10,
                band * 10 + 9,
                own.len(),
                mean,
                p90,
                old,
                new_mean,
                100.0 * within,
                rmse_old,
                rmse_new
            );
        }
        println!();
    }
}
