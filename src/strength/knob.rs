//! The knobs: the UCI options that weaken the engine and may appear as UCI_Elo table columns.

use std::fmt;

use crate::score::MAX_EVAL;

use super::human::HUMAN_MAX;
use super::noise::DEFAULT_WIN_GUARD;

/// Which noise model the MultiPV choice uses (UCI combo `NoiseModel`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum NoiseModel {
    #[default]
    None,
    Uniform,
    Gaussian,
    Gbm,
}

impl NoiseModel {
    pub const ALL: [NoiseModel; 4] = [
        NoiseModel::None,
        NoiseModel::Uniform,
        NoiseModel::Gaussian,
        NoiseModel::Gbm,
    ];

    /// The UCI combo value.
    pub fn name(self) -> &'static str {
        match self {
            NoiseModel::None => "none",
            NoiseModel::Uniform => "uniform",
            NoiseModel::Gaussian => "gaussian",
            NoiseModel::Gbm => "gbm",
        }
    }

    /// Parses a combo value, case-insensitively.
    pub fn parse(text: &str) -> Option<NoiseModel> {
        let t = text.trim();
        NoiseModel::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(t))
    }
}

impl fmt::Display for NoiseModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A knob's value: numbers (integers are whole `f64`s) or the noise model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Num(f64),
    Model(NoiseModel),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Num(x) => write!(f, "{x}"),
            Value::Model(m) => write!(f, "{m}"),
        }
    }
}

/// How a knob's value is typed, bounded and interpolated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// UCI `spin`. `unlimited_zero`: 0 means "no limit" (never interpolated through);
    /// `log`: interpolated linearly in the logarithm.
    Int {
        min: i64,
        max: i64,
        default: i64,
        unlimited_zero: bool,
        log: bool,
    },
    /// A real number, declared as UCI `string` (UCI has no real type).
    Float { min: f64, max: f64, default: f64 },
    /// UCI `combo` of [`NoiseModel`] names.
    Model,
}

/// Every knob, in declaration order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Knob {
    ScoreInaccuracy,
    EvalNoise,
    MultiPv,
    NoiseModel,
    NoiseUniform,
    NoiseSigma,
    NoiseDrift,
    NoiseDiffusion,
    NoiseHorizon,
    LimitNodes,
    LimitNps,
    LimitDepth,
    WinGuard,
    HumanStrength,
}

impl Knob {
    pub const ALL: [Knob; 14] = [
        Knob::ScoreInaccuracy,
        Knob::EvalNoise,
        Knob::MultiPv,
        Knob::NoiseModel,
        Knob::NoiseUniform,
        Knob::NoiseSigma,
        Knob::NoiseDrift,
        Knob::NoiseDiffusion,
        Knob::NoiseHorizon,
        Knob::LimitNodes,
        Knob::LimitNps,
        Knob::LimitDepth,
        Knob::WinGuard,
        Knob::HumanStrength,
    ];

    /// The exact UCI option name (also the UCI_Elo table column name).
    pub fn name(self) -> &'static str {
        match self {
            Knob::ScoreInaccuracy => "ScoreInaccuracy",
            Knob::EvalNoise => "EvalNoise",
            Knob::MultiPv => "MultiPV",
            Knob::NoiseModel => "NoiseModel",
            Knob::NoiseUniform => "NoiseUniform",
            Knob::NoiseSigma => "NoiseSigma",
            Knob::NoiseDrift => "NoiseDrift",
            Knob::NoiseDiffusion => "NoiseDiffusion",
            Knob::NoiseHorizon => "NoiseHorizon",
            Knob::LimitNodes => "LimitNodes",
            Knob::LimitNps => "LimitNps",
            Knob::LimitDepth => "LimitDepth",
            Knob::WinGuard => "WinGuard",
            Knob::HumanStrength => "HumanStrength",
        }
    }

    /// Looks a knob up by option name, case-insensitively (UCI option names are).
    pub fn from_name(name: &str) -> Option<Knob> {
        let n = name.trim();
        Knob::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(n))
    }

    pub fn kind(self) -> Kind {
        let int = |min, max, default| Kind::Int {
            min,
            max,
            default,
            unlimited_zero: false,
            log: false,
        };
        let limit = |max, log| Kind::Int {
            min: 0,
            max,
            default: 0,
            unlimited_zero: true,
            log,
        };
        match self {
            Knob::ScoreInaccuracy | Knob::EvalNoise | Knob::NoiseUniform | Knob::NoiseSigma => {
                int(0, 3000, 0)
            }
            Knob::MultiPv => int(1, 256, 1),
            Knob::NoiseModel => Kind::Model,
            Knob::NoiseDrift | Knob::NoiseDiffusion => Kind::Float {
                min: 0.0,
                max: 20.0,
                default: 0.0,
            },
            Knob::NoiseHorizon => Kind::Float {
                min: 0.0,
                max: 100.0,
                default: 1.0,
            },
            Knob::LimitNodes => limit(2_000_000_000, true),
            Knob::LimitNps => limit(100_000_000, true),
            Knob::LimitDepth => limit(100, false),
            // Up to the largest evaluation (recognized wins lie in the heuristic range; once
            // the position itself is a recognized win the engine plays at full strength anyway,
            // see `engine::weaken`).
            Knob::WinGuard => int(100, i64::from(MAX_EVAL), i64::from(DEFAULT_WIN_GUARD)),
            // `Style=human`'s path (strength/human.rs); the default is its strongest point, as
            // every other knob's default is full strength
            Knob::HumanStrength => int(0, i64::from(HUMAN_MAX), i64::from(HUMAN_MAX)),
        }
    }

    pub fn default_value(self) -> Value {
        match self.kind() {
            Kind::Int { default, .. } => Value::Num(default as f64),
            Kind::Float { default, .. } => Value::Num(default),
            Kind::Model => Value::Model(NoiseModel::None),
        }
    }

    /// Parses and range-checks a value; the error says why (the caller adds the option name).
    pub fn parse_value(self, text: &str) -> Result<Value, String> {
        let t = text.trim();
        match self.kind() {
            Kind::Int { min, max, .. } => parse_int(t, min, max).map(|v| Value::Num(v as f64)),
            Kind::Float { min, max, .. } => {
                let v: f64 = t.parse().map_err(|_| format!("'{t}' is not a number"))?;
                if !v.is_finite() || v < min || v > max {
                    return Err(format!("{t} is outside {min}..={max}"));
                }
                Ok(Value::Num(v))
            }
            Kind::Model => NoiseModel::parse(t)
                .map(Value::Model)
                .ok_or_else(|| format!("'{t}' is not one of none, uniform, gaussian, gbm")),
        }
    }
}

/// An integer in `min..=max`; the error says whether the text is no integer or one outside the
/// range (one too large for any integer type included: it is out of range, not malformed).
pub fn parse_int(text: &str, min: i64, max: i64) -> Result<i64, String> {
    let t = text.trim();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("'{t}' is not an integer"));
    }
    match t.parse::<i64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(format!("{t} is outside {min}..={max}")),
    }
}
