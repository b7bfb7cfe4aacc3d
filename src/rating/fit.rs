//! Maximum-likelihood ratings with anchors, white advantage and intervals.
//!
//! The likelihood treats each game's score (1, 1/2, 0) as the outcome of a logistic model:
//! `sum over games of s ln E + (1 - s) ln(1 - E)`, `E = E(r_white - r_black + adv)`, as Ordo does.
//! Its maximum makes every player's expected score equal their actual score (up to the weak
//! prior below), which is what "76% means +200" requires, and it does not depend on the draw
//! model (see `model`).
//! Games are first aggregated into one cell per (white, black) so that an iteration costs
//! O(pairs), not O(games); Newton's method with a backtracking line search then converges in a
//! handful of iterations because the objective is concave.
//!
//! Penalties added to the log-likelihood (all Gaussian, so the objective stays concave):
//! - a weak prior on every pair of opponents, `(r_i - r_j)^2 / (2 prior_sd^2)` (default 2000 Elo):
//!   it keeps 100% and 0% scores finite and shifts ordinary results by well under 1 Elo;
//! - soft anchors, `(r_a - elo_a)^2 / (2 sd_a^2)`, Ordo's loose anchors;
//! - a prior of 1000 Elo on an estimated white advantage.

use std::collections::HashMap;

use anyhow::{bail, Result};
use statrs::distribution::{ContinuousCDF, Normal as StatNormal};

use super::games::{Game, GameResult};
use super::intervals::{bootstrap, hessian_covariance};
use super::linalg::{cholesky_solve, Matrix};
use super::model::{
    draw_rate_at_equal, estimate_nu, expected_score, nu_from_equal_draw_rate, ELO_TO_NAT,
};
use super::ratings::{
    Anchor, Intervals, PlayerRating, RateOptions, Ratings, Reference, WhiteAdvantage,
};

/// Games of one (white, black) pairing.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cell {
    pub(super) w: usize,
    pub(super) b: usize,
    pub(super) n: f64,
    /// White's points.
    pub(super) s: f64,
    pub(super) draws: f64,
}

/// The optimization problem: who is free, who is fixed, which priors apply.
pub(super) struct Problem {
    pub(super) n_players: usize,
    pub(super) cells: Vec<Cell>,
    /// Unordered pairs of players who met (for the weak difference prior).
    pub(super) met: Vec<(usize, usize)>,
    /// Parameter index of each player, or `None` when fixed / not rated.
    pub(super) param: Vec<Option<usize>>,
    /// Value of fixed players (hard anchors, gauge player); also the starting point.
    pub(super) start: Vec<f64>,
    /// Soft anchors: (player, prior mean, sd).
    pub(super) soft: Vec<(usize, f64, f64)>,
    pub(super) adv_param: Option<usize>,
    pub(super) adv_fixed: f64,
    pub(super) n_params: usize,
    pub(super) prior_var: f64,
}

const ADV_PRIOR_VAR: f64 = 1000.0 * 1000.0;

/// Largest fixed white advantage accepted (Elo).
const MAX_WHITE_ADVANTAGE: f64 = 1000.0;

/// Point estimate: ratings of all players (unrated ones keep their start value) and the white
/// advantage.
pub(super) struct Fit {
    pub(super) r: Vec<f64>,
    pub(super) adv: f64,
}

impl Problem {
    pub(super) fn unpack(&self, theta: &[f64]) -> Fit {
        let mut r = self.start.clone();
        for (i, p) in self.param.iter().enumerate() {
            if let Some(k) = p {
                r[i] = theta[*k];
            }
        }
        let adv = self.adv_param.map_or(self.adv_fixed, |k| theta[k]);
        Fit { r, adv }
    }

    fn objective(&self, cells: &[Cell], soft_means: &[f64], theta: &[f64]) -> f64 {
        let fit = self.unpack(theta);
        let mut f = 0.0;
        for c in cells {
            let x = (fit.r[c.w] - fit.r[c.b] + fit.adv) * ELO_TO_NAT;
            // s ln E + (n - s) ln(1 - E), with ln E = -softplus(-x), ln(1 - E) = -softplus(x).
            f -= c.s * softplus(-x) + (c.n - c.s) * softplus(x);
        }
        for &(i, j) in &self.met {
            let d = fit.r[i] - fit.r[j];
            f -= d * d / (2.0 * self.prior_var);
        }
        for (k, &(a, _, sd)) in self.soft.iter().enumerate() {
            let d = fit.r[a] - soft_means[k];
            f -= d * d / (2.0 * sd * sd);
        }
        if self.adv_param.is_some() {
            f -= fit.adv * fit.adv / (2.0 * ADV_PRIOR_VAR);
        }
        f
    }

    /// Gradient of the objective and the (positive definite) negative Hessian with priors.
    pub(super) fn derivatives(
        &self,
        cells: &[Cell],
        soft_means: &[f64],
        theta: &[f64],
    ) -> (Vec<f64>, Matrix) {
        let fit = self.unpack(theta);
        let np = self.n_params;
        let mut g = vec![0.0; np];
        let mut a = Matrix::zeros(np);
        let mut idx = [None; 3];
        let mut sign = [0.0; 3];
        for c in cells {
            let e = expected_score(fit.r[c.w] - fit.r[c.b] + fit.adv);
            let resid = ELO_TO_NAT * (c.s - c.n * e);
            let info = ELO_TO_NAT * ELO_TO_NAT * c.n * e * (1.0 - e);
            idx[0] = self.param[c.w];
            idx[1] = self.param[c.b];
            idx[2] = self.adv_param;
            sign[0] = 1.0;
            sign[1] = -1.0;
            sign[2] = 1.0;
            add_rank_one(&mut g, &mut a, &idx, &sign, resid, info);
        }
        let pv = 1.0 / self.prior_var;
        for &(i, j) in &self.met {
            let d = fit.r[i] - fit.r[j];
            let ids = [self.param[i], self.param[j], None];
            add_rank_one(&mut g, &mut a, &ids, &[1.0, -1.0, 0.0], -d * pv, pv);
        }
        for (k, &(p, _, sd)) in self.soft.iter().enumerate() {
            if let Some(i) = self.param[p] {
                let prec = 1.0 / (sd * sd);
                g[i] -= (fit.r[p] - soft_means[k]) * prec;
                a.add(i, i, prec);
            }
        }
        if let Some(k) = self.adv_param {
            g[k] -= fit.adv / ADV_PRIOR_VAR;
            a.add(k, k, 1.0 / ADV_PRIOR_VAR);
        }
        (g, a)
    }

    /// Newton's method with backtracking from `theta`; returns the maximizer.
    pub(super) fn solve(
        &self,
        cells: &[Cell],
        soft_means: &[f64],
        mut theta: Vec<f64>,
    ) -> Result<Vec<f64>> {
        if self.n_params == 0 {
            return Ok(theta);
        }
        let mut f = self.objective(cells, soft_means, &theta);
        for _ in 0..200 {
            let (g, a) = self.derivatives(cells, soft_means, &theta);
            let Some(l) = a.cholesky() else {
                bail!("rating: the information matrix is singular (a player without games?)");
            };
            let step = cholesky_solve(&l, &g);
            let max_step = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
            if max_step < 1e-7 {
                return Ok(theta); // the full Newton step is negligible: converged
            }
            // Far from the optimum (e.g. perfect scores), cap the step to keep Newton stable.
            let scale = if max_step > 400.0 {
                400.0 / max_step
            } else {
                1.0
            };
            let mut t = scale;
            let mut accepted = false;
            let mut next = theta.clone();
            for _ in 0..60 {
                for (k, x) in next.iter_mut().enumerate() {
                    *x = theta[k] + t * step[k];
                }
                let fn_ = self.objective(cells, soft_means, &next);
                if fn_ >= f - 1e-12 * f.abs().max(1.0) {
                    f = fn_;
                    accepted = true;
                    break;
                }
                t *= 0.5;
            }
            if !accepted {
                break;
            }
            theta = next;
        }
        Ok(theta)
    }
}

fn softplus(z: f64) -> f64 {
    z.max(0.0) + (-z.abs()).exp().ln_1p()
}

/// Adds `resid * v` to the gradient and `info * v v^T` to the matrix, for the sparse vector
/// `v` given by parameter indices and signs.
pub(super) fn add_rank_one(
    g: &mut [f64],
    a: &mut Matrix,
    idx: &[Option<usize>; 3],
    sign: &[f64; 3],
    resid: f64,
    info: f64,
) {
    for p in 0..3 {
        let Some(i) = idx[p] else { continue };
        g[i] += sign[p] * resid;
        for q in 0..3 {
            if let Some(j) = idx[q] {
                a.add(i, j, sign[p] * sign[q] * info);
            }
        }
    }
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// Rates the players of `games`. See the module documentation of `rating` for the model.
pub fn rate(games: &[Game], opts: &RateOptions) -> Result<Ratings> {
    if games.is_empty() {
        bail!("rating: no games to rate");
    }
    if !(opts.confidence > 0.0 && opts.confidence < 1.0) {
        bail!(
            "rating: confidence must lie between 0 and 1, not {}",
            opts.confidence
        );
    }
    if !(opts.prior_sd > 0.0 && opts.prior_sd.is_finite()) {
        bail!(
            "rating: the prior SD must be a positive number, not {}",
            opts.prior_sd
        );
    }
    if let WhiteAdvantage::Fixed(v) = opts.white_advantage {
        if v.is_nan() || v.abs() > MAX_WHITE_ADVANTAGE {
            bail!(
                "rating: the white advantage must be a number of Elo within ±{MAX_WHITE_ADVANTAGE}, \
                 not {v}"
            );
        }
    }
    if let Some(r) = opts.draw_rate {
        if !(0.0..1.0).contains(&r) {
            bail!("rating: the draw rate must lie in [0, 1), not {r}");
        }
    }
    // Players in order of first appearance, with their records.
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut players: Vec<PlayerRating> = Vec::new();
    let mut cell_of: HashMap<(usize, usize), usize> = HashMap::new();
    let mut cells: Vec<Cell> = Vec::new();
    for g in games {
        let w = intern(&mut index, &mut players, &g.white);
        let b = intern(&mut index, &mut players, &g.black);
        if w == b {
            bail!("rating: player '{}' plays against itself", g.white);
        }
        let k = *cell_of.entry((w, b)).or_insert_with(|| {
            cells.push(Cell {
                w,
                b,
                n: 0.0,
                s: 0.0,
                draws: 0.0,
            });
            cells.len() - 1
        });
        let c = &mut cells[k];
        c.n += 1.0;
        c.s += g.result.white_score();
        players[w].games += 1;
        players[b].games += 1;
        match g.result {
            GameResult::WhiteWin => {
                players[w].wins += 1;
                players[b].losses += 1;
            }
            GameResult::BlackWin => {
                players[b].wins += 1;
                players[w].losses += 1;
            }
            GameResult::Draw => {
                c.draws += 1.0;
                players[w].draws += 1;
                players[b].draws += 1;
            }
        }
    }
    let n = players.len();

    // Anchors.
    let mut anchor_of: Vec<Option<Anchor>> = vec![None; n];
    for a in &opts.anchors {
        let Some(&i) = index.get(a.name.as_str()) else {
            let mut names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
            names.sort_unstable();
            bail!(
                "anchor '{}' is not a player in these games (players: {})",
                a.name,
                names.join(", ")
            );
        };
        if anchor_of[i].is_some() {
            bail!("anchor '{}' is given twice", a.name);
        }
        if let Some(sd) = a.sd {
            if !(sd > 0.0 && sd.is_finite()) {
                bail!("anchor '{}': the SD must be positive, not {sd}", a.name);
            }
        }
        if !a.elo.is_finite() {
            bail!("anchor '{}': the rating must be a number", a.name);
        }
        anchor_of[i] = Some(a.clone());
        players[i].anchor = Some(a.clone());
    }

    // Connected components through games.
    let mut parent: Vec<usize> = (0..n).collect();
    for c in &cells {
        let (x, y) = (find(&mut parent, c.w), find(&mut parent, c.b));
        if x != y {
            parent[x] = y;
        }
    }
    let comp: Vec<usize> = (0..n).map(|i| find(&mut parent, i)).collect();
    let mut rated_comp = vec![false; n];
    let reference = if opts.anchors.is_empty() {
        // Largest component (ties: the one met first) carries the pool-mean reference.
        let mut size = vec![0usize; n];
        for &c in &comp {
            size[c] += 1;
        }
        let best = (0..n)
            .map(|i| comp[i])
            .max_by(|&a, &b| size[a].cmp(&size[b]).then(std::cmp::Ordering::Greater))
            .unwrap_or(0);
        rated_comp[best] = true;
        Reference::PoolMean
    } else {
        for (i, a) in anchor_of.iter().enumerate() {
            if a.is_some() {
                rated_comp[comp[i]] = true;
            }
        }
        Reference::Anchors(opts.anchors.iter().map(|a| a.name.clone()).collect())
    };

    // Parameters: rated players that are not hard anchors (and not the gauge player).
    let mut param = vec![None; n];
    let mut start = vec![0.0; n];
    let mut soft = Vec::new();
    let mut n_params = 0;
    let mut comp_start: HashMap<usize, (f64, f64)> = HashMap::new();
    for (i, a) in anchor_of.iter().enumerate() {
        if let Some(a) = a {
            let e = comp_start.entry(comp[i]).or_insert((0.0, 0.0));
            e.0 += a.elo;
            e.1 += 1.0;
        }
    }
    let mut gauge_done = false;
    for i in 0..n {
        let connected = rated_comp[comp[i]];
        players[i].connected = connected;
        if !connected {
            continue;
        }
        start[i] = comp_start
            .get(&comp[i])
            .map_or(0.0, |&(sum, cnt)| sum / cnt);
        match &anchor_of[i] {
            Some(Anchor { elo, sd: None, .. }) => start[i] = *elo,
            Some(Anchor {
                elo, sd: Some(sd), ..
            }) => {
                param[i] = Some(n_params);
                n_params += 1;
                soft.push((i, *elo, *sd));
            }
            None => {
                if matches!(reference, Reference::PoolMean) && !gauge_done {
                    gauge_done = true; // first player fixed at 0, the pool re-centred afterwards
                } else {
                    param[i] = Some(n_params);
                    n_params += 1;
                }
            }
        }
    }
    let (adv_param, adv_fixed) = match opts.white_advantage {
        WhiteAdvantage::Off => (None, 0.0),
        WhiteAdvantage::Fixed(v) => (None, v),
        WhiteAdvantage::Estimate => {
            n_params += 1;
            (Some(n_params - 1), 0.0)
        }
    };
    let rated_cells: Vec<Cell> = cells
        .iter()
        .copied()
        .filter(|c| rated_comp[comp[c.w]])
        .collect();
    let mut met: Vec<(usize, usize)> = rated_cells
        .iter()
        .map(|c| (c.w.min(c.b), c.w.max(c.b)))
        .collect();
    met.sort_unstable();
    met.dedup();
    let problem = Problem {
        n_players: n,
        cells: rated_cells,
        met,
        param,
        start,
        soft,
        adv_param,
        adv_fixed,
        n_params,
        prior_var: opts.prior_sd * opts.prior_sd,
    };

    let theta0 = initial_theta(&problem);
    let soft_means: Vec<f64> = problem.soft.iter().map(|s| s.1).collect();
    let theta = problem.solve(&problem.cells, &soft_means, theta0)?;
    let mut fit = problem.unpack(&theta);
    let pool_mean = matches!(reference, Reference::PoolMean);
    if pool_mean {
        center(&mut fit.r, &players);
    }

    // Draw model from the rated games.
    let cells_e: Vec<(f64, f64)> = problem
        .cells
        .iter()
        .map(|c| (c.n, expected_score(fit.r[c.w] - fit.r[c.b] + fit.adv)))
        .collect();
    let draws: f64 = problem.cells.iter().map(|c| c.draws).sum();
    // The fitted draw rate between equals is capped at n/(n+1) for n rated games (one decisive
    // pseudo-game): a pool in which every game was drawn would otherwise get nu -> infinity, a
    // score variance of 0 and intervals as narrow as if the result were certain.
    let rated_games: f64 = problem.cells.iter().map(|c| c.n).sum();
    let nu = match opts.draw_rate {
        Some(rate) => nu_from_equal_draw_rate(rate),
        None => estimate_nu(&cells_e, draws)
            .min(nu_from_equal_draw_rate(rated_games / (rated_games + 1.0))),
    };

    let z = StatNormal::standard().inverse_cdf(0.5 + opts.confidence / 2.0);
    let (cov, adv_interval, bounds) = match opts.intervals {
        Intervals::Hessian => {
            let (cov_theta, cov) = hessian_covariance(&problem, &theta, nu, pool_mean, &players)?;
            let adv_interval = problem.adv_param.map(|k| {
                let sd = cov_theta.get(k, k).sqrt();
                (fit.adv - z * sd, fit.adv + z * sd)
            });
            let bounds: Vec<Option<(f64, f64)>> = (0..n)
                .map(|i| {
                    let sd = cov[i * n + i].sqrt();
                    players[i]
                        .connected
                        .then(|| (fit.r[i] - z * sd, fit.r[i] + z * sd))
                })
                .collect();
            (cov, adv_interval, bounds)
        }
        Intervals::Bootstrap { samples, seed } => {
            if samples < 2 {
                bail!("rating: the bootstrap needs at least 2 samples, not {samples}");
            }
            bootstrap(
                &problem,
                &theta,
                &fit,
                nu,
                pool_mean,
                &players,
                samples,
                seed,
                opts.confidence,
            )?
        }
    };

    for i in 0..n {
        let p = &mut players[i];
        p.perfect = p.games > 0 && (p.wins == p.games || p.losses == p.games);
        if players[i].connected {
            players[i].elo = Some(fit.r[i]);
            players[i].sd = Some(cov[i * n + i].max(0.0).sqrt());
            if let Some((lo, hi)) = bounds[i] {
                players[i].lower = Some(lo);
                players[i].upper = Some(hi);
            }
        }
    }
    Ok(Ratings {
        players,
        white_advantage: (opts.white_advantage != WhiteAdvantage::Off).then_some(fit.adv),
        white_advantage_interval: adv_interval,
        draw_nu: nu,
        equal_draw_rate: draw_rate_at_equal(nu),
        intervals: opts.intervals,
        confidence: opts.confidence,
        reference,
        games: games.len(),
        covariance: cov,
    })
}

/// Index of player `name`, adding it on first sight.
fn intern<'a>(
    index: &mut HashMap<&'a str, usize>,
    players: &mut Vec<PlayerRating>,
    name: &'a str,
) -> usize {
    if let Some(&i) = index.get(name) {
        return i;
    }
    index.insert(name, players.len());
    players.push(PlayerRating {
        name: name.to_string(),
        elo: None,
        lower: None,
        upper: None,
        sd: None,
        games: 0,
        wins: 0,
        draws: 0,
        losses: 0,
        connected: false,
        perfect: false,
        anchor: None,
    });
    players.len() - 1
}

fn initial_theta(p: &Problem) -> Vec<f64> {
    let mut theta = vec![0.0; p.n_params];
    for (i, k) in p.param.iter().enumerate() {
        if let Some(k) = k {
            theta[*k] = p.start[i];
        }
    }
    theta
}

/// Shifts the connected players so their mean is 0 (the no-anchor reference).
pub(super) fn center(r: &mut [f64], players: &[PlayerRating]) {
    let members: Vec<usize> = (0..r.len()).filter(|&i| players[i].connected).collect();
    let mean = members.iter().map(|&i| r[i]).sum::<f64>() / members.len() as f64;
    for &i in &members {
        r[i] -= mean;
    }
}
