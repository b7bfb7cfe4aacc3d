//! The `[fit]` section of a calibration configuration: the curve's form and how games between
//! the run's own settings count.

use serde::{Deserialize, Serialize};

pub use crate::calibrate::fit::ModelKind;

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FitConfig {
    #[serde(default)]
    pub model: ModelKind,
    /// Knots of the `spline` and `monotone` models (4..=10); absent means 6. Not written when
    /// absent, so the saved configuration of a run without it reads as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub knots: Option<usize>,
    /// Where the spline's knots go: `"even"` (the default) spaces them over [t_min, 1];
    /// `"data"` puts the boundary knots at the lowest and highest tested settings and the
    /// others at quantiles of the games' t, so extending the domain moves no knot (evenly
    /// spaced knots move with t_min, and with them every row's setting).
    /// Not written when even.
    #[serde(default, skip_serializing_if = "KnotPlacement::is_even")]
    pub knots_at: KnotPlacement,
    /// Use whichever increasing form (linear, quadratic, cubic, the spline with `knots`, the
    /// monotone form) fits the tested settings best by residual chi-square plus 2 per
    /// coefficient (Akaike), not
    /// `model` whenever that is increasing: a form too stiff for the path can pass the
    /// chi-square test and still misplace the middle rows by 50-100 Elo (README,
    /// "Calibration"). Not written when off, so saved configurations read as before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub select_form: bool,
    /// How games between two of the run's own settings count ([`crate::calibrate::fit::self_play`]): a number
    /// kappa stretches their rating differences by it (1, the default: as any game), `"fit"`
    /// takes the kappa that fits the games best, `"fit-by-t"` a kappa log-linear in the pair's
    /// mean t, both coefficients fitted. Not written when 1.
    #[serde(default, skip_serializing_if = "SelfPlayScale::is_one")]
    pub self_play_scale: SelfPlayScale,
}

/// `fit.knots_at`.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum KnotPlacement {
    #[default]
    Even,
    Data,
}

impl KnotPlacement {
    fn is_even(&self) -> bool {
        *self == KnotPlacement::Even
    }
}

/// `fit.self_play_scale`: a fixed factor, `"fit"`, or `"fit-by-t"`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SelfPlayScale {
    Fixed(f64),
    Fit,
    FitByT,
}

impl Default for SelfPlayScale {
    fn default() -> Self {
        SelfPlayScale::Fixed(1.0)
    }
}

impl SelfPlayScale {
    fn is_one(&self) -> bool {
        *self == SelfPlayScale::Fixed(1.0)
    }
}

impl Serialize for SelfPlayScale {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            SelfPlayScale::Fixed(k) => s.serialize_f64(*k),
            SelfPlayScale::Fit => s.serialize_str("fit"),
            SelfPlayScale::FitByT => s.serialize_str("fit-by-t"),
        }
    }
}

impl<'de> Deserialize<'de> for SelfPlayScale {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Number(f64),
            Word(String),
        }
        let (lo, hi) = crate::calibrate::fit::KAPPA_RANGE;
        match Raw::deserialize(d)? {
            Raw::Number(k) if (lo..=hi).contains(&k) => Ok(SelfPlayScale::Fixed(k)),
            Raw::Number(k) => Err(serde::de::Error::custom(format!(
                "self_play_scale {k} is outside [{lo}, {hi}]"
            ))),
            Raw::Word(w) if w == "fit" => Ok(SelfPlayScale::Fit),
            Raw::Word(w) if w == "fit-by-t" => Ok(SelfPlayScale::FitByT),
            Raw::Word(w) => Err(serde::de::Error::custom(format!(
                "self_play_scale `{w}`: expected a number, \"fit\" or \"fit-by-t\""
            ))),
        }
    }
}

impl FitConfig {
    /// The spline's knot count: `knots`, or the default.
    pub fn n_knots(&self) -> usize {
        self.knots.unwrap_or(crate::calibrate::fit::DEFAULT_KNOTS)
    }
}

impl Default for FitConfig {
    fn default() -> Self {
        FitConfig {
            model: ModelKind::Linear,
            knots: None,
            knots_at: KnotPlacement::Even,
            select_form: false,
            self_play_scale: SelfPlayScale::default(),
        }
    }
}
