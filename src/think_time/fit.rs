//! Fitting a think-time model on rows of clocked games.
//!
//! The log-time's mean: least squares of `ln(seconds)` on the features (a move the clock shows as
//! 0 s took under a second: it counts as half a second), with a small ridge so a feature that
//! never varies in the games (no increment, say) gets 0 rather than an unsolvable system.
//!
//! The spread: for a lognormal, the residual `r = ln t - mu . x` is `sigma z` with `z` standard
//! normal, so `ln r^2 = 2 ln sigma + ln z^2`, and `E[ln z^2] = -(gamma + ln 2) = -1.2704`. Least
//! squares of `ln r^2` on the features therefore gives `2 log_sigma` less 1.2704 in the bias.
//!
//! Last, the bias is moved so the model's expected seconds sum to the seconds people took on the
//! same moves: the exponential of a fit in logs misses the mean in seconds (the clock's whole
//! seconds, a spread that is not quite lognormal), and the mean is what spends the clock.

use nalgebra::{DMatrix, DVector};

use crate::strength::{MoveContext, ThinkModel, THINK_FEATURES as FEATURES, THINK_PREVIOUS};

use super::error::{Error, Result};
use super::rows::GameRows;

/// The time a move shown as 0 s counts as, in seconds.
pub const ZERO_SECONDS: f64 = 0.5;
/// `E[ln z^2]` for a standard normal `z`: `-(Euler's gamma + ln 2)`.
const E_LN_CHI2: f64 = -1.270_362_845_461_478;
/// The ridge, per move, on every coefficient but the bias.
const RIDGE: f64 = 1e-4;
/// The shortest time the model draws (seconds): a person moves the piece.
pub const MIN_SECONDS: f64 = 0.2;

/// Every move's context (the person's own last times) and its seconds.
pub fn samples(games: &[GameRows]) -> Vec<(MoveContext, f64)> {
    let mut out = Vec::new();
    for g in games {
        for white in [true, false] {
            let mut previous: Vec<f64> = Vec::new();
            for row in g.side(white) {
                out.push((g.context(row, row.own_clock, &previous), row.seconds));
                previous.insert(0, row.seconds);
                previous.truncate(THINK_PREVIOUS);
            }
        }
    }
    out
}

/// Least squares of `y` on the rows of `x`, with the ridge.
fn least_squares(x: &[[f64; FEATURES.len()]], y: &[f64]) -> Result<Vec<f64>> {
    let n = FEATURES.len();
    let mut xtx = DMatrix::<f64>::zeros(n, n);
    let mut xty = DVector::<f64>::zeros(n);
    for (row, &t) in x.iter().zip(y) {
        for i in 0..n {
            xty[i] += row[i] * t;
            for j in 0..n {
                xtx[(i, j)] += row[i] * row[j];
            }
        }
    }
    for i in 1..n {
        xtx[(i, i)] += RIDGE * x.len() as f64;
    }
    let chol = xtx
        .cholesky()
        .ok_or_else(|| Error("the features' system cannot be solved (too few moves?)".into()))?;
    Ok(chol.solve(&xty).iter().copied().collect())
}

/// Fits a model on the moves; `fitted_on` says on what.
pub fn fit(samples: &[(MoveContext, f64)], fitted_on: String) -> Result<ThinkModel> {
    if samples.len() < 10 * FEATURES.len() {
        return Err(Error(format!(
            "{} timed moves: a fit of {} features needs at least {}",
            samples.len(),
            FEATURES.len(),
            10 * FEATURES.len()
        )));
    }
    let x: Vec<_> = samples.iter().map(|(c, _)| c.features()).collect();
    let y: Vec<f64> = samples
        .iter()
        .map(|(_, t)| t.max(ZERO_SECONDS).ln())
        .collect();
    let mu = least_squares(&x, &y)?;
    let z: Vec<f64> = x
        .iter()
        .zip(&y)
        .map(|(row, &t)| {
            let r = t - row.iter().zip(&mu).map(|(a, b)| a * b).sum::<f64>();
            (r * r).max(1e-6).ln()
        })
        .collect();
    let mut log_sigma: Vec<f64> = least_squares(&x, &z)?.iter().map(|c| c / 2.0).collect();
    log_sigma[0] -= E_LN_CHI2 / 2.0;
    let mut model = ThinkModel {
        fitted_on,
        features: FEATURES.iter().map(|f| f.to_string()).collect(),
        mu,
        log_sigma,
        min_seconds: MIN_SECONDS,
    };
    // the mean in seconds: a few steps, since the floor at min_seconds is not a plain scale
    let actual: f64 = samples.iter().map(|(_, t)| t).sum();
    for _ in 0..4 {
        let predicted: f64 = samples.iter().map(|(c, _)| model.expected(c)).sum();
        model.mu[0] += (actual / predicted).ln();
    }
    Ok(model)
}
