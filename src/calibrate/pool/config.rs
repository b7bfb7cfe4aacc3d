//! The pool run's configuration (`skillcal pool CONFIG`) and the members' engines.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

use crate::calibrate::config::{option_string, OpeningsConfig, PoolConfig};
use crate::calibrate::runner::EngineSpec;
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
    pub openings: OpeningsConfig,
    /// Passed to the arena unchanged (resign / draw adjudication, maximum plies).
    #[serde(default)]
    pub adjudication: Option<toml::Table>,
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
}

impl Default for MeasureConfig {
    fn default() -> Self {
        MeasureConfig {
            games_per_pairing: 20,
            max_gap: 300.0,
            batch_matches: 6,
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

    /// Reads and checks a config; the opening book is looked up as calibration configs do
    /// (the working directory first, then the config's folder).
    pub fn load(path: &Path) -> anyhow::Result<Self> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read config {}", path.display()))?;
        let origin = path.display().to_string();
        let mut cfg: PoolRunConfig =
            toml::from_str(&text).map_err(|e| anyhow::anyhow!("{origin}: {e}"))?;
        if cfg.name.is_empty() {
            cfg.name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "pool".into());
        }
        // paths inside the config are read from its folder, as in calibration and match configs
        let base = path.parent().unwrap_or(Path::new(""));
        cfg.openings.file = crate::calibrate::config::config_relative(base, &cfg.openings.file);
        cfg.pool.resolve_paths(base);
        cfg.validate(&origin)?;
        Ok(cfg)
    }

    pub fn validate(&self, origin: &str) -> anyhow::Result<()> {
        if self.concurrency == 0 {
            bail!("{origin}: key `concurrency`: must be at least 1");
        }
        if self.precision.is_nan() || self.precision <= 0.0 {
            bail!("{origin}: key `precision`: must be a positive number of Elo");
        }
        if self
            .precision_chained
            .is_some_and(|p| p.is_nan() || p <= 0.0)
        {
            bail!("{origin}: key `precision_chained`: must be a positive number of Elo");
        }
        let m = &self.measure;
        if m.games_per_pairing < 2 || !m.games_per_pairing.is_multiple_of(2) {
            bail!("{origin}: key `measure.games_per_pairing`: must be even and at least 2");
        }
        if m.max_gap.is_nan() || m.max_gap <= 0.0 {
            bail!("{origin}: key `measure.max_gap`: must be a positive number of Elo");
        }
        if m.batch_matches == 0 {
            bail!("{origin}: key `measure.batch_matches`: must be at least 1");
        }
        let p = &self.pool;
        if p.file.is_some() {
            bail!("{origin}: key `pool.file`: the pool run measures the members it names");
        }
        if p.members.len() < 2 {
            bail!("{origin}: key `pool.member`: a pool needs at least two members");
        }
        if !p.members.iter().any(|m| m.elo.is_some()) {
            bail!("{origin}: key `pool.member`: at least one member needs an `elo` anchor");
        }
        let mut seen = std::collections::HashSet::new();
        for (i, m) in p.members.iter().enumerate() {
            if m.name.trim().is_empty() || m.name.starts_with(crate::calibrate::SUBJECT_PREFIX) {
                bail!(
                    "{origin}: key `pool.member[{i}].name`: empty or reserved name `{}`",
                    m.name
                );
            }
            if !seen.insert(m.name.as_str()) {
                bail!(
                    "{origin}: key `pool.member[{i}].name`: duplicate name `{}`",
                    m.name
                );
            }
            if m.elo.is_none() && m.guess.is_none() {
                bail!(
                    "{origin}: key `pool.member[{i}].guess`: `{}` has no `elo` anchor, so it needs \
                     a `guess` (Elo) to be placed in the first ladder",
                    m.name
                );
            }
            if m.sd.is_some_and(|s| s.is_nan() || s < 0.0) {
                bail!("{origin}: key `pool.member[{i}].sd`: must be >= 0");
            }
            if m.command.is_none() && p.command.is_none() {
                bail!("{origin}: key `pool.member[{i}].command`: no command (set `pool.command`)");
            }
        }
        if p.anchor_sd.is_nan() || p.anchor_sd < 0.0 {
            bail!("{origin}: key `pool.anchor_sd`: must be >= 0");
        }
        Ok(())
    }
}

/// Engine of pool member `j`: the pool's defaults, then the member's own settings.
pub fn member_engine(pool: &PoolConfig, j: usize) -> EngineSpec {
    let m = &pool.members[j];
    let mut options: Vec<(String, String)> = pool
        .options
        .iter()
        .filter(|(k, _)| !m.options.contains_key(*k))
        .map(|(k, v)| (k.clone(), option_string(v)))
        .collect();
    options.extend(m.options.iter().map(|(k, v)| (k.clone(), option_string(v))));
    EngineSpec {
        name: m.name.clone(),
        command: m
            .command
            .clone()
            .or_else(|| pool.command.clone())
            .unwrap_or_default(),
        args: m.args.clone().unwrap_or_else(|| pool.args.clone()),
        options,
        limits: m.limits.clone().unwrap_or_else(|| pool.limits.clone()),
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
