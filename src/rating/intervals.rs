//! Intervals of `rate`: the sandwich normal approximation and the parametric bootstrap.

use nalgebra::{DMatrix, DVector};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Binomial, Distribution, Normal};

use super::model::{outcome_probabilities, score_variance, ELO_TO_NAT};
use super::problem::{add_rank_one, inverse};
use super::rate_problem::{RateError, RateProblem};
use super::ratings::PlayerRating;

/// Covariance of the players' ratings from the parameters' (`L C L^T` with each player's
/// weights as a row of `L`); NaN for players not connected to the reference.
fn player_covariance(
    rp: &RateProblem,
    cov_theta: &DMatrix<f64>,
    players: &[PlayerRating],
) -> DMatrix<f64> {
    let n = players.len();
    let np = rp.problem.n_params;
    let mut l = DMatrix::zeros(n, np);
    for (i, lin) in rp.problem.players.iter().enumerate() {
        for &(k, w) in &lin.terms {
            l[(i, k)] += w;
        }
    }
    let mut cov = &l * cov_theta * l.transpose();
    for i in 0..n {
        for j in 0..n {
            if !players[i].connected || !players[j].connected {
                cov[(i, j)] = f64::NAN;
            }
        }
    }
    if rp.pool_mean {
        center_covariance(&mut cov, players);
    }
    cov
}

/// Sandwich covariance `A^-1 B A^-1` of the parameters and the player covariance it implies.
/// `A` is the information of the score likelihood with priors; `B` replaces each cell's binomial
/// variance `E(1-E)` by the draw model's `E(1-E) - D/4`.
pub(super) fn hessian_covariance(
    rp: &RateProblem,
    theta: &DVector<f64>,
    nu: f64,
    players: &[PlayerRating],
) -> Result<(DMatrix<f64>, DMatrix<f64>), RateError> {
    let p = &rp.problem;
    let np = p.n_params;
    let a = p.information(theta, 1.0);
    // B = A - sum over cells of c^2 n (E(1-E) - var) v v^T.
    let mut b = a.clone();
    let mut unused = DVector::zeros(np);
    for c in &p.cells {
        let e = p.expected(c, theta);
        let less = ELO_TO_NAT * ELO_TO_NAT * c.n * (e * (1.0 - e) - score_variance(e, nu));
        add_rank_one(&mut unused, &mut b, &p.design(c).terms, 0.0, -less);
    }
    let ainv = inverse(a)?;
    let cov_theta = &ainv * b * &ainv;
    let cov = player_covariance(rp, &cov_theta, players);
    Ok((cov_theta, cov))
}

/// Covariance of `r - mean(r)` over the connected players.
fn center_covariance(cov: &mut DMatrix<f64>, players: &[PlayerRating]) {
    let n = players.len();
    let members: Vec<usize> = (0..n).filter(|&i| players[i].connected).collect();
    let m = members.len() as f64;
    let row_mean: Vec<f64> = (0..n)
        .map(|i| {
            if players[i].connected {
                members.iter().map(|&j| cov[(i, j)]).sum::<f64>() / m
            } else {
                0.0
            }
        })
        .collect();
    let total_mean = members.iter().map(|&i| row_mean[i]).sum::<f64>() / m;
    for &i in &members {
        for &j in &members {
            cov[(i, j)] += total_mean - row_mean[i] - row_mean[j];
        }
    }
}

/// Shifts the connected players so their mean is 0 (the no-anchor reference).
pub(super) fn center(r: &mut [f64], players: &[PlayerRating]) {
    let members: Vec<usize> = (0..r.len()).filter(|&i| players[i].connected).collect();
    let mean = members.iter().map(|&i| r[i]).sum::<f64>() / members.len() as f64;
    for &i in &members {
        r[i] -= mean;
    }
}

/// Player covariance, the white advantage's interval and every player's interval.
pub(super) struct Bootstrap {
    pub(super) covariance: DMatrix<f64>,
    pub(super) advantage: Option<(f64, f64)>,
    pub(super) bounds: Vec<Option<(f64, f64)>>,
}

/// Parametric bootstrap: simulate every cell's games from the fitted model, refit, repeat.
pub(super) fn bootstrap(
    rp: &RateProblem,
    theta: &DVector<f64>,
    nu: f64,
    players: &[PlayerRating],
    samples: usize,
    seed: u64,
    confidence: f64,
) -> Result<Bootstrap, RateError> {
    let p = &rp.problem;
    let n = players.len();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let probs: Vec<_> = p
        .cells
        .iter()
        .map(|c| outcome_probabilities(p.expected(c, theta), nu))
        .collect();
    let mut sim = p.cells.clone();
    let mut draws_r: Vec<Vec<f64>> = vec![Vec::with_capacity(samples); n];
    let mut draws_adv = Vec::with_capacity(samples);
    let mut means = p.prior_means();
    for _ in 0..samples {
        for (c, pr) in sim.iter_mut().zip(&probs) {
            let games = c.n as u64;
            let wins = sample_binomial(&mut rng, games, pr.win)?;
            let rest_p = if pr.win < 1.0 {
                (pr.draw / (1.0 - pr.win)).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let draws = sample_binomial(&mut rng, games - wins, rest_p)?;
            c.score = wins as f64 + 0.5 * draws as f64;
        }
        for &k in &rp.soft_priors {
            // The anchor's prior value is treated as one more noisy observation of it.
            let prior = &p.priors[k];
            let at = prior.on.eval(theta);
            means[k] = Normal::new(at, prior.sd)
                .map_err(|e| RateError::Sampling(format!("bad anchor SD: {e}")))?
                .sample(&mut rng);
        }
        let th = p.solve_with(&sim, &means, theta.clone(), 1.0)?;
        let mut rs = p.ratings(&th);
        if rp.pool_mean {
            center(&mut rs, players);
        }
        for (v, x) in draws_r.iter_mut().zip(&rs) {
            v.push(*x);
        }
        draws_adv.push(p.advantage.eval(&th));
    }
    let mean: Vec<f64> = draws_r
        .iter()
        .map(|v| v.iter().sum::<f64>() / samples as f64)
        .collect();
    let mut cov = DMatrix::zeros(n, n);
    for i in 0..n {
        for j in 0..n {
            cov[(i, j)] = if players[i].connected && players[j].connected {
                draws_r[i]
                    .iter()
                    .zip(&draws_r[j])
                    .map(|(x, y)| (x - mean[i]) * (y - mean[j]))
                    .sum::<f64>()
                    / (samples - 1) as f64
            } else {
                f64::NAN
            };
        }
    }
    let tail = (1.0 - confidence) / 2.0;
    let bounds = (0..n)
        .map(|i| {
            players[i].connected.then(|| {
                let mut v = draws_r[i].clone();
                v.sort_by(f64::total_cmp);
                (quantile(&v, tail), quantile(&v, 1.0 - tail))
            })
        })
        .collect();
    let advantage = rp.adv_param.map(|_| {
        draws_adv.sort_by(f64::total_cmp);
        (quantile(&draws_adv, tail), quantile(&draws_adv, 1.0 - tail))
    });
    Ok(Bootstrap {
        covariance: cov,
        advantage,
        bounds,
    })
}

fn sample_binomial(rng: &mut ChaCha8Rng, n: u64, p: f64) -> Result<u64, RateError> {
    if n == 0 || p <= 0.0 {
        return Ok(0);
    }
    if p >= 1.0 {
        return Ok(n);
    }
    Ok(Binomial::new(n, p)
        .map_err(|e| RateError::Sampling(format!("binomial({n}, {p}): {e}")))?
        .sample(rng))
}

/// Linear-interpolated quantile of sorted values.
pub(crate) fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}
