//! `skillcal pool`: the reference pool's own scale, measured once.
//!
//! The members (Stockfish Skill Levels as soft anchors at the PR #4341 table, Fairy-Stockfish
//! levels below them for the chain to the beginners' range) play their own ladder: each match
//! pairs two members whose current ratings are within `max_gap` (or neighbours in rating
//! order), chosen where its games most lower the total variance above each member's goal per
//! second of play (a rank-one update of the fit's covariance). The run stops
//! when every member is known to `precision` (95% half-width) relative to the anchors, or at
//! the budget. Relative to the anchors means: the uncertainty of `r_i - mean(r_anchor)`, the
//! member's place on the scale once the anchors' common level is fixed (the location the table
//! gives the scale); the uncertainty of that common level itself is the table's, not ours.
//!
//! the run's TOML and the members' engines are the config's (`config/pool_file.rs`); `fit`: the pool rated by `rating`;
//! `plan`: which members play next; `measure`: the loop; `output`: the files.
//!
//! Files in the run folder: `matches/bNNN-MM/` (one arena match each, resumable), `games.csv`
//! (all games), `pool.csv` (ratings and intervals), `pool-covariance.csv`, `pool-pairs.csv`
//! (the pairwise results, enough to refit the pool exactly) and `report.md`.

mod fit;
mod human_scale;
mod measure;
mod output;
mod plan;

pub use crate::calibrate::config::{anchors, default_dir, MeasureConfig, PoolRunConfig};
pub use crate::calibrate::play::member_engine;
pub use crate::calibrate::run::{CostSample, GameCost};
pub use crate::results::{PoolMemberRow, PoolPairRow};
pub use fit::{fit, PoolFit};
pub use measure::{measure, refit, PoolOptions, PoolOutcome};
pub use output::read_pool_csv;
pub use plan::{first_ladder, forecast, next_batch, Forecast, PlannedMatch};
