//! How the engine is weakened: settings, noise models, move choice, the families and their
//! UCI_Elo tables.
//!
//! Search-independent: the root search asks [`seed::root_errors`] for the ScoreInaccuracy Errors
//! and [`noise::perturb_root_score`] for the bound tests, and hands the completed iteration's
//! MultiPV candidates to [`noise::choose`]. Formulas: docs/strength.md.

mod declare;
mod elo_range;
mod elo_scale;
mod family;
mod human;
mod human_options;
mod knob;
mod maia;
mod noise;
mod seed;
mod settings;
mod table;
mod think_model;
mod variety;

pub use declare::{BuiltinOption, DeclKind};
pub use elo_range::EloOutside;
pub use elo_scale::{maps as scale_maps, ScaleMap, POOL as POOL_SCALE};
pub use family::Family;
pub use human::{
    candidates as human_candidates, expected_score as human_expected_score,
    mistake as human_mistake, people_moves as human_people_moves, pick as human_pick,
    plan as human_plan, plausible as human_plausible, qualifying as human_qualifying,
    within_margin as human_within_margin, HumanPlan, MistakePlan, SearchPlan, HUMAN_MAX,
    MISTAKES_END, NODES_RANGE as HUMAN_NODES_RANGE, POLICY_END,
};
pub use human_options::{
    HumanOptions, DEFAULT_TEMPERATURE as HUMAN_DEFAULT_TEMPERATURE,
    EMBEDDED_MODEL as HUMAN_EMBEDDED_MODEL, HUMAN_TEMPERATURE, HUMAN_TIME, HUMAN_TIME_MODEL,
    HUMAN_TIME_SCALE,
};
pub use knob::{parse_int, Kind, Knob, NoiseModel, Value};
pub use maia::Maia;
pub use noise::{
    apply_noise_allowed, choose, perturb_root_score, si_reference_choice, Choice, Noise,
    DEFAULT_WIN_GUARD, GBM_SCALE_CP,
};
pub use seed::{
    clock_seed, eval_noise, eval_noise_seed, human_rng, move_seed, noise_rng, policy_rng,
    root_errors, think_rng,
};
pub use settings::{
    OptionError, Settings, TableSource, STRENGTH_TABLE, UCI_ELO, UCI_LIMIT_STRENGTH,
};
pub use table::{EloTable, Row, TableError, ELO_BOUNDS, EMBEDDED_NAME};
pub use think_model::{
    safe_limit as think_safe_limit, MoveContext, ThinkModel, FEATURES as THINK_FEATURES,
    PREVIOUS as THINK_PREVIOUS, SENSIBLE as THINK_SENSIBLE,
};
pub use variety::{by_excess as draw_by_excess, by_probability as draw_by_probability};
