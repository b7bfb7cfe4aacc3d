//! The pool run's configuration (`skillcal pool CONFIG`) and the members' engines.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::calibration::{CalibrationOpenings, PoolConfig};
use super::human_scale::HumanScaleConfig;
use super::validate::check_option_values;
use crate::calibrate::error::{config_err, CalibrateError, Result};
use crate::rating::Anchor;

/// `skillcal pool CONFIG`: the TOML schema.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PoolRunConfig {
    /// Run name; defaults to the config file's stem.
    #[serde(default)]
    pub name: String,
    /// Seed of every random choice (openings, per-game seeds).
    pub seed: u64,
    #[serde(default = "default_concurrency")]
    pub concurrency: usize,
    /// Most games the run may play.
    pub budget: usize,
    /// 95% half-width goal (Elo) of every anchored member relative to the anchors.
    pub precision: f64,
    /// Goal for members without an anchor value (the chain below the anchors): each link of a
    /// chain adds its own uncertainty, so a member several links away needs many times the
    /// games of an anchored one for the same width. Default: `precision`.
    #[serde(default)]
    pub precision_chained: Option<f64>,
    #[serde(default)]
    pub measure: MeasureConfig,
    pub pool: PoolConfig,
    pub openings: CalibrationOpenings,
    /// Passed to the arena unchanged (resign / draw adjudication, maximum plies).
    #[serde(default)]
    pub adjudication: Option<toml::Table>,
    /// Human ratings of some members, recorded elsewhere: the map from the pool's scale to
    /// those human scales (`human-scale.csv`, the report's section).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub human_scale: Option<HumanScaleConfig>,
}

fn default_concurrency() -> usize {
    2
}

/// `[measure]`: how the ladder is played.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct MeasureConfig {
    /// Games of one match (colour-swapped pairs on one opening): even, at least 2.
    pub games_per_pairing: usize,
    /// Members meet only within this many Elo of each other (by their current ratings).
    pub max_gap: f64,
    /// Matches planned per batch (one refit per batch).
    pub batch_matches: usize,
    /// Choose matches by precision bought per second of play (the pairs' measured cost), not
    /// per game. `false` only to compare the two (`examples/pool_sim.rs`).
    pub per_second: bool,
}

impl Default for MeasureConfig {
    fn default() -> Self {
        MeasureConfig {
            games_per_pairing: 20,
            max_gap: 300.0,
            batch_matches: 6,
            per_second: true,
        }
    }
}

impl PoolRunConfig {
    /// The 95% half-width goal of member `i`.
    pub fn goal(&self, i: usize) -> f64 {
        if self.pool.members[i].elo.is_some() {
            self.precision
        } else {
            self.precision_chained.unwrap_or(self.precision)
        }
    }

    /// Reads and checks a config; paths inside are read from the config's folder, as
    /// calibration configs do.
    pub fn load(path: &Path) -> Result<Self> {
        let text = crate::fsutil::read_text_capped(path, crate::fsutil::CONFIG_CAP)
            .map_err(|e| CalibrateError::io("read config", path, e))?;
        let origin = path.display().to_string();
        let mut cfg: PoolRunConfig =
            toml::from_str(&text).map_err(|e| CalibrateError::Config(format!("{origin}: {e}")))?;
        if cfg.name.is_empty() {
            cfg.name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "pool".into());
        }
        // paths inside the config are read from its folder, as in calibration and match configs
        let base = path.parent().unwrap_or(Path::new(""));
        cfg.openings.file = super::calibration::config_relative(base, &cfg.openings.file);
        cfg.pool.resolve_paths(base);
        cfg.validate(&origin)?;
        Ok(cfg)
    }

    pub fn validate(&self, origin: &str) -> Result<()> {
        if self.concurrency == 0 {
            config_err!("{origin}: key `concurrency`: must be at least 1");
        }
        super::validate::check_budget(self.budget, &format!("{origin}: key `budget`"))?;
        if self.precision.is_nan() || self.precision <= 0.0 {
            config_err!("{origin}: key `precision`: must be a positive number of Elo");
        }
        if self
            .precision_chained
            .is_some_and(|p| p.is_nan() || p <= 0.0)
        {
            config_err!("{origin}: key `precision_chained`: must be a positive number of Elo");
        }
        let m = &self.measure;
        if m.games_per_pairing < 2 || !m.games_per_pairing.is_multiple_of(2) {
            config_err!("{origin}: key `measure.games_per_pairing`: must be even and at least 2");
        }
        if m.max_gap.is_nan() || m.max_gap <= 0.0 {
            config_err!("{origin}: key `measure.max_gap`: must be a positive number of Elo");
        }
        if m.batch_matches == 0 {
            config_err!("{origin}: key `measure.batch_matches`: must be at least 1");
        }
        super::validate::check_run_name(&self.name, origin)?;
        self.openings.check(origin)?;
        let p = &self.pool;
        if p.file.is_some() {
            config_err!("{origin}: key `pool.file`: the pool run measures the members it names");
        }
        if p.members.len() < 2 {
            config_err!("{origin}: key `pool.member`: a pool needs at least two members");
        }
        for (i, m) in p.members.iter().enumerate() {
            if m.elo.is_none() && m.guess.is_none() {
                config_err!(
                    "{origin}: key `pool.member[{i}].guess`: `{}` has no `elo` anchor, so it needs \
                     a `guess` (Elo) to be placed in the first ladder",
                    m.name
                );
            }
        }
        if let Some(h) = &self.human_scale {
            h.check(origin, p)?;
        }
        p.validate_members(origin)
    }
}

/// The anchors of a pool as the rating module takes them (SD 0 = hard).
pub fn anchors(pool: &PoolConfig) -> Vec<(usize, Anchor)> {
    pool.members
        .iter()
        .enumerate()
        .filter_map(|(i, m)| {
            let elo = m.elo?;
            let sd = m.sd.unwrap_or(pool.anchor_sd);
            Some((
                i,
                if sd > 0.0 {
                    Anchor::soft(&m.name, elo, sd)
                } else {
                    Anchor::hard(&m.name, elo)
                },
            ))
        })
        .collect()
}

/// The run folder a `skillcal pool` command writes by default.
pub fn default_dir(cfg: &PoolRunConfig) -> PathBuf {
    PathBuf::from("results").join(&cfg.name)
}

impl PoolConfig {
    /// The checks of the members shared by calibration and pool configs: at least one anchor,
    /// names unique and not reserved, SDs >= 0, a command for each. (How many members a config
    /// needs is its own check.)
    pub fn validate_members(&self, origin: &str) -> Result<()> {
        if !self.members.iter().any(|m| m.elo.is_some()) {
            config_err!("{origin}: key `pool.member`: at least one member needs an `elo` anchor");
        }
        let mut seen = std::collections::HashSet::new();
        for (i, m) in self.members.iter().enumerate() {
            if m.name.trim().is_empty() || m.name.starts_with(super::calibration::SUBJECT_PREFIX) {
                config_err!(
                    "{origin}: key `pool.member[{i}].name`: empty or reserved name `{}`",
                    m.name
                );
            }
            if !seen.insert(m.name.clone()) {
                config_err!(
                    "{origin}: key `pool.member[{i}].name`: duplicate name `{}`",
                    m.name
                );
            }
            // a NaN anchor rated every member NaN and exited 0
            for (field, v) in [("elo", m.elo), ("guess", m.guess)] {
                if v.is_some_and(|v| !v.is_finite()) {
                    config_err!(
                        "{origin}: key `pool.member[{i}].{field}`: `{}` needs a finite number of Elo",
                        m.name
                    );
                }
            }
            // an infinite prior SD anchors nothing
            if m.sd.is_some_and(|s| !(s.is_finite() && s >= 0.0)) {
                config_err!("{origin}: key `pool.member[{i}].sd`: must be a finite number >= 0");
            }
            check_option_values(&m.options, &format!("pool.member[{i}].options"), origin)?;
            if m.command.is_none() && self.command.is_none() {
                config_err!(
                    "{origin}: key `pool.member[{i}].command`: no command (set `pool.command`)"
                );
            }
        }
        if !(self.anchor_sd.is_finite() && self.anchor_sd >= 0.0) {
            config_err!("{origin}: key `pool.anchor_sd`: must be a finite number >= 0");
        }
        check_option_values(&self.options, "pool.options", origin)?;
        let mut gone = std::collections::HashSet::new();
        for (i, name) in self.retired.iter().enumerate() {
            if name.trim().is_empty() || !gone.insert(name) {
                config_err!("{origin}: key `pool.retired[{i}]`: empty or repeated name `{name}`");
            }
            if seen.contains(name) {
                config_err!(
                    "{origin}: key `pool.retired[{i}]`: `{name}` is also a member (`pool.member`)"
                );
            }
        }
        Ok(())
    }
}
