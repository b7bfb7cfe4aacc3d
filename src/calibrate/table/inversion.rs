//! A table row from the curve: the setting that plays a target Elo, with its intervals.

use nalgebra::DVector;

use crate::calibrate::fit::{basis, CurveFit, RangeFlag, Z95};

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

impl CurveFit {
    /// The strength parameter at which the curve reaches `target`, with a delta-method interval:
    /// dt*/dtheta_k = -phi_k(t*) / Elo'(t*), Var t* = g^T Sigma_theta g. Targets outside the
    /// curve's range on [t_min, 1] are clamped to the end and flagged.
    pub fn invert(&self, target: f64, t_min: f64) -> Option<Inversion> {
        if !self.monotone(t_min) {
            return None;
        }
        let (lo, hi) = (self.elo(t_min), self.elo(1.0));
        let (t, range) = if target <= lo {
            (t_min, RangeFlag::Floor)
        } else if target >= hi {
            (1.0, RangeFlag::Ceiling)
        } else {
            let (mut a, mut b) = (t_min, 1.0);
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
        let g = DVector::from_iterator(
            self.theta.len(),
            basis(&self.curve, t).iter().map(|p| -p / slope),
        );
        let t_sd = g.dot(&(&self.cov_theta * &g)).max(0.0).sqrt();
        Some(Inversion {
            target,
            t,
            t_lower: (t - Z95 * t_sd).clamp(t_min, 1.0),
            t_upper: (t + Z95 * t_sd).clamp(t_min, 1.0),
            elo: self.elo(t),
            elo_sd: self.elo_sd(t),
            range,
        })
    }
}
