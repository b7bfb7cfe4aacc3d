//! The one Elo engine: a maximum-likelihood problem over game scores in which every player's
//! rating is a linear combination of parameters.
//!
//! A player's rating is `c + sum_k w_k theta_k` ([`Linear`]): a hard anchor is a constant, a
//! rated player is its own parameter, and a calibration's subject setting at strength t is the
//! curve `sum_k beta_k phi_k(t)`. Games between two players (a [`Cell`]: `n` games, `score` points
//! for the first) contribute the logistic log-likelihood of the score,
//!
//! ```text
//! (1/phi) sum_cells [s ln E(x) + (n - s) ln(1 - E(x))],   x = r_a - r_b + adv,
//! ```
//!
//! as Ordo does (a draw is half a point), with `E` from [`super::model::expected_score`], `adv` an
//! optional white advantage (a [`Linear`] too) and `phi` a quasi-likelihood dispersion (1 for
//! plain maximum likelihood). Gaussian penalties keep it concave and identified:
//! - [`Prior`]: a soft anchor on any linear combination (a player's value, or the difference of
//!   two players, or the white advantage);
//! - [`GaussianPrior`]: a prior with a full precision matrix on a set of parameters;
//! - [`Problem::evidence`]: extra games that always count at weight 1 (not scaled by the
//!   dispersion, not resampled by a bootstrap), e.g. the reference pool's measured pairwise
//!   results given to a calibration as fixed knowledge.
//!
//! Newton's method with a capped, backtracking step finds the maximum; the negative Hessian
//! there ([`Problem::information`]) gives the covariance.

use nalgebra::{Cholesky, DMatrix, DVector, Dyn};

use super::model::{expected_score, ELO_TO_NAT};

/// A rating as a constant plus a linear combination of parameters.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Linear {
    pub constant: f64,
    /// (parameter index, weight)
    pub terms: Vec<(usize, f64)>,
}

impl Linear {
    /// A fixed value.
    pub fn fixed(constant: f64) -> Linear {
        Linear {
            constant,
            terms: Vec::new(),
        }
    }

    /// Parameter `k` itself.
    pub fn param(k: usize) -> Linear {
        Linear {
            constant: 0.0,
            terms: vec![(k, 1.0)],
        }
    }

    pub fn eval(&self, theta: &DVector<f64>) -> f64 {
        self.constant + self.terms.iter().map(|&(k, w)| w * theta[k]).sum::<f64>()
    }

    /// `self - other`.
    pub fn minus(&self, other: &Linear) -> Linear {
        let mut terms = self.terms.clone();
        terms.extend(other.terms.iter().map(|&(k, w)| (k, -w)));
        Linear {
            constant: self.constant - other.constant,
            terms,
        }
    }

    /// The weights as a dense vector of `n` parameters.
    pub fn dense(&self, n: usize) -> DVector<f64> {
        let mut v = DVector::zeros(n);
        for &(k, w) in &self.terms {
            v[k] += w;
        }
        v
    }
}

/// Games of player `a` against player `b` (indices into [`Problem::players`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cell {
    pub a: usize,
    pub b: usize,
    pub n: f64,
    /// `a`'s points.
    pub score: f64,
    pub draws: f64,
}

impl Cell {
    /// Sum over the games of the squared score (for Pearson's statistic).
    pub(crate) fn score_sq(&self) -> f64 {
        self.score - 0.25 * self.draws
    }
}

/// A Gaussian prior `on ~ N(mean, sd^2)` on a linear combination of parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Prior {
    pub on: Linear,
    pub mean: f64,
    pub sd: f64,
}

/// A Gaussian prior with a full precision matrix on the parameters `params`:
/// `theta[params] ~ N(mean, precision^-1)`.
#[derive(Clone, Debug, PartialEq)]
pub struct GaussianPrior {
    pub params: Vec<usize>,
    pub mean: DVector<f64>,
    pub precision: DMatrix<f64>,
}

/// The maximum-likelihood problem. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct Problem {
    pub n_params: usize,
    pub players: Vec<Linear>,
    pub cells: Vec<Cell>,
    /// Games counted at weight 1 whatever the dispersion, and kept fixed by a bootstrap.
    pub evidence: Vec<Cell>,
    /// Added to every cell's difference (the white advantage when cells are (white, black)).
    pub advantage: Linear,
    pub priors: Vec<Prior>,
    pub gaussian: Option<GaussianPrior>,
}

/// What can go wrong when maximizing.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SolveError {
    #[error(
        "the information matrix is singular (a player or the curve is not connected to an \
         anchor by games)"
    )]
    Singular,
    #[error(
        "the rating fit did not converge in {0} Newton steps (its last step still moved a \
         parameter by {1:.3} Elo)"
    )]
    NotConverged(usize, f64),
}

/// Newton steps before a fit is reported as not converged: a well-posed fit needs a few dozen
/// even from far away (steps are capped at 400 Elo).
pub const MAX_NEWTON_STEPS: usize = 200;

fn softplus(z: f64) -> f64 {
    z.max(0.0) + (-z.abs()).exp().ln_1p()
}

impl Problem {
    /// The rating difference of a cell's two players (with the advantage) as a linear form.
    pub fn design(&self, c: &Cell) -> Linear {
        let mut d = self.players[c.a].minus(&self.players[c.b]);
        d.constant += self.advantage.constant;
        d.terms.extend(self.advantage.terms.iter().copied());
        d
    }

    /// Every player's rating at `theta`.
    pub fn ratings(&self, theta: &DVector<f64>) -> Vec<f64> {
        self.players.iter().map(|p| p.eval(theta)).collect()
    }

    /// Expected score of the cell's first player at `theta`.
    pub fn expected(&self, c: &Cell, theta: &DVector<f64>) -> f64 {
        expected_score(self.design(c).eval(theta))
    }

    /// The prior means in order (what a bootstrap may resample).
    pub fn prior_means(&self) -> Vec<f64> {
        self.priors.iter().map(|p| p.mean).collect()
    }

    /// The penalized log-likelihood with the games `cells` (in place of [`Problem::cells`]) and
    /// the prior means `means` (in place of the priors' own).
    pub fn objective(
        &self,
        cells: &[Cell],
        means: &[f64],
        theta: &DVector<f64>,
        dispersion: f64,
    ) -> f64 {
        let loglik = |c: &Cell| {
            let x = self.design(c).eval(theta) * ELO_TO_NAT;
            // s ln E + (n - s) ln(1 - E), with ln E = -softplus(-x), ln(1 - E) = -softplus(x).
            -(c.score * softplus(-x) + (c.n - c.score) * softplus(x))
        };
        let mut f = cells.iter().map(loglik).sum::<f64>() / dispersion;
        f += self.evidence.iter().map(loglik).sum::<f64>();
        for (p, m) in self.priors.iter().zip(means) {
            let d = p.on.eval(theta) - m;
            f -= d * d / (2.0 * p.sd * p.sd);
        }
        if let Some(g) = &self.gaussian {
            let d = DVector::from_iterator(
                g.params.len(),
                g.params
                    .iter()
                    .enumerate()
                    .map(|(i, &k)| theta[k] - g.mean[i]),
            );
            f -= 0.5 * d.dot(&(&g.precision * &d));
        }
        f
    }

    /// Gradient of [`Problem::objective`] and its negative Hessian (the information).
    pub fn derivatives(
        &self,
        cells: &[Cell],
        means: &[f64],
        theta: &DVector<f64>,
        dispersion: f64,
    ) -> (DVector<f64>, DMatrix<f64>) {
        let np = self.n_params;
        let mut g = DVector::zeros(np);
        let mut a = DMatrix::zeros(np, np);
        let mut add_cell = |c: &Cell, weight: f64| {
            let x = self.design(c);
            let e = expected_score(x.eval(theta));
            let resid = weight * ELO_TO_NAT * (c.score - c.n * e);
            let info = weight * ELO_TO_NAT * ELO_TO_NAT * c.n * e * (1.0 - e);
            add_rank_one(&mut g, &mut a, &x.terms, resid, info);
        };
        for c in cells {
            add_cell(c, 1.0 / dispersion);
        }
        for c in &self.evidence {
            add_cell(c, 1.0);
        }
        for (p, m) in self.priors.iter().zip(means) {
            let prec = 1.0 / (p.sd * p.sd);
            let d = p.on.eval(theta) - m;
            add_rank_one(&mut g, &mut a, &p.on.terms, -d * prec, prec);
        }
        if let Some(gp) = &self.gaussian {
            let d = DVector::from_iterator(
                gp.params.len(),
                gp.params
                    .iter()
                    .enumerate()
                    .map(|(i, &k)| theta[k] - gp.mean[i]),
            );
            let pd = &gp.precision * d;
            for (i, &k) in gp.params.iter().enumerate() {
                g[k] -= pd[i];
                for (j, &l) in gp.params.iter().enumerate() {
                    a[(k, l)] += gp.precision[(i, j)];
                }
            }
        }
        (g, a)
    }

    /// The information (negative Hessian) at `theta` with the problem's own games and priors.
    pub fn information(&self, theta: &DVector<f64>, dispersion: f64) -> DMatrix<f64> {
        self.derivatives(&self.cells, &self.prior_means(), theta, dispersion)
            .1
    }

    /// Maximizes [`Problem::objective`] from `theta` by Newton's method with backtracking.
    pub fn solve_with(
        &self,
        cells: &[Cell],
        means: &[f64],
        mut theta: DVector<f64>,
        dispersion: f64,
    ) -> Result<DVector<f64>, SolveError> {
        if self.n_params == 0 {
            return Ok(theta);
        }
        let mut f = self.objective(cells, means, &theta, dispersion);
        let mut last_step = f64::INFINITY;
        for _ in 0..MAX_NEWTON_STEPS {
            let (g, a) = self.derivatives(cells, means, &theta, dispersion);
            let Some(chol) = cholesky(a) else {
                return Err(SolveError::Singular);
            };
            let step = chol.solve(&g);
            let max_step = step.amax();
            last_step = max_step;
            if max_step < 1e-7 {
                return Ok(theta); // the full Newton step is negligible: converged
            }
            // Far from the optimum (e.g. perfect scores), cap the step to keep Newton stable.
            let mut t = if max_step > 400.0 {
                400.0 / max_step
            } else {
                1.0
            };
            let mut accepted = None;
            for _ in 0..60 {
                let next = &theta + t * &step;
                let fn_ = self.objective(cells, means, &next, dispersion);
                if fn_ >= f - 1e-12 * f.abs().max(1.0) {
                    f = fn_;
                    accepted = Some(next);
                    break;
                }
                t *= 0.5;
            }
            match accepted {
                Some(next) => theta = next,
                // No step improves the objective: at its optimum to rounding.
                None => return Ok(theta),
            }
        }
        Err(SolveError::NotConverged(MAX_NEWTON_STEPS, last_step))
    }

    /// Maximizes with the problem's own games and priors.
    pub fn solve(&self, theta: DVector<f64>, dispersion: f64) -> Result<DVector<f64>, SolveError> {
        self.solve_with(&self.cells, &self.prior_means(), theta, dispersion)
    }

    /// Covariance of the parameters at `theta`: the inverse information.
    pub fn covariance(
        &self,
        theta: &DVector<f64>,
        dispersion: f64,
    ) -> Result<DMatrix<f64>, SolveError> {
        inverse(self.information(theta, dispersion))
    }

    /// Pearson's chi-square of the games' scores at `theta` (binomial variance per game), for a
    /// quasi-likelihood dispersion estimate.
    pub fn pearson(&self, theta: &DVector<f64>) -> f64 {
        self.cells
            .iter()
            .map(|c| {
                let p = self.expected(c, theta);
                let v = (p * (1.0 - p)).max(1e-9);
                (c.score_sq() - 2.0 * p * c.score + c.n * p * p) / v
            })
            .sum()
    }
}

/// Adds `resid * v` to the gradient and `info * v v^T` to the matrix, for the sparse vector `v`
/// (repeated indices add up).
pub fn add_rank_one(
    g: &mut DVector<f64>,
    a: &mut DMatrix<f64>,
    v: &[(usize, f64)],
    resid: f64,
    info: f64,
) {
    for &(i, wi) in v {
        g[i] += wi * resid;
        for &(j, wj) in v {
            a[(i, j)] += wi * wj * info;
        }
    }
}

/// The covariance of an estimate after `info` more Fisher information on the linear combination
/// `x` of its parameters (Sherman-Morrison on the precision matrix):
///     Sigma' = Sigma - info Sigma x x^T Sigma / (1 + info x^T Sigma x).
/// The planners rank the games they could play next by the variances after it.
pub fn covariance_with(cov: &DMatrix<f64>, x: &DVector<f64>, info: f64) -> DMatrix<f64> {
    let sx = cov * x;
    let f = info / (1.0 + info * sx.dot(x));
    cov - f * &sx * sx.transpose()
}

/// Cholesky factor of a symmetric positive-definite matrix, `None` if it is not.
pub fn cholesky(a: DMatrix<f64>) -> Option<Cholesky<f64, Dyn>> {
    if a.iter().any(|x| !x.is_finite()) {
        return None;
    }
    Cholesky::new(a)
}

/// Inverse of a symmetric positive-definite matrix.
pub fn inverse(a: DMatrix<f64>) -> Result<DMatrix<f64>, SolveError> {
    if a.nrows() == 0 {
        return Ok(a);
    }
    cholesky(a).map(|c| c.inverse()).ok_or(SolveError::Singular)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_players_76_percent_is_200() {
        let p = Problem {
            n_params: 1,
            players: vec![Linear::param(0), Linear::fixed(1500.0)],
            cells: vec![Cell {
                a: 0,
                b: 1,
                n: 100.0,
                score: 76.0,
                draws: 0.0,
            }],
            ..Default::default()
        };
        let theta = p.solve(DVector::zeros(1), 1.0).unwrap();
        let d = theta[0] - 1500.0;
        assert!((d - 200.3).abs() < 0.2, "{d}");
    }

    /// A parameter that enters a rating at weight 1/1000 must reach 1.7 million while steps
    /// are capped at 400: more than MAX_NEWTON_STEPS steps (the unscaled spline terms did this).
    /// The fit says so rather than returning wherever its steps stopped.
    #[test]
    fn a_fit_out_of_reach_of_its_steps_reports_not_converged() {
        let p = Problem {
            n_params: 1,
            players: vec![
                Linear {
                    constant: 0.0,
                    terms: vec![(0, 0.001)],
                },
                Linear::fixed(1500.0),
            ],
            cells: vec![Cell {
                a: 0,
                b: 1,
                n: 100.0,
                score: 76.0,
                draws: 0.0,
            }],
            ..Default::default()
        };
        match p.solve(DVector::zeros(1), 1.0) {
            Err(SolveError::NotConverged(n, step)) => {
                assert_eq!(n, MAX_NEWTON_STEPS);
                assert!(step > 1.0, "{step}");
            }
            other => panic!("expected NotConverged, got {other:?}"),
        }
    }

    #[test]
    fn full_precision_prior_equals_independent_priors_when_diagonal() {
        let base = Problem {
            n_params: 2,
            players: vec![Linear::param(0), Linear::param(1), Linear::fixed(0.0)],
            cells: vec![
                Cell {
                    a: 0,
                    b: 2,
                    n: 30.0,
                    score: 20.0,
                    draws: 4.0,
                },
                Cell {
                    a: 1,
                    b: 0,
                    n: 30.0,
                    score: 12.0,
                    draws: 2.0,
                },
            ],
            ..Default::default()
        };
        let mut a = base.clone();
        a.priors = vec![
            Prior {
                on: Linear::param(0),
                mean: 10.0,
                sd: 50.0,
            },
            Prior {
                on: Linear::param(1),
                mean: -20.0,
                sd: 80.0,
            },
        ];
        let mut b = base;
        b.gaussian = Some(GaussianPrior {
            params: vec![0, 1],
            mean: DVector::from_vec(vec![10.0, -20.0]),
            precision: DMatrix::from_diagonal(&DVector::from_vec(vec![1.0 / 2500.0, 1.0 / 6400.0])),
        });
        let ta = a.solve(DVector::zeros(2), 1.0).unwrap();
        let tb = b.solve(DVector::zeros(2), 1.0).unwrap();
        assert!((&ta - &tb).amax() < 1e-6);
        let (ca, cb) = (
            a.covariance(&ta, 1.0).unwrap(),
            b.covariance(&ta, 1.0).unwrap(),
        );
        assert!((ca - cb).amax() < 1e-9);
    }
}
