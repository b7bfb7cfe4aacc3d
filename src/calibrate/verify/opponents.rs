//! A verified level's games split by opponent: one rating per level assumes it scores against
//! every member as their ratings say. At the weak end it may not (a level can outscore one weak
//! member and lose every game to the next), and a single figure hides that.

use nalgebra::{DMatrix, DVector};

use crate::rating::problem::Cell;
use crate::results::VerifyOpponentRow;

use crate::calibrate::fit::{CurveFit, Z95};
use crate::rating::model::{elo_from_score, expected_score, ELO_TO_NAT};

/// Wilson's 95% interval of a proportion `q` over `n` trials: well behaved at 0 and 1, where a
/// performance has only one bound.
fn wilson(q: f64, n: f64) -> (f64, f64) {
    let z2 = Z95 * Z95;
    let centre = (q + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (q * (1.0 - q) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// A level's consistency across its opponents: chi² on (opponents − 1) degrees of freedom.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Consistency {
    pub chi2: f64,
    pub dof: u32,
}

/// One row per (level, opponent) with games, and per level its consistency (None with one
/// opponent). `names` are the fit's players, the levels being `names[first..]` at `targets`;
/// opponents are the players before `first` (the pool).
///
/// The test: y_j = (score_j − expected_j) / (K e_j (1 − e_j)) is the match's performance less
/// the level's rating, linearized (finite after a perfect score; K = ln 10 / 400). Under one rating the y_j share
/// a mean, with covariance Σ = diag(the games' binomial variance) + the opponents' rating
/// covariance (a shift common to all opponents, the scale's location, drops out of the test).
/// chi² = rᵀ Σ⁻¹ r with r = y minus its GLS mean; each row's z is r_j over its own SD.
pub fn opponent_rows(
    names: &[String],
    first: usize,
    targets: &[f64],
    f: &CurveFit,
    cells: &[Cell],
) -> (Vec<VerifyOpponentRow>, Vec<Option<Consistency>>) {
    let mut rows = Vec::new();
    let mut tests = Vec::new();
    let n_params = f.cov.nrows();
    for (k, &target) in targets.iter().enumerate() {
        let i = first + k;
        let level = &f.players[i];
        let mut met: Vec<(usize, f64, f64, f64)> = Vec::new(); // (opponent, n, points, draws)
        for c in cells.iter().filter(|c| c.n > 0.0) {
            let (o, points) = if c.a == i {
                (c.b, c.score)
            } else if c.b == i {
                (c.a, c.n - c.score)
            } else {
                continue;
            };
            if o >= first {
                continue;
            }
            match met.iter_mut().find(|m| m.0 == o) {
                Some(m) => {
                    m.1 += c.n;
                    m.2 += points;
                    m.3 += c.draws;
                }
                None => met.push((o, c.n, points, c.draws)),
            }
        }
        met.sort_by(|a, b| f.players[a.0].elo.total_cmp(&f.players[b.0].elo));
        let m = met.len();
        let mut y = DVector::zeros(m);
        let mut sigma = DMatrix::zeros(m, m);
        let weights: Vec<DVector<f64>> = met
            .iter()
            .map(|(o, ..)| f.ratings[*o].dense(n_params))
            .collect();
        for (a, &(o, n, points, _)) in met.iter().enumerate() {
            let e = expected_score(level.elo - f.players[o].elo);
            let slope = ELO_TO_NAT * e * (1.0 - e);
            y[a] = (points / n - e) / slope;
            sigma[(a, a)] += e * (1.0 - e) / n / (slope * slope);
            for b in 0..m {
                sigma[(a, b)] += weights[a].dot(&(&f.cov * &weights[b]));
            }
        }
        let (z, test) = gls_residuals(&y, &sigma);
        tests.push(test);
        for (a, (o, n, points, draws)) in met.into_iter().enumerate() {
            let opp = &f.players[o];
            let q = points / n;
            let (lo, hi) = wilson(q, n);
            let wins = (points - 0.5 * draws).round();
            rows.push(VerifyOpponentRow {
                target,
                opponent: names[o].clone(),
                opponent_elo: opp.elo,
                opponent_sd: opp.sd,
                games: n.round() as u32,
                wins: wins as u32,
                draws: draws.round() as u32,
                losses: (n - wins - draws).round() as u32,
                score: q,
                expected: expected_score(level.elo - opp.elo),
                z: z.get(a).copied().unwrap_or(f64::NAN),
                performance: opp.elo + elo_from_score(q),
                performance_lower: opp.elo + elo_from_score(lo),
                performance_upper: opp.elo + elo_from_score(hi),
            });
        }
    }
    (rows, tests)
}

/// Residuals of `y` from its GLS mean under covariance `sigma`, each over its SD, and the
/// chi² of equal means; empty and None for fewer than two values or a singular `sigma`.
fn gls_residuals(y: &DVector<f64>, sigma: &DMatrix<f64>) -> (Vec<f64>, Option<Consistency>) {
    let m = y.len();
    if m < 2 {
        return (Vec::new(), None);
    }
    let Some(inv) = sigma.clone().try_inverse() else {
        return (Vec::new(), None);
    };
    let ones = DVector::from_element(m, 1.0);
    let s1 = &inv * &ones;
    let w = &s1 / ones.dot(&s1);
    let r = y - &ones * w.dot(y);
    // r = (I − 1 wᵀ) y
    let proj = DMatrix::identity(m, m) - &ones * w.transpose();
    let v = &proj * sigma * proj.transpose();
    let z = (0..m).map(|j| r[j] / v[(j, j)].max(1e-12).sqrt()).collect();
    let chi2 = r.dot(&(&inv * &r));
    (
        z,
        Some(Consistency {
            chi2,
            dof: (m - 1) as u32,
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_values_give_opposite_z_whose_square_is_the_chi2() {
        let y = DVector::from_vec(vec![100.0, -50.0]);
        let sigma = DMatrix::from_row_slice(2, 2, &[900.0, 400.0, 400.0, 2500.0]);
        let (z, t) = gls_residuals(&y, &sigma);
        let t = t.unwrap();
        assert_eq!(t.dof, 1);
        // Var(y1 − y2) = 900 + 2500 − 800; the covariance shared by both drops out
        let want = 150.0 / (900.0f64 + 2500.0 - 800.0).sqrt();
        assert!((t.chi2 - want * want).abs() < 1e-9, "{t:?}");
        assert!(
            (z[0] - want).abs() < 1e-9 && (z[1] + want).abs() < 1e-9,
            "{z:?}"
        );
        // a common shift of both opponents (added to every entry) changes nothing
        let shifted = sigma.add_scalar(10_000.0);
        let (_, t2) = gls_residuals(&y, &shifted);
        assert!((t2.unwrap().chi2 - t.chi2).abs() < 1e-6);
    }

    #[test]
    fn wilson_keeps_one_bound_at_a_perfect_score() {
        let (lo, hi) = wilson(0.0, 60.0);
        assert_eq!(lo, 0.0);
        assert!((0.05..0.07).contains(&hi), "{hi}");
        assert_eq!(elo_from_score(lo), f64::NEG_INFINITY);
        let (lo, hi) = wilson(0.5, 100.0);
        assert!(
            (lo - 0.404).abs() < 0.002 && (hi - 0.596).abs() < 0.002,
            "{lo} {hi}"
        );
    }
}
