//! The report's content: one [`Document`] built from a run's data, rendered to Markdown and HTML
//! by the document model.

use std::path::Path;

use super::figures::Figure;
use super::load::RunData;
use super::stats::{verify_noise, verify_stats, GameStats};
use crate::report::doc::files_section;
use crate::report::doc::{f0, Document};
use crate::results::{RangeFlag, HUMAN_SCALES};

/// The report of the run in `dir`.
pub fn document(dir: &Path, d: &RunData, figs: &[Figure], stats: &GameStats) -> Document {
    let lowest = d
        .summary
        .as_ref()
        .map(|s| s.lowest_anchor)
        .unwrap_or(f64::NAN);
    let mut doc = Document::default();
    let name = d
        .summary
        .as_ref()
        .map(|s| s.name.clone())
        .unwrap_or_else(|| dir.display().to_string());
    doc.title = format!("skillcal report: {name}");
    if let Some(s) = &d.summary {
        doc.para(&format!("Scale: {}", s.scale));
        doc.para(&format!(
                "Ratings below the lowest rated reference player ({:.0}: the lowest anchor, or the lowest pool member chained to the anchors by games) rest on the curve's form alone: they are marked extrapolated.",
                s.lowest_anchor
            ),
        );
        let knob_desc: Vec<String> = s
            .knobs
            .iter()
            .map(|k| {
                format!(
                    "{} from {} (t = 0) to {} (t = 1) on a {} scale",
                    k.name, k.from, k.to, k.scale
                )
            })
            .collect();
        doc.para(&format!(
                "Strength path: {}. Model: {}, fitted by maximum likelihood on the {} game results (logistic expected score, pool members as soft anchors, quasi-likelihood dispersion {:.3}); coefficients {:?}. Curve increasing on the path: {}. Largest gap between the isotonic fit of the per-setting ratings and the curve: {:.0} Elo (largest in units of the point's standard error: {:.1}). {} batches, {} of {} games of the budget.",
                knob_desc.join("; "),
                s.formula,
                s.games,
                s.dispersion,
                s.theta.iter().map(|x| (x * 10.0).round() / 10.0).collect::<Vec<_>>(),
                if s.monotone { "yes" } else { "no" },
                s.isotonic_max_gap,
                s.isotonic_max_z,
                s.batches,
                s.games,
                s.budget
            ),
        );
        if s.residual_points > 0 {
            let dof = (s.residual_points as usize).saturating_sub(s.theta.len());
            // no degrees of freedom left (as many coefficients as settings): no test, and NaN
            let p = if dof == 0 {
                " (no p-value: the curve has as many coefficients as there are tested settings, so it fits them without a residual test)".into()
            } else if s.residual_p.is_finite() {
                format!(", p = {:.3} (approximate; a small p says the curve's form misses the data, see the isotonic fit in the plot)", s.residual_p)
            } else {
                ", p –".into()
            };
            doc.para(&format!(
                "Residuals of the {} tested settings against the curve (each rated on its own): chi-square {:.1} on {dof} degrees of freedom{p}.",
                s.residual_points, s.residual_chi2,
            ));
        }
        for n in &s.notes {
            doc.para(&format!("Note: {n}"));
        }
    }
    table_section(&mut doc, d);
    // figures
    if !figs.is_empty() {
        doc.section("Plots");
        for f in figs {
            doc.figure(&f.file, &f.caption);
        }
    }
    verify_section(&mut doc, d, lowest);
    super::verify::verify_opponents_section(&mut doc, &d.verify, &d.verify_opponents);
    super::tc::tc_check_section(&mut doc, &d.tc_check);
    pool_section(&mut doc, d);
    points_section(&mut doc, d);
    if !d.games.is_empty() {
        doc.section("Games");
        doc.para(&stats.paragraph());
    } else if let Some(s) = &d.summary {
        doc.section("Games");
        doc.para(&format!(
            "games.csv is missing, so the statistics of the {} games the fit counts are not \
             shown; `skillcal calibrate CONFIG --out {} --fit-only` writes it from matches/.",
            s.games,
            dir.display()
        ));
    }
    if let Some(l) = &d.levels {
        crate::report::levels::levels_section(&mut doc, l);
    }
    files_section(&mut doc, dir, &["report.md", "report.html"]);
    if let Some(t) = &d.table {
        doc.code(t);
    }
    doc
}

/// The UCI_Elo table, with its rows on Lichess's scales when the table gives them.
fn table_section(doc: &mut Document, d: &RunData) {
    if !d.targets.is_empty() {
        doc.section("UCI_Elo table");
        let (human_head, human) = human_columns(d.table.as_deref().unwrap_or(""));
        let mut head = vec![
            "target",
            "settings",
            "setting plays at (95%)",
            "± (95%)",
            "t (95%)",
            "flags",
        ];
        head.extend(human_head.iter().map(String::as_str));
        let rows: Vec<Vec<String>> = d
            .targets
            .iter()
            .map(|r| {
                let mut flags = Vec::new();
                if r.extrapolated {
                    flags.push("extrapolated".to_string());
                }
                if r.range != RangeFlag::Ok {
                    flags.push(format!("beyond range ({})", r.range.as_str()));
                }
                if !r.precision_met && r.range == RangeFlag::Ok {
                    flags.push("precision not met".into());
                }
                let mut row = vec![
                    f0(r.target),
                    r.knobs.replace(';', ", "),
                    format!("{} [{}, {}]", f0(r.elo), f0(r.elo_lower), f0(r.elo_upper)),
                    f0(r.half_width),
                    format!("{:.3} [{:.3}, {:.3}]", r.t, r.t_lower, r.t_upper),
                    flags.join(", "),
                ];
                let key = f0(r.target);
                let theirs = human.iter().find(|(t, _)| *t == key);
                row.extend((0..human_head.len()).map(|i| {
                    theirs
                        .and_then(|(_, v)| v.get(i).cloned())
                        .unwrap_or_else(|| "–".into())
                }));
                row
            })
            .collect();
        doc.table(&head, rows);
        if !human_head.is_empty() {
            // the table's comment line of each scale: its map and what it rests on
            let notes: Vec<&str> = d
                .table
                .as_deref()
                .unwrap_or("")
                .lines()
                .filter_map(|l| l.strip_prefix("# "))
                .filter(|n| {
                    HUMAN_SCALES
                        .iter()
                        .any(|s| n.starts_with(&format!("{s}: ")))
                })
                .collect();
            doc.para(&format!(
                "The Lichess columns are the target on Lichess's scales by the human scale the pool measured ({}); a user reading `UCI_Elo` on those scales sets `UCI_EloScale`.",
                notes.join("; ")
            ));
        }
        doc.para("uci_elo_table.csv holds the same rows with interval columns. When the subject is skillcal's engine, the engine loads it (its StrengthTable option; `skillcal report` and `compare` refuse a table that loader refuses) and interpolates between rows.",
        );
        // another engine's table says in its header what limit its rows hold at
        if let Some(limits) = d
            .table
            .as_deref()
            .and_then(|t| t.lines().find_map(|l| l.strip_prefix("# limits: ")))
        {
            doc.para(&format!("The table's limit: {limits}."));
        }
    }
}

/// The verification of the table's levels: measured against target.
fn verify_section(doc: &mut Document, d: &RunData, lowest: f64) {
    if !d.verify.is_empty() {
        doc.section("Verification");
        let run_pool = d.verify.iter().any(|r| r.measured_run_pool.is_some());
        let mut head = vec![
            "target",
            "measured",
            "95% interval",
            "measured − target",
            "games",
            "score",
        ];
        if run_pool {
            head.push("on the run's pool ratings (− target)");
        }
        let rows: Vec<Vec<String>> = d
            .verify
            .iter()
            .map(|r| {
                let mut row = vec![
                    f0(r.target),
                    f0(r.measured),
                    format!("[{}, {}]", f0(r.lower), f0(r.upper)),
                    format!(
                        "{:+.0}{}",
                        r.diff,
                        if r.extrapolated {
                            " (extrapolated)"
                        } else {
                            ""
                        }
                    ),
                    r.games.to_string(),
                    format!("{:.1}%", 100.0 * r.score),
                ];
                if run_pool {
                    row.push(match r.measured_run_pool {
                        Some(m) => format!("{} ({:+.0})", f0(m), m - r.target),
                        None => String::new(),
                    });
                }
                row
            })
            .collect();
        doc.table(&head, rows);
        let low = if lowest.is_finite() {
            lowest
        } else {
            f64::NEG_INFINITY
        };
        let (rms, n, off) = verify_stats(&d.verify, low);
        doc.para(&format!(
                "RMS of measured − target over the {n} levels in the anchored range: {} Elo. Levels off by more than twice their 95% half-width: {}.",
                f0(rms),
                if off.is_empty() { "none".to_string() } else { format!("{off:?}") }
            ),
        );
        if let Some((noise, own)) = verify_noise(&d.verify, low) {
            doc.para(&format!(
                "The games' noise alone makes an RMS of about {} Elo (each level's rating variance from its own games, averaged; the pool's uncertainty, in the intervals too, is shared with the table and cancels in the miss): an exact table would read that much. The table's own error, the mean squared miss less that variance: about {} Elo.",
                f0(noise),
                f0(own)
            ));
        }
        if run_pool {
            doc.para("The measured ratings place the pool as the calibration does (the anchor table's values as soft anchors, prior SD as in the calibration, and the measured pool file's own games when the calibration loads one) and add the verification games; the calibration's games are not counted. The last column rates the same games with the pool at the calibration run's own fitted ratings. It is not independent of the calibration, but it is free of any difference between the run's pool spacing and the anchor table.",
            );
        }
    }
}

/// The reference pool as this run fitted it, beside the pool file's ratings.
fn pool_section(doc: &mut Document, d: &RunData) {
    if !d.pool.is_empty() {
        doc.section("Reference pool");
        let measured = d.pool.iter().any(|p| p.pool_file_elo.is_some());
        let mut head = vec![
            "player",
            "anchor (prior)",
            "fitted Elo",
            "95% interval",
            "fitted − anchor",
            "games",
        ];
        if measured {
            head.extend(["pool file (95%)", "fitted − pool file"]);
        }
        let apart: Vec<&str> = d
            .pool
            .iter()
            .filter(|p| p.outside_pool_file() == Some(true))
            .map(|p| p.name.as_str())
            .collect();
        let rows: Vec<Vec<String>> = d
            .pool
            .iter()
            .map(|p| {
                let mut row = vec![
                    p.name.clone(),
                    match (p.anchor, p.anchor_sd) {
                        (Some(a), Some(sd)) if sd > 0.0 => format!("{a:.0} ± {sd:.0}"),
                        (Some(a), _) => format!("{a:.0} (fixed)"),
                        _ => "none".into(),
                    },
                    f0(p.elo),
                    format!("[{}, {}]", f0(p.lower), f0(p.upper)),
                    p.anchor
                        .map(|a| format!("{:+.0}", p.elo - a))
                        .unwrap_or_default(),
                    p.games.to_string(),
                ];
                if measured {
                    match (p.pool_file_elo, p.pool_file_lower, p.pool_file_upper) {
                        (Some(e), Some(lo), Some(hi)) => {
                            let out = p.outside_pool_file() == Some(true);
                            row.push(format!("{} [{}, {}]", f0(e), f0(lo), f0(hi)));
                            row.push(format!(
                                "{:+.0}{}",
                                p.elo - e,
                                if out { " (outside)" } else { "" }
                            ));
                        }
                        _ => row.extend([String::new(), String::new()]),
                    }
                }
                row
            })
            .collect();
        doc.table(&head, rows);
        if d.summary.as_ref().is_some_and(|s| s.pool_held) {
            doc.para(
                "The members are held at their pool-file ratings (`pool.hold`): the run's games \
                 place only its settings, and the pool file's uncertainty is carried into the \
                 curve's band. How the run's games alone see the members: \
                 `scripts/research/member-views.py POOL_DIR ANCHOR --with skillcal_ games.csv`.",
            );
        } else if measured {
            doc.para(&if apart.is_empty() {
                "Every member's fitted rating lies within its interval in the pool file (its own \
                 games): the run's games agree with the pool's."
                    .to_string()
            } else {
                format!(
                    "Fitted outside their pool-file interval: {}. The run's games against these \
                     members disagree with the pool's own games about where they stand: strength is \
                     not transitive between these engines and the subject, and the fit (which \
                     counts both) splits the difference, so the table's rows rated through them \
                     carry that disagreement.",
                    apart.join(", ")
                )
            });
        }
    }
}

/// Each tested setting rated on its own, beside the curve.
fn points_section(doc: &mut Document, d: &RunData) {
    if !d.points.is_empty() {
        doc.section("Tested settings");
        let head = [
            "settings",
            "games",
            "score",
            "draws",
            "own Elo (95%)",
            "curve",
            "residual (z)",
            "isotonic",
        ];
        let rows: Vec<Vec<String>> = d
            .points
            .iter()
            .map(|p| {
                vec![
                    p.knobs.replace(';', ", "),
                    p.games.to_string(),
                    format!("{:.1}%", 100.0 * p.score),
                    format!("{:.1}%", 100.0 * p.draw_rate),
                    format!("{} [{}, {}]", f0(p.elo), f0(p.lower), f0(p.upper)),
                    f0(p.curve),
                    format!("{:+.0} ({:+.1})", p.residual, p.z),
                    f0(p.isotonic),
                ]
            })
            .collect();
        doc.table(&head, rows);
    }
}

/// The table's human-scale columns (`lichess_blitz`, ...): their headings and each row's values
/// by its `elo` as written.
fn human_columns(table: &str) -> (Vec<String>, Vec<(String, Vec<String>)>) {
    let body: String = table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    let mut r = csv::ReaderBuilder::new().from_reader(body.as_bytes());
    let Ok(header) = r.headers().cloned() else {
        return (Vec::new(), Vec::new());
    };
    let cols: Vec<usize> = (0..header.len())
        .filter(|&i| crate::results::is_human_column(&header[i]))
        .collect();
    if cols.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let heads = cols
        .iter()
        .map(|&i| header[i].replace('_', " ").replace("lichess", "Lichess"))
        .collect();
    let rows = r
        .records()
        .flatten()
        .map(|rec| {
            let elo = rec.get(0).unwrap_or("").to_string();
            (
                elo,
                cols.iter()
                    .map(|&i| rec.get(i).unwrap_or("").to_string())
                    .collect(),
            )
        })
        .collect();
    (heads, rows)
}
