//! `skillcal verify TABLE`: fresh games of the engine with UCI_LimitStrength at several UCI_Elo
//! values against the pool; each level rated on its own (pool soft-anchored as in calibration).

use std::path::Path;

use super::table::{check_levels, engine_rows, guard_table, relocate_table};
use crate::calibrate::config::{fmt_num, CalibrationConfig};
use crate::calibrate::error::{CalibrateError, Result};
use crate::calibrate::fit::{self, Role};
use crate::calibrate::play::{EngineSpec, GameRunner};
use crate::calibrate::run::match_seed;
use crate::calibrate::run::match_spec;
use crate::calibrate::run::pool_engine;
use crate::rating::problem::Cell;
use crate::results::{self as data, GameRow, VerifyRow};

pub const VERIFY_PREFIX: &str = "skillcal_elo";

/// Each level's games by opponent (`crate::calibrate::verify::opponents`).
pub const OPPONENTS_FILE: &str = "verify_opponents.csv";

pub fn level_name(level: f64) -> String {
    format!("{VERIFY_PREFIX}{level:.0}")
}

/// The engine at UCI_Elo `level`, reading its settings from `table`: skillcal's own engine
/// loads the table itself; another engine is sent the row's settings, each knob of the path as
/// its option or its `go` limit, at the `[subject]` limits.
pub fn level_engine(cfg: &CalibrationConfig, table: &Path, level: f64) -> Result<EngineSpec> {
    if !crate::calibrate::table::is_builtin(cfg) {
        let rows = engine_rows(cfg, table)?;
        let row = rows.iter().find(|r| r.elo == level).ok_or_else(|| {
            CalibrateError::file(table, format!("no row of Elo {level} (checked before)"))
        })?;
        let mut limits = cfg.subject.limits.clone();
        let mut set = Vec::new();
        let mut names = Vec::new();
        for (k, &v) in cfg.path.iter().zip(&row.values) {
            match k.limit {
                Some(l) => l.set(&mut limits, v),
                None => {
                    names.push(k.knob.clone());
                    set.push((k.knob.clone(), fmt_num(v)));
                }
            }
        }
        return Ok(crate::calibrate::run::subject_spec(
            cfg,
            level_name(level),
            &names,
            set,
            limits,
        ));
    }
    // the table sets the path's knobs
    let knobs: Vec<String> = cfg.path.iter().map(|k| k.name()).collect();
    let table = std::fs::canonicalize(table).unwrap_or_else(|_| table.to_path_buf());
    let set = vec![
        ("StrengthTable".into(), table.display().to_string()),
        ("UCI_LimitStrength".into(), "true".into()),
        ("UCI_Elo".into(), format!("{level:.0}")),
    ];
    Ok(crate::calibrate::run::subject_spec(
        cfg,
        level_name(level),
        &knobs,
        set,
        cfg.subject.limits.clone(),
    ))
}

/// Plays every level against the pool members nearest to it and rates each level.
pub fn verify(
    cfg: &CalibrationConfig,
    table: &Path,
    out: &Path,
    levels: &[f64],
    games: usize,
    runner: &dyn GameRunner,
) -> Result<Vec<VerifyRow>> {
    if !table.exists() {
        return Err(CalibrateError::file(table, "the table does not exist"));
    }
    check_levels(cfg, table, levels)?;
    crate::calibrate::run::claim_folder(out, "verified-table.csv", "verify")?;
    let matches = out.join("matches");
    std::fs::create_dir_all(&matches).map_err(|e| CalibrateError::io("create", &matches, e))?;
    guard_table(table, out)?;
    let mut all: Vec<GameRow> = Vec::new();
    let mut rated = Vec::with_capacity(levels.len());
    let mut missing = Vec::new();
    for (i, &level) in levels.iter().enumerate() {
        let d = out
            .join("matches")
            .join(format!("v{:02}-{level:.0}", i + 1));
        let engine = level_engine(cfg, table, level)?;
        let seed = match_seed(cfg.seed ^ 0x5eed, 1000, i);
        let played = play_level(cfg, engine, level, &d, games, seed, runner)?;
        if played.is_empty() {
            // only --rate-only finds a level without games (a run stopped before it)
            missing.push(format!("{level:.0}"));
            continue;
        }
        rated.push(level);
        all.extend(played);
    }
    if rated.is_empty() {
        return Err(CalibrateError::file(
            &matches,
            format!(
                "no verification games to rate of UCI_Elo {} (--rate-only plays none)",
                missing.join(", ")
            ),
        ));
    }
    if !missing.is_empty() {
        eprintln!(
            "note: no games yet of UCI_Elo {} (--rate-only plays none): the other levels are rated",
            missing.join(", ")
        );
    }
    let levels = &rated[..];
    let names: Vec<String> = levels.iter().map(|&l| level_name(l)).collect();
    let (roles, first, f, stats, tallies) = rate_levels(cfg, &names, &all)?;
    let on_run_pool = match run_pool_roles(cfg, table, &roles)? {
        Some(r) => Some(fit::fit(
            &r,
            &tallies,
            crate::calibrate::config::ModelKind::Linear,
        )?),
        None => None,
    };
    let low = cfg.lowest_reference();
    let sd_games = conditional_sds(&f);
    let mut rows: Vec<VerifyRow> = levels
        .iter()
        .enumerate()
        .map(|(k, &target)| {
            let p = &f.players[first + k];
            let s = &stats[first + k];
            VerifyRow {
                target,
                measured: p.elo,
                lower: p.lower(),
                upper: p.upper(),
                games: s.games,
                score: if s.games > 0 {
                    s.score / s.games as f64
                } else {
                    f64::NAN
                },
                diff: p.elo - target,
                extrapolated: target < low,
                measured_run_pool: on_run_pool.as_ref().map(|g| g.players[first + k].elo),
                sd_games: sd_games[first + k],
                opponents_chi2: None,
                opponents_dof: None,
            }
        })
        .collect();
    let mut players: Vec<String> = cfg.pool.members.iter().map(|m| m.name.clone()).collect();
    players.extend(names.iter().cloned());
    let (by_opponent, tests) =
        super::opponents::opponent_rows(&players, first, levels, &f, &tallies);
    for (r, t) in rows.iter_mut().zip(tests) {
        r.opponents_chi2 = t.map(|t| t.chi2);
        r.opponents_dof = t.map(|t| t.dof);
    }
    data::write_csv(&out.join("verify.csv"), &rows)?;
    data::write_csv(&out.join(OPPONENTS_FILE), &by_opponent)?;
    crate::calibrate::run::merge_games(out)?;
    Ok(rows)
}

/// The fit of [`rate_levels`]: the roles, the first level's index, the fit, each player's
/// tally, and the cells.
pub(in crate::calibrate) type LevelFit = (
    Vec<Role>,
    usize,
    fit::CurveFit,
    Vec<fit::PlayerStats>,
    Vec<Cell>,
);

/// Plays (or resumes) `engine` at `level` against the pool members nearest to it into `dir`,
/// then, if it scored beyond [`FOLLOW_SCORE`] either way, against the members nearest where it
/// played (see [`follow_up`]); returns both matches' games.
pub(in crate::calibrate) fn play_level(
    cfg: &CalibrationConfig,
    engine: EngineSpec,
    level: f64,
    dir: &Path,
    games: usize,
    seed: u64,
    runner: &dyn GameRunner,
) -> Result<Vec<GameRow>> {
    let places: Vec<(usize, f64)> = cfg
        .pool
        .members
        .iter()
        .enumerate()
        .filter_map(|(j, m)| member_place(cfg, m).map(|e| (j, e)))
        .collect();
    let mut near = places.clone();
    near.sort_by(|a, b| (a.1 - level).abs().total_cmp(&(b.1 - level).abs()));
    near.truncate(cfg.verify.opponents_per_level);
    let mut played = play_against(cfg, &engine, &near, dir, games, seed, runner)?;
    let name = dir
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let mut met = near.clone();
    if let Some(more) = follow_up(cfg, &engine.name, &places, &near, &played) {
        let more_dir = dir.with_file_name(format!("{name}-more"));
        played.extend(play_against(
            cfg,
            &engine,
            &more,
            &more_dir,
            games,
            seed ^ 0xf011,
            runner,
        )?);
        met.extend(more);
    }
    // the members asked for by name, in a folder of their own so that the nearest members'
    // games (and an earlier verification's) stay as they were played
    let also: Vec<(usize, f64)> = places
        .iter()
        .copied()
        .filter(|(j, _)| {
            cfg.verify.also_against.contains(&cfg.pool.members[*j].name)
                && !met.iter().any(|m| m.0 == *j)
        })
        .collect();
    if !also.is_empty() {
        let also_dir = dir.with_file_name(format!("{name}-also"));
        played.extend(play_against(
            cfg,
            &engine,
            &also,
            &also_dir,
            games,
            seed ^ 0xa150,
            runner,
        )?);
    }
    Ok(played)
}

/// A level scoring above this against its nearest members (or below 1 minus it) is more than
/// about 300 Elo from them: its rating then rests on the logistic curve's tail and on those
/// members' ratings far from where it plays, so it meets members on that side next.
pub const FOLLOW_SCORE: f64 = 0.85;

/// The members a level plays next when its first match scored beyond [`FOLLOW_SCORE`]: those
/// not yet met beyond the first opponents on the side it played (stronger for a high score),
/// nearest to its performance there (the opponents' mean place plus the score's logistic Elo,
/// at most 400).
/// None if the level played within the band, or no member lies on that side.
fn follow_up(
    cfg: &CalibrationConfig,
    name: &str,
    places: &[(usize, f64)],
    met: &[(usize, f64)],
    played: &[GameRow],
) -> Option<Vec<(usize, f64)>> {
    let (mut score, mut n) = (0.0, 0usize);
    for g in played {
        let Some(s) = g.result.map(|r| r.white_score()) else {
            continue;
        };
        if g.white == name {
            score += s;
        } else if g.black == name {
            score += 1.0 - s;
        } else {
            continue;
        }
        n += 1;
    }
    if n == 0 || met.is_empty() {
        return None;
    }
    let p = score / n as f64;
    let up = p > FOLLOW_SCORE;
    if !up && p >= 1.0 - FOLLOW_SCORE {
        return None;
    }
    // a near-perfect score says little of how far beyond: at most 400 Elo (a 91% score)
    let q = p.clamp(1.0 / 11.0, 10.0 / 11.0);
    let mean = met.iter().map(|m| m.1).sum::<f64>() / met.len() as f64;
    let perf = mean + 400.0 * (q / (1.0 - q)).log10();
    let (lo, hi) = met
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), m| {
            (l.min(m.1), h.max(m.1))
        });
    let mut side: Vec<(usize, f64)> = places
        .iter()
        .copied()
        .filter(|(j, e)| !met.iter().any(|m| m.0 == *j) && if up { *e > hi } else { *e < lo })
        .collect();
    side.sort_by(|a, b| (a.1 - perf).abs().total_cmp(&(b.1 - perf).abs()));
    side.truncate(cfg.verify.opponents_per_level);
    (!side.is_empty()).then_some(side)
}

/// Plays (or resumes) `engine` against the pool members `opponents` into `dir`.
fn play_against(
    cfg: &CalibrationConfig,
    engine: &EngineSpec,
    opponents: &[(usize, f64)],
    dir: &Path,
    games: usize,
    seed: u64,
    runner: &dyn GameRunner,
) -> Result<Vec<GameRow>> {
    if !runner.plays() {
        // rating what is there: the folder's match files stay as they were played
        return crate::calibrate::run::games_in(dir);
    }
    let mut engines = vec![engine.clone()];
    engines.extend(opponents.iter().map(|(j, _)| pool_engine(cfg, *j)));
    let spec = match_spec(cfg, engines, games, seed);
    crate::calibrate::run::write_match_spec(dir, &spec)?;
    relocate_table(dir, &spec.engines[0])?;
    let held = crate::calibrate::run::games_in(dir)?.len();
    if held < spec.planned_games() {
        eprintln!("{} against {} pool members", engine.name, opponents.len());
        runner.run(&spec, dir)?;
    } else if held > spec.planned_games() {
        // the folder was played with more games a pairing: all of them count
        eprintln!(
            "note: {} holds {held} games, more than the {} asked: all are rated",
            dir.display(),
            spec.planned_games()
        );
    }
    crate::calibrate::run::games_in(dir)
}

/// Where a pool member plays, for choosing a level's opponents: its rating in the measured pool
/// file (the scale the level is rated on), else its anchor value, else its guess. The anchors
/// are soft (a member measured at fixed nodes may play a hundred Elo from its anchor), so the
/// measured rating comes first: by anchor values a level meets members far from it. Without the chained members a level below the lowest anchor
/// would meet only anchored ones, hundreds of Elo above it, and its rating would rest on a few
/// lucky games.
fn member_place(cfg: &CalibrationConfig, m: &crate::calibrate::config::PoolMember) -> Option<f64> {
    cfg.pool_measured
        .iter()
        .find(|r| r.name == m.name && r.games > 0)
        .and_then(|r| r.elo)
        .or(m.elo)
        .or(m.guess)
}

/// Rates the players `names` (each free) from `all` with the pool soft-anchored as in
/// calibration and placed by its own games (pool.file); the named players follow the pool's.
pub(in crate::calibrate) fn rate_levels(
    cfg: &CalibrationConfig,
    names: &[String],
    all: &[GameRow],
) -> Result<LevelFit> {
    let (all, left_out) = crate::calibrate::run::without_retired(cfg, all);
    if let Some(note) = left_out {
        eprintln!("note: {note}");
    }
    let mut players: Vec<String> = cfg.pool.members.iter().map(|m| m.name.clone()).collect();
    let mut roles: Vec<Role> = cfg
        .pool
        .members
        .iter()
        .map(|m| match m.elo {
            Some(mean) => Role::Anchored {
                mean,
                sd: m.sd.unwrap_or(cfg.pool.anchor_sd),
            },
            None => Role::Free,
        })
        .collect();
    let first = players.len();
    for n in names {
        players.push(n.clone());
        roles.push(Role::Free);
    }
    let index = players
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), i))
        .collect();
    let (tallies, stats) = fit::tally_games(&all, &index)?;
    // The measured pool's own games (pool.file) place the members; the run-pool variant of
    // verify takes the members from a calibration's fit, which counted them already.
    let evidence = crate::calibrate::run::pool_evidence(cfg, &index);
    // the levels do not meet each other: nothing is stretched
    let f = crate::calibrate::fit::fit_run(
        &cfg.run_pool(),
        &roles,
        &[],
        &tallies,
        &evidence,
        crate::calibrate::config::ModelKind::Linear,
        crate::calibrate::fit::Stretch::ONE,
    )?;
    Ok((roles, first, f, stats, tallies))
}

/// Each player's rating SD given every other parameter at its fitted value (the inverse of
/// the precision's diagonal), for ratings that are one parameter; `None` for the others or
/// when the covariance cannot be inverted.
fn conditional_sds(f: &fit::CurveFit) -> Vec<Option<f64>> {
    let precision = f.cov.clone().try_inverse();
    f.ratings
        .iter()
        .map(|r| match (r.terms.as_slice(), &precision) {
            ([(k, w)], Some(p)) if p[(*k, *k)] > 0.0 => Some(w.abs() / p[(*k, *k)].sqrt()),
            _ => None,
        })
        .collect()
}

/// When the table lies in a calibration run's directory: the pool members at the run's own
/// fitted ratings (soft, with their fitted SDs) instead of the anchor table's values.
fn run_pool_roles(
    cfg: &CalibrationConfig,
    table: &Path,
    roles: &[Role],
) -> Result<Option<Vec<Role>>> {
    let Some(path) = table.parent().map(|d| d.join("pool.csv")) else {
        return Ok(None);
    };
    if !path.exists() {
        return Ok(None);
    }
    let pool: Vec<data::PoolRow> = data::read_csv(&path)?;
    let mut out = roles.to_vec();
    for (j, m) in cfg.pool.members.iter().enumerate() {
        if let Some(r) = pool.iter().find(|r| r.name == m.name) {
            let sd = (r.upper - r.lower) / (2.0 * fit::Z95);
            if r.elo.is_finite() && sd > 0.0 {
                out[j] = Role::Anchored { mean: r.elo, sd };
            }
        }
    }
    Ok(Some(out))
}
