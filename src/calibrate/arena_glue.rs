//! The real match runner: hands each calibration gauntlet to the arena, which plays it (or
//! resumes it) in the match's own directory.

use std::path::{Path, PathBuf};

use super::error::{CalibrateError, Result};
use super::runner::{EngineSpec, GameRunner, MatchSpec};
use crate::arena::{
    self, AdjudicationConfig, BookOrder, EngineConfig, MatchConfig, OpeningsConfig, Pairing,
    RunOptions, UciOptions,
};

pub struct ArenaRunner {
    /// The run directory, named in the PGN `Event` tag.
    root: PathBuf,
}

impl ArenaRunner {
    pub fn new(root: &Path) -> Self {
        ArenaRunner {
            root: root.to_path_buf(),
        }
    }
}

fn engine(e: &EngineSpec) -> EngineConfig {
    EngineConfig {
        name: Some(e.name.clone()),
        command: e.command.clone(),
        args: e.args.clone(),
        options: UciOptions(e.options.clone()),
        limits: e.limits.clone(),
        ..Default::default()
    }
}

/// The arena's config for one calibration gauntlet: `engines[0]` against each of the rest,
/// `games_per_opponent` games each in colour-swapped pairs on the same opening.
pub fn match_config(spec: &MatchSpec, event: &str) -> Result<MatchConfig> {
    let games = u32::try_from(spec.games_per_opponent).map_err(|_| {
        CalibrateError::Config(format!(
            "games per opponent: {} is too many",
            spec.games_per_opponent
        ))
    })?;
    let order = match spec.openings_order.as_str() {
        "random" => BookOrder::Random,
        "sequential" => BookOrder::Sequential,
        other => {
            return Err(CalibrateError::Config(format!(
                "openings.order: '{other}' is neither 'random' nor 'sequential'"
            )))
        }
    };
    let adjudication: AdjudicationConfig = match &spec.adjudication {
        Some(t) => t.clone().try_into().map_err(|e| {
            CalibrateError::Config(format!(
                "[adjudication]: not a valid arena adjudication table: {e}"
            ))
        })?,
        None => AdjudicationConfig::default(),
    };
    let cfg = MatchConfig {
        event: event.to_string(),
        engines: spec.engines.iter().map(engine).collect(),
        pairing: Pairing::Gauntlet,
        rounds: games.div_ceil(2),
        games_per_opening: 2,
        games: Some(games),
        concurrency: spec.concurrency.max(1),
        seed: spec.seed,
        openings: OpeningsConfig {
            file: Some(spec.openings.clone()),
            order,
            plies: spec.openings_plies,
            ..Default::default()
        },
        adjudication,
        summary_every: 0,
        ..Default::default()
    };
    cfg.validate()?;
    Ok(cfg)
}

impl GameRunner for ArenaRunner {
    fn run(&self, spec: &MatchSpec, dir: &Path) -> Result<()> {
        let event = format!(
            "skillcal calibration {} {}",
            self.root.display(),
            dir.file_name()
                .map(|s| s.to_string_lossy())
                .unwrap_or_default()
        );
        let cfg = match_config(spec, &event)?;
        // the bar appears only on a terminal
        let opts = RunOptions {
            progress: true,
            ..Default::default()
        };
        arena::run_match(&cfg, dir, &opts)
            .map_err(|e| CalibrateError::from(e).context(format!("match in {}", dir.display())))?;
        Ok(())
    }
}
