//! The calibration's TOML schema and its checks: the run's config (`calibration`), its `[fit]`
//! section (`fit`), its `[plan]` (`plan`), a path's knob (`path`), each target's precision goal (`goals`), the checks
//! (`validate`, the member checks shared with the pool's config) `skillcal pool`'s own file
//! (`pool_file`), a calibration's reading of a measured pool's folder (`pool_folder`), and the
//! config `skillcal init` writes for an engine from what it declares (`starter`).

pub(super) mod calibration;
pub(super) mod fit;
pub(super) mod goals;
pub(super) mod human_scale;
pub(super) mod path;
pub(super) mod plan;
pub(super) mod pool_file;
pub(super) mod pool_folder;
pub(super) mod starter;
pub(super) mod validate;

pub(crate) use calibration::{
    fmt_num, knobs_label, option_string, CalibrationOpenings, KnotPlacement, Limits, PoolConfig,
    SubjectConfig,
};
pub use calibration::{quantize, SUBJECT_PREFIX};
pub use calibration::{CalibrationConfig, PoolMember};
pub use fit::{ModelKind, SelfPlayScale};
pub(crate) use human_scale::HumanScaleConfig;
pub use path::GoLimit;
pub use pool_file::{anchors, default_dir, MeasureConfig, PoolRunConfig};
pub use starter::{pool_dir, write_starter, EngineLine, StarterOptions, TableLimit};
pub use validate::check_budget;
