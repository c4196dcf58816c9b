//! The numerics of the rating model: the log-likelihood of the logistic Bradley-Terry
//! model over an aggregated win matrix, its maximization by Newton's method with a
//! backtracking line search on the mean-0 subspace, and the covariance of the ratings
//! from the curvature at the maximum.
//!
//! Large one-sided fields (300,000 games all won by one side) need two things: the
//! gradient of each pair written as `w_ij (1 - p) - w_ji p` rather than `w_ij - n_ij p`,
//! which cancels to rounding noise larger than the gradient itself when `p` is near 1, and
//! a stop on the Newton decrement as well as on the step length.
//!
//! Ratings are in logistic Elo: engine `i` beats engine `j` with probability
//! `1 / (1 + 10^((r_j - r_i) / 400))`, that is `σ(c (r_i - r_j))` with `c = ln 10 / 400`
//! and `σ(x) = 1 / (1 + e^-x)`. Engines flagged in `prior` also play one virtual game,
//! counted half won and half lost, against a virtual opponent rated at the field's mean
//! (0 here): this keeps their ratings finite when the results alone do not.

/// `ln 10 / 400`: one Elo in natural-log odds units.
pub(super) const C: f64 = std::f64::consts::LN_10 / 400.0;

/// Largest Newton step (in Elo) still taken as progress; below it the solution is final.
const STEP_TOLERANCE: f64 = 1e-9;

/// The Newton decrement `gᵀ H⁻¹ g` (twice the gain a full step predicts, in natural-log
/// likelihood units) below which the solution is final: at most about 1e-7 Elo from the
/// maximum even where the curvature is only the prior's, and above the rounding noise of
/// the gradient for fields of up to about 1e11 games.
const DECREMENT_TOLERANCE: f64 = 1e-20;

/// Newton iterations before giving up (it needs about ten on ordinary fields).
const MAX_ITERATIONS: usize = 500;

/// The maximum of the likelihood and the curvature there.
#[derive(Clone, Debug)]
pub(super) struct Solution {
    /// Ratings in Elo, averaging 0.
    pub ratings: Vec<f64>,
    /// Covariance of the ratings under the mean-0 constraint, row-major `n × n`, in Elo².
    pub covariance: Vec<f64>,
    /// Newton iterations used.
    pub iterations: usize,
}

/// The aggregated results the model is fitted to.
pub(super) struct Field<'a> {
    /// Number of engines.
    pub n: usize,
    /// `wins[i * n + j]`: games engine `i` won against engine `j`.
    pub wins: &'a [u64],
    /// Engines that carry the virtual game against the field's mean.
    pub prior: &'a [bool],
}

/// `ln σ(x)` without overflow or cancellation.
fn ln_sigmoid(x: f64) -> f64 {
    if x > 0.0 { -(-x).exp().ln_1p() } else { x - x.exp().ln_1p() }
}

/// `σ(x) = 1 / (1 + e^-x)`.
fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

impl Field<'_> {
    fn games(&self, i: usize, j: usize) -> f64 {
        (self.wins[i * self.n + j] + self.wins[j * self.n + i]) as f64
    }

    /// The log-likelihood (plus the virtual games) at `r`.
    fn objective(&self, r: &[f64]) -> f64 {
        let n = self.n;
        let mut total = 0.0;
        for i in 0..n {
            for j in 0..n {
                let w = self.wins[i * n + j];
                if w > 0 {
                    total += w as f64 * ln_sigmoid(C * (r[i] - r[j]));
                }
            }
            if self.prior[i] {
                total += 0.5 * (ln_sigmoid(C * r[i]) + ln_sigmoid(-C * r[i]));
            }
        }
        total
    }

    /// The gradient of the objective and the matrix `H = -∇²` (the observed
    /// information, row-major), at `r`.
    fn derivatives(&self, r: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let n = self.n;
        let mut gradient = vec![0.0; n];
        let mut h = vec![0.0; n * n];
        for i in 0..n {
            for j in (i + 1)..n {
                let games = self.games(i, j);
                if games == 0.0 {
                    continue;
                }
                let x = C * (r[i] - r[j]);
                let (p, q) = (sigmoid(x), sigmoid(-x));
                // w_ij - games p written as w_ij q - w_ji p: no cancellation when p is
                // near 1 (a one-sided pair of many games), where it would leave rounding
                // noise larger than the gradient near the maximum.
                let g = C * (self.wins[i * n + j] as f64 * q - self.wins[j * n + i] as f64 * p);
                gradient[i] += g;
                gradient[j] -= g;
                let w = C * C * games * p * q;
                h[i * n + j] -= w;
                h[j * n + i] -= w;
                h[i * n + i] += w;
                h[j * n + j] += w;
            }
            if self.prior[i] {
                let (p, q) = (sigmoid(C * r[i]), sigmoid(-C * r[i]));
                gradient[i] += C * 0.5 * (q - p);
                h[i * n + i] += C * C * p * q;
            }
        }
        (gradient, h)
    }
}

/// `P H P + J / n`, with `P = I - J / n` the projection onto the mean-0 subspace and `J`
/// the all-ones matrix: positive definite when `H` is on that subspace, and its inverse
/// minus `J / n` is the pseudo-inverse of `P H P`.
fn projected(h: &[f64], n: usize) -> Vec<f64> {
    let nf = n as f64;
    let row_means: Vec<f64> = (0..n).map(|i| h[i * n..(i + 1) * n].iter().sum::<f64>() / nf).collect();
    let total_mean = row_means.iter().sum::<f64>() / nf;
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            // H is symmetric: its column means are its row means.
            a[i * n + j] = h[i * n + j] - row_means[i] - row_means[j] + total_mean + 1.0 / nf;
        }
    }
    a
}

/// The Cholesky factor `L` (lower triangle, row-major) of a symmetric positive
/// definite matrix, or `None` if it is not numerically positive definite.
fn cholesky(a: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let dot: f64 = (0..j).map(|k| l[i * n + k] * l[j * n + k]).sum();
            let value = a[i * n + j] - dot;
            if i == j {
                if value <= 0.0 || !value.is_finite() {
                    return None;
                }
                l[i * n + i] = value.sqrt();
            } else {
                l[i * n + j] = value / l[j * n + j];
            }
        }
    }
    Some(l)
}

/// Solves `L Lᵀ x = b` in place.
fn cholesky_solve(l: &[f64], n: usize, b: &mut [f64]) {
    for i in 0..n {
        let dot: f64 = (0..i).map(|k| l[i * n + k] * b[k]).sum();
        b[i] = (b[i] - dot) / l[i * n + i];
    }
    for i in (0..n).rev() {
        let dot: f64 = ((i + 1)..n).map(|k| l[k * n + i] * b[k]).sum();
        b[i] = (b[i] - dot) / l[i * n + i];
    }
}

fn center(r: &mut [f64]) {
    let mean = r.iter().sum::<f64>() / r.len() as f64;
    r.iter_mut().for_each(|x| *x -= mean);
}

/// Maximizes the objective over ratings averaging 0 and returns the maximum with its
/// covariance, or `None` if the curvature is singular (the caller guarantees it is not:
/// every engine outside one strongly connected group carries the prior) or Newton's
/// method fails to converge.
pub(super) fn solve(field: &Field<'_>) -> Option<Solution> {
    let n = field.n;
    let mut r = vec![0.0; n];
    let mut value = field.objective(&r);
    let mut iterations = 0;
    loop {
        iterations += 1;
        if iterations > MAX_ITERATIONS {
            return None;
        }
        let (gradient, h) = field.derivatives(&r);
        let l = cholesky(&projected(&h, n), n)?;
        // The projected gradient; the step solving (P H P + J/n) δ = P g stays in the
        // mean-0 subspace because that matrix maps it onto itself.
        let mean = gradient.iter().sum::<f64>() / n as f64;
        let mut step: Vec<f64> = gradient.iter().map(|g| g - mean).collect();
        cholesky_solve(&l, n, &mut step);
        let decrement: f64 = gradient.iter().map(|g| g - mean).zip(&step).map(|(g, d)| g * d).sum();
        if decrement < DECREMENT_TOLERANCE {
            break;
        }
        let mut t = 1.0;
        let mut next: Vec<f64>;
        loop {
            next = r.iter().zip(&step).map(|(x, d)| x + t * d).collect();
            center(&mut next);
            let next_value = field.objective(&next);
            // The objective is concave: a full Newton step is accepted unless it
            // overshoots; accept equal values too, which happens at the optimum.
            if next_value >= value - 1e-12 * value.abs().max(1.0) || t < 1e-12 {
                value = next_value.max(value);
                break;
            }
            t *= 0.5;
        }
        let moved = r.iter().zip(&next).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        r = next;
        if moved < STEP_TOLERANCE {
            break;
        }
    }
    let (_, h) = field.derivatives(&r);
    let l = cholesky(&projected(&h, n), n)?;
    let inv_n = 1.0 / n as f64;
    let mut covariance = vec![0.0; n * n];
    for j in 0..n {
        let mut column = vec![0.0; n];
        column[j] = 1.0;
        cholesky_solve(&l, n, &mut column);
        for i in 0..n {
            covariance[i * n + j] = column[i] - inv_n;
        }
    }
    Some(Solution { ratings: r, covariance, iterations })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_engines_get_the_logit_of_their_score_split_around_zero() {
        // 3 wins to 1: a difference of 400 log10(3) Elo.
        let wins = [0, 3, 1, 0];
        let solution = solve(&Field { n: 2, wins: &wins, prior: &[false, false] }).unwrap();
        let d = 400.0 * 3f64.log10();
        assert!((solution.ratings[0] - d / 2.0).abs() < 1e-9);
        assert!((solution.ratings[1] + d / 2.0).abs() < 1e-9);
        // The variance of the difference is 1 / (c² N p (1 - p)); each rating is half of it.
        let var_d = 1.0 / (C * C * 4.0 * 0.75 * 0.25);
        assert!((solution.covariance[0] - var_d / 4.0).abs() < 1e-6 * var_d);
        assert!((solution.covariance[1] + var_d / 4.0).abs() < 1e-6 * var_d);
    }

    #[test]
    fn a_perfect_score_with_the_prior_stays_finite() {
        // 10 wins and the virtual half game against an opponent at the mean.
        let wins = [0, 10, 0, 0];
        let solution = solve(&Field { n: 2, wins: &wins, prior: &[true, true] }).unwrap();
        assert!(solution.ratings.iter().all(|r| r.is_finite()));
        // Both engines carry the prior: the difference d solves
        // 10 (1 - σ(c d)) + (1 - 2 σ(c d / 2)) / 2 = 0 (about 580 Elo).
        let d = solution.ratings[0] - solution.ratings[1];
        assert!((10.0 * (1.0 - sigmoid(C * d)) + 0.5 * (1.0 - 2.0 * sigmoid(C * d / 2.0))).abs() < 1e-9);
        assert!((d - 580.0).abs() < 1.0, "{d}");
    }

    #[test]
    fn a_singular_field_is_refused_not_solved() {
        let wins = [0, 10, 0, 0];
        assert!(solve(&Field { n: 2, wins: &wins, prior: &[false, false] }).is_none());
    }

    /// `W (1 - σ(c d)) + (1 - 2 σ(c d / 2)) / 2`: the derivative (over `c`) of the
    /// objective of two engines, the first winning all `W` games, both with the prior.
    fn two_engine_slope(w: f64, d: f64) -> f64 {
        w * sigmoid(-C * d) + 0.5 * (sigmoid(-C * d / 2.0) - sigmoid(C * d / 2.0))
    }

    #[test]
    fn three_hundred_thousand_games_all_won_converge_to_the_root_of_the_slope() {
        let w = 300_000u64;
        let solution = solve(&Field { n: 2, wins: &[0, w, 0, 0], prior: &[true, true] }).unwrap();
        let d = solution.ratings[0] - solution.ratings[1];
        // The slope falls through 0 at the maximum: bracket it a millionth of an Elo wide.
        assert!(two_engine_slope(w as f64, d - 1e-6) > 0.0 && two_engine_slope(w as f64, d + 1e-6) < 0.0, "{d}");
        assert!(solution.iterations < 50, "{}", solution.iterations);
    }
}
