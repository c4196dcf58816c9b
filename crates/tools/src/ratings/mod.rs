//! Ratings of a whole field of engines from decided games: maximum-likelihood Elo under
//! the logistic Bradley-Terry model (as Ordo computes it), with 95% error bars from the
//! likelihood's curvature, the crosstable, the likelihood of superiority between every
//! pair, and per-pair head-to-head Elo. `docs/ratings.md` documents the method.
//!
//! [`rate`] turns a list of [`RatedGame`]s into [`Standings`], which [`render`] prints as
//! text, CSV or JSON; [`files`] is the `veletas ratings FILE...` command, which reads
//! record files. The module sits on [`crate::stats`] and [`veletas_rules::Color`] only.

pub mod files;
pub mod json;
pub mod render;
mod solve;
mod structure;

use std::collections::HashMap;

use crate::stats::{EloInterval, Score, Z95, erf};
use veletas_rules::Color;

pub use files::{RatingsFormat, RatingsSettings, run_ratings};
pub use render::StandingsFormat;

/// The largest field [`rate`] accepts: the work grows with the cube of the number of
/// engines (a few seconds for 1,000), and the memory with its square.
pub const MAX_ENGINES: usize = 1000;

/// One decided game (Veletas has no draws): who played Black, who played White, who won.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedGame {
    /// The name of the engine that played Black.
    pub black: String,
    /// The name of the engine that played White.
    pub white: String,
    /// The colour that won.
    pub winner: Color,
}

impl RatedGame {
    /// A game `black` and `white` played, won by `winner`.
    pub fn new(black: impl Into<String>, white: impl Into<String>, winner: Color) -> RatedGame {
        RatedGame { black: black.into(), white: white.into(), winner }
    }
}

/// What [`rate`] is asked for beyond the games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RatingOptions {
    /// Pins one engine's rating: `(name, rating)`. Without an anchor the ratings average 0.
    pub anchor: Option<(String, f64)>,
}

/// Why a field cannot be rated.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RatingsError {
    /// There is no game to rate.
    #[error("no games to rate")]
    NoGames,
    /// A game of an engine against itself (same name for Black and White).
    #[error("a game of '{}' against itself cannot be rated", veletas_rules::quoted(.0))]
    SelfPlay(String),
    /// The anchor names no engine of the field.
    #[error("the anchor '{}' is not an engine of the field", veletas_rules::quoted(.0))]
    UnknownAnchor(String),
    /// The anchor's rating is not a finite number within ±[`files::MAX_ANCHOR`].
    #[error("the anchor's rating {0} is not a number from -100000 to 100000")]
    BadAnchorRating(f64),
    /// More engines than [`MAX_ENGINES`].
    #[error("{0} engines: at most {MAX_ENGINES} can be rated together")]
    TooManyEngines(usize),
    /// The numerical solution failed (it should not: please report the games).
    #[error("the ratings did not converge")]
    NoConvergence,
}

/// How far an engine's rating is pinned by the results (see `docs/ratings.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RatingBound {
    /// The maximum-likelihood rating: the engine's group is the field's main group.
    Exact,
    /// `>`: the engine's group never lost to the rest of the field; its maximum-likelihood
    /// rating is infinite, the one shown (from the prior) is a lower bound.
    AtLeast,
    /// `<`: the engine's group never beat the rest of the field; an upper bound.
    AtMost,
    /// `~`: the results pin the group's rating neither way (no games with the rest, or
    /// wins only against some and losses only against others).
    Unpinned,
}

impl RatingBound {
    /// The symbol printed before the rating: nothing, `>`, `<` or `~`.
    pub fn symbol(self) -> &'static str {
        match self {
            RatingBound::Exact => "",
            RatingBound::AtLeast => ">",
            RatingBound::AtMost => "<",
            RatingBound::Unpinned => "~",
        }
    }
}

/// One engine's line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineStanding {
    /// Place in the standings, from 1 (best first; equal ratings keep the order of first
    /// appearance in the games).
    pub rank: usize,
    /// The engine's name.
    pub name: String,
    /// The rating in logistic Elo (mean 0 over the field, or anchored).
    pub rating: f64,
    /// Half-width of the rating's 95% interval, in Elo (0 for the anchor).
    pub error: f64,
    /// How far the rating is pinned by the results.
    pub mark: RatingBound,
    /// Results as Black.
    pub as_black: Score,
    /// Results as White.
    pub as_white: Score,
}

impl EngineStanding {
    /// All its results.
    pub fn score(&self) -> Score {
        Score::new(self.as_black.wins + self.as_white.wins, self.as_black.losses + self.as_white.losses)
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.score().games()
    }

    /// Percentage of games won (every engine of a field has played).
    pub fn score_percent(&self) -> f64 {
        self.score().fraction().unwrap_or(0.0) * 100.0
    }
}

/// One pair's games against each other and the Elo difference they imply alone.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeadToHead {
    /// Index into [`Standings::engines`] of the better-ranked engine.
    pub first: usize,
    /// Index of the other engine.
    pub second: usize,
    /// The first engine's wins and losses against the second.
    pub score: Score,
    /// Elo of the first over the second from these games with its 95% interval
    /// (binomial; infinite for a clean sweep).
    pub interval: EloInterval,
}

impl HeadToHead {
    /// The likelihood that the first is the stronger from these games alone: the very
    /// figure `veletas match` prints for the same wins and losses ([`Score::los`], one
    /// computation for both), where the LOS matrix is the model's, from every game.
    pub fn los(&self) -> f64 {
        self.score.los()
    }
}

/// Said under a head-to-head table holding a pair that won or lost every game: how its
/// finite Elo and interval were found ([`crate::stats::Score::elo_interval`]).
pub const ADJUSTED_NOTE: &str =
    "A pair that won or lost every game is rated with half a game added to each side (20-0 as 20.5-0.5).";

/// The rated field.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    /// The engines, best first.
    pub engines: Vec<EngineStanding>,
    /// Games rated.
    pub games: u64,
    /// The anchor, when one was asked for.
    pub anchor: Option<(String, f64)>,
    /// `crosstable[i][j]`: the results of engine `i` against engine `j` (indices into
    /// `engines`).
    pub crosstable: Vec<Vec<Score>>,
    /// `los[i][j]`: the likelihood that engine `i` is stronger than engine `j`, from the
    /// model (`Φ(difference / its standard error)`, every game counting); 0.5 on the
    /// diagonal.
    pub los: Vec<Vec<f64>>,
    /// Number of groups of engines with no games between them (1 for a connected field).
    pub groups: usize,
    /// Explanations printed under the tables: the prior, separate groups, skipped games.
    pub notes: Vec<String>,
    /// Newton iterations the solution took.
    pub iterations: usize,
}

impl Standings {
    /// Every pair that played each other, better-ranked engine first, in standings order.
    pub fn head_to_head(&self) -> Vec<HeadToHead> {
        let mut pairs = Vec::new();
        for (i, row) in self.crosstable.iter().enumerate() {
            for (j, score) in row.iter().enumerate().skip(i + 1) {
                if let Some(interval) = score.elo_interval() {
                    pairs.push(HeadToHead { first: i, second: j, score: *score, interval });
                }
            }
        }
        pairs
    }

    /// Whether any rating rests on the prior rather than on the results alone.
    pub fn has_marks(&self) -> bool {
        self.engines.iter().any(|e| e.mark != RatingBound::Exact)
    }
}

/// The standard normal distribution function.
fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// The index of engine `name`, given the next one if it is new.
fn engine_index<'a>(index: &mut HashMap<&'a str, usize>, names: &mut Vec<&'a str>, name: &'a str) -> usize {
    *index.entry(name).or_insert_with(|| {
        names.push(name);
        names.len() - 1
    })
}

/// Rates the field that played `games`: maximum-likelihood Elo, 95% errors, crosstable,
/// LOS matrix. Engines are the names in the games, told apart exactly as written.
pub fn rate(games: &[RatedGame], options: &RatingOptions) -> Result<Standings, RatingsError> {
    if games.is_empty() {
        return Err(RatingsError::NoGames);
    }
    // Engines in order of first appearance, games aggregated into a win matrix.
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut names: Vec<&str> = Vec::new();
    let mut pairs: Vec<(usize, usize, Color)> = Vec::with_capacity(games.len());
    for game in games {
        if game.black == game.white {
            return Err(RatingsError::SelfPlay(game.black.clone()));
        }
        let black = engine_index(&mut index, &mut names, &game.black);
        let white = engine_index(&mut index, &mut names, &game.white);
        pairs.push((black, white, game.winner));
    }
    let n = names.len();
    if n > MAX_ENGINES {
        return Err(RatingsError::TooManyEngines(n));
    }
    let anchor = match &options.anchor {
        Some((name, rating)) => {
            let engine = *index.get(name.as_str()).ok_or_else(|| RatingsError::UnknownAnchor(name.clone()))?;
            if !rating.is_finite() || rating.abs() > files::MAX_ANCHOR {
                return Err(RatingsError::BadAnchorRating(*rating));
            }
            Some((engine, *rating))
        }
        None => None,
    };
    let mut wins = vec![0u64; n * n];
    let mut colours = vec![[Score::default(); 2]; n];
    for &(black, white, winner) in &pairs {
        let (winner_id, loser_id) = if winner == Color::Black { (black, white) } else { (white, black) };
        wins[winner_id * n + loser_id] += 1;
        colours[black][Color::Black.index()].add(winner == Color::Black);
        colours[white][Color::White.index()].add(winner == Color::White);
    }

    let shape = structure::analyse(n, &wins, anchor.map(|(engine, _)| engine));
    let solution =
        solve::solve(&solve::Field { n, wins: &wins, prior: &shape.prior }).ok_or(RatingsError::NoConvergence)?;
    let cov = |i: usize, j: usize| solution.covariance[i * n + j];
    let shift = anchor.map_or(0.0, |(engine, rating)| rating - solution.ratings[engine]);
    let variance = |i: usize| match anchor {
        Some((a, _)) => cov(i, i) + cov(a, a) - 2.0 * cov(i, a),
        None => cov(i, i),
    };

    // Best first; ratings equal to a millionth of an Elo (the solver's rounding differs
    // with the order of the games) by name, so that the order of the games or files does
    // not change the standings.
    let key = |i: usize| (solution.ratings[i] * 1e6).round() as i64;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| key(b).cmp(&key(a)).then_with(|| names[a].cmp(names[b])));
    let engines = order
        .iter()
        .enumerate()
        .map(|(place, &i)| EngineStanding {
            rank: place + 1,
            name: names[i].to_string(),
            rating: solution.ratings[i] + shift,
            error: Z95 * variance(i).max(0.0).sqrt(),
            mark: shape.marks[i],
            as_black: colours[i][Color::Black.index()],
            as_white: colours[i][Color::White.index()],
        })
        .collect();
    let crosstable =
        order.iter().map(|&i| order.iter().map(|&j| Score::new(wins[i * n + j], wins[j * n + i])).collect()).collect();
    let los = order
        .iter()
        .map(|&i| {
            order
                .iter()
                .map(|&j| {
                    let difference = solution.ratings[i] - solution.ratings[j];
                    let sd = (cov(i, i) + cov(j, j) - 2.0 * cov(i, j)).max(0.0).sqrt();
                    if i == j || sd == 0.0 { 0.5 } else { normal_cdf(difference / sd) }
                })
                .collect()
        })
        .collect();

    let mut notes = Vec::new();
    if shape.prior.iter().any(|&p| p) {
        notes.push(
            "marked ratings (> at least, < at most, ~ not pinned) have no finite maximum-likelihood value: \
             those engines also count one virtual game, half won and half lost, against an opponent at the \
             field's mean"
                .to_string(),
        );
    }
    if shape.groups > 1 {
        notes.push(format!(
            "the field falls into {} groups with no games between them: ratings of different groups are not comparable",
            shape.groups
        ));
    }
    Ok(Standings {
        engines,
        games: pairs.len() as u64,
        anchor: options.anchor.clone(),
        crosstable,
        los,
        groups: shape.groups,
        notes,
        iterations: solution.iterations,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(list: &[(&str, &str, u64, u64)]) -> Vec<RatedGame> {
        let mut out = Vec::new();
        for &(black, white, black_wins, white_wins) in list {
            out.extend((0..black_wins).map(|_| RatedGame::new(black, white, Color::Black)));
            out.extend((0..white_wins).map(|_| RatedGame::new(black, white, Color::White)));
        }
        out
    }

    #[test]
    fn bad_fields_are_refused_with_the_reason() {
        assert_eq!(rate(&[], &RatingOptions::default()), Err(RatingsError::NoGames));
        let own = games(&[("a", "a", 1, 0)]);
        assert_eq!(rate(&own, &RatingOptions::default()), Err(RatingsError::SelfPlay("a".into())));
        let field = games(&[("a", "b", 1, 1)]);
        let anchor = |name: &str, rating| RatingOptions { anchor: Some((name.to_string(), rating)) };
        assert_eq!(rate(&field, &anchor("c", 0.0)), Err(RatingsError::UnknownAnchor("c".into())));
        assert!(matches!(rate(&field, &anchor("a", f64::NAN)), Err(RatingsError::BadAnchorRating(_))));
        let names: Vec<String> = (0..=MAX_ENGINES).map(|i| format!("e{i}")).collect();
        let crowd: Vec<RatedGame> = names.windows(2).map(|w| RatedGame::new(&w[0], &w[1], Color::Black)).collect();
        assert_eq!(rate(&crowd, &RatingOptions::default()), Err(RatingsError::TooManyEngines(MAX_ENGINES + 1)));
    }

    #[test]
    fn colours_and_crosstable_count_every_game() {
        let field = games(&[("a", "b", 3, 1), ("b", "a", 2, 2), ("c", "a", 0, 1)]);
        let s = rate(&field, &RatingOptions::default()).unwrap();
        assert_eq!(s.games, 9);
        let a = s.engines.iter().position(|e| e.name == "a").unwrap();
        let b = s.engines.iter().position(|e| e.name == "b").unwrap();
        assert_eq!(s.engines[a].as_black, Score::new(3, 1));
        assert_eq!(s.engines[a].as_white, Score::new(3, 2));
        assert_eq!(s.crosstable[a][b], Score::new(5, 3));
        assert_eq!(s.crosstable[b][a], Score::new(3, 5));
        assert_eq!(s.engines.iter().map(EngineStanding::games).sum::<u64>(), 18);
        for i in 0..3 {
            for j in 0..3 {
                assert!((s.los[i][j] + s.los[j][i] - 1.0).abs() < 1e-12);
            }
        }
    }
}
