//! The CSV / TOML files of a calibration run directory. The calibration writes them, the report
//! reads them; keeping the row types here lets `skillcal report DIR` rerun on its own.

use std::path::Path;

use anyhow::Context;
use serde::{de::DeserializeOwned, Deserialize, Serialize};

/// One point of the fitted curve (`fit_curve.csv`): Elo at strength parameter `t` with its 95% band.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CurveRow {
    pub t: f64,
    /// Knob values at `t`, as `Name=Value;Name=Value`.
    pub knobs: String,
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}

/// One tested subject setting (`fit_points.csv`): its own rating (each setting a free player),
/// the isotonic fit through those ratings, and the residual against the parametric curve.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PointRow {
    pub name: String,
    pub t: f64,
    pub knobs: String,
    pub games: u32,
    pub score: f64,
    pub draw_rate: f64,
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
    pub isotonic: f64,
    pub curve: f64,
    pub residual: f64,
    /// Residual divided by its standard error (point and curve combined).
    pub z: f64,
}

/// One member of the reference pool (`pool.csv`): anchor (prior) and fitted rating.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PoolRow {
    pub name: String,
    /// Anchor value (prior mean); empty for unanchored members.
    pub anchor: Option<f64>,
    /// Prior standard deviation; 0 = hard anchor; empty for unanchored members.
    pub anchor_sd: Option<f64>,
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
    pub games: u32,
}

/// One target of the table with its flags (`table_details.csv`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct TargetRow {
    pub target: f64,
    pub t: f64,
    pub t_lower: f64,
    pub t_upper: f64,
    pub knobs: String,
    /// Elo the chosen setting plays at, by the fitted curve, with its 95% interval.
    pub elo: f64,
    pub elo_lower: f64,
    pub elo_upper: f64,
    pub half_width: f64,
    /// Below the lowest anchor: carried by chaining and the curve's form.
    pub extrapolated: bool,
    /// `floor` / `ceiling` when the target lies outside the engine's range on this path, else `ok`.
    pub range: String,
    pub precision_met: bool,
}

/// One verified UCI_Elo level (`verify.csv`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct VerifyRow {
    pub target: f64,
    pub measured: f64,
    pub lower: f64,
    pub upper: f64,
    pub games: u32,
    pub score: f64,
    pub diff: f64,
    pub extrapolated: bool,
    /// The same games rated with the pool at the calibration run's own fitted ratings (when the
    /// table sits in a run directory with its `pool.csv`): not independent of the calibration,
    /// but free of the difference between the run's pool spacing and the anchor table's.
    #[serde(default)]
    pub measured_run_pool: Option<f64>,
}

/// Run-level facts (`summary.toml`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct Summary {
    pub name: String,
    pub scale: String,
    pub model: String,
    pub formula: String,
    pub theta: Vec<f64>,
    pub dispersion: f64,
    pub games: u64,
    pub budget: u64,
    pub batches: u32,
    pub precision: f64,
    pub lowest_anchor: f64,
    /// Knob names of the strength path with their `t = 0` and `t = 1` values and scale.
    pub knobs: Vec<KnobSummary>,
    pub monotone: bool,
    pub isotonic_max_gap: f64,
    /// The same gap divided by the point's standard error, largest over the settings.
    #[serde(default)]
    pub isotonic_max_z: f64,
    /// Residuals of the tested settings against the curve: sum of z^2, settings, and the
    /// chi-square p-value on (settings - curve parameters) degrees of freedom (approximate: the
    /// points and the curve share games).
    #[serde(default)]
    pub residual_chi2: f64,
    #[serde(default)]
    pub residual_points: u32,
    #[serde(default)]
    pub residual_p: f64,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct KnobSummary {
    pub name: String,
    pub from: f64,
    pub to: f64,
    pub scale: String,
}

/// One finished game as read from a `games.csv` (only the columns reports and fits need).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct GameRow {
    pub white: String,
    pub black: String,
    pub result: String,
    #[serde(default)]
    pub termination: String,
    #[serde(default)]
    pub plies: u32,
}

impl GameRow {
    /// White's score, or `None` for an unfinished / unknown result.
    pub fn white_score(&self) -> Option<f64> {
        match self.result.trim() {
            "1-0" => Some(1.0),
            "0-1" => Some(0.0),
            "1/2-1/2" => Some(0.5),
            _ => None,
        }
    }
}

/// Reads a CSV with a header into rows; errors name the file and line.
pub fn read_csv<T: DeserializeOwned>(path: &Path) -> anyhow::Result<Vec<T>> {
    let mut reader = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .flexible(true)
        .from_path(path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let mut rows = Vec::new();
    for record in reader.deserialize() {
        let row: T = record.map_err(|e| {
            let line = e.position().map(|p| p.line()).unwrap_or(0);
            anyhow::anyhow!("{}:{}: {}", path.display(), line, e)
        })?;
        rows.push(row);
    }
    Ok(rows)
}

/// Writes rows as CSV with a header.
pub fn write_csv<T: Serialize>(path: &Path, rows: &[T]) -> anyhow::Result<()> {
    let mut writer =
        csv::Writer::from_path(path).with_context(|| format!("cannot write {}", path.display()))?;
    for row in rows {
        writer
            .serialize(row)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    writer.flush()?;
    Ok(())
}

pub fn read_summary(dir: &Path) -> anyhow::Result<Summary> {
    let path = dir.join("summary.toml");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    toml::from_str(&text).with_context(|| format!("{}: invalid summary", path.display()))
}

pub fn write_summary(dir: &Path, summary: &Summary) -> anyhow::Result<()> {
    let path = dir.join("summary.toml");
    std::fs::write(&path, toml::to_string(summary)?)
        .with_context(|| format!("cannot write {}", path.display()))
}
