//! The math of a calibration, no config and no files: the Elo curve over t as a rating problem
//! (`curve`) of a form (`form`: the basis, the spline's knots) on the games tallied per pair
//! (`tally`), why a fit fails (`error`), the pool held at its measured ratings (`held`) and that fit's covariance
//! (`covariance`), the self-play scale between the run's own settings (`self_play`), the natural
//! cubic spline basis (`spline`), the I-spline form held increasing (`monotone`) and its fit
//! (`active`), and the check that tested settings rise with t (`isotonic`).

pub(super) mod active;
pub(super) mod covariance;
pub(super) mod curve;
pub(super) mod error;
pub(super) mod form;
pub(super) mod held;
pub(super) mod isotonic;
pub(super) mod monotone;
pub(super) mod self_play;
pub(super) mod spline;
pub(super) mod tally;

pub use active::fit_active;
pub use curve::{
    basis, basis_deriv, fit, fit_among, fit_with, model_formula, Curve, CurveFit, RangeFlag, Role,
    Side, Z95,
};
pub(crate) use curve::{residual_z, WEAK_SD};
pub(crate) use error::FitError;
pub use form::ModelKind;
pub use held::{fit_held, fit_run, MeasuredPool, RunPool};
pub use isotonic::isotonic;
pub use monotone::FLOOR_ELO;
pub use self_play::{profile, profile_by_t, Among, Stretch};
pub(crate) use self_play::{KAPPA_RANGE, PIVOT};
pub(crate) use spline::DEFAULT_KNOTS;
pub use spline::{data_knots, KNOTS_RANGE};
pub(crate) use tally::{tally_games, PlayerStats};
