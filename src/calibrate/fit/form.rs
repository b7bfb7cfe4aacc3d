//! A curve's form: its kind (linear, quadratic, cubic, a natural cubic spline or the monotone
//! I-spline form) with the knots, its basis phi(t) and derivative, the part of the curve no
//! parameter carries (the monotone form's terms held at their floor), and the formula the
//! table's header shows.

use serde::{Deserialize, Serialize};

use crate::calibrate::fit::{monotone, spline};

/// The curve's form. Every form is kept only if increasing on [t_min, 1]; when the configured
/// one is not, the fit uses the increasing form that fits the tested settings best
/// (`run/fits.rs`).
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum ModelKind {
    /// Elo = a + b t.
    #[default]
    Linear,
    /// Elo = a + b t + c t^2.
    Quadratic,
    /// Elo = a + b t + c t^2 + d t^3: an S-shaped path (flat at the weak end, steep in the
    /// middle, flat near the ceiling).
    Cubic,
    /// A natural cubic spline in t (`fit.knots` knots, equally spaced over [t_min, 1] or placed
    /// by the tested settings with `fit.knots_at = "data"`): follows
    /// a path whose steepness changes more than once, which no global cubic can.
    Spline,
    /// Cubic I-splines on the spline's knots (boundary knots at t_min and 1) with every
    /// coefficient at least 1 Elo: increasing by construction, for a path flat over a stretch
    /// and steep elsewhere, where the spline dips and the polynomials miss the flat stretch.
    /// Also the fallback tried whenever the configured form is not increasing.
    Monotone,
}

impl ModelKind {
    /// The forms fitted without a constraint; the monotone form (an active set over its
    /// terms) is tried apart from them.
    pub const ALL: [ModelKind; 4] = [
        ModelKind::Linear,
        ModelKind::Quadratic,
        ModelKind::Cubic,
        ModelKind::Spline,
    ];

    /// The next simpler form (spline, cubic, quadratic, linear): the order the forms nest in;
    /// the monotone form nests in none of them.
    pub fn simpler(self) -> Option<ModelKind> {
        match self {
            ModelKind::Linear | ModelKind::Monotone => None,
            ModelKind::Quadratic => Some(ModelKind::Linear),
            ModelKind::Cubic => Some(ModelKind::Quadratic),
            ModelKind::Spline => Some(ModelKind::Cubic),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ModelKind::Linear => "linear",
            ModelKind::Quadratic => "quadratic",
            ModelKind::Cubic => "cubic",
            ModelKind::Spline => "spline",
            ModelKind::Monotone => "monotone",
        }
    }
}

/// A curve form with what its basis needs: the knots (empty for the polynomials), which depend
/// on the path's t_min and so cannot live in the Copy [`ModelKind`], and the monotone form's
/// terms held at their floor (indices of its I-splines; empty for every other form).
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    pub kind: ModelKind,
    pub knots: Vec<f64>,
    pub held: Vec<usize>,
}

impl Curve {
    /// `kind` on the path [t_min, 1]; `n_knots` is used by the spline and monotone forms only.
    pub fn new(kind: ModelKind, t_min: f64, n_knots: usize) -> Curve {
        let knots = match kind {
            ModelKind::Spline | ModelKind::Monotone => spline::knots(t_min, n_knots),
            _ => Vec::new(),
        };
        Curve {
            kind,
            knots,
            held: Vec::new(),
        }
    }
}

/// A polynomial form needs no path; a spline this way gets the default knots over [0, 1]
/// (use [`Curve::new`] for another t_min).
impl From<ModelKind> for Curve {
    fn from(kind: ModelKind) -> Curve {
        Curve::new(kind, 0.0, spline::DEFAULT_KNOTS)
    }
}

/// Basis functions phi(t) of a curve model.
pub fn basis(curve: &Curve, t: f64) -> Vec<f64> {
    match curve.kind {
        ModelKind::Linear => vec![1.0, t],
        ModelKind::Quadratic => vec![1.0, t, t * t],
        ModelKind::Cubic => vec![1.0, t, t * t, t * t * t],
        ModelKind::Spline => spline::basis(&curve.knots, t),
        ModelKind::Monotone => monotone::basis_offset(&curve.knots, &curve.held, t).0,
    }
}

/// d phi / dt.
pub fn basis_deriv(curve: &Curve, t: f64) -> Vec<f64> {
    match curve.kind {
        ModelKind::Linear => vec![0.0, 1.0],
        ModelKind::Quadratic => vec![0.0, 1.0, 2.0 * t],
        ModelKind::Cubic => vec![0.0, 1.0, 2.0 * t, 3.0 * t * t],
        ModelKind::Spline => spline::basis_deriv(&curve.knots, t),
        ModelKind::Monotone => monotone::deriv_offset(&curve.knots, &curve.held, t).0,
    }
}

/// phi(t) and the curve's part no parameter carries, from one evaluation of the basis:
/// Elo(t) = offset(t) + phi(t) theta (the offset is the monotone form's held terms, else 0).
pub fn basis_offset(curve: &Curve, t: f64) -> (Vec<f64>, f64) {
    match curve.kind {
        ModelKind::Monotone => monotone::basis_offset(&curve.knots, &curve.held, t),
        _ => (basis(curve, t), 0.0),
    }
}

/// d phi / dt and d offset / dt, from one evaluation.
pub fn deriv_offset(curve: &Curve, t: f64) -> (Vec<f64>, f64) {
    match curve.kind {
        ModelKind::Monotone => monotone::deriv_offset(&curve.knots, &curve.held, t),
        _ => (basis_deriv(curve, t), 0.0),
    }
}

pub fn model_formula(curve: &Curve) -> String {
    match curve.kind {
        ModelKind::Linear => "Elo(t) = a + b t".into(),
        ModelKind::Quadratic => "Elo(t) = a + b t + c t^2".into(),
        ModelKind::Cubic => "Elo(t) = a + b t + c t^2 + d t^3".into(),
        ModelKind::Spline => spline::describe(&curve.knots),
        ModelKind::Monotone => monotone::describe(&curve.knots, &curve.held),
    }
}
