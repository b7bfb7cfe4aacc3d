//! Maximum-likelihood ratings with anchors, white advantage and intervals.
//!
//! The likelihood treats each game's score (1, 1/2, 0) as the outcome of a logistic model:
//! `sum over games of s ln E + (1 - s) ln(1 - E)`, `E = E(r_white - r_black + adv)`, as Ordo does.
//! Its maximum makes every player's expected score equal their actual score, which is what
//! "76% means +200" requires, and it does not depend on the draw model (see `model`).
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
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Binomial, Distribution, Normal};
use statrs::distribution::{ContinuousCDF, Normal as StatNormal};

use super::games::{Game, GameResult};
use super::linalg::{cholesky_inverse, cholesky_solve, Matrix};
use super::model::{
    draw_rate_at_equal, estimate_nu, expected_score, nu_from_equal_draw_rate,
    outcome_probabilities, score_variance, ELO_TO_NAT,
};

/// A player whose rating is given: hard (`sd == None`, held fixed) or soft (a Gaussian prior
/// with standard deviation `sd` Elo).
#[derive(Clone, Debug, PartialEq)]
pub struct Anchor {
    pub name: String,
    pub elo: f64,
    pub sd: Option<f64>,
}

impl Anchor {
    pub fn hard(name: &str, elo: f64) -> Anchor {
        Anchor {
            name: name.to_string(),
            elo,
            sd: None,
        }
    }

    pub fn soft(name: &str, elo: f64, sd: f64) -> Anchor {
        Anchor {
            name: name.to_string(),
            elo,
            sd: Some(sd),
        }
    }
}

/// Treatment of the first-move advantage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WhiteAdvantage {
    /// No colour effect (the default; with colour-balanced pairs it hardly matters).
    Off,
    /// White plays this many Elo above its rating.
    Fixed(f64),
    /// Fitted together with the ratings.
    Estimate,
}

/// How intervals are computed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Intervals {
    /// Normal approximation from the curvature of the likelihood, with a sandwich correction for
    /// draws (a drawn game's score varies less than the binomial likelihood assumes). Instant.
    Hessian,
    /// Parametric bootstrap, like Ordo's simulations: `samples` pools of games are drawn from the
    /// fitted ratings and draw model (soft anchors drawn from their priors), refitted, and the
    /// percentile interval of each rating taken. Seeded, so reproducible.
    Bootstrap { samples: usize, seed: u64 },
}

/// Options for [`rate`].
#[derive(Clone, Debug)]
pub struct RateOptions {
    pub anchors: Vec<Anchor>,
    pub white_advantage: WhiteAdvantage,
    /// Draw rate between equal players for the draw model; `None` estimates it from the games.
    pub draw_rate: Option<f64>,
    /// Standard deviation (Elo) of the weak prior on rating differences between opponents.
    pub prior_sd: f64,
    pub intervals: Intervals,
    /// Coverage of the intervals, 0.95 by default.
    pub confidence: f64,
}

impl Default for RateOptions {
    fn default() -> Self {
        RateOptions {
            anchors: Vec::new(),
            white_advantage: WhiteAdvantage::Off,
            draw_rate: None,
            prior_sd: 2000.0,
            intervals: Intervals::Hessian,
            confidence: 0.95,
        }
    }
}

/// One player's rating and record.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRating {
    pub name: String,
    /// `None` when the player is not connected (through games) to an anchor.
    pub elo: Option<f64>,
    pub lower: Option<f64>,
    pub upper: Option<f64>,
    /// Standard error (Hessian) or bootstrap standard deviation, Elo.
    pub sd: Option<f64>,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Connected through games to an anchor (or, without anchors, to the rated pool).
    pub connected: bool,
    /// Scored 100% or 0%: the rating and the open side of its interval come from the weak
    /// prior (`prior_sd`), not from the games; only the closed side means something.
    pub perfect: bool,
    pub anchor: Option<Anchor>,
}

impl PlayerRating {
    /// Points scored: wins + draws / 2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Score as a fraction of games (0 without games).
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.points() / self.games as f64
        }
    }

    /// Fraction of games drawn.
    pub fn draw_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.draws as f64 / self.games as f64
        }
    }
}

/// What the ratings are relative to.
#[derive(Clone, Debug, PartialEq)]
pub enum Reference {
    /// Hard and/or soft anchors (names).
    Anchors(Vec<String>),
    /// No anchor: the mean of the rated (largest connected) pool is 0.
    PoolMean,
}

/// Result of [`rate`].
#[derive(Clone, Debug)]
pub struct Ratings {
    /// Every player, in order of first appearance in the games.
    pub players: Vec<PlayerRating>,
    /// White advantage in Elo (fixed or fitted); `None` when off.
    pub white_advantage: Option<f64>,
    /// Interval of the white advantage when it was fitted.
    pub white_advantage_interval: Option<(f64, f64)>,
    /// Draw-model parameter `nu` and the draw rate it implies between equal players.
    pub draw_nu: f64,
    pub equal_draw_rate: f64,
    pub intervals: Intervals,
    pub confidence: f64,
    pub reference: Reference,
    pub games: usize,
    /// Covariance of the ratings (Elo², row-major, `players.len()` squared); 0 for hard anchors,
    /// NaN for unconnected players.
    pub covariance: Vec<f64>,
}

impl Ratings {
    pub fn index(&self, name: &str) -> Option<usize> {
        self.players.iter().position(|p| p.name == name)
    }

    pub fn get(&self, name: &str) -> Option<&PlayerRating> {
        self.players.iter().find(|p| p.name == name)
    }

    /// Covariance of the ratings of players `i` and `j`.
    pub fn cov(&self, i: usize, j: usize) -> f64 {
        self.covariance[i * self.players.len() + j]
    }

    /// Interval-free summary of `a - b`: the difference and its standard deviation (from the
    /// covariance, so shared uncertainty through the anchors cancels). `None` if either is
    /// unknown or unrated.
    pub fn difference(&self, a: &str, b: &str) -> Option<(f64, f64)> {
        let (i, j) = (self.index(a)?, self.index(b)?);
        let (ea, eb) = (self.players[i].elo?, self.players[j].elo?);
        let var = self.cov(i, i) + self.cov(j, j) - 2.0 * self.cov(i, j);
        Some((ea - eb, var.max(0.0).sqrt()))
    }

    /// Players sorted by rating, strongest first; unconnected players last.
    pub fn ranked(&self) -> Vec<&PlayerRating> {
        let mut v: Vec<&PlayerRating> = self.players.iter().collect();
        v.sort_by(|a, b| {
            let ka = a.elo.unwrap_or(f64::NEG_INFINITY);
            let kb = b.elo.unwrap_or(f64::NEG_INFINITY);
            kb.total_cmp(&ka)
        });
        v
    }
}

/// Games of one (white, black) pairing.
#[derive(Clone, Copy, Debug)]
struct Cell {
    w: usize,
    b: usize,
    n: f64,
    /// White's points.
    s: f64,
    draws: f64,
}

/// The optimization problem: who is free, who is fixed, which priors apply.
struct Problem {
    n_players: usize,
    cells: Vec<Cell>,
    /// Unordered pairs of players who met (for the weak difference prior).
    met: Vec<(usize, usize)>,
    /// Parameter index of each player, or `None` when fixed / not rated.
    param: Vec<Option<usize>>,
    /// Value of fixed players (hard anchors, gauge player); also the starting point.
    start: Vec<f64>,
    /// Soft anchors: (player, prior mean, sd).
    soft: Vec<(usize, f64, f64)>,
    adv_param: Option<usize>,
    adv_fixed: f64,
    n_params: usize,
    prior_var: f64,
}

const ADV_PRIOR_VAR: f64 = 1000.0 * 1000.0;

/// Point estimate: ratings of all players (unrated ones keep their start value) and the white
/// advantage.
struct Fit {
    r: Vec<f64>,
    adv: f64,
}

impl Problem {
    fn unpack(&self, theta: &[f64]) -> Fit {
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
    fn derivatives(&self, cells: &[Cell], soft_means: &[f64], theta: &[f64]) -> (Vec<f64>, Matrix) {
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
    fn solve(&self, cells: &[Cell], soft_means: &[f64], mut theta: Vec<f64>) -> Result<Vec<f64>> {
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
fn add_rank_one(
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
    if opts.prior_sd.is_nan() || opts.prior_sd <= 0.0 {
        bail!(
            "rating: the prior SD must be positive, not {}",
            opts.prior_sd
        );
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
    let nu = match opts.draw_rate {
        Some(rate) => nu_from_equal_draw_rate(rate),
        None => estimate_nu(&cells_e, draws),
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
fn center(r: &mut [f64], players: &[PlayerRating]) {
    let members: Vec<usize> = (0..r.len()).filter(|&i| players[i].connected).collect();
    let mean = members.iter().map(|&i| r[i]).sum::<f64>() / members.len() as f64;
    for &i in &members {
        r[i] -= mean;
    }
}

/// Sandwich covariance `A^-1 B A^-1` of the parameters and the player covariance it implies.
/// `A` is the information of the score likelihood with priors; `B` replaces each cell's binomial
/// variance `E(1-E)` by the draw model's `E(1-E) - D/4`.
fn hessian_covariance(
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

type Bootstrapped = (Vec<f64>, Option<(f64, f64)>, Vec<Option<(f64, f64)>>);

/// Parametric bootstrap: simulate every cell's games from the fitted model, refit, repeat.
#[allow(clippy::too_many_arguments)]
fn bootstrap(
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
