//! Fitting Elo as a function of the strength parameter t directly on game results.
//!
//! Model. Every game between players A and B gives A the score s in {0, 1/2, 1}, with expected
//! score p = 1 / (1 + 10^(-(r_A - r_B) / 400)) (the logistic Elo scale that Ordo and the PR #4341
//! table use). A subject setting at strength t is rated by the curve r(t) = sum_k theta_k phi_k(t)
//! with phi = (1, t) or (1, t, t^2); a reference player j has its own rating r_j with the prior
//! N(anchor_j, sd_j) (a soft anchor; sd = 0 holds it fixed). The fit maximizes
//!     (1/phi) * sum_games [s ln p + (1 - s) ln(1 - p)]  -  sum_j (r_j - anchor_j)^2 / (2 sd_j^2),
//! a quasi-likelihood: draws make a game's score vary less than a Bernoulli trial, so the
//! dispersion phi (Pearson chi^2 per degree of freedom, estimated from the data) scales the
//! information of the games. The objective is concave in (theta, r) because every rating is
//! linear in the parameters, so Newton's method with step halving finds the maximum; the inverse
//! of the negative Hessian there is the covariance, whose theta block gives the curve's band
//! Var r(t) = phi(t)^T Sigma_theta phi(t), already widened for the uncertainty of the pool.
//! No white advantage term: the arena plays every opening with both colours.

use std::collections::HashMap;

use anyhow::bail;

use super::config::ModelKind;
use super::linalg::{chol_inverse, chol_solve, cholesky, quad};
use crate::report::data::GameRow;

/// ln(10) / 400: converts Elo differences to the logistic's natural units.
pub const K: f64 = std::f64::consts::LN_10 / 400.0;
/// 95% two-sided normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;
/// Floor of the estimated dispersion: Pearson's estimate runs low when many games are lopsided
/// (expected scores near 0 or 1), and a floor keeps the intervals from shrinking on that alone.
pub const MIN_DISPERSION: f64 = 0.5;
/// SD of the weak prior that keeps unanchored players finite when they score 0% or 100%.
pub const WEAK_SD: f64 = 1000.0;

/// How one player's rating enters the model.
#[derive(Debug, Clone, PartialEq)]
pub enum Role {
    /// A subject setting at strength parameter t: rated by the curve.
    Subject(f64),
    /// A reference player with prior N(mean, sd); sd = 0 holds it at mean.
    Anchored { mean: f64, sd: f64 },
    /// Rated by its games alone (plus the weak prior).
    Free,
}

/// Games between two players, from the first player's side.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub a: usize,
    pub b: usize,
    pub n: f64,
    pub wins: f64,
    pub draws: f64,
}

impl Tally {
    fn score(&self) -> f64 {
        self.wins + 0.5 * self.draws
    }
    fn score_sq(&self) -> f64 {
        self.wins + 0.25 * self.draws
    }
}

/// Per-player counts for tables.
#[derive(Debug, Clone, Default)]
pub struct PlayerStats {
    pub games: u32,
    pub score: f64,
    pub draws: u32,
}

/// Aggregates games into tallies per unordered pair. Games with players missing from `index`
/// are an error naming the player (a results directory from a different configuration).
pub fn tally_games(
    games: &[GameRow],
    index: &HashMap<String, usize>,
) -> anyhow::Result<(Vec<Tally>, Vec<PlayerStats>)> {
    let mut map: HashMap<(usize, usize), Tally> = HashMap::new();
    let mut stats = vec![PlayerStats::default(); index.len()];
    for g in games {
        let Some(s) = g.white_score() else { continue };
        let w = *index.get(&g.white).ok_or_else(|| {
            anyhow::anyhow!(
                "games name player `{}`, unknown to the configuration",
                g.white
            )
        })?;
        let b = *index.get(&g.black).ok_or_else(|| {
            anyhow::anyhow!(
                "games name player `{}`, unknown to the configuration",
                g.black
            )
        })?;
        if w == b {
            continue;
        }
        let (a, bb, sa) = if w < b { (w, b, s) } else { (b, w, 1.0 - s) };
        let t = map.entry((a, bb)).or_insert(Tally {
            a,
            b: bb,
            ..Default::default()
        });
        t.n += 1.0;
        if sa == 1.0 {
            t.wins += 1.0;
        } else if sa == 0.5 {
            t.draws += 1.0;
        }
        for (p, sp) in [(w, s), (b, 1.0 - s)] {
            stats[p].games += 1;
            stats[p].score += sp;
            if s == 0.5 {
                stats[p].draws += 1;
            }
        }
    }
    let mut tallies: Vec<Tally> = map.into_values().collect();
    tallies.sort_by_key(|t| (t.a, t.b));
    Ok((tallies, stats))
}

/// Basis functions phi(t) of a curve model.
pub fn basis(model: ModelKind, t: f64) -> Vec<f64> {
    match model {
        ModelKind::Linear => vec![1.0, t],
        ModelKind::Quadratic => vec![1.0, t, t * t],
        ModelKind::Cubic => vec![1.0, t, t * t, t * t * t],
    }
}

fn basis_deriv(model: ModelKind, t: f64) -> Vec<f64> {
    match model {
        ModelKind::Linear => vec![0.0, 1.0],
        ModelKind::Quadratic => vec![0.0, 1.0, 2.0 * t],
        ModelKind::Cubic => vec![0.0, 1.0, 2.0 * t, 3.0 * t * t],
    }
}

pub fn model_formula(model: ModelKind) -> &'static str {
    match model {
        ModelKind::Linear => "Elo(t) = a + b t",
        ModelKind::Quadratic => "Elo(t) = a + b t + c t^2",
        ModelKind::Cubic => "Elo(t) = a + b t + c t^2 + d t^3",
    }
}

/// A player's rating as c + sum coef * beta[idx].
#[derive(Debug, Clone)]
struct Lin {
    c: f64,
    terms: Vec<(usize, f64)>,
}

impl Lin {
    fn eval(&self, beta: &[f64]) -> f64 {
        self.c + self.terms.iter().map(|(i, w)| w * beta[*i]).sum::<f64>()
    }
    fn dense(&self, n: usize) -> Vec<f64> {
        let mut v = vec![0.0; n];
        for (i, w) in &self.terms {
            v[*i] += w;
        }
        v
    }
}

struct Problem<'a> {
    players: Vec<Lin>,
    priors: Vec<(usize, f64, f64)>,
    n: usize,
    tallies: &'a [Tally],
}

fn ln_sigmoid(x: f64) -> f64 {
    // ln(1 / (1 + e^-x)), stable for large |x|
    -((-x).max(0.0) + (-x.abs()).exp().ln_1p())
}

impl Problem<'_> {
    fn objective(&self, beta: &[f64], disp: f64) -> f64 {
        let r: Vec<f64> = self.players.iter().map(|p| p.eval(beta)).collect();
        let mut q = 0.0;
        for t in self.tallies {
            let x = K * (r[t.a] - r[t.b]);
            let s = t.score();
            q += (s * ln_sigmoid(x) + (t.n - s) * ln_sigmoid(-x)) / disp;
        }
        for &(i, m, sd) in &self.priors {
            q -= (beta[i] - m).powi(2) / (2.0 * sd * sd);
        }
        q
    }

    /// Gradient and negative Hessian of the objective.
    fn derivs(&self, beta: &[f64], disp: f64) -> (Vec<f64>, Vec<Vec<f64>>) {
        let n = self.n;
        let r: Vec<f64> = self.players.iter().map(|p| p.eval(beta)).collect();
        let mut g = vec![0.0; n];
        let mut h = vec![vec![0.0; n]; n];
        for t in self.tallies {
            let p = 1.0 / (1.0 + (-K * (r[t.a] - r[t.b])).exp());
            let resid = K * (t.score() - t.n * p) / disp;
            let curv = K * K * t.n * p * (1.0 - p) / disp;
            let mut x = self.players[t.a].dense(n);
            for (i, w) in &self.players[t.b].terms {
                x[*i] -= w;
            }
            for i in 0..n {
                if x[i] == 0.0 {
                    continue;
                }
                g[i] += resid * x[i];
                for j in 0..n {
                    h[i][j] += curv * x[i] * x[j];
                }
            }
        }
        for &(i, m, sd) in &self.priors {
            g[i] -= (beta[i] - m) / (sd * sd);
            h[i][i] += 1.0 / (sd * sd);
        }
        (g, h)
    }

    fn maximize(&self, init: Vec<f64>, disp: f64) -> anyhow::Result<(Vec<f64>, Vec<Vec<f64>>)> {
        let mut beta = init;
        let mut q = self.objective(&beta, disp);
        for _ in 0..200 {
            let (g, h) = self.derivs(&beta, disp);
            let Some(l) = cholesky(&h) else {
                bail!("the fit is not identified (a player or the curve is not connected to an anchor by games)");
            };
            let step = chol_solve(&l, &g);
            let mut scale = 1.0;
            let mut accepted = false;
            for _ in 0..40 {
                let cand: Vec<f64> = beta.iter().zip(&step).map(|(b, s)| b + scale * s).collect();
                let qc = self.objective(&cand, disp);
                if qc >= q - 1e-10 {
                    beta = cand;
                    q = qc;
                    accepted = true;
                    break;
                }
                scale *= 0.5;
            }
            let size = step.iter().fold(0.0f64, |m, s| m.max(s.abs())) * scale;
            if !accepted || size < 1e-7 {
                break;
            }
        }
        let (_, h) = self.derivs(&beta, disp);
        let Some(l) = cholesky(&h) else {
            bail!("the fit's information matrix is singular");
        };
        Ok((beta, chol_inverse(&l)))
    }

    fn pearson(&self, beta: &[f64]) -> f64 {
        let r: Vec<f64> = self.players.iter().map(|p| p.eval(beta)).collect();
        let mut chi2 = 0.0;
        for t in self.tallies {
            let p = 1.0 / (1.0 + (-K * (r[t.a] - r[t.b])).exp());
            let v = (p * (1.0 - p)).max(1e-9);
            chi2 += (t.score_sq() - 2.0 * p * t.score() + t.n * p * p) / v;
        }
        chi2
    }
}

/// A fitted player rating with its standard error.
#[derive(Debug, Clone)]
pub struct PlayerFit {
    pub elo: f64,
    pub sd: f64,
}

impl PlayerFit {
    pub fn lower(&self) -> f64 {
        self.elo - Z95 * self.sd
    }
    pub fn upper(&self) -> f64 {
        self.elo + Z95 * self.sd
    }
}

/// The result of a fit: curve coefficients (if any subject is on the curve) and every player.
#[derive(Debug, Clone)]
pub struct Fit {
    pub model: ModelKind,
    pub theta: Vec<f64>,
    pub cov_theta: Vec<Vec<f64>>,
    pub players: Vec<PlayerFit>,
    pub dispersion: f64,
    pub games: f64,
    /// Covariance of all parameters (theta first, then the pool's free ratings).
    pub cov: Vec<Vec<f64>>,
    /// Each player's rating as a linear combination of the parameters (its constant aside).
    pub terms: Vec<Vec<(usize, f64)>>,
}

/// One side of a prospective game, for [`Fit::with_games`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Side {
    /// A player of the fit, by index.
    Player(usize),
    /// The subject at strength t (need not have played yet).
    Curve(f64),
}

/// Fits ratings for `roles` from `tallies`. Subject players share the curve of `model`.
pub fn fit(roles: &[Role], tallies: &[Tally], model: ModelKind) -> anyhow::Result<Fit> {
    let has_curve = roles.iter().any(|r| matches!(r, Role::Subject(_)));
    let n_theta = if has_curve {
        basis(model, 0.0).len()
    } else {
        0
    };
    let anchors: Vec<f64> = roles
        .iter()
        .filter_map(|r| match r {
            Role::Anchored { mean, .. } => Some(*mean),
            _ => None,
        })
        .collect();
    if anchors.is_empty() {
        bail!("no anchored player: ratings would float");
    }
    let center = anchors.iter().sum::<f64>() / anchors.len() as f64;
    let mut players = Vec::with_capacity(roles.len());
    let mut priors = Vec::new();
    let mut init = vec![0.0; n_theta];
    if n_theta > 0 {
        init[0] = center;
    }
    for role in roles {
        let lin = match role {
            Role::Subject(t) => Lin {
                c: 0.0,
                terms: basis(model, *t).into_iter().enumerate().collect(),
            },
            Role::Anchored { mean, sd } if *sd <= 0.0 => Lin {
                c: *mean,
                terms: vec![],
            },
            Role::Anchored { mean, sd } => {
                let i = init.len();
                init.push(*mean);
                priors.push((i, *mean, *sd));
                Lin {
                    c: 0.0,
                    terms: vec![(i, 1.0)],
                }
            }
            Role::Free => {
                let i = init.len();
                init.push(center);
                priors.push((i, center, WEAK_SD));
                Lin {
                    c: 0.0,
                    terms: vec![(i, 1.0)],
                }
            }
        };
        players.push(lin);
    }
    let n = init.len();
    let problem = Problem {
        players,
        priors,
        n,
        tallies,
    };
    let games: f64 = tallies.iter().map(|t| t.n).sum();
    let (beta, _) = problem.maximize(init, 1.0)?;
    // Quasi-likelihood dispersion from the first fit, then refit with it.
    let dof = (games - n as f64).max(1.0);
    let dispersion = if games > n as f64 + 5.0 {
        (problem.pearson(&beta) / dof).clamp(MIN_DISPERSION, 4.0)
    } else {
        1.0
    };
    let (beta, cov) = problem.maximize(beta, dispersion)?;
    let fits = problem
        .players
        .iter()
        .map(|p| {
            let v = p.dense(n);
            PlayerFit {
                elo: p.eval(&beta),
                sd: quad(&cov, &v, &v).max(0.0).sqrt(),
            }
        })
        .collect();
    Ok(Fit {
        model,
        theta: beta[..n_theta].to_vec(),
        cov_theta: (0..n_theta).map(|i| cov[i][..n_theta].to_vec()).collect(),
        players: fits,
        dispersion,
        games,
        terms: problem.players.iter().map(|p| p.terms.clone()).collect(),
        cov,
    })
}

/// Where a target falls on the engine's range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeFlag {
    Ok,
    /// Weaker than the weakest setting of the path.
    Floor,
    /// Stronger than the strongest setting of the path.
    Ceiling,
}

impl RangeFlag {
    pub fn as_str(self) -> &'static str {
        match self {
            RangeFlag::Ok => "ok",
            RangeFlag::Floor => "floor",
            RangeFlag::Ceiling => "ceiling",
        }
    }
}

/// The setting for a target Elo with its intervals.
#[derive(Debug, Clone)]
pub struct Inversion {
    pub target: f64,
    pub t: f64,
    pub t_lower: f64,
    pub t_upper: f64,
    /// Elo of the chosen setting by the curve, with its 95% band.
    pub elo: f64,
    pub elo_sd: f64,
    pub range: RangeFlag,
}

impl Inversion {
    pub fn half_width(&self) -> f64 {
        Z95 * self.elo_sd
    }
}

impl Fit {
    pub fn elo(&self, t: f64) -> f64 {
        basis(self.model, t)
            .iter()
            .zip(&self.theta)
            .map(|(p, c)| p * c)
            .sum()
    }

    pub fn elo_sd(&self, t: f64) -> f64 {
        let phi = basis(self.model, t);
        quad(&self.cov_theta, &phi, &phi).max(0.0).sqrt()
    }

    fn side(&self, side: Side) -> (f64, Vec<f64>) {
        let mut x = vec![0.0; self.cov.len()];
        match side {
            Side::Player(i) => {
                for &(k, w) in &self.terms[i] {
                    x[k] += w;
                }
                (self.players[i].elo, x)
            }
            Side::Curve(t) => {
                for (k, p) in basis(self.model, t).into_iter().enumerate() {
                    x[k] = p;
                }
                (self.elo(t), x)
            }
        }
    }

    /// The fit as it would be after `n` more games between `a` and `b`, each scoring as the
    /// current ratings expect, so only the covariance changes: a rank-one update
    ///     Sigma' = Sigma - lambda Sigma x x^T Sigma / (1 + lambda x^T Sigma x),
    /// with x the design of the rating difference and lambda = n K^2 p (1 - p) / dispersion the
    /// information of the games. The planner ranks opponents by the curve's variance after it.
    pub fn with_games(&self, a: Side, b: Side, n: f64) -> Fit {
        let (ra, xa) = self.side(a);
        let (rb, xb) = self.side(b);
        let x: Vec<f64> = xa.iter().zip(&xb).map(|(p, q)| p - q).collect();
        let p = 1.0 / (1.0 + (-K * (ra - rb)).exp());
        let lambda = n * K * K * p * (1.0 - p) / self.dispersion;
        let m = self.cov.len();
        let sx: Vec<f64> = (0..m)
            .map(|i| (0..m).map(|j| self.cov[i][j] * x[j]).sum())
            .collect();
        let xx: f64 = sx.iter().zip(&x).map(|(a, b)| a * b).sum();
        let f = lambda / (1.0 + lambda * xx);
        let mut out = self.clone();
        for i in 0..m {
            for j in 0..m {
                out.cov[i][j] -= f * sx[i] * sx[j];
            }
        }
        let n_theta = self.theta.len();
        out.cov_theta = (0..n_theta)
            .map(|i| out.cov[i][..n_theta].to_vec())
            .collect();
        out
    }

    pub fn slope(&self, t: f64) -> f64 {
        basis_deriv(self.model, t)
            .iter()
            .zip(&self.theta)
            .map(|(p, c)| p * c)
            .sum()
    }

    /// Increasing on [0, 1]. The derivative is at most quadratic in t: its minimum on [0, 1]
    /// is at an end or at its own stationary point.
    pub fn monotone(&self) -> bool {
        if self.theta.len() < 2 || self.slope(0.0) <= 0.0 || self.slope(1.0) <= 0.0 {
            return false;
        }
        if self.theta.len() >= 4 {
            // slope = b + 2c t + 3d t^2, stationary at t = -c / (3d)
            let (c, d) = (self.theta[2], self.theta[3]);
            if d != 0.0 {
                let t = -c / (3.0 * d);
                if t > 0.0 && t < 1.0 && self.slope(t) <= 0.0 {
                    return false;
                }
            }
        }
        true
    }

    /// The strength parameter at which the curve reaches `target`, with a delta-method interval:
    /// dt*/dtheta_k = -phi_k(t*) / Elo'(t*), Var t* = g^T Sigma_theta g. Targets outside the
    /// curve's range on [0, 1] are clamped to the end and flagged.
    pub fn invert(&self, target: f64) -> Option<Inversion> {
        if !self.monotone() {
            return None;
        }
        let (lo, hi) = (self.elo(0.0), self.elo(1.0));
        let (t, range) = if target <= lo {
            (0.0, RangeFlag::Floor)
        } else if target >= hi {
            (1.0, RangeFlag::Ceiling)
        } else {
            let (mut a, mut b) = (0.0, 1.0);
            for _ in 0..60 {
                let m = 0.5 * (a + b);
                if self.elo(m) < target {
                    a = m;
                } else {
                    b = m;
                }
            }
            (0.5 * (a + b), RangeFlag::Ok)
        };
        let slope = self.slope(t);
        let g: Vec<f64> = basis(self.model, t).iter().map(|p| -p / slope).collect();
        let t_sd = quad(&self.cov_theta, &g, &g).max(0.0).sqrt();
        Some(Inversion {
            target,
            t,
            t_lower: (t - Z95 * t_sd).clamp(0.0, 1.0),
            t_upper: (t + Z95 * t_sd).clamp(0.0, 1.0),
            elo: self.elo(t),
            elo_sd: self.elo_sd(t),
            range,
        })
    }
}

/// Weighted isotonic (non-decreasing) regression by pool-adjacent-violators; `ys` in the order
/// of increasing x.
pub fn isotonic(ys: &[f64], weights: &[f64]) -> Vec<f64> {
    // blocks of (mean, weight, count)
    let mut blocks: Vec<(f64, f64, usize)> = Vec::new();
    for (&y, &w) in ys.iter().zip(weights) {
        blocks.push((y, w.max(1e-12), 1));
        while blocks.len() >= 2 {
            let (m2, w2, c2) = blocks[blocks.len() - 1];
            let (m1, w1, c1) = blocks[blocks.len() - 2];
            if m1 <= m2 {
                break;
            }
            blocks.pop();
            let last = blocks.last_mut().expect("two blocks");
            *last = ((m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2, c1 + c2);
        }
    }
    blocks
        .into_iter()
        .flat_map(|(m, _, c)| std::iter::repeat_n(m, c))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isotonic_pools_violators() {
        let y = isotonic(&[1.0, 3.0, 2.0, 4.0], &[1.0, 1.0, 1.0, 1.0]);
        assert_eq!(y, vec![1.0, 2.5, 2.5, 4.0]);
        let y = isotonic(&[5.0, 1.0], &[3.0, 1.0]);
        assert_eq!(y, vec![4.0, 4.0]);
        let y = isotonic(&[1.0, 2.0, 3.0], &[1.0, 1.0, 1.0]);
        assert_eq!(y, vec![1.0, 2.0, 3.0]);
    }

    #[test]
    fn two_players_76_percent_is_about_200() {
        // 76 wins, 24 losses against a hard anchor at 1500.
        let tallies = vec![Tally {
            a: 0,
            b: 1,
            n: 100.0,
            wins: 76.0,
            draws: 0.0,
        }];
        let roles = vec![
            Role::Free,
            Role::Anchored {
                mean: 1500.0,
                sd: 0.0,
            },
        ];
        let f = fit(&roles, &tallies, ModelKind::Linear).unwrap();
        let d = f.players[0].elo - 1500.0;
        assert!((d - 200.0).abs() < 3.0, "{d}");
        assert!(f.players[0].sd > 20.0 && f.players[0].sd < 60.0);
    }
}
