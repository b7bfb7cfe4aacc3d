//! Move-matching against the human rating band (`matching.csv` of `skillcal analyse --human`):
//! one line per engine setting (the band's `UCI_Elo` taken out), each point its 95% interval.

use std::path::{Path, PathBuf};

use plotters::prelude::*;

use super::compare_human::MatchingRow;
use super::plots::{err, legend_and_write};
use super::ReportError;
use crate::results as data;

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

/// The band's middle: `1500-1599` -> 1550.
fn band_middle(band: &str) -> Option<f64> {
    let (lo, hi) = band.split_once('-')?;
    Some((lo.trim().parse::<f64>().ok()? + hi.trim().parse::<f64>().ok()? + 1.0) / 2.0)
}

/// Writes `dir/matching.svg` from `dir/matching.csv`; returns its path, or none when the file
/// holds no row.
pub fn write_matching_plot(dir: &Path) -> Result<Option<PathBuf>, ReportError> {
    let rows: Vec<MatchingRow> = data::read_csv(&dir.join("matching.csv"))?;
    let path = dir.join("matching.svg");
    Ok(matching_plot(&path, &rows)?.then_some(path))
}

/// Matched share (%) against the band's middle, one line per setting; whether anything was
/// drawn.
pub fn matching_plot(path: &Path, rows: &[MatchingRow]) -> Result<bool, ReportError> {
    // per line: (band middle, rate, lower, upper) in %
    type Points = Vec<(f64, f64, f64, f64)>;
    let mut lines: Vec<(String, Points)> = Vec::new();
    for m in rows {
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
    if lines.is_empty() {
        return Ok(false);
    }
    let points = || lines.iter().flat_map(|l| l.1.iter());
    let xlo = points().map(|p| p.0).fold(f64::INFINITY, f64::min) - 50.0;
    let xhi = points().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max) + 50.0;
    let ylo = (points().map(|p| p.2).fold(f64::INFINITY, f64::min) - 2.0).max(0.0);
    let yhi = (points().map(|p| p.3).fold(f64::NEG_INFINITY, f64::max) + 2.0).min(100.0);
    let root = SVGBackend::new(path, (1100, 760)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(path, e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Move-matching on human games, per rating band of the mover",
            ("sans-serif", 22),
        )
        .margin(12)
        .x_label_area_size(48)
        .y_label_area_size(64)
        .build_cartesian_2d(xlo..xhi, ylo..yhi)
        .map_err(|e| err(path, e))?;
    chart
        .configure_mesh()
        .x_desc("human rating band (middle)")
        .y_desc("engine plays the human's move (%, 95% interval)")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| err(path, e))?;
    for (i, (label, mut pts)) in lines.into_iter().enumerate() {
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        let colour = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(
                pts.iter().map(|p| (p.0, p.1)),
                colour.stroke_width(2),
            ))
            .map_err(|e| err(path, e))?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(
                pts.iter().map(|p| {
                    PathElement::new(vec![(p.0, p.2), (p.0, p.3)], colour.stroke_width(1))
                }),
            )
            .map_err(|e| err(path, e))?;
        chart
            .draw_series(
                pts.iter()
                    .map(|p| Circle::new((p.0, p.1), 2, colour.filled())),
            )
            .map_err(|e| err(path, e))?;
    }
    legend_and_write(&mut chart, &root, SeriesLabelPosition::LowerRight, path)?;
    Ok(true)
}
