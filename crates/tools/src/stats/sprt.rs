//! The sequential probability ratio test of the referee's `--sprt`.
//!
//! The log-likelihood ratio is the generalized SPRT's in its normal approximation, as
//! fastchess, OpenBench and fishtest's normalized tests compute it: with the mean score
//! `m` and per-sample variance `v` of `n` samples (single games or game pairs), and
//! `s0`, `s1` the expected scores at `elo0`, `elo1`,
//!
//! `LLR = n (s1 - s0) (2m - s0 - s1) / (2v)`,
//!
//! the log of the ratio of two normal likelihoods of the mean, of means `s1` and `s0` and
//! variance `v / n`. The variance is estimated from the samples, floored as
//! [`Moments::floored`] explains: without the floor a clean sweep has variance 0 and no
//! LLR at all. (The exact multinomial form, with the maximum-likelihood distributions of
//! mean `s0` and `s1`, is no help there: its LLR per sample is at most `ln(s1 / s0)`,
//! 0.028 for `[0, 10]`, so even a 40 - 0 sweep could not decide before 104 won pairs.)

use super::expected_score;
use super::interval::Moments;
use super::{Pentanomial, Score};

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
/// (Elo = `elo1`), in logistic Elo, with the generalized SPRT's normal
/// approximation (see the module documentation).
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
        self.normal_llr(&pairs.counts.map(|c| c as f64))
    }

    /// Log-likelihood ratio of H1 over H0 for win/loss counts of single
    /// games, each game being one sample. 0 without games.
    pub fn llr_games(&self, score: &Score) -> f64 {
        self.normal_llr(&[score.losses as f64, score.wins as f64])
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

    /// `n (s1 - s0) (2m - s0 - s1) / (2v)` over samples whose `counts` sit on equally
    /// spaced scores from 0 to 1, with the floored moments; 0 without samples.
    fn normal_llr(&self, counts: &[f64]) -> f64 {
        let Some(m) = Moments::floored(counts) else {
            return 0.0;
        };
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        m.n * (s1 - s0) * (2.0 * m.mean - s0 - s1) / (2.0 * m.variance)
    }
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
        // s0 = 0.5, s1 = 1/(1 + 10^-0.025) = 0.5143874. 60 - 40: m = 0.6; the variance
        // 0.24 is floored to that of 40.5 - 60.5, 0.5990099 * 0.4009901 = 0.2401921:
        // 100 * 0.0143874 * (1.2 - 1.0143874) / (2 * 0.2401921) = 0.555886.
        assert_close(sprt_0_10().llr_games(&Score::new(60, 40)), 0.555_886_5, 1e-6);
        // [1,2,3,4,5] on 0, 1/4, .., 1: m = 2/3, variance 0.0972222 floored to that of
        // [1.5,2,3,4,5.5] (mean 0.65625), 0.1083984: 15 * 0.0143874 * 0.3189459 / 0.2167969.
        let p = Pentanomial::from_counts([1, 2, 3, 4, 5]);
        assert_close(sprt_0_10().llr(&p), 0.317_491_0, 1e-6);
    }

    #[test]
    fn one_won_pair_is_far_from_a_decision() {
        // 0.5 at 0 and 1.5 at 1: m = 0.75, v = 0.1875, n = 2:
        // 2 * 0.0143874 * (1.5 - 1.0143874) / 0.375 = 0.0372619.
        let llr = sprt_0_10().llr(&Pentanomial::from_counts([0, 0, 0, 0, 1]));
        assert_close(llr, 0.037_261_9, 1e-6);
        assert_eq!(sprt_0_10().decision(llr), SprtDecision::Continue);
    }

    #[test]
    fn a_clean_sweep_decides_within_fourteen_pairs() {
        let sprt = sprt_0_10();
        let decision = |pairs: u64, won: bool| {
            let counts = if won { [0, 0, 0, 0, pairs] } else { [pairs, 0, 0, 0, 0] };
            sprt.decision(sprt.llr(&Pentanomial::from_counts(counts)))
        };
        assert_eq!(decision(13, true), SprtDecision::Continue);
        assert_eq!(decision(14, true), SprtDecision::AcceptH1);
        assert_eq!(decision(20, true), SprtDecision::AcceptH1);
        assert_eq!(decision(13, false), SprtDecision::Continue);
        assert_eq!(decision(14, false), SprtDecision::AcceptH0);
        assert_eq!(sprt.decision(sprt.llr_games(&Score::new(40, 0))), SprtDecision::AcceptH1);
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
        // Every pair split: the mean is Elo 0 = elo0 exactly, so the LLR leans to H0.
        assert!(sprt.llr(&Pentanomial::from_counts([0, 0, 9, 0, 0])) < 0.0);
        assert!(sprt.llr_games(&Score::new(20, 0)).is_finite());
        assert!(sprt.llr_games(&Score::new(0, 20)) < 0.0);
        let huge = Pentanomial::from_counts([u64::MAX; 5]);
        assert_eq!(huge.pairs(), u64::MAX);
        assert!(sprt.llr(&huge).is_finite());
    }
}
