//! How the engine is weakened: settings, noise models, move choice, the families and their
//! UCI_Elo tables.
//!
//! Search-independent: the root search asks [`seed::root_errors`] for the ScoreInaccuracy Errors
//! and [`noise::perturb_root_score`] for the bound tests, and hands the completed iteration's
//! MultiPV candidates to [`noise::choose`]. Formulas: docs/strength.md.

mod declare;
pub mod elo_scale;
pub mod family;
pub mod human;
pub mod knob;
pub mod maia;
pub mod noise;
pub mod seed;
pub mod settings;
pub mod table;

pub use declare::{DeclKind, OptionDecl};
pub use family::Family;
pub use knob::{Knob, NoiseModel, Value};
pub use maia::Maia;
pub use noise::{
    apply_noise_allowed, choose, perturb_root_score, si_reference_choice, Choice, Noise,
};
pub use seed::{
    clock_seed, eval_noise, eval_noise_seed, move_seed, noise_rng, policy_rng, root_errors,
};
pub use settings::{EloOutside, OptionError, Settings, TableSource};
pub use table::{EloTable, Row, TableError};
