//! Run-level facts (`summary.toml`).

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::error::ResultsError;

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
    let text = std::fs::read_to_string(&path).map_err(|source| ResultsError::Read {
        path: path.clone(),
        source,
    })?;
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
    std::fs::write(&path, text).map_err(|source| ResultsError::Write { path, source })
}
