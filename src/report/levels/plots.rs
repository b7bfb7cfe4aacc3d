//! The plots of "How each level plays": move-quality figures against Elo, the subject's tested
//! settings (filled, joined by a line, 95% bars) and the pool members (hollow) as reference points.

use std::path::Path;

use plotters::prelude::*;

use super::data::Levels;
use crate::report::error::ReportError;
use crate::report::plot::{canvas, err, frame, legend_and_write};
use crate::results::LevelRow;

/// The plot files (beside report.md) with their captions, in the section's order.
pub const LEVEL_FIGURES: [(&str, &str); 5] = [
    (
        "levels_acpl.svg",
        "Average centipawn loss against Elo (curve's Elo for the tested settings, filled, with 95% bootstrap intervals; pool members hollow at their pool.csv Elo).",
    ),
    (
        "levels_errors.svg",
        "Inaccuracy, mistake and blunder rates (% of moves) against Elo, with 95% intervals for the tested settings; pool members hollow.",
    ),
    (
        "levels_blunder_state.svg",
        "Blunder rate in losing positions against that in equal positions (% of such moves), each tested setting, with 95% intervals.",
    ),
    (
        "levels_drop_state.svg",
        "Material drops (moves losing 300 cp or more) in losing positions and in equal positions (% of such moves) against Elo, each tested setting, with 95% intervals.",
    ),
    (
        "levels_top1.svg",
        "Top-1 agreement with the reference engine (% of moves) against Elo, with 95% intervals; pool members hollow.",
    ),
];

/// One series: (Elo, value, lower, upper) points.
struct Series {
    label: String,
    color: RGBColor,
    hollow: bool,
    points: Vec<(f64, f64, Option<f64>, Option<f64>)>,
}

type Pick = fn(&LevelRow) -> (Option<f64>, Option<f64>, Option<f64>);

fn series(
    rows: &[LevelRow],
    label: &str,
    color: RGBColor,
    hollow: bool,
    pick: Pick,
    scale: f64,
) -> Series {
    let points = rows
        .iter()
        .filter_map(|r| {
            let (v, lo, hi) = pick(r);
            let s = |x: Option<f64>| x.map(|x| x * scale);
            Some((r.level.elo, v? * scale, s(lo), s(hi)))
        })
        .filter(|p| p.0.is_finite() && p.1.is_finite())
        .collect();
    Series {
        label: label.to_string(),
        color,
        hollow,
        points,
    }
}

fn span(values: impl Iterator<Item = f64>, floor_zero: bool) -> (f64, f64) {
    let Some((mut lo, hi)) = crate::report::plot::extent(values) else {
        return (0.0, 1.0);
    };
    if floor_zero {
        lo = lo.min(0.0);
    }
    let pad = ((hi - lo) * 0.08).max(1e-6);
    (if floor_zero { lo } else { lo - pad }, hi + pad)
}

/// One plot of `series` against Elo.
fn elo_plot(path: &Path, title: &str, y_desc: &str, all: &[Series]) -> Result<(), ReportError> {
    let root = canvas(path, (760, 480))?;
    let pts = || all.iter().flat_map(|s| s.points.iter());
    let (x0, x1) = span(pts().map(|p| p.0), false);
    let (y0, y1) = span(pts().flat_map(|p| [Some(p.1), p.2, p.3]).flatten(), true);
    let mut chart = frame(&root, path, (title, 20), (44, 60), x0..x1, y0..y1)?;
    chart
        .configure_mesh()
        .x_desc("Elo")
        .y_desc(y_desc)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.1}"))
        .draw()
        .map_err(|e| err(path, e))?;
    for s in all.iter().filter(|s| !s.points.is_empty()) {
        let color = s.color;
        chart
            .draw_series(s.points.iter().filter_map(|&(x, _, lo, hi)| {
                Some(PathElement::new(vec![(x, lo?), (x, hi?)], color.mix(0.6)))
            }))
            .map_err(|e| err(path, e))?;
        if !s.hollow {
            chart
                .draw_series(LineSeries::new(
                    s.points.iter().map(|p| (p.0, p.1)),
                    color.mix(0.5),
                ))
                .map_err(|e| err(path, e))?;
        }
        let style = if s.hollow {
            color.stroke_width(2)
        } else {
            color.filled()
        };
        chart
            .draw_series(s.points.iter().map(|p| Circle::new((p.0, p.1), 4, style)))
            .map_err(|e| err(path, e))?
            .label(s.label.clone())
            .legend(move |(x, y)| Circle::new((x + 10, y), 4, style));
    }
    legend_and_write(&mut chart, &root, SeriesLabelPosition::UpperRight, path)?;
    Ok(())
}

const ORANGE: RGBColor = RGBColor(230, 140, 0);
const GREY: RGBColor = RGBColor(110, 110, 110);

/// Inaccuracy, mistake and blunder rates of the settings, the pool's beside them.
fn error_rates_plot(errors: &Path, s: &[LevelRow], p: &[LevelRow]) -> Result<(), ReportError> {
    let inacc: Pick = |r| {
        (
            r.analysis.inaccuracy_rate,
            r.analysis.inaccuracy_rate_lower,
            r.analysis.inaccuracy_rate_upper,
        )
    };
    let mist: Pick = |r| {
        (
            r.analysis.mistake_rate,
            r.analysis.mistake_rate_lower,
            r.analysis.mistake_rate_upper,
        )
    };
    let blun: Pick = |r| {
        (
            r.analysis.blunder_rate,
            r.analysis.blunder_rate_lower,
            r.analysis.blunder_rate_upper,
        )
    };
    elo_plot(
        errors,
        "Inaccuracy, mistake and blunder rates against Elo",
        "% of moves",
        &[
            series(s, "inaccuracies", ORANGE, false, inacc, 100.0),
            series(s, "mistakes", MAGENTA, false, mist, 100.0),
            series(s, "blunders", RED, false, blun, 100.0),
            // Pool members without bars: six sets of bars would hide the points.
            series(
                p,
                "pool: inaccuracies",
                ORANGE,
                true,
                |r| (r.analysis.inaccuracy_rate, None, None),
                100.0,
            ),
            series(
                p,
                "pool: mistakes",
                MAGENTA,
                true,
                |r| (r.analysis.mistake_rate, None, None),
                100.0,
            ),
            series(
                p,
                "pool: blunders",
                RED,
                true,
                |r| (r.analysis.blunder_rate, None, None),
                100.0,
            ),
        ],
    )
}

/// Blunders and material drops when losing and when equal, for the tested settings.
fn state_plots(state: &Path, drops: &Path, s: &[LevelRow]) -> Result<(), ReportError> {
    elo_plot(
        state,
        "Blunder rate when losing and when equal",
        "% of moves in that state",
        &[
            series(
                s,
                "losing positions",
                RED,
                false,
                |r| {
                    (
                        r.analysis.blunder_rate_losing,
                        r.analysis.blunder_rate_losing_lower,
                        r.analysis.blunder_rate_losing_upper,
                    )
                },
                100.0,
            ),
            series(
                s,
                "equal positions",
                BLUE,
                false,
                |r| {
                    (
                        r.analysis.blunder_rate_equal,
                        r.analysis.blunder_rate_equal_lower,
                        r.analysis.blunder_rate_equal_upper,
                    )
                },
                100.0,
            ),
        ],
    )?;
    elo_plot(
        drops,
        "Material drops (300 cp or more) when losing and when equal",
        "% of moves in that state",
        &[
            series(
                s,
                "losing positions",
                RED,
                false,
                |r| {
                    (
                        r.analysis.drop_rate_losing,
                        r.analysis.drop_rate_losing_lower,
                        r.analysis.drop_rate_losing_upper,
                    )
                },
                100.0,
            ),
            series(
                s,
                "equal positions",
                BLUE,
                false,
                |r| {
                    (
                        r.analysis.drop_rate_equal,
                        r.analysis.drop_rate_equal_lower,
                        r.analysis.drop_rate_equal_upper,
                    )
                },
                100.0,
            ),
        ],
    )?;
    Ok(())
}

/// Draws the level figures (`LEVEL_FIGURES`) into `dir`.
pub fn draw(dir: &Path, l: &Levels) -> Result<(), ReportError> {
    let (s, p) = (&l.subjects, &l.pool);
    let [acpl, errors, state, drops, top1] = LEVEL_FIGURES.map(|(f, _)| dir.join(f));
    elo_plot(
        &acpl,
        "ACPL against Elo",
        "average centipawn loss",
        &[
            series(
                s,
                "tested settings",
                RED,
                false,
                |r| {
                    (
                        r.analysis.acpl,
                        r.analysis.acpl_lower,
                        r.analysis.acpl_upper,
                    )
                },
                1.0,
            ),
            series(
                p,
                "pool members",
                GREY,
                true,
                |r| {
                    (
                        r.analysis.acpl,
                        r.analysis.acpl_lower,
                        r.analysis.acpl_upper,
                    )
                },
                1.0,
            ),
        ],
    )?;
    error_rates_plot(&errors, s, p)?;
    state_plots(&state, &drops, s)?;
    elo_plot(
        &top1,
        "Top-1 agreement against Elo",
        "% of moves the reference engine's first choice",
        &[
            series(
                s,
                "tested settings",
                RED,
                false,
                |r| {
                    (
                        r.analysis.top1,
                        r.analysis.top1_lower,
                        r.analysis.top1_upper,
                    )
                },
                100.0,
            ),
            series(
                p,
                "pool members",
                GREY,
                true,
                |r| {
                    (
                        r.analysis.top1,
                        r.analysis.top1_lower,
                        r.analysis.top1_upper,
                    )
                },
                100.0,
            ),
        ],
    )?;
    Ok(())
}
