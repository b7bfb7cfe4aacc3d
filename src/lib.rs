//! skillcal: a weakenable UCI engine, a match arena, Elo rating and strength calibration.
//!
//! Dependencies point one way: `calibrate` uses `arena`, `rating`, `strength` and `results`;
//! `arena` knows nothing of calibration; `engine` uses `strength` and nothing above it; `score`
//! (the engine's score scale, shared by `engine` and `strength`) uses nothing.

pub mod analysis;
pub mod arena;
pub mod calibrate;
pub mod cli;
pub mod engine;
pub mod fsutil;
pub mod policy;
pub mod rating;
pub mod report;
pub mod results;
pub mod score;
pub mod store;
pub mod strength;
pub mod think_time;
