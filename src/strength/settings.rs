//! `Settings`: every weakening option with its default, validation, UCI declaration and the
//! `Name=value,Name=value` text the arena uses to name built-in engine configurations.

use std::path::PathBuf;
use std::sync::Arc;

use super::elo_scale::{self, UCI_ELO_SCALE};
use super::family::Family;
use super::human_options::HumanOptions;
use super::knob::{parse_int, Kind, Knob, NoiseModel, Value};
use super::maia::{Maia, MAIA_STYLE};
use super::noise::Noise;
use super::table::{EloTable, Row, TableError, EMBEDDED_NAME};

/// Option names that are not knobs.
pub const RANDOM_SEED: &str = "RandomSeed";
pub const UCI_LIMIT_STRENGTH: &str = "UCI_LimitStrength";
pub const UCI_ELO: &str = "UCI_Elo";
pub const STRENGTH_TABLE: &str = "StrengthTable";
pub const STYLE: &str = "Style";

pub use super::seed::MAX_RANDOM_SEED;

/// A `setoption` that cannot be applied; the message names the option and the value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error("unknown option '{name}'")]
    Unknown { name: String },
    #[error("option {name}: bad value '{value}': {reason}")]
    BadValue {
        name: String,
        value: String,
        reason: String,
    },
    #[error("option {name}: {source}")]
    Table { name: String, source: TableError },
    #[error("settings '{text}': '{part}' is not Name=value")]
    Spec { text: String, part: String },
}

/// Where the UCI_Elo table comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum TableSource {
    #[default]
    Embedded,
    Path(PathBuf),
}

/// Every weakening option. Limits and seeds of 0 mean "none" / "from the clock".
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// ScoreInaccuracy: root Errors uniform in `[-SI, +SI]` cp (the Score Inaccuracy algorithm).
    pub score_inaccuracy: u32,
    /// EvalNoise: scale (cp) of the per-position noise added to the static evaluation.
    pub eval_noise: u32,
    /// MultiPV: candidates searched with exact scores (and reported as `multipv k`).
    pub multipv: u32,
    pub noise_model: NoiseModel,
    /// NoiseUniform: half-width `a` (cp) of the uniform model.
    pub noise_uniform: u32,
    /// NoiseSigma: standard deviation (cp) of the Gaussian model.
    pub noise_sigma: u32,
    /// NoiseDrift: GBM drift `mu` (per unit horizon).
    pub noise_drift: f64,
    /// NoiseDiffusion: GBM diffusion `s` (per square root of unit horizon).
    pub noise_diffusion: f64,
    /// NoiseHorizon: GBM horizon `T`.
    pub noise_horizon: f64,
    /// LimitNodes: nodes per move (0 = no limit).
    pub limit_nodes: u64,
    /// LimitNps: nodes-per-second throttle (0 = no throttle).
    pub limit_nps: u64,
    /// LimitDepth: iterative-deepening depth limit (0 = no limit).
    pub limit_depth: u32,
    /// WinGuard: best score (cp) from which noise and Errors no longer change the move.
    pub win_guard: i32,
    /// HumanStrength: the point on `Style=human`'s schedule (`strength/human.rs`, [`crate::strength::human_plan`]).
    pub human_strength: u32,
    /// RandomSeed (0 = from the clock, see [`super::seed::clock_seed`]).
    pub random_seed: u64,
    /// UCI_LimitStrength: when on, the table row for `elo` overrides the knobs it has columns for.
    pub limit_strength: bool,
    /// UCI_Elo, on the scale `UCI_EloScale` names.
    pub elo: i64,
    /// UCI_EloScale: `pool` (the tables' own scale) or a human scale (`lichess-blitz`, ...).
    pub elo_scale: String,
    /// Style: the weakening family whose embedded table `UCI_Elo` reads.
    pub style: Family,
    /// A `StrengthTable` file replaces the style's embedded table.
    pub strength_table: TableSource,
    table: Arc<EloTable>,
    /// `Style=maia` and its options (the style's family is then the default's).
    pub maia: Maia,
    /// `Style human`'s variety and think-time options.
    pub human: HumanOptions,
}

impl Default for Settings {
    fn default() -> Self {
        let table = Family::default().table().clone();
        let mut s = Settings {
            score_inaccuracy: 0,
            eval_noise: 0,
            multipv: 1,
            noise_model: NoiseModel::None,
            noise_uniform: 0,
            noise_sigma: 0,
            noise_drift: 0.0,
            noise_diffusion: 0.0,
            noise_horizon: 1.0,
            limit_nodes: 0,
            limit_nps: 0,
            limit_depth: 0,
            win_guard: 0,
            human_strength: 0,
            random_seed: 0,
            limit_strength: false,
            elo: elo_bounds(&table).0,
            elo_scale: elo_scale::POOL.to_string(),
            style: Family::default(),
            strength_table: TableSource::Embedded,
            table: Arc::new(table),
            maia: Maia::default(),
            human: HumanOptions::default(),
        };
        for knob in Knob::ALL {
            s.set_knob(knob, knob.default_value());
        }
        s
    }
}

/// The `UCI_Elo` range declared for a table: its first and last rows' Elo, outward to whole
/// numbers (the arena's check of a configured `UCI_Elo` uses the same). Rows lie within
/// [`super::table::ELO_BOUNDS`], so the casts are exact.
fn elo_bounds(table: &EloTable) -> (i64, i64) {
    let (lo, hi) = table.elo_range();
    (lo.floor() as i64, hi.ceil() as i64)
}

/// A `UCI_Elo` value: any integer, one too large for `i64` saturating (the table's range is
/// not known until every option is set; [`Settings::elo_outside`] says what is played).
fn parse_elo(text: &str) -> Result<i64, String> {
    let t = text.trim();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    match parse_int(t, i64::MIN, i64::MAX) {
        Ok(v) => Ok(v),
        // well formed, but past i64
        Err(_) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            Ok(if t.starts_with('-') {
                i64::MIN
            } else {
                i64::MAX
            })
        }
        Err(e) => Err(e),
    }
}

fn parse_bool(text: &str) -> Option<bool> {
    text.trim().to_ascii_lowercase().parse().ok()
}

/// Formats a value as it is written in `setoption` and in tables.
fn format_num(knob: Knob, x: f64) -> String {
    match knob.kind() {
        Kind::Int { .. } => format!("{}", x as i64),
        _ => format!("{x}"),
    }
}

impl Settings {
    /// The UCI_Elo table in use.
    pub fn table(&self) -> &EloTable {
        &self.table
    }

    /// A knob's current (explicit) value.
    pub fn knob(&self, knob: Knob) -> Value {
        let n = Value::Num;
        match knob {
            Knob::ScoreInaccuracy => n(f64::from(self.score_inaccuracy)),
            Knob::EvalNoise => n(f64::from(self.eval_noise)),
            Knob::MultiPv => n(f64::from(self.multipv)),
            Knob::NoiseModel => Value::Model(self.noise_model),
            Knob::NoiseUniform => n(f64::from(self.noise_uniform)),
            Knob::NoiseSigma => n(f64::from(self.noise_sigma)),
            Knob::NoiseDrift => n(self.noise_drift),
            Knob::NoiseDiffusion => n(self.noise_diffusion),
            Knob::NoiseHorizon => n(self.noise_horizon),
            Knob::LimitNodes => n(self.limit_nodes as f64),
            Knob::LimitNps => n(self.limit_nps as f64),
            Knob::LimitDepth => n(f64::from(self.limit_depth)),
            Knob::WinGuard => n(f64::from(self.win_guard)),
            Knob::HumanStrength => n(f64::from(self.human_strength)),
        }
    }

    /// Sets a knob from an already validated value (from [`Knob::parse_value`] or a table row).
    pub fn set_knob(&mut self, knob: Knob, value: Value) {
        let x = match value {
            Value::Num(x) => x,
            Value::Model(m) => {
                self.noise_model = m;
                return;
            }
        };
        match knob {
            Knob::ScoreInaccuracy => self.score_inaccuracy = x as u32,
            Knob::EvalNoise => self.eval_noise = x as u32,
            Knob::MultiPv => self.multipv = x as u32,
            Knob::NoiseModel => {}
            Knob::NoiseUniform => self.noise_uniform = x as u32,
            Knob::NoiseSigma => self.noise_sigma = x as u32,
            Knob::NoiseDrift => self.noise_drift = x,
            Knob::NoiseDiffusion => self.noise_diffusion = x,
            Knob::NoiseHorizon => self.noise_horizon = x,
            Knob::LimitNodes => self.limit_nodes = x as u64,
            Knob::LimitNps => self.limit_nps = x as u64,
            Knob::LimitDepth => self.limit_depth = x as u32,
            Knob::WinGuard => self.win_guard = x as i32,
            Knob::HumanStrength => self.human_strength = x as u32,
        }
    }

    /// Applies `setoption name <name> value <value>`. Names match case-insensitively; errors name
    /// the option and the value. `StrengthTable` loads (and checks) the file at once.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let bad = |reason: String| OptionError::BadValue {
            name: name.trim().to_string(),
            value: value.trim().to_string(),
            reason,
        };
        if let Some(knob) = Knob::from_name(name) {
            let v = knob.parse_value(value).map_err(bad)?;
            self.set_knob(knob, v);
            return Ok(());
        }
        if let Some(done) = self.maia.set_option(name, value) {
            return done.map_err(bad);
        }
        if let Some(done) = self.human.set_option(name, value) {
            return done.map_err(bad);
        }
        let n = name.trim();
        let v = value.trim();
        if n.eq_ignore_ascii_case(RANDOM_SEED) {
            self.random_seed = parse_int(v, 0, MAX_RANDOM_SEED as i64).map_err(bad)? as u64;
        } else if n.eq_ignore_ascii_case(UCI_LIMIT_STRENGTH) {
            self.limit_strength =
                parse_bool(v).ok_or_else(|| bad(format!("'{v}' is not true or false")))?;
        } else if n.eq_ignore_ascii_case(UCI_ELO) {
            // kept as given, whatever the table: a `StrengthTable` or `Style` set after it may
            // cover it (the arena checks the range once every option is set)
            self.elo = parse_elo(v).map_err(bad)?;
        } else if n.eq_ignore_ascii_case(UCI_ELO_SCALE) {
            self.elo_scale = elo_scale::canonical(v).map_err(bad)?;
        } else if n.eq_ignore_ascii_case(STRENGTH_TABLE) {
            if v.is_empty() || v == EMBEDDED_NAME {
                self.strength_table = TableSource::Embedded;
                self.table = Arc::new(self.style.table().clone());
            } else {
                let path = PathBuf::from(v);
                let table = EloTable::load(&path).map_err(|source| OptionError::Table {
                    name: STRENGTH_TABLE.into(),
                    source,
                })?;
                self.strength_table = TableSource::Path(path);
                self.table = Arc::new(table);
            }
        } else if n.eq_ignore_ascii_case(STYLE) {
            let mut names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
            names.push(MAIA_STYLE);
            // maia has no family: the default's stands behind it, so `Style=maia` names it whole
            let maia = v.eq_ignore_ascii_case(MAIA_STYLE);
            self.style = match maia {
                true => Family::default(),
                false => Family::parse(v)
                    .ok_or_else(|| bad(format!("'{v}' is not one of {}", names.join(", "))))?,
            };
            self.maia.on = maia;
            // A StrengthTable file, once loaded, stays in use whatever the style.
            if self.strength_table == TableSource::Embedded {
                self.table = Arc::new(self.style.table().clone());
            }
        } else {
            return Err(OptionError::Unknown {
                name: n.to_string(),
            });
        }
        Ok(())
    }

    /// The settings as `Name=value,...`: every option that differs from the default, in
    /// declaration order (empty for the full-strength engine). Inverse of [`Settings::from_spec`].
    pub fn to_spec(&self) -> String {
        let default = Settings::default();
        let mut parts = Vec::new();
        for knob in Knob::ALL {
            let v = self.knob(knob);
            if v != default.knob(knob) {
                let text = match v {
                    Value::Num(x) => format_num(knob, x),
                    Value::Model(m) => m.name().to_string(),
                };
                parts.push(format!("{}={text}", knob.name()));
            }
        }
        if self.random_seed != default.random_seed {
            parts.push(format!("{RANDOM_SEED}={}", self.random_seed));
        }
        if self.limit_strength != default.limit_strength {
            parts.push(format!("{UCI_LIMIT_STRENGTH}={}", self.limit_strength));
        }
        if self.elo != default.elo {
            parts.push(format!("{UCI_ELO}={}", self.elo));
        }
        if self.elo_scale != default.elo_scale {
            parts.push(format!("{UCI_ELO_SCALE}={}", self.elo_scale));
        }
        if self.style != default.style {
            parts.push(format!("{STYLE}={}", self.style));
        }
        if self.maia.on {
            parts.push(format!("{STYLE}={MAIA_STYLE}"));
        }
        if let TableSource::Path(p) = &self.strength_table {
            parts.push(format!("{STRENGTH_TABLE}={}", p.display()));
        }
        parts.extend(self.maia.spec_parts());
        parts.extend(self.human.spec_parts());
        parts.join(",")
    }

    /// Parses `Name=value,Name=value` (applied left to right onto the defaults, so a later
    /// duplicate wins). Values cannot contain commas.
    pub fn from_spec(text: &str) -> Result<Settings, OptionError> {
        let mut s = Settings::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = part.split_once('=').ok_or_else(|| OptionError::Spec {
                text: text.to_string(),
                part: part.to_string(),
            })?;
            s.set_option(name, value)?;
        }
        Ok(s)
    }

    /// The `UCI_Elo` range declared after `uci` (`min`, `max`): the loaded table's.
    pub fn elo_bounds(&self) -> (i64, i64) {
        elo_bounds(&self.table)
    }

    /// The table row `UCI_LimitStrength` would apply (None when it is off, or under
    /// `Style=maia`, which has no table).
    pub fn strength_row(&self) -> Option<Row> {
        (self.limit_strength && !self.maia.on).then(|| self.table.settings_for_elo(self.pool_elo()))
    }

    /// `UCI_Elo` on the pool's scale, the tables' own.
    pub fn pool_elo(&self) -> f64 {
        elo_scale::to_pool(&self.elo_scale, self.elo as f64)
    }

    /// The settings the engine plays with: with `UCI_LimitStrength` on, the table's row for
    /// `UCI_Elo` overrides every knob the table has a column for; the other knobs keep their
    /// explicit values. The explicit values are kept in `self`, so switching it off restores them.
    pub fn effective(&self) -> Settings {
        let mut s = self.clone();
        if let Some(row) = self.strength_row() {
            for (knob, value) in row.values {
                s.set_knob(knob, value);
            }
        }
        s
    }

    /// The `info string` text the engine prints when `UCI_LimitStrength` chose settings: the
    /// family, the table, whether its rows are measured, and the row.
    pub fn strength_info(&self) -> Option<String> {
        if self.maia.on && self.limit_strength {
            return Some(format!(
                "UCI_LimitStrength and UCI_Elo are ignored under Style maia: MaiaNet {} plays its band",
                self.maia.net
            ));
        }
        let row = self.strength_row()?;
        let provisional = if self.table.provisional() {
            ", provisional: not yet calibrated"
        } else {
            ""
        };
        // what the row cannot do, said where the user sees the row
        let (lo, hi) = self.table.elo_range();
        let elo = self.pool_elo();
        // whole Elo: the tables' rows are measured to tens at best
        let mut caveats = elo_scale::caveat(&self.elo_scale, self.elo, elo);
        if elo < lo || elo > hi {
            caveats += &format!(
                "; {elo:.0} is outside the table's {lo:.0}-{hi:.0}: its {:.0} row is played",
                row.elo
            );
        }
        if let Some((flag, plays)) = self.table.beyond_range(elo) {
            let on = match self.elo_scale.as_str() {
                elo_scale::POOL => "",
                _ => " on the pool's scale",
            };
            caveats += &format!("; beyond the path's {flag}: plays at about {plays:.0}{on}");
        }
        Some(format!(
            "UCI_Elo {} (Style {}, table {}{provisional}): {}{caveats}",
            self.elo,
            self.style,
            self.table.source(),
            row.to_spec()
        ))
    }

    /// The node limit of a search: the smaller of `go nodes` and `LimitNodes` (0 = none).
    pub fn node_limit(&self, go_nodes: Option<u64>) -> Option<u64> {
        let own = (self.limit_nodes > 0).then_some(self.limit_nodes);
        match (go_nodes, own) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The depth limit of a search: the smaller of `go depth` and `LimitDepth` (0 = none).
    pub fn depth_limit(&self, go_depth: Option<u32>) -> Option<u32> {
        let own = (self.limit_depth > 0).then_some(self.limit_depth);
        match (go_depth, own) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The NPS throttle (None = full speed).
    pub fn nps_limit(&self) -> Option<u64> {
        (self.limit_nps > 0).then_some(self.limit_nps)
    }

    /// The seed to use: `RandomSeed`, or a clock seed when it is 0. Resolve once (at `isready` or
    /// `ucinewgame`) and print it, so that the games can be replayed.
    pub fn resolved_seed(&self) -> u64 {
        if self.random_seed == 0 {
            super::seed::clock_seed()
        } else {
            self.random_seed
        }
    }

    /// The noise model with its coefficients. Noise needs `MultiPV >= 2` to have a choice.
    pub fn noise(&self) -> Noise {
        match self.noise_model {
            NoiseModel::None => Noise::None,
            NoiseModel::Uniform => Noise::Uniform {
                a: f64::from(self.noise_uniform),
            },
            NoiseModel::Gaussian => Noise::Gaussian {
                sigma: f64::from(self.noise_sigma),
            },
            NoiseModel::Gbm => Noise::Gbm {
                drift: self.noise_drift,
                diffusion: self.noise_diffusion,
                horizon: self.noise_horizon,
            },
        }
    }
}
