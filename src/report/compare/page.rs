//! `skillcal compare DIR...`: the weakening families side by side, from their calibration run
//! folders: one plot of every curve, each family's settings and node cost at each target, and
//! per family its budget, covered range, verification and time-control check. Written as
//! compare.md and self-contained compare.html (the report's document model) with CSVs and SVG.

use std::path::{Path, PathBuf};

use super::data::{family_row, load_family, same_folder, target_rows, Family};
use super::human::{human_section, load_human, write_human, HumanInput, MatchingRow};
use super::play::{load_play, play_section, write_play, Play, PLAY_TARGETS};
use super::plot::curves_plot;
use super::tradeoff::{band_means, band_rows, write_tradeoff, TRADEOFF_SVG};
use crate::fsutil::FileError;
use crate::report::doc::files_section;
use crate::report::doc::{f0, Document};
use crate::report::error::{write, ReportError};
use crate::report::levels::Levels;
use crate::results::{
    self as data, CompareBandRow, CompareFamilyRow, CompareHumanRow, CompareTargetRow, TcVerdict,
};

/// The plot's file name in the output folder.
pub const CURVES_SVG: &str = "compare_curves.svg";

/// The comparison's options.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareOptions {
    /// The Elo at which the play-analysis table shows how each family plays.
    pub play_targets: Vec<f64>,
    /// `skillcal analyse --human` output (human.csv, or its folder) to set the families beside.
    pub human: Option<PathBuf>,
    /// More move-matching folders (`analyse --human --matching-only`, their matching.csv): with
    /// `human`'s, the rows of the figure of move-matching against Elo.
    pub matching: Vec<PathBuf>,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            play_targets: PLAY_TARGETS.to_vec(),
            human: None,
            matching: Vec::new(),
        }
    }
}

/// Writes the comparison of the run folders `dirs` (each with an optional label) into `out`;
/// returns the HTML page's path.
pub fn compare(
    dirs: &[(PathBuf, Option<String>)],
    out: &Path,
    options: &CompareOptions,
) -> Result<PathBuf, ReportError> {
    let mut families = Vec::new();
    for (dir, label) in dirs {
        let f = load_family(dir, label.as_deref())?;
        // one folder spelt two ways is still one folder
        if families.iter().any(|o: &Family| same_folder(&o.dir, dir)) {
            return Err(ReportError::Results(data::ResultsError::Invalid {
                path: dir.clone(),
                message: "given twice".into(),
            }));
        }
        if let Some(other) = families.iter().find(|o: &&Family| o.label == f.label) {
            return Err(ReportError::Results(data::ResultsError::Invalid {
                path: dir.clone(),
                message: format!(
                    "its label `{}` is also {}'s: name one with --name LABEL=DIR",
                    f.label,
                    other.dir.display()
                ),
            }));
        }
        families.push(f);
    }
    let levels = load_play(&families)?;
    // read before anything is written, so a bad file leaves no half-written page
    let human = options.human.as_deref().map(load_human).transpose()?;
    let mut matching: Vec<MatchingRow> = human.iter().flat_map(|h| h.matching.clone()).collect();
    for dir in &options.matching {
        matching.extend(data::read_csv_rows::<MatchingRow>(
            &dir.join("matching.csv"),
        )?);
    }
    std::fs::create_dir_all(out).map_err(|source| FileError::write(out, source))?;
    let fam_rows: Vec<CompareFamilyRow> = families.iter().map(family_row).collect();
    let tgt_rows = target_rows(&families);
    data::write_csv(&out.join("compare_families.csv"), &fam_rows)?;
    data::write_csv(&out.join("compare_targets.csv"), &tgt_rows)?;
    let plotted = curves_plot(&out.join(CURVES_SVG), &families)?;
    let play = write_play(out, &families, &levels, &options.play_targets)?;
    let human_rows = match &human {
        Some(h) => write_human(out, &families, &levels, h)?,
        None => Vec::new(),
    };
    let bands = band_rows(&matching);
    let tradeoff = !matching.is_empty() && write_tradeoff(out, &families, &matching, &bands)?;
    let analysis = Analysis {
        levels: &levels,
        play: &play,
        targets: &options.play_targets,
        human: human.as_ref().map(|h| (h, human_rows.as_slice())),
        tradeoff,
        bands: &bands,
    };
    let doc = document(out, &families, &fam_rows, &tgt_rows, plotted, &analysis);
    write(&out.join("compare.md"), &doc.to_markdown())?;
    let html = out.join("compare.html");
    write(&html, &doc.to_html(out)?)?;
    Ok(html)
}

fn span(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) => format!("{a:.0}–{b:.0}"),
        _ => "none".into(),
    }
}

fn document(
    out: &Path,
    families: &[Family],
    fam_rows: &[CompareFamilyRow],
    tgt_rows: &[CompareTargetRow],
    plotted: bool,
    analysis: &Analysis,
) -> Document {
    let mut doc = Document {
        title: format!(
            "skillcal comparison: {}",
            families
                .iter()
                .map(|f| f.label.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ..Document::default()
    };
    let mut scales: Vec<&str> = families
        .iter()
        .filter_map(|f| f.summary.as_ref().map(|s| s.scale.as_str()))
        .collect();
    scales.dedup();
    let scale = match scales.as_slice() {
        [] => "no family has a fit yet".to_string(),
        [one] => one.to_string(),
        _ => format!(
            "the families differ, so their Elo are not comparable: {}",
            families
                .iter()
                .filter_map(|f| f
                    .summary
                    .as_ref()
                    .map(|s| format!("{}: {}", f.label, s.scale)))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    };
    doc.para(&format!("Scale: {scale}"));
    doc.section("Families");
    let rows = fam_rows
        .iter()
        .zip(families)
        .map(|(r, f)| {
            // without the file the range is unknown, which "none" would misstate
            let covered = |a, b| {
                if f.missing.contains(&"table_details.csv") {
                    "no table_details.csv".to_string()
                } else {
                    span(a, b)
                }
            };
            vec![
                r.family.clone(),
                r.status.clone(),
                r.games.map(|g| g.to_string()).unwrap_or_default(),
                r.budget.map(|g| g.to_string()).unwrap_or_default(),
                r.game_hours
                    .map(|h| format!("{h:.2} h"))
                    .unwrap_or_default(),
                covered(r.covered75_from, r.covered75_to),
                covered(r.covered50_from, r.covered50_to),
                r.verify_rms
                    .map(f0)
                    .unwrap_or_else(|| "not verified".into()),
                match r.tc_check {
                    Some(TcVerdict::Fail) => "FAIL (marked)".into(),
                    Some(v) => v.as_str().into(),
                    None => "not checked".into(),
                },
            ]
        })
        .collect();
    doc.table(
        &[
            "family",
            "fit",
            "games",
            "budget",
            "game time",
            "targets within ±75",
            "targets within ±50",
            "verify RMS",
            "time-control check",
        ],
        rows,
    );
    doc.para("Game time: the seconds of play of the run's games summed (games.csv; two games play at once on two cores, so the wall time is about half). A run on a measured pool file plays no pool-against-pool games: it counts the file's games in every fit. Targets within ±75 / ±50: the lowest and highest in-range table target whose 95% interval is that narrow (table_details.csv). Verify RMS: measured − target over the verified levels in the anchored range (verify/verify.csv). Time-control check: each level rated at 10+0.1 and 60+0.6 (tc-check/tc_check.csv); it passes when every level's difference has its 95% interval within ±50 Elo, fails (marked FAIL) when a level's lies beyond ±50, and is inconclusive otherwise: the games cannot tell.");
    if plotted {
        doc.section("Elo against t");
        doc.figure(
            CURVES_SVG,
            &format!("Each family's fitted curve with its 95% band (fit_curve.csv) and its tested settings rated on their own (fit_points.csv). Scale: {scale}"),
        );
    }
    targets_section(&mut doc, tgt_rows);
    play_analysis_section(&mut doc, families, analysis);
    files_section(&mut doc, out, &["compare.md", "compare.html"]);
    doc
}

/// Each family's settings and strength at each target.
fn targets_section(doc: &mut Document, tgt_rows: &[CompareTargetRow]) {
    if !tgt_rows.is_empty() {
        doc.section("At each target");
        doc.para("Each family's knob settings for the target, the nodes a move they search at most (path: the family's path moves LimitNodes; fixed: the subject's LimitNodes option in the run's calibrate.toml; unbounded: nothing limits them) with the node limit's 95% interval when the path moves it (uci_elo_table.csv), and the Elo the setting plays at by the fitted curve with its 95% interval.");
        let rows = tgt_rows
            .iter()
            .map(|r| {
                let mut flags = Vec::new();
                if r.extrapolated {
                    flags.push("extrapolated".to_string());
                }
                if r.range != "ok" {
                    flags.push(format!("beyond range ({})", r.range));
                }
                vec![
                    f0(r.target),
                    r.family.clone(),
                    r.knobs.replace(';', ", "),
                    match (r.nodes, r.nodes_lower, r.nodes_upper) {
                        (Some(n), Some(lo), Some(hi)) => {
                            format!("{n:.0} [{lo:.0}, {hi:.0}] ({})", r.nodes_source)
                        }
                        (Some(n), _, _) => format!("{n:.0} ({})", r.nodes_source),
                        _ => r.nodes_source.clone(),
                    },
                    format!("{} [{}, {}]", f0(r.elo), f0(r.elo_lower), f0(r.elo_upper)),
                    flags.join(", "),
                ]
            })
            .collect();
        doc.table(
            &[
                "target",
                "family",
                "settings",
                "nodes a move (95%)",
                "plays at (95%)",
                "flags",
            ],
            rows,
        );
    }
}

/// Each family's levels (None: not analysed), the section's rows and plots, the table's
/// targets.
pub struct Analysis<'a> {
    pub levels: &'a [Option<Levels>],
    pub play: &'a Play,
    pub targets: &'a [f64],
    /// Human games and the families' rows beside them, when given.
    pub human: Option<(&'a HumanInput, &'a [CompareHumanRow])>,
    /// Whether the figure of move-matching against Elo was drawn.
    pub tradeoff: bool,
    /// The settings played at each band's level beside the best Maia net (compare_bands.csv).
    pub bands: &'a [CompareBandRow],
}

/// Per-level play-analysis figures of each family (move quality by level, from `skillcal
/// analyse`; a run's [`crate::report::levels::load_levels`]), after the targets and before the Files
/// section.
pub fn play_analysis_section(doc: &mut Document, families: &[Family], analysis: &Analysis) {
    play_section(
        doc,
        families,
        analysis.levels,
        analysis.play,
        analysis.targets,
    );
    if let Some((human, rows)) = analysis.human {
        human_section(doc, human, rows);
    }
    if analysis.tradeoff {
        doc.section("Playing like people against strength");
        doc.figure(
            TRADEOFF_SVG,
            "Each setting at the Elo it plays (the pool's scale) against how often it plays the human's move in a rating band of people (95% intervals, bootstrap over games): a family at UCI_Elo = each band's middle, against that band; a family's knob at fixed values (analyse --match-as-given), placed by its run's fitted curve, and each Maia-1 net's top move at its rating as a pool member, against the band of their Lichess blitz equivalent. Up and to the right is both.",
        );
    }
    bands_section(doc, analysis.bands);
}

/// Each band: the best Maia-1 net's top move, and every setting played at the band's level
/// beside it (points above or below it); then the means over Maia's bands 1100-1999.
fn bands_section(doc: &mut Document, rows: &[CompareBandRow]) {
    if rows.is_empty() {
        return;
    }
    let mut lines: Vec<&str> = Vec::new();
    let mut bands: Vec<&str> = Vec::new();
    for r in rows {
        if !lines.contains(&r.line.as_str()) {
            lines.push(&r.line);
        }
        if !bands.contains(&r.band.as_str()) {
            bands.push(&r.band);
        }
    }
    doc.section("Each band's level beside the best Maia net");
    doc.para("How often each setting played at a band's level (UCI_Elo the band's middle, on the scale its setting names) plays the human's move there, and in brackets its distance in points from the best Maia-1 net's top move on that band: measured on the same positions where the nets were (a sample's own), else on all of the band's (compare_bands.csv, with 95% intervals).");
    let mut head = vec!["band".to_string(), "best Maia net".to_string()];
    head.extend(lines.iter().map(|l| l.to_string()));
    let table = bands
        .iter()
        .map(|&band| {
            let mut nets: Vec<String> = Vec::new();
            for r in rows.iter().filter(|r| r.band == band) {
                let net = format!("{}: {:.1}%", r.best_net, 100.0 * r.best_net_rate);
                if !nets.contains(&net) {
                    nets.push(net);
                }
            }
            let mut row = vec![band.to_string(), nets.join("; ")];
            row.extend(lines.iter().map(|l| {
                rows.iter()
                    .find(|r| r.band == band && r.line == *l)
                    .map_or(String::new(), |r| {
                        format!(
                            "{:.1}% ({:+.1})",
                            100.0 * r.rate,
                            100.0 * (r.rate - r.best_net_rate)
                        )
                    })
            }));
            row
        })
        .collect();
    let head: Vec<&str> = head.iter().map(String::as_str).collect();
    doc.table(&head, table);
    let means = band_means(rows);
    if !means.is_empty() {
        doc.para(&format!(
            "Means over the bands 1100-1999, each band once: {}.",
            means
                .iter()
                .map(|(l, m, best, n)| format!(
                    "{l} {:.1}% (the best nets {:.1}%; {n} bands)",
                    100.0 * m,
                    100.0 * best
                ))
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
}
