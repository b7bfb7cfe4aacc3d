//! The strength path's knobs: a UCI option or a `go` limit moved by the strength parameter t, on
//! a linear, log or log1p scale.

use serde::{Deserialize, Serialize};

use crate::arena::GoLimits as Limits;
use crate::strength::{Kind, Knob};

#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Scale {
    Linear,
    Log,
    /// ln(1 + v / offset): for knobs such as ScoreInaccuracy that start at 0.
    Log1p,
}

/// A `go` limit a path can move instead of a UCI option, so an engine without a node-limit
/// option can still be calibrated along nodes (or depth, or time per move).
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum GoLimit {
    Nodes,
    Depth,
    /// Milliseconds per move (`go movetime`).
    Movetime,
}

impl GoLimit {
    pub fn name(self) -> &'static str {
        match self {
            GoLimit::Nodes => "nodes",
            GoLimit::Depth => "depth",
            GoLimit::Movetime => "movetime",
        }
    }

    /// Whether `limits` already sets this limit.
    pub fn is_set(self, limits: &Limits) -> bool {
        match self {
            GoLimit::Nodes => limits.nodes.is_some(),
            GoLimit::Depth => limits.depth.is_some(),
            GoLimit::Movetime => limits.movetime_ms.is_some(),
        }
    }

    /// Sets this limit in `limits` to `value` (rounded; at least 1).
    pub fn set(self, limits: &mut Limits, value: f64) {
        let v = value.round().max(1.0);
        match self {
            GoLimit::Nodes => limits.nodes = Some(v as u64),
            GoLimit::Depth => limits.depth = Some(v.min(f64::from(u32::MAX)) as u32),
            GoLimit::Movetime => limits.movetime_ms = Some(v as u64),
        }
    }
}

/// One knob of the strength path: a UCI option (`knob`) or a `go` limit (`limit`), never both.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct KnobPath {
    /// UCI option name, e.g. `LimitNodes`, `ScoreInaccuracy`, `UCI_Elo`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub knob: String,
    /// The subject's `go` limit this path moves instead of an option: `nodes`, `depth` or
    /// `movetime` (milliseconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<GoLimit>,
    /// Value at t = 0 (weakest).
    pub from: f64,
    /// Value at t = 1 (strongest).
    pub to: f64,
    #[serde(default = "default_scale")]
    pub scale: Scale,
    /// Offset of the `log1p` scale (same unit as the knob).
    #[serde(default = "default_offset")]
    pub offset: f64,
    /// Round values to integers (UCI spin options).
    #[serde(default = "default_true")]
    pub integer: bool,
}

fn default_scale() -> Scale {
    Scale::Linear
}
fn default_offset() -> f64 {
    10.0
}
fn default_true() -> bool {
    true
}

impl KnobPath {
    /// What the path moves, as labels and table columns name it: the option, or `go nodes`.
    pub fn name(&self) -> String {
        match self.limit {
            Some(l) => format!("go {}", l.name()),
            None => self.knob.clone(),
        }
    }

    fn fwd(&self, v: f64) -> f64 {
        match self.scale {
            Scale::Linear => v,
            Scale::Log => v.ln(),
            Scale::Log1p => (v / self.offset).ln_1p(),
        }
    }
    fn back(&self, u: f64) -> f64 {
        match self.scale {
            Scale::Linear => u,
            Scale::Log => u.exp(),
            Scale::Log1p => u.exp_m1() * self.offset,
        }
    }
    /// Knob value at strength parameter t (interpolated on the knob's scale), rounded if integer,
    /// then kept in the knob's legal range. Below t = 0 (`plan.t_min`) the line extends on the
    /// same scale, so the settings of t in [0, 1] keep their values; above t = 1 it stops. Only
    /// that extension meets the range's bounds: an end outside them is refused at load.
    pub fn value(&self, t: f64) -> f64 {
        let (a, b) = (self.fwd(self.from), self.fwd(self.to));
        let v = self.back(a + (b - a) * t.min(1.0));
        let v = if self.integer {
            v.round()
        } else {
            (v * 1000.0).round() / 1000.0
        };
        let (lo, hi) = self.legal_range();
        v.clamp(lo, hi)
    }

    /// The values the knob may take. A limit never goes below 1: rounded to 0 it would mean
    /// "unlimited", the strongest setting. An option the built-in engine does not know keeps
    /// non-negative paths at or above 1 too, unless the path itself reaches below 1.
    fn legal_range(&self) -> (f64, f64) {
        if self.limit.is_some() {
            return (1.0, f64::INFINITY);
        }
        match Knob::from_name(&self.knob).map(Knob::kind) {
            Some(Kind::Int {
                min,
                max,
                unlimited_zero,
                ..
            }) => {
                let min = if unlimited_zero { min.max(1) } else { min };
                (min as f64, max as f64)
            }
            Some(Kind::Float { min, max, .. }) => (min, max),
            _ => {
                let low = self.from.min(self.to);
                if low >= 0.0 {
                    (low.min(1.0), f64::INFINITY)
                } else {
                    (f64::NEG_INFINITY, f64::INFINITY)
                }
            }
        }
    }
    pub fn scale_name(&self) -> &'static str {
        match self.scale {
            Scale::Linear => "linear",
            Scale::Log => "log",
            Scale::Log1p => "log1p",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(knob: &str, from: f64, to: f64, scale: Scale, offset: f64) -> KnobPath {
        KnobPath {
            knob: knob.into(),
            limit: None,
            from,
            to,
            scale,
            offset,
            integer: true,
        }
    }

    #[test]
    fn extends_below_zero_on_the_scale() {
        let nodes = path("LimitNodes", 16.0, 2_097_152.0, Scale::Log, 10.0);
        // 16 * 131072^-0.2 = 1.52
        assert_eq!(nodes.value(-0.2), 2.0);
        assert_eq!(nodes.value(0.0), 16.0);
        assert_eq!(nodes.value(1.5), 2_097_152.0);
        let inacc = path("ScoreInaccuracy", 400.0, 0.0, Scale::Log1p, 20.0);
        // 20 (21^1.2 - 1) = 752.1
        assert_eq!(inacc.value(-0.2), 752.0);
        assert_eq!(inacc.value(0.0), 400.0);
        assert_eq!(inacc.value(1.0), 0.0);
    }

    #[test]
    fn limits_never_reach_zero() {
        // 16 * 131072^-0.9 = 0.0004: rounded to 0 it would mean unlimited
        let nodes = path("LimitNodes", 16.0, 2_097_152.0, Scale::Log, 10.0);
        assert_eq!(nodes.value(-0.9), 1.0);
        let depth = path("LimitDepth", 2.0, 20.0, Scale::Linear, 10.0);
        assert_eq!(depth.value(-0.9), 1.0);
        let mut go = path("", 4.0, 1000.0, Scale::Linear, 10.0);
        go.limit = Some(GoLimit::Nodes);
        assert_eq!(go.value(-0.9), 1.0);
        // an option the engine does not know: at least 1 when the path stays at or above 1
        let other = path("Nodes", 10.0, 1000.0, Scale::Linear, 10.0);
        assert_eq!(other.value(-0.9), 1.0);
        let skill = path("Skill Level", 0.0, 20.0, Scale::Linear, 10.0);
        assert_eq!(skill.value(-0.5), 0.0);
        // a known option stops at its own bounds
        let inacc = path("ScoreInaccuracy", 2000.0, 0.0, Scale::Linear, 10.0);
        assert_eq!(inacc.value(-0.9), 3000.0);
    }
}
