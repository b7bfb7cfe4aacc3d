//! The run folder of a calibration: `calibrate.toml` (the config it was started with), one
//! directory per match under `matches/` (`b003-01/calibration-match.toml` is the plan of that match,
//! written before it is played; the arena's `games.csv` / `games.pgn` beside it), `plan.csv`
//! (why each match was chosen) and the merged `games.csv`. The file formats are `results`'.

use std::path::{Path, PathBuf};

use super::config_diff::game_changes;
use super::players::parse_subject;
use crate::calibrate::config::{knobs_label, CalibrationConfig};
use crate::calibrate::error::{CalibrateError, Result};
use crate::calibrate::play::MatchSpec;
use crate::results::{self, GameRow, PlanRow};

/// Refuses `dir` as the output of `command` unless it is new, empty of games, or already this
/// kind of run (it holds `own`): each run rebuilds its games.csv from its own matches, so
/// another command's folder, or games from another tool, would be replaced.
pub fn claim_folder(dir: &Path, own: &str, command: &str) -> Result<()> {
    if !dir.exists() || dir.join(own).exists() {
        return Ok(());
    }
    if let Some(kind) = results::RunKind::ALL
        .into_iter()
        .find(|k| k.marker() != own && dir.join(k.marker()).exists())
    {
        return Err(CalibrateError::file(
            dir,
            format!(
                "holds {} ({}, from `skillcal {}`), not a `skillcal {command}` folder: its \
                 games would be replaced; use a new --out directory",
                kind.what(),
                kind.marker(),
                kind.command()
            ),
        ));
    }
    let nonempty = |p: &Path| std::fs::metadata(p).is_ok_and(|m| m.len() > 0);
    let subdirs = |p: &Path| std::fs::read_dir(p).is_ok_and(|mut d| d.next().is_some());
    let held: Vec<&str> = [
        ("games.csv", nonempty(&dir.join("games.csv"))),
        ("games.pgn", nonempty(&dir.join("games.pgn"))),
        ("matches/", subdirs(&dir.join("matches"))),
    ]
    .into_iter()
    .filter_map(|(f, held)| held.then_some(f))
    .collect();
    if !held.is_empty() {
        return Err(CalibrateError::file(
            dir,
            format!(
                "holds {} but no {own}: games from elsewhere, which `skillcal {command}` would \
                 replace; use a new --out directory",
                held.join(", ")
            ),
        ));
    }
    Ok(())
}

/// Writes a match's plan, `d/calibration-match.toml` (creating `d`).
pub fn write_match_spec(d: &Path, spec: &MatchSpec) -> Result<()> {
    std::fs::create_dir_all(d).map_err(|e| CalibrateError::io("create", d, e))?;
    let path = d.join("calibration-match.toml");
    let text = toml::to_string(spec)
        .map_err(|e| CalibrateError::file(&path, format!("cannot encode: {e}")))?;
    std::fs::write(&path, text).map_err(|e| CalibrateError::io("write", &path, e))
}

/// Match directories of a run in order, with their specs.
pub fn list_matches(dir: &Path) -> Result<Vec<(PathBuf, MatchSpec)>> {
    let root = dir.join("matches");
    if !root.exists() {
        return Ok(Vec::new());
    }
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .map_err(|e| CalibrateError::io("list", &root, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("calibration-match.toml").exists())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|d| {
            let path = d.join("calibration-match.toml");
            let text =
                std::fs::read_to_string(&path).map_err(|e| CalibrateError::io("read", &path, e))?;
            let spec: MatchSpec = toml::from_str(&text)
                .map_err(|e| CalibrateError::file(&path, format!("invalid: {e}")))?;
            Ok((d, spec))
        })
        .collect()
}

/// Finished games of one match directory (0 if none yet).
pub fn games_in(dir: &Path) -> Result<Vec<GameRow>> {
    let path = dir.join("games.csv");
    if !path.exists() {
        return Ok(Vec::new());
    }
    Ok(results::read_csv(&path)?)
}

/// Every game of every match of a run.
pub fn all_games(dir: &Path) -> Result<Vec<GameRow>> {
    let mut games = Vec::new();
    for (d, _) in list_matches(dir)? {
        games.extend(games_in(&d)?);
    }
    Ok(games)
}

/// `games.csv` of the run: every match's rows under one header, kept as the arena wrote them.
pub(in crate::calibrate) fn merge_games(dir: &Path) -> Result<()> {
    let parts: Vec<PathBuf> = list_matches(dir)?
        .into_iter()
        .map(|(d, _)| d.join("games.csv"))
        .collect();
    let parts: Vec<&Path> = parts.iter().map(PathBuf::as_path).collect();
    Ok(results::merge_games_csv(&parts, &dir.join("games.csv"))?)
}

/// Whether match folder `d` holds a finished game: a games.csv row, or a PGN game (a games.csv
/// the arena has yet to repair from its PGN).
fn holds_games(d: &Path) -> Result<bool> {
    let pgn = std::fs::read_to_string(d.join("games.pgn")).unwrap_or_default();
    Ok(!games_in(d)?.is_empty() || !pgn.trim().is_empty())
}

/// Whether any match of the run holds a game.
fn run_holds_games(dir: &Path) -> Result<bool> {
    for (d, _) in list_matches(dir)? {
        if holds_games(&d)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Keeps `calibrate.toml`, the config the run's games were played with: a rerun may change
/// what does not change the games (budget, goals, fit, plan), never what does (see
/// [`game_changes`]), unless the run holds no game yet.
pub(in crate::calibrate) fn check_config(cfg: &CalibrationConfig, dir: &Path) -> Result<()> {
    results::keep_config(
        &dir.join("calibrate.toml"),
        cfg,
        "a calibration",
        || run_holds_games(dir).map_err(|e| e.to_string()),
        game_changes,
    )?;
    Ok(())
}

/// Drops the planned matches of a run that holds no game yet, with its `plan.csv`: they were
/// planned (and their engines written) from a config whose error stopped the first batch, and
/// the config the run is resumed with plans afresh.
pub(in crate::calibrate) fn drop_unplayed(dir: &Path) -> Result<()> {
    if run_holds_games(dir)? {
        return Ok(());
    }
    for (d, _) in list_matches(dir)? {
        std::fs::remove_dir_all(&d).map_err(|e| CalibrateError::io("remove", &d, e))?;
    }
    let plan = dir.join("plan.csv");
    if plan.exists() {
        std::fs::remove_file(&plan).map_err(|e| CalibrateError::io("remove", &plan, e))?;
    }
    Ok(())
}

pub(in crate::calibrate) fn spec_done(d: &Path, spec: &MatchSpec) -> Result<bool> {
    Ok(spec.done_with(&games_in(d)?))
}

/// Appends the match `d` to the run's `plan.csv`.
pub(in crate::calibrate) fn append_plan_log(
    cfg: &CalibrationConfig,
    dir: &Path,
    batch: u32,
    d: &Path,
    spec: &MatchSpec,
    reason: &str,
    estimate: &str,
) -> Result<()> {
    let first = &spec.engines[0];
    let row = PlanRow {
        batch,
        match_dir: d
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned(),
        player: first.name.clone(),
        knobs: parse_subject(&first.name)
            .map(|t| knobs_label(&cfg.knobs_at(t)))
            .unwrap_or_default(),
        estimate: estimate.to_string(),
        opponents: spec.engines[1..]
            .iter()
            .map(|e| e.name.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        games_per_opponent: spec.games_per_opponent,
        reason: reason.to_string(),
    };
    Ok(results::append_csv(&dir.join("plan.csv"), &row)?)
}
