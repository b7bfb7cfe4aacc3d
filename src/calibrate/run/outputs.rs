//! The result files of a run, from all its games: `games.csv` (merged), `pool.csv`,
//! `fit_points.csv`, `fit_curve.csv`, `table_details.csv`, `uci_elo_table.csv`, `summary.toml`.

use std::path::Path;

use super::fits::Analysis;
use super::folder::merge_games;
use crate::calibrate::config::{knobs_label, CalibrationConfig};
use crate::calibrate::error::{CalibrateError, Result};
use crate::calibrate::fit::{self, CurveFit, RangeFlag, Role, Z95};
use crate::calibrate::table::uci_elo;
use crate::results::{
    self as data, CurveRow, GameRow, KnobSummary, PointRow, PoolRow, Summary, TargetRow,
};

/// What a calibration ended with.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub games: usize,
    pub batches: u32,
    pub all_met: bool,
    pub fit: Option<CurveFit>,
    pub targets: Vec<TargetRow>,
    /// Whether this fit wrote `uci_elo_table.csv` (a table left by an earlier fit is moved
    /// aside, so only a fresh one is there to install).
    pub table: bool,
    /// Why the residuals reject the curve's form, when they do ([`crate::results::Summary::form_rejected`]).
    pub form_rejected: Option<String>,
}

/// Writes `games.csv`, the fit CSVs, the table and `summary.toml` from all games of the run
/// (`games`) and the loop's last fit of them (`a`): the curve is fitted once.
pub fn write_results(
    cfg: &CalibrationConfig,
    dir: &Path,
    batches: u32,
    games: &[GameRow],
    a: Analysis,
) -> Result<Outcome> {
    merge_games(dir)?;
    let mut notes = a.notes.clone();
    if let Some(f) = &cfg.pool.file {
        let n: u32 = cfg.pool_pairs.iter().map(|p| p.games).sum();
        let how = if cfg.pool.hold {
            "its ratings and covariance held by pool.hold"
        } else {
            "counted in every fit"
        };
        notes.push(format!(
            "the pool is the measured one of {} ({n} games among its members, {how})",
            f.display()
        ));
    }
    let scale = if cfg.pool.scale.is_empty() {
        "the anchors' scale (logistic Elo, anchors as given in the config)".to_string()
    } else {
        cfg.pool.scale.clone()
    };
    // pool
    let pool_rows = pool_rows(cfg, &a);
    data::write_csv(&dir.join("pool.csv"), &pool_rows)?;
    // per-setting points with isotonic regression and residuals
    let point_rows = point_rows(cfg, &a);
    data::write_csv(&dir.join("fit_points.csv"), &point_rows)?;
    let residuals = residuals(&point_rows, &a);
    // curve, table
    let mut curve_rows = Vec::new();
    let mut targets = Vec::new();
    let mut written = false;
    if let Some(c) = &a.curve {
        curve_rows = curve_points(cfg, c);
        match uci_elo::invert_targets(cfg, c) {
            Some(rows) => {
                let text = uci_elo::table_csv(cfg, c, &rows, &scale);
                uci_elo::write_table(
                    &dir.join("uci_elo_table.csv"),
                    &text,
                    uci_elo::is_builtin(cfg),
                )?;
                targets = rows;
                written = true;
            }
            None => notes.push("no table written: the curve is not increasing".into()),
        }
    } else if a
        .players
        .roles
        .iter()
        .any(|r| matches!(r, Role::Subject(_)))
    {
        // the fit's own note says why (it said "no subject games yet" beside it)
        notes.push("no curve: the curve fit failed (see the note above)".into());
    } else {
        notes.push("no curve: no subject games yet".into());
    }
    let table_path = dir.join("uci_elo_table.csv");
    if !written && table_path.exists() {
        // an earlier fit's table would pass for this one's (and `--install` installed it)
        let stale = dir.join("uci_elo_table.csv.stale");
        std::fs::rename(&table_path, &stale)
            .map_err(|e| CalibrateError::io("move aside", &table_path, e))?;
        notes.push(format!(
            "the table an earlier fit wrote is moved to {}: this fit gives none",
            stale.display()
        ));
    }
    data::write_csv(&dir.join("fit_curve.csv"), &curve_rows)?;
    data::write_csv(&dir.join("table_details.csv"), &targets)?;
    let all_met = !targets.is_empty()
        && targets
            .iter()
            .all(|t| t.precision_met || t.range != RangeFlag::Ok);
    let summary = summary(cfg, batches, games.len(), &a, scale, residuals, notes);
    data::write_summary(dir, &summary)?;
    Ok(Outcome {
        games: games.len(),
        batches,
        all_met,
        fit: a.curve,
        table: written,
        targets,
        form_rejected: summary.form_rejected(),
    })
}

/// `summary.toml`: the fit, the budget and the residuals.
fn summary(
    cfg: &CalibrationConfig,
    batches: u32,
    games: usize,
    a: &Analysis,
    scale: String,
    r: Residuals,
    notes: Vec<String>,
) -> Summary {
    let form = a
        .curve
        .as_ref()
        .map(|c| c.curve.clone())
        .unwrap_or_else(|| fit::Curve::new(cfg.fit.model, cfg.plan.t_min, cfg.fit.n_knots()));
    Summary {
        name: cfg.name.clone(),
        scale,
        model: form.kind.name().into(),
        formula: fit::model_formula(&form),
        theta: a
            .curve
            .as_ref()
            .map(|c| c.theta.clone())
            .unwrap_or_default(),
        dispersion: a.curve.as_ref().map(|c| c.dispersion).unwrap_or(1.0),
        games: games as u64,
        budget: cfg.budget as u64,
        batches,
        precision: cfg.precision,
        lowest_anchor: cfg.lowest_reference(),
        knobs: cfg
            .path
            .iter()
            .map(|k| KnobSummary {
                name: k.name(),
                from: k.from,
                to: k.to,
                scale: k.scale_name().into(),
            })
            .collect(),
        monotone: a.curve.as_ref().is_some_and(|c| c.monotone(cfg.plan.t_min)),
        isotonic_max_gap: r.isotonic_max_gap,
        isotonic_max_z: r.isotonic_max_z,
        residual_chi2: r.residual_chi2,
        residual_points: r.zs.len() as u32,
        residual_p: r.residual_p,
        pool_held: cfg.pool.hold,
        notes,
    }
}

/// Each member's rating in this run beside the pool file's.
fn pool_rows(cfg: &CalibrationConfig, a: &Analysis) -> Vec<PoolRow> {
    let fit_for_pool = a.curve.as_ref().or(a.points.as_ref());
    cfg.pool
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
            let measured = cfg.pool_measured.iter().find(|r| r.name == m.name);
            PoolRow {
                name: m.name.clone(),
                anchor: m.elo,
                anchor_sd: m.elo.map(|_| m.sd.unwrap_or(cfg.pool.anchor_sd)),
                elo,
                lower: lo,
                upper: hi,
                games: a.stats.get(j).map(|s| s.games).unwrap_or(0),
                pool_file_elo: measured.and_then(|r| r.elo),
                pool_file_lower: measured.and_then(|r| r.lower),
                pool_file_upper: measured.and_then(|r| r.upper),
            }
        })
        .collect()
}

/// Each tested setting rated on its own, beside the isotonic regression and the curve.
fn point_rows(cfg: &CalibrationConfig, a: &Analysis) -> Vec<PointRow> {
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
            let curve = a.curve.as_ref().map_or(f64::NAN, |c| c.elo(*t));
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
                z: a.curve
                    .as_ref()
                    .map_or(f64::NAN, |c| fit::residual_z(p, c, *t)),
            });
        }
    }
    point_rows
}

/// How far the tested settings sit from the curve.
struct Residuals {
    isotonic_max_z: f64,
    zs: Vec<f64>,
    residual_chi2: f64,
    residual_p: f64,
    isotonic_max_gap: f64,
}

fn residuals(point_rows: &[PointRow], a: &Analysis) -> Residuals {
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
    Residuals {
        isotonic_max_z,
        zs,
        residual_chi2,
        residual_p,
        isotonic_max_gap,
    }
}

/// The curve at 101 points along the path, with its 95% band.
fn curve_points(cfg: &CalibrationConfig, c: &CurveFit) -> Vec<CurveRow> {
    let mut curve_rows = Vec::new();
    let t_min = cfg.plan.t_min;
    for i in 0..=100 {
        let t = t_min + (1.0 - t_min) * (i as f64 / 100.0);
        let (e, sd) = (c.elo(t), c.elo_sd(t));
        curve_rows.push(CurveRow {
            t,
            knobs: knobs_label(&cfg.knobs_at(t)),
            elo: e,
            lower: e - Z95 * sd,
            upper: e + Z95 * sd,
        });
    }
    curve_rows
}
