//! The pool measurement loop: resume, plan a batch, play it, refit; then write the files.

use std::path::Path;

use super::fit::{fit, PoolFit};
use super::output::write_results;
use super::plan::{first_ladder, forecast, next_batch, Forecast, PlannedMatch};
use crate::calibrate::config::PoolRunConfig;
use crate::calibrate::error::{CalibrateError, Result};
use crate::calibrate::play::member_engine;
use crate::calibrate::play::{GameRunner, MatchSpec};
use crate::calibrate::run::list_matches;
use crate::calibrate::run::match_seed;
use crate::calibrate::run::{all_games, claim_folder, write_match_spec};
use crate::calibrate::run::{CostSample, GameCost};
use crate::rating::{self, Game};
use crate::results::{self, PoolPlanRow};

/// Options of one run.
#[derive(Debug, Clone, Default)]
pub struct PoolOptions {
    /// Refit and rewrite the results only.
    pub fit_only: bool,
    pub quiet: bool,
}

/// What a run ended with.
#[derive(Debug, Clone)]
pub struct PoolOutcome {
    pub games: usize,
    pub all_met: bool,
    pub fit: PoolFit,
}

/// The run's games: those the fit rates, and how many were played by retired members
/// (`pool.retired`), which stay in their matches but rate no one.
fn load_all(cfg: &PoolRunConfig, dir: &Path) -> Result<(Vec<Game>, usize)> {
    let mut games = Vec::new();
    for (d, _) in list_matches(dir)? {
        let path = d.join("games.csv");
        if path.exists() {
            games.extend(rating::load_games(&[&path], &Default::default())?);
        }
    }
    let all = games.len();
    let retired = |name: &String| cfg.pool.retired.contains(name);
    games.retain(|g| !retired(&g.white) && !retired(&g.black));
    let left_out = all - games.len();
    Ok((games, left_out))
}

/// Keeps `pool.toml`: the games' conditions (another book or other rules would mix two pools'
/// games) and each member's engine may not change.
fn check_run_config(cfg: &PoolRunConfig, dir: &Path) -> Result<()> {
    // a path stored relative to another working directory may not resolve from here: then the
    // file's name is all there is to compare
    let same_book = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a.file_name() == b.file_name(),
    };
    let changes = |prev: &PoolRunConfig, cfg: &PoolRunConfig| {
        let mut changed = Vec::new();
        if !same_book(&prev.openings.file, &cfg.openings.file) {
            changed.push("openings.file".to_string());
        }
        if prev.openings.order != cfg.openings.order || prev.openings.plies != cfg.openings.plies {
            changed.push("openings".into());
        }
        if prev.adjudication != cfg.adjudication {
            changed.push("adjudication".into());
        }
        for (j, m) in cfg.pool.members.iter().enumerate() {
            if let Some(p) = prev.pool.members.iter().position(|o| o.name == m.name) {
                if member_engine(&prev.pool, p) != member_engine(&cfg.pool, j) {
                    changed.push(format!("member `{}`'s engine", m.name));
                }
            }
        }
        changed
    };
    crate::results::keep_config(&dir.join("pool.toml"), cfg, "a pool", || Ok(true), changes)?;
    Ok(())
}

fn batch_of(d: &Path) -> Option<u32> {
    d.file_name()?
        .to_str()?
        .strip_prefix('b')?
        .split('-')
        .next()?
        .parse()
        .ok()
}

/// A pool folder's games fitted and its result files (the page too) written.
struct Fitted {
    games: Vec<Game>,
    retired: usize,
    f: PoolFit,
    cost: GameCost,
    ahead: Option<Forecast>,
}

fn fit_and_write(cfg: &PoolRunConfig, dir: &Path) -> Result<Fitted> {
    let (games, retired) = load_all(cfg, dir)?;
    let f = fit(cfg, &games)?;
    let cost = cost(cfg, dir)?;
    let ahead = forecast(cfg, &f, &cost, FORECAST_GAMES);
    write_results(cfg, dir, &games, retired, &f, ahead.as_ref())?;
    Ok(Fitted {
        games,
        retired,
        f,
        cost,
        ahead,
    })
}

/// Refits a pool folder from its games and writes its result files and page, as
/// `skillcal pool --fit-only` does but without claiming the folder or keeping its config (the
/// folder's own `pool.toml` is `cfg`): no game is played and nothing is planned.
pub fn refit(cfg: &PoolRunConfig, dir: &Path) -> Result<PoolOutcome> {
    let _lock = crate::arena::lock_dir(dir).map_err(|e| CalibrateError::Other(e.to_string()))?;
    let Fitted { games, f, .. } = fit_and_write(cfg, dir)?;
    Ok(outcome(cfg, games.len(), f))
}

/// Plays (or resumes) the pool measurement into `dir`, then writes the pool files.
pub fn measure(
    cfg: &PoolRunConfig,
    dir: &Path,
    runner: &dyn GameRunner,
    opts: &PoolOptions,
) -> Result<PoolOutcome> {
    claim_folder(dir, "pool.toml", "pool")?;
    let matches = dir.join("matches");
    std::fs::create_dir_all(&matches).map_err(|e| CalibrateError::io("create", &matches, e))?;
    check_run_config(cfg, dir)?;
    let existing = list_matches(dir)?;
    let mut batch = existing
        .iter()
        .filter_map(|(d, _)| batch_of(d))
        .max()
        .map_or(0, |b| b + 1);
    if !opts.fit_only {
        let mut unfinished = Vec::new();
        for (d, spec) in &existing {
            let done = if d.join("games.csv").exists() {
                rating::load_games(&[d.join("games.csv")], &Default::default())?.len()
            } else {
                0
            };
            if done < spec.planned_games() {
                if !opts.quiet {
                    eprintln!("resuming {}", d.display());
                }
                unfinished.push((spec.clone(), d.clone()));
            }
        }
        runner.run_batch(&unfinished)?;
    }
    loop {
        let Fitted {
            games,
            retired,
            f,
            cost,
            ahead,
        } = fit_and_write(cfg, dir)?;
        if opts.fit_only {
            return Ok(outcome(cfg, games.len(), f));
        }
        let plan = if games.is_empty() {
            Some(first_ladder(cfg))
        } else {
            next_batch(cfg, &f, &cost)
        };
        let Some(mut plan) = plan else {
            return Ok(outcome(cfg, games.len(), f));
        };
        // the retired members' games were played: they spent the budget too
        let left = cfg.budget.saturating_sub(games.len() + retired);
        if left == 0 {
            if !opts.quiet {
                eprintln!("budget of {} games reached", cfg.budget);
            }
            return Ok(outcome(cfg, games.len(), f));
        }
        // trim the batch to the budget, whole pairs of games
        let mut room = left;
        plan.retain_mut(|m| {
            m.games = m.games.min(room - room % 2);
            room -= m.games;
            m.games > 0
        });
        if plan.is_empty() {
            return Ok(outcome(cfg, games.len(), f));
        }
        if !opts.quiet {
            let worst = (0..cfg.pool.members.len())
                .max_by(|&i, &j| f.rel_sd[i].total_cmp(&f.rel_sd[j]))
                .map(|i| {
                    format!(
                        "; widest {} ±{:.0}",
                        cfg.pool.members[i].name,
                        f.half_width(i)
                    )
                })
                .unwrap_or_default();
            let planned: usize = plan.iter().map(|m| m.games).sum();
            eprintln!(
                "pool batch {batch}: {} matches, {planned} games; {} / {} so far{worst}{}",
                plan.len(),
                games.len(),
                cfg.budget,
                ahead
                    .as_ref()
                    .map(|f| forecast_note(f, cfg.concurrency))
                    .unwrap_or_default()
            );
        }
        let mut dirs = Vec::new();
        for (j, m) in plan.iter().enumerate() {
            let spec = MatchSpec {
                engines: vec![member_engine(&cfg.pool, m.a), member_engine(&cfg.pool, m.b)],
                games_per_opponent: m.games,
                seed: match_seed(cfg.seed, batch, j),
                concurrency: cfg.concurrency,
                openings: cfg.openings.file.clone(),
                openings_order: cfg.openings.order.clone(),
                openings_plies: cfg.openings.plies,
                adjudication: cfg.adjudication.clone(),
                stop_after_sweep: None,
            };
            let d = dir
                .join("matches")
                .join(format!("b{batch:03}-{:02}", j + 1));
            write_match_spec(&d, &spec)?;
            append_plan(dir, batch, &d, m, cfg)?;
            dirs.push((spec, d));
        }
        runner.run_batch(&dirs)?;
        batch += 1;
    }
}

/// How far the forecast looks before it says the goal is out of reach.
pub const FORECAST_GAMES: usize = 100_000;

/// The forecast for the batch's log line: game time ("h of play", each game's seconds summed)
/// and the clock's, `concurrency` games at a time (a note read the first as the second).
fn forecast_note(f: &Forecast, concurrency: usize) -> String {
    if f.met {
        let h = f.seconds / 3600.0;
        format!(
            "; goal in about {} more games ({h:.1} h of play, about {:.1} h on the clock)",
            f.games,
            h / concurrency.max(1) as f64
        )
    } else {
        format!("; goal not in sight within {} more games", f.games)
    }
}

/// What each pair's games have cost so far (games.csv's `seconds`).
fn cost(cfg: &PoolRunConfig, dir: &Path) -> Result<GameCost> {
    let index = |name: &str| cfg.pool.members.iter().position(|m| m.name == name);
    let rows = all_games(dir)?;
    Ok(GameCost::new(
        cfg.pool.members.len(),
        rows.iter().filter_map(|r| {
            Some(CostSample::new(
                index(&r.white)?,
                index(&r.black)?,
                r.seconds,
                r.plies,
            ))
        }),
    ))
}

fn outcome(cfg: &PoolRunConfig, games: usize, f: PoolFit) -> PoolOutcome {
    let all_met = (0..cfg.pool.members.len()).all(|i| f.half_width(i) <= cfg.goal(i));
    PoolOutcome {
        games,
        all_met,
        fit: f,
    }
}

fn append_plan(
    dir: &Path,
    batch: u32,
    d: &Path,
    m: &PlannedMatch,
    cfg: &PoolRunConfig,
) -> Result<()> {
    let row = PoolPlanRow {
        batch,
        match_dir: d
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned(),
        a: cfg.pool.members[m.a].name.clone(),
        b: cfg.pool.members[m.b].name.clone(),
        games: m.games,
        reason: m.reason.clone(),
    };
    Ok(results::append_csv(&dir.join("plan.csv"), &row)?)
}
