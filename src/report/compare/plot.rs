//! The comparison's plot: every family's fitted Elo curve against t, with its 95% band and its
//! tested settings, on one chart.

use std::path::Path;

use plotters::prelude::*;

use super::data::Family;
use crate::report::error::ReportError;
use crate::report::plot::{canvas, err, frame, legend_and_write};

/// Elo against t for the families with a fit; returns whether anything was drawn.
pub fn curves_plot(path: &Path, families: &[Family]) -> Result<bool, ReportError> {
    let fitted: Vec<&Family> = families.iter().filter(|f| f.has_fit()).collect();
    if fitted.is_empty() {
        return Ok(false);
    }
    // the tested settings' own intervals can be huge: the axis follows the bands and points
    let ys: Vec<f64> = fitted
        .iter()
        .flat_map(|f| {
            f.curve
                .iter()
                .flat_map(|c| [c.lower, c.upper])
                .chain(f.points.iter().map(|p| p.elo))
        })
        .filter(|y| y.is_finite())
        .collect();
    let lo = ys.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let pad = ((hi - lo) * 0.05).max(1.0);
    let (ylo, yhi) = (lo - pad, hi + pad);
    // the scale's first clause on the axis (its full text is in the page's caption)
    let y_desc = fitted
        .iter()
        .find_map(|f| f.summary.as_ref())
        .and_then(|s| s.scale.split(':').next())
        .filter(|s| !s.trim().is_empty())
        .unwrap_or("Elo")
        .trim()
        .to_string();
    let (xlo, xhi) = crate::report::plot::t_span(fitted.iter().flat_map(|f| {
        f.curve
            .iter()
            .map(|c| c.t)
            .chain(f.points.iter().map(|p| p.t))
    }));
    let root = canvas(path, (860, 560))?;
    let mut chart = frame(
        &root,
        path,
        ("Elo against the strength parameter t, every family", 22),
        (48, 64),
        xlo..xhi,
        ylo..yhi,
    )?;
    chart
        .configure_mesh()
        .x_desc("t (each family's own path from weakest, 0 or its t_min, to strongest, 1)")
        .y_desc(y_desc)
        .y_label_formatter(&|y| format!("{y:.0}"))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| err(path, e))?;
    for (i, f) in fitted.iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        let mut band: Vec<(f64, f64)> = f.curve.iter().map(|c| (c.t, c.lower)).collect();
        band.extend(f.curve.iter().rev().map(|c| (c.t, c.upper)));
        chart
            .draw_series(std::iter::once(Polygon::new(band, colour.mix(0.12))))
            .map_err(|e| err(path, e))?;
        chart
            .draw_series(LineSeries::new(
                f.curve.iter().map(|c| (c.t, c.elo)),
                colour.stroke_width(2),
            ))
            .map_err(|e| err(path, e))?
            .label(format!("{} (curve, 95% band, tested settings)", f.label))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(
                f.points
                    .iter()
                    .filter(|p| p.elo > ylo && p.elo < yhi)
                    .map(|p| Circle::new((p.t, p.elo), 3, colour.filled())),
            )
            .map_err(|e| err(path, e))?;
    }
    legend_and_write(&mut chart, &root, SeriesLabelPosition::UpperLeft, path)?;
    Ok(true)
}
