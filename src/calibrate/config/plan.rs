//! `[plan]`: how a calibration chooses its games (the first batch, the grid of settings, the
//! opponents of each, how pairings are ranked).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct PlanConfig {
    /// Strength parameters of the first batch.
    pub initial: Vec<f64>,
    /// Optional first guess of Elo at t = 0 and t = 1 (picks the first opponents).
    pub guess: Option<[f64; 2]>,
    /// t is quantized to multiples of 1/grid so that settings repeat.
    pub grid: u32,
    /// Lower end of t's domain, in (-1, 0]: below 0 the path extends on its knobs' scales, so a
    /// run whose weakest end plays too strong gains weaker settings and keeps its games.
    #[serde(skip_serializing_if = "is_zero")]
    pub t_min: f64,
    /// Games per (setting, opponent) pairing; even, so each opening is played with both colours.
    pub games_per_pairing: usize,
    /// Opponents per setting: the nearest by current estimate before a curve exists, then those
    /// whose games narrow the curve at the setting most.
    pub opponents_per_setting: usize,
    /// Opponents further than this (Elo) from the setting's estimate are not used.
    pub max_gap: f64,
    /// At most this many settings per batch.
    pub batch_settings: usize,
    /// A target also counts as met only once this many games were played by settings within
    /// 1.5 grid steps of its t*: direct evidence next to the parametric fit (0 = off).
    pub min_games_per_target: usize,
    /// Games per adjacent pair of pool members, played once at the start (measures the pool's
    /// own spacing next to the anchors); 0 = none.
    pub pool_games: usize,
    /// Rank a setting's candidate opponents by the variance their games remove per second of
    /// play (the run's measured game times) rather than per game.
    pub per_second: bool,
    /// A (setting, opponent) pairing one side has won every game of, this many games in, plays
    /// no more (the arena's `stop_after_sweep`); 0 = every pairing plays its count. `init`
    /// writes 8 for an engine of unknown strength, whose first batch meets the whole scale.
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub stop_after_sweep: u32,
}

fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}

// A run's `calibrate.toml` without t_min reads as before.
fn is_zero(v: &f64) -> bool {
    *v == 0.0
}

impl Default for PlanConfig {
    fn default() -> Self {
        PlanConfig {
            initial: vec![0.0, 0.25, 0.5, 0.75, 1.0],
            guess: None,
            grid: 40,
            t_min: 0.0,
            games_per_pairing: 20,
            opponents_per_setting: 2,
            max_gap: 300.0,
            batch_settings: 6,
            min_games_per_target: 0,
            pool_games: 0,
            per_second: true,
            stop_after_sweep: 0,
        }
    }
}
