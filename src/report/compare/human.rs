//! The comparison's human section: each analysed family beside rated human games, per rating
//! band of `skillcal analyse --human FILE --out DIR` (DIR/human.csv, and DIR/matching.csv for
//! move-matching). Human ratings are on their site's scale (Lichess's Glicko-2, say), not the
//! pool's, so besides the figures at the band's Elo each family is also read at the Elo where
//! its ACPL equals the humans': at the same average loss, does it err like them (as often, as
//! badly, as much more when losing, agreeing as often with the engine's first choice)?

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::data::Family;
use super::play::interpolate;
use crate::report::doc::{fixed, percent, Document};
use crate::report::error::ReportError;
use crate::report::levels::Levels;
use crate::report::plot::{matching_plot, MatchLine};
use crate::results::{self as data, state_ratio, AnalysisRow, CompareHumanRow, LevelRow};

pub const HUMAN_CSV: &str = "compare_human.csv";

/// Bands with fewer human moves than this are left out (their intervals say little).
pub const MIN_MOVES: usize = 500;

/// One band's humans: the band's label, its middle Elo, and its figures (`row.moves` its moves).
#[derive(Debug, Clone)]
pub struct HumanBand {
    pub label: String,
    pub elo: f64,
    pub row: AnalysisRow,
}

/// One row of matching.csv: how often an engine setting played the humans' move.
#[derive(Debug, Clone, Deserialize)]
pub struct MatchingRow {
    pub band: String,
    pub engine: String,
    pub setting: String,
    /// `all`, or `sample, seed S` (absent before samples existed: all).
    #[serde(default)]
    pub selection: String,
    pub positions: u64,
    /// Matches, or expected matches (a policy's probability of the human's move, summed).
    pub matches: f64,
    pub rate: Option<f64>,
    pub lower: Option<f64>,
    pub upper: Option<f64>,
}

impl data::CsvRow for MatchingRow {
    fn check(&self) -> Result<(), String> {
        if !(0.0..=self.positions as f64).contains(&self.matches) {
            return Err(format!(
                "{} matches in {} positions",
                self.matches, self.positions
            ));
        }
        Ok(())
    }
}

/// The human games' analysis the section reads.
#[derive(Debug, Clone)]
pub struct HumanInput {
    pub path: PathBuf,
    pub bands: Vec<HumanBand>,
    pub matching: Vec<MatchingRow>,
}

fn invalid(path: &Path, message: String) -> ReportError {
    ReportError::Results(data::ResultsError::Invalid {
        path: path.to_path_buf(),
        message,
    })
}

/// Reads `human.csv` (a file, or the analysis folder holding it) and the `matching.csv` beside
/// it when there is one. A band label must read `LOW-HIGH`.
pub fn load_human(path: &Path) -> Result<HumanInput, ReportError> {
    let file = if path.is_dir() {
        path.join("human.csv")
    } else {
        path.to_path_buf()
    };
    // no bands is a file cut short or the wrong file, not humans to compare with
    let rows: Vec<AnalysisRow> = data::read_csv_rows(&file)?;
    let mut bands = Vec::new();
    for row in rows {
        let (lo, hi) = band_bounds(&row.player).ok_or_else(|| {
            invalid(
                &file,
                format!("band `{}` is not of the form LOW-HIGH", row.player),
            )
        })?;
        bands.push(HumanBand {
            label: row.player.clone(),
            elo: (lo + hi) / 2.0,
            row,
        });
    }
    let matching_file = file.with_file_name("matching.csv");
    let matching = if matching_file.exists() {
        data::read_csv(&matching_file)?
    } else {
        Vec::new()
    };
    Ok(HumanInput {
        path: file,
        bands,
        matching,
    })
}

/// The family's figures at fraction `w` between settings `a` and `b`.
fn lerp(a: &LevelRow, b: &LevelRow, w: f64, v: impl Fn(&LevelRow) -> Option<f64>) -> Option<f64> {
    Some(v(a)? + w * (v(b)? - v(a)?))
}

/// The bracketing pair and fraction where `key` reaches `x` along the settings sorted by Elo
/// (the first such pair: ACPL falls with Elo, so there is one unless a family's trend reverses).
fn bracket<'a>(
    by_elo: &[&'a LevelRow],
    x: f64,
    key: impl Fn(&LevelRow) -> Option<f64>,
) -> Option<(&'a LevelRow, &'a LevelRow, f64)> {
    if let [one] = by_elo {
        return (key(one)? == x).then_some((one, one, 0.0));
    }
    by_elo.windows(2).find_map(|w| {
        let (ka, kb) = (key(w[0])?, key(w[1])?);
        let (lo, hi) = (ka.min(kb), ka.max(kb));
        if !(lo <= x && x <= hi) {
            return None;
        }
        let f = if kb != ka { (x - ka) / (kb - ka) } else { 0.0 };
        Some((w[0], w[1], f))
    })
}

/// Mean |ln(family / human)| over the pairs where both are positive.
fn unlikeness(pairs: &[(Option<f64>, Option<f64>)]) -> Option<f64> {
    let logs: Vec<f64> = pairs
        .iter()
        .filter_map(|&(f, h)| match (f, h) {
            (Some(f), Some(h)) if f > 0.0 && h > 0.0 => Some((f / h).ln().abs()),
            _ => None,
        })
        .collect();
    (!logs.is_empty()).then(|| logs.iter().sum::<f64>() / logs.len() as f64)
}

/// The rows of `compare_human.csv`: every band with at least [`MIN_MOVES`] human moves, every
/// analysed family, in that order.
pub fn human_rows(
    families: &[Family],
    levels: &[Option<Levels>],
    human: &HumanInput,
) -> Vec<CompareHumanRow> {
    let mut out = Vec::new();
    for band in human.bands.iter().filter(|b| b.row.moves >= MIN_MOVES) {
        let h = &band.row;
        let h_drop = state_ratio(h.drop_rate_losing, h.drop_rate_equal);
        for (f, l) in families.iter().zip(levels) {
            let Some(l) = l else { continue };
            let mut by_elo: Vec<&LevelRow> = l.subjects.iter().collect();
            by_elo.sort_by(|a, b| a.level.elo.total_cmp(&b.level.elo));
            let at = |v: fn(&LevelRow) -> Option<f64>| interpolate(&by_elo, band.elo, v);
            let at_acpl = h
                .acpl
                .and_then(|x| bracket(&by_elo, x, |r| r.analysis.acpl));
            let eq =
                |v: fn(&LevelRow) -> Option<f64>| at_acpl.and_then(|(a, b, w)| lerp(a, b, w, v));
            let mut row = CompareHumanRow {
                band: band.label.clone(),
                band_elo: band.elo,
                family: f.label.clone(),
                human_moves: band.row.moves,
                human_acpl: h.acpl,
                human_blunder_rate: h.blunder_rate,
                human_mistake_rate: h.mistake_rate,
                human_inaccuracy_rate: h.inaccuracy_rate,
                human_drop_ratio: h_drop,
                human_top1: h.top1,
                acpl: at(|r| r.analysis.acpl),
                blunder_rate: at(|r| r.analysis.blunder_rate),
                top1: at(|r| r.analysis.top1),
                acpl_elo: eq(|r| Some(r.level.elo)),
                blunder_rate_at_acpl: eq(|r| r.analysis.blunder_rate),
                mistake_rate_at_acpl: eq(|r| r.analysis.mistake_rate),
                inaccuracy_rate_at_acpl: eq(|r| r.analysis.inaccuracy_rate),
                drop_ratio_at_acpl: eq(|r| r.drop_losing_equal_ratio()),
                top1_at_acpl: eq(|r| r.analysis.top1),
                unlikeness: None,
            };
            row.unlikeness = unlikeness(&[
                (row.blunder_rate_at_acpl, row.human_blunder_rate),
                (row.mistake_rate_at_acpl, row.human_mistake_rate),
                (row.inaccuracy_rate_at_acpl, row.human_inaccuracy_rate),
                (row.drop_ratio_at_acpl, row.human_drop_ratio),
                (row.top1_at_acpl, row.human_top1),
            ]);
            out.push(row);
        }
    }
    out
}

/// Writes `compare_human.csv` into `out`; returns its rows.
pub fn write_human(
    out: &Path,
    families: &[Family],
    levels: &[Option<Levels>],
    human: &HumanInput,
) -> Result<Vec<CompareHumanRow>, ReportError> {
    let rows = human_rows(families, levels, human);
    data::write_csv(&out.join(HUMAN_CSV), &rows)?;
    Ok(rows)
}

/// What the section shows for a figure the family does not have at that Elo.
const OUTSIDE: &str = "—";

/// The section: per band the humans' figures and each family's at the band's Elo and at equal
/// ACPL, the family most alike per band, and move-matching when the analysis has it.
pub fn human_section(doc: &mut Document, human: &HumanInput, rows: &[CompareHumanRow]) {
    doc.section("Against human games");
    let used: Vec<&HumanBand> = human
        .bands
        .iter()
        .filter(|b| b.row.moves >= MIN_MOVES)
        .collect();
    doc.para(&format!(
        "Human figures from {} (skillcal analyse --human), per rating band of the mover with at least {MIN_MOVES} moves ({} of {} bands). Human ratings are on their site's scale, not the pool's: \"at the band's Elo\" reads each family at the band's middle on its curve, \"at equal ACPL\" at the Elo where its ACPL equals the humans' (acpl_elo), where the other figures say whether it errs like them at the same average loss. Unlikeness: mean |ln(family / human)| over the blunder, mistake and inaccuracy rates, the losing/equal drop ratio and top-1 agreement at equal ACPL (0 alike; 0.1 about 10% apart on average); — outside the family's analysed range ({HUMAN_CSV}).",
        human.path.display(),
        used.len(),
        human.bands.len()
    ));
    for band in used {
        let h = &band.row;
        let mine: Vec<&CompareHumanRow> = rows.iter().filter(|r| r.band == band.label).collect();
        let Some(first) = mine.first() else { continue };
        doc.section(&format!(
            "Band {} ({} human moves; ACPL {}, blunders {}, top-1 {})",
            band.label,
            band.row.moves,
            fixed(h.acpl, 1, OUTSIDE),
            percent(h.blunder_rate, 1, OUTSIDE),
            percent(h.top1, 1, OUTSIDE)
        ));
        let mut table = vec![vec![
            "humans".to_string(),
            fixed(first.human_acpl, 1, OUTSIDE),
            percent(first.human_blunder_rate, 1, OUTSIDE),
            percent(first.human_top1, 1, OUTSIDE),
            OUTSIDE.into(),
            percent(first.human_blunder_rate, 1, OUTSIDE),
            percent(first.human_mistake_rate, 1, OUTSIDE),
            percent(first.human_inaccuracy_rate, 1, OUTSIDE),
            fixed(first.human_drop_ratio, 2, OUTSIDE),
            percent(first.human_top1, 1, OUTSIDE),
            OUTSIDE.into(),
        ]];
        for r in &mine {
            table.push(vec![
                r.family.clone(),
                fixed(r.acpl, 1, OUTSIDE),
                percent(r.blunder_rate, 1, OUTSIDE),
                percent(r.top1, 1, OUTSIDE),
                fixed(r.acpl_elo, 0, OUTSIDE),
                percent(r.blunder_rate_at_acpl, 1, OUTSIDE),
                percent(r.mistake_rate_at_acpl, 1, OUTSIDE),
                percent(r.inaccuracy_rate_at_acpl, 1, OUTSIDE),
                fixed(r.drop_ratio_at_acpl, 2, OUTSIDE),
                percent(r.top1_at_acpl, 1, OUTSIDE),
                fixed(r.unlikeness, 2, OUTSIDE),
            ]);
        }
        doc.table(
            &[
                "",
                "ACPL at band Elo",
                "blunders at band Elo",
                "top-1 at band Elo",
                "Elo at equal ACPL",
                "blunders",
                "mistakes",
                "inaccuracies",
                "losing/equal drops",
                "top-1",
                "unlikeness",
            ],
            table,
        );
        if let Some((best, u)) = mine
            .iter()
            .filter_map(|r| Some((r, r.unlikeness?)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
        {
            doc.para(&format!(
                "Most alike at equal ACPL in band {}: {} (unlikeness {u:.2}).",
                band.label, best.family,
            ));
        }
    }
    summary(doc, rows);
    if !human.matching.is_empty() {
        doc.section("Move-matching (engine at UCI_Elo = the band's middle)");
        doc.para("How often each engine setting, given the humans' positions, played the move the human played (Maia's protocol; matching.csv beside human.csv).");
        let rows = human
            .matching
            .iter()
            .map(|m| {
                vec![
                    m.band.clone(),
                    m.engine.clone(),
                    m.setting.clone(),
                    m.positions.to_string(),
                    format!(
                        "{} [{}, {}]",
                        percent(m.rate, 1, OUTSIDE),
                        percent(m.lower, 1, OUTSIDE),
                        percent(m.upper, 1, OUTSIDE)
                    ),
                ]
            })
            .collect();
        doc.table(
            &["band", "engine", "setting", "positions", "matched (95%)"],
            rows,
        );
        let overall = matching_overall(&human.matching);
        doc.para(&format!(
            "Over all bands (matches over positions, per engine setting without its UCI_Elo): {}.",
            overall
                .iter()
                .map(|(s, m, n)| format!("{s} {m:.0} of {n} ({:.1}%)", 100.0 * m / *n as f64))
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
}

/// Per family, the mean unlikeness over the bands where it is defined, weighted by the bands'
/// human moves: one band's drop ratio rests on few drops, so no single band decides.
pub fn overall_unlikeness(rows: &[CompareHumanRow]) -> Vec<(String, f64, usize)> {
    let mut out: Vec<(String, f64, f64, usize)> = Vec::new();
    for r in rows {
        let Some(u) = r.unlikeness else { continue };
        let w = r.human_moves as f64;
        match out.iter_mut().find(|o| o.0 == r.family) {
            Some(o) => {
                o.1 += w * u;
                o.2 += w;
                o.3 += 1;
            }
            None => out.push((r.family.clone(), w * u, w, 1)),
        }
    }
    out.into_iter()
        .map(|(f, wu, w, n)| (f, wu / w, n))
        .collect()
}

/// Per engine setting with its `UCI_Elo` taken out: (setting, matches, positions) over all bands.
pub fn matching_overall(rows: &[MatchingRow]) -> Vec<(String, f64, u64)> {
    let mut out: Vec<(String, f64, u64)> = Vec::new();
    for m in rows {
        let setting: Vec<&str> = m
            .setting
            .split(';')
            .filter(|kv| !kv.starts_with("UCI_Elo=") && !kv.starts_with("UCI_LimitStrength="))
            .collect();
        let key = setting.join(";");
        match out.iter_mut().find(|o| o.0 == key) {
            Some(o) => {
                o.1 += m.matches;
                o.2 += m.positions;
            }
            None => out.push((key, m.matches, m.positions)),
        }
    }
    out.retain(|o| o.2 > 0);
    out
}

fn summary(doc: &mut Document, rows: &[CompareHumanRow]) {
    let mut overall = overall_unlikeness(rows);
    if overall.is_empty() {
        return;
    }
    overall.sort_by(|a, b| a.1.total_cmp(&b.1));
    doc.para(&format!(
        "Over all bands compared (mean unlikeness weighted by the bands' human moves, most alike first): {}.",
        overall
            .iter()
            .map(|(f, u, n)| format!("{f} {u:.2} ({n} bands)"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
}

/// A row's line: engine, setting without the band's `UCI_Elo` and `UCI_LimitStrength`, and the
/// selection when it is not every position.
pub fn line_label(m: &MatchingRow) -> String {
    let setting: Vec<&str> = m
        .setting
        .split(';')
        .filter(|kv| !kv.starts_with("UCI_Elo=") && !kv.starts_with("UCI_LimitStrength="))
        .collect();
    let mut label = setting.join(" ");
    if label.is_empty() {
        label = m.engine.clone();
    }
    if !m.selection.is_empty() && m.selection != "all" {
        label.push_str(&format!(" ({})", m.selection));
    }
    label
}

/// A band's bounds: `1500-1599` -> (1500, 1600).
pub(super) fn band_bounds(band: &str) -> Option<(f64, f64)> {
    let (lo, hi) = band.split_once('-')?;
    Some((
        lo.trim().parse().ok()?,
        hi.trim().parse::<f64>().ok()? + 1.0,
    ))
}

/// The band's middle: `1500-1599` -> 1550.
fn band_middle(band: &str) -> Option<f64> {
    band_bounds(band).map(|(lo, hi)| (lo + hi) / 2.0)
}

/// Writes `dir/matching.svg` from `dir/matching.csv`; returns its path, or none when the file
/// holds no row.
pub fn write_matching_plot(dir: &Path) -> Result<Option<PathBuf>, ReportError> {
    let rows: Vec<MatchingRow> = data::read_csv(&dir.join("matching.csv"))?;
    let mut lines: Vec<MatchLine> = Vec::new();
    for m in &rows {
        let (Some(x), Some(rate)) = (band_middle(&m.band), m.rate) else {
            continue;
        };
        let point = (
            x,
            100.0 * rate,
            100.0 * m.lower.unwrap_or(rate),
            100.0 * m.upper.unwrap_or(rate),
        );
        let label = line_label(m);
        match lines.iter_mut().find(|l| l.0 == label) {
            Some(l) => l.1.push(point),
            None => lines.push((label, vec![point])),
        }
    }
    let path = dir.join("matching.svg");
    Ok(matching_plot(&path, lines)?.then_some(path))
}
