//! `human-scale.csv` (a `skillcal pool` run with `[human_scale]`): the map from the pool's
//! scale to a human rating scale (Lichess blitz, rapid), fitted on members whose human ratings
//! others recorded.

use serde::{Deserialize, Serialize};

use super::csvfile::CsvRow;

/// The human scales a pool measures (`[human_scale]`'s `lichess_blitz`, `lichess_rapid`), by
/// the names `human-scale.csv` and the engine's `UCI_EloScale` give them.
pub const HUMAN_SCALES: [&str; 2] = ["lichess-blitz", "lichess-rapid"];

/// A UCI_Elo table's column of its rows on a human scale: `lichess-blitz` -> `lichess_blitz`.
pub fn human_column(scale: &str) -> String {
    scale.replace('-', "_")
}

/// Whether a table's column is a human-scale column (informational: the engine reads `elo`).
pub fn is_human_column(cell: &str) -> bool {
    HUMAN_SCALES
        .iter()
        .any(|s| human_column(s).eq_ignore_ascii_case(cell))
}

/// One human scale's map: `human = pool + offset` (the map the engine uses), and the
/// straight line `human = intercept + slope * pool` for comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HumanScaleRow {
    /// `lichess-blitz`, `lichess-rapid`: the value of the engine's `UCI_EloScale`.
    pub scale: String,
    /// How many members carry a rating on this scale.
    pub points: u32,
    /// Weighted mean of human minus pool rating, and its 95% interval.
    pub offset: f64,
    pub offset_lower: f64,
    pub offset_upper: f64,
    /// Chi-square of the members' differences around the offset (points - 1 degrees of freedom):
    /// large when one offset does not fit them all.
    pub offset_chi2: f64,
    /// The weighted least-squares line (only with three points or more) and the slope's 95%
    /// interval; `slope_supported` when that interval leaves out 1.
    pub slope: Option<f64>,
    pub slope_lower: Option<f64>,
    pub slope_upper: Option<f64>,
    pub intercept: Option<f64>,
    pub slope_supported: bool,
    /// The SD assumed for each recorded human rating (drift, Glicko deviation).
    pub human_sd: f64,
}

impl CsvRow for HumanScaleRow {
    fn check(&self) -> Result<(), String> {
        let all = [
            Some(self.offset),
            Some(self.offset_lower),
            Some(self.offset_upper),
            Some(self.offset_chi2),
            self.slope,
            self.slope_lower,
            self.slope_upper,
            self.intercept,
            Some(self.human_sd),
        ];
        if all.iter().flatten().any(|v| !v.is_finite()) {
            return Err(format!(
                "scale `{}`: a value is not a finite number",
                self.scale
            ));
        }
        if self.points == 0 {
            return Err(format!("scale `{}`: no points", self.scale));
        }
        Ok(())
    }
}
