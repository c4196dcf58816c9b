//! How many more turns the side to move will play: the clock's estimate of the game's
//! length ([`expected_turns`]), from the position.
//!
//! A game ends when one player has claimed a majority of the shooters, and a shooter is
//! claimed when it is trapped. So what is left depends on how many claims the nearer
//! player still needs and how much room the shooters that could give them still have,
//! more than on the empty squares alone. The estimate is a linear model of [`Features`]
//! per board size and rule set, fitted by least squares ([`fit`]) to the turns actually
//! played in recorded games (`cargo run --release --example game_lengths -- --fit
//! data/game-lengths.txt RECORDS...`); its weights are `data/game-lengths.txt`, built
//! into the binary.

use std::sync::OnceLock;

use crate::rules::{Color, Phase, Position, RuleSet};

/// The number of features.
pub const LENGTH_FEATURES: usize = 8;

/// The features' names, in order (the weights file uses them).
pub const FEATURE_NAMES: [&str; LENGTH_FEATURES] =
    ["bias", "empty", "needed", "unclaimed", "libs_needed", "libs_all", "reach_needed", "reach_all"];

/// What the length model sees of a position:
///
/// - `bias`: 1;
/// - `empty`: the empty squares;
/// - `needed`: the claims the player nearer to winning still needs;
/// - `unclaimed`: the unclaimed shooters;
/// - `libs_needed`: the empty squares next to (8 directions) the `needed` unclaimed
///   shooters that have the fewest, added up: the shots that would trap them as they stand;
/// - `libs_all`: the same over every unclaimed shooter;
/// - `reach_needed`, `reach_all`: likewise with the squares each shooter reaches along its
///   lines (its room to escape; what traps it under the modern rules).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features(pub [f64; LENGTH_FEATURES]);

/// The features of `pos` (see [`Features`]).
pub fn features(pos: &Position) -> Features {
    let variant = pos.variant();
    let claimed = pos.claimed(Color::Black) | pos.claimed(Color::White);
    let unclaimed = pos.shooters() & !claimed;
    let to_win = u32::from(variant.claims_to_win());
    let needed = Color::ALL.iter().map(|&c| to_win.saturating_sub(pos.claims(c))).min().unwrap_or(0);
    let empty = pos.empty_squares();
    let mut libs: Vec<u32> = Vec::with_capacity(8);
    let mut reach: Vec<u32> = Vec::with_capacity(8);
    for sq in unclaimed {
        libs.push((sq.bitboard().neighbours() & empty).count());
        reach.push(pos.shooter_reach(sq).count());
    }
    libs.sort_unstable();
    reach.sort_unstable();
    let k = (needed as usize).min(libs.len());
    let sum = |v: &[u32]| f64::from(v.iter().sum::<u32>());
    Features([
        1.0,
        f64::from(empty.count()),
        f64::from(needed),
        libs.len() as f64,
        sum(&libs[..k]),
        sum(&libs),
        sum(&reach[..k]),
        sum(&reach),
    ])
}

/// The fitted weights: one linear model per board size and rule set.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LengthModel {
    models: Vec<(u8, RuleSet, [f64; LENGTH_FEATURES])>,
}

impl LengthModel {
    /// The weights for `size` and `rules`, if the model has them.
    pub fn weights(&self, size: u8, rules: RuleSet) -> Option<&[f64; LENGTH_FEATURES]> {
        self.models.iter().find(|(s, r, _)| *s == size && *r == rules).map(|(_, _, w)| w)
    }

    /// Sets the weights for `size` and `rules`.
    pub fn set(&mut self, size: u8, rules: RuleSet, weights: [f64; LENGTH_FEATURES]) {
        match self.models.iter_mut().find(|(s, r, _)| *s == size && *r == rules) {
            Some(entry) => entry.2 = weights,
            None => self.models.push((size, rules, weights)),
        }
    }

    /// The model's own turns to come for the side to move, unclamped: the weights of the
    /// position's size and rule set, else of its size under the classic rules; `None`
    /// when the model has neither.
    pub fn predict(&self, pos: &Position) -> Option<f64> {
        let size = pos.variant().size();
        let weights = self.weights(size, pos.rules().set).or_else(|| self.weights(size, RuleSet::Classic))?;
        Some(weights.iter().zip(features(pos).0.iter()).map(|(w, f)| w * f).sum())
    }

    /// Reads `SIZE RULESET FEATURE WEIGHT` lines (`#` comments and blank lines skipped);
    /// every feature of a size and rule set given once, and none missing.
    pub fn parse(text: &str) -> Result<LengthModel, String> {
        let mut partial: Vec<(u8, RuleSet, [Option<f64>; LENGTH_FEATURES])> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |what: String| format!("game lengths line {}: {what}", n + 1);
            let words: Vec<&str> = line.split_whitespace().collect();
            let [size, rules, name, weight] = words[..] else {
                return Err(err("expected SIZE RULESET FEATURE WEIGHT".into()));
            };
            let size = size.parse::<u8>().ok().filter(|s| [7, 9, 10].contains(s));
            let size = size.ok_or_else(|| err(format!("bad board size '{size:?}'")))?;
            let rules = rules.parse::<RuleSet>().map_err(|e| err(e.to_string()))?;
            let index = FEATURE_NAMES
                .iter()
                .position(|&x| x == name)
                .ok_or_else(|| err(format!("unknown feature '{name}'")))?;
            let weight = weight
                .parse::<f64>()
                .ok()
                .filter(|w| w.is_finite())
                .ok_or_else(|| err(format!("bad weight '{weight}'")))?;
            let entry = match partial.iter().position(|(s, r, _)| *s == size && *r == rules) {
                Some(i) => &mut partial[i],
                None => {
                    partial.push((size, rules, [None; LENGTH_FEATURES]));
                    partial.last_mut().expect("just pushed")
                }
            };
            if entry.2[index].replace(weight).is_some() {
                return Err(err(format!("'{name}' given twice for {size} {rules}")));
            }
        }
        let mut model = LengthModel::default();
        for (size, rules, weights) in partial {
            if let Some(missing) = weights.iter().position(Option::is_none) {
                return Err(format!("game lengths: no weight for '{}' of {size} {rules}", FEATURE_NAMES[missing]));
            }
            model.set(size, rules, weights.map(|w| w.unwrap_or(0.0)));
        }
        Ok(model)
    }

    /// The model as a weights file (without comments).
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for (size, rules, weights) in &self.models {
            for (name, w) in FEATURE_NAMES.iter().zip(weights.iter()) {
                text.push_str(&format!("{size} {rules} {name} {w:.6}\n"));
            }
        }
        text
    }
}

/// The fitted weights built into the binary (`data/game-lengths.txt`).
pub const LENGTH_WEIGHTS: &str = include_str!("../../data/game-lengths.txt");

/// The model parsed once from [`LENGTH_WEIGHTS`] (a test checks the file; should it not
/// parse, the model is empty and [`expected_turns`] falls back on the empty squares).
pub fn length_model() -> &'static LengthModel {
    static MODEL: OnceLock<LengthModel> = OnceLock::new();
    MODEL.get_or_init(|| {
        LengthModel::parse(LENGTH_WEIGHTS).unwrap_or_else(|e| {
            log::error!("{e}");
            LengthModel::default()
        })
    })
}

/// The turns the side to move of `pos` will still play, this one included, on average:
/// the model's estimate (or a quarter of the empty squares for a board it has no
/// weights for), at least 1 and at most what the empty squares allow (each turn fills
/// one). In a setup turn, the setup turns still to come are added to the estimate for
/// the position as it stands.
pub fn expected_turns(pos: &Position) -> f64 {
    expected_turns_with(length_model(), pos)
}

/// [`expected_turns`] with another model.
pub fn expected_turns_with(model: &LengthModel, pos: &Position) -> f64 {
    let empty = f64::from(pos.empty_squares().count());
    let estimate = model.predict(pos).unwrap_or(empty / 4.0);
    let setup = match pos.phase() {
        Phase::Play => 0.0,
        Phase::BlackSetup | Phase::WhiteSetup => 1.0,
    };
    setup + estimate.clamp(1.0, (empty / 2.0).ceil().max(1.0))
}

/// Least-squares weights for `samples` (features, target), with a small ridge penalty
/// (`l2` times the samples' count, not applied to the bias) so that features that never
/// vary still give a solution; `None` when there are no samples.
pub fn fit(samples: &[(Features, f64)], l2: f64) -> Option<[f64; LENGTH_FEATURES]> {
    if samples.is_empty() {
        return None;
    }
    const N: usize = LENGTH_FEATURES;
    // Scale the features so the penalty treats them alike.
    let mut scale = [0.0f64; N];
    for (f, _) in samples {
        for (s, x) in scale.iter_mut().zip(f.0.iter()) {
            *s = f64::max(*s, x.abs());
        }
    }
    let scale = scale.map(|s| if s > 0.0 { s } else { 1.0 });
    let mut a = [[0.0f64; N]; N];
    let mut b = [0.0f64; N];
    for (f, y) in samples {
        let x: [f64; N] = std::array::from_fn(|i| f.0[i] / scale[i]);
        for i in 0..N {
            b[i] += x[i] * y;
            for j in 0..N {
                a[i][j] += x[i] * x[j];
            }
        }
    }
    let penalty = l2 * samples.len() as f64;
    for (i, row) in a.iter_mut().enumerate().skip(1) {
        row[i] += penalty;
    }
    let solution = solve(a, b)?;
    Some(std::array::from_fn(|i| solution[i] / scale[i]))
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting.
fn solve<const N: usize>(mut a: [[f64; N]; N], mut b: [f64; N]) -> Option<[f64; N]> {
    for col in 0..N {
        let pivot = (col..N).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..N {
            let factor = a[row][col] / a[col][col];
            for k in col..N {
                a[row][k] -= factor * a[col][k];
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = [0.0f64; N];
    for row in (0..N).rev() {
        let rest: f64 = (row + 1..N).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}
