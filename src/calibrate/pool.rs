//! `skillcal pool`: the reference pool's own scale, measured once.
//!
//! The members (Stockfish Skill Levels as soft anchors at the PR #4341 table, Fairy-Stockfish
//! levels below them for the chain to the beginners' range) play their own ladder: each match
//! pairs two members whose current ratings are within `max_gap`, chosen where its games narrow
//! the widest member interval most (a rank-one update of the fit's covariance). The run stops
//! when every member is known to `precision` (95% half-width) relative to the anchors, or at
//! the budget. Relative to the anchors means: the uncertainty of `r_i - mean(r_anchor)`, the
//! member's place on the scale once the anchors' common level is fixed (the location the table
//! gives the scale); the uncertainty of that common level itself is the table's, not ours.
//!
//! Files in the run folder: `matches/bNNN-MM/` (one arena match each, resumable), `games.csv`
//! (all games), `pool.csv` (ratings and intervals), `pool-covariance.csv`, `pool-pairs.csv`
//! (the pairwise results, enough to refit the pool exactly) and `report.md`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

use super::config::{option_string, OpeningsConfig, PoolConfig};
use super::runner::{EngineSpec, GameRunner, MatchSpec};
use super::{list_matches, match_seed};
use crate::rating::{self, model, Anchor, Game, Intervals, RateOptions, Ratings};

/// z of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// `skillcal pool CONFIG`: the TOML schema.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PoolRunConfig {
    /// Run name; defaults to the config file's stem.
    #[serde(default)]
    pub name: String,
    /// Seed of every random choice (openings, per-game seeds).
    pub seed: u64,
    #[serde(default = "default_concurrency")]
    pub concurrency: usize,
    /// Most games the run may play.
    pub budget: usize,
    /// 95% half-width goal (Elo) of every anchored member relative to the anchors.
    pub precision: f64,
    /// Goal for members without an anchor value (the chain below the anchors): each link of a
    /// chain adds its own uncertainty, so a member several links away needs many times the
    /// games of an anchored one for the same width. Default: `precision`.
    #[serde(default)]
    pub precision_chained: Option<f64>,
    #[serde(default)]
    pub measure: MeasureConfig,
    pub pool: PoolConfig,
    pub openings: OpeningsConfig,
    /// Passed to the arena unchanged (resign / draw adjudication, maximum plies).
    #[serde(default)]
    pub adjudication: Option<toml::Table>,
}

fn default_concurrency() -> usize {
    2
}

/// `[measure]`: how the ladder is played.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct MeasureConfig {
    /// Games of one match (colour-swapped pairs on one opening): even, at least 2.
    pub games_per_pairing: usize,
    /// Members meet only within this many Elo of each other (by their current ratings).
    pub max_gap: f64,
    /// Matches planned per batch (one refit per batch).
    pub batch_matches: usize,
}

impl Default for MeasureConfig {
    fn default() -> Self {
        MeasureConfig {
            games_per_pairing: 20,
            max_gap: 300.0,
            batch_matches: 6,
        }
    }
}

impl PoolRunConfig {
    /// The 95% half-width goal of member `i`.
    pub fn goal(&self, i: usize) -> f64 {
        if self.pool.members[i].elo.is_some() {
            self.precision
        } else {
            self.precision_chained.unwrap_or(self.precision)
        }
    }

    /// Reads and checks a config; the opening book is looked up as calibration configs do
    /// (the working directory first, then the config's folder).
    pub fn load(path: &Path) -> anyhow::Result<Self> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read config {}", path.display()))?;
        let origin = path.display().to_string();
        let mut cfg: PoolRunConfig =
            toml::from_str(&text).map_err(|e| anyhow::anyhow!("{origin}: {e}"))?;
        if cfg.name.is_empty() {
            cfg.name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "pool".into());
        }
        if !cfg.openings.file.exists() {
            if let Some(alt) = path.parent().map(|d| d.join(&cfg.openings.file)) {
                if alt.exists() {
                    cfg.openings.file = alt;
                }
            }
        }
        cfg.validate(&origin)?;
        Ok(cfg)
    }

    pub fn validate(&self, origin: &str) -> anyhow::Result<()> {
        if self.concurrency == 0 {
            bail!("{origin}: key `concurrency`: must be at least 1");
        }
        if self.precision.is_nan() || self.precision <= 0.0 {
            bail!("{origin}: key `precision`: must be a positive number of Elo");
        }
        if self
            .precision_chained
            .is_some_and(|p| p.is_nan() || p <= 0.0)
        {
            bail!("{origin}: key `precision_chained`: must be a positive number of Elo");
        }
        let m = &self.measure;
        if m.games_per_pairing < 2 || !m.games_per_pairing.is_multiple_of(2) {
            bail!("{origin}: key `measure.games_per_pairing`: must be even and at least 2");
        }
        if m.max_gap.is_nan() || m.max_gap <= 0.0 {
            bail!("{origin}: key `measure.max_gap`: must be a positive number of Elo");
        }
        if m.batch_matches == 0 {
            bail!("{origin}: key `measure.batch_matches`: must be at least 1");
        }
        let p = &self.pool;
        if p.members.len() < 2 {
            bail!("{origin}: key `pool.member`: a pool needs at least two members");
        }
        if !p.members.iter().any(|m| m.elo.is_some()) {
            bail!("{origin}: key `pool.member`: at least one member needs an `elo` anchor");
        }
        let mut seen = std::collections::HashSet::new();
        for (i, m) in p.members.iter().enumerate() {
            if m.name.trim().is_empty() || m.name.starts_with(super::SUBJECT_PREFIX) {
                bail!(
                    "{origin}: key `pool.member[{i}].name`: empty or reserved name `{}`",
                    m.name
                );
            }
            if !seen.insert(m.name.as_str()) {
                bail!(
                    "{origin}: key `pool.member[{i}].name`: duplicate name `{}`",
                    m.name
                );
            }
            if m.elo.is_none() && m.guess.is_none() {
                bail!(
                    "{origin}: key `pool.member[{i}].guess`: `{}` has no `elo` anchor, so it needs \
                     a `guess` (Elo) to be placed in the first ladder",
                    m.name
                );
            }
            if m.sd.is_some_and(|s| s.is_nan() || s < 0.0) {
                bail!("{origin}: key `pool.member[{i}].sd`: must be >= 0");
            }
            if m.command.is_none() && p.command.is_none() {
                bail!("{origin}: key `pool.member[{i}].command`: no command (set `pool.command`)");
            }
        }
        if p.anchor_sd.is_nan() || p.anchor_sd < 0.0 {
            bail!("{origin}: key `pool.anchor_sd`: must be >= 0");
        }
        Ok(())
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
    }
}

/// The anchors of a pool as the rating module takes them (SD 0 = hard).
pub fn anchors(pool: &PoolConfig) -> Vec<(usize, Anchor)> {
    pool.members
        .iter()
        .enumerate()
        .filter_map(|(i, m)| {
            let elo = m.elo?;
            let sd = m.sd.unwrap_or(pool.anchor_sd);
            Some((
                i,
                if sd > 0.0 {
                    Anchor::soft(&m.name, elo, sd)
                } else {
                    Anchor::hard(&m.name, elo)
                },
            ))
        })
        .collect()
}

/// The pool fitted from its games: per member (config order) the rating, its SD relative to
/// the anchors, and the covariance used for planning.
#[derive(Debug, Clone)]
pub struct PoolFit {
    /// Fitted rating; `None` for a member not yet connected to an anchor.
    pub elo: Vec<Option<f64>>,
    /// SD of `r_i - mean(r_anchor)` (Elo); infinite when not connected.
    pub rel_sd: Vec<f64>,
    /// Covariance of the members' ratings (config order; NaN rows for unconnected members).
    pub cov: Vec<Vec<f64>>,
    pub ratings: Option<Ratings>,
}

impl PoolFit {
    pub fn half_width(&self, i: usize) -> f64 {
        Z95 * self.rel_sd[i]
    }
}

/// Weights of the contrast `r_i - mean(r_anchor)` over the members.
fn contrast(n: usize, i: usize, anchored: &[usize]) -> Vec<f64> {
    let mut c = vec![0.0; n];
    c[i] += 1.0;
    for &a in anchored {
        c[a] -= 1.0 / anchored.len() as f64;
    }
    c
}

fn quad(c: &[f64], cov: &[Vec<f64>]) -> f64 {
    let mut s = 0.0;
    for (i, ci) in c.iter().enumerate() {
        if *ci == 0.0 {
            continue;
        }
        for (j, cj) in c.iter().enumerate() {
            if *cj != 0.0 {
                s += ci * cj * cov[i][j];
            }
        }
    }
    s
}

/// Rates the pool from its games (soft anchors, Hessian intervals).
pub fn fit(cfg: &PoolRunConfig, games: &[Game]) -> anyhow::Result<PoolFit> {
    let n = cfg.pool.members.len();
    let mut out = PoolFit {
        elo: vec![None; n],
        rel_sd: vec![f64::INFINITY; n],
        cov: vec![vec![f64::NAN; n]; n],
        ratings: None,
    };
    if games.is_empty() {
        return Ok(out);
    }
    let present: std::collections::HashSet<&str> = games
        .iter()
        .flat_map(|g| [g.white.as_str(), g.black.as_str()])
        .collect();
    for name in &present {
        if !cfg.pool.members.iter().any(|m| m.name == *name) {
            bail!("pool games: player `{name}` is not a member of the configured pool");
        }
    }
    let anchors: Vec<(usize, Anchor)> = anchors(&cfg.pool)
        .into_iter()
        .filter(|(_, a)| present.contains(a.name.as_str()))
        .collect();
    if anchors.is_empty() {
        return Ok(out);
    }
    let r = rating::rate(
        games,
        &RateOptions {
            anchors: anchors.iter().map(|(_, a)| a.clone()).collect(),
            intervals: Intervals::Hessian,
            ..Default::default()
        },
    )?;
    let idx: Vec<Option<usize>> = cfg
        .pool
        .members
        .iter()
        .map(|m| r.index(&m.name).filter(|&k| r.players[k].elo.is_some()))
        .collect();
    for i in 0..n {
        let Some(ki) = idx[i] else { continue };
        out.elo[i] = r.players[ki].elo;
        for (j, kj) in idx.iter().enumerate() {
            if let Some(kj) = kj {
                out.cov[i][j] = r.cov(ki, *kj);
            }
        }
    }
    let anchored: Vec<usize> = anchors.iter().map(|(i, _)| *i).collect();
    for i in 0..n {
        if out.elo[i].is_some() {
            out.rel_sd[i] = quad(&contrast(n, i, &anchored), &out.cov).max(0.0).sqrt();
        }
    }
    out.ratings = Some(r);
    Ok(out)
}

/// Where a member stands for planning: its fitted rating, else the config's value.
fn estimate(cfg: &PoolRunConfig, f: &PoolFit, i: usize) -> f64 {
    let m = &cfg.pool.members[i];
    f.elo[i]
        .or(m.elo)
        .or(m.guess)
        .expect("validated: every member has elo or guess")
}

/// One planned match: two members (config indices) and its games.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedMatch {
    pub a: usize,
    pub b: usize,
    pub games: usize,
    pub reason: String,
}

/// The first batch: adjacent members by their configured ratings, so every member is connected.
pub fn first_ladder(cfg: &PoolRunConfig) -> Vec<PlannedMatch> {
    let n = cfg.pool.members.len();
    let mut order: Vec<(usize, f64)> = (0..n)
        .map(|i| {
            let m = &cfg.pool.members[i];
            (i, m.elo.or(m.guess).unwrap_or(0.0))
        })
        .collect();
    order.sort_by(|x, y| x.1.total_cmp(&y.1));
    order
        .windows(2)
        .map(|w| PlannedMatch {
            a: w[0].0,
            b: w[1].0,
            games: cfg.measure.games_per_pairing,
            reason: "first ladder: neighbours by configured rating".into(),
        })
        .collect()
}

/// The next batch, or `None` when every member meets the goal. Each match is chosen for the
/// member farthest from its goal, against the partner (within `max_gap`, else the nearest)
/// that lowers the pool's total excess variance most, predicted by a rank-one update.
pub fn next_batch(cfg: &PoolRunConfig, f: &PoolFit) -> Option<Vec<PlannedMatch>> {
    let n = cfg.pool.members.len();
    if f.elo.iter().any(|e| e.is_none()) {
        // someone is not connected yet: the ladder again, for the unconnected ones
        let missing: Vec<usize> = (0..n).filter(|&i| f.elo[i].is_none()).collect();
        return Some(
            first_ladder(cfg)
                .into_iter()
                .filter(|m| missing.contains(&m.a) || missing.contains(&m.b))
                .collect(),
        );
    }
    let goal_var: Vec<f64> = (0..n).map(|i| (cfg.goal(i) / Z95).powi(2)).collect();
    let anchored: Vec<usize> = anchors(&cfg.pool).iter().map(|(i, _)| *i).collect();
    let contrasts: Vec<Vec<f64>> = (0..n).map(|i| contrast(n, i, &anchored)).collect();
    let mut cov = f.cov.clone();
    let vars = |cov: &[Vec<f64>]| -> Vec<f64> { contrasts.iter().map(|c| quad(c, cov)).collect() };
    let excess =
        |v: &[f64]| -> f64 { v.iter().zip(&goal_var).map(|(x, g)| (x - g).max(0.0)).sum() };
    if vars(&cov).iter().zip(&goal_var).all(|(v, g)| v <= g) {
        return None;
    }
    let est: Vec<f64> = (0..n).map(|i| estimate(cfg, f, i)).collect();
    let games = cfg.measure.games_per_pairing;
    let mut planned: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    let mut reasons: BTreeMap<(usize, usize), String> = BTreeMap::new();
    // candidate pairs: within max_gap, plus neighbours in rating order (so no gap in the
    // ladder wider than max_gap leaves a member stranded)
    let mut candidates: Vec<(usize, usize)> = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            if (est[a] - est[b]).abs() <= cfg.measure.max_gap {
                candidates.push((a, b));
            }
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| est[x].total_cmp(&est[y]));
    for w in order.windows(2) {
        let key = (w[0].min(w[1]), w[0].max(w[1]));
        if !candidates.contains(&key) {
            candidates.push(key);
        }
    }
    for _ in 0..cfg.measure.batch_matches {
        let v = vars(&cov);
        let now = excess(&v);
        if now <= 0.0 {
            break;
        }
        let mut best: Option<(f64, (usize, usize), Covariance)> = None;
        for &(a, b) in &candidates {
            let p = model::expected_score(est[a] - est[b]);
            let info = games as f64 * model::ELO_TO_NAT.powi(2) * p * (1.0 - p);
            let c2 = rank_one(&cov, a, b, info);
            let e = excess(&vars(&c2));
            if best.as_ref().is_none_or(|x| e < x.0) {
                best = Some((e, (a, b), c2));
            }
        }
        let Some((_, key, c2)) = best else { break };
        cov = c2;
        *planned.entry(key).or_insert(0) += games;
        reasons.entry(key).or_insert_with(|| {
            let worse = if v[key.0] >= v[key.1] { key.0 } else { key.1 };
            format!(
                "{} at ±{:.0} (goal ±{:.0})",
                cfg.pool.members[worse].name,
                Z95 * v[worse].sqrt(),
                cfg.goal(worse)
            )
        });
    }
    Some(
        planned
            .into_iter()
            .map(|((a, b), games)| PlannedMatch {
                a,
                b,
                games,
                reason: reasons.remove(&(a, b)).unwrap_or_default(),
            })
            .collect(),
    )
}

/// A dense covariance matrix, rows of Elo².
type Covariance = Vec<Vec<f64>>;

/// Covariance after adding `info` (Fisher information, in Elo^-2) on `r_a - r_b`
/// (Sherman-Morrison on the precision matrix).
fn rank_one(cov: &[Vec<f64>], a: usize, b: usize, info: f64) -> Vec<Vec<f64>> {
    let n = cov.len();
    let cu: Vec<f64> = (0..n).map(|i| cov[i][a] - cov[i][b]).collect();
    let ucu = cu[a] - cu[b];
    let k = info / (1.0 + info * ucu);
    (0..n)
        .map(|i| (0..n).map(|j| cov[i][j] - k * cu[i] * cu[j]).collect())
        .collect()
}

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

fn load_all(dir: &Path) -> anyhow::Result<Vec<Game>> {
    let mut games = Vec::new();
    for (d, _) in list_matches(dir)? {
        let path = d.join("games.csv");
        if path.exists() {
            games.extend(rating::load_games(&[&path], &Default::default())?);
        }
    }
    Ok(games)
}

fn check_run_config(cfg: &PoolRunConfig, dir: &Path) -> anyhow::Result<()> {
    let path = dir.join("pool.toml");
    if path.exists() {
        let old = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let prev: PoolRunConfig = toml::from_str(&old)
            .with_context(|| format!("{}: cannot read the run's config", path.display()))?;
        for (j, m) in cfg.pool.members.iter().enumerate() {
            if let Some(p) = prev.pool.members.iter().position(|o| o.name == m.name) {
                if member_engine(&prev.pool, p) != member_engine(&cfg.pool, j) {
                    bail!(
                        "{}: member `{}` was played with other settings in this folder; use a new --out",
                        dir.display(),
                        m.name
                    );
                }
            }
        }
    }
    let text = toml::to_string(cfg).context("pool config")?;
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
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

/// Plays (or resumes) the pool measurement into `dir`, then writes the pool files.
pub fn measure(
    cfg: &PoolRunConfig,
    dir: &Path,
    runner: &dyn GameRunner,
    opts: &PoolOptions,
) -> anyhow::Result<PoolOutcome> {
    std::fs::create_dir_all(dir.join("matches"))
        .with_context(|| format!("cannot create {}", dir.join("matches").display()))?;
    check_run_config(cfg, dir)?;
    let existing = list_matches(dir)?;
    let mut batch = existing
        .iter()
        .filter_map(|(d, _)| batch_of(d))
        .max()
        .map_or(0, |b| b + 1);
    if !opts.fit_only {
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
                runner.run(spec, d)?;
            }
        }
    }
    loop {
        let games = load_all(dir)?;
        let f = fit(cfg, &games)?;
        write_results(cfg, dir, &games, &f)?;
        if opts.fit_only {
            return Ok(outcome(cfg, games.len(), f));
        }
        let plan = if games.is_empty() {
            Some(first_ladder(cfg))
        } else {
            next_batch(cfg, &f)
        };
        let Some(mut plan) = plan else {
            return Ok(outcome(cfg, games.len(), f));
        };
        let left = cfg.budget.saturating_sub(games.len());
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
                "pool batch {batch}: {} matches, {planned} games; {} / {} so far{worst}",
                plan.len(),
                games.len(),
                cfg.budget
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
            };
            let d = dir
                .join("matches")
                .join(format!("b{batch:03}-{:02}", j + 1));
            std::fs::create_dir_all(&d)
                .with_context(|| format!("cannot create {}", d.display()))?;
            let path = d.join("calibration-match.toml");
            std::fs::write(&path, toml::to_string(&spec).context("match spec")?)
                .with_context(|| format!("cannot write {}", path.display()))?;
            append_plan(dir, batch, &d, m, cfg)?;
            dirs.push((spec, d));
        }
        for (spec, d) in &dirs {
            runner.run(spec, d)?;
        }
        batch += 1;
    }
}

fn outcome(cfg: &PoolRunConfig, games: usize, f: PoolFit) -> PoolOutcome {
    let all_met = (0..cfg.pool.members.len()).all(|i| f.half_width(i) <= cfg.goal(i));
    PoolOutcome {
        games,
        all_met,
        fit: f,
    }
}

#[derive(Serialize)]
struct PlanRow<'a> {
    batch: u32,
    #[serde(rename = "match")]
    match_dir: String,
    a: &'a str,
    b: &'a str,
    games: usize,
    reason: &'a str,
}

fn append_plan(
    dir: &Path,
    batch: u32,
    d: &Path,
    m: &PlannedMatch,
    cfg: &PoolRunConfig,
) -> anyhow::Result<()> {
    let path = dir.join("plan.csv");
    let new = !path.exists();
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    let mut w = csv::WriterBuilder::new().has_headers(new).from_writer(file);
    w.serialize(PlanRow {
        batch,
        match_dir: d
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned(),
        a: &cfg.pool.members[m.a].name,
        b: &cfg.pool.members[m.b].name,
        games: m.games,
        reason: &m.reason,
    })
    .and_then(|_| w.flush().map_err(Into::into))
    .with_context(|| format!("cannot write {}", path.display()))
}

/// One row of `pool.csv`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PoolRow {
    pub name: String,
    /// The member's fitted rating on the anchors' scale.
    pub elo: Option<f64>,
    /// 95% interval relative to the anchors.
    pub lower: Option<f64>,
    pub upper: Option<f64>,
    /// SD relative to the anchors (Elo).
    pub sd: Option<f64>,
    /// The anchor value from the config (PR #4341 for Stockfish), if any, and its prior SD.
    pub anchor_elo: Option<f64>,
    pub anchor_sd: Option<f64>,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Meets the run's precision goal.
    pub met: bool,
    pub command: String,
    pub options: String,
    pub limits: String,
}

/// One row of `pool-pairs.csv`: what two members scored against each other.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PairRow {
    pub a: String,
    pub b: String,
    pub games: u32,
    pub a_wins: u32,
    pub draws: u32,
    pub b_wins: u32,
    /// Points of `a` (a draw is half).
    pub a_points: f64,
    /// Rating difference a - b from the fit, and its SD.
    pub fit_diff: Option<f64>,
    pub fit_diff_sd: Option<f64>,
}

fn limits_label(l: &crate::arena::Limits) -> String {
    toml::to_string(l)
        .map(|s| {
            s.lines()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

fn write_results(
    cfg: &PoolRunConfig,
    dir: &Path,
    games: &[Game],
    f: &PoolFit,
) -> anyhow::Result<()> {
    merge_games(dir)?;
    let pool = &cfg.pool;
    let n = pool.members.len();
    let mut rows = Vec::new();
    for i in 0..n {
        let m = &pool.members[i];
        let e = member_engine(pool, i);
        let rec = f
            .ratings
            .as_ref()
            .and_then(|r| r.get(&m.name))
            .map(|p| (p.games, p.wins, p.draws, p.losses))
            .unwrap_or((0, 0, 0, 0));
        let sd = f.elo[i].map(|_| f.rel_sd[i]);
        rows.push(PoolRow {
            name: m.name.clone(),
            elo: f.elo[i],
            lower: f.elo[i].zip(sd).map(|(e, s)| e - Z95 * s),
            upper: f.elo[i].zip(sd).map(|(e, s)| e + Z95 * s),
            sd,
            anchor_elo: m.elo,
            anchor_sd: m.elo.map(|_| m.sd.unwrap_or(pool.anchor_sd)),
            games: rec.0,
            wins: rec.1,
            draws: rec.2,
            losses: rec.3,
            met: f.half_width(i) <= cfg.goal(i),
            command: e.command.clone(),
            options: e
                .options
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join("; "),
            limits: limits_label(&e.limits),
        });
    }
    write_csv(&dir.join("pool.csv"), &rows)?;

    // covariance, config order
    let path = dir.join("pool-covariance.csv");
    let mut w = csv::Writer::from_path(&path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    let mut header = vec!["name".to_string()];
    header.extend(pool.members.iter().map(|m| m.name.clone()));
    w.write_record(&header)?;
    for i in 0..n {
        let mut rec = vec![pool.members[i].name.clone()];
        rec.extend((0..n).map(|j| {
            let v = f.cov[i][j];
            if v.is_finite() {
                format!("{v:.3}")
            } else {
                String::new()
            }
        }));
        w.write_record(&rec)?;
    }
    w.flush()
        .with_context(|| format!("cannot write {}", path.display()))?;

    // pairwise results
    let mut pairs: BTreeMap<(usize, usize), [u32; 3]> = BTreeMap::new();
    let pos = |name: &str| pool.members.iter().position(|m| m.name == name);
    for g in games {
        let (Some(w), Some(b)) = (pos(&g.white), pos(&g.black)) else {
            continue;
        };
        let (a, b, s) = if w < b {
            (w, b, g.result.white_score())
        } else {
            (b, w, 1.0 - g.result.white_score())
        };
        let t = pairs.entry((a, b)).or_insert([0; 3]);
        t[if s == 1.0 {
            0
        } else if s == 0.5 {
            1
        } else {
            2
        }] += 1;
    }
    let pair_rows: Vec<PairRow> = pairs
        .iter()
        .map(|(&(a, b), t)| {
            let d = f.elo[a].zip(f.elo[b]).map(|(x, y)| x - y);
            let sd = d.map(|_| {
                (f.cov[a][a] + f.cov[b][b] - 2.0 * f.cov[a][b])
                    .max(0.0)
                    .sqrt()
            });
            PairRow {
                a: pool.members[a].name.clone(),
                b: pool.members[b].name.clone(),
                games: t.iter().sum(),
                a_wins: t[0],
                draws: t[1],
                b_wins: t[2],
                a_points: t[0] as f64 + 0.5 * t[1] as f64,
                fit_diff: d,
                fit_diff_sd: sd,
            }
        })
        .collect();
    write_csv(&dir.join("pool-pairs.csv"), &pair_rows)?;
    let path = dir.join("report.md");
    std::fs::write(&path, report_markdown(cfg, &rows, &pair_rows, games.len()))
        .with_context(|| format!("cannot write {}", path.display()))
}

fn write_csv<T: Serialize>(path: &Path, rows: &[T]) -> anyhow::Result<()> {
    let mut w =
        csv::Writer::from_path(path).with_context(|| format!("cannot write {}", path.display()))?;
    for r in rows {
        w.serialize(r)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    w.flush()
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Reads a `pool.csv`.
pub fn read_pool_csv(path: &Path) -> anyhow::Result<Vec<PoolRow>> {
    let mut r =
        csv::Reader::from_path(path).with_context(|| format!("cannot read {}", path.display()))?;
    r.deserialize()
        .enumerate()
        .map(|(i, row)| row.with_context(|| format!("{}: line {}", path.display(), i + 2)))
        .collect()
}

/// `games.csv` of the run: every match's rows under the first match's header.
fn merge_games(dir: &Path) -> anyhow::Result<()> {
    let out_path = dir.join("games.csv");
    let mut out: Option<csv::Writer<std::fs::File>> = None;
    for (d, _) in list_matches(dir)? {
        let path = d.join("games.csv");
        if !path.exists() {
            continue;
        }
        let mut r = csv::Reader::from_path(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let header = r
            .headers()
            .with_context(|| format!("cannot read {}", path.display()))?
            .clone();
        let w = match &mut out {
            Some(w) => w,
            None => {
                let mut w = csv::Writer::from_path(&out_path)
                    .with_context(|| format!("cannot write {}", out_path.display()))?;
                w.write_record(&header)?;
                out.insert(w)
            }
        };
        for rec in r.records() {
            let rec = rec.with_context(|| format!("cannot read {}", path.display()))?;
            w.write_record(&rec)
                .with_context(|| format!("cannot write {}", out_path.display()))?;
        }
    }
    if let Some(mut w) = out {
        w.flush()
            .with_context(|| format!("cannot write {}", out_path.display()))?;
    }
    Ok(())
}

fn fmt_opt(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.0}")).unwrap_or_else(|| "-".into())
}

fn report_markdown(
    cfg: &PoolRunConfig,
    rows: &[PoolRow],
    pairs: &[PairRow],
    games: usize,
) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(s, "# Reference pool: {}\n", cfg.name);
    let met = rows.iter().filter(|r| r.met).count();
    let _ = writeln!(
        s,
        "{games} games. {met} of {} members known to ±{:.0} Elo (95%) relative to the anchors.\n",
        rows.len(),
        cfg.precision
    );
    if !cfg.pool.scale.is_empty() {
        let _ = writeln!(s, "Scale: {}\n", cfg.pool.scale);
    }
    let _ = writeln!(
        s,
        "Intervals are those of each member's place relative to the anchors' mean (the scale's \
         location, which the anchor table fixes). Members without an anchor value are rated by their \
         games alone: below the lowest anchor the scale is carried by these links.\n"
    );
    let _ = writeln!(s, "| member | anchor value | measured | 95% interval | measured - anchor | games | W-D-L | limits |");
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|");
    let mut sorted: Vec<&PoolRow> = rows.iter().collect();
    sorted.sort_by(|a, b| {
        a.elo
            .unwrap_or(f64::MIN)
            .total_cmp(&b.elo.unwrap_or(f64::MIN))
    });
    for r in &sorted {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {}-{} | {} | {} | {}-{}-{} | {} |",
            r.name,
            fmt_opt(r.anchor_elo),
            fmt_opt(r.elo),
            fmt_opt(r.lower),
            fmt_opt(r.upper),
            r.elo
                .zip(r.anchor_elo)
                .map(|(e, a)| format!("{:+.0}", e - a))
                .unwrap_or_else(|| "-".into()),
            r.games,
            r.wins,
            r.draws,
            r.losses,
            r.limits
        );
    }
    let _ = writeln!(s, "\n## Steps between neighbours\n");
    let _ = writeln!(
        s,
        "| lower | upper | measured step | ± (95%) | anchor table step |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|");
    for w in sorted.windows(2) {
        let (lo, hi) = (w[0], w[1]);
        let (Some(a), Some(b)) = (lo.elo, hi.elo) else {
            continue;
        };
        let pair = pairs
            .iter()
            .find(|p| (p.a == lo.name && p.b == hi.name) || (p.a == hi.name && p.b == lo.name));
        let sd = pair.and_then(|p| p.fit_diff_sd);
        let table = lo
            .anchor_elo
            .zip(hi.anchor_elo)
            .map(|(x, y)| format!("{:+.0}", y - x));
        let _ = writeln!(
            s,
            "| {} | {} | {:+.0} | {} | {} |",
            lo.name,
            hi.name,
            b - a,
            sd.map(|v| format!("±{:.0}", Z95 * v))
                .unwrap_or_else(|| "-".into()),
            table.unwrap_or_else(|| "-".into())
        );
    }
    let _ = writeln!(s, "\nFiles: `pool.csv` (ratings), `pool-covariance.csv`, `pool-pairs.csv` (pairwise results, enough to refit), `games.csv`, `plan.csv`, `matches/*/` (each match's games and PGN).");
    s
}

/// The run folder a `skillcal pool` command writes by default.
pub fn default_dir(cfg: &PoolRunConfig) -> PathBuf {
    PathBuf::from("results").join(&cfg.name)
}

#[derive(clap::Args, Debug)]
pub struct PoolArgs {
    /// Pool measurement config (TOML), e.g. configs/pool.toml.
    pub config: PathBuf,
    /// Run folder (default results/<name>); rerunning resumes.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Override the config's game budget.
    #[arg(long)]
    pub budget: Option<usize>,
    /// Play no games: refit and rewrite the pool files.
    #[arg(long)]
    pub fit_only: bool,
}

pub fn run(args: &PoolArgs) -> anyhow::Result<()> {
    let mut cfg = PoolRunConfig::load(&args.config)?;
    if let Some(b) = args.budget {
        cfg.budget = b;
    }
    let dir = args.out.clone().unwrap_or_else(|| default_dir(&cfg));
    let runner = super::arena_glue::ArenaRunner::new(&dir);
    let out = measure(
        &cfg,
        &dir,
        &runner,
        &PoolOptions {
            fit_only: args.fit_only,
            quiet: false,
        },
    )?;
    eprintln!(
        "{} games; pool written to {}",
        out.games,
        dir.join("pool.csv").display()
    );
    if !out.all_met {
        eprintln!(
            "note: not every member is known to ±{:.0} yet (see pool.csv, column met)",
            cfg.precision
        );
    }
    Ok(())
}
