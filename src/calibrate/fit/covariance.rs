//! The covariance of a two-step fit ([`crate::calibrate::fit::held`]) in the joint layout, and how more of the
//! run's games change it: apart from both modules so that `fit` (the planner's foresight) and
//! `held` (the fit) can use it without importing each other.

use nalgebra::{DMatrix, DVector};

/// What a held fit keeps to foresee more of the run's games (the planner's
/// [`super::curve::CurveFit::with_games`]): such games inform the run's parameters only, so the members'
/// covariance stays S while I_tt and I_tr grow. Indices are the joint layout's.
#[derive(Debug, Clone)]
pub struct HeldParts {
    /// The joint index of each run parameter, and of each held member's.
    free: Vec<usize>,
    members: Vec<usize>,
    /// I_tt^-1, I_tr and S of the module's formula.
    a: DMatrix<f64>,
    b: DMatrix<f64>,
    sigma: DMatrix<f64>,
}

impl HeldParts {
    pub fn new(
        free: Vec<usize>,
        members: Vec<usize>,
        a: DMatrix<f64>,
        b: DMatrix<f64>,
        sigma: DMatrix<f64>,
    ) -> HeldParts {
        HeldParts {
            free,
            members,
            a,
            b,
            sigma,
        }
    }

    /// The covariance of all `n` joint parameters: A + J S J^T, J S and S, J = -A I_tr.
    pub fn covariance(&self, n: usize) -> DMatrix<f64> {
        let j = -(&self.a * &self.b);
        let js = &j * &self.sigma;
        let cov_run = &self.a + &js * j.transpose();
        let mut cov = DMatrix::zeros(n, n);
        for (r, &jr) in self.free.iter().enumerate() {
            for (c, &jc) in self.free.iter().enumerate() {
                cov[(jr, jc)] = cov_run[(r, c)];
            }
            for (c, &jk) in self.members.iter().enumerate() {
                cov[(jr, jk)] = js[(r, c)];
                cov[(jk, jr)] = js[(r, c)];
            }
        }
        for (r, &jr) in self.members.iter().enumerate() {
            for (c, &jc) in self.members.iter().enumerate() {
                cov[(jr, jc)] = self.sigma[(r, c)];
            }
        }
        cov
    }

    /// After games adding information `lambda x x^T` (x in the joint layout): A by a rank-one
    /// update, I_tr by lambda x_t x_r^T; S unchanged. Returns the new parts and covariance.
    pub fn after(&self, x: &DVector<f64>, lambda: f64) -> (HeldParts, DMatrix<f64>) {
        let pick = |idx: &[usize]| DVector::from_iterator(idx.len(), idx.iter().map(|&k| x[k]));
        let (xt, xr) = (pick(&self.free), pick(&self.members));
        let ax = &self.a * &xt;
        let a = &self.a - (&ax * ax.transpose()) * (lambda / (1.0 + lambda * xt.dot(&ax)));
        let b = &self.b + (&xt * xr.transpose()) * lambda;
        let parts = HeldParts {
            a,
            b,
            ..self.clone()
        };
        let cov = parts.covariance(x.len());
        (parts, cov)
    }
}
