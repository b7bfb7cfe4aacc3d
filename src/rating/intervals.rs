//! Intervals: the sandwich normal approximation and the parametric bootstrap.

use anyhow::{bail, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Binomial, Distribution, Normal};

use super::fit::{add_rank_one, center, Fit, Problem};
use super::linalg::{cholesky_inverse, Matrix};
use super::model::{expected_score, outcome_probabilities, score_variance, ELO_TO_NAT};
use super::ratings::PlayerRating;

/// Sandwich covariance `A^-1 B A^-1` of the parameters and the player covariance it implies.
/// `A` is the information of the score likelihood with priors; `B` replaces each cell's binomial
/// variance `E(1-E)` by the draw model's `E(1-E) - D/4`.
pub(super) fn hessian_covariance(
    p: &Problem,
    theta: &[f64],
    nu: f64,
    pool_mean: bool,
    players: &[PlayerRating],
) -> Result<(Matrix, Vec<f64>)> {
    let n = p.n_players;
    let np = p.n_params;
    let soft_means: Vec<f64> = p.soft.iter().map(|s| s.1).collect();
    let (_, a) = p.derivatives(&p.cells, &soft_means, theta);
    let fit = p.unpack(theta);
    // B = A - sum over cells of c^2 n (E(1-E) - var) v v^T.
    let mut b = a.clone();
    let mut dummy = vec![0.0; np];
    for c in &p.cells {
        let e = expected_score(fit.r[c.w] - fit.r[c.b] + fit.adv);
        let less = ELO_TO_NAT * ELO_TO_NAT * c.n * (e * (1.0 - e) - score_variance(e, nu));
        let idx = [p.param[c.w], p.param[c.b], p.adv_param];
        add_rank_one(&mut dummy, &mut b, &idx, &[1.0, -1.0, 1.0], 0.0, -less);
    }
    let cov_theta = if np == 0 {
        Matrix::zeros(0)
    } else {
        let Some(l) = a.cholesky() else {
            bail!("rating: the information matrix is singular");
        };
        let ainv = cholesky_inverse(&l);
        ainv.mul(&b).mul(&ainv)
    };
    let mut cov = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            cov[i * n + j] = if !players[i].connected || !players[j].connected {
                f64::NAN
            } else {
                match (p.param[i], p.param[j]) {
                    (Some(ki), Some(kj)) => cov_theta.get(ki, kj),
                    _ => 0.0,
                }
            };
        }
    }
    if pool_mean {
        center_covariance(&mut cov, players);
    }
    Ok((cov_theta, cov))
}

/// Covariance of `r - mean(r)` over the connected players.
fn center_covariance(cov: &mut [f64], players: &[PlayerRating]) {
    let n = players.len();
    let members: Vec<usize> = (0..n).filter(|&i| players[i].connected).collect();
    let m = members.len() as f64;
    let row_mean: Vec<f64> = (0..n)
        .map(|i| {
            if players[i].connected {
                members.iter().map(|&j| cov[i * n + j]).sum::<f64>() / m
            } else {
                0.0
            }
        })
        .collect();
    let total_mean = members.iter().map(|&i| row_mean[i]).sum::<f64>() / m;
    for &i in &members {
        for &j in &members {
            cov[i * n + j] += total_mean - row_mean[i] - row_mean[j];
        }
    }
}

pub(super) type Bootstrapped = (Vec<f64>, Option<(f64, f64)>, Vec<Option<(f64, f64)>>);

/// Parametric bootstrap: simulate every cell's games from the fitted model, refit, repeat.
#[allow(clippy::too_many_arguments)]
pub(super) fn bootstrap(
    p: &Problem,
    theta: &[f64],
    fit: &Fit,
    nu: f64,
    pool_mean: bool,
    players: &[PlayerRating],
    samples: usize,
    seed: u64,
    confidence: f64,
) -> Result<Bootstrapped> {
    let n = p.n_players;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let probs: Vec<_> = p
        .cells
        .iter()
        .map(|c| outcome_probabilities(expected_score(fit.r[c.w] - fit.r[c.b] + fit.adv), nu))
        .collect();
    let mut sim = p.cells.clone();
    let mut draws_r: Vec<Vec<f64>> = vec![Vec::with_capacity(samples); n];
    let mut draws_adv = Vec::with_capacity(samples);
    let mut soft_means = vec![0.0; p.soft.len()];
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
            c.s = wins as f64 + 0.5 * draws as f64;
        }
        for (k, &(a, _, sd)) in p.soft.iter().enumerate() {
            // The anchor's prior value is treated as one more noisy observation of it.
            soft_means[k] = Normal::new(fit.r[a], sd)
                .map_err(|e| anyhow::anyhow!("rating: bad anchor SD: {e}"))?
                .sample(&mut rng);
        }
        let th = p.solve(&sim, &soft_means, theta.to_vec())?;
        let mut f = p.unpack(&th);
        if pool_mean {
            center(&mut f.r, players);
        }
        for (v, r) in draws_r.iter_mut().zip(&f.r) {
            v.push(*r);
        }
        draws_adv.push(f.adv);
    }
    let mean: Vec<f64> = draws_r
        .iter()
        .map(|v| v.iter().sum::<f64>() / samples as f64)
        .collect();
    let mut cov = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            cov[i * n + j] = if players[i].connected && players[j].connected {
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
    let adv_interval = p.adv_param.map(|_| {
        draws_adv.sort_by(f64::total_cmp);
        (quantile(&draws_adv, tail), quantile(&draws_adv, 1.0 - tail))
    });
    Ok((cov, adv_interval, bounds))
}

fn sample_binomial(rng: &mut ChaCha8Rng, n: u64, p: f64) -> Result<u64> {
    if n == 0 || p <= 0.0 {
        return Ok(0);
    }
    if p >= 1.0 {
        return Ok(n);
    }
    Ok(Binomial::new(n, p)
        .map_err(|e| anyhow::anyhow!("rating: binomial({n}, {p}): {e}"))?
        .sample(rng))
}

/// Linear-interpolated quantile of sorted values.
pub(crate) fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}
