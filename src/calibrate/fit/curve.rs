//! Fitting Elo as a function of the strength parameter t directly on game results: a builder
//! over the rating problem ([`crate::rating::problem`]), the same engine `rate` uses.
//!
//! Model. Every game between players A and B gives A the score s in {0, 1/2, 1} with the
//! logistic expected score of `rating::model` (the scale of Ordo and the PR #4341 table). A
//! subject setting at strength t is rated by the curve r(t) = sum_k theta_k phi_k(t) with
//! phi = (1, t), (1, t, t^2), (1, t, t^2, t^3), a natural cubic spline's basis (`spline.rs`,
//! the shipped table's form) or cubic I-splines with coefficients held above a floor
//! (`monotone.rs`; the held terms are an offset, the Linear's constant); a reference player j
//! has its own rating r_j with
//! the prior N(anchor_j, sd_j) (a soft anchor; sd = 0 holds it fixed); an unanchored member gets a
//! weak prior ([`WEAK_SD`]) at the anchors' mean. The fit maximizes
//!     (1/phi) * sum_games [s ln p + (1 - s) ln(1 - p)]  -  sum_j (r_j - anchor_j)^2 / (2 sd_j^2),
//! a quasi-likelihood: draws make a game's score vary less than a Bernoulli trial, so the
//! dispersion phi (Pearson chi^2 per degree of freedom, estimated from the data) scales the
//! information of the games. The inverse of the negative Hessian at the maximum is the
//! covariance, whose theta block gives the curve's band Var r(t) = phi(t)^T Sigma_theta phi(t),
//! already widened for the uncertainty of the pool. No white advantage term: the arena plays
//! every opening with both colours.

use std::collections::HashMap;

use nalgebra::{DMatrix, DVector};

pub use super::error::FitError;
use super::form::ModelKind;
pub use super::form::{basis, basis_deriv, basis_offset, deriv_offset, model_formula, Curve};
use super::self_play::{self, Among, Stretch};
use crate::rating::model::{expected_score, ELO_TO_NAT};
use crate::rating::problem::{covariance_with, Cell, Linear, Prior, Problem};
pub use crate::results::RangeFlag;

pub use crate::rating::model::Z95;
/// Floor of the estimated dispersion: Pearson's estimate runs low when many games are lopsided
/// (expected scores near 0 or 1), and a floor keeps the intervals from shrinking on that alone.
pub const MIN_DISPERSION: f64 = 0.5;
/// Grid intervals of the spline's monotonicity check over [t_min, 1].
pub const SPLINE_GRID: usize = 400;
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

/// The result of a curve fit: curve coefficients (if any subject is on the curve) and every
/// player.
#[derive(Debug, Clone)]
pub struct CurveFit {
    pub curve: Curve,
    pub theta: Vec<f64>,
    pub cov_theta: DMatrix<f64>,
    pub players: Vec<PlayerFit>,
    pub dispersion: f64,
    pub games: f64,
    /// Log-likelihood of the games (and the pool file's) at the fit, for profiling.
    pub loglik: f64,
    /// Self-play's stretch (`self_scale`; [`Stretch::ONE`] when games between settings count
    /// as any).
    pub stretch: Stretch,
    /// Covariance of all parameters (theta first, then the pool's free ratings).
    pub cov: DMatrix<f64>,
    /// Each player's rating as a linear combination of the parameters.
    pub ratings: Vec<Linear>,
    /// With the pool held (`crate::calibrate::fit::held`): what foreseeing more games needs.
    pub held: Option<Box<super::covariance::HeldParts>>,
    /// The curve needed the weak prior at its tested settings to stay finite
    /// (`solve_curve`: a setting scored 100% or 0%).
    pub weak_prior: bool,
}

/// A tested setting's own rating (`point`, at strength `t`) against the curve, in standard
/// errors of the two together.
pub fn residual_z(point: &PlayerFit, curve: &CurveFit, t: f64) -> f64 {
    (point.elo - curve.elo(t)) / (point.sd.powi(2) + curve.elo_sd(t).powi(2)).sqrt()
}

/// One side of a prospective game, for [`CurveFit::with_games`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Side {
    /// A player of the fit, by index.
    Player(usize),
    /// The subject at strength t (need not have played yet).
    Curve(f64),
}

/// A subject's rating at strength `t` as a linear combination of the curve's parameters.
fn on_curve(curve: &Curve, t: f64) -> Linear {
    let (phi, offset) = basis_offset(curve, t);
    Linear {
        constant: offset,
        terms: phi.into_iter().enumerate().collect(),
    }
}

/// The rating problem of a calibration: subjects on the curve of `model`, pool members as
/// soft anchors or free parameters, the cells as games; with the parameters' starting point.
pub fn curve_problem(
    roles: &[Role],
    cells: &[Cell],
    curve: &Curve,
) -> Result<(Problem, usize, DVector<f64>), FitError> {
    curve_problem_at(roles, cells, curve, anchor_center(roles)?)
}

/// The anchors' mean: where an unanchored player's weak prior sits.
pub(in crate::calibrate) fn anchor_center(roles: &[Role]) -> Result<f64, FitError> {
    let anchors: Vec<f64> = roles
        .iter()
        .filter_map(|r| match r {
            Role::Anchored { mean, .. } => Some(*mean),
            _ => None,
        })
        .collect();
    if anchors.is_empty() {
        return Err(FitError::NoAnchor);
    }
    Ok(anchors.iter().sum::<f64>() / anchors.len() as f64)
}

/// [`curve_problem`] with the weak priors (and the curve's start) at `center`.
pub(in crate::calibrate) fn curve_problem_at(
    roles: &[Role],
    cells: &[Cell],
    curve: &Curve,
    center: f64,
) -> Result<(Problem, usize, DVector<f64>), FitError> {
    let has_curve = roles.iter().any(|r| matches!(r, Role::Subject(_)));
    let n_theta = if has_curve {
        basis(curve, 0.0).len()
    } else {
        0
    };
    let mut players = Vec::with_capacity(roles.len());
    let mut priors = Vec::new();
    let mut init = vec![0.0; n_theta];
    if n_theta > 0 {
        init[0] = center;
    }
    let mut own = |init: &mut Vec<f64>, mean: f64, sd: f64| {
        let lin = Linear::param(init.len());
        init.push(mean);
        priors.push(Prior {
            on: lin.clone(),
            mean,
            sd,
        });
        lin
    };
    for role in roles {
        let lin = match role {
            Role::Subject(t) => on_curve(curve, *t),
            Role::Anchored { mean, sd } if *sd <= 0.0 => Linear::fixed(*mean),
            Role::Anchored { mean, sd } => own(&mut init, *mean, *sd),
            Role::Free => own(&mut init, center, WEAK_SD),
        };
        players.push(lin);
    }
    let problem = Problem {
        n_params: init.len(),
        players,
        cells: cells.to_vec(),
        priors,
        ..Default::default()
    };
    Ok((problem, n_theta, DVector::from_vec(init)))
}

/// Fits ratings for `roles` from `cells`, quasi-likelihood: the curve problem is solved once at
/// dispersion 1, the dispersion estimated from Pearson's statistic there (per degree of
/// freedom, clamped to [`MIN_DISPERSION`, 4]), then solved again with it.
pub fn fit(roles: &[Role], cells: &[Cell], model: impl Into<Curve>) -> Result<CurveFit, FitError> {
    fit_with(roles, cells, &[], model)
}

/// [`fit`] with `evidence`: games between pool members measured elsewhere (a pool file), counted
/// at their binomial weight whatever this run's dispersion, and not in its dispersion estimate.
pub fn fit_with(
    roles: &[Role],
    cells: &[Cell],
    evidence: &[Cell],
    model: impl Into<Curve>,
) -> Result<CurveFit, FitError> {
    fit_among(roles, cells, evidence, model, None)
}

/// [`fit_with`] with the games among the players of `among` on their own scale.
pub fn fit_among(
    roles: &[Role],
    cells: &[Cell],
    evidence: &[Cell],
    model: impl Into<Curve>,
    among: Option<&Among>,
) -> Result<CurveFit, FitError> {
    let curve = model.into();
    let (mut problem, n_theta, init) = curve_problem(roles, cells, &curve)?;
    problem.evidence = evidence.to_vec();
    if let Some(among) = among {
        self_play::apply(&mut problem, among);
    }
    let n = problem.n_params;
    let games: f64 = cells.iter().map(|t| t.n).sum();
    let (beta, weak_prior) = solve_curve(&mut problem, roles, &curve, anchor_center(roles)?, init)?;
    let dispersion = estimate_dispersion(&problem, &beta);
    let beta = problem.solve(beta, dispersion)?;
    let cov = problem.covariance(&beta, dispersion)?;
    let loglik = problem.objective(&problem.cells, &[], &beta, 1.0);
    problem.players.truncate(roles.len());
    let players = problem
        .players
        .iter()
        .map(|p| {
            let v = p.dense(n);
            PlayerFit {
                elo: p.eval(&beta),
                sd: v.dot(&(&cov * &v)).max(0.0).sqrt(),
            }
        })
        .collect();
    Ok(CurveFit {
        curve,
        theta: beta.as_slice()[..n_theta].to_vec(),
        cov_theta: cov.view((0, 0), (n_theta, n_theta)).into_owned(),
        players,
        dispersion,
        games,
        loglik,
        stretch: among.map_or(Stretch::ONE, |a| a.stretch),
        ratings: problem.players,
        cov,
        held: None,
        weak_prior,
    })
}

/// Solves a curve problem from `init`. When that fails because a tested setting scored 100%
/// or 0% (the curve's coefficients run off to infinity to fit it), solves again with
/// the weak prior unanchored players get ([`WEAK_SD`] at `center`) on the curve at each tested
/// setting: the curve stays finite, as `rate`'s players do. Every fit that converges without
/// it keeps its numbers. Returns whether the prior was needed.
pub(in crate::calibrate) fn solve_curve(
    problem: &mut Problem,
    roles: &[Role],
    curve: &Curve,
    center: f64,
    init: DVector<f64>,
) -> Result<(DVector<f64>, bool), FitError> {
    let err = match problem.solve(init.clone(), 1.0) {
        Ok(beta) => return Ok((beta, false)),
        Err(e) => e,
    };
    // each tested setting's (points, games) over its games
    let mut tally: HashMap<usize, (f64, f64)> = HashMap::new();
    for c in &problem.cells {
        for (i, points) in [(c.a, c.score), (c.b, c.n - c.score)] {
            if matches!(roles.get(i), Some(Role::Subject(_))) {
                let e = tally.entry(i).or_default();
                e.0 += points;
                e.1 += c.n;
            }
        }
    }
    // not converging (or a singular information matrix, as p(1 - p) vanishes) for any other
    // reason stays an error
    if !tally
        .values()
        .any(|&(p, n)| n > 0.0 && (p == 0.0 || p == n))
    {
        return Err(err.into());
    }
    let mut tested: Vec<f64> = roles
        .iter()
        .filter_map(|r| match r {
            Role::Subject(t) => Some(*t),
            _ => None,
        })
        .collect();
    tested.sort_by(f64::total_cmp);
    tested.dedup();
    for t in tested {
        problem.priors.push(Prior {
            on: on_curve(curve, t),
            mean: center,
            sd: WEAK_SD,
        });
    }
    Ok((problem.solve(init, 1.0)?, true))
}

/// The quasi-likelihood dispersion of `problem`'s games at `beta`: Pearson's chi-square per
/// degree of freedom, clamped to [[`MIN_DISPERSION`], 4]; 1 with too few games to tell.
pub(in crate::calibrate) fn estimate_dispersion(problem: &Problem, beta: &DVector<f64>) -> f64 {
    let n = problem.n_params as f64;
    let games: f64 = problem.cells.iter().map(|t| t.n).sum();
    if games > n + 5.0 {
        (problem.pearson(beta) / (games - n).max(1.0)).clamp(MIN_DISPERSION, 4.0)
    } else {
        1.0
    }
}

impl CurveFit {
    pub fn elo(&self, t: f64) -> f64 {
        let (phi, offset) = basis_offset(&self.curve, t);
        offset + phi.iter().zip(&self.theta).map(|(p, c)| p * c).sum::<f64>()
    }

    pub fn elo_sd(&self, t: f64) -> f64 {
        let phi = DVector::from_vec(basis(&self.curve, t));
        phi.dot(&(&self.cov_theta * &phi)).max(0.0).sqrt()
    }

    fn side(&self, side: Side) -> (f64, DVector<f64>) {
        let m = self.cov.nrows();
        match side {
            Side::Player(i) => (self.players[i].elo, self.ratings[i].dense(m)),
            Side::Curve(t) => {
                let mut x = DVector::zeros(m);
                for (k, p) in basis(&self.curve, t).into_iter().enumerate() {
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
    /// With the pool held the games inform the run's parameters only (`crate::calibrate::fit::held`).
    pub fn with_games(&self, a: Side, b: Side, n: f64) -> CurveFit {
        let (ra, xa) = self.side(a);
        let (rb, xb) = self.side(b);
        // games between two settings on their own scale (self_scale)
        let k = match (a, b) {
            (Side::Curve(s), Side::Curve(u)) => self.stretch.at(s, u),
            _ => 1.0,
        };
        let x = (xa - xb) * k;
        let p = expected_score(k * (ra - rb));
        let lambda = n * ELO_TO_NAT * ELO_TO_NAT * p * (1.0 - p) / self.dispersion;
        let mut out = self.clone();
        match &self.held {
            Some(h) => {
                let (parts, cov) = h.after(&x, lambda);
                out.cov = cov;
                out.held = Some(Box::new(parts));
            }
            None => out.cov = covariance_with(&self.cov, &x, lambda),
        }
        let n_theta = self.theta.len();
        out.cov_theta = out.cov.view((0, 0), (n_theta, n_theta)).into_owned();
        out
    }

    pub fn slope(&self, t: f64) -> f64 {
        let (d, offset) = deriv_offset(&self.curve, t);
        offset + d.iter().zip(&self.theta).map(|(p, c)| p * c).sum::<f64>()
    }

    /// Increasing on [t_min, 1]. A polynomial's derivative is at most quadratic in t: its
    /// minimum there is at an end or at its own stationary point. A spline's (and the monotone
    /// form's) derivative is piecewise quadratic, checked on a fine grid (`SPLINE_GRID` points).
    pub fn monotone(&self, t_min: f64) -> bool {
        if self.theta.len() < 2 || self.slope(t_min) <= 0.0 || self.slope(1.0) <= 0.0 {
            return false;
        }
        if matches!(self.curve.kind, ModelKind::Spline | ModelKind::Monotone) {
            return (0..=SPLINE_GRID)
                .all(|i| self.slope(t_min + (1.0 - t_min) * i as f64 / SPLINE_GRID as f64) > 0.0);
        }
        if self.theta.len() >= 4 {
            // slope = b + 2c t + 3d t^2, stationary at t = -c / (3d)
            let (c, d) = (self.theta[2], self.theta[3]);
            if d != 0.0 {
                let t = -c / (3.0 * d);
                if t > t_min && t < 1.0 && self.slope(t) <= 0.0 {
                    return false;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_players_76_percent_is_about_200() {
        // 76 wins, 24 losses against a hard anchor at 1500.
        let tallies = vec![Cell {
            a: 0,
            b: 1,
            n: 100.0,
            score: 76.0,
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
