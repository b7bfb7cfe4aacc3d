//! What the calibration asks of a match runner, kept small so that the arena (real games) and
//! the simulator (tests, dry runs) are interchangeable.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::calibrate::config::{option_string, Limits, PoolConfig};
use crate::calibrate::error::Result;

/// One engine of a match.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct EngineSpec {
    pub name: String,
    /// Executable, or `builtin` for skillcal's own engine.
    pub command: String,
    #[serde(default)]
    pub args: Vec<String>,
    /// UCI options in the order they are sent.
    #[serde(default)]
    pub options: Vec<(String, String)>,
    #[serde(default)]
    pub limits: Limits,
    /// The `id name` the engine must answer `uci` with (a pool member measured with one build).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id_name: Option<String>,
}

impl EngineSpec {
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A gauntlet: `engines[0]` plays `games_per_opponent` games against each of the others.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct MatchSpec {
    pub engines: Vec<EngineSpec>,
    pub games_per_opponent: usize,
    pub seed: u64,
    pub concurrency: usize,
    pub openings: std::path::PathBuf,
    pub openings_order: String,
    #[serde(default)]
    pub openings_plies: Option<u32>,
    #[serde(default)]
    pub adjudication: Option<toml::Table>,
    /// A pairing swept this many games in stops (a calibration's `plan.stop_after_sweep`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_after_sweep: Option<u32>,
}

impl MatchSpec {
    pub fn planned_games(&self) -> usize {
        self.games_per_opponent * self.engines.len().saturating_sub(1)
    }

    /// Whether `games` (the match's so far) finish it: each opponent has played its count
    /// against the first engine, or been stopped by a sweep.
    pub fn done_with(&self, games: &[crate::results::GameRow]) -> bool {
        if games.len() >= self.planned_games() {
            return true;
        }
        let sweep = self
            .stop_after_sweep
            .and_then(|n| crate::arena::sweep_tracker(games, n));
        let first = &self.engines[0].name;
        self.engines[1..].iter().all(|o| {
            let played = games
                .iter()
                .filter(|g| {
                    (&g.white == first && g.black == o.name)
                        || (&g.black == first && g.white == o.name)
                })
                .count();
            played >= self.games_per_opponent
                || sweep.as_ref().is_some_and(|t| t.swept(first, &o.name))
        })
    }
}

/// Plays (or resumes) a match into `dir`, leaving `dir/games.csv` in the arena's format.
pub trait GameRunner {
    fn run(&self, spec: &MatchSpec, dir: &Path) -> Result<()>;
    /// Plays (or resumes) a batch of matches, each into its folder. The arena plays them at
    /// once on shared game slots (their `concurrency`); a runner that cannot plays them in turn.
    fn run_batch(&self, matches: &[(MatchSpec, PathBuf)]) -> Result<()> {
        for (spec, dir) in matches {
            self.run(spec, dir)?;
        }
        Ok(())
    }
    /// False for a runner that only rates the games already played ([`RateOnly`]).
    fn plays(&self) -> bool {
        true
    }
}

/// Plays nothing: a verification rated on the games its folder holds (`verify --rate-only`),
/// for a folder whose table is gone or whose rows are to be re-read with a newer build.
pub struct RateOnly;

impl GameRunner for RateOnly {
    fn run(&self, _spec: &MatchSpec, _dir: &Path) -> Result<()> {
        Ok(())
    }
    fn plays(&self) -> bool {
        false
    }
}

/// Engine of pool member `j`: the pool's defaults, then the member's own settings.
pub fn member_engine(pool: &PoolConfig, j: usize) -> EngineSpec {
    let m = &pool.members[j];
    let mut options: Vec<(String, String)> = pool
        .options
        .iter()
        .filter(|(k, _)| !m.options.contains_key(*k))
        .map(|(k, v)| (k.clone(), option_string(v)))
        .collect();
    options.extend(m.options.iter().map(|(k, v)| (k.clone(), option_string(v))));
    EngineSpec {
        name: m.name.clone(),
        command: m
            .command
            .clone()
            .or_else(|| pool.command.clone())
            .unwrap_or_default(),
        args: m.args.clone().unwrap_or_else(|| pool.args.clone()),
        options,
        limits: m.limits.clone().unwrap_or_else(|| pool.limits.clone()),
        id_name: m.id_name.clone(),
    }
}
