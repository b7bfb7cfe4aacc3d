//! `skillcal match --store`: the match's units enqueued (or a run of the same match and folder
//! found unfinished and waited for again), a progress line while workers play them (games
//! done, workers running, ETA), then the games exported into the match's folder, where the
//! file path's summary reads them.

use std::path::{Path, PathBuf};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tokio::time::Instant;

use super::db::Db;
use super::error::{Result, StoreError};
use super::export::{read_run, write_folder};
use super::queue::{self, Progress};
use super::schema;
use crate::arena::{self, plan_units, preflight_if_local, MatchConfig, MatchSummary, RunOptions};

/// How the coordinator waits.
#[derive(Clone, Debug)]
pub struct WaitOptions {
    /// Show the progress bar on a terminal (a plain line now and then otherwise).
    pub progress: bool,
    /// How long to keep trying to reach a lost server.
    pub reconnect: Duration,
}

/// Plays the match through the store into `out` and returns the file path's summary of it.
pub fn run_match(
    cfg: &MatchConfig,
    out: &Path,
    url: &str,
    run_opts: &RunOptions,
    wait: &WaitOptions,
) -> Result<MatchSummary> {
    let played = play_matches(&[(cfg.clone(), out.to_path_buf())], url, run_opts, wait)?;
    // the file path reads the exported folder: every game is there, none is played
    let opts = RunOptions {
        progress: false,
        ..run_opts.clone()
    };
    let mut summary = arena::run_match(cfg, out, &opts)?;
    summary.played = played;
    Ok(summary)
}

/// Plays matches through the store, each into its folder: every match's units are enqueued
/// first (so workers play them all at once), then each is waited for and exported. A folder
/// that already holds its match's games is left as it is; a match enqueued before for the same
/// folder and config (a coordinator started again) is waited for, not enqueued again. Returns
/// the games exported.
pub fn play_matches(
    matches: &[(MatchConfig, PathBuf)],
    url: &str,
    run_opts: &RunOptions,
    wait: &WaitOptions,
) -> Result<usize> {
    let mut todo = Vec::new();
    for (cfg, out) in matches {
        cfg.validate()?;
        if cfg.sprt.is_some() {
            return Err(StoreError::Other(
                "--store: a match with [sprt] stops on its games' order, which workers do not \
                 keep; run it without --store"
                    .into(),
            ));
        }
        let units = plan_units(cfg, run_opts.book_source.as_deref())?;
        let planned: usize = units.iter().map(|u| u.games.len()).sum();
        if games_in(out) >= planned {
            continue;
        }
        let config = toml::to_string(cfg)
            .map_err(|e| StoreError::Other(format!("cannot write the match config: {e}")))?;
        let label = std::path::absolute(out)
            .unwrap_or_else(|_| out.clone())
            .display()
            .to_string();
        todo.push((cfg, out, units, config, label));
    }
    if todo.is_empty() {
        return Ok(0);
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| StoreError::Other(format!("cannot start the tokio runtime: {e}")))?;
    let stored = rt.block_on(async {
        let mut db = Db::connect(url).await?;
        db.set_reconnect(wait.reconnect);
        schema::check(&mut db).await?;
        let mut runs = Vec::new();
        for (cfg, _, units, config, label) in &todo {
            let run = match queue::find_run(&mut db, "match", label, config).await? {
                Some(run) => {
                    eprintln!("run {run} ({label}): enqueued before, waiting for it");
                    run
                }
                None => {
                    if !preflight_if_local(cfg, run_opts).await? {
                        eprintln!(
                            "an engine of {label} is not on this machine: the workers check them"
                        );
                    }
                    let run =
                        queue::enqueue(&mut db, "match", label, config, cfg.seed, units).await?;
                    let n: usize = units.iter().map(|u| u.games.len()).sum();
                    eprintln!(
                        "run {run} ({label}): {n} games enqueued in the store at {}",
                        db.at
                    );
                    run
                }
            };
            runs.push(run);
        }
        let mut stored = Vec::new();
        for run in runs {
            wait_for(&mut db, run, wait).await?;
            stored.push(read_run(&mut db, run).await?);
        }
        Ok::<_, StoreError>(stored)
    })?;
    drop(rt);
    let mut games = 0;
    for ((_, out, ..), run) in todo.iter().zip(&stored) {
        write_folder(run, out)?;
        games += run.games.len();
    }
    Ok(games)
}

/// Games in a folder's games.csv (0 without one).
fn games_in(dir: &Path) -> usize {
    arena::read_games_csv(&dir.join("games.csv")).map_or(0, |g| g.len())
}

/// Waits until every unit of the run is done, showing progress and refusals.
pub async fn wait_for(db: &mut Db, run: i64, opts: &WaitOptions) -> Result<Progress> {
    let first = queue::progress(db, run).await?;
    let pb = bar(opts.progress, first.units);
    let started = Instant::now();
    let start_games = first.games_done;
    let mut shown_refusals: Vec<(i64, String)> = Vec::new();
    let mut last_line = Instant::now();
    let mut p = first;
    loop {
        pb.set_length(p.units.max(1) as u64);
        pb.set_position(p.units_done as u64);
        let msg = line(&p, started, start_games);
        pb.set_message(msg.clone());
        if pb.is_hidden() && last_line.elapsed() >= Duration::from_secs(10) {
            eprintln!("run {run}: {msg}");
            last_line = Instant::now();
        }
        for r in &p.refusals {
            if !shown_refusals.contains(r) {
                let text = format!("run {run}, unit {} refused: {}", r.0, r.1);
                if pb.is_hidden() {
                    eprintln!("{text}");
                } else {
                    pb.println(text);
                }
                shown_refusals.push(r.clone());
            }
        }
        if p.units_done == p.units {
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        p = queue::progress(db, run).await?;
    }
    pb.finish_and_clear();
    eprintln!("run {run}: {}", line(&p, started, start_games));
    Ok(p)
}

/// `N games done, K workers running, ETA 1m 20s`.
fn line(p: &Progress, started: Instant, start_games: i64) -> String {
    let per_unit = if p.units_done > 0 {
        p.games_done as f64 / p.units_done as f64
    } else {
        2.0
    };
    let left = (p.units - p.units_done) as f64 * per_unit;
    let rate = (p.games_done - start_games) as f64 / started.elapsed().as_secs_f64().max(1e-3);
    let eta = if left <= 0.0 {
        "done".to_string()
    } else if rate > 0.0 {
        let s = (left / rate).round() as u64;
        format!("ETA {}m {:02}s", s / 60, s % 60)
    } else {
        "ETA unknown".to_string()
    };
    format!(
        "{} games done ({}/{} units), {} workers running, {eta}",
        p.games_done, p.units_done, p.units, p.workers_running
    )
}

fn bar(show: bool, len: i64) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(len.max(1) as u64), ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:25}] {msg}")
            .expect("static template")
            .progress_chars("=> "),
    );
    pb
}
