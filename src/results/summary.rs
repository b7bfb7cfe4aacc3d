//! Run-level facts (`summary.toml`).

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::error::ResultsError;
use crate::fsutil::FileError;

/// File name of the summary in a run directory.
pub const SUMMARY_FILE: &str = "summary.toml";

/// Run-level facts (`summary.toml`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct Summary {
    pub name: String,
    pub scale: String,
    pub model: String,
    pub formula: String,
    pub theta: Vec<f64>,
    pub dispersion: f64,
    pub games: u64,
    pub budget: u64,
    pub batches: u32,
    pub precision: f64,
    /// The bottom of the measured range (the lowest anchor, or the lowest chained member of a
    /// measured pool); the name stays for the files already written.
    pub lowest_anchor: f64,
    /// Knob names of the strength path with their `t = 0` and `t = 1` values and scale.
    pub knobs: Vec<KnobSummary>,
    pub monotone: bool,
    pub isotonic_max_gap: f64,
    /// The same gap divided by the point's standard error, largest over the settings.
    #[serde(default)]
    pub isotonic_max_z: f64,
    /// Residuals of the tested settings against the curve: sum of z^2, settings, and the
    /// chi-square p-value on (settings - curve parameters) degrees of freedom (approximate: the
    /// points and the curve share games).
    #[serde(default)]
    pub residual_chi2: f64,
    #[serde(default)]
    pub residual_points: u32,
    #[serde(default)]
    pub residual_p: f64,
    /// The pool's members were held at a measured pool file's ratings (`pool.hold`), so their
    /// fitted ratings equal the file's by construction.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pool_held: bool,
    pub notes: Vec<String>,
}

/// Below this residual p-value the curve's form is rejected: the tested settings scatter about
/// it far more than their games allow.
pub const FORM_REJECTED_P: f64 = 0.001;

impl Summary {
    /// Why the curve's form is rejected by its residuals, when it is (p below
    /// [`FORM_REJECTED_P`]): each row's interval assumes the form, so where the curve misses the
    /// row is off by more than its interval says, and more games only narrow it further.
    pub fn form_rejected(&self) -> Option<String> {
        let dof = (self.residual_points as usize).saturating_sub(self.theta.len());
        let rejected = dof > 0 && self.residual_p.is_finite() && self.residual_p < FORM_REJECTED_P;
        rejected.then(|| {
            // below this a chi-square tail is rounding noise (it prints as 0)
            let p = if self.residual_p < 1e-12 {
                "p < 1e-12".to_string()
            } else {
                format!("p = {:.1e}", self.residual_p)
            };
            format!(
                "the curve's form misses the tested settings (residual chi-square {:.1} on {dof} \
                 degrees of freedom, {p}): each row's interval assumes the form is right; \
                 fit_points.csv against fit_curve.csv shows where it misses; a form that can \
                 follow them ([fit] model, knots) or a path narrowed to where the knob changes \
                 the strength may fit",
                self.residual_chi2
            )
        })
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct KnobSummary {
    pub name: String,
    pub from: f64,
    pub to: f64,
    pub scale: String,
}

/// Reads `DIR/summary.toml`.
pub fn read_summary(dir: &Path) -> Result<Summary, ResultsError> {
    let path = dir.join(SUMMARY_FILE);
    let text = std::fs::read_to_string(&path).map_err(|source| FileError::read(&path, source))?;
    toml::from_str(&text).map_err(|e| ResultsError::Invalid {
        path,
        message: format!("invalid summary: {e}"),
    })
}

/// Writes `DIR/summary.toml`.
pub fn write_summary(dir: &Path, summary: &Summary) -> Result<(), ResultsError> {
    let path = dir.join(SUMMARY_FILE);
    let text = toml::to_string(summary).map_err(|e| ResultsError::Invalid {
        path: path.clone(),
        message: e.to_string(),
    })?;
    std::fs::write(&path, text).map_err(|source| FileError::write(&path, source).into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The walk-through's straight line through Fairy-Stockfish's Skill Levels (chi-square 161
    /// on 14 degrees of freedom) is rejected; a fair fit, or one with no degree of freedom left,
    /// is not.
    #[test]
    fn a_form_is_rejected_only_by_a_tiny_residual_p() {
        let mut s = Summary {
            theta: vec![0.0; 2],
            residual_points: 16,
            residual_chi2: 161.4,
            residual_p: 1e-5,
            ..Summary::default()
        };
        let why = s.form_rejected().expect("rejected");
        assert!(why.contains("161.4 on 14 degrees"), "{why}");
        assert!(why.contains("p = 1.0e-5"), "{why}");
        s.residual_p = 0.0;
        let why = s.form_rejected().expect("rejected");
        assert!(why.contains("p < 1e-12"), "{why}");
        s.residual_p = 0.2;
        assert_eq!(s.form_rejected(), None);
        s.residual_p = f64::NAN;
        assert_eq!(s.form_rejected(), None);
        s.residual_p = 1e-9;
        s.residual_points = 2;
        assert_eq!(s.form_rejected(), None);
    }
}
