//! How many more turns the side to move will play: the clock's estimate of the game's
//! length ([`expected_turns`]), from the position.
//!
//! A game ends when one player has claimed a majority of the shooters, and a shooter is
//! claimed when it is trapped. So what is left depends on how many claims the nearer
//! player still needs and how much room the shooters that could give them still have,
//! more than on the empty squares alone. The estimate is a linear model of [`LengthFeatures`]
//! per board size and rule set, fitted by least squares (`learning::length_fit`) to the turns
//! actually played in recorded games (`cargo run --release -p veletas-engine --example game_lengths -- --fit
//! crates/engine/data/game-lengths.txt RECORDS...`); its weights are `crates/engine/data/game-lengths.txt`, built
//! into the binary.

use std::sync::OnceLock;

use veletas_rules::{Color, Phase, Position, RuleSet};

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
pub struct LengthFeatures(pub [f64; LENGTH_FEATURES]);

/// The features of `pos` (see [`LengthFeatures`]).
pub fn features(pos: &Position) -> LengthFeatures {
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
    LengthFeatures([
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
    pub fn parse(text: &str) -> Result<LengthModel, LengthFileError> {
        let mut partial: Vec<(u8, RuleSet, [Option<f64>; LENGTH_FEATURES])> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |why: LengthLineError| LengthFileError::Line { line: n + 1, why };
            let words: Vec<&str> = line.split_whitespace().collect();
            let [size, rules, name, weight] = words[..] else {
                return Err(err(LengthLineError::Shape));
            };
            let size = size.parse::<u8>().ok().filter(|s| [7, 9, 10].contains(s));
            let size = size.ok_or_else(|| err(LengthLineError::Size(size)))?;
            let rules = rules.parse::<RuleSet>().map_err(|e| err(LengthLineError::Rules(e)))?;
            let index = FEATURE_NAMES
                .iter()
                .position(|&x| x == name)
                .ok_or_else(|| err(LengthLineError::Feature(name.to_string())))?;
            let weight = weight
                .parse::<f64>()
                .ok()
                .filter(|w| w.is_finite())
                .ok_or_else(|| err(LengthLineError::Weight(weight.to_string())))?;
            let entry = match partial.iter().position(|(s, r, _)| *s == size && *r == rules) {
                Some(i) => &mut partial[i],
                None => {
                    partial.push((size, rules, [None; LENGTH_FEATURES]));
                    partial.last_mut().expect("just pushed")
                }
            };
            if entry.2[index].replace(weight).is_some() {
                return Err(err(LengthLineError::Twice { name: name.to_string(), size, rules }));
            }
        }
        let mut model = LengthModel::default();
        for (size, rules, weights) in partial {
            if let Some(missing) = weights.iter().position(Option::is_none) {
                return Err(LengthFileError::Missing { feature: FEATURE_NAMES[missing], size, rules });
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

/// Why a game lengths file is refused ([`LengthModel::parse`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LengthFileError {
    /// A line that is not a weight of the model.
    #[error("game lengths line {line}: {why}")]
    Line {
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        #[source]
        why: LengthLineError,
    },
    /// A feature of a size and rule set without its weight.
    #[error("game lengths: no weight for '{feature}' of {size} {rules}")]
    Missing {
        /// The feature.
        feature: &'static str,
        /// The board size.
        size: u8,
        /// The rule set.
        rules: RuleSet,
    },
}

/// What is wrong with a line of a game lengths file ([`LengthFileError::Line`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LengthLineError {
    /// Not four words.
    #[error("expected SIZE RULESET FEATURE WEIGHT")]
    Shape,
    /// No board size (7, 9 or 10), as it read.
    #[error("bad board size '{0:?}'")]
    Size(Option<u8>),
    /// No rule set.
    #[error("{0}")]
    Rules(#[source] veletas_rules::ParseRuleSetError),
    /// A feature the model does not have.
    #[error("unknown feature '{0}'")]
    Feature(String),
    /// A weight that is no finite number.
    #[error("bad weight '{0}'")]
    Weight(String),
    /// A feature given twice for a size and rule set.
    #[error("'{name}' given twice for {size} {rules}")]
    Twice {
        /// The feature.
        name: String,
        /// The board size.
        size: u8,
        /// The rule set.
        rules: RuleSet,
    },
}

/// The fitted weights built into the binary (`crates/engine/data/game-lengths.txt`).
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
/// one). In a setup turn, where the shooters are not all placed and the model does not
/// apply, a quarter of the empty squares (which is what the games' first play turns
/// have still to come: `crates/engine/examples/game_lengths.rs`), plus the setup turn.
pub fn expected_turns(pos: &Position) -> f64 {
    expected_turns_with(length_model(), pos)
}

/// [`expected_turns`] with another model.
pub fn expected_turns_with(model: &LengthModel, pos: &Position) -> f64 {
    let empty = f64::from(pos.empty_squares().count());
    let (setup, estimate) = match pos.phase() {
        Phase::Play => (0.0, model.predict(pos).unwrap_or(empty / 4.0)),
        Phase::BlackSetup | Phase::WhiteSetup => (1.0, empty / 4.0),
    };
    setup + estimate.clamp(1.0, (empty / 2.0).ceil().max(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use veletas_rules::Variant;

    fn pos(text: &str) -> Position {
        text.parse().expect("a position")
    }

    /// Positions of one recorded 10x10 game (sp10.txt, game 1... of the self-play
    /// files), every sixth turn, with the own turns the side to move really still played.
    const GAME_10: [(&str, u32); 5] = [
        ("6s1s1/4s5/2s7/7s2/10/3s6/10/10/4s5/10 b", 29),
        ("Ww5bs1/www1s2bb1/1s2w3b1/6bsb1/10/2w7/3b6/bbss6/w9/ww8 b", 20),
        ("WwWw1bwbs1/wwwwwbsbb1/4wwb1b1/6b1b1/1sw7/2w7/2bb6/bbbbbb4/wbBws5/wwww6 b", 11),
        ("WwWw1bwbs1/wwwwwbBbb1/4wwbbb1/2w3b1b1/2ww3w2/bww7/Bwbb1w4/bbbbbb4/wbBw2bs2/wwww2bbb1 b", 5),
        ("WwWw1bwbs1/wwwwwbBbb1/4wwbbb1/2w1w1b1b1/2ww3w2/bww3w3/Bwbb1ws3/bbbbbbb2w/wbBw2bb2/wwww2bbbb b", 2),
    ];

    #[test]
    fn features_count_claims_needed_and_the_room_of_unclaimed_shooters() {
        // 7x7, 3 shooters, 2 claims win; the capital B on a7 is a shooter claimed by
        // Black, so Black needs 1 more, White 2; two shooters are unclaimed.
        let p = pos("Bb1w3/bw1w2b/4w2/4w2/1bbswb1/2b1wbb/2s1ww1 b");
        let f = features(&p).0;
        assert_eq!(f[0], 1.0);
        assert_eq!(f[1], f64::from(p.empty_squares().count()));
        assert_eq!((f[2], f[3]), (1.0, 2.0), "{f:?}");
        // The needed room is the smaller of the two shooters' empty neighbourhoods.
        let mut libs: Vec<u32> = Vec::new();
        for sq in p.shooters() & !p.claimed(Color::Black) & !p.claimed(Color::White) {
            libs.push((sq.bitboard().neighbours() & p.empty_squares()).count());
        }
        libs.sort_unstable();
        assert_eq!(f[4], f64::from(libs[0]));
        assert_eq!(f[5], f64::from(libs.iter().sum::<u32>()));
        assert!(f[6] <= f[7] && f[6] > 0.0, "{f:?}");
    }

    #[test]
    fn the_estimate_follows_a_recorded_game_down() {
        let estimates: Vec<f64> = GAME_10.iter().map(|(text, _)| expected_turns(&pos(text))).collect();
        for pair in estimates.windows(2) {
            assert!(pair[1] < pair[0], "{estimates:?}");
        }
        // Within a few turns of what was played, from the opening to the end.
        for ((text, real), estimate) in GAME_10.iter().zip(&estimates) {
            assert!((estimate - f64::from(*real)).abs() <= 0.35 * f64::from(*real) + 2.0, "{text}: {estimate}");
        }
    }

    #[test]
    fn the_estimate_is_small_near_the_end_on_every_size() {
        // Late positions of recorded games: 7x7 (1 own turn was left), 9x9 (3), 10x10 (2).
        // The old estimate (a quarter of the empty squares, at least 8) said 8 for each.
        for (text, real) in [
            ("Bb1w3/bwww2b/1s2w2/3ww2/1bbwwb1/bbb1wbb/s1b1ww1 b", 1.0),
            ("1w1bBb3/1wwbbbwww/1w1s2w1s/3w1wwwb/1w3wbww/bw2bwbbw/2w2bbb1/bbbb2sb1/1b1w3bB b", 3.0),
            (GAME_10[4].0, 2.0),
        ] {
            let e = expected_turns(&pos(text));
            assert!((1.0..=real + 3.0).contains(&e), "{text}: {e}");
        }
    }

    #[test]
    fn the_estimate_at_the_start_of_play_matches_the_games_means() {
        // Own turns still played at the first play turn: about 22 on 10x10, 19 on 9x9
        // and 12 on 7x7 (game_lengths on the recorded games).
        for (text, low, high) in [
            ("6s1s1/4s5/2s7/7s2/10/3s6/10/10/4s5/10 b", 18.0, 27.0),
            ("9/4s4/9/9/2s3s2/9/9/1s7/8s b", 15.0, 24.0),
            ("5s1/7/7/7/3s3/7/6s b", 9.0, 16.0),
        ] {
            let e = expected_turns(&pos(text));
            assert!((low..=high).contains(&e), "{text}: {e}");
        }
    }

    #[test]
    fn setup_turns_add_one_and_unknown_boards_fall_back_on_the_empty_squares() {
        // Setup: a quarter of the empty squares, as at the first play turns of the games.
        assert_eq!(expected_turns(&Position::new(Variant::STANDARD)), 1.0 + 25.0);
        assert_eq!(expected_turns(&pos("7/7/7/7/7/7/7 b")), 1.0 + 12.25);
        let start = Position::new(Variant::STANDARD);
        let empty = LengthModel::default();
        assert_eq!(expected_turns_with(&empty, &start), 1.0 + 25.0);
        let late = pos(GAME_10[4].0);
        assert_eq!(expected_turns_with(&empty, &late), f64::from(late.empty_squares().count()) / 4.0);
    }

    #[test]
    fn the_built_in_weights_cover_every_size_of_the_classic_rules_and_10x10_modern() {
        let model = LengthModel::parse(LENGTH_WEIGHTS).expect("crates/engine/data/game-lengths.txt parses");
        for size in [7, 9, 10] {
            assert!(model.weights(size, RuleSet::Classic).is_some(), "{size}");
        }
        assert!(model.weights(10, RuleSet::Modern).is_some());
        assert_eq!(LengthModel::parse(&model.to_text()), Ok(model));
    }

    #[test]
    fn bad_weight_files_are_refused_with_the_line() {
        let full: String = FEATURE_NAMES.iter().map(|n| format!("7 classic {n} 0.5\n")).collect();
        assert!(LengthModel::parse(&full).is_ok());
        let missing: String = full.lines().skip(1).map(|l| format!("{l}\n")).collect();
        assert!(LengthModel::parse(&missing).unwrap_err().to_string().contains("no weight for 'bias'"));
        let twice = format!("{full}7 classic empty 1\n");
        assert!(LengthModel::parse(&twice).unwrap_err().to_string().contains("line 9"));
        for bad in ["8 classic bias 1", "7 odd bias 1", "7 classic colour 1", "7 classic bias x", "7 classic bias"] {
            assert!(LengthModel::parse(bad).unwrap_err().to_string().starts_with("game lengths line 1"), "{bad}");
        }
    }
}
