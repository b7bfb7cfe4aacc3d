//! Move-matching against Elo: the trade-off between playing like people and playing at a
//! strength. Every point is a setting at the Elo it plays (the pool's scale) against how often it
//! plays the human's move in a rating band of people (Lichess ratings):
//! - a family at `UCI_Elo` = a band's middle (analyse's per-band rows): that band, as it was
//!   measured; with `UCI_EloScale` (the middle read as a Lichess rating), at the pool Elo a
//!   family's table gives that rating (its `lichess_blitz` column, ...);
//! - a family's knob at a fixed value (analyse `--match-as-given`): the Elo its run's fitted
//!   curve gives the value (read along fit_curve.csv's knob column);
//! - a Maia net's top move: the net's rating as a pool member (a run's `pool.csv`);
//!
//!   these two against the band holding their Lichess blitz equivalent, read from the first
//!   family's table with a `lichess_blitz` column (the pool's Elo itself without one).

use std::path::Path;

use crate::report::compare::data::Family;
use crate::report::compare::human::band_bounds as bounds;
use crate::report::compare::human::{line_label, MatchingRow};
use crate::report::error::ReportError;
use crate::report::plot::{knob_value, matching_plot_with, MatchLine};
use crate::results::{self as data, CompareTradeoffRow, PoolRow};

/// The figure's file name in the output folder.
pub const TRADEOFF_SVG: &str = "compare_tradeoff.svg";
/// Its points.
pub const TRADEOFF_CSV: &str = "compare_tradeoff.csv";

/// The setting's `KEY=VALUE` pairs.
fn pairs(setting: &str) -> Vec<(&str, &str)> {
    setting
        .split(';')
        .filter_map(|kv| kv.split_once('='))
        .collect()
}

/// y at `x` on the points (x, y), linear between the nearest two after sorting by x; none
/// outside them.
fn interpolate(mut points: Vec<(f64, f64)>, x: f64) -> Option<f64> {
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    let w = points.windows(2).find(|w| w[0].0 <= x && x <= w[1].0)?;
    let ((x0, y0), (x1, y1)) = (w[0], w[1]);
    let f = if x1 > x0 { (x - x0) / (x1 - x0) } else { 0.0 };
    Some(y0 + f * (y1 - y0))
}

/// The family's fitted Elo where its path knob takes the setting's value (the first path knob
/// the setting sets, read along fit_curve.csv's rows), with the knob's name; none when it sets
/// none or the value lies off the path.
fn elo_of(f: &Family, setting: &str) -> Option<(String, f64)> {
    let kv = pairs(setting);
    f.summary.as_ref()?.knobs.iter().find_map(|k| {
        let (_, v) = kv.iter().find(|(n, _)| *n == k.name)?;
        let v: f64 = v.trim().parse().ok()?;
        let along: Vec<(f64, f64)> = f
            .curve
            .iter()
            .filter_map(|c| Some((knob_value(&c.knobs, &k.name)?.parse().ok()?, c.elo)))
            .collect();
        Some((k.name.clone(), interpolate(along, v)?))
    })
}

/// The family's table read from column `from` to column `to` at `x`, linear between its rows;
/// none without either column or outside its rows.
fn along_table(f: &Family, from: &str, to: &str, x: f64) -> Option<f64> {
    let pts: Vec<(f64, f64)> = f
        .table
        .iter()
        .filter_map(|r| {
            let num = |k: &str| r.get(k)?.trim().parse::<f64>().ok();
            Some((num(from)?, num(to)?))
        })
        .collect();
    interpolate(pts, x)
}

/// The pool Elo at which the family's table puts `rating` on the human scale `scale`
/// (`lichess-blitz`: the table's `lichess_blitz` column).
fn pool_elo(f: &Family, scale: &str, rating: f64) -> Option<f64> {
    along_table(f, &data::human_column(scale), "elo", rating)
}

/// The scale people's bands are on.
const BAND_SCALE: &str = "lichess-blitz";

/// Whether `setting` is a built-in `Style=` family's (the run's own subject style).
fn style_of(setting: &str) -> Option<&str> {
    pairs(setting)
        .into_iter()
        .find(|(k, _)| *k == "Style")
        .map(|(_, v)| v)
}

/// The point of `line` at `elo` against the setting's row of the band `r`.
fn point(line: &str, elo: f64, r: &MatchingRow) -> Option<CompareTradeoffRow> {
    let rate = r.rate?;
    Some(CompareTradeoffRow {
        line: line.to_string(),
        elo,
        band: r.band.clone(),
        rate,
        lower: r.lower.unwrap_or(rate),
        upper: r.upper.unwrap_or(rate),
    })
}

/// The point of `line` at `elo` against the setting's row of the band holding `rating` (the
/// Elo's equivalent on people's scale).
fn at_band(line: &str, rows: &[&MatchingRow], elo: f64, rating: f64) -> Option<CompareTradeoffRow> {
    let r = rows
        .iter()
        .find(|r| bounds(&r.band).is_some_and(|(lo, hi)| lo <= rating && rating < hi))?;
    point(line, elo, r)
}

/// Each Maia net's rating as a pool member (`maia1-1100` for MaiaNet 1100), from the first
/// family's `pool.csv` that has it.
fn maia_ratings(families: &[Family]) -> Result<Vec<(String, f64)>, ReportError> {
    let mut out: Vec<(String, f64)> = Vec::new();
    for f in families {
        let rows: Vec<PoolRow> = data::read_csv_or_empty(&f.dir.join("pool.csv"))?;
        for r in rows {
            if let Some(net) = r.name.strip_prefix("maia1-") {
                if !out.iter().any(|o| o.0 == net) {
                    out.push((net.to_string(), r.elo));
                }
            }
        }
    }
    Ok(out)
}

/// The figure's points, line by line (see the module's header).
pub fn tradeoff_rows(
    families: &[Family],
    rows: &[MatchingRow],
) -> Result<Vec<CompareTradeoffRow>, ReportError> {
    // the rows of each setting, over the bands
    let mut settings: Vec<(&str, &str, Vec<&MatchingRow>)> = Vec::new();
    for r in rows {
        match settings
            .iter_mut()
            .find(|s| s.0 == r.setting && s.1 == r.selection)
        {
            Some(s) => s.2.push(r),
            None => settings.push((&r.setting, &r.selection, vec![r])),
        }
    }
    let maia = maia_ratings(families)?;
    let blitz = data::human_column(BAND_SCALE);
    let rating = |elo: f64| {
        families
            .iter()
            .find_map(|f| along_table(f, "elo", &blitz, elo))
            .unwrap_or(elo)
    };
    let mut out = Vec::new();
    for (setting, _, band_rows) in &settings {
        let kv = pairs(setting);
        let has = |k: &str| kv.iter().any(|(n, _)| *n == k);
        if has("UCI_Elo") {
            // per band: each band's own row, at its middle; read on a human scale
            // (`UCI_EloScale`), at the pool Elo a family's table gives that rating
            let scale = kv
                .iter()
                .find(|(k, _)| *k == "UCI_EloScale")
                .map(|(_, v)| v.to_ascii_lowercase())
                .filter(|s| s != "pool");
            let line = format!("{} at UCI_Elo", line_label(band_rows[0]));
            out.extend(band_rows.iter().filter_map(|r| {
                let (lo, hi) = bounds(&r.band)?;
                let mid = (lo + hi) / 2.0;
                let elo = match &scale {
                    Some(s) => families.iter().find_map(|f| pool_elo(f, s, mid))?,
                    None => mid,
                };
                point(&line, elo, r)
            }));
        } else if style_of(setting) == Some("maia") && !has("PolicyTemperature") {
            let Some((_, net)) = kv.iter().find(|(k, _)| *k == "MaiaNet") else {
                continue;
            };
            let line = format!("Maia-1 {net} top move");
            if let Some(elo) = maia.iter().find(|m| m.0 == *net).map(|m| m.1) {
                out.extend(at_band(&line, band_rows, elo, rating(elo)));
            }
        } else if let Some((f, (knob, elo))) =
            families.iter().find_map(|f| Some((f, elo_of(f, setting)?)))
        {
            // a knob at a fixed value, placed by the first family whose path knob it sets
            let line = format!("{} by {knob} (as given)", f.label);
            out.extend(at_band(&line, band_rows, elo, rating(elo)));
        }
    }
    Ok(out)
}

/// Writes `compare_tradeoff.csv` and the figure; whether anything was drawn.
pub fn write_tradeoff(
    out: &Path,
    families: &[Family],
    rows: &[MatchingRow],
) -> Result<bool, ReportError> {
    let points = tradeoff_rows(families, rows)?;
    data::write_csv(&out.join(TRADEOFF_CSV), &points)?;
    let mut lines: Vec<MatchLine> = Vec::new();
    for p in &points {
        let xy = (p.elo, 100.0 * p.rate, 100.0 * p.lower, 100.0 * p.upper);
        match lines.iter_mut().find(|l| l.0 == p.line) {
            Some(l) => l.1.push(xy),
            None => lines.push((p.line.clone(), vec![xy])),
        }
    }
    matching_plot_with(
        &out.join(TRADEOFF_SVG),
        lines,
        "Playing like people against strength",
        "Elo it plays at (the pool's scale); matching on people of its band (Lichess blitz)",
    )
}
