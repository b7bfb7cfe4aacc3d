//! `skillcal tc-check TABLE`: the same UCI_Elo levels played at two (or more) clocks. Every
//! family is node-bounded, so a level should rate the same at 10+0.1 as at 60+0.6 unless the
//! clock cuts its node-limited searches short. A level passes when the 95% interval of its
//! ratings' difference lies within ±[`TOLERANCE`], fails when it lies beyond, and is
//! inconclusive otherwise ([`data::TcVerdict`]). The time per ply at each clock is kept beside
//! it: a search the clock stops takes less time at the faster clock, though the machine's load
//! moves it too.

use std::path::Path;

use super::levels::{self, level_engine, level_name};
use crate::arena::TimeControl;
use crate::calibrate::config::CalibrationConfig;
use crate::calibrate::config::GoLimit;
use crate::calibrate::error::{CalibrateError, Result};
use crate::calibrate::fit::Z95;
use crate::calibrate::play::GameRunner;
use crate::calibrate::run::match_seed;
use crate::results::{self as data, GameRow, TcCheckRow};

/// How far apart (Elo) a level's ratings at two clocks may be and still pass.
pub const TOLERANCE: f64 = data::TC_TOLERANCE;

/// The clocks checked by default: a fast one and one six times slower.
pub const DEFAULT_TCS: [&str; 2] = ["10+0.1", "60+0.6"];

/// The player's name at level `level` playing on clock `tc` (one player per level and clock).
pub fn tc_player(level: f64, tc: &str) -> String {
    format!("{}@{tc}", level_name(level))
}

/// The table rows nearest 1400 and 2000 (the middle and top of the usual range), once each.
pub fn default_levels(cfg: &CalibrationConfig, table: &Path) -> Result<Vec<f64>> {
    let elos = super::table::table_elos(cfg, table)?;
    if elos.is_empty() {
        return Err(CalibrateError::file(table, "the table has no rows"));
    }
    let mut out: Vec<f64> = Vec::new();
    for want in [1400.0, 2000.0] {
        let near = elos
            .iter()
            .copied()
            .min_by(|a: &f64, b: &f64| (a - want).abs().total_cmp(&(b - want).abs()))
            .unwrap_or(want);
        if !out.contains(&near) {
            out.push(near);
        }
    }
    Ok(out)
}

/// For an engine other than skillcal's own: the clock replaces the limit its table holds at
/// (`[subject] limits`), while a limit the path moves is the row's setting and stays.
fn drop_fixed_limits(cfg: &CalibrationConfig, limits: &mut crate::arena::GoLimits) {
    let moved = |l: GoLimit| cfg.path.iter().any(|k| k.limit == Some(l));
    let fixed = &cfg.subject.limits;
    if fixed.nodes.is_some() && !moved(GoLimit::Nodes) {
        limits.nodes = None;
    }
    if fixed.depth.is_some() && !moved(GoLimit::Depth) {
        limits.depth = None;
    }
    if fixed.movetime_ms.is_some() && !moved(GoLimit::Movetime) {
        limits.movetime_ms = None;
    }
}

/// The mean over `games` of the subject `name`'s per-game figure `of(game, plays_white)`,
/// over the games that have it.
fn subject_mean(
    games: &[GameRow],
    name: &str,
    of: impl Fn(&GameRow, bool) -> Option<f64>,
) -> Option<f64> {
    let xs: Vec<f64> = games
        .iter()
        .filter_map(|g| of(g, g.white == name))
        .collect();
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// A match folder's name for a clock: `/` (of `moves/base+inc`) is no file name character.
fn tc_dir(tc: &str) -> String {
    tc.replace('/', "_")
}

/// The clocks of `--tcs`: each a time control, each once, at least two. `skillcal tc-check`
/// checks them before it makes its folder and takes its lock (a bad flag left both behind).
pub fn check_tcs(tcs: &[String]) -> Result<()> {
    for (i, tc) in tcs.iter().enumerate() {
        TimeControl::parse(tc).map_err(|e| CalibrateError::Config(format!("--tcs: {e}")))?;
        if tcs[..i].contains(tc) {
            return Err(CalibrateError::Config(format!("--tcs: {tc} given twice")));
        }
    }
    if tcs.len() < 2 {
        return Err(CalibrateError::Config(
            "--tcs: give at least two time controls to compare".into(),
        ));
    }
    Ok(())
}

/// Plays every level at every clock against its pool opponents (the clock replaces the subject's
/// own limits' `tc`; opponents keep theirs), rates all (level, clock) players in one fit, and
/// writes `out/tc_check.csv`. Resumes like verify; the same openings at each clock.
pub fn tc_check(
    cfg: &CalibrationConfig,
    table: &Path,
    out: &Path,
    levels: &[f64],
    tcs: &[String],
    games: usize,
    runner: &dyn GameRunner,
) -> Result<Vec<TcCheckRow>> {
    if !table.exists() {
        return Err(CalibrateError::file(table, "the table does not exist"));
    }
    check_tcs(tcs)?;
    if levels.is_empty() {
        return Err(CalibrateError::Config("--levels: no level to check".into()));
    }
    super::table::check_levels(cfg, table, levels)?;
    crate::calibrate::run::claim_folder(out, "verified-table.csv", "tc-check")?;
    let matches = out.join("matches");
    std::fs::create_dir_all(&matches).map_err(|e| CalibrateError::io("create", &matches, e))?;
    super::table::guard_table(table, out)?;
    let mut all: Vec<GameRow> = Vec::new();
    let mut names = Vec::new();
    let mut pace = Vec::new();
    for tc in tcs {
        for (i, &level) in levels.iter().enumerate() {
            let mut engine = level_engine(cfg, table, level)?;
            engine.name = tc_player(level, tc);
            if !crate::calibrate::table::is_builtin(cfg) {
                drop_fixed_limits(cfg, &mut engine.limits);
            }
            engine.limits.tc = Some(tc.clone());
            let d = matches.join(format!("{}-{level:.0}", tc_dir(tc)));
            // the seed depends on the level alone: each clock plays the same openings
            let seed = match_seed(cfg.seed ^ 0x7c_c0c4, 2000, i);
            let played = levels::play_level(cfg, engine, level, &d, games, seed, runner)?;
            let plies: u64 = played.iter().map(|g| u64::from(g.plies)).sum();
            let seconds: f64 = played.iter().map(|g| g.seconds).sum();
            let ms = (plies > 0 && seconds > 0.0).then(|| 1000.0 * seconds / plies as f64);
            let name = tc_player(level, tc);
            let depth = subject_mean(&played, &name, |g, white| {
                if white {
                    g.white_depth
                } else {
                    g.black_depth
                }
            });
            let nodes = subject_mean(&played, &name, |g, white| {
                if white { g.white_nodes } else { g.black_nodes }.map(|n| n as f64)
            });
            pace.push((ms, depth, nodes));
            all.extend(played);
            names.push(tc_player(level, tc));
        }
    }
    let (_, first, f, stats, _) = levels::rate_levels(cfg, &names, &all)?;
    let n = f.cov.nrows();
    let mut rows = Vec::new();
    for (k, tc) in tcs.iter().enumerate() {
        for (i, &level) in levels.iter().enumerate() {
            let at = first + k * levels.len() + i;
            let reference = first + i;
            let (p, s) = (&f.players[at], &stats[at]);
            // the difference's SD from the joint covariance: both ratings lean on the same pool
            let diff = (k > 0).then(|| {
                let v = f.ratings[at].dense(n) - f.ratings[reference].dense(n);
                let sd = v.dot(&(&f.cov * &v)).max(0.0).sqrt();
                (p.elo - f.players[reference].elo, sd)
            });
            rows.push(TcCheckRow {
                level,
                tc: tc.clone(),
                measured: p.elo,
                lower: p.lower(),
                upper: p.upper(),
                games: s.games,
                score: if s.games > 0 {
                    s.score / f64::from(s.games)
                } else {
                    f64::NAN
                },
                diff: diff.map(|d| d.0),
                diff_lower: diff.map(|(d, sd)| d - Z95 * sd),
                diff_upper: diff.map(|(d, sd)| d + Z95 * sd),
                pass: diff.map(|(d, sd)| {
                    data::TcVerdict::of(d - Z95 * sd, d + Z95 * sd) == data::TcVerdict::Pass
                }),
                ms_per_ply: pace[k * levels.len() + i].0,
                depth: pace[k * levels.len() + i].1,
                nodes: pace[k * levels.len() + i].2,
            });
        }
    }
    data::write_csv(&out.join("tc_check.csv"), &rows)?;
    crate::calibrate::run::merge_games(out)?;
    Ok(rows)
}
