//! `[human_scale]` of a pool config: members' ratings on human scales, as others recorded them.

use serde::{Deserialize, Serialize};

use super::calibration::PoolConfig;
use crate::calibrate::error::{config_err, Result};

/// `[human_scale]`: members' ratings on human scales (Lichess blitz, rapid), as others recorded
/// them. They drift: `note` says when and where they were read.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HumanScaleConfig {
    pub note: String,
    /// SD assumed for each recorded human rating (its drift and deviation), Elo.
    pub human_sd: f64,
    #[serde(rename = "point")]
    pub points: Vec<HumanPoint>,
}

/// One member's recorded human ratings.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HumanPoint {
    pub member: String,
    #[serde(default)]
    pub lichess_blitz: Option<f64>,
    #[serde(default)]
    pub lichess_rapid: Option<f64>,
}

impl HumanScaleConfig {
    /// Each point names a member of the pool, at most once, with at least one finite rating.
    pub fn check(&self, origin: &str, pool: &PoolConfig) -> Result<()> {
        if !(self.human_sd.is_finite() && self.human_sd > 0.0) {
            config_err!("{origin}: key `human_scale.human_sd`: must be a positive number");
        }
        for (i, p) in self.points.iter().enumerate() {
            let key = format!("{origin}: key `human_scale.point[{i}]`");
            if !pool.members.iter().any(|m| m.name == p.member) {
                config_err!("{key}.member: `{}` is not a member of the pool", p.member);
            }
            if self.points[..i].iter().any(|q| q.member == p.member) {
                config_err!("{key}.member: `{}` given twice", p.member);
            }
            let ratings = [p.lichess_blitz, p.lichess_rapid];
            if ratings.iter().flatten().any(|v| !v.is_finite())
                || ratings.iter().all(Option::is_none)
            {
                config_err!("{key}: needs `lichess_blitz` or `lichess_rapid`, a number");
            }
        }
        Ok(())
    }
}
