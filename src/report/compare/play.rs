//! The comparison's play-analysis section: each family's analysed tested settings (`skillcal
//! analyse RUN --out RUN/analysis`, read with [`load_levels`]) as ACPL and blunder-rate plots
//! against Elo, and a table of how each family plays at a few target Elo, interpolated between
//! tested settings (`compare_play.csv`).

use std::path::Path;

use super::data::Family;
use super::play_plot::{level_plot, Series};
use crate::report::doc::{fixed, percent, Document};
use crate::report::error::ReportError;
use crate::report::levels::{load_levels, Levels, RHO_MAX};
use crate::results::{self as data, ComparePlayRow, LevelRow};

/// The plots' and the table's file names in the output folder.
pub const ACPL_SVG: &str = "compare_acpl.svg";
pub const BLUNDERS_SVG: &str = "compare_blunders.svg";
pub const PLAY_CSV: &str = "compare_play.csv";

/// The default targets of the table.
pub const PLAY_TARGETS: [f64; 3] = [1200.0, 1600.0, 2000.0];

/// Each family's levels, in the families' order; None for a family not analysed. A malformed
/// analysis is an error naming its file.
pub fn load_play(families: &[Family]) -> Result<Vec<Option<Levels>>, ReportError> {
    families
        .iter()
        .map(|f| load_levels(&f.dir))
        .map(|l| l.map(|l| l.filter(|l| !l.subjects.is_empty())))
        .collect()
}

/// Linear interpolation of `value` in the curve Elo between the two settings (sorted by Elo)
/// that bracket `target`; None outside their range or when either end lacks the value.
pub(in crate::report) fn interpolate(
    by_elo: &[&LevelRow],
    target: f64,
    value: impl Fn(&LevelRow) -> Option<f64>,
) -> Option<f64> {
    if let [one] = by_elo {
        return (one.level.elo == target).then(|| value(one)).flatten();
    }
    let w = by_elo
        .windows(2)
        .find(|w| w[0].level.elo <= target && target <= w[1].level.elo)?;
    let (a, b) = (w[0], w[1]);
    let (va, vb) = (value(a)?, value(b)?);
    if b.level.elo > a.level.elo {
        Some(va + (target - a.level.elo) / (b.level.elo - a.level.elo) * (vb - va))
    } else {
        Some(va)
    }
}

/// The rows of `compare_play.csv`: every analysed family at every target, in that order.
pub fn play_rows(
    families: &[Family],
    levels: &[Option<Levels>],
    targets: &[f64],
) -> Vec<ComparePlayRow> {
    let mut rows = Vec::new();
    for (f, l) in families.iter().zip(levels) {
        let Some(l) = l else { continue };
        let mut by_elo: Vec<&LevelRow> = l.subjects.iter().collect();
        by_elo.sort_by(|a, b| a.level.elo.total_cmp(&b.level.elo));
        let lo = by_elo.first().map_or(f64::NAN, |r| r.level.elo);
        let hi = by_elo.last().map_or(f64::NAN, |r| r.level.elo);
        for &target in targets {
            let in_range = lo <= target && target <= hi;
            let at = |v: fn(&LevelRow) -> Option<f64>| {
                in_range.then(|| interpolate(&by_elo, target, v)).flatten()
            };
            rows.push(ComparePlayRow {
                family: f.label.clone(),
                target,
                settings: by_elo.len() as u32,
                in_range,
                acpl: at(|r| r.analysis.acpl),
                blunder_rate: at(|r| r.analysis.blunder_rate),
                losing_equal_ratio: at(|r| r.losing_equal_ratio()),
                drop_losing_equal_ratio: at(|r| r.drop_losing_equal_ratio()),
                top1: at(|r| r.analysis.top1),
            });
        }
    }
    rows
}

/// A level's figure with its interval: (value, lower, upper).
type Figure = fn(&LevelRow) -> (Option<f64>, Option<f64>, Option<f64>);

/// What the section draws and tabulates, written by [`write_play`].
pub struct Play {
    pub rows: Vec<ComparePlayRow>,
    pub acpl_plot: bool,
    pub blunders_plot: bool,
}

/// Writes `compare_play.csv` and the two plots into `out` (nothing when no family is analysed).
pub fn write_play(
    out: &Path,
    families: &[Family],
    levels: &[Option<Levels>],
    targets: &[f64],
) -> Result<Play, ReportError> {
    let rows = play_rows(families, levels, targets);
    if levels.iter().all(Option::is_none) {
        return Ok(Play {
            rows,
            acpl_plot: false,
            blunders_plot: false,
        });
    }
    data::write_csv(&out.join(PLAY_CSV), &rows)?;
    let series = |value: Figure| {
        families
            .iter()
            .zip(levels)
            .filter_map(|(f, l)| {
                let l = l.as_ref()?;
                let points = l
                    .subjects
                    .iter()
                    .filter_map(|r| {
                        let (y, lo, hi) = value(r);
                        Some((r.level.elo, y?, lo.unwrap_or(y?), hi.unwrap_or(y?)))
                    })
                    .collect();
                Some(Series {
                    label: f.label.clone(),
                    points,
                })
            })
            .collect::<Vec<_>>()
    };
    let acpl = series(|r| {
        (
            r.analysis.acpl,
            r.analysis.acpl_lower,
            r.analysis.acpl_upper,
        )
    });
    let acpl_plot = level_plot(
        &out.join(ACPL_SVG),
        "ACPL against Elo, every analysed family",
        "average centipawn loss",
        1.0,
        &acpl,
    )?;
    let blunders = series(|r| {
        (
            r.analysis.blunder_rate,
            r.analysis.blunder_rate_lower,
            r.analysis.blunder_rate_upper,
        )
    });
    let blunders_plot = level_plot(
        &out.join(BLUNDERS_SVG),
        "Blunder rate against Elo, every analysed family",
        "blunders per move (%)",
        100.0,
        &blunders,
    )?;
    Ok(Play {
        rows,
        acpl_plot,
        blunders_plot,
    })
}

fn targets_text(targets: &[f64]) -> String {
    let t: Vec<String> = targets.iter().map(|t| format!("{t:.0}")).collect();
    match t.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The section: the plots, the table, each family's Spearman check and the families not
/// analysed.
pub fn play_section(
    doc: &mut Document,
    families: &[Family],
    levels: &[Option<Levels>],
    play: &Play,
    targets: &[f64],
) {
    doc.section("Move quality by level");
    let unanalysed: Vec<&str> = families
        .iter()
        .zip(levels)
        .filter(|(_, l)| l.is_none())
        .map(|(f, _)| f.label.as_str())
        .collect();
    if unanalysed.len() == families.len() {
        doc.para(&format!(
            "No family is analysed (skillcal analyse RUN --out RUN/analysis); not analysed: {}.",
            unanalysed.join(", ")
        ));
        return;
    }
    if play.acpl_plot {
        doc.figure(ACPL_SVG, "Average centipawn loss of each analysed tested setting against its Elo on the fitted curve, with its 95% interval, one series per family (RUN/analysis/analysis.csv joined with fit_points.csv).");
    }
    if play.blunders_plot {
        doc.figure(BLUNDERS_SVG, "Blunder rate (share of moves) of each analysed tested setting against its Elo on the fitted curve, with its 95% interval, one series per family.");
    }
    doc.section(&format!(
        "How each family plays at {}",
        targets_text(targets)
    ));
    let counts: Vec<String> = families
        .iter()
        .zip(levels)
        .filter_map(|(f, l)| Some(format!("{} {}", f.label, l.as_ref()?.subjects.len())))
        .collect();
    doc.para(&format!(
        "Values are interpolated linearly in the curve's Elo between the two tested settings that bracket the target (analysed settings per family: {}); — means the target is outside the analysed settings' Elo range (never extrapolated), n/a that a bracketing setting lacks the figure. Losing/equal blunders: Lichess's blunder rate in losing positions over that in equal ones (it cannot show a level that stops resisting when losing: below about -420 cp no move loses 0.3 in winning chances). Losing/equal drops: the same for material drops, moves losing 300 cp or more (docs/analysis.md). Top-1: share of moves that are the reference engine's first choice ({PLAY_CSV}).",
        counts.join(", ")
    ));
    let rows = play
        .rows
        .iter()
        .map(|r| {
            // outside the analysed range "—"; a bracketing setting without the figure "n/a"
            let shown = |cell: String| if r.in_range { cell } else { "—".into() };
            vec![
                r.family.clone(),
                format!("{:.0}", r.target),
                shown(fixed(r.acpl, 1, "n/a")),
                shown(percent(r.blunder_rate, 1, "n/a")),
                shown(fixed(r.losing_equal_ratio, 2, "n/a")),
                shown(fixed(r.drop_losing_equal_ratio, 2, "n/a")),
                shown(percent(r.top1, 1, "n/a")),
            ]
        })
        .collect();
    doc.table(
        &[
            "family",
            "target",
            "ACPL",
            "blunder rate",
            "losing/equal blunders",
            "losing/equal drops",
            "top-1 agreement",
        ],
        rows,
    );
    for (f, l) in families.iter().zip(levels) {
        let Some(l) = l else { continue };
        let t = &l.trend;
        let text = match t.rho {
            None => format!(
                "{}: Spearman's rho of ACPL against Elo {}.",
                f.label,
                t.why_no_rho()
            ),
            Some(rho) => format!(
                "{}: Spearman's rho of ACPL against Elo = {rho:.3} over {} tested settings: {}.",
                f.label,
                t.settings,
                if t.passes() {
                    format!("ACPL falls as Elo rises (rho <= {RHO_MAX})")
                } else {
                    format!("ACPL does not fall steadily as Elo rises (rho > {RHO_MAX})")
                }
            ),
        };
        doc.para(&text);
    }
    doc.para("Which family plays most like a person is not judged from these columns, which hold no human reference: see the section against human games (skillcal compare --human) when one is given.");
    if !unanalysed.is_empty() {
        doc.para(&format!("Not analysed: {}.", unanalysed.join(", ")));
    }
}
