//! Markdown / HTML / SVG reports of a calibration or verification run directory.
//!
//! `skillcal report DIR` renders whatever result files DIR holds (see [`data`]): the fitted
//! curve and the tested settings, the table with its intervals and flags, the pool, the
//! verification (DIR/verify.csv or DIR/verify/verify.csv) and game statistics from DIR/games.csv.
//! `report.html` is self-contained (the SVGs are inlined); `report.md` links the SVG files.

pub mod plots;
pub mod stats;

use stats::{game_stats, GameStats};

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use crate::results::{
    self as data, CurveRow, GameRow, PointRow, PoolRow, RangeFlag, Summary, TargetRow, VerifyRow,
};

fn read_opt<T: serde::de::DeserializeOwned>(path: &Path) -> anyhow::Result<Vec<T>> {
    if path.exists() {
        Ok(data::read_csv(path)?)
    } else {
        Ok(Vec::new())
    }
}

/// Everything a report shows, read from a run directory.
pub struct RunData {
    pub summary: Option<Summary>,
    pub curve: Vec<CurveRow>,
    pub points: Vec<PointRow>,
    pub pool: Vec<PoolRow>,
    pub targets: Vec<TargetRow>,
    pub verify: Vec<VerifyRow>,
    pub games: Vec<GameRow>,
    pub table: Option<String>,
}

pub fn load(dir: &Path) -> anyhow::Result<RunData> {
    if !dir.is_dir() {
        bail!("{} is not a results directory", dir.display());
    }
    let summary = if dir.join("summary.toml").exists() {
        Some(data::read_summary(dir)?)
    } else {
        None
    };
    let verify_path = [
        dir.join("verify.csv"),
        dir.join("verify").join("verify.csv"),
    ]
    .into_iter()
    .find(|p| p.exists());
    let verify = match verify_path {
        Some(p) => data::read_csv(&p)?,
        None => Vec::new(),
    };
    let table_path = dir.join("uci_elo_table.csv");
    Ok(RunData {
        summary,
        curve: read_opt(&dir.join("fit_curve.csv"))?,
        points: read_opt(&dir.join("fit_points.csv"))?,
        pool: read_opt(&dir.join("pool.csv"))?,
        targets: read_opt(&dir.join("table_details.csv"))?,
        verify,
        games: read_opt(&dir.join("games.csv"))?,
        table: std::fs::read_to_string(&table_path).ok(),
    })
}

struct Figure {
    file: String,
    caption: String,
}

fn f0(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.0}")
    } else {
        "–".into()
    }
}

/// Writes report.md, report.html, the SVG plots and the game-statistics CSVs; returns the HTML path.
pub fn generate(dir: &Path) -> anyhow::Result<PathBuf> {
    let d = load(dir)?;
    let mut figs: Vec<Figure> = Vec::new();
    let knobs: Vec<String> = d
        .summary
        .as_ref()
        .map(|s| s.knobs.iter().map(|k| k.name.clone()).collect())
        .unwrap_or_default();
    let lowest = d
        .summary
        .as_ref()
        .map(|s| s.lowest_anchor)
        .unwrap_or(f64::NAN);
    if !d.curve.is_empty() || !d.points.is_empty() {
        for k in &knobs {
            let file = format!("elo_vs_{}.svg", sanitize(k));
            plots::curve_plot(&dir.join(&file), k, &d.curve, &d.points, &d.pool, lowest)?;
            figs.push(Figure {
                file,
                caption: format!(
                    "Elo against {k}: fitted curve with its 95% band (blue), each tested setting rated on its own with its 95% interval (red), isotonic fit through those (green), the pool members' fitted ratings (grey lines)."
                ),
            });
        }
    }
    if !d.verify.is_empty() {
        let file = "verify.svg".to_string();
        plots::verify_plot(&dir.join(&file), &d.verify)?;
        figs.push(Figure {
            file,
            caption: "Verification: each UCI_Elo level's measured rating (95% interval) against its target.".into(),
        });
    }
    if !d.points.is_empty() {
        if let Some(k) = knobs.first() {
            let file = "draw_rate.svg".to_string();
            plots::draw_rate_plot(&dir.join(&file), &d.points, k, &d.curve)?;
            figs.push(Figure {
                file,
                caption: "Draw rate of each tested setting.".into(),
            });
        }
    }
    let GameStats {
        white_wins: w,
        draws: dr,
        black_wins: l,
        mean_plies,
        terminations: terms,
        bins,
    } = game_stats(&d.games);
    if !d.games.is_empty() {
        plots::length_plot(&dir.join("game_length.svg"), &bins)?;
        figs.push(Figure {
            file: "game_length.svg".into(),
            caption: "Game length in plies, all games.".into(),
        });
        plots::terminations_plot(&dir.join("terminations.svg"), &terms)?;
        figs.push(Figure {
            file: "terminations.svg".into(),
            caption: "How the games ended.".into(),
        });
        let mut t = String::from("termination,games,share\n");
        for (k, c) in &terms {
            let _ = writeln!(t, "{k},{c},{:.4}", *c as f64 / d.games.len() as f64);
        }
        std::fs::write(dir.join("terminations.csv"), t)?;
        let mut b = String::from("plies_from,plies_to,games\n");
        for (a, z, c) in &bins {
            let _ = writeln!(b, "{a},{z},{c}");
        }
        std::fs::write(dir.join("game_lengths.csv"), b)?;
    }

    // Markdown and HTML are built side by side from the same blocks.
    let mut md = String::new();
    let mut html = String::new();
    let name = d
        .summary
        .as_ref()
        .map(|s| s.name.clone())
        .unwrap_or_else(|| dir.display().to_string());
    let _ = writeln!(md, "# skillcal report: {name}\n");
    let _ = write!(
        html,
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>skillcal report: {}</title><style>{}</style></head><body><h1>skillcal report: {}</h1>",
        esc(&name),
        CSS,
        esc(&name)
    );
    let para = |md: &mut String, html: &mut String, text: &str| {
        let _ = writeln!(md, "{text}\n");
        let _ = write!(html, "<p>{}</p>", esc(text));
    };
    if let Some(s) = &d.summary {
        para(&mut md, &mut html, &format!("Scale: {}", s.scale));
        para(
            &mut md,
            &mut html,
            &format!(
                "Ratings below the lowest anchor ({:.0}) rest on chaining and on the curve's form: they are marked extrapolated.",
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
        para(
            &mut md,
            &mut html,
            &format!(
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
            para(
                &mut md,
                &mut html,
                &format!(
                    "Residuals of the {} tested settings against the curve (each rated on its own): chi-square {:.1} on {} degrees of freedom, p = {:.3} (approximate; a small p says the curve's form misses the data, see the isotonic fit in the plot).",
                    s.residual_points,
                    s.residual_chi2,
                    (s.residual_points as usize).saturating_sub(s.theta.len()),
                    s.residual_p
                ),
            );
        }
        for n in &s.notes {
            para(&mut md, &mut html, &format!("Note: {n}"));
        }
    }
    // table
    if !d.targets.is_empty() {
        section(&mut md, &mut html, "UCI_Elo table");
        let head = [
            "target",
            "settings",
            "setting plays at (95%)",
            "± (95%)",
            "t (95%)",
            "flags",
        ];
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
                vec![
                    f0(r.target),
                    r.knobs.replace(';', ", "),
                    format!("{} [{}, {}]", f0(r.elo), f0(r.elo_lower), f0(r.elo_upper)),
                    f0(r.half_width),
                    format!("{:.3} [{:.3}, {:.3}]", r.t, r.t_lower, r.t_upper),
                    flags.join(", "),
                ]
            })
            .collect();
        table(&mut md, &mut html, &head, &rows);
        para(
            &mut md,
            &mut html,
            "The engine loads uci_elo_table.csv (the same rows with interval columns) and interpolates between rows.",
        );
    }
    // figures
    if !figs.is_empty() {
        section(&mut md, &mut html, "Plots");
        for f in &figs {
            let _ = writeln!(md, "![{}]({})\n\n*{}*\n", f.file, f.file, f.caption);
            let svg = std::fs::read_to_string(dir.join(&f.file))
                .with_context(|| format!("cannot read {}", f.file))?;
            let svg = svg.trim_start_matches(|c| c != '<');
            let svg = if svg.starts_with("<?xml") {
                svg.split_once("?>").map(|x| x.1).unwrap_or(svg)
            } else {
                svg
            };
            let _ = write!(
                html,
                "<figure>{}<figcaption>{}</figcaption></figure>",
                svg,
                esc(&f.caption)
            );
        }
    }
    // verify
    if !d.verify.is_empty() {
        section(&mut md, &mut html, "Verification");
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
        table(&mut md, &mut html, &head, &rows);
        let low = if lowest.is_finite() {
            lowest
        } else {
            f64::NEG_INFINITY
        };
        let (rms, n, off) = stats::verify_stats(&d.verify, low);
        para(
            &mut md,
            &mut html,
            &format!(
                "RMS of measured − target over the {n} levels in the anchored range: {} Elo. Levels off by more than twice their 95% half-width: {}.",
                f0(rms),
                if off.is_empty() { "none".to_string() } else { format!("{off:?}") }
            ),
        );
        if run_pool {
            para(
                &mut md,
                &mut html,
                "The measured ratings hold the pool at the anchor table's values (prior SD as in the calibration), using the verification games alone. The last column rates the same games with the pool at the calibration run's own fitted ratings. It is not independent of the calibration, but it is free of any difference between the run's pool spacing and the anchor table.",
            );
        }
    }
    // pool
    if !d.pool.is_empty() {
        section(&mut md, &mut html, "Reference pool");
        let head = [
            "player",
            "anchor (prior)",
            "fitted Elo",
            "95% interval",
            "fitted − anchor",
            "games",
        ];
        let rows: Vec<Vec<String>> = d
            .pool
            .iter()
            .map(|p| {
                vec![
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
                ]
            })
            .collect();
        table(&mut md, &mut html, &head, &rows);
    }
    // points
    if !d.points.is_empty() {
        section(&mut md, &mut html, "Tested settings");
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
        table(&mut md, &mut html, &head, &rows);
    }
    if !d.games.is_empty() {
        section(&mut md, &mut html, "Games");
        let n = d.games.len();
        para(
            &mut md,
            &mut html,
            &format!(
                "{n} games: White won {w}, {dr} draws ({:.1}%), Black won {l}; mean length {mean_plies:.0} plies. Terminations: {}.",
                100.0 * dr as f64 / n as f64,
                terms
                    .iter()
                    .map(|(k, c)| format!("{k} {c}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
    section(&mut md, &mut html, "Files");
    para(
        &mut md,
        &mut html,
        "uci_elo_table.csv (the table), table_details.csv (targets with intervals and flags), fit_curve.csv (curve and band), fit_points.csv (tested settings), pool.csv, games.csv (every game; PGNs in matches/*/), plan.csv (why each match was played), terminations.csv, game_lengths.csv, summary.toml.",
    );
    if let Some(t) = &d.table {
        let _ = writeln!(md, "```\n{}```\n", t);
        let _ = write!(html, "<pre>{}</pre>", esc(t));
    }
    html.push_str("</body></html>\n");
    std::fs::write(dir.join("report.md"), md)?;
    let out = dir.join("report.html");
    std::fs::write(&out, html).with_context(|| format!("cannot write {}", out.display()))?;
    Ok(out)
}

const CSS: &str = "body{font-family:sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;color:#222}table{border-collapse:collapse;margin:1em 0;font-size:0.9em}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f3f3f3}td:nth-child(2){text-align:left}figure{margin:1.5em 0}figcaption{font-size:0.9em;color:#555}pre{background:#f7f7f7;padding:0.8em;overflow-x:auto}";

fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn section(md: &mut String, html: &mut String, title: &str) {
    let _ = writeln!(md, "## {title}\n");
    let _ = write!(html, "<h2>{}</h2>", esc(title));
}

fn table(md: &mut String, html: &mut String, head: &[&str], rows: &[Vec<String>]) {
    let _ = writeln!(md, "| {} |", head.join(" | "));
    let _ = writeln!(md, "|{}", " --- |".repeat(head.len()));
    for r in rows {
        let _ = writeln!(md, "| {} |", r.join(" | "));
    }
    md.push('\n');
    html.push_str("<table><tr>");
    for h in head {
        let _ = write!(html, "<th>{}</th>", esc(h));
    }
    html.push_str("</tr>");
    for r in rows {
        html.push_str("<tr>");
        for c in r {
            let _ = write!(html, "<td>{}</td>", esc(c));
        }
        html.push_str("</tr>");
    }
    html.push_str("</table>");
}
