//! The table a verification plays: the levels it offers, and the copy that keeps a run folder's
//! games tied to the table they were played with.

use std::path::Path;

use crate::calibrate::error::{CalibrateError, Result};
use crate::calibrate::play::runner::EngineSpec;

/// Table rows from the lowest reference (`low`: the lowest anchor, or a measured pool's lowest
/// chained member) up, every other one.
pub fn default_levels(table: &Path, low: f64) -> Result<Vec<f64>> {
    let elos = table_elos(table)?;
    let v: Vec<f64> = elos.into_iter().filter(|e| *e >= low).step_by(2).collect();
    if v.is_empty() {
        return Err(CalibrateError::file(
            table,
            format!("no table row at or above the lowest reference {low}; pass --levels"),
        ));
    }
    Ok(v)
}

/// Levels a verification (or time-control check) can play: UCI_Elo is an integer option, the
/// table's range bounds it (the engine refuses others) and each level is played once. Checked
/// before anything is played, so a typo costs no match folder.
pub fn check_levels(table: &Path, levels: &[f64]) -> Result<()> {
    check_levels_from(table, levels, "--levels")
}

/// [`check_levels`], naming where the levels came from (`source`) in its errors.
pub fn check_levels_from(table: &Path, levels: &[f64], source: &str) -> Result<()> {
    // the table's error names its file (and line) itself
    let t =
        crate::strength::EloTable::load(table).map_err(|e| CalibrateError::Other(e.to_string()))?;
    let (lo, hi) = t.elo_range();
    let (lo, hi) = (lo.floor(), hi.ceil());
    for (i, &l) in levels.iter().enumerate() {
        if !l.is_finite() || l.fract() != 0.0 || l < lo || l > hi {
            return Err(CalibrateError::Config(format!(
                "{source}: {l} is not a UCI_Elo of {} (an integer from {lo} to {hi})",
                table.display()
            )));
        }
        if levels[..i].contains(&l) {
            return Err(CalibrateError::Config(format!("{source}: {l} given twice")));
        }
    }
    Ok(())
}

/// The `elo` column of a UCI_Elo table, read as the engine reads the table (its errors name the
/// file and line).
pub fn table_elos(table: &Path) -> Result<Vec<f64>> {
    let t =
        crate::strength::EloTable::load(table).map_err(|e| CalibrateError::Other(e.to_string()))?;
    Ok(t.rows().iter().map(|r| r.elo).collect())
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
