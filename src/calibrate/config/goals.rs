//! The precision goal of each target, and the bottom of the measured range below which targets
//! are extrapolated.

use super::calibration::CalibrationConfig;

impl CalibrationConfig {
    /// The 95% half-width goal of `target` (extrapolated: below the lowest rated reference).
    pub fn precision_for(&self, target: f64, extrapolated: bool) -> f64 {
        if extrapolated {
            return self.precision_extrapolated.unwrap_or(2.0 * self.precision);
        }
        match self.precision_range {
            Some([lo, hi]) if target < lo || target > hi => {
                self.precision_outside.unwrap_or(self.precision)
            }
            _ => self.precision,
        }
    }

    /// The lowest anchor value (the bottom of the anchored range).
    pub fn lowest_anchor(&self) -> f64 {
        self.pool
            .members
            .iter()
            .filter_map(|m| m.elo)
            .fold(f64::INFINITY, f64::min)
    }

    /// The bottom of the measured range: the lowest anchor or, lower, the lowest member of a
    /// measured pool (`pool.file`) chained to the anchors by games. Targets below it rest on the
    /// curve's form alone (extrapolated).
    pub fn lowest_reference(&self) -> f64 {
        // the lowest measured member of the pool file, anchored or chained
        let pool_floor = self
            .pool_measured
            .iter()
            .filter(|r| r.games > 0)
            .filter_map(|r| r.elo)
            .fold(f64::INFINITY, f64::min);
        self.lowest_anchor().min(pool_floor)
    }
}
