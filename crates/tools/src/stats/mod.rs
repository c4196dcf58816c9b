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
//! (or a neutral value where documented). The intervals ([`interval`]) are
//! Wilson's, so they stay inside `(0, 1)` and their Elo is finite, for perfect
//! scores too: when every game (or pair) went the same way, half a pseudo-game
//! is added to each end first, and [`EloInterval::adjusted`] says so. Only the
//! bare conversion [`elo_from_score`] and [`Score::elo`] give infinite Elo for
//! perfect scores.

use std::fmt;

pub mod interval;
mod sprt;

pub use interval::{effective_wilson, wilson};
pub use sprt::{Sprt, SprtDecision};

use interval::Moments;

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

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

/// An Elo estimate with its 95% confidence interval, all in logistic Elo; every
/// field is finite (the interval is Wilson's, see [`interval`]) as long as the
/// half-sample correction is visible in an `f64`, that is below 2^53 samples.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloInterval {
    /// The point estimate: the Elo of the mean score.
    pub elo: f64,
    /// Lower end of the 95% confidence interval.
    pub lower: f64,
    /// Upper end of the 95% confidence interval.
    pub upper: f64,
    /// Whether every sample was equal (a perfect or zero score, every pair in one
    /// bucket), so that half a pseudo-sample was added at score 0 and half at score 1
    /// before estimating: a 10 - 0 score is rated as 10.5 - 0.5.
    pub adjusted: bool,
}

impl EloInterval {
    /// The interval of samples whose `counts` sit on equally spaced scores from 0 to 1:
    /// the Elo of the floored mean, and of the bounds of Wilson's interval with the
    /// effective number of samples ([`interval`]), widened to the exact bound of a sweep
    /// ([`interval::exact_sweep_bounds`]). `None` without samples.
    fn of_counts(counts: &[f64]) -> Option<Self> {
        let m = Moments::floored(counts)?;
        let bounds = effective_wilson(m.mean, m.variance, m.n, Z95)?;
        Some(EloInterval::of_bounds(m.mean, interval::exact_sweep_bounds(counts, bounds), m.adjusted))
    }

    /// The Elo of a mean score and of its bounds.
    fn of_bounds(mean: f64, (lower, upper): (f64, f64), adjusted: bool) -> Self {
        EloInterval { elo: elo_from_score(mean), lower: elo_from_score(lower), upper: elo_from_score(upper), adjusted }
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

    /// Elo with the 95% Wilson score interval, or `None` without games. A
    /// perfect (or zero) score is rated with half a game added to each side
    /// ([`EloInterval::adjusted`]): 10 - 0 gives the Elo of 10.5 of 11 and
    /// Wilson's bounds for 10.5 of 11, all finite; its lower bound is lowered to
    /// the exact one of 10 wins in 10 games where that is lower (up to 7 games).
    pub fn elo_interval(&self) -> Option<EloInterval> {
        let (wins, n) = (self.wins as f64, self.wins as f64 + self.losses as f64);
        if n == 0.0 {
            return None;
        }
        let adjusted = self.wins == 0 || self.losses == 0;
        let (wins, n) = if adjusted { (wins + 0.5, n + 1.0) } else { (wins, n) };
        let bounds = wilson(wins, n, Z95)?;
        let counts = [self.losses as f64, self.wins as f64];
        Some(EloInterval::of_bounds(wins / n, interval::exact_sweep_bounds(&counts, bounds), adjusted))
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
        interval::raw_moments(&self.counts.map(|c| c as f64)).map(|(_, m, _)| m)
    }

    /// Per-pair variance of the normalized pair score (the samples' own, not
    /// floored), or `None` without pairs.
    pub fn variance(&self) -> Option<f64> {
        interval::raw_moments(&self.counts.map(|c| c as f64)).map(|(_, _, v)| v)
    }

    /// Elo with a 95% interval from the pair scores, or `None` without pairs:
    /// Wilson's interval with the effective number of pairs
    /// `pairs·m(1 - m)/v`, where `v` is the per-pair variance floored as
    /// [`interval`] explains (all pairs in one bucket get half a pseudo-pair at
    /// each end, [`EloInterval::adjusted`]; all pairs won or all lost are widened
    /// to the exact bound of such a sweep).
    pub fn elo_interval(&self) -> Option<EloInterval> {
        EloInterval::of_counts(&self.counts.map(|c| c as f64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn assert_close(got: f64, want: f64, tol: f64) {
        assert!((got - want).abs() <= tol, "{got} != {want} (± {tol})");
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
    fn sixty_wins_forty_losses_give_70_elo_with_the_wilson_interval() {
        // Wilson: [0.5020026, 0.6905987] (interval.rs) -> Elo [1.391547, 139.481460],
        // point estimate 70.436504.
        let i = Score::new(60, 40).elo_interval().unwrap();
        assert_close(i.elo, 70.436_503_622, 1e-6);
        assert_close(i.lower, 1.391_547_269, 1e-6);
        assert_close(i.upper, 139.481_459_975, 1e-6);
        assert!(!i.adjusted);
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
    fn all_wins_give_a_finite_adjusted_interval_and_bare_infinite_elo() {
        let mut s = Score::default();
        (0..10).for_each(|_| s.add(true));
        // Rated as 10.5 of 11: 0.9545455 -> +528.888; Wilson [0.6785521, 0.9952361]
        // -> [+129.789, +927.986].
        let i = s.elo_interval().unwrap();
        assert!(i.adjusted);
        assert_close(i.elo, 528.887_717_894, 1e-6);
        assert_close(i.lower, 129.789_029_837, 1e-6);
        assert_close(i.upper, 927.986_405_950, 1e-6);
        let zero = Score::new(0, 10).elo_interval().unwrap();
        assert_close(zero.elo, -i.elo, 1e-9);
        assert_close(zero.lower, -i.upper, 1e-9);
        assert_close(zero.upper, -i.lower, 1e-9);
        // 0.5 * (1 + erf(10 / sqrt(20))) = 0.9992173
        assert_close(s.los(), 0.999_217_298_870_998_7, 1e-12);
        assert_eq!(s.elo(), Some(f64::INFINITY));
        assert_eq!(Score::new(0, 3).elo(), Some(f64::NEG_INFINITY));
        assert_eq!(elo_from_score(1.5), f64::INFINITY);
        assert_eq!(elo_from_score(-0.1), f64::NEG_INFINITY);
        assert_eq!(expected_score(f64::INFINITY), 1.0);
    }

    #[test]
    fn every_interval_is_finite_and_holds_its_estimate() {
        for n in 1..=40u64 {
            for w in 0..=n {
                let i = Score::new(w, n - w).elo_interval().unwrap();
                assert!(i.lower.is_finite() && i.upper.is_finite(), "{w}-{}: {i:?}", n - w);
                assert!(i.lower < i.elo && i.elo < i.upper, "{w}-{}: {i:?}", n - w);
            }
        }
        for counts in [[0, 0, 0, 0, 1], [3, 0, 0, 0, 0], [0, 0, 7, 0, 0], [0, 1, 0, 0, 0], [1, 0, 0, 0, 99]] {
            let i = Pentanomial::from_counts(counts).elo_interval().unwrap();
            assert!(i.lower.is_finite() && i.upper.is_finite(), "{counts:?}: {i:?}");
            assert!(i.lower < i.elo && i.elo < i.upper, "{counts:?}: {i:?}");
        }
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
    fn pentanomial_elo_interval_uses_the_floored_pair_variance() {
        // counts [1,2,3,4,5] on scores [0,.25,.5,.75,1]: N = 15, mean = 2/3, variance
        // 0.0972222 floored to 0.1083984 ([1.5,2,3,4,5.5]); effective pairs
        // 15 * (2/9) / 0.1083984 = 30.750751; Wilson for 20.500501 of 30.750751:
        // [0.4899803, 0.8063364] -> Elo [-6.963326, 247.787322], estimate 120.411998.
        let p = Pentanomial::from_counts([1, 2, 3, 4, 5]);
        assert_close(p.mean().unwrap(), 2.0 / 3.0, 1e-15);
        assert_close(p.variance().unwrap(), 0.097_222_222_222, 1e-12);
        let i = p.elo_interval().unwrap();
        assert_close(i.elo, 120.411_998_266, 1e-6);
        assert_close(i.lower, -6.963_325_775, 1e-6);
        assert_close(i.upper, 247.787_322_306, 1e-6);
    }

    #[test]
    fn pairs_all_in_one_bucket_get_a_floored_variance() {
        // Four WL pairs: 0.5 LL, 4 WL, 0.5 WW of 5: mean 0.5, variance 0.05, effective
        // pairs 25: Wilson for 12.5 of 25, [0.3175224, 0.6824776] -> ±132.9 Elo.
        let i = Pentanomial::from_counts([0, 0, 4, 0, 0]).elo_interval().unwrap();
        assert!(i.adjusted);
        assert_eq!(i.elo, 0.0);
        let (lower, upper) = wilson(12.5, 25.0, Z95).unwrap();
        assert_close(i.lower, elo_from_score(lower), 1e-9);
        assert_close(i.upper, elo_from_score(upper), 1e-9);
        assert!(i.upper > 100.0 && i.upper < 200.0, "{i:?}");
    }
}
