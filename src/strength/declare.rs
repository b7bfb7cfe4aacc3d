//! The engine's UCI option declarations (`option name ... type ...`), in the order it prints
//! them after `uci`.

use std::fmt;

use super::elo_scale::{self, UCI_ELO_SCALE};
use super::family::Family;
use super::human_options::{self, HumanOptions};
use super::knob::{Kind, Knob, NoiseModel};
use super::maia::{self, Maia, MAIA_STYLE};
use super::settings::{
    Settings, MAX_RANDOM_SEED, RANDOM_SEED, STRENGTH_TABLE, STYLE, UCI_ELO, UCI_LIMIT_STRENGTH,
};
use super::table::EMBEDDED_NAME;

/// One UCI option declaration, printed as `option name ... type ...`.
#[derive(Clone, Debug, PartialEq)]
pub struct BuiltinOption {
    pub name: &'static str,
    pub kind: DeclKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum DeclKind {
    Spin { default: i64, min: i64, max: i64 },
    Check { default: bool },
    Combo { default: String, vars: Vec<String> },
    String { default: String },
}

impl fmt::Display for BuiltinOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            DeclKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            DeclKind::Check { default } => write!(f, "check default {default}"),
            DeclKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
            DeclKind::String { default } => write!(f, "string default {default}"),
        }
    }
}

impl Settings {
    /// The UCI declarations, in the order the engine prints them after `uci`. The UCI_Elo range
    /// is the loaded table's.
    pub fn uci_options(&self) -> Vec<BuiltinOption> {
        let mut decls: Vec<BuiltinOption> = Knob::ALL
            .into_iter()
            .map(|knob| {
                let kind = match knob.kind() {
                    Kind::Int {
                        min, max, default, ..
                    } => DeclKind::Spin { default, min, max },
                    Kind::Float { default, .. } => DeclKind::String {
                        default: format!("{default}"),
                    },
                    Kind::Model => DeclKind::Combo {
                        default: NoiseModel::None.name().to_string(),
                        vars: NoiseModel::ALL
                            .iter()
                            .map(|m| m.name().to_string())
                            .collect(),
                    },
                };
                BuiltinOption {
                    name: knob.name(),
                    kind,
                }
            })
            .collect();
        let (lo, hi) = self.elo_bounds();
        decls.push(BuiltinOption {
            name: RANDOM_SEED,
            kind: DeclKind::Spin {
                default: 0,
                min: 0,
                max: MAX_RANDOM_SEED as i64,
            },
        });
        decls.push(BuiltinOption {
            name: UCI_LIMIT_STRENGTH,
            kind: DeclKind::Check { default: false },
        });
        decls.push(BuiltinOption {
            name: UCI_ELO,
            kind: DeclKind::Spin {
                default: lo,
                min: lo,
                max: hi,
            },
        });
        decls.push(BuiltinOption {
            name: UCI_ELO_SCALE,
            kind: DeclKind::Combo {
                default: elo_scale::POOL.to_string(),
                vars: elo_scale::names(),
            },
        });
        decls.push(BuiltinOption {
            name: STYLE,
            kind: DeclKind::Combo {
                default: Family::default().name().to_string(),
                vars: Family::ALL
                    .iter()
                    .map(|f| f.name())
                    .chain([MAIA_STYLE])
                    .map(str::to_string)
                    .collect(),
            },
        });
        decls.push(BuiltinOption {
            name: STRENGTH_TABLE,
            kind: DeclKind::String {
                default: EMBEDDED_NAME.to_string(),
            },
        });
        let d = Maia::default();
        decls.push(BuiltinOption {
            name: maia::MAIA_NET,
            kind: DeclKind::Combo {
                default: d.net.to_string(),
                vars: maia::bands(),
            },
        });
        decls.push(BuiltinOption {
            name: maia::POLICY_TEMPERATURE,
            kind: DeclKind::String {
                default: format!("{}", d.temperature),
            },
        });
        let h = HumanOptions::default();
        decls.push(BuiltinOption {
            name: human_options::HUMAN_TEMPERATURE,
            kind: DeclKind::String {
                default: format!("{}", h.temperature),
            },
        });
        decls.push(BuiltinOption {
            name: human_options::HUMAN_TIME,
            kind: DeclKind::Check { default: h.time },
        });
        let (lo, hi) = human_options::TIME_SCALE_RANGE;
        decls.push(BuiltinOption {
            name: human_options::HUMAN_TIME_SCALE,
            kind: DeclKind::Spin {
                default: i64::from(h.time_scale),
                min: i64::from(lo),
                max: i64::from(hi),
            },
        });
        decls.push(BuiltinOption {
            name: human_options::HUMAN_TIME_MODEL,
            kind: DeclKind::String {
                default: h.time_model,
            },
        });
        decls
    }
}
