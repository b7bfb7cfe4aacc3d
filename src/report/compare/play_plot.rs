//! The comparison's play-analysis plots: one figure of the analysed tested settings against
//! their Elo, one series per family, each point with its 95% interval bar.

use std::path::Path;

use plotters::prelude::*;

use crate::report::error::ReportError;
use crate::report::plot::{canvas, err, frame, legend_and_write};

/// One family's points: (Elo, value, lower, upper).
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64, f64, f64)>,
}

fn range(v: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = v
        .filter(|x| x.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| {
            (l.min(x), h.max(x))
        });
    let pad = ((hi - lo) * 0.05).max(1e-3);
    (lo - pad, hi + pad)
}

/// Draws `series` (values multiplied by `scale` on the axis) into `path`; returns whether any
/// point was drawn.
pub fn level_plot(
    path: &Path,
    caption: &str,
    y_desc: &str,
    scale: f64,
    series: &[Series],
) -> Result<bool, ReportError> {
    if series.iter().all(|s| s.points.is_empty()) {
        return Ok(false);
    }
    let all = || series.iter().flat_map(|s| s.points.iter());
    let (xlo, xhi) = range(all().map(|p| p.0));
    let (ylo, yhi) = range(all().flat_map(|p| [p.2 * scale, p.3 * scale]));
    let root = canvas(path, (860, 560))?;
    let mut chart = frame(&root, path, (caption, 22), (48, 64), xlo..xhi, ylo..yhi)?;
    chart
        .configure_mesh()
        .x_desc("Elo of the tested setting (fitted curve)")
        .y_desc(y_desc)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| err(path, e))?;
    for (i, s) in series.iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        let mut pts = s.points.clone();
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        chart
            .draw_series(LineSeries::new(
                pts.iter().map(|p| (p.0, p.1 * scale)),
                colour.stroke_width(2),
            ))
            .map_err(|e| err(path, e))?
            .label(format!("{} (tested settings, 95% interval)", s.label))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(
                pts.iter().map(|p| {
                    PathElement::new(vec![(p.0, p.2 * scale), (p.0, p.3 * scale)], colour)
                }),
            )
            .map_err(|e| err(path, e))?;
        chart
            .draw_series(
                pts.iter()
                    .map(|p| Circle::new((p.0, p.1 * scale), 3, colour.filled())),
            )
            .map_err(|e| err(path, e))?;
    }
    legend_and_write(&mut chart, &root, SeriesLabelPosition::UpperRight, path)?;
    Ok(true)
}
