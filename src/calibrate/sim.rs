//! A simulated match runner: draws game results from known ratings with a seeded generator and
//! writes `games.csv` in the arena's format. Used by the tests (known truth) and for dry runs.

use std::io::Write;
use std::path::Path;

use anyhow::Context;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::runner::{EngineSpec, GameRunner, MatchSpec};
use crate::rating::model::expected_score;

/// Rating of an engine under simulation.
pub type TruthFn = dyn Fn(&EngineSpec) -> f64 + Send + Sync;

pub struct SimRunner {
    pub truth: Box<TruthFn>,
    /// Share of games drawn between equal players (shrinks with the rating gap).
    pub draw_rate: f64,
}

pub const GAMES_CSV_HEADER: &str = "game_id,pair_id,round,white,black,white_settings,black_settings,opening_id,opening_fen,result,termination,plies,seconds,seed";

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
    fn run(&self, spec: &MatchSpec, dir: &Path) -> anyhow::Result<()> {
        std::fs::create_dir_all(dir)?;
        let path = dir.join("games.csv");
        let done = if path.exists() {
            std::fs::read_to_string(&path)?
                .lines()
                .count()
                .saturating_sub(1)
        } else {
            0
        };
        let mut out = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        if done == 0 {
            writeln!(out, "{GAMES_CSV_HEADER}")?;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
        let subject = &spec.engines[0];
        let mut id = 0usize;
        for opp in &spec.engines[1..] {
            for g in 0..spec.games_per_opponent {
                // every game consumes the same random numbers whether skipped or not
                let u: f64 = rng.random();
                id += 1;
                if id <= done {
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
                    "1-0"
                } else if u < win + draw {
                    "1/2-1/2"
                } else {
                    "0-1"
                };
                let termination = if result == "1/2-1/2" {
                    "adjudication"
                } else {
                    "checkmate"
                };
                let plies = 40 + (u * 1000.0) as u32 % 120;
                writeln!(
                    out,
                    "{id},{},{},{},{},,,{},startpos,{result},{termination},{plies},0.0,{}",
                    (id - 1) / 2 + 1,
                    g / 2 + 1,
                    white.name,
                    black.name,
                    g / 2,
                    spec.seed
                )?;
            }
        }
        Ok(())
    }
}
