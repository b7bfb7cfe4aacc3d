//! The run's charts and the move-matching chart, each in the one frame (`frame.rs`).

use std::path::Path;

use plotters::prelude::*;

use crate::results::{CurveRow, PointRow, PoolRow, VerifyRow};

use super::frame::{canvas, err, frame, legend_and_write};
use crate::report::error::ReportError;

fn range_of(values: impl Iterator<Item = f64>, pad: f64) -> (f64, f64) {
    let Some((lo, hi)) = extent(values) else {
        return (0.0, 1.0);
    };
    if hi - lo < 1e-9 {
        return (lo - 1.0, hi + 1.0);
    }
    let p = (hi - lo) * pad;
    (lo - p, hi + p)
}

/// The smallest and largest finite value; None when there is none. Every axis starts here and
/// pads as its quantity asks (a rate from zero, an Elo range by at least 20).
pub fn extent(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values
        .filter(|v| v.is_finite())
        .fold(None, |acc, v| match acc {
            None => Some((v, v)),
            Some((lo, hi)) => Some((f64::min(lo, v), f64::max(hi, v))),
        })
}

/// The x range of plots against t: [0, 1] with a margin, wider to the left when the run's
/// domain reaches below 0 (`plan.t_min`).
pub fn t_span(ts: impl Iterator<Item = f64>) -> (f64, f64) {
    let lo = ts.filter(|t| t.is_finite()).fold(0.0, f64::min);
    (lo - 0.02, 1.02)
}

/// The x axis's label at `t` of a plot against t: `knob`'s value at the curve's nearest row, else
/// t itself.
fn t_label(curve: &[CurveRow], knob: &str, t: f64) -> String {
    curve
        .iter()
        .min_by(|a, b| (a.t - t).abs().total_cmp(&(b.t - t).abs()))
        .and_then(|c| knob_value(&c.knobs, knob))
        .unwrap_or_else(|| format!("{t:.2}"))
}

/// The value of `knob` in a `Name=Value;...` label.
pub fn knob_value(label: &str, knob: &str) -> Option<String> {
    label.split(';').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        (k == knob).then(|| v.to_string())
    })
}

/// Elo against the strength parameter, the x axis labelled with `knob`'s values: fitted curve
/// with its 95% band, each tested setting with its own 95% interval, the isotonic fit through
/// them, and the pool members as horizontal lines.
pub fn curve_plot(
    path: &Path,
    knob: &str,
    curve: &[CurveRow],
    points: &[PointRow],
    pool: &[PoolRow],
    lowest_anchor: f64,
) -> Result<(), ReportError> {
    let root = canvas(path, (860, 540))?;
    let ys = curve.iter().flat_map(|c| [c.lower, c.upper]).chain(
        points
            .iter()
            .flat_map(|p| [p.lower.max(p.elo - 600.0), p.upper.min(p.elo + 600.0)]),
    );
    let (ylo, yhi) = range_of(ys, 0.05);
    let label_at = |t: f64| t_label(curve, knob, t);
    let (xlo, xhi) = t_span(curve.iter().map(|c| c.t).chain(points.iter().map(|p| p.t)));
    let t_lo = curve.first().map_or(0.0, |c| c.t.min(0.0)) + 0.0;
    let mut chart = frame(
        &root,
        path,
        (&format!("Elo against {knob}"), 22),
        (48, 64),
        xlo..xhi,
        ylo..yhi,
    )?;
    chart
        .configure_mesh()
        .x_desc(format!("{knob} (strength parameter t from {t_lo} to 1)"))
        .y_desc("Elo")
        .y_label_formatter(&|y| format!("{y:.0}"))
        .x_labels(11)
        .x_label_formatter(&|t| label_at(*t))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| err(path, e))?;
    pool_lines(&mut chart, pool, (xlo, xhi), (ylo, yhi), path)?;
    if lowest_anchor.is_finite() && lowest_anchor > ylo && lowest_anchor < yhi {
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(xlo, ylo), (xhi, lowest_anchor)],
                RGBColor(255, 200, 0).mix(0.08).filled(),
            )))
            .map_err(|e| err(path, e))?
            .label(format!(
                "below the lowest rated reference ({lowest_anchor:.0}): extrapolated"
            ))
            .legend(|(x, y)| {
                Rectangle::new(
                    [(x, y - 5), (x + 20, y + 5)],
                    RGBColor(255, 200, 0).mix(0.3).filled(),
                )
            });
    }
    if !curve.is_empty() {
        let mut band: Vec<(f64, f64)> = curve.iter().map(|c| (c.t, c.lower)).collect();
        band.extend(curve.iter().rev().map(|c| (c.t, c.upper)));
        chart
            .draw_series(std::iter::once(Polygon::new(band, BLUE.mix(0.18))))
            .map_err(|e| err(path, e))?
            .label("95% band")
            .legend(|(x, y)| {
                Rectangle::new([(x, y - 5), (x + 20, y + 5)], BLUE.mix(0.18).filled())
            });
        chart
            .draw_series(LineSeries::new(
                curve.iter().map(|c| (c.t, c.elo)),
                BLUE.stroke_width(2),
            ))
            .map_err(|e| err(path, e))?
            .label("fitted curve")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.stroke_width(2)));
    }
    if !points.is_empty() {
        chart
            .draw_series(points.iter().map(|p| {
                PathElement::new(
                    vec![(p.t, p.lower.max(ylo)), (p.t, p.upper.min(yhi))],
                    RED.stroke_width(1),
                )
            }))
            .map_err(|e| err(path, e))?;
        chart
            .draw_series(
                points
                    .iter()
                    .map(|p| Circle::new((p.t, p.elo), 4, RED.filled())),
            )
            .map_err(|e| err(path, e))?
            .label("tested setting (own rating, 95%)")
            .legend(|(x, y)| Circle::new((x + 10, y), 4, RED.filled()));
        chart
            .draw_series(LineSeries::new(
                points.iter().map(|p| (p.t, p.isotonic)),
                GREEN.stroke_width(1),
            ))
            .map_err(|e| err(path, e))?
            .label("isotonic fit")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], GREEN));
    }
    legend_and_write(&mut chart, &root, SeriesLabelPosition::UpperLeft, path)?;
    Ok(())
}

/// Each pool member in the plotted range as a faint horizontal line with its name.
fn pool_lines<'a, DB: DrawingBackend + 'a>(
    chart: &mut ChartContext<
        'a,
        DB,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    pool: &[PoolRow],
    (xlo, xhi): (f64, f64),
    (ylo, yhi): (f64, f64),
    path: &Path,
) -> Result<(), ReportError> {
    for p in pool {
        if p.elo.is_finite() && p.elo > ylo && p.elo < yhi {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(xlo, p.elo), (xhi, p.elo)],
                    BLACK.mix(0.15),
                )))
                .map_err(|e| err(path, e))?;
            chart
                .draw_series(std::iter::once(Text::new(
                    p.name.clone(),
                    (-0.015, p.elo + (yhi - ylo) * 0.005),
                    ("sans-serif", 11).into_font().color(&BLACK.mix(0.5)),
                )))
                .map_err(|e| err(path, e))?;
        }
    }
    Ok(())
}

/// Measured strength against target UCI_Elo, with 95% intervals and the line measured = target.
pub fn verify_plot(path: &Path, rows: &[VerifyRow]) -> Result<(), ReportError> {
    let root = canvas(path, (700, 560))?;
    let (lo, hi) = range_of(
        rows.iter().flat_map(|r| {
            [
                r.target,
                r.lower.max(r.measured - 500.0),
                r.upper.min(r.measured + 500.0),
            ]
        }),
        0.08,
    );
    let mut chart = frame(
        &root,
        path,
        ("Verification: measured against target", 22),
        (48, 64),
        lo..hi,
        lo..hi,
    )?;
    chart
        .configure_mesh()
        .x_desc("target UCI_Elo")
        .y_desc("measured Elo")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(|e| err(path, e))?;
    chart
        .draw_series(LineSeries::new(vec![(lo, lo), (hi, hi)], BLACK.mix(0.4)))
        .map_err(|e| err(path, e))?
        .label("measured = target")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.mix(0.4)));
    chart
        .draw_series(rows.iter().map(|r| {
            PathElement::new(
                vec![(r.target, r.lower.max(lo)), (r.target, r.upper.min(hi))],
                RED,
            )
        }))
        .map_err(|e| err(path, e))?;
    chart
        .draw_series(
            rows.iter()
                .map(|r| Circle::new((r.target, r.measured), 4, RED.filled())),
        )
        .map_err(|e| err(path, e))?
        .label("measured (95% interval)")
        .legend(|(x, y)| Circle::new((x + 10, y), 4, RED.filled()));
    legend_and_write(&mut chart, &root, SeriesLabelPosition::UpperLeft, path)?;
    Ok(())
}

/// Draw rate of each tested setting against the strength parameter.
pub fn draw_rate_plot(
    path: &Path,
    points: &[PointRow],
    knob: &str,
    curve: &[CurveRow],
) -> Result<(), ReportError> {
    let root = canvas(path, (700, 420))?;
    let label_at = |t: f64| t_label(curve, knob, t);
    let (xlo, xhi) = t_span(curve.iter().map(|c| c.t).chain(points.iter().map(|p| p.t)));
    let mut chart = frame(
        &root,
        path,
        ("Draw rate of each tested setting", 20),
        (44, 56),
        xlo..xhi,
        0f64..1f64,
    )?;
    chart
        .configure_mesh()
        .x_desc(knob.to_string())
        .y_desc("draw rate")
        .x_labels(11)
        .x_label_formatter(&|t| label_at(*t))
        .draw()
        .map_err(|e| err(path, e))?;
    chart
        .draw_series(
            points
                .iter()
                .filter(|p| p.draw_rate.is_finite())
                .map(|p| Circle::new((p.t, p.draw_rate), 4, BLUE.filled())),
        )
        .map_err(|e| err(path, e))?;
    root.present().map_err(|e| err(path, e))?;
    Ok(())
}

/// Histogram of game lengths in plies.
pub fn length_plot(path: &Path, bins: &[(u32, u32, usize)]) -> Result<(), ReportError> {
    let root = canvas(path, (700, 420))?;
    let xmax = bins.last().map(|b| b.1).unwrap_or(100).max(1);
    let ymax = bins.iter().map(|b| b.2).max().unwrap_or(1).max(1);
    let mut chart = frame(
        &root,
        path,
        ("Game length", 20),
        (44, 56),
        0u32..xmax,
        0usize..ymax + ymax / 10 + 1,
    )?;
    chart
        .configure_mesh()
        .x_desc("plies")
        .y_desc("games")
        .draw()
        .map_err(|e| err(path, e))?;
    chart
        .draw_series(
            bins.iter()
                .map(|&(a, b, c)| Rectangle::new([(a, 0), (b, c)], BLUE.mix(0.6).filled())),
        )
        .map_err(|e| err(path, e))?;
    root.present().map_err(|e| err(path, e))?;
    Ok(())
}

/// Games per termination kind, as horizontal bars.
pub fn terminations_plot(path: &Path, counts: &[(String, usize)]) -> Result<(), ReportError> {
    let h = 120 + 36 * counts.len().max(1) as u32;
    let root = canvas(path, (700, h))?;
    let xmax = counts.iter().map(|c| c.1).max().unwrap_or(1).max(1) as f64 * 1.15;
    let n = counts.len().max(1) as f64;
    let mut chart = frame(
        &root,
        path,
        ("Terminations", 20),
        (40, 20),
        0f64..xmax,
        0f64..n,
    )?;
    chart
        .configure_mesh()
        .x_desc("games")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .disable_y_mesh()
        .y_labels(0)
        .draw()
        .map_err(|e| err(path, e))?;
    for (i, (name, c)) in counts.iter().enumerate() {
        let y = n - i as f64 - 1.0;
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(0.0, y + 0.15), (*c as f64, y + 0.85)],
                BLUE.mix(0.5).filled(),
            )))
            .map_err(|e| err(path, e))?;
        chart
            .draw_series(std::iter::once(Text::new(
                format!("{name} ({c})"),
                (xmax * 0.01, y + 0.62),
                ("sans-serif", 13).into_font(),
            )))
            .map_err(|e| err(path, e))?;
    }
    root.present().map_err(|e| err(path, e))?;
    Ok(())
}

/// One line of the move-matching plot: its label, and per band (band middle, matched %, lower,
/// upper).
pub type MatchLine = (String, Vec<(f64, f64, f64, f64)>);

/// Matched share (%) against the band's middle, one line per setting; whether anything was
/// drawn.
pub fn matching_plot(path: &Path, lines: Vec<MatchLine>) -> Result<bool, ReportError> {
    matching_plot_with(
        path,
        lines,
        "Move-matching on human games, per rating band of the mover",
        "human rating band (middle)",
    )
}

/// Matched share (%) against an Elo, one line per setting, with its caption and x axis.
pub fn matching_plot_with(
    path: &Path,
    lines: Vec<MatchLine>,
    caption: &str,
    x_desc: &str,
) -> Result<bool, ReportError> {
    if lines.is_empty() {
        return Ok(false);
    }
    let points = || lines.iter().flat_map(|l| l.1.iter());
    let xlo = points().map(|p| p.0).fold(f64::INFINITY, f64::min) - 50.0;
    let xhi = points().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max) + 50.0;
    let ylo = (points().map(|p| p.2).fold(f64::INFINITY, f64::min) - 2.0).max(0.0);
    let yhi = (points().map(|p| p.3).fold(f64::NEG_INFINITY, f64::max) + 2.0).min(100.0);
    let root = canvas(path, (1100, 760))?;
    let mut chart = frame(&root, path, (caption, 22), (48, 64), xlo..xhi, ylo..yhi)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
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
