//! Calibration: plan games, fit Elo against the knobs, invert into a UCI_Elo table, verify it.
//!
//! Rerunning the same run resumes: unfinished matches are completed (the arena resumes them),
//! then planning continues from all games so far. The run folder is described in [`rundir`],
//! its files' formats in [`crate::results`].
//!
//! - [`driver`]: the loop (resume, plan, play, repeat) and [`Options`];
//! - [`mod@players`]: subject settings' names, the players and their engines;
//! - [`analysis`]: the fits of all games so far;
//! - [`fit`]: the curve as a rating problem; [`inversion`]: a table row from it;
//! - [`plan`]: what to play next; [`table`]: the UCI_Elo table; [`outputs`]: the result files and the [`Outcome`];
//! - [`verify`]: fresh games at UCI_Elo levels against the pool; [`tc_check`]: the same levels at two clocks.

pub mod analysis;
pub mod arena_glue;
pub mod config;
pub mod config_diff;
pub mod cost;
pub mod driver;
pub mod error;
pub mod fit;
pub mod fit_config;
pub mod goal;
pub mod held;
pub mod inversion;
pub mod isotonic;
pub mod outputs;
pub mod path;
pub mod plan;
pub mod playable;
pub mod players;
pub mod pool;
pub mod provisional;
pub mod rundir;
pub mod runner;
pub mod self_scale;
pub mod sim;
pub mod spline;
pub mod table;
pub mod tc_check;
pub mod two_step;
pub mod validate;
pub mod verify;
pub mod verify_opponents;

pub use analysis::{analyse, Analysis};
pub use driver::{calibrate, Options};
pub use error::{CalibrateError, Result};
pub use outputs::write_results;
pub use outputs::Outcome;
pub use players::{
    match_seed, match_spec, parse_subject, players, pool_engine, subject_engine, subject_name,
    Players, SUBJECT_PREFIX,
};
pub use rundir::{all_games, games_in, list_matches};
