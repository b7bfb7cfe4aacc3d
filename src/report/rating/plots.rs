//! The rating report's plots: the rating list with intervals, ratings against games played,
//! and the SPRT's log-likelihood ratio against games.

use std::path::Path;

use plotters::prelude::*;

use super::data::{HistoryRow, RatingData, SprtRow};
use crate::rating::Ratings;
use crate::report::error::ReportError;
use crate::report::plot::{canvas, err, frame, legend_and_write};
use crate::report::run::Figure;

/// Distinct colours for players' lines.
fn colour(i: usize) -> RGBColor {
    const C: [RGBColor; 10] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(23, 190, 207),
    ];
    C[i % C.len()]
}

/// Draws the plots `d` allows into `dir`.
pub fn draw(dir: &Path, d: &RatingData) -> Result<Vec<Figure>, ReportError> {
    let mut figs = Vec::new();
    let pct = format!("{:.0}%", d.ratings.confidence * 100.0);
    if d.ratings.players.iter().any(|p| p.elo.is_some()) {
        ratings_plot(&dir.join("ratings.svg"), d.ratings)?;
        figs.push(Figure {
            file: "ratings.svg".into(),
            caption: format!("The rating list, strongest at the top: each player's Elo with its {pct} interval; anchors in green (a hard anchor has no interval)."),
        });
    }
    if !d.history.is_empty() {
        history_plot(&dir.join("rating_history.svg"), d.ratings, &d.history)?;
        figs.push(Figure {
            file: "rating_history.svg".into(),
            caption: format!("Each player's rating from the first N games, with its {pct} band."),
        });
    }
    if let Some((s, rows, _, _)) = &d.sprt {
        if !rows.is_empty() {
            sprt_plot(&dir.join("sprt.svg"), rows)?;
            figs.push(Figure {
                file: "sprt.svg".into(),
                caption: format!(
                    "The SPRT of {} against {}: log-likelihood ratio after each opening pair, with the bounds (above: H1 accepted, below: H0 accepted).",
                    s.first, s.second
                ),
            });
        }
    }
    Ok(figs)
}

/// Elo range of a set of intervals, padded.
fn span(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let Some((lo, hi)) = crate::report::plot::extent(values) else {
        return (-100.0, 100.0);
    };
    let pad = ((hi - lo) * 0.08).max(20.0);
    (lo - pad, hi + pad)
}

/// The rating list as points with intervals, one row per rated player, strongest on top.
pub fn ratings_plot(path: &Path, r: &Ratings) -> Result<(), ReportError> {
    let rated: Vec<_> = r.ranked().into_iter().filter(|p| p.elo.is_some()).collect();
    let n = rated.len().max(1);
    let h = 110 + 34 * n as u32;
    let root = canvas(path, (860, h))?;
    // Perfect scores' open sides come from the weak prior: keep them from setting the range.
    let (lo, hi) = span(rated.iter().flat_map(|p| {
        let e = p.elo.unwrap_or(0.0);
        [
            p.lower.unwrap_or(e).max(e - 800.0),
            p.upper.unwrap_or(e).min(e + 800.0),
        ]
    }));
    let mut chart = frame(
        &root,
        path,
        ("Rating list", 20),
        (40, 10),
        lo..hi,
        0f64..n as f64,
    )?;
    chart
        .configure_mesh()
        .x_desc("Elo")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .disable_y_mesh()
        .y_labels(0)
        .draw()
        .map_err(|e| err(path, e))?;
    for (k, p) in rated.iter().enumerate() {
        let y = n as f64 - k as f64 - 0.5;
        let e = p.elo.unwrap_or(0.0);
        let (a, b) = (p.lower.unwrap_or(e).max(lo), p.upper.unwrap_or(e).min(hi));
        let c = if p.anchor.is_some() {
            RGBColor(44, 160, 44)
        } else {
            RGBColor(31, 119, 180)
        };
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(a, y), (b, y)],
                c.stroke_width(2),
            )))
            .map_err(|e| err(path, e))?;
        chart
            .draw_series(std::iter::once(Circle::new((e, y), 5, c.filled())))
            .map_err(|e| err(path, e))?;
        chart
            .draw_series(std::iter::once(Text::new(
                format!("{} {:.0}", p.name, e),
                (a, y + 0.22),
                ("sans-serif", 13).into_font(),
            )))
            .map_err(|e| err(path, e))?;
    }
    root.present().map_err(|e| err(path, e))?;
    Ok(())
}

/// Ratings against games played, one line and band per player.
pub fn history_plot(path: &Path, r: &Ratings, rows: &[HistoryRow]) -> Result<(), ReportError> {
    let root = canvas(path, (860, 520))?;
    // The range of the final intervals, widened: early bands may be far wider.
    let (flo, fhi) = span(r.players.iter().flat_map(|p| [p.lower, p.upper]).flatten());
    let (lo, hi) = (flo - (fhi - flo) * 0.4, fhi + (fhi - flo) * 0.4);
    let xmax = rows.iter().map(|h| h.games).max().unwrap_or(1) as f64;
    let mut chart = frame(
        &root,
        path,
        ("Ratings against games played", 20),
        (44, 60),
        0f64..xmax * 1.02,
        lo..hi,
    )?;
    chart
        .configure_mesh()
        .x_desc("games played")
        .y_desc("Elo")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| err(path, e))?;
    let clamp = |v: f64| v.clamp(lo, hi);
    for (i, p) in r.ranked().into_iter().enumerate() {
        let pts: Vec<&HistoryRow> = rows.iter().filter(|h| h.name == p.name).collect();
        if pts.is_empty() {
            continue;
        }
        let c = colour(i);
        let mut band: Vec<(f64, f64)> = pts
            .iter()
            .map(|h| (h.games as f64, clamp(h.lower)))
            .collect();
        band.extend(pts.iter().rev().map(|h| (h.games as f64, clamp(h.upper))));
        chart
            .draw_series(std::iter::once(Polygon::new(band, c.mix(0.12))))
            .map_err(|e| err(path, e))?;
        chart
            .draw_series(LineSeries::new(
                pts.iter().map(|h| (h.games as f64, clamp(h.elo))),
                c.stroke_width(2),
            ))
            .map_err(|e| err(path, e))?
            .label(p.name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
    }
    legend_and_write(&mut chart, &root, SeriesLabelPosition::UpperRight, path)?;
    Ok(())
}

/// The LLR against games with the two bounds.
pub fn sprt_plot(path: &Path, rows: &[SprtRow]) -> Result<(), ReportError> {
    let root = canvas(path, (860, 440))?;
    let (lb, ub) = (rows[0].lower_bound, rows[0].upper_bound);
    let ymin = rows.iter().map(|r| r.llr).fold(lb, f64::min) - 0.3;
    let ymax = rows.iter().map(|r| r.llr).fold(ub, f64::max) + 0.3;
    let xmax = rows.iter().map(|r| r.games).max().unwrap_or(1) as f64 * 1.02;
    let mut chart = frame(
        &root,
        path,
        ("SPRT: log-likelihood ratio", 20),
        (44, 50),
        0f64..xmax,
        ymin..ymax,
    )?;
    chart
        .configure_mesh()
        .x_desc("games played")
        .y_desc("LLR")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| err(path, e))?;
    for (b, label, c) in [(ub, "H1 bound", GREEN), (lb, "H0 bound", RED)] {
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(0.0, b), (xmax, b)],
                c.stroke_width(1),
            )))
            .map_err(|e| err(path, e))?
            .label(format!("{label} ({b:.2})"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c));
    }
    chart
        .draw_series(LineSeries::new(
            std::iter::once((0.0, 0.0)).chain(rows.iter().map(|r| (r.games as f64, r.llr))),
            BLUE.stroke_width(2),
        ))
        .map_err(|e| err(path, e))?
        .label("LLR")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.stroke_width(2)));
    legend_and_write(&mut chart, &root, SeriesLabelPosition::UpperLeft, path)?;
    Ok(())
}
