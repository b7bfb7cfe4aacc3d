//! The monotone form's fit: the likelihood is concave in theta, so the maximum with every
//! I-spline coefficient at least [`FLOOR_ELO`] is found by an active set (as Lawson and Hanson's
//! non-negative least squares): fit with the free terms, hold the most negative one at the floor
//! and refit, until every free term is above it; then free again any held term that rises above
//! the floor when freed.

use super::curve::{CurveFit, FitError};
use super::form::Curve;
use super::monotone::{terms, FLOOR_ELO};

/// Rounds of the active set before it stops: every term held or freed a few times over.
fn max_rounds(n: usize) -> usize {
    4 * n + 4
}

/// The monotone fit of `base` (a monotone form, nothing held) with `fit` solving the rating
/// problem for a given set of held terms: the active set of the module's header. Keeps the
/// best feasible fit (every free term above the floor) by log-likelihood.
pub fn fit_active(
    base: &Curve,
    fit: impl Fn(Curve) -> Result<CurveFit, FitError>,
) -> Result<CurveFit, FitError> {
    let n = terms(&base.knots);
    let with = |held: &[usize]| {
        let mut c = base.clone();
        c.held = held.to_vec();
        c.held.sort_unstable();
        fit(c)
    };
    // theta[1..] are the free terms in order; the term index of each
    let coefficient = |g: &CurveFit, j: usize| -> Option<f64> {
        let free: Vec<usize> = (0..n).filter(|k| !g.curve.held.contains(k)).collect();
        free.iter().position(|&k| k == j).map(|p| g.theta[p + 1])
    };
    let mut held: Vec<usize> = Vec::new();
    let mut best: Option<CurveFit> = None;
    let mut g = with(&held)?;
    for _ in 0..max_rounds(n) {
        let lowest = (0..n)
            .filter(|j| !held.contains(j))
            .filter_map(|j| Some((j, coefficient(&g, j)?)))
            .filter(|&(_, c)| c < FLOOR_ELO)
            .min_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((j, _)) = lowest {
            held.push(j);
            g = with(&held)?;
            continue;
        }
        if best.as_ref().is_none_or(|b| g.loglik > b.loglik + 1e-9) {
            best = Some(g.clone());
        } else {
            break;
        }
        // free a held term the games pull above the floor
        let freed = held.iter().enumerate().find_map(|(i, &j)| {
            let rest: Vec<usize> = held.iter().copied().filter(|&k| k != j).collect();
            let h = with(&rest).ok()?;
            (coefficient(&h, j)? > FLOOR_ELO).then_some((i, h))
        });
        match freed {
            Some((i, h)) => {
                held.remove(i);
                g = h;
            }
            None => break,
        }
    }
    Ok(best.unwrap_or(g))
}
