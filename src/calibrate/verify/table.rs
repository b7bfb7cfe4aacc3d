//! The table a verification plays: the levels it offers, and the copy that keeps a run folder's
//! games tied to the table they were played with.

use std::path::Path;

use crate::calibrate::config::{fmt_num, CalibrationConfig};
use crate::calibrate::error::{CalibrateError, Result};
use crate::calibrate::play::EngineSpec;
use crate::calibrate::table::is_builtin;

/// Table rows from the lowest reference (`low`: the lowest anchor, or a measured pool's lowest
/// chained member) up, every other one.
pub fn default_levels(cfg: &CalibrationConfig, table: &Path, low: f64) -> Result<Vec<f64>> {
    let elos = table_elos(cfg, table)?;
    let v: Vec<f64> = elos.into_iter().filter(|e| *e >= low).step_by(2).collect();
    if v.is_empty() {
        return Err(CalibrateError::file(
            table,
            format!("no table row at or above the lowest reference {low}; pass --levels"),
        ));
    }
    Ok(v)
}

/// Levels a verification (or time-control check) can play, checked before anything is played,
/// so a typo costs no match folder. Skillcal's own engine reads any integer UCI_Elo within the
/// table's range; another engine plays a row's settings, so its levels are the table's rows.
pub fn check_levels(cfg: &CalibrationConfig, table: &Path, levels: &[f64]) -> Result<()> {
    check_levels_from(cfg, table, levels, "--levels")
}

/// [`check_levels`], naming where the levels came from (`source`) in its errors.
pub fn check_levels_from(
    cfg: &CalibrationConfig,
    table: &Path,
    levels: &[f64],
    source: &str,
) -> Result<()> {
    let rows = if is_builtin(cfg) {
        None
    } else {
        Some(engine_rows(cfg, table)?)
    };
    let (lo, hi) = match &rows {
        None => {
            // the table's error names its file (and line) itself
            let t = crate::strength::EloTable::load(table)
                .map_err(|e| CalibrateError::Other(e.to_string()))?;
            let (lo, hi) = t.elo_range();
            (lo.floor(), hi.ceil())
        }
        Some(_) => (f64::NEG_INFINITY, f64::INFINITY),
    };
    for (i, &l) in levels.iter().enumerate() {
        if !l.is_finite() || l.fract() != 0.0 || l < lo || l > hi {
            return Err(CalibrateError::Config(format!(
                "{source}: {l} is not a UCI_Elo of {} (an integer from {lo} to {hi})",
                table.display()
            )));
        }
        if let Some(rows) = &rows {
            if !rows.iter().any(|r| r.elo == l) {
                let have: Vec<String> = rows.iter().map(|r| fmt_num(r.elo)).collect();
                return Err(CalibrateError::Config(format!(
                    "{source}: {l} is not a row of {} (the engine plays a row's settings; its \
                     rows: {})",
                    table.display(),
                    have.join(", ")
                )));
            }
        }
        if levels[..i].contains(&l) {
            return Err(CalibrateError::Config(format!("{source}: {l} given twice")));
        }
    }
    Ok(())
}

/// The `elo` column of a UCI_Elo table, read as the engine reads the table (its errors name the
/// file and line).
pub fn table_elos(cfg: &CalibrationConfig, table: &Path) -> Result<Vec<f64>> {
    if !is_builtin(cfg) {
        return Ok(engine_rows(cfg, table)?.iter().map(|r| r.elo).collect());
    }
    let t =
        crate::strength::EloTable::load(table).map_err(|e| CalibrateError::Other(e.to_string()))?;
    Ok(t.rows().iter().map(|r| r.elo).collect())
}

/// One row of an engine's table: the target Elo and the value of each knob of the config's path
/// (in the path's order).
#[derive(Clone, Debug, PartialEq)]
pub struct EngineRow {
    pub elo: f64,
    pub values: Vec<f64>,
}

/// The rows of the table `calibrate` wrote for an engine other than skillcal's own: its `elo`
/// column and one column per knob of the config's path, named as the path names it
/// (`Skill Level`, `go depth`).
pub fn engine_rows(cfg: &CalibrationConfig, table: &Path) -> Result<Vec<EngineRow>> {
    let text = crate::fsutil::read_text_capped(table, crate::fsutil::TABLE_CAP)
        .map_err(|e| CalibrateError::io("read", table, e))?;
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let at =
        |line: usize, m: String| CalibrateError::file(table, format!("line {}: {m}", line + 1));
    let Some((hl, header)) = lines.next() else {
        return Err(CalibrateError::file(table, "no header line (elo,...)"));
    };
    let cols: Vec<&str> = header.split(',').map(str::trim).collect();
    let find = |name: &str| {
        cols.iter()
            .position(|c| *c == name)
            .ok_or_else(|| at(hl, format!("no `{name}` column (the columns: {header})")))
    };
    let elo = find("elo")?;
    let knobs: Vec<usize> = cfg
        .path
        .iter()
        .map(|k| find(&k.name()))
        .collect::<Result<_>>()?;
    let mut rows = Vec::new();
    for (n, line) in lines {
        let cells: Vec<&str> = line.split(',').map(str::trim).collect();
        let num = |i: usize| -> Result<f64> {
            let c = cells.get(i).copied().unwrap_or_default();
            c.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| at(n, format!("`{}` = '{c}' is not a number", cols[i])))
        };
        rows.push(EngineRow {
            elo: num(elo)?,
            values: knobs.iter().map(|&i| num(i)).collect::<Result<_>>()?,
        });
    }
    if rows.is_empty() {
        return Err(CalibrateError::file(table, "the table has no rows"));
    }
    Ok(rows)
}

/// A verification directory holds the games of one table: the engines name the table by path,
/// so a rerun after the table changed would otherwise resume the old table's games. The first
/// run keeps a copy (`verified-table.csv`); later runs go on only if the rows (comments and the
/// human-scale columns aside) match it.
pub(in crate::calibrate) fn guard_table(table: &Path, out: &Path) -> Result<()> {
    let read = |p: &Path| -> Result<(String, Vec<String>)> {
        let text = crate::fsutil::read_text_capped(p, crate::fsutil::TABLE_CAP)
            .map_err(|e| CalibrateError::io("read", p, e))?;
        let body: String = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        // the rows' human-scale columns are informational: a table that gained them is the
        // same table
        let mut r = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(body.as_bytes());
        let records: Vec<csv::StringRecord> = r.records().flatten().collect();
        let keep: Vec<bool> = records.first().map_or(Vec::new(), |h| {
            h.iter()
                .map(|c| !crate::results::is_human_column(c))
                .collect()
        });
        let rows = records
            .iter()
            .map(|rec| {
                rec.iter()
                    .enumerate()
                    .filter(|(i, _)| keep.get(*i).copied().unwrap_or(true))
                    .map(|(_, c)| c)
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect();
        Ok((text, rows))
    };
    let (text, rows) = read(table)?;
    let copy = out.join("verified-table.csv");
    if copy.exists() {
        let (_, kept) = read(&copy)?;
        if kept != rows {
            return Err(CalibrateError::file(
                out,
                format!(
                    "holds the verification of another table (kept as {}): verify {} into a new --out",
                    copy.display(),
                    table.display()
                ),
            ));
        }
        return Ok(());
    }
    std::fs::write(&copy, text).map_err(|e| CalibrateError::io("write", &copy, e))
}

/// The level's `StrengthTable` is the table's absolute path, but the games rest on its contents,
/// which [`guard_table`] keeps equal to the folder's verified-table.csv: a folder moved or cloned
/// elsewhere keeps its games, so the arena's match.toml learns the table's new path.
pub(super) fn relocate_table(dir: &Path, engine: &EngineSpec) -> Result<()> {
    let path = dir.join(crate::arena::SNAPSHOT_FILE);
    let Some((_, now)) = engine.options.iter().find(|(k, _)| k == "StrengthTable") else {
        return Ok(());
    };
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(());
    };
    let mut doc: crate::arena::MatchConfig =
        toml::from_str(&text).map_err(|e| CalibrateError::file(&path, format!("invalid: {e}")))?;
    let mut moved = false;
    for e in &mut doc.engines {
        if e.name.as_deref() != Some(engine.name.as_str()) {
            continue;
        }
        for (k, v) in &mut e.options.0 {
            if k == "StrengthTable" && v != now {
                v.clone_from(now);
                moved = true;
            }
        }
    }
    if moved {
        let text = toml::to_string(&doc)
            .map_err(|e| CalibrateError::file(&path, format!("cannot encode: {e}")))?;
        std::fs::write(&path, text).map_err(|e| CalibrateError::io("write", &path, e))?;
    }
    Ok(())
}
