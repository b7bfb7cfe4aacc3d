//! How each level plays: a calibration run's tested settings joined with their move-quality
//! figures (`RUN/analysis/analysis.csv`, written by `skillcal analyse RUN --out RUN/analysis`),
//! and the check that ACPL falls as Elo rises (Spearman's rho over the settings).

use std::path::{Path, PathBuf};

use crate::report::error::ReportError;
use crate::results::{
    read_csv, read_csv_or_empty, write_csv, AnalysisRow, CurveRow, LevelElo, LevelKind, LevelRow,
    PointRow, PoolRow,
};

/// The analysis folder of a run, by convention.
pub const ANALYSIS_DIR: &str = "analysis";
/// The per-level table, in the analysis folder.
pub const LEVELS_FILE: &str = "levels.csv";
/// ACPL should fall as Elo rises: Spearman's rho at most this over a family's settings.
pub const RHO_MAX: f64 = -0.9;

/// Two settings, adjacent by Elo, where ACPL rises although Elo rises too.
#[derive(Debug, Clone, PartialEq)]
pub struct Rise {
    pub lower: String,
    pub lower_acpl: f64,
    pub higher: String,
    pub higher_acpl: f64,
}

/// Fewest settings rho is read over: any two give ±1, which says nothing of a trend.
pub const RHO_MIN_SETTINGS: usize = 3;

/// Spearman's rho of ACPL against Elo over the tested settings that have an ACPL and an Elo.
#[derive(Debug, Clone, PartialEq)]
pub struct AcplTrend {
    pub settings: usize,
    /// Settings with an ACPL left out for want of a curve Elo (NaN where the curve's fit
    /// failed): ranked as if they had one, NaN would decide rho.
    pub no_elo: usize,
    /// Against the curve's Elo (None with fewer than [`RHO_MIN_SETTINGS`] or no spread).
    pub rho: Option<f64>,
    /// Against each setting's own measured rating.
    pub rho_measured: Option<f64>,
    /// Where ACPL rises with the curve's Elo.
    pub rises: Vec<Rise>,
}

impl AcplTrend {
    /// Whether ACPL falls as Elo rises (rho <= [`RHO_MAX`]).
    pub fn passes(&self) -> bool {
        self.rho.is_some_and(|r| r <= RHO_MAX)
    }

    /// Why rho is absent (for a sentence after "Spearman's rho of ACPL against Elo").
    pub fn why_no_rho(&self) -> String {
        let mut s = format!(
            "not computed: {} tested settings have an ACPL and a curve Elo, and rho needs \
             {RHO_MIN_SETTINGS} or more with different values",
            self.settings
        );
        if self.no_elo > 0 {
            s += &format!(
                "; {} more have no curve Elo (NaN in fit_points.csv: the curve's fit failed)",
                self.no_elo
            );
        }
        s
    }
}

/// A run's levels: the subject's tested settings (by `t`) and the pool members (by Elo) that
/// have analysed games.
#[derive(Debug, Clone, PartialEq)]
pub struct Levels {
    pub subjects: Vec<LevelRow>,
    pub pool: Vec<LevelRow>,
    /// Tested settings with no row in analysis.csv.
    pub unanalysed: Vec<String>,
    pub trend: AcplTrend,
}

/// Average ranks (1-based), ties sharing the mean of their positions.
pub fn average_ranks(x: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..x.len()).collect();
    idx.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    let mut ranks = vec![0.0; x.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && x[idx[j + 1]] == x[idx[i]] {
            j += 1;
        }
        // Positions i..=j (0-based) share rank mean(i+1..=j+1).
        let r = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            ranks[k] = r;
        }
        i = j + 1;
    }
    ranks
}

/// Spearman's rank correlation: Pearson's correlation of the average ranks (the form that stays
/// exact with ties). None for fewer than two pairs, unequal lengths or a constant variable.
pub fn spearman(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() != y.len() || x.len() < 2 {
        return None;
    }
    let (rx, ry) = (average_ranks(x), average_ranks(y));
    let n = x.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in rx.iter().zip(&ry) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    (sxx > 0.0 && syy > 0.0).then(|| sxy / (sxx * syy).sqrt())
}

/// The curve's band at `t`, interpolated linearly between `fit_curve.csv` rows (None outside).
fn band_at(curve: &[CurveRow], t: f64) -> (Option<f64>, Option<f64>) {
    let mut c: Vec<&CurveRow> = curve.iter().collect();
    c.sort_by(|a, b| a.t.total_cmp(&b.t));
    for w in c.windows(2) {
        let (a, b) = (w[0], w[1]);
        if a.t <= t && t <= b.t {
            let f = if b.t > a.t {
                (t - a.t) / (b.t - a.t)
            } else {
                0.0
            };
            return (
                Some(a.lower + f * (b.lower - a.lower)),
                Some(a.upper + f * (b.upper - a.upper)),
            );
        }
    }
    match c.as_slice() {
        [one] if one.t == t => (Some(one.lower), Some(one.upper)),
        _ => (None, None),
    }
}

fn trend(subjects: &[LevelRow]) -> AcplTrend {
    let analysed = || {
        subjects
            .iter()
            .filter(|r| r.analysis.acpl.is_some_and(f64::is_finite))
    };
    let with: Vec<&LevelRow> = analysed().filter(|r| r.level.elo.is_finite()).collect();
    let rho = |x: &[f64], y: &[f64]| {
        if x.len() < RHO_MIN_SETTINGS || x.iter().any(|v| !v.is_finite()) {
            None
        } else {
            spearman(x, y)
        }
    };
    let acpl: Vec<f64> = with.iter().filter_map(|r| r.analysis.acpl).collect();
    let elo: Vec<f64> = with.iter().map(|r| r.level.elo).collect();
    let measured: Option<Vec<f64>> = with.iter().map(|r| r.level.elo_measured).collect();
    let mut by_elo = with.clone();
    by_elo.sort_by(|a, b| a.level.elo.total_cmp(&b.level.elo));
    let rises = by_elo
        .windows(2)
        .filter_map(|w| {
            let (lo, hi) = (w[0].analysis.acpl?, w[1].analysis.acpl?);
            (hi > lo && w[1].level.elo > w[0].level.elo).then(|| Rise {
                lower: w[0].name().to_string(),
                lower_acpl: lo,
                higher: w[1].name().to_string(),
                higher_acpl: hi,
            })
        })
        .collect();
    AcplTrend {
        settings: with.len(),
        no_elo: analysed().count() - with.len(),
        rho: rho(&elo, &acpl),
        rho_measured: measured.and_then(|m| rho(&m, &acpl)),
        rises,
    }
}

/// Joins analysis.csv's rows with the run's tested settings (`fit_points.csv`, Elo from the
/// curve column, band from `fit_curve.csv`) and pool members (`pool.csv`); players that are
/// neither (e.g. verification levels) are left out.
pub fn join(
    points: &[PointRow],
    curve: &[CurveRow],
    pool: &[PoolRow],
    analysis: &[AnalysisRow],
) -> Levels {
    let find = |name: &str| analysis.iter().find(|a| a.player == name);
    let mut subjects = Vec::new();
    let mut unanalysed = Vec::new();
    for p in points {
        let Some(a) = find(&p.name) else {
            unanalysed.push(p.name.clone());
            continue;
        };
        let (elo_lower, elo_upper) = band_at(curve, p.t);
        let level = LevelElo {
            kind: LevelKind::Subject,
            t: Some(p.t),
            knobs: p.knobs.clone(),
            elo: p.curve,
            elo_lower,
            elo_upper,
            elo_measured: Some(p.elo),
            measured_lower: Some(p.lower),
            measured_upper: Some(p.upper),
        };
        subjects.push(LevelRow {
            level,
            analysis: a.clone(),
        });
    }
    subjects.sort_by(|a, b| {
        let t = |r: &LevelRow| r.level.t.unwrap_or(0.0);
        t(a).total_cmp(&t(b))
    });
    let mut members: Vec<LevelRow> = pool
        .iter()
        .filter_map(|m| {
            let a = find(&m.name)?;
            let level = LevelElo {
                kind: LevelKind::Pool,
                t: None,
                knobs: a.settings.clone(),
                elo: m.elo,
                elo_lower: Some(m.lower),
                elo_upper: Some(m.upper),
                elo_measured: None,
                measured_lower: None,
                measured_upper: None,
            };
            Some(LevelRow {
                level,
                analysis: a.clone(),
            })
        })
        .collect();
    members.sort_by(|a, b| a.level.elo.total_cmp(&b.level.elo));
    let trend = trend(&subjects);
    Levels {
        subjects,
        pool: members,
        unanalysed,
        trend,
    }
}

/// The levels of the run in `run` with the analysis in `analysis_dir`; None when that folder
/// holds no analysis.csv.
pub fn levels_in(run: &Path, analysis_dir: &Path) -> Result<Option<Levels>, ReportError> {
    let path = analysis_dir.join("analysis.csv");
    if !path.exists() {
        return Ok(None);
    }
    let analysis: Vec<AnalysisRow> = read_csv(&path)?;
    let points: Vec<PointRow> = read_csv_or_empty(&run.join("fit_points.csv"))?;
    let curve: Vec<CurveRow> = read_csv_or_empty(&run.join("fit_curve.csv"))?;
    let pool: Vec<PoolRow> = read_csv_or_empty(&run.join("pool.csv"))?;
    Ok(Some(join(&points, &curve, &pool, &analysis)))
}

/// The per-level figures of a calibration run folder (its analysis in `RUN/analysis`); None
/// when the run has not been analysed. For pages that put several families side by side.
pub fn load_levels(run: &Path) -> Result<Option<Levels>, ReportError> {
    levels_in(run, &run.join(ANALYSIS_DIR))
}

/// Writes `levels.csv` (subject settings, then pool members) into `analysis_dir`; returns its
/// path.
pub fn write_levels(analysis_dir: &Path, levels: &Levels) -> Result<PathBuf, ReportError> {
    let path = analysis_dir.join(LEVELS_FILE);
    let rows: Vec<LevelRow> = levels
        .subjects
        .iter()
        .chain(&levels.pool)
        .cloned()
        .collect();
    write_csv(&path, &rows)?;
    Ok(path)
}
