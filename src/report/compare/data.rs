//! The comparison page's data: each family's run folder read once, and the rows of
//! `compare_targets.csv` and `compare_families.csv` computed from it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::fsutil::FileError;
use crate::report::error::ReportError;
use crate::report::plot::knob_value;
use crate::report::run::verify_stats;
use crate::results::{
    self as data, tc_verdict, CompareFamilyRow, CompareTargetRow, CurveRow, GameRow, PointRow,
    RangeFlag, ResultsError, Summary, TargetRow, TcCheckRow, VerifyRow,
};

/// Where a family's node cost per move comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeCost {
    /// The path moves this knob (`LimitNodes` or `go nodes`): read it from each setting.
    Path(String),
    /// The subject's fixed `LimitNodes` option.
    Fixed(f64),
    /// The subject's fixed `go nodes` limit.
    GoNodes(f64),
    /// Nothing bounds the nodes.
    Unbounded,
    /// The run's calibrate.toml is missing.
    Unknown,
}

/// One family's run folder as the comparison needs it.
#[derive(Debug, Clone)]
pub struct Family {
    pub label: String,
    pub dir: PathBuf,
    /// The fit's summary; `None` while the run has no finished fit.
    pub summary: Option<Summary>,
    pub curve: Vec<CurveRow>,
    pub points: Vec<PointRow>,
    pub targets: Vec<TargetRow>,
    pub verify: Vec<VerifyRow>,
    pub tc_check: Vec<TcCheckRow>,
    pub nodes: NodeCost,
    /// uci_elo_table.csv's rows by column name (its interval columns give the node limit's).
    pub table: Vec<HashMap<String, String>>,
    /// Seconds of play summed over games.csv; `None` without the file.
    pub game_seconds: Option<f64>,
    /// Files a fitted run writes with its fit that this folder lacks: what they give is shown
    /// as missing, not as an empty value.
    pub missing: Vec<&'static str>,
}

impl Family {
    /// The 95% interval of the path's node limit at `target`, from the table's interval columns.
    pub fn nodes_interval(&self, target: f64) -> (Option<f64>, Option<f64>) {
        let NodeCost::Path(k) = &self.nodes else {
            return (None, None);
        };
        let row = self.table.iter().find(|r| {
            r.get("elo")
                .and_then(|e| e.trim().parse::<f64>().ok())
                .is_some_and(|e| (e - target).abs() < 0.5)
        });
        let get = |suffix: &str| {
            row.and_then(|r| r.get(&format!("{k}_{suffix}")))
                .and_then(|v| v.trim().parse().ok())
        };
        (get("lower"), get("upper"))
    }

    pub fn has_fit(&self) -> bool {
        self.summary.is_some() && !self.curve.is_empty()
    }

    /// The nodes a move at one setting (`knobs` as in the table), with where they come from.
    pub fn nodes_at(&self, knobs: &str) -> (Option<f64>, String) {
        match &self.nodes {
            NodeCost::Path(k) => (
                knob_value(knobs, k).and_then(|v| v.parse().ok()),
                "path".into(),
            ),
            NodeCost::Fixed(n) => (Some(*n), "fixed".into()),
            NodeCost::GoNodes(n) => (Some(*n), "go nodes".into()),
            NodeCost::Unbounded => (None, "unbounded".into()),
            NodeCost::Unknown => (None, "unknown (no calibrate.toml)".into()),
        }
    }
}

/// Whether two paths name one folder (`real/nodes` and `./real/nodes`, or through a link).
pub fn same_folder(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a.components().eq(b.components()),
    }
}

fn invalid(path: &Path, message: impl Into<String>) -> ReportError {
    ReportError::Results(ResultsError::Invalid {
        path: path.to_path_buf(),
        message: message.into(),
    })
}

/// A TOML number (integer or float) or a numeric string, as UCI option values are written.
fn number(v: &toml::Value) -> Option<f64> {
    match v {
        toml::Value::Integer(i) => Some(*i as f64),
        toml::Value::Float(f) => Some(*f),
        toml::Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// The run config's name and node cost (the run's calibrate.toml, read as plain TOML: the
/// report knows nothing of the calibration's config types).
fn read_config(
    dir: &Path,
    summary: Option<&Summary>,
) -> Result<(Option<String>, NodeCost), ReportError> {
    let path = dir.join("calibrate.toml");
    if !path.exists() {
        return Ok((None, NodeCost::Unknown));
    }
    let text = crate::fsutil::read_text_capped(&path, crate::fsutil::CONFIG_CAP)
        .map_err(|source| FileError::read(&path, source))?;
    let table: toml::Table = toml::from_str(&text)
        .map_err(|e| invalid(&path, format!("not a calibration config: {e}")))?;
    let name = table.get("name").and_then(|v| v.as_str()).map(String::from);
    let path_knobs: Vec<String> = match summary {
        Some(s) => s.knobs.iter().map(|k| k.name.clone()).collect(),
        None => table
            .get("path")
            .and_then(|p| p.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|k| match k.get("limit").and_then(|l| l.as_str()) {
                        Some(l) => Some(format!("go {l}")),
                        None => k.get("knob").and_then(|k| k.as_str()).map(String::from),
                    })
                    .collect()
            })
            .unwrap_or_default(),
    };
    let subject = table.get("subject");
    let get = |section: &str, key: &str| {
        subject
            .and_then(|s| s.get(section))
            .and_then(|o| o.get(key))
            .and_then(number)
    };
    let cost = if let Some(k) = path_knobs
        .iter()
        .find(|k| *k == "LimitNodes" || *k == "go nodes")
    {
        NodeCost::Path(k.clone())
    } else if let Some(n) = get("options", "LimitNodes") {
        NodeCost::Fixed(n)
    } else if let Some(n) = get("limits", "nodes") {
        NodeCost::GoNodes(n)
    } else {
        NodeCost::Unbounded
    };
    Ok((name, cost))
}

/// Reads a family's run folder. A run folder without summary.toml or fit_curve.csv is a family
/// with no fit yet; a folder without calibrate.toml or summary.toml is no run and an error; a
/// file that exists but does not parse is an error naming it, as is a fit_curve.csv without rows
/// beside a summary.toml whose fit has a curve.
pub fn load_family(dir: &Path, label: Option<&str>) -> Result<Family, ReportError> {
    if !dir.exists() {
        return Err(ReportError::NotFound(dir.to_path_buf()));
    }
    if !dir.is_dir() {
        return Err(ReportError::NotADirectory(dir.to_path_buf()));
    }
    // a run folder gets calibrate.toml before its first game; without it (and without a
    // summary) this is some other folder, whose empty row would read as "no fit yet"
    if !dir.join(data::SUMMARY_FILE).exists() && !dir.join("calibrate.toml").exists() {
        return Err(invalid(
            dir,
            "not a calibration run folder (no calibrate.toml or summary.toml)",
        ));
    }
    let summary = if dir.join(data::SUMMARY_FILE).exists() {
        Some(data::read_summary(dir)?)
    } else {
        None
    };
    let (config_name, nodes) = read_config(dir, summary.as_ref())?;
    let label = label
        .map(String::from)
        .or_else(|| summary.as_ref().map(|s| s.name.clone()))
        .or(config_name)
        .unwrap_or_else(|| {
            dir.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| dir.display().to_string())
        });
    let first = |paths: [PathBuf; 2]| paths.into_iter().find(|p| p.exists());
    // a verification or check that exists has levels: an empty one is a damaged file, not
    // a family that was never verified
    let verify = match first([
        dir.join("verify").join("verify.csv"),
        dir.join("verify.csv"),
    ]) {
        Some(p) => data::read_csv_rows(&p)?,
        None => Vec::new(),
    };
    let tc_check = match first([
        dir.join("tc-check").join("tc_check.csv"),
        dir.join("tc_check.csv"),
    ]) {
        Some(p) => data::read_csv_rows(&p)?,
        None => Vec::new(),
    };
    let fitted = summary.is_some() && dir.join("fit_curve.csv").exists();
    let curve = crate::report::run::read_curve(dir, summary.as_ref())?;
    let missing = ["table_details.csv", "fit_points.csv", "uci_elo_table.csv"]
        .into_iter()
        .filter(|f| fitted && !dir.join(f).exists())
        .collect();
    Ok(Family {
        label,
        missing,
        dir: dir.to_path_buf(),
        summary,
        curve,
        points: data::read_csv_or_empty(&dir.join("fit_points.csv"))?,
        targets: crate::report::run::read_targets(dir)?,
        table: data::read_csv_or_empty(&dir.join("uci_elo_table.csv"))?,
        verify,
        tc_check,
        nodes,
        game_seconds: match dir.join("games.csv") {
            p if p.exists() => Some(
                data::read_csv::<GameRow>(&p)?
                    .iter()
                    .map(|g| g.seconds)
                    .sum(),
            ),
            _ => None,
        },
    })
}

/// Lowest and highest in-range target whose 95% half-width is at most `within`.
fn covered(targets: &[TargetRow], within: f64) -> (Option<f64>, Option<f64>) {
    let ok: Vec<f64> = targets
        .iter()
        .filter(|t| t.range == RangeFlag::Ok && t.half_width <= within)
        .map(|t| t.target)
        .collect();
    (
        ok.iter().copied().reduce(f64::min),
        ok.iter().copied().reduce(f64::max),
    )
}

/// One `compare_families.csv` row.
pub fn family_row(f: &Family) -> CompareFamilyRow {
    let (c75a, c75b) = covered(&f.targets, 75.0);
    let (c50a, c50b) = covered(&f.targets, 50.0);
    let low = f
        .summary
        .as_ref()
        .map_or(f64::NEG_INFINITY, |s| s.lowest_anchor);
    let rms = (!f.verify.is_empty())
        .then(|| verify_stats(&f.verify, low).0)
        .filter(|r| r.is_finite());
    CompareFamilyRow {
        family: f.label.clone(),
        dir: f.dir.display().to_string(),
        status: match (f.has_fit(), f.missing.as_slice()) {
            (false, _) => "no fit yet".into(),
            (true, []) => "fit".into(),
            (true, m) => format!("fit; missing {}", m.join(", ")),
        },
        games: f.summary.as_ref().map(|s| s.games),
        budget: f.summary.as_ref().map(|s| s.budget),
        game_hours: f.game_seconds.map(|s| s / 3600.0),
        covered75_from: c75a,
        covered75_to: c75b,
        covered50_from: c50a,
        covered50_to: c50b,
        verify_rms: rms,
        tc_check: tc_verdict(&f.tc_check),
    }
}

/// Every family's row at every target, targets ascending, families in the order given.
pub fn target_rows(families: &[Family]) -> Vec<CompareTargetRow> {
    let mut targets: Vec<f64> = families
        .iter()
        .filter(|f| f.has_fit())
        .flat_map(|f| f.targets.iter().map(|t| t.target))
        .collect();
    targets.sort_by(f64::total_cmp);
    targets.dedup();
    let mut rows = Vec::new();
    for target in targets {
        for f in families.iter().filter(|f| f.has_fit()) {
            let Some(t) = f.targets.iter().find(|t| t.target == target) else {
                continue;
            };
            let (nodes, source) = f.nodes_at(&t.knobs);
            let (nodes_lower, nodes_upper) = f.nodes_interval(target);
            rows.push(CompareTargetRow {
                target,
                family: f.label.clone(),
                knobs: t.knobs.clone(),
                nodes,
                nodes_source: source,
                nodes_lower,
                nodes_upper,
                elo: t.elo,
                elo_lower: t.elo_lower,
                elo_upper: t.elo_upper,
                range: t.range.as_str().into(),
                extrapolated: t.extrapolated,
            });
        }
    }
    rows
}
