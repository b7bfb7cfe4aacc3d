//! Inverting the fitted curve at every target into the UCI_Elo table the engine loads.
//!
//! `uci_elo_table.csv`: `#` comment lines (scale, model, flags), then the header `elo`, one column
//! per knob (its UCI option name), then the interval columns `elo_lower,elo_upper` (95% band of the
//! Elo the row's setting plays at) and `<knob>_lower,<knob>_upper` (95% interval of the setting
//! that reaches the target).

use std::fmt::Write as _;
use std::path::Path;

use crate::calibrate::config::{fmt_num, knobs_label, option_string, CalibrationConfig};
use crate::calibrate::error::{CalibrateError, Result};
use crate::calibrate::fit::{model_formula, CurveFit, RangeFlag, Z95};
use crate::results::{human_column, HumanScaleRow, TargetRow};
use crate::strength::ScaleMap;

/// One row per target; None when the curve is not increasing (no inversion possible).
pub fn invert_targets(cfg: &CalibrationConfig, fit: &CurveFit) -> Option<Vec<TargetRow>> {
    let low = cfg.lowest_reference();
    cfg.targets
        .values()
        .into_iter()
        .map(|target| {
            let inv = fit.invert(target, cfg.plan.t_min)?;
            let extrapolated = target < low;
            let hw = inv.half_width();
            Some(TargetRow {
                target,
                t: inv.t,
                t_lower: inv.t_lower,
                t_upper: inv.t_upper,
                knobs: knobs_label(&cfg.knobs_at(inv.t)),
                elo: inv.elo,
                elo_lower: inv.elo - Z95 * inv.elo_sd,
                elo_upper: inv.elo + Z95 * inv.elo_sd,
                half_width: hw,
                extrapolated,
                range: inv.range,
                precision_met: inv.range == RangeFlag::Ok
                    && hw <= cfg.precision_for(target, extrapolated),
            })
        })
        .collect()
}

/// One `# path: ...` comment line per knob of the strength path (the table files' header).
pub fn path_comments(cfg: &CalibrationConfig) -> String {
    let mut s = String::new();
    for k in &cfg.path {
        let _ = writeln!(
            s,
            "# path: {} from {} (t=0) to {} (t=1), {} scale",
            k.name(),
            fmt_num(k.from),
            fmt_num(k.to),
            k.scale_name()
        );
    }
    s
}

/// The limit every row of an engine's table plays at besides its path (`[subject] limits`): the
/// table holds at it, and a GUI's clock is another condition.
pub fn limits_comment(cfg: &CalibrationConfig) -> String {
    let l = &cfg.subject.limits;
    let mut parts = Vec::new();
    if let Some(tc) = &l.tc {
        parts.push(format!("a clock of {tc} (seconds, base+increment)"));
    }
    if let Some(n) = l.nodes {
        parts.push(format!("{n} nodes a move"));
    }
    if let Some(d) = l.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(ms) = l.movetime_ms {
        parts.push(format!("{ms} ms a move"));
    }
    if parts.is_empty() {
        return "none besides the path's own: each row's setting is the whole limit".into();
    }
    format!(
        "every row plays at {}: the table holds there (`skillcal tc-check` measures a clock)",
        parts.join(" and ")
    )
}

/// The table text in the engine's format.
pub fn table_csv(
    cfg: &CalibrationConfig,
    fit: &CurveFit,
    rows: &[TargetRow],
    scale: &str,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# skillcal UCI_Elo table, calibration `{}`, {} games",
        cfg.name, fit.games
    );
    let _ = writeln!(s, "# scale: {scale}");
    let _ = writeln!(
        s,
        "# model: {} with t the strength parameter; theta = {:?}",
        model_formula(&fit.curve),
        fit.theta.iter().map(|x| x.round()).collect::<Vec<_>>()
    );
    s.push_str(&path_comments(cfg));
    if !is_builtin(cfg) {
        let _ = writeln!(s, "# limits: {}", limits_comment(cfg));
    }
    if cfg.plan.t_min < 0.0 {
        let _ = writeln!(
            s,
            "# t_min: {} (the path extends below t=0 on the same scales)",
            cfg.plan.t_min
        );
    }
    for r in rows {
        let mut flags = Vec::new();
        if r.extrapolated {
            // Without a chain below the anchors the old wording stays (committed tables refit
            // byte for byte).
            let low = cfg.lowest_reference();
            flags.push(if low < cfg.lowest_anchor() {
                format!("extrapolated below the lowest chained pool member ({low:.0})")
            } else {
                "extrapolated below the lowest anchor".to_string()
            });
        }
        if r.range != RangeFlag::Ok {
            flags.push(format!(
                "beyond the engine's range on this path ({}): plays at {:.0}",
                r.range.as_str(),
                r.elo
            ));
        }
        if !flags.is_empty() {
            let _ = writeln!(s, "# {:.0}: {}", r.target, flags.join("; "));
        }
    }
    let scales = &cfg.pool_human_scales;
    let maps: Vec<ScaleMap> = scales.iter().map(scale_map).collect();
    for h in scales {
        let _ = writeln!(s, "# {}", human_scale_comment(h));
    }
    let knobs: Vec<String> = cfg.path.iter().map(|k| k.name()).collect();
    // The subject's fixed knob options go in as constant columns: with UCI_LimitStrength the
    // engine takes its settings from the table, so the table must carry them.
    let fixed = fixed_knobs(cfg);
    let mut header = vec!["elo".to_string()];
    header.extend(knobs.iter().map(|k| k.to_string()));
    header.extend(fixed.iter().map(|(k, _)| k.clone()));
    header.push("elo_lower".into());
    header.push("elo_upper".into());
    for k in &knobs {
        header.push(format!("{k}_lower"));
        header.push(format!("{k}_upper"));
    }
    header.extend(scales.iter().map(|h| human_column(&h.scale)));
    let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
    let _ = w.write_record(&header);
    for r in rows {
        let mut cols = vec![fmt_num(r.target)];
        for k in &cfg.path {
            cols.push(fmt_num(k.value(r.t)));
        }
        cols.extend(fixed.iter().map(|(_, v)| v.clone()));
        cols.push(format!("{:.0}", r.elo_lower));
        cols.push(format!("{:.0}", r.elo_upper));
        for k in &cfg.path {
            let (a, b) = (k.value(r.t_lower), k.value(r.t_upper));
            cols.push(fmt_num(a.min(b)));
            cols.push(fmt_num(a.max(b)));
        }
        cols.extend(maps.iter().map(|m| format!("{:.0}", m.from_pool(r.target))));
        let _ = w.write_record(&cols);
    }
    // Writing to memory cannot fail; the records are valid UTF-8 as their fields are.
    let body = w.into_inner().unwrap_or_default();
    s.push_str(&String::from_utf8_lossy(&body));
    s
}

/// Subject options that are strength knobs and not on the path, with their values.
pub fn fixed_knobs(cfg: &CalibrationConfig) -> Vec<(String, String)> {
    cfg.subject
        .options
        .iter()
        .filter(|(k, _)| {
            is_builtin(cfg)
                && crate::strength::Knob::from_name(k).is_some()
                && !cfg.path.iter().any(|p| &p.knob == *k)
        })
        .map(|(k, v)| (k.clone(), option_string(v)))
        .collect()
}

/// Writes the table; for the built-in engine first checks that its own loader accepts it
/// (another subject engine may have other option names).
pub fn write_table(path: &Path, text: &str, builtin: bool) -> Result<()> {
    if builtin {
        crate::strength::EloTable::parse(text, &path.display().to_string()).map_err(|e| {
            CalibrateError::file(path, format!("the engine would not load the table: {e}"))
        })?;
    }
    std::fs::write(path, text).map_err(|e| CalibrateError::io("write", path, e))
}

/// Whether the subject is skillcal's own engine.
pub fn is_builtin(cfg: &CalibrationConfig) -> bool {
    cfg.subject
        .command
        .as_deref()
        .is_none_or(crate::arena::is_builtin_command)
}

/// A human scale of the pool as the engine's `UCI_EloScale` reads it, so the table's column and
/// the engine map a rating the same way (the line where the pool measured a slope, else the
/// offset).
fn scale_map(h: &HumanScaleRow) -> ScaleMap {
    ScaleMap {
        name: h.scale.clone(),
        offset: h.offset,
        line: match (h.slope_supported, h.intercept, h.slope) {
            (true, Some(a), Some(b)) => Some((a, b)),
            _ => None,
        },
    }
}

/// The table's comment line for a human scale's column: the map and what it rests on.
fn human_scale_comment(h: &HumanScaleRow) -> String {
    let map = match scale_map(h).line {
        Some((a, b)) => format!("{a:.0} + {b:.3} elo"),
        None => format!(
            "elo {:+.0} (95%: {:+.0} to {:+.0})",
            h.offset, h.offset_lower, h.offset_upper
        ),
    };
    format!(
        "{}: {} = {map}, from {} pool members whose {} ratings others recorded (the pool's \
         human-scale.csv; such ratings drift)",
        h.scale,
        human_column(&h.scale),
        h.points,
        h.scale
    )
}
