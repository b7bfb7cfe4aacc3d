//! The real match runner: hands each calibration gauntlet to the arena, which plays it (or
//! resumes it) in the match's own directory.

use std::path::{Path, PathBuf};

use super::runner::{EngineSpec, GameRunner, MatchSpec};
use crate::arena::{
    self, AdjudicationConfig, BookOrder, EngineConfig, MatchConfig, OpeningsConfig, Pairing,
    RunOptions, UciOptions,
};
use crate::calibrate::config::PoolConfig;
use crate::calibrate::error::{CalibrateError, Result};

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
        options: UciOptions::from(e.options.clone()),
        limits: e.limits.clone(),
        id_name: e.id_name.clone(),
        ..Default::default()
    }
}

/// The arena's book order for a config's `openings.order`.
pub(crate) fn book_order(order: &str) -> std::result::Result<BookOrder, String> {
    match order {
        "random" => Ok(BookOrder::Random),
        "sequential" => Ok(BookOrder::Sequential),
        other => Err(format!("'{other}' is neither 'random' nor 'sequential'")),
    }
}

/// The arena's adjudication rules for a config's `[adjudication]` table.
pub(crate) fn adjudication(
    table: &Option<toml::Table>,
) -> std::result::Result<AdjudicationConfig, toml::de::Error> {
    match table {
        Some(t) => t.clone().try_into(),
        None => Ok(AdjudicationConfig::default()),
    }
}

/// Checks what a config hands the arena before any folder is made: the book order, the
/// adjudication table, and the opening book itself (read and parsed, so a missing or
/// malformed book fails here rather than in the first match).
pub(crate) fn check_arena_settings(
    (book, order, plies): (&Path, &str, Option<u32>),
    adjudication_table: &Option<toml::Table>,
    origin: &str,
) -> Result<()> {
    let order = book_order(order)
        .map_err(|e| CalibrateError::Config(format!("{origin}: key `openings.order`: {e}")))?;
    adjudication(adjudication_table)
        .map_err(|e| {
            CalibrateError::Config(format!(
                "{origin}: key `adjudication`: not a valid arena adjudication table: {e}"
            ))
        })?
        .check("adjudication")
        .map_err(|e| CalibrateError::Config(format!("{origin}: key {e}")))?;
    arena::check_book(&OpeningsConfig {
        file: Some(book.to_path_buf()),
        order,
        plies,
        ..Default::default()
    })
    .map_err(|e| CalibrateError::Config(format!("{origin}: {e}")))?;
    Ok(())
}

/// What a calibration and a pool run both check first: the book (read and parsed) and its
/// order, the adjudication rules, and every member's program; `origin` names the config.
pub(crate) fn check_book_rules_and_programs(
    openings: &crate::calibrate::config::CalibrationOpenings,
    adjudication: &Option<toml::Table>,
    pool: &PoolConfig,
    origin: &str,
) -> Result<()> {
    check_arena_settings(
        (&openings.file, &openings.order, openings.plies),
        adjudication,
        origin,
    )?;
    pool.check_commands(origin)
}

/// Starts each engine once, as a match's preflight does (program, limits, every option it will
/// be sent checked against the engine's declarations), before a run writes anything. `keyed`
/// pairs each with its key in the config `origin`: errors read `origin: key KEY (name): ...`.
pub(crate) fn check_engines(keyed: &[(String, EngineSpec)], origin: &str) -> Result<()> {
    let cfg = MatchConfig {
        engines: keyed.iter().map(|(_, e)| engine(e)).collect(),
        ..Default::default()
    };
    let keys: Vec<String> = keyed.iter().map(|(k, _)| k.clone()).collect();
    arena::check_engines(&cfg, &keys, &RunOptions::default())
        .map_err(|e| CalibrateError::Config(format!("{origin}: key {e}")))
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
    let order = book_order(&spec.openings_order)
        .map_err(|e| CalibrateError::Config(format!("openings.order: {e}")))?;
    let adjudication = adjudication(&spec.adjudication).map_err(|e| {
        CalibrateError::Config(format!(
            "[adjudication]: not a valid arena adjudication table: {e}"
        ))
    })?;
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
        stop_after_sweep: spec.stop_after_sweep,
        ..Default::default()
    };
    cfg.validate()?;
    Ok(cfg)
}

impl ArenaRunner {
    fn event(&self, dir: &Path) -> String {
        format!(
            "skillcal calibration {} {}",
            self.root.display(),
            dir.file_name()
                .map(|s| s.to_string_lossy())
                .unwrap_or_default()
        )
    }
}

impl GameRunner for ArenaRunner {
    fn run(&self, spec: &MatchSpec, dir: &Path) -> Result<()> {
        let cfg = match_config(spec, &self.event(dir))?;
        // the bar appears only on a terminal
        let opts = RunOptions {
            progress: true,
            ..Default::default()
        };
        arena::run_match(&cfg, dir, &opts)
            .map_err(|e| CalibrateError::from(e).context(format!("match in {}", dir.display())))?;
        Ok(())
    }

    fn run_batch(&self, matches: &[(MatchSpec, PathBuf)]) -> Result<()> {
        if matches.len() < 2 {
            return matches.iter().try_for_each(|(s, d)| self.run(s, d));
        }
        let configs = matches
            .iter()
            .map(|(s, d)| Ok((match_config(s, &self.event(d))?, d.clone())))
            .collect::<Result<Vec<_>>>()?;
        let concurrency = matches
            .iter()
            .map(|(s, _)| s.concurrency)
            .max()
            .unwrap_or(1);
        let results = arena::run_matches(&configs, concurrency, &RunOptions::default())
            .map_err(CalibrateError::from)?;
        // every match has run to its end or its stop; name the first that failed
        for ((_, d), r) in matches.iter().zip(results) {
            r.map_err(|e| CalibrateError::from(e).context(format!("match in {}", d.display())))?;
        }
        Ok(())
    }
}
