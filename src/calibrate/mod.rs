//! Calibration: plan games, fit Elo against the knobs, invert into a UCI_Elo table, verify it.
//!
//! Rerunning the same run resumes: unfinished matches are completed (the arena resumes them),
//! then planning continues from all games so far. The run folder's files are described in
//! [`crate::results`].
//!
//! A reader follows a calibration through the rooms in this order:
//! - [`config`]: the TOML schema and its checks;
//! - [`run`]: the loop ([`calibrate`]: resume, plan, play, fit, repeat) and its files;
//! - [`play`]: the match runners (the arena's, the simulator);
//! - [`fit`]: the math (the curve as a rating problem, the held pool, the self-play scale);
//! - [`table`]: the UCI_Elo table from the curve;
//! - [`verify`]: fresh games at UCI_Elo levels against the pool; the same levels at two clocks;
//! - [`pool`]: `skillcal pool`, the reference pool measured once.

pub mod config;
mod error;
pub mod fit;
pub mod play;
pub mod pool;
pub mod run;
pub mod table;
pub mod verify;

pub use error::{CalibrateError, Result};
pub use run::{calibrate, Options, Outcome};
