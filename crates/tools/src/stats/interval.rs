//! Confidence intervals of a mean score that stay inside `(0, 1)`, so that their Elo is
//! finite, and the floored moments the intervals and the SPRT share.
//!
//! - Single games are binomial: [`wilson`] is the Wilson score interval, which never
//!   leaves `[0, 1]` and, unlike the normal approximation `s ± z·sqrt(s(1 - s)/n)`, does
//!   not collapse to a point when every game went one way.
//! - A mean of other samples in `[0, 1]` (pair scores) has an estimated variance `v`:
//!   [`effective_wilson`] is Wilson's interval with the effective number of samples
//!   `n·m(1 - m)/v`, the number of single games whose binomial variance would give the
//!   same standard error; for single games it is Wilson's interval itself.
//! - `Moments::floored` is where the estimated variance is floored. When every sample
//!   is equal (every game won or lost, every pair in one bucket) the samples say nothing
//!   of their spread and a mean of 0 or 1 is infinite Elo; then one pseudo-sample is
//!   added, split half at score 0 and half at score 1 (the Haldane–Anscombe correction:
//!   a 10 - 0 score is rated as 10.5 - 0.5 of 11). Otherwise the variance is at least
//!   that of the samples with this pseudo-sample added, so that a sample which is
//!   almost all in one bucket does not claim a spread it has not shown.

/// The bounds `(lower, upper)` of samples whose `counts` sit on equally spaced scores
/// from 0 to 1, widened where every sample is at one end: after `n` samples all at
/// score 1 the mean is at least the exact (Clopper-Pearson) 95% lower bound of `n`
/// successes in `n` trials, `0.025^(1/n)` (the chance of a sample at 1 is at least that,
/// and the mean at least that chance), so the lower bound is never above it; likewise
/// the upper bound of samples all at 0 is never below `1 - 0.025^(1/n)`. For single
/// games this only matters up to 7 games, where the corrected Wilson bound is the
/// higher one; otherwise the bounds are returned unchanged.
pub fn exact_sweep_bounds(counts: &[f64], (lower, upper): (f64, f64)) -> (f64, f64) {
    let n: f64 = counts.iter().sum();
    let (Some(&first), Some(&last)) = (counts.first(), counts.last()) else {
        return (lower, upper);
    };
    if n.is_nan() || n <= 0.0 {
        (lower, upper)
    } else if last == n {
        (lower.min(0.025f64.powf(1.0 / n)), upper)
    } else if first == n {
        (lower, upper.max(1.0 - 0.025f64.powf(1.0 / n)))
    } else {
        (lower, upper)
    }
}

/// The mean score, its per-sample variance and the number of samples, after the
/// floor of [`Moments::floored`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Moments {
    /// Number of samples (one more when `adjusted`).
    pub n: f64,
    /// Mean score in `[0, 1]`.
    pub mean: f64,
    /// Per-sample variance.
    pub variance: f64,
    /// Whether every sample was equal, so that the pseudo-sample was added.
    pub adjusted: bool,
}

impl Moments {
    /// The moments of a distribution whose `counts` sit on equally spaced scores from 0
    /// to 1, floored as the module explains; `None` for an empty one (or one with fewer
    /// than two buckets).
    pub(crate) fn floored(counts: &[f64]) -> Option<Moments> {
        let (n, mean, variance) = raw_moments(counts)?;
        let mut with_pseudo = counts.to_vec();
        let last = with_pseudo.len() - 1;
        with_pseudo[0] += 0.5;
        with_pseudo[last] += 0.5;
        let (n_pseudo, mean_pseudo, variance_pseudo) = raw_moments(&with_pseudo)?;
        let filled = counts.iter().filter(|&&c| c > 0.0).count();
        Some(if filled <= 1 {
            Moments { n: n_pseudo, mean: mean_pseudo, variance: variance_pseudo, adjusted: true }
        } else {
            Moments { n, mean, variance: variance.max(variance_pseudo), adjusted: false }
        })
    }
}

/// `(total, mean, variance)` of a distribution whose `counts` sit on equally spaced
/// scores from 0 to 1, or `None` for an empty one.
pub(crate) fn raw_moments(counts: &[f64]) -> Option<(f64, f64, f64)> {
    let n: f64 = counts.iter().sum();
    if n.is_nan() || n <= 0.0 || counts.len() < 2 {
        return None;
    }
    let step = 1.0 / (counts.len() - 1) as f64;
    let value = |i: usize| i as f64 * step;
    let mean = (0..counts.len()).map(|i| counts[i] * value(i)).sum::<f64>() / n;
    let deviation = |i: usize| counts[i] * (value(i) - mean).powi(2);
    let variance = (0..counts.len()).map(deviation).sum::<f64>() / n;
    Some((n, mean, variance))
}

/// The Wilson score interval at normal quantile `z` for `successes` of `n` trials (both
/// may be fractional), as `(lower, upper)` score fractions; `None` unless
/// `0 <= successes <= n` and `n > 0`. It lies in `[0, 1]` and inside `(0, 1)` whenever
/// `0 < successes < n`.
pub fn wilson(successes: f64, n: f64, z: f64) -> Option<(f64, f64)> {
    if !(n > 0.0 && (0.0..=n).contains(&successes) && z.is_finite()) {
        return None;
    }
    let z2 = z * z;
    let center = (successes + z2 / 2.0) / (n + z2);
    let half = z / (n + z2) * (successes * (n - successes) / n + z2 / 4.0).sqrt();
    Some(((center - half).max(0.0), (center + half).min(1.0)))
}

/// Wilson's interval for a mean score `mean` of `n` samples with per-sample variance
/// `variance`: [`wilson`] with the effective number of samples `n·mean(1 - mean)/variance`.
/// `None` unless `0 < mean < 1`, `variance > 0` and `n > 0`.
pub fn effective_wilson(mean: f64, variance: f64, n: f64, z: f64) -> Option<(f64, f64)> {
    if !(mean > 0.0 && mean < 1.0 && variance > 0.0 && n > 0.0) {
        return None;
    }
    let effective = n * mean * (1.0 - mean) / variance;
    wilson(mean * effective, effective, z)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Z95;

    #[track_caller]
    fn assert_close(got: f64, want: f64, tol: f64) {
        assert!((got - want).abs() <= tol, "{got} != {want} (± {tol})");
    }

    #[test]
    fn wilson_of_sixty_in_a_hundred_matches_the_closed_form_by_hand() {
        // center = (60 + 1.920737)/103.841459 = 0.5963006, half = 1.959964/103.841459
        // * sqrt(24 + 0.960369) = 0.0942981 -> [0.5020026, 0.6905987].
        let (lower, upper) = wilson(60.0, 100.0, Z95).unwrap();
        assert_close(lower, 0.502_002_6, 1e-7);
        assert_close(upper, 0.690_598_7, 1e-7);
    }

    #[test]
    fn wilson_stays_inside_the_unit_interval_except_at_the_ends() {
        let (lower, upper) = wilson(10.0, 10.0, Z95).unwrap();
        // Lower bound n / (n + z²) for a perfect score.
        assert_close(lower, 10.0 / (10.0 + Z95 * Z95), 1e-12);
        assert_eq!(upper, 1.0);
        for (k, n) in [(1.0, 2.0), (0.5, 1.0), (9.5, 10.0), (1e6 - 1.0, 1e6)] {
            let (lower, upper) = wilson(k, n, Z95).unwrap();
            assert!(0.0 < lower && lower < k / n && k / n < upper && upper < 1.0, "{k}/{n}: [{lower}, {upper}]");
        }
        for (k, n) in [(1.0, 0.0), (-1.0, 3.0), (4.0, 3.0), (f64::NAN, 3.0)] {
            assert_eq!(wilson(k, n, Z95), None, "{k}/{n}");
        }
    }

    #[test]
    fn effective_wilson_of_binomial_moments_is_wilson() {
        let (a, b) = effective_wilson(0.6, 0.24, 100.0, Z95).unwrap();
        let (c, d) = wilson(60.0, 100.0, Z95).unwrap();
        assert_close(a, c, 1e-12);
        assert_close(b, d, 1e-12);
        assert_eq!(effective_wilson(1.0, 0.1, 5.0, Z95), None);
        assert_eq!(effective_wilson(0.5, 0.0, 5.0, Z95), None);
    }

    #[test]
    fn a_short_sweep_is_widened_to_the_exact_bound_and_a_long_one_is_not() {
        // One game won: the exact lower bound is 0.025; Wilson's for 1.5 of 2 is higher.
        let wilson_one = wilson(1.5, 2.0, Z95).unwrap();
        assert!(wilson_one.0 > 0.025);
        assert_eq!(exact_sweep_bounds(&[0.0, 1.0], wilson_one), (0.025, wilson_one.1));
        assert_eq!(exact_sweep_bounds(&[1.0, 0.0], (0.1, 0.2)), (0.1, 0.975));
        // Ten games won: 0.025^(1/10) = 0.6915029 is above Wilson's 0.6785521: unchanged.
        let wilson_ten = wilson(10.5, 11.0, Z95).unwrap();
        assert_eq!(exact_sweep_bounds(&[0.0, 10.0], wilson_ten), wilson_ten);
        assert_eq!(exact_sweep_bounds(&[3.0, 7.0], (0.4, 0.9)), (0.4, 0.9));
        assert_eq!(exact_sweep_bounds(&[], (0.4, 0.9)), (0.4, 0.9));
    }

    #[test]
    fn equal_samples_get_half_a_pseudo_sample_at_each_end() {
        // Five pairs all WW: 0.5 at score 0, 5.5 at score 1, of 6.
        let m = Moments::floored(&[0.0, 0.0, 0.0, 0.0, 5.0]).unwrap();
        assert!(m.adjusted);
        assert_close(m.n, 6.0, 0.0);
        assert_close(m.mean, 5.5 / 6.0, 1e-15);
        assert_close(m.variance, 5.5 / 6.0 * (0.5 / 6.0), 1e-15);
        // Three pairs all WL: mean 0.5, the variance that of 0.5 + 0.5 at the ends of 4.
        let m = Moments::floored(&[0.0, 0.0, 3.0, 0.0, 0.0]).unwrap();
        assert!(m.adjusted);
        assert_close(m.mean, 0.5, 1e-15);
        assert_close(m.variance, 0.25 / 4.0, 1e-15);
    }

    #[test]
    fn spread_samples_keep_their_mean_and_a_floored_variance() {
        let m = Moments::floored(&[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        assert!(!m.adjusted);
        assert_eq!((m.n, m.mean), (15.0, 10.0 / 15.0));
        // Its own variance 0.0972222 is below that of [1.5, 2, 3, 4, 5.5], 0.1083984.
        assert_close(m.variance, 0.108_398_437_5, 1e-12);
        // 99 WL and 1 WW: variance 0.0024750 is raised to that with the pseudo-pair.
        let m = Moments::floored(&[0.0, 0.0, 99.0, 0.0, 1.0]).unwrap();
        let (_, _, raw) = raw_moments(&[0.0, 0.0, 99.0, 0.0, 1.0]).unwrap();
        let (_, _, pseudo) = raw_moments(&[0.5, 0.0, 99.0, 0.0, 1.5]).unwrap();
        assert!(pseudo > raw);
        assert_eq!((m.mean, m.variance), (0.505, pseudo));
        assert_eq!(Moments::floored(&[0.0, 0.0]), None);
        assert_eq!(Moments::floored(&[3.0]), None);
    }
}
