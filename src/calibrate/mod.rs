//! Calibration: plan games, fit Elo against the knobs, invert into a UCI_Elo table, verify it.
//!
//! A run directory holds `calibrate.toml` (the config it was started with), one subdirectory per
//! match under `matches/` (`b003-01/calibration-match.toml` is the plan of that match, written before it is
//! played; the arena's `games.csv` / `games.pgn` beside it), `plan.csv` (why each match was
//! chosen), and the results: `games.csv` (every game), `fit_curve.csv`, `fit_points.csv`,
//! `pool.csv`, `table_details.csv`, `uci_elo_table.csv`, `summary.toml`, the report and plots.
//! Rerunning the same command resumes: unfinished matches are completed (the arena resumes
//! them), then planning continues from all games so far.

pub mod arena_glue;
pub mod config;
pub mod fit;
mod linalg;
pub mod plan;
pub mod pool;
pub mod runner;
pub mod sim;
pub mod table;
pub mod verify;

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context};

use config::{knobs_label, option_string, CalibrationConfig, ModelKind};
use fit::{Fit, PlayerStats, Role, Z95};
use plan::{Opponent, PlanState};
use runner::{EngineSpec, GameRunner, MatchSpec};

pub use verify::{run_verify, VerifyArgs};

use crate::report::data::{
    self, CurveRow, GameRow, KnobSummary, PointRow, PoolRow, Summary, TargetRow,
};

/// Names of subject settings in games: `skillcal_t0.4500` is the subject at t = 0.45.
pub const SUBJECT_PREFIX: &str = "skillcal_t";

pub fn subject_name(t: f64) -> String {
    format!("{SUBJECT_PREFIX}{t:.4}")
}

pub fn parse_subject(name: &str) -> Option<f64> {
    name.strip_prefix(SUBJECT_PREFIX)?.parse().ok()
}

#[derive(clap::Args, Debug)]
pub struct CalibrateArgs {
    /// Calibration configuration (TOML), e.g. configs/default.toml.
    pub config: PathBuf,
    /// Output directory (default: results/NAME, NAME the config's name); rerunning on it resumes.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Copy the resulting table to configs/uci_elo_table.csv (the table embedded in the engine).
    #[arg(long)]
    pub install: bool,
    /// Play no new games: refit and rewrite the table and report from the games so far.
    #[arg(long)]
    pub fit_only: bool,
    /// Override the config's game budget.
    #[arg(long)]
    pub budget: Option<usize>,
}

pub fn run(args: &CalibrateArgs) -> anyhow::Result<()> {
    let mut cfg = CalibrationConfig::load(&args.config)?;
    if let Some(b) = args.budget {
        cfg.budget = b;
    }
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results").join(&cfg.name));
    let runner = arena_glue::ArenaRunner::new(&dir);
    let outcome = calibrate(
        &cfg,
        &dir,
        &runner,
        &Options {
            fit_only: args.fit_only,
            quiet: false,
        },
    )?;
    let report = crate::report::generate(&dir)?;
    eprintln!("report: {}", report.display());
    if args.install {
        let table = dir.join("uci_elo_table.csv");
        if !table.exists() {
            bail!("no table to install: {} was not written", table.display());
        }
        let dest = Path::new("configs/uci_elo_table.csv");
        std::fs::copy(&table, dest)
            .with_context(|| format!("cannot copy {} to {}", table.display(), dest.display()))?;
        eprintln!("installed {} as {}", table.display(), dest.display());
    }
    if !outcome.all_met {
        eprintln!("note: not every target met the precision goal (see table_details.csv)");
    }
    Ok(())
}

#[derive(Debug, Clone, Default)]
pub struct Options {
    pub fit_only: bool,
    pub quiet: bool,
}

#[derive(Debug, Clone)]
pub struct Outcome {
    pub games: usize,
    pub batches: u32,
    pub all_met: bool,
    pub fit: Option<Fit>,
    pub targets: Vec<TargetRow>,
}

/// The players of a run and how each is rated.
pub struct Players {
    pub names: Vec<String>,
    pub roles: Vec<Role>,
    pub index: HashMap<String, usize>,
}

/// Pool members first (in config order), then every subject setting seen in the games.
pub fn players(cfg: &CalibrationConfig, games: &[GameRow]) -> Players {
    let mut names = Vec::new();
    let mut roles = Vec::new();
    for m in &cfg.pool.members {
        names.push(m.name.clone());
        roles.push(match m.elo {
            Some(mean) => Role::Anchored {
                mean,
                sd: m.sd.unwrap_or(cfg.pool.anchor_sd),
            },
            None => Role::Free,
        });
    }
    let mut subjects: Vec<f64> = games
        .iter()
        .flat_map(|g| [&g.white, &g.black])
        .filter_map(|n| parse_subject(n))
        .collect();
    subjects.sort_by(f64::total_cmp);
    subjects.dedup();
    for t in subjects {
        names.push(subject_name(t));
        roles.push(Role::Subject(t));
    }
    let index = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), i))
        .collect();
    Players {
        names,
        roles,
        index,
    }
}

/// Fits of all games so far: the curve and the per-setting ratings.
pub struct Analysis {
    pub players: Players,
    pub stats: Vec<PlayerStats>,
    pub curve: Option<Fit>,
    pub points: Option<Fit>,
    pub notes: Vec<String>,
}

pub fn analyse(cfg: &CalibrationConfig, games: &[GameRow]) -> anyhow::Result<Analysis> {
    let players = players(cfg, games);
    let (tallies, stats) = fit::tally_games(games, &players.index)?;
    let mut notes = Vec::new();
    let has_subject = players.roles.iter().any(|r| matches!(r, Role::Subject(_)));
    let mut curve = None;
    if has_subject {
        // The configured form, or the next simpler one while a form is not increasing.
        let mut model = cfg.fit.model;
        loop {
            match fit::fit(&players.roles, &tallies, model) {
                Ok(f) if !f.monotone() && model.simpler().is_some() => {
                    let next = model.simpler().expect("checked");
                    notes.push(format!(
                        "the {} curve is not increasing on the whole path; the {} form is used",
                        model.name(),
                        next.name()
                    ));
                    model = next;
                    continue;
                }
                Ok(f) => curve = Some(f),
                Err(e) => notes.push(format!("curve fit failed: {e:#}")),
            }
            break;
        }
    }
    let free: Vec<Role> = players
        .roles
        .iter()
        .map(|r| match r {
            Role::Subject(_) => Role::Free,
            other => other.clone(),
        })
        .collect();
    let points = if has_subject {
        fit::fit(&free, &tallies, ModelKind::Linear).ok()
    } else {
        None
    };
    if let Some(c) = &curve {
        if !c.monotone() {
            notes.push("the fitted curve is not increasing: no table can be inverted yet".into());
        }
    }
    Ok(Analysis {
        players,
        stats,
        curve,
        points,
        notes,
    })
}

/// Engine of pool member j.
pub fn pool_engine(cfg: &CalibrationConfig, j: usize) -> EngineSpec {
    let m = &cfg.pool.members[j];
    let mut options: Vec<(String, String)> = cfg
        .pool
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
            .or_else(|| cfg.pool.command.clone())
            .unwrap_or_default(),
        args: m.args.clone().unwrap_or_else(|| cfg.pool.args.clone()),
        options,
        limits: m.limits.clone().unwrap_or_else(|| cfg.pool.limits.clone()),
    }
}

/// Engine of the subject at strength t: its fixed options, then the path's knobs.
pub fn subject_engine(cfg: &CalibrationConfig, t: f64) -> EngineSpec {
    let knobs = cfg.knobs_at(t);
    let mut options: Vec<(String, String)> = cfg
        .subject
        .options
        .iter()
        .filter(|(k, _)| !knobs.iter().any(|(n, _)| n == *k))
        .map(|(k, v)| (k.clone(), option_string(v)))
        .collect();
    options.extend(knobs.iter().map(|(k, v)| (k.clone(), config::fmt_num(*v))));
    EngineSpec {
        name: subject_name(t),
        command: cfg
            .subject
            .command
            .clone()
            .unwrap_or_else(|| "builtin".into()),
        args: cfg.subject.args.clone(),
        options,
        limits: cfg.subject.limits.clone(),
    }
}

/// A well-mixed seed per match (splitmix64).
pub fn match_seed(seed: u64, batch: u32, j: usize) -> u64 {
    let mut z = seed
        .wrapping_add((batch as u64) << 32)
        .wrapping_add(j as u64)
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

pub fn match_spec(
    cfg: &CalibrationConfig,
    engines: Vec<EngineSpec>,
    games: usize,
    seed: u64,
) -> MatchSpec {
    MatchSpec {
        engines,
        games_per_opponent: games,
        seed,
        concurrency: cfg.concurrency,
        openings: cfg.openings.file.clone(),
        openings_order: cfg.openings.order.clone(),
        openings_plies: cfg.openings.plies,
        adjudication: cfg.adjudication.clone(),
    }
}

/// Match directories of a run in order, with their specs.
pub fn list_matches(dir: &Path) -> anyhow::Result<Vec<(PathBuf, MatchSpec)>> {
    let root = dir.join("matches");
    if !root.exists() {
        return Ok(Vec::new());
    }
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .with_context(|| format!("cannot list {}", root.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("calibration-match.toml").exists())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|d| {
            let path = d.join("calibration-match.toml");
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let spec: MatchSpec =
                toml::from_str(&text).with_context(|| format!("{}: invalid", path.display()))?;
            Ok((d, spec))
        })
        .collect()
}

/// Finished games of one match directory (0 if none yet).
pub fn games_in(dir: &Path) -> anyhow::Result<Vec<GameRow>> {
    let path = dir.join("games.csv");
    if !path.exists() {
        return Ok(Vec::new());
    }
    data::read_csv(&path)
}

/// Every game of every match of a run.
pub fn all_games(dir: &Path) -> anyhow::Result<Vec<GameRow>> {
    let mut games = Vec::new();
    for (d, _) in list_matches(dir)? {
        games.extend(games_in(&d)?);
    }
    Ok(games)
}

/// `games.csv` of the run: every match's rows under one header, kept as the arena wrote them.
fn merge_games(dir: &Path) -> anyhow::Result<()> {
    let mut out = String::new();
    let mut header = false;
    for (d, _) in list_matches(dir)? {
        let path = d.join("games.csv");
        if !path.exists() {
            continue;
        }
        let text = std::fs::read_to_string(&path)?;
        let mut lines = text.lines();
        if let Some(h) = lines.next() {
            if !header {
                out.push_str(h);
                out.push('\n');
                header = true;
            }
        }
        for l in lines.filter(|l| !l.trim().is_empty()) {
            out.push_str(l);
            out.push('\n');
        }
    }
    let path = dir.join("games.csv");
    std::fs::write(&path, out).with_context(|| format!("cannot write {}", path.display()))
}

fn check_config(cfg: &CalibrationConfig, dir: &Path) -> anyhow::Result<()> {
    let path = dir.join("calibrate.toml");
    let text = toml::to_string(cfg)?;
    if path.exists() {
        let old = std::fs::read_to_string(&path)?;
        let prev: CalibrationConfig = toml::from_str(&old)
            .with_context(|| format!("{}: cannot read the run's config", path.display()))?;
        if prev.path != cfg.path {
            bail!(
                "{} was started with a different strength path ([[path]]); its games would mean other settings. Use a new --out directory.",
                dir.display()
            );
        }
        let names = |c: &CalibrationConfig| -> Vec<String> {
            c.pool.members.iter().map(|m| m.name.clone()).collect()
        };
        if names(&prev) != names(cfg) {
            bail!(
                "{} was started with a different reference pool; use a new --out directory",
                dir.display()
            );
        }
    }
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
}

fn spec_done(d: &Path, spec: &MatchSpec) -> anyhow::Result<bool> {
    Ok(games_in(d)?.len() >= spec.planned_games())
}

/// Runs (or resumes) a calibration into `dir` with `runner`, then writes every result file.
pub fn calibrate(
    cfg: &CalibrationConfig,
    dir: &Path,
    runner: &dyn GameRunner,
    opts: &Options,
) -> anyhow::Result<Outcome> {
    std::fs::create_dir_all(dir.join("matches"))
        .with_context(|| format!("cannot create {}", dir.display()))?;
    check_config(cfg, dir)?;
    let start = Instant::now();
    let mut batch: u32 = 0;
    let existing = list_matches(dir)?;
    if !opts.fit_only {
        for (d, spec) in &existing {
            if !spec_done(d, spec)? {
                if !opts.quiet {
                    eprintln!("resuming {}", d.display());
                }
                runner.run(spec, d)?;
            }
        }
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
    let games_at_start = all_games(dir)?.len();
    loop {
        let games = all_games(dir)?;
        let analysis = analyse(cfg, &games)?;
        if opts.fit_only {
            break;
        }
        let pool_elo = pool_estimates(cfg, &analysis);
        let state = PlanState {
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
        };
        let mut plans = match plan::next_batch(cfg, &state) {
            Some(p) => p,
            None => break,
        };
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
            let est = p
                .estimate
                .map(|e| format!("{e:.0}"))
                .unwrap_or_else(|| "?".into());
            specs.push((
                p.reason.clone(),
                match_spec(cfg, engines, p.games_per_opponent, 0),
                est,
            ));
        }
        // every plan is on disk before any game is played, so a kill mid-batch resumes it
        let mut dirs = Vec::new();
        for (j, (reason, spec, est)) in specs.iter_mut().enumerate() {
            spec.seed = match_seed(cfg.seed, batch, j);
            let d = dir
                .join("matches")
                .join(format!("b{batch:03}-{:02}", j + 1));
            std::fs::create_dir_all(&d)?;
            std::fs::write(d.join("calibration-match.toml"), toml::to_string(spec)?)?;
            append_plan_log(cfg, dir, batch, &d, spec, reason, est)?;
            dirs.push(d);
        }
        let planned: usize = specs.iter().map(|s| s.1.planned_games()).sum();
        if !opts.quiet {
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
            let played = games.len() - games_at_start;
            let eta = if played > 0 {
                let per = start.elapsed().as_secs_f64() / played as f64;
                format!(
                    ", ETA at most {:.0} min for the budget",
                    per * (cfg.budget.saturating_sub(games.len())) as f64 / 60.0
                )
            } else {
                String::new()
            };
            eprintln!(
                "batch {batch}: {} matches, {planned} games; {} / {} games so far{worst}{eta}",
                specs.len(),
                games.len(),
                cfg.budget
            );
        }
        for ((_, spec, _), d) in specs.iter().zip(&dirs) {
            runner.run(spec, d)?;
        }
        batch += 1;
    }
    write_results(cfg, dir, batch)
}

/// Games of the pool ladder (adjacent members against each other), played in batch 0.
fn ladder_games(cfg: &CalibrationConfig, batch: u32) -> usize {
    if batch == 0 {
        cfg.plan.pool_games * cfg.pool.members.len().saturating_sub(1)
    } else {
        0
    }
}

/// Current rating of each pool member for planning: fitted when the fit has one, else the
/// anchor; an unanchored member without games has none (its fitted value is only the prior).
fn pool_estimates(cfg: &CalibrationConfig, a: &Analysis) -> Vec<Option<f64>> {
    (0..cfg.pool.members.len())
        .map(|j| {
            let m = &cfg.pool.members[j];
            if m.elo.is_none() && a.stats.get(j).is_none_or(|s| s.games == 0) {
                return None;
            }
            match (&a.curve, &a.points) {
                (Some(f), _) | (None, Some(f)) => Some(f.players[j].elo),
                _ => m.elo,
            }
        })
        .collect()
}

fn append_plan_log(
    cfg: &CalibrationConfig,
    dir: &Path,
    batch: u32,
    d: &Path,
    spec: &MatchSpec,
    reason: &str,
    estimate: &str,
) -> anyhow::Result<()> {
    let path = dir.join("plan.csv");
    let new = !path.exists();
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    if new {
        writeln!(
            f,
            "batch,match,player,knobs,estimate,opponents,games_per_opponent,reason"
        )?;
    }
    let first = &spec.engines[0];
    let knobs = parse_subject(&first.name)
        .map(|t| knobs_label(&cfg.knobs_at(t)))
        .unwrap_or_default();
    let opps: Vec<&str> = spec.engines[1..].iter().map(|e| e.name.as_str()).collect();
    writeln!(
        f,
        "{batch},{},{},{knobs},{estimate},{},{},\"{}\"",
        d.file_name().unwrap_or_default().to_string_lossy(),
        first.name,
        opps.join(" "),
        spec.games_per_opponent,
        reason.replace('"', "'")
    )?;
    Ok(())
}

/// Writes `games.csv`, the fit CSVs, the table and `summary.toml` from all games of the run.
pub fn write_results(cfg: &CalibrationConfig, dir: &Path, batches: u32) -> anyhow::Result<Outcome> {
    merge_games(dir)?;
    let games = all_games(dir)?;
    let a = analyse(cfg, &games)?;
    let mut notes = a.notes.clone();
    let scale = if cfg.pool.scale.is_empty() {
        "the anchors' scale (logistic Elo, anchors as given in the config)".to_string()
    } else {
        cfg.pool.scale.clone()
    };
    // pool
    let fit_for_pool = a.curve.as_ref().or(a.points.as_ref());
    let pool_rows: Vec<PoolRow> = cfg
        .pool
        .members
        .iter()
        .enumerate()
        .map(|(j, m)| {
            let (elo, lo, hi) = match fit_for_pool {
                Some(f) => (f.players[j].elo, f.players[j].lower(), f.players[j].upper()),
                None => {
                    let e = m.elo.unwrap_or(f64::NAN);
                    (e, e, e)
                }
            };
            PoolRow {
                name: m.name.clone(),
                anchor: m.elo,
                anchor_sd: m.elo.map(|_| m.sd.unwrap_or(cfg.pool.anchor_sd)),
                elo,
                lower: lo,
                upper: hi,
                games: a.stats.get(j).map(|s| s.games).unwrap_or(0),
            }
        })
        .collect();
    data::write_csv(&dir.join("pool.csv"), &pool_rows)?;
    // per-setting points with isotonic regression and residuals
    let mut point_rows = Vec::new();
    if let Some(pf) = &a.points {
        let idx: Vec<(usize, f64)> = a
            .players
            .roles
            .iter()
            .enumerate()
            .filter_map(|(i, r)| match r {
                Role::Subject(t) => Some((i, *t)),
                _ => None,
            })
            .collect();
        let ys: Vec<f64> = idx.iter().map(|(i, _)| pf.players[*i].elo).collect();
        let ws: Vec<f64> = idx
            .iter()
            .map(|(i, _)| 1.0 / pf.players[*i].sd.powi(2).max(1e-6))
            .collect();
        let iso = fit::isotonic(&ys, &ws);
        for (k, (i, t)) in idx.iter().enumerate() {
            let p = &pf.players[*i];
            let s = &a.stats[*i];
            let (curve, csd) = a
                .curve
                .as_ref()
                .map(|c| (c.elo(*t), c.elo_sd(*t)))
                .unwrap_or((f64::NAN, f64::NAN));
            let residual = p.elo - curve;
            point_rows.push(PointRow {
                name: a.players.names[*i].clone(),
                t: *t,
                knobs: knobs_label(&cfg.knobs_at(*t)),
                games: s.games,
                score: if s.games > 0 {
                    s.score / s.games as f64
                } else {
                    f64::NAN
                },
                draw_rate: if s.games > 0 {
                    s.draws as f64 / s.games as f64
                } else {
                    f64::NAN
                },
                elo: p.elo,
                lower: p.lower(),
                upper: p.upper(),
                isotonic: iso[k],
                curve,
                residual,
                z: residual / (p.sd.powi(2) + csd.powi(2)).sqrt(),
            });
        }
    }
    data::write_csv(&dir.join("fit_points.csv"), &point_rows)?;
    let isotonic_max_z = point_rows
        .iter()
        .map(|p| (p.isotonic - p.curve).abs() / ((p.upper - p.lower) / (2.0 * Z95)))
        .filter(|x| x.is_finite())
        .fold(0.0, f64::max);
    let zs: Vec<f64> = point_rows
        .iter()
        .map(|p| p.z)
        .filter(|z| z.is_finite())
        .collect();
    let residual_chi2: f64 = zs.iter().map(|z| z * z).sum();
    let n_theta = a.curve.as_ref().map(|c| c.theta.len()).unwrap_or(2);
    let residual_p = if zs.len() > n_theta {
        use statrs::distribution::{ChiSquared, ContinuousCDF};
        ChiSquared::new((zs.len() - n_theta) as f64)
            .map(|d| 1.0 - d.cdf(residual_chi2))
            .unwrap_or(f64::NAN)
    } else {
        f64::NAN
    };
    let isotonic_max_gap = point_rows
        .iter()
        .map(|p| (p.isotonic - p.curve).abs())
        .filter(|x| x.is_finite())
        .fold(0.0, f64::max);
    // curve, table
    let mut curve_rows = Vec::new();
    let mut targets = Vec::new();
    if let Some(c) = &a.curve {
        for i in 0..=100 {
            let t = i as f64 / 100.0;
            let (e, sd) = (c.elo(t), c.elo_sd(t));
            curve_rows.push(CurveRow {
                t,
                knobs: knobs_label(&cfg.knobs_at(t)),
                elo: e,
                lower: e - Z95 * sd,
                upper: e + Z95 * sd,
            });
        }
        match table::invert_targets(cfg, c) {
            Some(rows) => {
                let text = table::table_csv(cfg, c, &rows, &scale);
                table::write_table(
                    &dir.join("uci_elo_table.csv"),
                    &text,
                    table::is_builtin(cfg),
                )?;
                targets = rows;
            }
            None => notes.push("no table written: the curve is not increasing".into()),
        }
    } else {
        notes.push("no curve: no subject games yet".into());
    }
    data::write_csv(&dir.join("fit_curve.csv"), &curve_rows)?;
    data::write_csv(&dir.join("table_details.csv"), &targets)?;
    let all_met = !targets.is_empty() && targets.iter().all(|t| t.precision_met || t.range != "ok");
    let model = a.curve.as_ref().map(|c| c.model).unwrap_or(cfg.fit.model);
    let summary = Summary {
        name: cfg.name.clone(),
        scale,
        model: format!("{model:?}").to_lowercase(),
        formula: fit::model_formula(model).into(),
        theta: a
            .curve
            .as_ref()
            .map(|c| c.theta.clone())
            .unwrap_or_default(),
        dispersion: a.curve.as_ref().map(|c| c.dispersion).unwrap_or(1.0),
        games: games.len() as u64,
        budget: cfg.budget as u64,
        batches,
        precision: cfg.precision,
        lowest_anchor: cfg.lowest_anchor(),
        knobs: cfg
            .path
            .iter()
            .map(|k| KnobSummary {
                name: k.knob.clone(),
                from: k.from,
                to: k.to,
                scale: k.scale_name().into(),
            })
            .collect(),
        monotone: a.curve.as_ref().is_some_and(|c| c.monotone()),
        isotonic_max_gap,
        isotonic_max_z,
        residual_chi2,
        residual_points: zs.len() as u32,
        residual_p,
        notes,
    };
    data::write_summary(dir, &summary)?;
    Ok(Outcome {
        games: games.len(),
        batches,
        all_met,
        fit: a.curve,
        targets,
    })
}
