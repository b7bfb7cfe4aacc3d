//! The calibration configuration (TOML): subject, strength path, reference pool, targets, plan.
//! Parse errors name the file, line and key; semantic checks name the file and key.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::calibrate::error::{CalibrateError, Result};

/// Names of subject settings in games: `skillcal_t0.4500` is the subject at t = 0.45.
pub const SUBJECT_PREFIX: &str = "skillcal_t";
pub use super::fit::{FitConfig, KnotPlacement, ModelKind};
pub use super::plan::PlanConfig;

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CalibrationConfig {
    /// Run name used in reports; defaults to the config file's stem.
    #[serde(default)]
    pub name: String,
    /// Seed of every random choice (openings, engine RandomSeed values, plan tie-breaks).
    pub seed: u64,
    /// Games played at once.
    #[serde(default = "default_concurrency")]
    pub concurrency: usize,
    /// Total game budget of the calibration.
    pub budget: usize,
    /// 95% half-width goal (Elo) for every target in the anchored range.
    pub precision: f64,
    /// Goal for targets below the lowest rated reference (extrapolated); default twice `precision`.
    #[serde(default)]
    pub precision_extrapolated: Option<f64>,
    /// `[low, high]`: `precision` holds for targets inside it, `precision_outside` for the
    /// others (a family whose goal covers 1400-2200 while its table also carries beginner rows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision_range: Option<[f64; 2]>,
    /// Goal outside `precision_range` (default `precision`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision_outside: Option<f64>,
    /// Target Elo grid: `{ from, to, step }` or a list.
    pub targets: Targets,
    pub subject: SubjectConfig,
    /// Knobs driven by the strength parameter t in [plan.t_min, 1] (t = 1 strongest).
    pub path: Vec<KnobPath>,
    #[serde(default)]
    pub fit: FitConfig,
    #[serde(default)]
    pub plan: PlanConfig,
    pub pool: PoolConfig,
    pub openings: CalibrationOpenings,
    /// Passed to the arena unchanged (resign / draw adjudication, maximum plies).
    #[serde(default)]
    pub adjudication: Option<toml::Table>,
    #[serde(default)]
    pub verify: VerifyConfig,
    /// The measured pool's own games (`pool-pairs.csv` of `pool.file`), loaded by
    /// [`CalibrationConfig::load`]: every fit counts them next to the run's games.
    #[serde(skip)]
    pub pool_pairs: Vec<crate::results::PoolPairRow>,
    /// That pool's ratings as measured (its `pool.csv`): the bottom of the measured range, and
    /// shown beside the run's fit.
    #[serde(skip)]
    pub pool_measured: Vec<crate::results::PoolMemberRow>,
    /// That pool's covariance (its `pool-covariance.csv`, members in `pool.member` order), what
    /// `pool.hold` carries into the curve.
    #[serde(skip)]
    pub pool_covariance: Option<nalgebra::DMatrix<f64>>,
    /// That pool's human scales (its `human-scale.csv`, when it measured them): the table's
    /// rows on Lichess's scales beside the pool's.
    #[serde(skip)]
    pub pool_human_scales: Vec<crate::results::HumanScaleRow>,
}

fn default_concurrency() -> usize {
    2
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(untagged)]
pub enum Targets {
    Range { from: f64, to: f64, step: f64 },
    List(Vec<f64>),
}

const TARGETS_FORMS: &str = "`{ from, to, step }` or a list of Elo such as [800, 900, 1000]";

// By hand, not `untagged`: serde's untagged error ("data did not match any variant") names
// neither the accepted forms nor what is missing or unknown.
impl<'de> Deserialize<'de> for Targets {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Targets;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(f, "targets as {TARGETS_FORMS}")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<Targets, A::Error> {
                let mut v = Vec::new();
                while let Some(x) = seq.next_element::<f64>()? {
                    v.push(x);
                }
                Ok(Targets::List(v))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Targets, A::Error> {
                use serde::de::Error;
                let [mut from, mut to, mut step] = [None; 3];
                while let Some(key) = map.next_key::<String>()? {
                    let slot = match key.as_str() {
                        "from" => &mut from,
                        "to" => &mut to,
                        "step" => &mut step,
                        _ => {
                            return Err(A::Error::custom(format!(
                                "targets: unknown key `{key}`; expected {TARGETS_FORMS}"
                            )))
                        }
                    };
                    *slot = Some(map.next_value::<f64>()?);
                }
                match (from, to, step) {
                    (Some(from), Some(to), Some(step)) => Ok(Targets::Range { from, to, step }),
                    _ => {
                        let missing: Vec<&str> = [("from", from), ("to", to), ("step", step)]
                            .iter()
                            .filter(|(_, v)| v.is_none())
                            .map(|(k, _)| *k)
                            .collect();
                        Err(A::Error::custom(format!(
                            "targets: `{}` missing; expected {TARGETS_FORMS}",
                            missing.join("`, `")
                        )))
                    }
                }
            }
        }
        d.deserialize_any(V)
    }
}

impl Targets {
    pub fn values(&self) -> Vec<f64> {
        match self {
            Targets::List(v) => v.clone(),
            Targets::Range { from, to, step } => {
                let n = ((to - from) / step).floor() as usize;
                (0..=n).map(|i| from + step * i as f64).collect()
            }
        }
    }
}

/// The calibrated engine (`[subject]`): command (or `builtin` for skillcal's own engine), UCI
/// options, limits per move.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Default)]
#[serde(deny_unknown_fields)]
pub struct SubjectConfig {
    #[serde(default)]
    pub command: Option<String>,
    #[serde(default)]
    pub args: Vec<String>,
    #[serde(default)]
    pub options: BTreeMap<String, toml::Value>,
    #[serde(default)]
    pub limits: Limits,
}

/// Search limits the arena sends with `go` (any combination): the arena's own type, so a
/// calibration's limits reach the match unchanged.
pub use crate::arena::GoLimits as Limits;

pub use super::path::{GoLimit, KnobPath, Scale};

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PoolConfig {
    /// A measured pool: the folder of a `skillcal pool` run (relative to the config's folder).
    /// Its members (from the run's `pool.toml`) and its games (`pool-pairs.csv`) replace
    /// `member` entries here, so a calibration rates against the pool's measured scale without
    /// replaying the pool's own ladder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    /// With `file`: hold the members at the pool file's ratings and covariance (`pool.csv`,
    /// `pool-covariance.csv`; without the covariance file, its games and anchors refitted) and
    /// carry that covariance into the curve's band, instead of letting this run's games
    /// re-measure the members (see [`crate::calibrate::fit::held`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hold: bool,
    /// Default engine command of every member (members may override).
    #[serde(default)]
    pub command: Option<String>,
    #[serde(default)]
    pub args: Vec<String>,
    /// Options every member gets (a member's own options are added on top).
    #[serde(default)]
    pub options: BTreeMap<String, toml::Value>,
    #[serde(default)]
    pub limits: Limits,
    /// Prior standard deviation of soft anchors (0 = hard anchors).
    #[serde(default = "default_anchor_sd")]
    pub anchor_sd: f64,
    /// What scale the anchors put the numbers on (shown in the report).
    #[serde(default)]
    pub scale: String,
    #[serde(rename = "member", default)]
    pub members: Vec<PoolMember>,
    /// Former members, by name. Their games stay where they were played but rate no one: a pool
    /// run leaves them out of its fit (and out of `pool-pairs.csv`), and a calibration or a
    /// verification on the pool leaves out its own games against them, saying how many.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retired: Vec<String>,
}

fn default_anchor_sd() -> f64 {
    50.0
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PoolMember {
    pub name: String,
    /// Anchor rating; absent = rated through games only (e.g. chaining below the anchors).
    #[serde(default)]
    pub elo: Option<f64>,
    /// Where an unanchored member is expected to play (Elo): places it in the pool
    /// measurement's first ladder; never used as a prior.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guess: Option<f64>,
    /// Prior SD of this member (overrides `pool.anchor_sd`).
    #[serde(default)]
    pub sd: Option<f64>,
    #[serde(default)]
    pub command: Option<String>,
    /// The `id name` the engine must answer `uci` with: the member's rating holds for the
    /// engine it was measured with, and another build of the same program (a newer Stockfish
    /// from a package manager) plays at another strength. Refused before any game when it
    /// differs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id_name: Option<String>,
    #[serde(default)]
    pub args: Option<Vec<String>>,
    #[serde(default)]
    pub options: BTreeMap<String, toml::Value>,
    #[serde(default)]
    pub limits: Option<Limits>,
}

/// A calibration's or a pool run's `[openings]`: the book, its order, the plies kept; the match
/// gets it as the arena's `OpeningsConfig`.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CalibrationOpenings {
    pub file: PathBuf,
    /// `random` (seeded) or `sequential`.
    #[serde(default = "default_order")]
    pub order: String,
    #[serde(default)]
    pub plies: Option<u32>,
}

fn default_order() -> String {
    "random".into()
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct VerifyConfig {
    /// UCI_Elo levels to verify; default: every other table row from the lowest reference up
    /// (a measured pool's chained members included).
    pub levels: Vec<f64>,
    pub games_per_opponent: usize,
    pub opponents_per_level: usize,
    /// Pool members every level also meets, beside its nearest (for example human-like
    /// members at the low end, to see what a level plays like against each kind of opponent).
    pub also_against: Vec<String>,
}

impl Default for VerifyConfig {
    fn default() -> Self {
        VerifyConfig {
            levels: Vec::new(),
            games_per_opponent: 20,
            opponents_per_level: 2,
            also_against: Vec::new(),
        }
    }
}

/// A UCI option value from TOML as the string sent with `setoption`.
pub fn option_string(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => f.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        other => other.to_string(),
    }
}

/// A path from a config, read from the config's folder `base` when relative.
pub fn config_relative(base: &Path, p: &Path) -> PathBuf {
    if p.is_relative() {
        base.join(p)
    } else {
        p.to_path_buf()
    }
}

/// An engine command from a config: a relative path (one with a slash) is read from the config's
/// folder; a bare name is searched on PATH when the engine starts.
fn resolve_command(base: &Path, command: &mut Option<String>) {
    if let Some(c) = command {
        if c.contains('/') && Path::new(c.as_str()).is_relative() {
            *c = base.join(c.as_str()).to_string_lossy().into_owned();
        }
    }
}

/// A `StrengthTable` option value from a config, read from the config's folder.
fn resolve_options(base: &Path, options: &mut BTreeMap<String, toml::Value>) {
    for (k, v) in options.iter_mut() {
        if let toml::Value::String(s) = v {
            crate::arena::resolve_table_option(k, s, base);
        }
    }
}

impl SubjectConfig {
    /// Paths inside the engine's settings (command, StrengthTable) from the config's folder.
    pub fn resolve_paths(&mut self, base: &Path) {
        resolve_command(base, &mut self.command);
        resolve_options(base, &mut self.options);
    }
}

impl PoolConfig {
    /// Paths inside the pool's settings (commands, StrengthTable values) from the config's folder.
    pub fn resolve_paths(&mut self, base: &Path) {
        if let Some(f) = &mut self.file {
            *f = config_relative(base, f);
        }
        resolve_command(base, &mut self.command);
        resolve_options(base, &mut self.options);
        for m in &mut self.members {
            resolve_command(base, &mut m.command);
            resolve_options(base, &mut m.options);
        }
    }
}

impl CalibrationConfig {
    /// The pool as the run's fit takes it: how many members, held or not, and the measured pool
    /// file's ratings and covariance when it has them.
    pub fn run_pool(&self) -> crate::calibrate::fit::RunPool {
        let measured = self.pool_covariance.as_ref().and_then(|cov| {
            let elo = self
                .pool
                .members
                .iter()
                .map(|m| self.measured_elo(&m.name))
                .collect::<Option<Vec<f64>>>()?;
            Some(crate::calibrate::fit::MeasuredPool {
                elo,
                cov: cov.clone(),
            })
        });
        crate::calibrate::fit::RunPool {
            members: self.pool.members.len(),
            hold: self.pool.hold,
            measured,
        }
    }

    /// A member's rating in the measured pool file (`pool.file`), if it has one.
    pub fn measured_elo(&self, name: &str) -> Option<f64> {
        self.pool_measured
            .iter()
            .find(|r| r.name == name)
            .and_then(|r| r.elo)
    }

    /// Paths inside the config (the opening book, engine commands with a slash, StrengthTable
    /// values) are relative to the config file's folder `base`, as in match configs.
    pub fn resolve_paths(&mut self, base: &Path) {
        self.openings.file = config_relative(base, &self.openings.file);
        self.subject.resolve_paths(base);
        self.pool.resolve_paths(base);
    }

    /// Reads and checks a config file; relative paths inside (the book, engine commands with
    /// a slash, StrengthTable values, the pool file) are read from the config file's folder.
    pub fn load(path: &Path) -> Result<Self> {
        let text = crate::fsutil::read_text_capped(path, crate::fsutil::CONFIG_CAP)
            .map_err(|e| CalibrateError::io("read config", path, e))?;
        let mut cfg = Self::parse(&text, &path.display().to_string())?;
        if cfg.name.is_empty() {
            cfg.name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "calibration".into());
        }
        cfg.resolve_paths(path.parent().unwrap_or(Path::new("")));
        if cfg.pool.file.is_some() {
            cfg.load_pool_file(&path.display().to_string())?;
        }
        Ok(cfg)
    }

    /// Parses and checks config text; `origin` names the file in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Self> {
        let cfg: CalibrationConfig =
            toml::from_str(text).map_err(|e| CalibrateError::Config(format!("{origin}: {e}")))?;
        if cfg.pool.file.is_some() {
            pool_file_alone(text, origin)?;
        }
        cfg.validate(origin)?;
        Ok(cfg)
    }

    /// Knob values at t, as (name, value) pairs in path order (`go nodes` for a go limit).
    pub fn knobs_at(&self, t: f64) -> Vec<(String, f64)> {
        self.path.iter().map(|k| (k.name(), k.value(t))).collect()
    }
}

/// With `pool.file`, the `[pool]` keys besides `file` and `hold`: the measured pool's own
/// `[pool]` replaces them when the config is loaded, so each would be thrown away unsaid. Read
/// from the text, since `anchor_sd = 50` parses the same as no `anchor_sd`.
fn pool_file_alone(text: &str, origin: &str) -> Result<()> {
    let table: toml::Table =
        toml::from_str(text).map_err(|e| CalibrateError::Config(format!("{origin}: {e}")))?;
    let Some(toml::Value::Table(pool)) = table.get("pool") else {
        return Ok(());
    };
    if let Some(key) = pool
        .keys()
        .find(|k| !["file", "hold"].contains(&k.as_str()))
    {
        return Err(CalibrateError::config(
            origin,
            format!("pool.{key}"),
            "a measured pool (`pool.file`) brings its own members and their settings; remove \
             it (or `pool.file`)",
        ));
    }
    Ok(())
}

/// `Name=Value;Name=Value` as written in the CSVs.
pub fn knobs_label(knobs: &[(String, f64)]) -> String {
    knobs
        .iter()
        .map(|(k, v)| format!("{k}={}", fmt_num(*v)))
        .collect::<Vec<_>>()
        .join(";")
}

pub fn fmt_num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// Rounds t to the plan's grid, within [t_min, 1] (the lowest grid point at or above t_min when
/// t_min is off the grid). Never -0: `skillcal_t-0.0000` would be another player than t = 0.
pub fn quantize(cfg: &CalibrationConfig, t: f64) -> f64 {
    let g = cfg.plan.grid as f64;
    let steps = (t.min(1.0) * g)
        .round()
        .max((cfg.plan.t_min * g - 1e-9).ceil());
    steps / g + 0.0
}
