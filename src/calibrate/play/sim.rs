//! A simulated match runner: draws game results from known ratings with a seeded generator and
//! writes `games.csv` in the arena's format. Used by the tests (known truth) and for dry runs.

use std::path::Path;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::runner::{EngineSpec, GameRunner, MatchSpec};
use crate::calibrate::error::{CalibrateError, Result};
use crate::rating::model::expected_score;
use crate::results::{self, GameResult, GameRow, Termination};

/// Rating of an engine under simulation.
pub type TruthFn = dyn Fn(&EngineSpec) -> f64 + Send + Sync;
/// Seconds a simulated game between two engines is recorded to take (games.csv's `seconds`).
pub type SecondsFn = dyn Fn(&EngineSpec, &EngineSpec) -> f64 + Send + Sync;

pub struct SimRunner {
    pub truth: Box<TruthFn>,
    /// Share of games drawn between equal players (shrinks with the rating gap).
    pub draw_rate: f64,
    /// Recorded game times, so that planning per second can be exercised; `None` records 0.
    pub seconds: Option<Box<SecondsFn>>,
}

impl SimRunner {
    /// Expected score and draw probability for rating difference d (white minus black).
    fn probs(&self, d: f64) -> (f64, f64) {
        let p = expected_score(d);
        // draws limited so that win and loss probabilities stay >= 0
        let draw = (self.draw_rate * 4.0 * p * (1.0 - p)).min(2.0 * p.min(1.0 - p));
        (p, draw)
    }
}

impl GameRunner for SimRunner {
    fn run(&self, spec: &MatchSpec, dir: &Path) -> Result<()> {
        std::fs::create_dir_all(dir).map_err(|e| CalibrateError::io("create", dir, e))?;
        let path = dir.join("games.csv");
        let held = results::read_csv_or_empty::<GameRow>(&path)?;
        let done: std::collections::HashSet<u64> = held.iter().map(|r| r.game_id).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
        let subject = &spec.engines[0];
        let mut id = 0usize;
        let mut sweep = spec
            .stop_after_sweep
            .and_then(|n| crate::arena::sweep_tracker(&held, n));
        for opp in &spec.engines[1..] {
            for g in 0..spec.games_per_opponent {
                // every game consumes the same random numbers whether skipped or not
                let u: f64 = rng.random();
                id += 1;
                if done.contains(&(id as u64)) {
                    continue;
                }
                if sweep
                    .as_ref()
                    .is_some_and(|t| t.swept(&subject.name, &opp.name))
                {
                    continue;
                }
                let (white, black) = if g % 2 == 0 {
                    (subject, opp)
                } else {
                    (opp, subject)
                };
                let d = (self.truth)(white) - (self.truth)(black);
                let (p, draw) = self.probs(d);
                let win = p - draw / 2.0;
                let result = if u < win {
                    GameResult::WhiteWins
                } else if u < win + draw {
                    GameResult::Draw
                } else {
                    GameResult::BlackWins
                };
                let termination = if result == GameResult::Draw {
                    Termination::AdjudicationDraw
                } else {
                    Termination::Checkmate
                };
                let row = GameRow {
                    game_id: id as u64,
                    pair_id: ((id - 1) / 2 + 1) as u64,
                    round: (g / 2 + 1) as u32,
                    white: white.name.clone(),
                    black: black.name.clone(),
                    white_settings: String::new(),
                    black_settings: String::new(),
                    opening_id: g / 2,
                    opening_fen: "startpos".into(),
                    result: Some(result),
                    termination,
                    plies: 40 + (u * 1000.0) as u32 % 120,
                    seconds: self.seconds.as_ref().map_or(0.0, |f| f(white, black)),
                    seed: spec.seed,
                    white_depth: None,
                    black_depth: None,
                    white_nodes: None,
                    black_nodes: None,
                };
                if let Some(t) = sweep.as_mut() {
                    t.add(&row);
                }
                results::append_csv(&path, &row)?;
            }
        }
        Ok(())
    }
}
