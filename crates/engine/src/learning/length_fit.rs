//! The clock's game-length model ([`crate::player::length`]) fitted to the turns played
//! in recorded games: least squares with a small ridge penalty
//! (`crates/engine/examples/game_lengths.rs --fit` writes the weights file).

use crate::learning::linear_solver::solve;
use crate::player::length::{LENGTH_FEATURES, LengthFeatures};

/// Least-squares weights for `samples` (features, target), with a small ridge penalty
/// (`l2` times the samples' count, not applied to the bias) so that features that never
/// vary still give a solution; `None` when there are no samples.
pub fn fit(samples: &[(LengthFeatures, f64)], l2: f64) -> Option<[f64; LENGTH_FEATURES]> {
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
    let solution = solve(a.concat(), b.to_vec(), N)?;
    Some(std::array::from_fn(|i| solution[i] / scale[i]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitting_recovers_the_weights_of_a_linear_rule() {
        let truth = [2.0, 0.25, 1.5, -0.5, 0.1, 0.2, 0.05, -0.01];
        let mut samples = Vec::new();
        let mut x = 1.0f64;
        for i in 0..400 {
            // Deterministic, varied features.
            x = (x * 7.3 + 1.1) % 13.0;
            let f = LengthFeatures([
                1.0,
                20.0 + x * 3.0,
                f64::from(i % 4),
                x % 5.0,
                (x * 1.7) % 9.0,
                x * 2.0 + f64::from(i % 7),
                (x * 5.1) % 23.0,
                f64::from(i % 11) * x,
            ]);
            let y: f64 = truth.iter().zip(f.0.iter()).map(|(w, v)| w * v).sum();
            samples.push((f, y));
        }
        let w = fit(&samples, 0.0).expect("a solution");
        for (got, want) in w.iter().zip(truth.iter()) {
            assert!((got - want).abs() < 1e-6, "{w:?}");
        }
        assert_eq!(fit(&[], 0.0), None);
    }
}
