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
use crate::results::{self as data, CompareBandRow, CompareTradeoffRow, PoolRow};

/// The per-band table's file name.
pub const BANDS_CSV: &str = "compare_bands.csv";
/// The bands the per-band table averages over (Maia's own, 1100-1999).
pub const MEAN_BANDS: (f64, f64) = (1100.0, 2000.0);

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
        if sets(setting, "UCI_Elo") {
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
        } else if let Some(net) = top_move_net(setting) {
            let sel = &band_rows[0].selection;
            let line = if sel.is_empty() || sel == "all" {
                format!("Maia-1 {net} top move")
            } else {
                // a sample's own points apart from the same net's over every position
                format!("Maia-1 {net} top move ({sel})")
            };
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

/// Whether the setting sets `key`.
fn sets(setting: &str, key: &str) -> bool {
    pairs(setting).iter().any(|(k, _)| *k == key)
}

/// The Maia-1 net of a top-move setting (`Style=maia;MaiaNet=1100`, no temperature).
fn top_move_net(setting: &str) -> Option<&str> {
    if style_of(setting) != Some("maia") || sets(setting, "PolicyTemperature") {
        return None;
    }
    pairs(setting)
        .into_iter()
        .find(|(k, _)| *k == "MaiaNet")
        .map(|(_, v)| v)
}

/// Every setting played at each band's level (`UCI_Elo` set per band) beside the best Maia-1
/// net's top move on that band: among the nets measured on the same positions (the same
/// selection: a sample's own positions, paired) when there are any, else among all; bands
/// without a net's row are left out.
pub fn band_rows(rows: &[MatchingRow]) -> Vec<CompareBandRow> {
    // (band, selection, net, rate): the best net of each band and selection
    let mut best: Vec<(&str, &str, &str, f64)> = Vec::new();
    for r in rows {
        let (Some(net), Some(rate)) = (top_move_net(&r.setting), r.rate) else {
            continue;
        };
        match best
            .iter_mut()
            .find(|b| b.0 == r.band && b.1 == r.selection)
        {
            Some(b) if b.3 >= rate => {}
            Some(b) => *b = (&r.band, &r.selection, net, rate),
            None => best.push((&r.band, &r.selection, net, rate)),
        }
    }
    let best_for = |band: &str, selection: &str| {
        best.iter()
            .find(|b| b.0 == band && b.1 == selection)
            .or_else(|| {
                best.iter()
                    .filter(|b| b.0 == band)
                    .max_by(|a, b| a.3.total_cmp(&b.3))
            })
            .map(|b| (b.2, b.3))
    };
    let mut out: Vec<CompareBandRow> = rows
        .iter()
        .filter(|r| sets(&r.setting, "UCI_Elo"))
        .filter_map(|r| {
            let rate = r.rate?;
            let (net, net_rate) = best_for(&r.band, &r.selection)?;
            Some(CompareBandRow {
                band: r.band.clone(),
                line: line_label(r),
                rate,
                lower: r.lower.unwrap_or(rate),
                upper: r.upper.unwrap_or(rate),
                best_net: net.to_string(),
                best_net_rate: net_rate,
            })
        })
        .collect();
    out.sort_by(|a, b| {
        let lo = |r: &CompareBandRow| bounds(&r.band).map_or(f64::NAN, |b| b.0);
        lo(a).total_cmp(&lo(b))
    });
    out
}

/// Per line, the mean over the bands within [`MEAN_BANDS`] of its rate and of the best net's,
/// and how many bands: each band counts once, as the bands are the unit people are grouped in.
pub fn band_means(rows: &[CompareBandRow]) -> Vec<(String, f64, f64, usize)> {
    let mut out: Vec<(String, f64, f64, usize)> = Vec::new();
    for r in rows.iter().filter(|r| {
        bounds(&r.band).is_some_and(|(lo, hi)| lo >= MEAN_BANDS.0 && hi <= MEAN_BANDS.1)
    }) {
        match out.iter_mut().find(|o| o.0 == r.line) {
            Some(o) => {
                o.1 += r.rate;
                o.2 += r.best_net_rate;
                o.3 += 1;
            }
            None => out.push((r.line.clone(), r.rate, r.best_net_rate, 1)),
        }
    }
    out.into_iter()
        .map(|(l, a, b, n)| (l, a / n as f64, b / n as f64, n))
        .collect()
}

/// Writes `compare_tradeoff.csv`, the figure and `compare_bands.csv` (`bands`, the
/// [`band_rows`] of `rows`); whether the figure drew anything.
pub fn write_tradeoff(
    out: &Path,
    families: &[Family],
    rows: &[MatchingRow],
    bands: &[CompareBandRow],
) -> Result<bool, ReportError> {
    let points = tradeoff_rows(families, rows)?;
    data::write_csv(&out.join(TRADEOFF_CSV), &points)?;
    data::write_csv(&out.join(BANDS_CSV), bands)?;
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
