//! Match statistics reported by the tournament referee.
//!
//! Veletas has no draws, so a single game is a win or a loss, counted by
//! [`Score`]. Openings are usually played as pairs with colours swapped; the
//! points engine A scores in a pair are counted by [`Pentanomial`], which keeps
//! five buckets (0, 0.5, 1, 1.5 and 2 points) so it stays valid for games that
//! can be drawn. [`Sprt`] runs a sequential probability ratio test on either.
//!
//! All Elo values are logistic Elo: a score fraction `s` corresponds to
//! `-400 * log10(1/s - 1)`. Nothing here panics: zero games yield `None`
//! (or a neutral value where documented) and perfect scores yield infinite Elo.

use std::fmt;

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Pseudo-count that replaces an empty bucket when estimating the LLR, as
/// fishtest does; it keeps the variance positive when all results are equal.
pub const LLR_REGULARIZATION: f64 = 1e-3;

/// The expected score fraction of a player `elo` logistic Elo stronger than
/// the opponent: `1 / (1 + 10^(-elo/400))`, in `[0, 1]`.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo difference implied by a score fraction `score`:
/// `-400 * log10(1/score - 1)`.
///
/// Returns `f64::INFINITY` for scores of 1 or more, `f64::NEG_INFINITY` for
/// scores of 0 or less and NaN for a NaN score.
pub fn elo_from_score(score: f64) -> f64 {
    if score.is_nan() {
        f64::NAN
    } else if score >= 1.0 {
        f64::INFINITY
    } else if score <= 0.0 {
        f64::NEG_INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The error function `erf(x) = 2/sqrt(pi) * ∫_0^x exp(-t²) dt`, accurate to
/// about 1e-15 over the whole real line. NaN maps to NaN.
pub fn erf(x: f64) -> f64 {
    const FRAC_2_SQRT_PI: f64 = std::f64::consts::FRAC_2_SQRT_PI;
    if x.is_nan() {
        return f64::NAN;
    }
    let a = x.abs();
    let value = if a < 3.0 {
        // erf(a) = 2/sqrt(pi) * exp(-a²) * Σ 2^n a^(2n+1) / (1·3·…·(2n+1)):
        // every term is positive, so there is no cancellation.
        let a2 = a * a;
        let mut term = a;
        let mut sum = a;
        let mut n = 0.0;
        while term > sum * 1e-17 && n < 200.0 {
            n += 1.0;
            term *= 2.0 * a2 / (2.0 * n + 1.0);
            sum += term;
        }
        FRAC_2_SQRT_PI * (-a2).exp() * sum
    } else if a < 6.5 {
        // erfc(a) = exp(-a²)/sqrt(pi) / (a + (1/2)/(a + 1/(a + (3/2)/(a + …)))),
        // evaluated backwards; 60 levels converge fully for a >= 3.
        let mut frac = a;
        for k in (1..=60).rev() {
            frac = a + f64::from(k) / 2.0 / frac;
        }
        1.0 - (-a * a).exp() / std::f64::consts::PI.sqrt() / frac
    } else {
        1.0
    };
    value.copysign(x)
}

/// An Elo estimate with its 95% confidence interval, all in logistic Elo.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloInterval {
    /// The point estimate.
    pub elo: f64,
    /// Lower end of the 95% confidence interval.
    pub lower: f64,
    /// Upper end of the 95% confidence interval.
    pub upper: f64,
}

impl EloInterval {
    /// The interval for a mean score `mean` of `n` samples whose per-sample
    /// variance is `variance`, using the normal approximation: the score
    /// bounds `mean ± Z95 * sqrt(variance / n)` (clamped to `[0, 1]`) are
    /// converted to Elo.
    fn from_moments(mean: f64, variance: f64, n: f64) -> Self {
        let half_width = Z95 * (variance / n).sqrt();
        EloInterval {
            elo: elo_from_score(mean),
            lower: elo_from_score((mean - half_width).clamp(0.0, 1.0)),
            upper: elo_from_score((mean + half_width).clamp(0.0, 1.0)),
        }
    }
}

impl From<EloInterval> for (f64, f64, f64) {
    /// Converts to `(elo, lower, upper)`.
    fn from(interval: EloInterval) -> Self {
        (interval.elo, interval.lower, interval.upper)
    }
}

/// Win/loss counts of single games from one engine's point of view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Score {
    /// Games won.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
}

impl Score {
    /// Counts `wins` won games and `losses` lost games.
    pub const fn new(wins: u64, losses: u64) -> Self {
        Score { wins, losses }
    }

    /// Records one game, won if `won`.
    pub fn add(&mut self, won: bool) {
        if won {
            self.wins = self.wins.saturating_add(1);
        } else {
            self.losses = self.losses.saturating_add(1);
        }
    }

    /// Number of games played (saturating).
    pub fn games(&self) -> u64 {
        self.wins.saturating_add(self.losses)
    }

    /// Fraction of games won, or `None` without games.
    pub fn fraction(&self) -> Option<f64> {
        let n = self.wins as f64 + self.losses as f64;
        (n > 0.0).then(|| self.wins as f64 / n)
    }

    /// Per-game variance of the score, `s(1 - s)`, or `None` without games.
    pub fn variance(&self) -> Option<f64> {
        self.fraction().map(|s| s * (1.0 - s))
    }

    /// Logistic Elo implied by the score, or `None` without games; infinite
    /// when every game was won (or lost).
    pub fn elo(&self) -> Option<f64> {
        self.fraction().map(elo_from_score)
    }

    /// Elo with a 95% confidence interval from the binomial per-game
    /// variance, or `None` without games. A perfect score gives a zero-width
    /// interval at infinity.
    pub fn elo_interval(&self) -> Option<EloInterval> {
        let s = self.fraction()?;
        let n = self.wins as f64 + self.losses as f64;
        Some(EloInterval::from_moments(s, s * (1.0 - s), n))
    }

    /// Likelihood of superiority, `0.5 * (1 + erf((W - L) / sqrt(2(W + L))))`:
    /// the probability that this engine is the stronger one. It is 0.5
    /// without games.
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }
}

/// Rejected pair points: not one of 0, 0.5, 1, 1.5 or 2.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InvalidPairPoints(pub f64);

impl fmt::Display for InvalidPairPoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a pair cannot score {} points", self.0)
    }
}

impl std::error::Error for InvalidPairPoints {}

/// Pentanomial counts of game pairs (one opening played with both colours),
/// bucketed by the points engine A scored in the pair: 0 (LL), 0.5 (LD/DL),
/// 1 (WL/LW/DD), 1.5 (WD/DW) and 2 (WW). Without draws only the 0, 1 and 2
/// buckets fill.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Pentanomial {
    /// Pair counts of the buckets `[0, 0.5, 1, 1.5, 2 points]` for engine A.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Builds counts from buckets `[0, 0.5, 1, 1.5, 2 points]`.
    pub const fn from_counts(counts: [u64; 5]) -> Self {
        Pentanomial { counts }
    }

    /// Records a pair in which engine A scored `points_a` points, which must
    /// be 0, 0.5, 1, 1.5 or 2 (within 1e-9); anything else is rejected.
    pub fn add_pair(&mut self, points_a: f64) -> Result<(), InvalidPairPoints> {
        let index = (points_a * 2.0).round();
        if !(0.0..=4.0).contains(&index) || (points_a * 2.0 - index).abs() > 1e-9 {
            return Err(InvalidPairPoints(points_a));
        }
        let bucket = &mut self.counts[index as usize];
        *bucket = bucket.saturating_add(1);
        Ok(())
    }

    /// Records a pair from its two game results for engine A.
    pub fn add_games(&mut self, first_won: bool, second_won: bool) {
        let bucket = &mut self.counts[2 * (usize::from(first_won) + usize::from(second_won))];
        *bucket = bucket.saturating_add(1);
    }

    /// Number of pairs recorded (saturating).
    pub fn pairs(&self) -> u64 {
        self.counts.iter().fold(0u64, |a, &c| a.saturating_add(c))
    }

    /// Mean pair score normalized to `[0, 1]` (pair points / 2), or `None`
    /// without pairs.
    pub fn mean(&self) -> Option<f64> {
        moments(&self.counts.map(|c| c as f64)).map(|(_, m, _)| m)
    }

    /// Per-pair variance of the normalized pair score, or `None` without
    /// pairs.
    pub fn variance(&self) -> Option<f64> {
        moments(&self.counts.map(|c| c as f64)).map(|(_, _, v)| v)
    }

    /// Elo with a 95% confidence interval from the pentanomial variance
    /// (`sqrt(variance / pairs)` is the standard error of the mean), or
    /// `None` without pairs.
    pub fn elo_interval(&self) -> Option<EloInterval> {
        let (n, mean, variance) = moments(&self.counts.map(|c| c as f64))?;
        Some(EloInterval::from_moments(mean, variance, n))
    }
}

/// `(total, mean, variance)` of a distribution whose `counts` sit on equally
/// spaced values from 0 to 1, or `None` for an empty one.
fn moments(counts: &[f64]) -> Option<(f64, f64, f64)> {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 || counts.len() < 2 {
        return None;
    }
    let step = 1.0 / (counts.len() - 1) as f64;
    let value = |i: usize| i as f64 * step;
    let mean = (0..counts.len()).map(|i| counts[i] * value(i)).sum::<f64>() / n;
    let deviation = |i: usize| counts[i] * (value(i) - mean).powi(2);
    let variance = (0..counts.len()).map(deviation).sum::<f64>() / n;
    Some((n, mean, variance))
}

/// The outcome of an SPRT at its current log-likelihood ratio.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SprtDecision {
    /// Neither bound is reached: keep playing.
    Continue,
    /// The lower bound is reached: the candidate is not `elo1` stronger
    /// (hypothesis H0, Elo = `elo0`, accepted).
    AcceptH0,
    /// The upper bound is reached: the candidate is stronger (hypothesis H1,
    /// Elo = `elo1`, accepted).
    AcceptH1,
}

/// A sequential probability ratio test of H0 (Elo = `elo0`) against H1
/// (Elo = `elo1`), in logistic Elo, with the generalized-SPRT approximation
/// used by fastchess, cutechess and OpenBench.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
}

impl Sprt {
    /// A test of `elo0` against `elo1` with false-positive rate `alpha` and
    /// false-negative rate `beta`. Returns `None` unless all are finite,
    /// `elo0 < elo1`, `alpha` and `beta` lie in `(0, 1)` and
    /// `alpha + beta < 1` (so the lower bound is below the upper one).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Option<Self> {
        let valid =
            elo0.is_finite() && elo1.is_finite() && elo0 < elo1 && alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0;
        valid.then_some(Sprt { elo0, elo1, alpha, beta })
    }

    /// [`Sprt::new`] with the customary `alpha = beta = 0.05`.
    pub fn with_default_errors(elo0: f64, elo1: f64) -> Option<Self> {
        Sprt::new(elo0, elo1, 0.05, 0.05)
    }

    /// The LLR bounds `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// Log-likelihood ratio of H1 over H0 for pentanomial pair counts, with
    /// each pair's normalized score as one sample. 0 without pairs.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        self.gsprt_llr(&pairs.counts.map(|c| c as f64))
    }

    /// Log-likelihood ratio of H1 over H0 for win/loss counts of single
    /// games, each game being one sample. 0 without games.
    pub fn llr_games(&self, score: &Score) -> f64 {
        self.gsprt_llr(&[score.losses as f64, score.wins as f64])
    }

    /// The decision at log-likelihood ratio `llr`: H1 at or above the upper
    /// bound, H0 at or below the lower bound, otherwise (also for NaN)
    /// continue.
    pub fn decision(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// The generalized SPRT's log-likelihood ratio: `N * sum p_i ln(q1_i / q0_i)`,
    /// where `p` is the empirical distribution of the samples over the bucket
    /// scores and `q0`/`q1` are the maximum-likelihood distributions whose mean
    /// is the expected score at `elo0`/`elo1` (as fishtest computes it). Empty
    /// buckets get [`LLR_REGULARIZATION`] pseudo-counts first, so that a few
    /// equal results give a small LLR rather than certainty.
    fn gsprt_llr(&self, counts: &[f64]) -> f64 {
        let n: f64 = counts.iter().sum();
        if n <= 0.0 || counts.len() < 2 {
            return 0.0;
        }
        let regularized: Vec<f64> = counts.iter().map(|&c| if c > 0.0 { c } else { LLR_REGULARIZATION }).collect();
        let total: f64 = regularized.iter().sum();
        let step = 1.0 / (counts.len() - 1) as f64;
        let samples: Vec<(f64, f64)> =
            regularized.iter().enumerate().map(|(i, &c)| (i as f64 * step, c / total)).collect();
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        let (Some(l0), Some(l1)) = (mle_multiplier(&samples, s0), mle_multiplier(&samples, s1)) else {
            return 0.0;
        };
        let per_sample: f64 =
            samples.iter().map(|&(a, p)| p * ((1.0 + l0 * (a - s0)).ln() - (1.0 + l1 * (a - s1)).ln())).sum();
        n * per_sample
    }
}

/// The Lagrange multiplier `l` of the maximum-likelihood distribution with mean `s`
/// near the empirical one: `q_i = p_i / (1 + l (a_i - s))`, where `l` solves
/// `sum p_i (a_i - s) / (1 + l (a_i - s)) = 0`. Found by bisection on the interval
/// where every `1 + l (a_i - s)` stays positive; `None` unless `0 < s < 1`.
fn mle_multiplier(samples: &[(f64, f64)], s: f64) -> Option<f64> {
    if !(s > 0.0 && s < 1.0) {
        return None;
    }
    let lowest = samples.iter().map(|&(a, _)| a).fold(f64::INFINITY, f64::min);
    let highest = samples.iter().map(|&(a, _)| a).fold(f64::NEG_INFINITY, f64::max);
    if !(lowest < s && s < highest) {
        return None;
    }
    let f = |l: f64| samples.iter().map(|&(a, p)| p * (a - s) / (1.0 + l * (a - s))).sum::<f64>();
    // f decreases in l; it tends to +inf at the lower end of the interval, -inf at the upper.
    let (mut lo, mut hi) = (-1.0 / (highest - s), 1.0 / (s - lowest));
    let shrink = 1e-12;
    lo += shrink * (hi - lo);
    hi -= shrink * (hi - lo);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn assert_close(got: f64, want: f64, tol: f64) {
        assert!((got - want).abs() <= tol, "{got} != {want} (± {tol})");
    }

    fn sprt_0_10() -> Sprt {
        Sprt::with_default_errors(0.0, 10.0).unwrap()
    }

    #[test]
    fn score_to_elo_matches_known_values() {
        assert_eq!(elo_from_score(0.5), 0.0);
        assert_eq!(Score::new(7, 7).elo(), Some(0.0));
        // -400 * log10(1/3) = 400 * 0.4771212547 = 190.8485019
        assert_close(elo_from_score(0.75), 190.848_501_887_865, 1e-9);
        assert_close(elo_from_score(0.25), -190.848_501_887_865, 1e-9);
        for elo in [-500.0, -35.5, 0.0, 10.0, 190.0, 800.0] {
            assert_close(elo_from_score(expected_score(elo)), elo, 1e-9);
        }
    }

    #[test]
    fn sixty_wins_forty_losses_give_70_elo_with_interval() {
        // s = 0.6, var = 0.24, se = sqrt(0.24/100) = 0.0489898,
        // 1.959964 * se = 0.0960182 -> s in [0.5039818, 0.6960182]
        // -> Elo in [2.766873, 143.909233], point estimate 70.436504.
        let (elo, lower, upper) = Score::new(60, 40).elo_interval().unwrap().into();
        assert_close(elo, 70.436_503_622, 1e-6);
        assert_close(lower, 2.766_873_223, 1e-6);
        assert_close(upper, 143.909_233_011, 1e-6);
    }

    #[test]
    fn zero_games_have_no_elo_and_even_los() {
        let s = Score::default();
        assert_eq!((s.games(), s.fraction(), s.elo()), (0, None, None));
        assert_eq!(s.elo_interval(), None);
        assert_eq!(s.los(), 0.5);
        assert_eq!(Pentanomial::default().elo_interval(), None);
        assert_eq!(Pentanomial::default().mean(), None);
    }

    #[test]
    fn all_wins_give_infinite_elo_without_nan() {
        let mut s = Score::default();
        (0..10).for_each(|_| s.add(true));
        let i = s.elo_interval().unwrap();
        assert_eq!([i.elo, i.lower, i.upper], [f64::INFINITY; 3]);
        // 0.5 * (1 + erf(10 / sqrt(20))) = 0.9992173
        assert_close(s.los(), 0.999_217_298_870_998_7, 1e-12);
        assert_eq!(Score::new(0, 3).elo(), Some(f64::NEG_INFINITY));
        assert_eq!(elo_from_score(1.5), f64::INFINITY);
        assert_eq!(elo_from_score(-0.1), f64::NEG_INFINITY);
        assert_eq!(expected_score(f64::INFINITY), 1.0);
    }

    #[test]
    fn erf_matches_reference_values() {
        // Reference values from Python's math.erf.
        let table = [
            (0.0, 0.0),
            (1e-10, 1.128_379_167_095_512_6e-10),
            (0.1, 0.112_462_916_018_284_9),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.0, 0.995_322_265_018_952_7),
            (3.0, 0.999_977_909_503_001_4),
            (3.5, 0.999_999_256_901_627_6),
            (4.0, 0.999_999_984_582_742_1),
            (5.0, 0.999_999_999_998_462_6),
            (-1.5, -0.966_105_146_475_310_8),
        ];
        for (x, want) in table {
            assert_close(erf(x), want, 1e-14);
        }
        assert_eq!(erf(f64::INFINITY), 1.0);
        assert_eq!(erf(f64::NEG_INFINITY), -1.0);
        assert!(erf(f64::NAN).is_nan());
    }

    #[test]
    fn los_of_sixty_forty_is_about_0_9772() {
        // 0.5 * (1 + erf(20 / sqrt(200))) = 0.5 * (1 + erf(sqrt 2)) = 0.97724987
        assert_close(Score::new(60, 40).los(), 0.977_249_868_051_820_8, 1e-12);
        assert_close(Score::new(40, 60).los(), 0.022_750_131_948_179_2, 1e-12);
    }

    #[test]
    fn pentanomial_buckets_pair_points_and_rejects_others() {
        let mut p = Pentanomial::default();
        for points in [0.0, 0.5, 1.0, 1.5, 2.0, 2.0] {
            p.add_pair(points).unwrap();
        }
        p.add_games(true, false);
        p.add_games(false, false);
        assert_eq!((p.counts, p.pairs()), ([2, 1, 2, 1, 2], 8));
        for bad in [-0.5, 0.25, 2.5, f64::NAN, f64::INFINITY] {
            assert!(p.add_pair(bad).is_err(), "{bad} accepted");
        }
        assert_eq!(p.pairs(), 8);
        assert!(InvalidPairPoints(0.25).to_string().contains("0.25"));
    }

    #[test]
    fn pentanomial_elo_interval_uses_pair_variance() {
        // counts [1,2,3,4,5] on scores [0,.25,.5,.75,1]: N = 15, mean = 10/15,
        // E[x²] = 8.125/15, var = 0.5416667 - 0.4444444 = 0.0972222,
        // se = sqrt(var/15) = 0.0805076, ± 1.959964 * se = ± 0.1577920
        // -> score in [0.5088747, 0.8244587] -> Elo in [6.167334, 268.715908].
        let p = Pentanomial::from_counts([1, 2, 3, 4, 5]);
        assert_close(p.mean().unwrap(), 2.0 / 3.0, 1e-15);
        assert_close(p.variance().unwrap(), 0.097_222_222_222, 1e-12);
        let i = p.elo_interval().unwrap();
        assert_close(i.elo, 120.411_998_266, 1e-6);
        assert_close(i.lower, 6.167_333_979, 1e-6);
        assert_close(i.upper, 268.715_908_052, 1e-6);
    }

    #[test]
    fn sprt_bounds_for_five_percent_errors_are_2_944() {
        let (lower, upper) = sprt_0_10().bounds();
        assert_close(lower, -2.944_438_979_166_44, 1e-12);
        assert_close(upper, 2.944_438_979_166_44, 1e-12);
    }

    #[test]
    fn sprt_rejects_invalid_parameters() {
        assert!(Sprt::new(10.0, 0.0, 0.05, 0.05).is_none());
        assert!(Sprt::new(0.0, 0.0, 0.05, 0.05).is_none());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_none());
        assert!(Sprt::new(0.0, 5.0, 0.6, 0.5).is_none());
        assert!(Sprt::new(f64::NAN, 5.0, 0.05, 0.05).is_none());
        assert!(Sprt::new(-5.0, 0.0, 0.1, 0.2).is_some());
    }

    #[test]
    fn sprt_llr_matches_hand_computed_values() {
        // s0 = 0.5, s1 = 1/(1 + 10^-0.025) = 0.5143872. With two outcomes the
        // constrained maximum-likelihood distributions are Bernoulli(s0) and
        // Bernoulli(s1): 60 ln(s1/s0) + 40 ln((1-s1)/(1-s0)) = 0.5342309.
        assert_close(sprt_0_10().llr_games(&Score::new(60, 40)), 0.534_230_912_0, 1e-8);
        // [1,2,3,4,5] over scores 0, 1/4, .., 1, solved independently (Newton's
        // method on the Lagrange multiplier, in Python): 0.2774747.
        let p = Pentanomial::from_counts([1, 2, 3, 4, 5]);
        assert_close(sprt_0_10().llr(&p), 0.277_474_678_1, 1e-8);
    }

    #[test]
    fn one_won_pair_is_far_from_a_decision() {
        // The regularized empirical distribution sits almost wholly on a score of 1;
        // its LLR is about ln(s1 / s0) = 0.0283, not a verdict.
        let llr = sprt_0_10().llr(&Pentanomial::from_counts([0, 0, 0, 0, 1]));
        assert_close(llr, 0.028_310_569_3, 1e-6);
        assert_eq!(sprt_0_10().decision(llr), SprtDecision::Continue);
    }

    #[test]
    fn sprt_accepts_h1_on_clearly_winning_pairs() {
        // 3000 pairs at a 65% game-win rate: LL 12.25%, WL 45.5%, WW 42.25%.
        let llr = sprt_0_10().llr(&Pentanomial::from_counts([368, 0, 1365, 0, 1267]));
        assert!(llr > 2.944_438_979, "llr = {llr}");
        assert_eq!(sprt_0_10().decision(llr), SprtDecision::AcceptH1);
    }

    #[test]
    fn sprt_accepts_h0_on_clearly_losing_results() {
        let sprt = sprt_0_10();
        let llr = sprt.llr(&Pentanomial::from_counts([1267, 0, 1365, 0, 368]));
        assert!(llr < -2.944_438_979, "llr = {llr}");
        assert_eq!(sprt.decision(llr), SprtDecision::AcceptH0);
        let games = sprt.llr_games(&Score::new(350, 650));
        assert_eq!(sprt.decision(games), SprtDecision::AcceptH0);
    }

    #[test]
    fn sprt_continues_on_tiny_samples() {
        let sprt = sprt_0_10();
        let p = Pentanomial::from_counts([1, 0, 1, 0, 2]);
        assert_eq!(sprt.decision(sprt.llr(&p)), SprtDecision::Continue);
        let games = sprt.llr_games(&Score::new(3, 2));
        assert_eq!(sprt.decision(games), SprtDecision::Continue);
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
        assert_eq!(sprt.llr_games(&Score::default()), 0.0);
        assert_eq!(sprt.decision(f64::NAN), SprtDecision::Continue);
    }

    #[test]
    fn sprt_llr_is_finite_when_all_results_are_equal() {
        let sprt = sprt_0_10();
        for counts in [[0, 0, 0, 0, 50], [50, 0, 0, 0, 0], [0, 0, 9, 0, 0], [0, 0, 0, 0, 1]] {
            let llr = sprt.llr(&Pentanomial::from_counts(counts));
            assert!(llr.is_finite(), "{counts:?} -> {llr}");
        }
        assert!(sprt.llr(&Pentanomial::from_counts([0, 0, 0, 0, 50])) > 0.0);
        assert!(sprt.llr_games(&Score::new(20, 0)).is_finite());
        assert!(sprt.llr_games(&Score::new(0, 20)) < 0.0);
        let huge = Pentanomial::from_counts([u64::MAX; 5]);
        assert_eq!(huge.pairs(), u64::MAX);
        assert!(sprt.llr(&huge).is_finite());
    }
}
