//! The calibration loop: resume unfinished matches, then plan a batch from all games so far,
//! write every plan to disk, play it, and repeat until the budget or the precision goal stops
//! it; finally write the results.

use std::path::Path;

use super::fits::{analyse, pool_estimates, Analysis};
use super::folder::{
    all_games, append_plan_log, check_config, drop_unplayed, list_matches, spec_done,
    write_match_spec,
};
use super::outputs::{write_results, Outcome};
use super::plan::{self, Opponent, PairCost, PlanState, SettingPlan};
use super::players::{match_seed, match_spec, parse_subject, pool_engine, subject_engine};
use crate::calibrate::config::CalibrationConfig;
use crate::calibrate::error::{CalibrateError, Result};
use crate::calibrate::fit::Role;
use crate::calibrate::play::{GameRunner, MatchSpec};
use crate::results::GameRow;

#[derive(Debug, Clone, Default)]
pub struct Options {
    pub fit_only: bool,
    pub quiet: bool,
}

/// Runs (or resumes) a calibration into `dir` with `runner`, then writes every result file.
pub fn calibrate(
    cfg: &CalibrationConfig,
    dir: &Path,
    runner: &dyn GameRunner,
    opts: &Options,
) -> Result<Outcome> {
    super::folder::claim_folder(dir, "calibrate.toml", "calibrate")?;
    let matches = dir.join("matches");
    std::fs::create_dir_all(&matches).map_err(|e| CalibrateError::io("create", &matches, e))?;
    check_config(cfg, dir)?;
    if !opts.fit_only {
        drop_unplayed(dir)?;
    }
    let mut batch = resume_unfinished(cfg, dir, runner, opts)?;
    // the loop's last fit is the one the outputs are written from: the curve is fitted once
    let (games, analysis) = loop {
        let games = all_games(dir)?;
        let analysis = analyse(cfg, &games)?;
        if opts.fit_only {
            break (games, analysis);
        }
        let state = plan_state(cfg, batch, &games, &analysis);
        let plans = match plan::next_batch(cfg, &state) {
            Some(p) => p,
            None => {
                if !opts.quiet {
                    eprintln!("stopped: {}", plan::stop_reason(cfg, &state));
                }
                break (games, analysis);
            }
        };
        let mut specs = batch_specs(cfg, batch, plans);
        // every plan is on disk before any game is played, so a kill mid-batch resumes it
        let mut dirs = Vec::new();
        for (j, (reason, spec, est)) in specs.iter_mut().enumerate() {
            spec.seed = match_seed(cfg.seed, batch, j);
            let d = dir
                .join("matches")
                .join(format!("b{batch:03}-{:02}", j + 1));
            write_match_spec(&d, spec)?;
            append_plan_log(cfg, dir, batch, &d, spec, reason, est)?;
            dirs.push(d);
        }
        if !opts.quiet {
            announce_batch(cfg, batch, &specs, &games, &analysis);
        }
        let batch_matches: Vec<_> = specs
            .iter()
            .zip(dirs)
            .map(|((_, spec, _), d)| (spec.clone(), d))
            .collect();
        runner.run_batch(&batch_matches)?;
        batch += 1;
    };
    write_results(cfg, dir, batch, &games, analysis)
}

/// Plays the matches a killed run left unfinished (unless only fitting); the number of the
/// next batch.
fn resume_unfinished(
    cfg: &CalibrationConfig,
    dir: &Path,
    runner: &dyn GameRunner,
    opts: &Options,
) -> Result<u32> {
    let mut batch: u32 = 0;
    let existing = list_matches(dir)?;
    if !opts.fit_only {
        let mut unfinished = Vec::new();
        for (d, planned) in &existing {
            // at the config's concurrency and stopping rule (both choices of the plan, not of
            // the games), not the ones the match was planned with
            let spec = MatchSpec {
                concurrency: cfg.concurrency,
                stop_after_sweep: rule_for(cfg, planned),
                ..planned.clone()
            };
            if !spec_done(d, &spec)? {
                if !opts.quiet {
                    eprintln!("resuming {}", d.display());
                }
                unfinished.push((spec, d.clone()));
            }
        }
        runner.run_batch(&unfinished)?;
    }
    for (d, _) in &existing {
        if let Some(b) = d
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_prefix('b'))
            .and_then(|n| n.split('-').next())
            .and_then(|n| n.parse::<u32>().ok())
        {
            batch = batch.max(b + 1);
        }
    }
    Ok(batch)
}

/// What the planner decides the next batch from: the loop's fit, the members' ratings, the
/// games so far (the first batch's pool ladder counted) and each setting's.
fn plan_state<'a>(
    cfg: &CalibrationConfig,
    batch: u32,
    games: &[GameRow],
    analysis: &'a Analysis,
) -> PlanState<'a> {
    let pool_elo = pool_estimates(cfg, analysis);
    PlanState {
        fit: analysis.curve.as_ref(),
        pool_elo,
        // the pool ladder of the first batch comes out of the same budget
        games_played: games.len() + ladder_games(cfg, batch),
        setting_games: analysis
            .players
            .roles
            .iter()
            .zip(&analysis.stats)
            .filter_map(|(r, s)| match r {
                Role::Subject(t) => Some((*t, s.games as usize)),
                _ => None,
            })
            .collect(),
        cost: cfg
            .plan
            .per_second
            .then(|| PairCost::new(&analysis.players, games)),
    }
}

/// The batch's matches: (why, the match, the setting's estimate), the pool ladder first in
/// batch 0.
fn batch_specs(
    cfg: &CalibrationConfig,
    batch: u32,
    mut plans: Vec<SettingPlan>,
) -> Vec<(String, MatchSpec, String)> {
    let mut specs: Vec<(String, MatchSpec, String)> = Vec::new();
    if batch == 0 && cfg.plan.pool_games > 0 {
        for j in 1..cfg.pool.members.len() {
            let engines = vec![pool_engine(cfg, j - 1), pool_engine(cfg, j)];
            specs.push((
                "pool ladder".into(),
                match_spec(cfg, engines, cfg.plan.pool_games, 0),
                String::new(),
            ));
        }
    }
    for p in plans.drain(..) {
        let mut engines = vec![subject_engine(cfg, p.t)];
        for o in &p.opponents {
            engines.push(match o {
                Opponent::Pool(j) => pool_engine(cfg, *j),
                Opponent::Subject(t) => subject_engine(cfg, *t),
            });
        }
        let mut spec = match_spec(cfg, engines, p.games_per_opponent, 0);
        spec.stop_after_sweep = sweep_rule(cfg);
        let est = p
            .estimate
            .map(|e| format!("{e:.0}"))
            .unwrap_or_else(|| "?".into());
        specs.push((p.reason.clone(), spec, est));
    }
    specs
}

/// The batch's line on stderr: its matches and games, the run's so far, the widest target and
/// an estimate of the time left.
fn announce_batch(
    cfg: &CalibrationConfig,
    batch: u32,
    specs: &[(String, MatchSpec, String)],
    games: &[GameRow],
    analysis: &Analysis,
) {
    let planned: usize = specs.iter().map(|s| s.1.planned_games()).sum();
    let worst = analysis
        .curve
        .as_ref()
        .and_then(|f| plan::target_status(cfg, f))
        .and_then(|s| {
            s.into_iter()
                .max_by(|a, b| (a.2 / a.3).total_cmp(&(b.2 / b.3)))
        })
        .map(|(t, _, hw, _)| format!("; widest target {t:.0} ±{hw:.0}"))
        .unwrap_or_default();
    // The run's mean game time (games.csv's seconds, all batches) over the games played
    // at once: this process's own pace misleads after a resume, and the planner's later
    // batches lean to whichever end still misses its goal, so it is only an estimate.
    let eta = if games.is_empty() {
        String::new()
    } else {
        let per = games.iter().map(|g| g.seconds).sum::<f64>()
            / games.len() as f64
            / cfg.concurrency.max(1) as f64;
        format!(
            ", about {:.0} min for the budget at the run's mean game time",
            per * (cfg.budget.saturating_sub(games.len())) as f64 / 60.0
        )
    };
    eprintln!(
        "batch {batch}: {} matches, {planned} games; {} / {} games so far{worst}{eta}",
        specs.len(),
        games.len(),
        cfg.budget
    );
}

/// The rule a match of the run plays by: the plan's for the subject's matches, whenever they
/// were planned; the pool ladder plays its count.
fn rule_for(cfg: &CalibrationConfig, spec: &MatchSpec) -> Option<u32> {
    if parse_subject(&spec.engines[0].name).is_some() {
        sweep_rule(cfg)
    } else {
        spec.stop_after_sweep
    }
}

/// The plan's sweep rule.
fn sweep_rule(cfg: &CalibrationConfig) -> Option<u32> {
    Some(cfg.plan.stop_after_sweep).filter(|&n| n > 0)
}

/// Games of the pool ladder (adjacent members against each other), played in batch 0.
pub(in crate::calibrate) fn ladder_games(cfg: &CalibrationConfig, batch: u32) -> usize {
    if batch == 0 {
        cfg.plan.pool_games * cfg.pool.members.len().saturating_sub(1)
    } else {
        0
    }
}
